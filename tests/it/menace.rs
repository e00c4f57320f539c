//! Noughts and crosses and MENACE against the published figures: 304 boxes (1/12/108/183 at moves
//! 1/3/5/7), 338 with the forced ninth move, 289 playing second (3/38/153/95); the game is a draw.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use matchbox::game::graph::GameGraph;
use matchbox::game::{Game, Side, Sym};
use matchbox::games::tictactoe::TicTacToe;
use matchbox::learn::Machine;
use matchbox::learn::engine::{Enumerated, Table, Trainer};
use matchbox::learn::{BoxSet, Forced, GameResult, Preset, SymmetryMode};
use matchbox::rng::rng_from_seed;
use matchbox::solve::{Solution, TieBreak};
use matchbox::store;
use serde_json::Value;

use crate::common::json;

#[test]
fn menace_box_counts_match_michie() {
    let cases: &[(&[&str], u64, &str)] = &[
        (&[], 304, r#"{"1":1,"3":12,"5":108,"7":183}"#),
        (
            &["--include-forced"],
            338,
            r#"{"1":1,"3":12,"5":108,"7":183,"9":34}"#,
        ),
        (&["--side", "o"], 289, r#"{"2":3,"4":38,"6":153,"8":95}"#),
        (
            &["--side", "second"],
            289,
            r#"{"2":3,"4":38,"6":153,"8":95}"#,
        ),
    ];
    for game in ["tictactoe", "noughts"] {
        for (extra, boxes, by_move) in cases {
            let mut args = vec!["boxes", game, "--count", "--json"];
            args.extend_from_slice(extra);
            let v = json(&args);
            assert_eq!(v["boxes"], *boxes, "{extra:?}");
            let expected: Value = serde_json::from_str(by_move).unwrap();
            assert_eq!(v["by_move"], expected, "{extra:?}");
        }
    }
    // Michie's beads: 4, 3, 2, 1 per arrow at moves 1, 3, 5, 7.
    let v = json(&[
        "boxes",
        "tictactoe",
        "--count",
        "--json",
        "--preset",
        "michie",
    ]);
    let set = BoxSet::build_with(&TicTacToe, Side::First, SymmetryMode::Full, Forced::Skip);
    let beads: u64 = set
        .iter()
        .map(|b| [4, 3, 2, 1][b.stage as usize] * b.arrows.len() as u64)
        .sum();
    assert_eq!(v["beads"], beads);
    assert_eq!(v["arrows"], set.arrow_count() as u64);
}

#[test]
fn positions_already_won_are_not_boxes_and_symmetric_moves_share_an_arrow() {
    let g = TicTacToe;
    let set = BoxSet::build_with(&g, Side::First, SymmetryMode::Full, Forced::Skip);
    // The empty board has three distinct moves: corner, edge, centre.
    assert_eq!(set.get(0).arrows.len(), 3);
    for b in set.iter() {
        assert!(g.outcome(&b.position).is_none());
        assert!(g.moves(&b.position).len() > 1, "no box for a forced move");
        assert_eq!(g.canonical(&b.position).0, b.position);
    }
}

#[test]
fn the_game_is_a_draw_and_perfect_players_always_draw() {
    let g = TicTacToe;
    let graph = GameGraph::build(&g);
    assert_eq!(
        graph.len(),
        5478,
        "the reachable positions of noughts and crosses"
    );
    let solution = Solution::solve(&graph).expect("no cycles");
    assert_eq!(solution.winner(&graph, 0), None);
    let v = json(&["solve", "tictactoe", "--json"]);
    assert_eq!(v["winner"], "draw");
    let mut rng = rng_from_seed(1);
    for _ in 0..2000 {
        let mut n = 0;
        while !graph.is_terminal(n) {
            let best = solution.best_moves(&graph, n, TieBreak::Random);
            let i = best[matchbox::rng::uniform_below(&mut rng, best.len() as u32) as usize];
            n = graph.children(n)[i];
        }
        assert_eq!(
            graph.outcome(n).unwrap().winner,
            None,
            "perfect against perfect"
        );
    }
}

#[test]
fn rules_and_notation() {
    let g = TicTacToe;
    let p = g.parse_position("XX./OO./...", Side::First).unwrap();
    let win = g.play(&p, g.parse_move(&p, "c3").unwrap());
    assert_eq!(g.format_position(&win), "XXX/OO./...");
    assert_eq!(g.outcome(&win).unwrap().winner, Some(Side::First));
    assert!(g.moves(&win).is_empty());
    let full = g.parse_position("XOX/XOO/OXX", Side::Second).unwrap();
    assert_eq!(g.outcome(&full).unwrap().winner, None);
    let err = g.parse_move(&p, "a3").unwrap_err().to_string();
    assert!(err.contains("a3 is not a legal move"), "{err}");
    assert!(
        g.parse_move(&p, "d4")
            .unwrap_err()
            .to_string()
            .contains("e.g. b2")
    );
    for (bad, side) in [
        ("XX./.../...", Side::First),
        ("XXX/OO./...", Side::First),
        ("X../.../...", Side::First),
        ("XXX/OOO/...", Side::Second),
    ] {
        assert!(g.parse_position(bad, side).is_err(), "{bad}");
    }
    // The 8 symmetries are distinct and each has an inverse.
    let corner = g.parse_position("X../.../...", Side::Second).unwrap();
    let images: std::collections::HashSet<_> = (0..8)
        .map(|s| g.transform_position(Sym(s), &corner))
        .collect();
    assert_eq!(images.len(), 4, "a corner mark has 4 images");
    let asym = g.parse_position("XO./.../...", Side::First).unwrap();
    let images: std::collections::HashSet<_> = (0..8)
        .map(|s| g.transform_position(Sym(s), &asym))
        .collect();
    assert_eq!(images.len(), 8);
    for s in 0..8 {
        let back = g.transform_position(g.inverse(Sym(s)), &g.transform_position(Sym(s), &asym));
        assert_eq!(back, asym);
    }
}

#[test]
fn shipped_menace_and_him_are_fresh() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("boxes/menace.yaml");
    let m = store::from_yaml(&TicTacToe, &path, &std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(m.boxes.len(), 304);
    assert_eq!(m.boxes.forced(), Forced::Skip);
    assert_eq!(m.initial, Preset::Michie.beads());
    assert_eq!(m.reinforcement, Preset::Michie.reinforcement());
    for b in 0..m.boxes.len() {
        let want = [4, 3, 2, 1][m.boxes.get(b).stage as usize];
        assert!(m.beads_in(b).iter().all(|x| x.get() == want));
    }
    let fresh = Machine::new(
        Arc::new(BoxSet::build_with(
            &TicTacToe,
            Side::First,
            SymmetryMode::Full,
            Forced::Skip,
        )),
        Preset::Michie.beads(),
        Preset::Michie.reinforcement(),
        1961,
    );
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        store::to_yaml(&TicTacToe, &fresh, None),
        "boxes/menace.yaml is stale"
    );
    let game = matchbox::games::hexapawn::Hexapawn::new("3x3".parse().unwrap());
    let path = root.join("boxes/hexapawn-him.yaml");
    let m = store::from_yaml(&game, &path, &std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!((m.boxes.len(), m.boxes.side()), (18, Side::First));
}

#[test]
fn menace_learns_and_plays_its_forced_ninth_move_without_a_box() {
    let arena = Enumerated::new(TicTacToe);
    let boxes = Arc::new(BoxSet::build_with(
        &TicTacToe,
        Side::First,
        SymmetryMode::Full,
        Forced::Skip,
    ));
    for random in [true, false] {
        let table = if random {
            Table::against_random(&arena, &boxes)
        } else {
            Table::against_perfect(&arena, &boxes, TieBreak::Random).unwrap()
        };
        let t = Trainer::new(&arena, &table);
        let mut m = Machine::new(
            Arc::clone(&boxes),
            Preset::Michie.beads(),
            Preset::Michie.reinforcement(),
            3,
        );
        let results = t.train(&mut m, 500);
        let wins = results.iter().filter(|&&r| r == GameResult::Win).count();
        let draws = results.iter().filter(|&&r| r == GameResult::Draw).count();
        if random {
            assert!(
                wins > 250,
                "MENACE beats a random player most of the time: {wins}"
            );
            assert!(draws > 0, "some games go to the ninth move and draw");
        } else {
            assert_eq!(wins, 0, "nobody beats the perfect player");
        }
    }
}

#[test]
fn experiment_reports_first_box_empty() {
    let v = json(&[
        "experiment",
        "tictactoe",
        "--runs",
        "400",
        "--games",
        "200",
        "--seed",
        "1",
        "--json",
        "--preset",
        "michie",
    ]);
    let share = v["first_box_empty"].as_f64().unwrap();
    assert!(
        share > 0.2 && share < 0.95,
        "Michie's MENACE often empties its first box: {share}"
    );
    assert_eq!(v["loss_rate"].as_array().unwrap().len(), 200);
    let s = &v["summary"];
    let kept = s["loss_rate_last_20_first_box_kept"].as_f64().unwrap();
    let all = s["loss_rate_last_20"].as_f64().unwrap();
    assert!(
        kept < all,
        "machines that kept their first box lose less: {kept} vs {all}"
    );
    // Scroggs' 8 beads in the first box empty far less often.
    let v2 = json(&[
        "experiment",
        "tictactoe",
        "--runs",
        "400",
        "--games",
        "200",
        "--seed",
        "1",
        "--json",
        "--preset",
        "scroggs",
    ]);
    assert!(v2["first_box_empty"].as_f64().unwrap() < share);
}

#[test]
fn her_against_him_ends_with_black_winning_every_game() {
    let v = json(&[
        "experiment",
        "hexapawn",
        "--opponent",
        "matchbox",
        "--runs",
        "500",
        "--games",
        "200",
        "--seed",
        "3",
        "--json",
    ]);
    assert_eq!(v["settings"]["learner"], "black");
    assert_eq!(v["settings"]["opponent"], "matchbox");
    assert_eq!(v["settings"]["opponent_machine"]["side"], "white");
    // The solved value: Black wins. Every run ends with HER winning all of its last 20 games.
    assert_eq!(v["clean_last_20"], 1.0);
    let mean = v["mean_last_loss"].as_f64().unwrap();
    assert!(mean > 1.0 && mean < 60.0, "HER stops losing early: {mean}");
    // Seen from HIM's side it is the other way round.
    let w = json(&[
        "experiment",
        "hexapawn",
        "--opponent",
        "matchbox",
        "--side",
        "white",
        "--runs",
        "200",
        "--games",
        "200",
        "--seed",
        "3",
        "--json",
    ]);
    assert_eq!(w["summary"]["loss_rate_last_20"], 1.0);
}

#[test]
fn both_machines_learn_and_both_can_be_saved() {
    let dir = tempfile::tempdir().unwrap();
    let (her, him) = (dir.path().join("her.yaml"), dir.path().join("him.yaml"));
    let (her_s, him_s) = (her.to_str().unwrap(), him.to_str().unwrap());
    let v = json(&[
        "train",
        "hexapawn",
        "--opponent",
        "matchbox",
        "--games",
        "40",
        "--seed",
        "9",
        "--json",
        "--save",
        her_s,
        "--save-opponent",
        him_s,
    ]);
    let lost = v["losses"].as_u64().unwrap();
    let won = v["wins"].as_u64().unwrap();
    assert!(lost > 0 && won > 0);
    // Gardner's scheme takes a bead per loss from each machine's last move (or none when it
    // resigned before moving), so both have fewer beads than they started with.
    assert!(v["beads_left"].as_u64().unwrap() < 55);
    let rival = &v["opponent_machine"];
    assert_eq!(rival["games_played"], 40);
    assert!(rival["beads_left"].as_u64().unwrap() < 37);
    let game = matchbox::games::hexapawn::Hexapawn::new("3x3".parse().unwrap());
    let m = store::from_yaml(&game, &him, &std::fs::read_to_string(&him).unwrap()).unwrap();
    assert_eq!((m.boxes.side(), m.games_played), (Side::First, 40));
    // Resume both: the saved HIM as the opponent of the saved HER.
    let opp = format!("matchbox:{him_s}");
    let v2 = json(&[
        "train",
        "hexapawn",
        "--boxes",
        her_s,
        "--opponent",
        &opp,
        "--games",
        "10",
        "--json",
    ]);
    assert_eq!(v2["games_played"], 50);
    assert_eq!(v2["settings"]["opponent_machine"]["seed"], m.seed);
    // A machine for the wrong side is refused.
    let out = Command::new(env!("CARGO_BIN_EXE_matchbox"))
        .args([
            "train",
            "hexapawn",
            "--opponent",
            &format!("matchbox:{her_s}"),
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("must play white"));
}

/// The default MENACE learns against the perfect player for nearly every seed: 1,000 machines,
/// 200 games each. Michie's own settings, on the same seeds, give up for good in most runs.
#[test]
fn the_default_menace_learns_to_draw_for_nearly_every_seed() {
    let args = |preset: &'static str| {
        let mut a = vec![
            "experiment",
            "tictactoe",
            "--runs",
            "1000",
            "--games",
            "200",
            "--seed",
            "1962",
            "--json",
        ];
        if !preset.is_empty() {
            a.extend(["--preset", preset]);
        }
        json(&a)
    };
    let v = args("");
    assert_eq!(v["settings"]["reinforcement"], "class", "{}", v["settings"]);
    assert_eq!(v["settings"]["initial_beads"], "8,3,2,1");
    let resigned = v["first_box_empty"].as_f64().unwrap();
    let drawn = v["summary"]["draw_rate_last_20"].as_f64().unwrap();
    let lost_first = v["summary"]["loss_rate_first_20"].as_f64().unwrap();
    assert!(resigned <= 0.01, "{resigned} of default machines resign");
    assert!(drawn >= 0.85, "games 181-200: {drawn} drawn");
    assert!(lost_first > 0.5, "it starts by losing: {lost_first}");
    let michie = args("michie");
    let gave_up = michie["first_box_empty"].as_f64().unwrap();
    assert!(gave_up > 0.4, "Michie's machines give up: {gave_up}");
}
