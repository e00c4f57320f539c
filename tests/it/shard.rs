//! An experiment run in slices (`experiment --shard K/N`) and merged (`merge`) gives the
//! unsharded experiment's report, byte for byte.

use crate::common::{refused, run, stdout};

/// Writes the `n` parts of the experiment `args` into `dir`; their paths.
fn parts(dir: &std::path::Path, args: &[&str], n: usize) -> Vec<String> {
    (1..=n)
        .map(|k| {
            let shard = format!("{k}/{n}");
            let mut a = args.to_vec();
            a.extend(["--shard", &shard]);
            let path = dir.join(format!("part{k}of{n}.json"));
            std::fs::write(&path, stdout(&a)).unwrap();
            path.display().to_string()
        })
        .collect()
}

fn merged(paths: &[String], extra: &[&str]) -> String {
    let mut a = vec!["merge"];
    a.extend(paths.iter().map(String::as_str));
    a.extend(extra);
    stdout(&a)
}

#[test]
fn one_three_and_seven_shards_give_the_experiments_report() {
    let dir = tempfile::tempdir().unwrap();
    let experiments: [&[&str]; 3] = [
        &[
            "experiment",
            "hexapawn",
            "--symmetry",
            "full",
            "--runs",
            "200",
            "--games",
            "40",
            "--seed",
            "3",
        ],
        &[
            "experiment",
            "tictactoe",
            "--runs",
            "50",
            "--games",
            "30",
            "--seed",
            "9",
            "--compare",
            "reinforcement=michie,gardner",
        ],
        // The position engine (a search opponent), 5 runs over 7 shards: some shards are empty.
        &[
            "experiment",
            "havannah",
            "--size",
            "2",
            "--opponent",
            "random",
            "--engine",
            "lazy",
            "--runs",
            "5",
            "--games",
            "20",
            "--seed",
            "1",
        ],
    ];
    for args in experiments {
        let mut json = args.to_vec();
        json.push("--json");
        let whole = stdout(&json);
        let text = stdout(args);
        for n in [1, 3, 7] {
            let sub = dir.path().join(format!("{}-{n}", args[1]));
            std::fs::create_dir_all(&sub).unwrap();
            let mut paths = parts(&sub, args, n);
            assert_eq!(merged(&paths, &["--json"]), whole, "{args:?} in {n} shards");
            paths.reverse();
            let report = merged(&paths, &[]);
            // The text report is the experiment's, with the settings printed before it.
            assert_eq!(report, text, "{args:?} in {n} shards");
        }
    }
}

#[test]
fn merge_refuses_parts_that_are_not_one_experiment() {
    let dir = tempfile::tempdir().unwrap();
    let base = [
        "experiment",
        "hexapawn",
        "--runs",
        "30",
        "--games",
        "10",
        "--seed",
        "2",
    ];
    let three = parts(dir.path(), &base, 3);
    let err = refused(&["merge", &three[0], &three[2]]);
    assert!(err.contains("1 shard of 3 is missing (2)"), "{err}");
    let err = refused(&["merge", &three[0], &three[0], &three[1], &three[2]]);
    assert!(err.contains("shard 1/3 again"), "{err}");
    // Another seed: the settings differ.
    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    let mut reseeded = base.to_vec();
    reseeded[7] = "4";
    let four = parts(&other, &reseeded, 3);
    let err = refused(&["merge", &three[0], &four[1], &three[2]]);
    assert!(
        err.contains("another experiment") && err.contains("seed"),
        "{err}"
    );
    // A hand-edited part whose counts no longer add up.
    let text = std::fs::read_to_string(&three[1]).unwrap();
    let edited = dir.path().join("edited.json");
    std::fs::write(&edited, text.replacen("\"runs\":10", "\"runs\":11", 1)).unwrap();
    let err = refused(&["merge", &three[0], edited.to_str().unwrap(), &three[2]]);
    assert!(
        err.contains("edited.json") && err.contains("10 runs"),
        "{err}"
    );
    // Not a part at all.
    let yaml = dir.path().join("machine.json");
    std::fs::write(&yaml, "{\"runs\": 3}").unwrap();
    assert!(refused(&["merge", yaml.to_str().unwrap()]).contains("not a part"));
    // A shard needs the seed that every part shares, and a K from 1 to N.
    assert!(refused(&["experiment", "hexapawn", "--shard", "1/2"]).contains("--seed"));
    let out = run(&["experiment", "hexapawn", "--seed", "1", "--shard", "3/2"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("K/N"));
}

#[test]
fn merge_refuses_a_part_of_too_many_shards_and_counts_what_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    // A part of 1,000 slices, alone: 999 missing, said in a count and the first few.
    let out = stdout(&[
        "experiment",
        "hexapawn",
        "--runs",
        "1000",
        "--games",
        "2",
        "--seed",
        "3",
        "--shard",
        "1/1000",
    ]);
    let part = dir.path().join("p1.json");
    std::fs::write(&part, &out).unwrap();
    let err = refused(&["merge", part.to_str().unwrap()]);
    assert!(
        err.contains(
            "999 shards of 1,000 are missing (2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 989 more)"
        ),
        "{err}"
    );
    assert!(err.len() < 200, "{err}");
    // A part whose shard claims 10^15 slices (sums consistent, no runs) is refused at once,
    // before anything is counted.
    let huge = out.replacen(
        r#""shard":{"k":1,"n":1000}"#,
        r#""shard":{"k":1,"n":1000000000000000}"#,
        1,
    );
    assert_ne!(huge, out);
    std::fs::write(&part, huge).unwrap();
    let err = refused(&["merge", part.to_str().unwrap()]);
    assert!(err.contains("at most 1,000,000 shards"), "{err}");
    // The command line names the cap too.
    let err = refused(&[
        "experiment",
        "hexapawn",
        "--seed",
        "1",
        "--shard",
        "1/1000001",
    ]);
    assert!(err.contains("N <= 1,000,000"), "{err}");
}

#[test]
fn no_output_replaces_a_file_the_command_reads() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.yaml");
    let m = m.to_str().unwrap();
    stdout(&[
        "train", "hexapawn", "--games", "3", "--seed", "1", "--save", m,
    ]);
    let before = std::fs::read(m).unwrap();
    for flag in ["--csv", "--plot"] {
        let err = refused(&[
            "experiment",
            "hexapawn",
            "--boxes",
            m,
            "--runs",
            "5",
            "--games",
            "5",
            "--seed",
            "1",
            flag,
            m,
        ]);
        assert!(
            err.contains("would replace the file --boxes reads"),
            "{flag}: {err}"
        );
    }
    // A part of a merge is not its output either.
    let parts = parts(
        dir.path(),
        &[
            "experiment",
            "hexapawn",
            "--runs",
            "6",
            "--games",
            "4",
            "--seed",
            "2",
        ],
        2,
    );
    let err = refused(&["merge", &parts[0], &parts[1], "--csv", &parts[0]]);
    assert!(err.contains("would replace the file merge reads"), "{err}");
    assert_eq!(
        std::fs::read(m).unwrap(),
        before,
        "the machine is unchanged"
    );
}

/// A machine is never replaced by a chart, a table, a film or labels drawn from it.
#[test]
fn no_chart_table_film_or_label_replaces_a_machine() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.yaml");
    let ms = m.to_str().unwrap();
    stdout(&[
        "train", "hexapawn", "--games", "5", "--seed", "1", "--save", ms,
    ]);
    let before = std::fs::read(&m).unwrap();
    let csv = dir.path().join("t.csv");
    let cs = csv.to_str().unwrap();
    stdout(&[
        "train", "hexapawn", "--games", "5", "--seed", "1", "--csv", cs,
    ]);
    for args in [
        vec![
            "train", "hexapawn", "--games", "5", "--seed", "1", "--csv", ms,
        ],
        vec![
            "train", "hexapawn", "--games", "5", "--seed", "1", "--plot", ms,
        ],
        vec![
            "experiment",
            "hexapawn",
            "--runs",
            "3",
            "--games",
            "5",
            "--csv",
            ms,
        ],
        vec!["film", "hexapawn", "--games", "1", "--out", ms],
    ] {
        let e = refused(&args);
        assert!(
            e.contains("hexapawn") && e.contains("machine"),
            "{args:?}: {e}"
        );
        assert_eq!(
            std::fs::read(&m).unwrap(),
            before,
            "{args:?} changed the machine"
        );
    }
    // A machine saved under a chart's name is not replaced by a chart either.
    let svg = dir.path().join("m.svg");
    std::fs::copy(&m, &svg).unwrap();
    let e = refused(&["plot", cs, "--out", svg.to_str().unwrap()]);
    assert!(e.contains("machine"), "{e}");
    assert_eq!(std::fs::read(&svg).unwrap(), before);
    // The film of a machine never goes to the machine's own file, whatever it is called.
    let txt = dir.path().join("m.txt");
    std::fs::copy(&m, &txt).unwrap();
    let ts = txt.to_str().unwrap();
    let e = refused(&[
        "film", "hexapawn", "--boxes", ts, "--games", "1", "--out", ts,
    ]);
    assert!(e.contains("m.txt"), "{e}");
    assert_eq!(std::fs::read(&txt).unwrap(), before);
}

/// Parts are checked as strictly as the command line: halves that began from different machines,
/// parts of another game (named by the game, not by a count it makes), a label with control
/// characters.
#[test]
fn parts_of_other_machines_or_games_and_forged_labels_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).display().to_string();
    let start = d("start.yaml");
    stdout(&["train", "hexapawn", "--games", "7", "--save", &start]);
    let base = [
        "experiment",
        "hexapawn",
        "--runs",
        "8",
        "--games",
        "4",
        "--seed",
        "3",
    ];
    let fresh = parts(dir.path(), &base, 2);
    let resumed_dir = dir.path().join("resumed");
    std::fs::create_dir(&resumed_dir).unwrap();
    let mut resumed_args = base.to_vec();
    resumed_args.extend(["--boxes", &start]);
    let resumed = parts(&resumed_dir, &resumed_args, 2);
    let err = refused(&["merge", &fresh[0], &resumed[1]]);
    assert!(err.contains("start_machine is"), "{err}");
    // Another game: the game is named first.
    let other_dir = dir.path().join("other");
    std::fs::create_dir(&other_dir).unwrap();
    let mut ttt = base.to_vec();
    ttt[1] = "tictactoe";
    let other = parts(&other_dir, &ttt, 2);
    let err = refused(&["merge", &fresh[0], &other[1]]);
    assert!(
        err.contains("its settings differ: game is \"tictactoe\" here"),
        "{err}"
    );
    // A label edited to hold a terminal escape.
    let forged = d("forged.json");
    let text = std::fs::read_to_string(&fresh[1]).unwrap();
    let label_at = text.find("\"label\":\"").unwrap() + 9;
    let mut edited = text.clone();
    edited.insert_str(label_at, "\\u001b[31m");
    std::fs::write(&forged, edited).unwrap();
    let err = refused(&["merge", &fresh[0], &forged]);
    assert!(
        err.contains("forged.json") && err.contains("control characters"),
        "{err}"
    );
    assert!(!err.contains('\u{1b}'));
}

/// A part edited by hand to hold nothing, last losses its losses contradict, or ends another game
/// has or its own wins and losses contradict, is refused as `experiment` would refuse the same
/// (no "-0.000 losses per run", no mean last loss the losses cannot give, no Hexapawn game won by
/// three in a row).
#[test]
fn parts_of_nothing_or_of_contradicting_last_losses_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "experiment",
        "hexapawn",
        "--runs",
        "6",
        "--games",
        "8",
        "--seed",
        "3",
    ];
    let paths = parts(dir.path(), &args, 1);
    let part: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&paths[0]).unwrap()).unwrap();
    let forged = |edit: &dyn Fn(&mut serde_json::Value), name: &str| {
        let mut p = part.clone();
        edit(&mut p);
        let path = dir.path().join(name);
        std::fs::write(&path, p.to_string()).unwrap();
        refused(&["merge", path.to_str().unwrap()])
    };
    let e = forged(&|p| p["runs"] = 0.into(), "zero-runs.json");
    assert!(e.contains("0 runs") && e.contains("at least one"), "{e}");
    let e = forged(&|p| p["games"] = 0.into(), "zero-games.json");
    assert!(e.contains("0 games") && e.contains("at least one"), "{e}");
    // Every run's last loss moved to a game fewer runs lost.
    let e = forged(
        &|p| {
            let r = &mut p["variants"][0]["result"];
            let lost: Vec<u64> = (r["losses_by_game"].as_array().unwrap().iter())
                .map(|v| v.as_u64().unwrap())
                .collect();
            let fewer = lost
                .iter()
                .position(|&n| n < 6)
                .expect("a game not every run lost");
            let mut last = vec![0u64; 9];
            last[fewer + 1] = 6;
            r["last_loss"] = serde_json::json!(last);
        },
        "contradicting.json",
    );
    assert!(e.contains("contradict"), "{e}");
    // A kind of end renamed to another game's; one game's end moved from black to white.
    let renamed = |from: &'static str, to: &'static str| {
        move |p: &mut serde_json::Value| {
            let ended = p["variants"][0]["result"]["ended"].as_object_mut().unwrap();
            let n = ended[from].as_u64().unwrap();
            let (n_from, n_to) = match to {
                "x: three in a row" => (0, n),
                _ => (
                    n - 1,
                    ended.get(to).and_then(|v| v.as_u64()).unwrap_or(0) + 1,
                ),
            };
            ended.insert(from.into(), n_from.into());
            ended.insert(to.into(), n_to.into());
            ended.retain(|_, v| v.as_u64() != Some(0));
        }
    };
    let won = "black: reached the far rank";
    let e = forged(&renamed(won, "x: three in a row"), "tictactoe-ends.json");
    assert!(
        e.contains("\"x: three in a row\": not an end of hexapawn (its sides are white and black)"),
        "{e}"
    );
    let e = forged(&renamed(won, "white: reached the far rank"), "moved.json");
    assert!(e.contains("are not its wins, draws and losses"), "{e}");
}
