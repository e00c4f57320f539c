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
