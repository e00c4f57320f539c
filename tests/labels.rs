//! Printable labels: every SVG page parses, there is one label per box and one arrow per box arrow,
//! the bead shopping list adds up, and the counts agree with `boxes --count`.

use std::process::Command;

use matchbox::game::Side;
use matchbox::games::hexapawn::Hexapawn;
use matchbox::games::tictactoe::TicTacToe;
use matchbox::labels::{self, Layout, Paper};
use matchbox::learn::{BoxSet, Forced, Preset, StageBeads, SymmetryMode};
use resvg::usvg;

fn check<G: labels::LabelView>(
    game: &G,
    set: &BoxSet<G>,
    beads: &StageBeads,
    layout: Layout,
) -> usize {
    let pages = labels::sheets(game, set, beads, "test", layout);
    let (mut boxes, mut arrows, mut listed) = (0, 0, 0u64);
    for page in &pages {
        usvg::Tree::from_str(page, &usvg::Options::default()).expect("each page is valid SVG");
        boxes += page.matches(r#"<g class="label""#).count();
        arrows += page.matches(r#"<g class="arrow""#).count();
        for part in page.split(r#"class="bead-count" data-count=""#).skip(1) {
            listed += part.split('"').next().unwrap().parse::<u64>().unwrap();
        }
    }
    assert_eq!(boxes, set.len(), "one label per box");
    assert_eq!(arrows, set.arrow_count(), "one arrow per box arrow");
    let needed: u64 = set
        .boxes()
        .iter()
        .map(|b| beads.for_stage(b.stage as usize).get() as u64 * b.arrows.len() as u64)
        .sum();
    assert_eq!(
        listed, needed,
        "the shopping list on the first sheet is the sum over boxes"
    );
    let list: u64 = labels::bead_list(set, beads).iter().map(|b| b.2).sum();
    assert_eq!(list, needed);
    pages.len()
}

#[test]
fn her_and_menace_labels() {
    let hex = Hexapawn::new("3x3".parse().unwrap());
    let a4 = Layout::default();
    for (mode, boxes) in [(SymmetryMode::Gardner, 24), (SymmetryMode::Full, 19)] {
        let set = BoxSet::build(&hex, Side::Second, mode);
        assert_eq!(set.len(), boxes);
        assert_eq!(check(&hex, &set, &StageBeads::uniform(1), a4), 2);
    }
    let him = BoxSet::build(&hex, Side::First, SymmetryMode::Full);
    check(&hex, &him, &StageBeads::uniform(1), a4);
    let octo = Hexapawn::new("4x4".parse().unwrap());
    let set = BoxSet::build(&octo, Side::Second, SymmetryMode::Full);
    check(
        &octo,
        &set,
        &StageBeads::uniform(1),
        Layout {
            paper: Paper::Letter,
            label: (60.0, 45.0),
        },
    );
    let menace = BoxSet::build_with(&TicTacToe, Side::First, SymmetryMode::Full, Forced::Skip);
    assert_eq!(menace.len(), 304);
    let pages = check(&TicTacToe, &menace, &Preset::Michie.beads(), a4);
    assert!(pages > 15);
    // Bigger labels, fewer per page.
    let big = Layout {
        paper: Paper::A4,
        label: (90.0, 60.0),
    };
    assert!(check(&TicTacToe, &menace, &Preset::Michie.beads(), big) > pages);
}

#[test]
fn labels_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("her.svg");
    let out = Command::new(env!("CARGO_BIN_EXE_matchbox"))
        .args([
            "boxes",
            "hexapawn",
            "--labels",
            file.to_str().unwrap(),
            "--bead-list",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["boxes"], 24);
    let total: u64 = v["bead_list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["beads"].as_u64().unwrap())
        .sum();
    assert_eq!(total, v["beads"].as_u64().unwrap());
    for page in ["her-1.svg", "her-2.svg"] {
        let text = std::fs::read_to_string(dir.path().join(page)).unwrap();
        assert!(text.contains(r#"width="210mm""#), "A4 by default");
    }
    assert!(!dir.path().join("her-3.svg").exists());
    let bad = Command::new(env!("CARGO_BIN_EXE_matchbox"))
        .args([
            "boxes",
            "hexapawn",
            "--labels",
            "x.svg",
            "--label-size",
            "5x5",
        ])
        .output()
        .unwrap();
    assert!(!bad.status.success());
}

#[test]
fn shipped_label_sheets_are_current() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let hex = Hexapawn::new("3x3".parse().unwrap());
    let set = BoxSet::build(&hex, Side::Second, SymmetryMode::Gardner);
    let pages = labels::sheets(
        &hex,
        &set,
        &StageBeads::uniform(1),
        "HER: hexapawn 3x3 · black · gardner symmetry · beads 1",
        Layout::default(),
    );
    for (i, page) in pages.iter().enumerate() {
        let path = root.join(format!("boxes/labels/her-gardner-{}.svg", i + 1));
        assert_eq!(
            &std::fs::read_to_string(path).unwrap(),
            page,
            "page {} is stale",
            i + 1
        );
    }
}

mod common;
use common::json;

#[test]
fn count_agrees_with_boxes_and_estimates_what_cannot_be_enumerated() {
    for (game, side_names) in [("hexapawn", ["white", "black"]), ("tictactoe", ["x", "o"])] {
        let v = json(&["count", game, "--json"]);
        let counts = v["counts"].as_array().unwrap();
        assert!(!counts.is_empty());
        for row in counts {
            let side = row["side"].as_str().unwrap();
            assert!(side_names.contains(&side));
            let mode = row["symmetry"].as_str().unwrap();
            let b = json(&[
                "boxes",
                game,
                "--side",
                side,
                "--symmetry",
                mode,
                "--count",
                "--json",
            ]);
            assert_eq!(
                row["boxes"].as_f64().unwrap(),
                b["boxes"].as_f64().unwrap(),
                "{game} {side} {mode}"
            );
            assert_eq!(row["arrows"], b["arrows"]);
            assert_eq!(row["beads"], b["beads"]);
            assert!(row["method"].as_str().unwrap().starts_with("exact"));
            let litres = row["volume_litres"].as_f64().unwrap();
            let boxes = row["boxes"].as_f64().unwrap();
            assert!((litres - boxes * 0.053 * 0.036 * 0.014 * 1000.0).abs() < 1e-9);
            let side_m = row["cube_side_m"].as_f64().unwrap();
            assert!((side_m.powi(3) * 1000.0 - litres).abs() < 1e-6 * litres.max(1.0));
        }
    }
    // A board whose bound is large but whose reachable positions are few is counted exactly, as
    // `boxes` lists it (3x7: a bound of about 10^8, 67,546 boxes without symmetry).
    let v = json(&["count", "hexapawn", "--size", "3x7", "--json"]);
    for row in v["counts"].as_array().unwrap() {
        assert!(
            row["method"].as_str().unwrap().starts_with("exact"),
            "{row}"
        );
        let b = json(&[
            "boxes",
            "hexapawn",
            "--size",
            "3x7",
            "--side",
            row["side"].as_str().unwrap(),
            "--symmetry",
            row["symmetry"].as_str().unwrap(),
            "--count",
            "--json",
        ]);
        assert_eq!(row["boxes"].as_f64().unwrap(), b["boxes"].as_f64().unwrap());
    }
    // A chessboard is far beyond enumeration: an upper bound, named as such.
    let v = json(&["count", "hexapawn", "--size", "8x8", "--json"]);
    let none = v["counts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["symmetry"] == "none")
        .unwrap();
    assert!(none["method"].as_str().unwrap().starts_with("upper bound"));
    assert!(none["boxes"].as_f64().unwrap() > 1e15);
    assert!(none["arrows"].is_null());
}

/// The base-2 Havannah machine a class can build: 19 boxes, each a hexagon with its arrows as
/// coloured, lettered cells; the shipped sheets are the current ones.
#[test]
fn havannah_base_2_labels() {
    use matchbox::games::havannah::{Base, Havannah};
    let game = Havannah::new(Base::new(2).unwrap());
    let set = BoxSet::build_with(&game, Side::First, SymmetryMode::Full, Forced::Skip);
    assert_eq!(set.len(), 19);
    let beads = Preset::Gardner.beads();
    let pages = check(&game, &set, &beads, Layout::default());
    assert_eq!(pages, 2);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let shipped: Vec<String> = (1..=2)
        .map(|i| {
            std::fs::read_to_string(root.join(format!("boxes/labels/havannah-2-{i}.svg"))).unwrap()
        })
        .collect();
    let labels: usize = shipped
        .iter()
        .map(|p| p.matches(r#"<g class="label""#).count())
        .sum();
    assert_eq!(labels, 19);
    assert!(shipped[0].contains("<polygon"), "hexagonal cells");
}
