//! Memory bounded and said: a lazy machine stops growing at its budget (`--max-memory`, 8 GiB
//! by default) and says so; what it cannot box it plays at random.

use std::sync::Arc;

use crate::common::{json, run};
use matchbox::game::Side;
use matchbox::games::havannah::{Base, Havannah};
use matchbox::learn::{BoxSet, Forced, Machine, Reinforcement, StageBeads, SymmetryMode, lazy};
use matchbox::players::RandomPlayer;

#[test]
fn a_lazy_machine_stops_growing_at_its_budget() {
    let game = Havannah::new(Base::new(6).unwrap());
    let mut set = BoxSet::lazy(&game, Side::First, SymmetryMode::Full, Forced::Include);
    assert_eq!(set.budget(), matchbox::learn::boxes::DEFAULT_BUDGET);
    set.set_budget(2_000_000);
    let mut m = Machine::new(
        Arc::new(set),
        StageBeads::uniform(1),
        Reinforcement::GARDNER,
        3,
    );
    let results = lazy::train(&game, &mut m, &mut RandomPlayer, 3_000);
    assert_eq!(results.len(), 3_000, "every game is played to its end");
    assert!(m.boxes.memory() <= 2_000_000, "{}", m.boxes.memory());
    assert!(
        m.boxes.memory() > 1_900_000,
        "it filled up: {}",
        m.boxes.memory()
    );
    assert!(m.unboxed > 0);
    let boxes = m.boxes.len();
    lazy::train(&game, &mut m, &mut RandomPlayer, 100);
    assert_eq!(m.boxes.len(), boxes, "no box past the budget");
}

#[test]
fn train_says_when_the_machine_is_full() {
    let args = [
        "train",
        "havannah",
        "--size",
        "6",
        "--opponent",
        "random",
        "--games",
        "2000",
        "--seed",
        "1",
        "--max-memory",
        "1MB",
    ];
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let report = json(&with_json);
    assert!(
        report["box_bytes"].as_u64().unwrap() <= 1_000_000,
        "{report}"
    );
    assert!(
        report["played_without_box"].as_u64().unwrap() > 0,
        "{report}"
    );
    let text = String::from_utf8(run(&args).stdout).unwrap();
    assert!(text.contains("the machine is full"), "{text}");
    // Without a limit it is not full, and says nothing of it.
    let report = json(&[
        "train",
        "havannah",
        "--size",
        "6",
        "--opponent",
        "random",
        "--games",
        "200",
        "--seed",
        "1",
        "--json",
    ]);
    assert_eq!(report["played_without_box"], 0);
    // A size that is no size.
    for bad in ["lots", "0", "5XB", "-1GB", "1e99GB"] {
        let flag = format!("--max-memory={bad}");
        let out = run(&["train", "havannah", "--size", "6", "--games", "1", &flag]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains("--max-memory"),
            "{bad}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{bad}: {err}");
    }
}

/// Labels bounded by what they would write: the size is known from a sample of labels before
/// any page is made, and past the bound the command stops at once, saying it.
#[test]
fn labels_too_big_to_make_are_refused_first() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("h10.yaml");
    let m = m.to_str().unwrap();
    json(&[
        "train",
        "havannah",
        "--size",
        "10",
        "--opponent",
        "random",
        "--games",
        "30",
        "--seed",
        "1",
        "--save",
        m,
        "--json",
    ]);
    let out = dir.path().join("l.svg");
    let err = crate::common::refused(&[
        "boxes",
        "havannah",
        "--size",
        "10",
        "--boxes",
        m,
        "--labels",
        out.to_str().unwrap(),
    ]);
    assert!(
        err.contains("the labels of 2,782 boxes would take about"),
        "{err}"
    );
    assert!(err.contains("MB of SVG pages"), "{err}");
    assert!(
        std::fs::read_dir(dir.path()).unwrap().count() == 1,
        "no page written"
    );
}
