//! The fast run loops play the same games as before: experiments give, byte for byte, the JSON
//! that matchbox printed before them (stored in `tests/data/experiments/`, with the command of
//! each in `cases.txt`), for every symmetry, reinforcement and side.

mod common;

#[test]
fn experiments_print_the_stored_json() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/experiments");
    let cases = std::fs::read_to_string(dir.join("cases.txt")).unwrap();
    let mut checked = 0;
    for line in cases.lines().filter(|l| !l.trim().is_empty()) {
        let (name, command) = line.split_once(' ').unwrap();
        let mut args: Vec<&str> = command.split_whitespace().collect();
        args.push("--json");
        let stored = std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap();
        assert_eq!(common::stdout(&args), stored, "{name}: {command}");
        checked += 1;
    }
    assert!(checked >= 10);
}
