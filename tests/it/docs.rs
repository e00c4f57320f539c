//! The documents for their readers: the README short enough for a teacher, the architecture
//! complete.

use std::path::Path;

fn read(file: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap()
}

#[test]
fn the_readme_is_a_teachers_length() {
    let lines = read("README.md").lines().count();
    assert!(lines <= 400, "the README has {lines} lines");
}

#[test]
fn the_architecture_names_every_module() {
    let doc = read("docs/architecture.md");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name == "lib.rs" || name == "main.rs" {
            continue;
        }
        let shown = format!("src/{name}");
        if !doc.contains(&shown) {
            missing.push(shown);
        }
    }
    assert!(
        missing.is_empty(),
        "docs/architecture.md never names {missing:?}"
    );
}

#[test]
fn every_document_the_readme_links_is_there() {
    let readme = read("README.md");
    for link in readme.split("](").skip(1) {
        let target = link.split(')').next().unwrap().split('#').next().unwrap();
        if target.is_empty() || target.starts_with("http") {
            continue;
        }
        assert!(
            Path::new(env!("CARGO_MANIFEST_DIR")).join(target).exists(),
            "the README links {target}, which is not there"
        );
    }
}

/// The README's watch screen is what its command draws today (`film … --out her.txt`), not a
/// screen typed once: `UPDATE_README=1 cargo test --test it docs::` writes it there again.
#[test]
fn the_readmes_screen_is_what_its_command_draws() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("her.txt");
    crate::common::stdout(&[
        "film",
        "hexapawn",
        "--games",
        "40",
        "--seed",
        "1",
        "--screen",
        "80x24",
        "--out",
        out.to_str().unwrap(),
    ]);
    let drawn = std::fs::read_to_string(&out).unwrap();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let readme = read("README.md");
    let intro = "--screen 80x24 --out her.txt` writes it as text):\n\n```\n";
    let start = readme.find(intro).expect("the README's watch screen") + intro.len();
    let end = start + readme[start..].find("```\n").unwrap();
    if readme[start..end] != drawn && std::env::var_os("UPDATE_README").is_some() {
        let updated = format!("{}{drawn}{}", &readme[..start], &readme[end..]);
        std::fs::write(&path, updated).unwrap();
        return;
    }
    assert_eq!(
        readme[start..end],
        drawn,
        "the README's screen is out of date: UPDATE_README=1 cargo test --test it docs::"
    );
}
