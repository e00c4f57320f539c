//! The floors of the crate, checked in its source: a module imports only from its own floor or
//! below; the modules the browser's build covers use no terminal, file, thread, clock, progress
//! bar or command line; no two files import each other, however far round; and no function or
//! file grows past the project's limits.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The floors, from the bottom.
const FLOORS: &[&[&str]] = &[
    &["rng", "palette", "text", "words", "par"],
    &["game", "solve", "players", "learn", "cartpole"],
    &["store", "chart", "labels", "view", "film"],
    &["games"],
    &["front", "class", "cli", "tui", "main"],
];

/// Every source file under `src/`, by its path from `src/` (`learn/bout/mod.rs`), with its code:
/// comments and string contents removed (so words in documentation do not count).
fn sources() -> BTreeMap<String, String> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<String, String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.insert(rel, code_of(&std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    walk(&root, &root, &mut out);
    out
}

/// The code of a file: each line up to a `//` comment, string literals emptied.
fn code_of(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let (mut in_str, mut prev) = (false, ' ');
        for (i, c) in line.char_indices() {
            if !in_str && c == '/' && line[i..].starts_with("//") {
                break;
            }
            if c == '"' && prev != '\\' {
                in_str = !in_str;
                out.push('"');
            } else if !in_str {
                out.push(c);
            }
            prev = c;
        }
        out.push('\n');
    }
    out
}

/// The top module of a file (`learn` for `learn/bout/live.rs`, `main` for `main.rs`).
fn top(file: &str) -> &str {
    file.split('/').next().unwrap().trim_end_matches(".rs")
}

fn floor_of(module: &str) -> Option<usize> {
    FLOORS.iter().position(|f| f.contains(&module))
}

/// The crate's top modules a file names as `crate::X`.
fn named_modules(code: &str) -> BTreeSet<String> {
    code.split("crate::")
        .skip(1)
        .filter_map(|rest| {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            (!name.is_empty()).then_some(name)
        })
        .collect()
}

#[test]
fn every_module_imports_only_from_its_floor_or_below() {
    for (file, code) in sources() {
        if file == "lib.rs" {
            continue;
        }
        let own = floor_of(top(&file)).unwrap_or_else(|| panic!("{file}: no floor"));
        for m in named_modules(&code) {
            if let Some(f) = floor_of(&m) {
                assert!(
                    f <= own,
                    "{file} (floor {}) imports {m} (floor {})",
                    own + 1,
                    f + 1
                );
            }
        }
        if own < 4 {
            for front in ["clap", "crossterm", "indicatif"] {
                assert!(!code.contains(front), "{file} uses {front}");
            }
        }
    }
}

/// The modules `cargo build --lib --no-default-features --target wasm32-unknown-unknown` covers
/// hold no terminal, file, thread or clock (the file and claim modules of `store` are behind `native`).
#[test]
fn the_browsers_modules_hold_no_terminal_file_thread_or_clock() {
    for (file, code) in sources() {
        let front =
            floor_of(top(&file)) == Some(4) || file == "store/files.rs" || file == "store/claim.rs";
        if front || file == "lib.rs" {
            continue;
        }
        for word in [
            "crossterm",
            "std::fs",
            "std::thread",
            "Instant",
            "indicatif",
            "clap",
            "std::process",
            "rayon::",
        ] {
            let allowed = word == "rayon::" && (file == "par.rs" || file == "learn/experiment.rs");
            assert!(allowed || !code.contains(word), "{file} uses {word}");
        }
    }
    let lib =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    for front in ["pub mod cli;", "pub mod tui;"] {
        let at = lib.find(front).unwrap();
        assert!(
            lib[..at]
                .trim_end()
                .ends_with("#[cfg(feature = \"native\")]"),
            "{front} is not behind the native feature"
        );
    }
}

/// The file `crate::a::b::…` or `super::…` names from `file`, if it is one of `files`.
fn resolve(file: &str, path: &[String], files: &BTreeSet<String>) -> Option<String> {
    for n in (1..=path.len()).rev() {
        let p = path[..n].join("/");
        for candidate in [format!("{p}.rs"), format!("{p}/mod.rs")] {
            if files.contains(&candidate) && candidate != file {
                return Some(candidate);
            }
        }
    }
    None
}

/// The directory a file's `super` is, as a path of segments from `src/`.
fn parent_segments(file: &str) -> Vec<String> {
    let mut parts: Vec<String> = file.split('/').map(String::from).collect();
    parts.pop();
    if !file.ends_with("mod.rs") {
        return parts;
    }
    parts.pop();
    parts
}

/// Each file's imports of other files (not of its own module's `mod.rs`, nor a `mod.rs`'s of
/// the files it declares: those are a module and its parts).
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let src = sources();
    let files: BTreeSet<String> = src.keys().cloned().collect();
    let mut graph = BTreeMap::new();
    for (file, code) in &src {
        let mut to = BTreeSet::new();
        for (prefix, base) in [("crate::", Vec::new()), ("super::", parent_segments(file))] {
            for rest in code.split(prefix).skip(1) {
                let segs: Vec<String> = rest
                    .split("::")
                    .map(|s| {
                        s.chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect()
                    })
                    .take_while(|s: &String| {
                        !s.is_empty()
                            && s.chars()
                                .all(|c| c.is_lowercase() || c == '_' || c.is_ascii_digit())
                    })
                    .collect();
                let path: Vec<String> = base.iter().cloned().chain(segs).collect();
                if let Some(t) = resolve(file, &path, &files) {
                    let dir = |f: &str| PathBuf::from(f).parent().map(Path::to_path_buf);
                    let family = (t.ends_with("mod.rs")
                        && dir(file).unwrap().starts_with(dir(&t).unwrap()))
                        || (file.ends_with("mod.rs")
                            && dir(&t).unwrap().starts_with(dir(file).unwrap()));
                    if !family {
                        to.insert(t);
                    }
                }
            }
        }
        graph.insert(file.clone(), to);
    }
    graph
}

#[test]
fn no_two_files_import_each_other() {
    let graph = imports();
    // Depth-first search for a cycle, reporting it whole.
    fn visit(
        f: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) {
        state.insert(f.to_string(), 1);
        stack.push(f.to_string());
        for t in &graph[f] {
            match state.get(t) {
                Some(1) => {
                    let at = stack.iter().position(|s| s == t).unwrap();
                    panic!("import cycle: {} -> {t}", stack[at..].join(" -> "));
                }
                Some(_) => {}
                None => visit(t, graph, state, stack),
            }
        }
        stack.pop();
        state.insert(f.to_string(), 2);
    }
    let mut state = BTreeMap::new();
    for f in graph.keys() {
        if !state.contains_key(f) {
            visit(f, &graph, &mut state, &mut Vec::new());
        }
    }
}

/// Every Rust file the size rules cover: the crate's `src/` and the page's (`web/src`,
/// `web/convert/src`), by path from the repository's root.
fn sized_files() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in ["src", "web/src", "web/convert/src"] {
        walk(&root.join(dir), &mut out);
    }
    out.sort();
    out
}

#[test]
fn the_size_rules_cover_the_page_too() {
    let files = sized_files();
    for want in [
        "web/src/lib.rs",
        "web/convert/src/lib.rs",
        "src/learn/bout/mod.rs",
    ] {
        assert!(
            files.iter().any(|f| f.ends_with(want)),
            "{want} is not checked"
        );
    }
}

#[test]
fn no_file_over_1000_lines_and_no_function_over_100() {
    for path in sized_files() {
        let file = path.display();
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines.len() <= 1000, "{file}: {} lines", lines.len());
        // A function: from its `fn` line to the line closing it at the same indent.
        for (i, l) in lines.iter().enumerate() {
            let t = l.trim_start();
            let is_fn = [
                "fn ",
                "pub fn ",
                "pub(crate) fn ",
                "pub(super) fn ",
                "async fn ",
                "pub async fn ",
                "pub(crate) async fn ",
                "const fn ",
                "pub const fn ",
            ]
            .iter()
            .any(|p| t.starts_with(p));
            if !is_fn || t.ends_with(';') {
                continue;
            }
            let indent = l.len() - t.len();
            let close = format!("{}}}", " ".repeat(indent));
            if let Some(len) = lines[i + 1..].iter().position(|x| *x == close) {
                assert!(
                    len + 2 < 100,
                    "{file}:{}: a function of {} lines",
                    i + 1,
                    len + 2
                );
            }
        }
    }
}

/// The core speaks no command line: its messages name no option (`--opponent`), since the page
/// and the class server have none; what would get round an error is a `Hint`, worded by each
/// front end.
#[test]
fn the_core_names_no_command_line_option() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for (file, _) in sources() {
        if !["learn", "game", "solve", "players"].contains(&top(&file)) {
            continue;
        }
        let text = std::fs::read_to_string(root.join(&file)).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            // An option in a string: a quote, then `--` and a letter before the next quote.
            for part in code.split('"').skip(1).step_by(2) {
                let bytes = part.as_bytes();
                if bytes
                    .windows(3)
                    .any(|w| w[0] == b'-' && w[1] == b'-' && w[2].is_ascii_lowercase())
                {
                    found.push(format!("{file}:{}: {}", n + 1, line.trim()));
                }
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}
