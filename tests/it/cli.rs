//! The command line, run as a user runs it: JSON keys, determinism, resuming, errors.

use std::process::Command;

use serde_json::Value;

use crate::common::{json, run, stdout};

#[test]
fn boxes_count_json_reproduces_the_published_counts() {
    let cases: &[(&[&str], u64, Option<u64>, &str)] = &[
        // The default is Gardner's set.
        (&[], 24, Some(55), r#"{"2":2,"4":11,"6":11}"#),
        (
            &["--symmetry", "gardner"],
            24,
            Some(55),
            r#"{"2":2,"4":11,"6":11}"#,
        ),
        (
            &["--symmetry", "full"],
            19,
            Some(45),
            r#"{"2":2,"4":10,"6":7}"#,
        ),
        (&["--side", "white", "--symmetry", "full"], 18, None, ""),
        (&["--side", "first", "--symmetry", "full"], 18, None, ""),
        (&["--side", "black", "--symmetry", "none"], 37, None, ""),
        (&["--side", "white", "--symmetry", "none"], 33, None, ""),
    ];
    for (extra, boxes, arrows, by_move) in cases {
        let mut args = vec!["boxes", "hexapawn", "--count", "--json"];
        args.extend_from_slice(extra);
        let v = json(&args);
        assert_eq!(v["boxes"], *boxes, "{extra:?}");
        if let Some(a) = arrows {
            assert_eq!(v["arrows"], *a, "{extra:?}");
        }
        if !by_move.is_empty() {
            let expected: Value = serde_json::from_str(by_move).unwrap();
            assert_eq!(v["by_move"], expected, "{extra:?}");
        }
    }
}

/// Havannah base 2's boxes by move number, through `boxes --count --json`: White's empty board,
/// its 5 positions after a stone each (centre/edge, edge/centre, and two edge stones side by
/// side, one apart or opposite), 13 at move 5 (the forced move 7 only with `--include-forced`);
/// Black's 2 first boxes (White in the centre or on the edge).
#[test]
fn havannah_base_2_counts_by_move() {
    let cases: &[(&[&str], u64, &str)] = &[
        (&["--side", "white"], 19, r#"{"1":1,"3":5,"5":13}"#),
        (
            &["--side", "white", "--include-forced"],
            20,
            r#"{"1":1,"3":5,"5":13,"7":1}"#,
        ),
        (&["--side", "black"], 13, r#"{"2":2,"4":9,"6":2}"#),
        (
            &["--side", "black", "--include-forced"],
            13,
            r#"{"2":2,"4":9,"6":2}"#,
        ),
    ];
    for (extra, boxes, by_move) in cases {
        let mut args = vec!["boxes", "havannah", "--size", "2", "--count", "--json"];
        args.extend_from_slice(extra);
        let v = json(&args);
        assert_eq!(v["boxes"], *boxes, "{extra:?}");
        let expected: Value = serde_json::from_str(by_move).unwrap();
        assert_eq!(v["by_move"], expected, "{extra:?}");
    }
}

#[test]
fn boxes_lists_every_box_with_diagram_and_arrows() {
    let text = stdout(&["boxes", "hexapawn"]);
    assert!(text.starts_with("HER: hexapawn 3x3, learner black, symmetry gardner: 24 boxes"));
    assert!(text.contains("Box 24 · move 6"));
    assert!(
        text.contains("B a3xb2 ×1 (sky blue)"),
        "each arrow with its bead colour and beads"
    );
    let v = json(&["boxes", "hexapawn", "--json"]);
    let list = v["box_list"].as_array().unwrap();
    assert_eq!(list.len(), 24);
    assert_eq!(list[1]["position"], "BBB/.W./W.W");
    assert_eq!(list[1]["arrows"], serde_json::json!(["a3-a2", "a3xb2"]));
    let arrows: usize = list
        .iter()
        .map(|b| b["arrows"].as_array().unwrap().len())
        .sum();
    assert_eq!(arrows, 55);
}

#[test]
fn solve_reports_the_winner_and_best_first_moves() {
    let v = json(&["solve", "hexapawn", "--json"]);
    assert_eq!(v["winner"], "black");
    // Every first move loses; the best resists longest (b1-b2, lost in 6 plies, not 4).
    assert_eq!(v["best_moves"], serde_json::json!(["b1-b2"]));
    let text = crate::common::stdout(&["solve", "hexapawn"]);
    assert!(
        text.contains("b1-b2    loss in 6  (best: resists longest)"),
        "{text}"
    );
    assert!(text.contains("a1-a2    loss in 4\n"), "{text}");
    assert_eq!(
        v["principal_variation"],
        serde_json::json!(["b1-b2", "a3xb2", "c1xb2", "c3-c2", "a1-a2", "c2-c1"])
    );
    let v = json(&["solve", "octopawn", "--json"]);
    assert_eq!(v["winner"], "white");
    assert_eq!(v["best_moves"], serde_json::json!(["a1-a2", "d1-d2"]));
    let v = json(&["solve", "hexapawn", "--size", "3x4", "--json"]);
    assert_eq!(v["size"], "3x4");
    let text = stdout(&["solve", "hexapawn"]);
    assert!(
        text.contains("1. b1-b2 a3xb2 2. c1xb2 c3-c2 3. a1-a2 c2-c1"),
        "{text}"
    );
}

#[test]
fn train_json_is_deterministic_and_complete() {
    let args = [
        "train", "hexapawn", "--games", "60", "--seed", "7", "--json",
    ];
    let a = stdout(&args);
    assert_eq!(a, stdout(&args), "same seed, same output");
    let v: Value = serde_json::from_str(&a).unwrap();
    // One letter a game, as in the text output: W win, D draw, L loss.
    let results: Vec<char> = v["results"].as_str().unwrap().chars().collect();
    assert_eq!(results.len(), 60);
    assert!(results.iter().all(|c| "WDL".contains(*c)));
    assert_eq!(v["games"], 60);
    let n = |k: &str| v[k].as_u64().unwrap();
    assert_eq!(n("wins") + n("draws") + n("losses"), 60);
    let losses = results.iter().filter(|&&r| r == 'L').count() as u64;
    assert_eq!(losses, n("losses"));
    // Every default is recorded.
    let s = &v["settings"];
    for (k, want) in [
        ("learner", "black"),
        ("symmetry", "gardner"),
        ("opponent", "perfect"),
        ("reinforcement", "gardner"),
        ("initial_beads", "1"),
        ("rng", "xoshiro256++"),
    ] {
        assert_eq!(s[k], want, "{k}");
    }
    assert_eq!(s["seed"], 7);
    let other = stdout(&[
        "train", "hexapawn", "--games", "60", "--seed", "8", "--json",
    ]);
    assert_ne!(a, other);
}

#[test]
fn train_without_a_seed_prints_the_one_it_drew() {
    let v = json(&["train", "hexapawn", "--games", "40", "--json"]);
    let seed = v["settings"]["seed"].as_u64().unwrap().to_string();
    let again = json(&[
        "train", "hexapawn", "--games", "40", "--json", "--seed", &seed,
    ]);
    assert_eq!(v["results"], again["results"]);
    let text = stdout(&["train", "hexapawn", "--games", "5"]);
    for word in [
        "learner        black (HER): 24 boxes, 55 arrows, symmetry gardner",
        "opponent       perfect (tie-break random)",
        "reinforcement  gardner",
        "initial beads  1",
        "seed ",
    ] {
        assert!(text.contains(word), "header shows `{word}`:\n{text}");
    }
}

#[test]
fn saved_boxes_resume_where_they_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("her.yaml");
    let f = file.to_str().unwrap();
    let straight = json(&[
        "train", "hexapawn", "--games", "50", "--seed", "3", "--json",
    ]);
    let first = json(&[
        "train", "hexapawn", "--games", "30", "--seed", "3", "--json", "--save", f,
    ]);
    let second = json(&[
        "train", "hexapawn", "--games", "20", "--boxes", f, "--json", "--save", f,
    ]);
    let joined = format!(
        "{}{}",
        first["results"].as_str().unwrap(),
        second["results"].as_str().unwrap()
    );
    assert_eq!(joined, straight["results"].as_str().unwrap());
    assert_eq!(second["games_played"], 50);
    assert_eq!(second["beads_left"], straight["beads_left"]);
    // Conflicting settings are refused rather than silently ignored.
    let out = run(&["train", "hexapawn", "--boxes", f, "--symmetry", "full"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("symmetry gardner") && err.contains("--symmetry asks for full"),
        "{err}"
    );
}

#[test]
fn experiment_json_does_not_depend_on_threads() {
    let args = [
        "experiment",
        "hexapawn",
        "--runs",
        "300",
        "--games",
        "40",
        "--seed",
        "5",
        "--json",
    ];
    let with = |threads: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_matchbox"))
            .args(args)
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let one = with("1");
    assert_eq!(one, with("2"));
    let v: Value = serde_json::from_str(&one).unwrap();
    assert_eq!(v["runs"], 300);
    assert_eq!(v["games"], 40);
    let rates = v["loss_rate"].as_array().unwrap();
    assert_eq!(rates.len(), 40);
    let sum: f64 = rates.iter().map(|r| r.as_f64().unwrap()).sum();
    assert!((sum - v["mean_losses"].as_f64().unwrap()).abs() < 1e-9);
    assert!(
        rates[0].as_f64().unwrap() > 0.5,
        "a fresh HER loses its first game most of the time"
    );
}

#[test]
fn errors_are_one_clear_line() {
    let out = run(&["train", "chess"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid value 'chess'"));

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.yaml");
    let good = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("boxes/hexapawn-her-gardner.yaml"),
    )
    .unwrap();
    std::fs::write(&file, good.replacen("b3xa2: 1", "b3xa2: -2", 1)).unwrap();
    let out = run(&["train", "hexapawn", "--boxes", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: ") && err.contains("bad.yaml: box 1"),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "nothing printed before the error");

    let out = run(&["boxes", "octopawn", "--size", "3x3"]);
    assert!(!out.status.success());
    // A board too big to enumerate is refused at once, with a pointer to `count`; training
    // against the perfect player on it, with a pointer to the players that need no solution.
    for cmd in ["solve", "boxes"] {
        let out = run(&[cmd, "hexapawn", "--size", "8x8"]);
        assert_eq!(out.status.code(), Some(1), "{cmd}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("too big to enumerate") && err.contains("matchbox count"),
            "{err}"
        );
    }
    for cmd in ["train", "experiment"] {
        let out = run(&[cmd, "hexapawn", "--size", "8x8", "--opponent", "perfect"]);
        assert_eq!(out.status.code(), Some(1), "{cmd}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("perfect player cannot solve") && err.contains("mcts"),
            "{err}"
        );
    }
    let out = run(&["train", "hexapawn", "--reinforcement", "harsh"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad reinforcement `harsh`"));
}

#[test]
fn a_closed_pipe_ends_the_program_quietly() {
    use std::process::{Command, Stdio};
    for args in [
        &["solve", "tictactoe"][..],
        &["boxes", "tictactoe"][..],
        &["experiment", "hexapawn", "--runs", "50", "--seed", "1"][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_matchbox"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Close the reading end before the program writes.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_ne!(out.status.code(), Some(101), "{args:?}");
    }
}

/// Saves killed at any moment (kill -9) leave the file loadable, and leave no pile of temporary
/// files: the next save cleans what a killed one left.
#[test]
fn killed_saves_never_tear_the_file_nor_pile_up_temporary_files() {
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("menace.yaml");
    let f = file.to_str().unwrap();
    let temps = || {
        std::fs::read_dir(dir.path())
            .unwrap()
            .filter(|e| {
                let name = e.as_ref().unwrap().file_name();
                name.to_string_lossy().ends_with(".tmp")
            })
            .count()
    };
    for i in 0..40u64 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_matchbox"))
            .args([
                "train",
                "tictactoe",
                "--games",
                "3000",
                "--seed",
                "1",
                "--save",
                f,
                "--force",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_micros(500 + (i * 7919) % 20_000));
        let _ = child.kill();
        let _ = child.wait();
        if file.exists() {
            let text = std::fs::read_to_string(&file).unwrap();
            matchbox::store::from_yaml(&matchbox::games::tictactoe::TicTacToe, &file, &text)
                .expect("a saved file is whole");
        }
        assert!(temps() <= 1, "temporary files pile up: {}", temps());
    }
    let out = run(&[
        "train",
        "tictactoe",
        "--games",
        "10",
        "--seed",
        "2",
        "--save",
        f,
        "--force",
    ]);
    assert!(out.status.success());
    assert_eq!(temps(), 0);
}

#[test]
fn hostile_command_lines_get_one_line() {
    for (args, message) in [
        (&["train", "hexa\npawn"][..], "control characters"),
        (&["train", "\x1b[2J"][..], "control characters"),
        (&["experiment", "hexapawn", "--runs", "0"][..], "--runs 0"),
        (&["experiment", "hexapawn", "--games", "0"][..], "--games 0"),
        (
            &[
                "experiment",
                "hexapawn",
                "--runs",
                "1",
                "--games",
                "1000000000000",
            ][..],
            "up to 10,000,000 games",
        ),
        (
            &[
                "experiment",
                "hexapawn",
                "--runs",
                "100000000000000",
                "--seed",
                "1",
            ][..],
            "years",
        ),
        (
            &[
                "train",
                "hexapawn",
                "--games",
                "18446744073709551615",
                "--seed",
                "1",
            ][..],
            "years",
        ),
        (
            &["train", "tictactoe", "--beads", "4294967295"][..],
            "most a fresh arrow may hold",
        ),
        (
            &[
                "train",
                "hexapawn",
                "--save",
                "same.yaml",
                "--csv",
                "same.yaml",
            ][..],
            "name the same file",
        ),
        (
            &["train", "hexapawn", "--save", "/dev/null"][..],
            "not a regular file",
        ),
        (
            &["train", "hexapawn", "--boxes", "/dev/zero"][..],
            "not a regular file",
        ),
        (&["count"][..], "not provided: <GAME> (see --help)"),
        (&["watch", "hexapawn"][..], "watch draws on a terminal"),
        (&["play", "tictactoe"][..], "play draws on a terminal"),
        (
            &["replay", "hexapawn"][..],
            "not provided: --moves <MOVES> (see --help)",
        ),
        (
            &["count", "arimaa", "--sample", "0"][..],
            "0 is not in 1..=1000",
        ),
        (
            &["count", "arimaa", "--sample", "100000000"][..],
            "100000000 is not in 1..=1000",
        ),
        (
            &["boxes", "arimaa", "--size", "4", "--labels", "mini.svg"][..],
            "17,981 boxes are too many to label",
        ),
        (
            &["train", "havannah", "--opponent", "mcts:0"][..],
            "mcts:SIMS takes 1 to 10000000 simulations",
        ),
        (
            &["train", "havannah", "--opponent", "mctsx"][..],
            "use perfect, random, mcts[:SIMS], matchbox or matchbox:FILE",
        ),
    ] {
        let out = run(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert!(!err.contains('\x1b'), "{args:?}: {err}");
    }
    let long = "1".repeat(50_000);
    let out = run(&["train", "hexapawn", "--seed", &long]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1);
    assert!(err.len() < 300, "{}", err.len());
    // A CSV with only its header draws nothing.
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("empty.csv");
    std::fs::write(&csv, "run,game,result,cumulative_score,beads_left,boxes_emptied,beads_by_move,perfect_play,label\n").unwrap();
    let out_png = dir.path().join("x.svg");
    let out = run(&[
        "plot",
        csv.to_str().unwrap(),
        "--out",
        out_png.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("empty.csv") && err.contains("nothing to draw"),
        "{err}"
    );
}

#[test]
fn havannah_base_2_is_a_first_player_win_from_every_corner() {
    let v = json(&["solve", "havannah", "--size", "2", "--json"]);
    assert_eq!(v["winner"], "white");
    let mut best: Vec<&str> = v["best_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    best.sort();
    // On base 2 the six cells around the centre are the six corners; the centre (b2) loses.
    assert_eq!(best, ["a1", "a2", "b1", "b3", "c2", "c3"]);
    let centre = v["first_moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == "b2")
        .unwrap();
    assert!(centre["value"].as_str().unwrap().starts_with("loss"));
}

#[test]
fn replay_checks_every_move_of_every_game() {
    let v = json(&[
        "replay",
        "havannah",
        "--size",
        "4",
        "--json",
        "--moves",
        "d4 a1 c3 a2 c4 a3 d5 g7 e5 g6 e4 g5 d3",
    ]);
    assert_eq!(v["ply"], 13);
    assert_eq!(v["winner"], "white");
    assert_eq!(v["structures"], serde_json::json!(["ring"]));
    assert_eq!(v["position"], "BBB./...../..WW../..WWW../..WW../...../.BBB");
    let v = json(&["replay", "hexapawn", "--json", "--moves", "b1-b2 a3xb2"]);
    assert_eq!(
        (v["ply"].as_u64(), v["winner"].as_str()),
        (Some(2), Some("none"))
    );
    assert_eq!(v["structures"], serde_json::json!([]));
    let v = json(&[
        "replay",
        "tictactoe",
        "--json",
        "--moves",
        "b2,a1,c3,a3,a2,c1,c2",
    ]);
    assert_eq!(v["winner"], "x");
    for (game, moves, message) in [
        ("havannah", "d4 d4", "move 2 `d4`"),
        ("havannah", "a1 b1 a2 zz", "move 4 `zz`"),
        (
            "havannah",
            "a1 b1 a2 b2 a3 b3 a4 c1",
            "move 8 `c1`: the game is already over",
        ),
        ("hexapawn", "b1-b3", "move 1 `b1-b3`"),
        ("tictactoe", "b2 b2", "move 2 `b2`"),
    ] {
        let mut args = vec!["replay", game, "--moves", moves];
        if game == "havannah" {
            args.extend(["--size", "4"]);
        }
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{game} {moves}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(message), "{game} {moves}: {err}");
    }
}

#[test]
fn playouts_do_not_depend_on_the_thread_count() {
    let with = |threads: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_matchbox"))
            .args([
                "playout", "havannah", "--size", "4", "--games", "20000", "--seed", "5", "--json",
            ])
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .unwrap();
        let mut v: Value = serde_json::from_slice(&out.stdout).unwrap();
        v["per_second"] = Value::Null;
        v["threads"] = Value::Null;
        v
    };
    let one = with("1");
    assert_eq!(one, with("2"));
    for key in [
        "white",
        "black",
        "draw",
        "ring",
        "bridge",
        "fork",
        "mean_plies",
    ] {
        assert!(one[key].is_number(), "{key}");
    }
    let shares = one["white"].as_f64().unwrap()
        + one["black"].as_f64().unwrap()
        + one["draw"].as_f64().unwrap();
    assert!((shares - 1.0).abs() < 1e-9);
    // Noughts and crosses at random: the first player wins about 58.5 %, 12.7 % are drawn.
    let v = json(&[
        "playout",
        "tictactoe",
        "--games",
        "50000",
        "--seed",
        "1",
        "--json",
    ]);
    assert!((v["x"].as_f64().unwrap() - 0.585).abs() < 0.01, "{v}");
    assert!((v["draw"].as_f64().unwrap() - 0.127).abs() < 0.01, "{v}");
}

#[test]
fn havannah_base_3_is_a_first_player_win_from_the_six_corners_only() {
    let v = json(&["solve", "havannah", "--size", "3", "--json"]);
    assert_eq!(v["winner"], "white");
    let mut best: Vec<&str> = v["best_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    best.sort();
    // Base 3's corners: a1, a3, c1, c5, e3, e5 (Ewalds 2012: only the corner openings win).
    assert_eq!(best, ["a1", "a3", "c1", "c5", "e3", "e5"]);
    // With distances (found by a search without pruning, and kept by the pruned one): a corner
    // wins in 9 plies; the other cells of the edge lose in 12, the inner ones in 10. With the
    // swap rule Black takes a corner opening and wins in 9 more.
    let values = |v: &Value| -> Vec<String> {
        v["first_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                format!(
                    "{} {}",
                    m["move"].as_str().unwrap(),
                    m["value"].as_str().unwrap()
                )
            })
            .collect()
    };
    let expected = |corner: &str| -> Vec<String> {
        let edge = ["a2", "b1", "b4", "d2", "d5", "e4"];
        [
            "a1", "a2", "a3", "b1", "b2", "b3", "b4", "c1", "c2", "c3", "c4", "c5", "d2", "d3",
            "d4", "d5", "e3", "e4", "e5",
        ]
        .iter()
        .map(|m| match m {
            m if best.contains(m) => format!("{m} {corner}"),
            m if edge.contains(m) => format!("{m} loss in 12"),
            m => format!("{m} loss in 10"),
        })
        .collect()
    };
    assert_eq!(values(&v), expected("win in 9"));
    assert_eq!(v["plies"], 9);
    let swap = json(&["solve", "havannah", "--size", "3", "--swap", "--json"]);
    assert_eq!(values(&swap), expected("loss in 10"));
    assert_eq!(swap["plies"], 12);
    // A finished position is not solved: the text says how it ended.
    let out = run(&[
        "solve",
        "havannah",
        "--size",
        "3",
        "--position",
        "WBW/BWBW/BWBWB/WBWB/W..",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("The game is over: white has won."), "{text}");
    assert!(!text.contains("Moves for"), "{text}");
    // Any position can be solved: after a1 and the centre, White still wins.
    let v = json(&[
        "solve",
        "havannah",
        "--size",
        "3",
        "--json",
        "--position",
        "W../..../..B../..../...",
    ]);
    assert_eq!(
        (v["to_move"].as_str(), v["winner"].as_str()),
        (Some("white"), Some("white"))
    );
}

#[test]
fn havannah_swap_rule_and_handicap() {
    // With the swap rule the second player wins bases 2 and 3.
    for size in ["2", "3"] {
        let v = json(&["solve", "havannah", "--size", size, "--swap", "--json"]);
        assert_eq!(v["winner"], "black", "base {size}");
    }
    // Black swaps: White's stone becomes Black's and White moves next.
    let v = json(&[
        "replay",
        "havannah",
        "--size",
        "3",
        "--swap",
        "--json",
        "--moves",
        "a1 swap c3",
    ]);
    assert_eq!(v["position"], "B../..../..W../..../...");
    assert_eq!(v["size"], "3 swap");
    // Swap only on the second move, and only with the rule.
    for (args, moves) in [(&["--swap"][..], "a1 b2 swap"), (&[][..], "a1 swap")] {
        let mut all = vec!["replay", "havannah", "--size", "3", "--moves", moves];
        all.extend(args);
        assert_eq!(run(&all).status.code(), Some(2), "{moves}");
    }
    // A handicap of 2: White's first two stones, then Black.
    let v = json(&[
        "replay",
        "havannah",
        "--size",
        "3",
        "--handicap",
        "2",
        "--json",
        "--moves",
        "a1 a3 c3 e5",
    ]);
    assert_eq!(v["position"], "W.W/..../..B../..../..W");
    assert!(
        !run(&["replay", "havannah", "--handicap", "1", "--moves", "a1"])
            .status
            .success()
    );
    assert!(
        !run(&["replay", "hexapawn", "--swap", "--moves", "b1-b2"])
            .status
            .success()
    );
}

#[test]
fn the_default_learner_plays_the_side_that_wins() {
    for (size, side) in [
        ("3x3", "black"),
        ("4x4", "white"),
        ("3x4", "white"),
        ("4x3", "black"),
    ] {
        let v = json(&["boxes", "hexapawn", "--size", size, "--count", "--json"]);
        assert_eq!(v["side"], side, "{size}");
        let solved = json(&["solve", "hexapawn", "--size", size, "--json"]);
        if size != "3x3" {
            assert_eq!(
                solved["winner"], side,
                "{size}: the learner's side is the winner"
            );
        }
    }
}

/// The opponent is the perfect player where the game can be solved, the tree search beyond.
#[test]
fn the_default_opponent_is_perfect_where_it_can_be() {
    for (game, size, opponent) in [
        ("hexapawn", "3x3", "perfect"),
        ("havannah", "3", "perfect"),
        ("havannah", "4", "mcts:1000"),
        ("hexapawn", "6x6", "mcts:1000"),
    ] {
        let v = json(&[
            "train", game, "--size", size, "--games", "1", "--seed", "1", "--json",
        ]);
        assert_eq!(v["settings"]["opponent"], opponent, "{game} {size}");
    }
    // Asked for, the perfect player is refused where it cannot play, with one line.
    let out = run(&["train", "havannah", "--size", "4", "--opponent", "perfect"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.lines().count() == 1, "{err}");
    assert!(err.contains("use --opponent mcts or random"), "{err}");
}

#[test]
fn moves_arimaa_reports_the_start_s_turns() {
    let v = json(&["moves", "arimaa", "--json"]);
    assert_eq!(v["turns"], 3353);
    assert_eq!(v["legal_turns"], 3353);
    assert_eq!(v["first_steps"], 8);
    assert_eq!(
        v["turns_by_min_steps"],
        serde_json::json!([8, 70, 462, 2813])
    );
    assert_eq!(v["results_sha256"].as_str().unwrap().len(), 64);
    // After the elephants have gone out and back twice, going back again is a third repetition.
    let v = json(&[
        "moves",
        "arimaa",
        "--moves",
        "Ee2n 1s ed7s 2g Ee3s 2s ed6n 3g Ee2n 3s ed7s 4g Ee3s",
        "--json",
    ]);
    assert_eq!(v["side"], "silver");
    assert_eq!(
        v["legal_turns"].as_u64().unwrap() + 1,
        v["turns"].as_u64().unwrap()
    );
}

#[test]
fn replay_arimaa_checks_every_turn() {
    let v = json(&[
        "replay",
        "arimaa",
        "--position",
        "[       d           r                                    R      E]",
        "--side",
        "gold",
        "--moves",
        "Ra1n Ra2n Ra3n Ra4n 1s rd6s rd5s",
        "--json",
    ]);
    assert_eq!(v["ply"], 2);
    assert_eq!(v["winner"], "none");
    assert!(v["reason"].is_null());
    let bad = run(&["replay", "arimaa", "--moves", "1g Ra1 Rb1"]);
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("turn 1g") && err.lines().count() == 1, "{err}");
}

#[test]
fn full_arimaa_has_no_learner_and_mini_arimaa_learns() {
    let out = run(&["train", "arimaa", "--games", "10"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("count arimaa") && err.lines().count() == 1,
        "{err}"
    );
    let v = json(&[
        "train",
        "mini-arimaa",
        "--games",
        "300",
        "--seed",
        "4",
        "--json",
    ]);
    assert_eq!(v["games"], 300);
    let again = json(&[
        "train", "arimaa", "--size", "4", "--games", "300", "--seed", "4", "--json",
    ]);
    assert_eq!(v["results"], again["results"]);
}

/// `play --as` against a saved machine that plays the same side says so, naming --as.
#[test]
fn play_as_the_side_a_saved_machine_plays_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("her.yaml");
    stdout(&[
        "train",
        "hexapawn",
        "--games",
        "5",
        "--save",
        file.to_str().unwrap(),
    ]);
    let out = run(&[
        "play",
        "hexapawn",
        "--boxes",
        file.to_str().unwrap(),
        "--as",
        "black",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the machine plays black, so you cannot: play it with --as white"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

/// A lazy Havannah machine's boxes are compact: each base-3 or base-4 position in one word (with
/// its table slot), so a box takes well under the 104 bytes a whole position would alone.
#[test]
fn havannah_boxes_are_compact() {
    for (size, opponent, most) in [("3", "perfect", 128), ("4", "random", 200)] {
        let v = json(&[
            "train",
            "havannah",
            "--size",
            size,
            "--opponent",
            opponent,
            "--games",
            "300",
            "--seed",
            "2",
            "--json",
        ]);
        let boxes = v["boxes"].as_u64().unwrap();
        let bytes = v["box_bytes"].as_u64().unwrap();
        assert!(boxes > 100, "{v}");
        assert!(
            bytes / boxes <= most,
            "base {size}: {} bytes a box",
            bytes / boxes
        );
    }
}

/// Counts in JSON are integers where they are counted (304, not 304.0).
#[test]
fn counted_boxes_are_integers_in_json() {
    let v = json(&["count", "tictactoe", "--json"]);
    assert_eq!(v["counts"][0]["boxes"], serde_json::json!(304));
    assert!(v["counts"][0]["boxes"].is_u64());
}
