//! The fast run loops play the same games as before: experiments and long runs give the JSON
//! that matchbox printed before them (stored in `tests/data/experiments/`, with the command of
//! each in `cases.txt`), for every symmetry, reinforcement and side: the same text, key for key,
//! but for the counts of how games ended (`ended`), which came after (the files stored since hold
//! them, and they are compared too) and the digest of the starting machine (`start_machine`).

use serde_json::Value;

/// `v` without its `ended` counts (at the top and in each variant).
fn without_ends(v: Value) -> Value {
    without(v, "ended")
}

/// `v` without `key`, at the top and in each variant.
fn without(mut v: Value, key: &str) -> Value {
    if let Some(o) = v.as_object_mut() {
        o.remove(key);
        if let Some(Value::Array(vs)) = o.get_mut("variants") {
            for x in vs {
                if let Some(o) = x.as_object_mut() {
                    o.remove(key);
                }
            }
        }
    }
    v
}

/// `v` without the digests of the starting machine (which came after), wherever they stand, and
/// its numbers to ten decimals (the summary's means are printed so since).
fn without_digests(v: &mut Value) {
    match v {
        Value::Object(o) => {
            o.remove("start_machine");
            o.values_mut().for_each(without_digests);
        }
        Value::Array(a) => a.iter_mut().for_each(without_digests),
        Value::Number(n) if n.is_f64() => {
            let x = (n.as_f64().unwrap_or(0.0) * 1e10).round() / 1e10;
            *v = serde_json::json!(x);
        }
        _ => {}
    }
}

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
        let now: Value = serde_json::from_str(&crate::common::stdout(&args)).unwrap();
        assert!(now.get("ended").is_some(), "{name}: ends counted");
        // The stored text and today's, read the same way (numbers as parsed from the same text).
        let mut stored: Value = serde_json::from_str(&stored).unwrap();
        without_digests(&mut stored);
        // Files stored after the counts of how games ended came hold them too.
        let now = match stored.get("ended") {
            Some(_) => now,
            None => without_ends(now),
        };
        // The exact curve beside the simulated one came after every stored file: the simulated
        // figures are what is compared (the exact curve has tests of its own).
        let now = without(now, "exact");
        // Box 1's beads in `train`'s report came after the stored files too.
        let mut now = without(now, "first_box");
        assert!(
            stored.get("exact").is_none(),
            "{name}: a stored exact curve"
        );
        without_digests(&mut now);
        assert_eq!(now, stored, "{name}: {command}");
        checked += 1;
    }
    assert!(checked >= 10);
}
