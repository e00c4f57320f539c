//! No machine is lost without asking, and no file blocks the program: saves that would replace
//! another machine are refused (or need `--force`, or a second `s` on the screen), an output
//! never replaces a file the command reads in another role, labels leave no stale pages, and a
//! FIFO is refused before it is opened.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{refused, stdout};

fn arg(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_save_on_a_file_another_role_reads_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.yaml");
    stdout(&[
        "train",
        "tictactoe",
        "--games",
        "30",
        "--seed",
        "1",
        "--save",
        arg(&m),
    ]);
    let before = std::fs::read(&m).unwrap();
    // The learner's file as the opponent's output: the hostile trial's lost MENACE.
    let err = refused(&[
        "train",
        "tictactoe",
        "--boxes",
        arg(&m),
        "--opponent",
        "matchbox",
        "--save-opponent",
        arg(&m),
        "--games",
        "10",
    ]);
    assert!(
        err.contains("--save-opponent names the file --boxes reads"),
        "{err}"
    );
    // The opponent's input as the learner's output, and a CSV over the learner's file.
    let o = dir.path().join("o.yaml");
    stdout(&[
        "train",
        "tictactoe",
        "--side",
        "o",
        "--games",
        "5",
        "--save",
        arg(&o),
    ]);
    let err = refused(&[
        "train",
        "tictactoe",
        "--opponent",
        &format!("matchbox:{}", arg(&o)),
        "--save",
        arg(&o),
    ]);
    assert!(
        err.contains("--save names the file --opponent reads"),
        "{err}"
    );
    let err = refused(&["train", "tictactoe", "--boxes", arg(&m), "--csv", arg(&m)]);
    assert!(err.contains("--csv names the file --boxes reads"), "{err}");
    assert_eq!(
        std::fs::read(&m).unwrap(),
        before,
        "the machine was changed"
    );
}

#[test]
fn an_existing_machine_is_replaced_only_with_force() {
    let dir = tempfile::tempdir().unwrap();
    let keep = dir.path().join("keep.yaml");
    stdout(&[
        "train",
        "hexapawn",
        "--games",
        "50",
        "--seed",
        "3",
        "--save",
        arg(&keep),
    ]);
    let before = std::fs::read(&keep).unwrap();
    // `--games 0` with a fresh machine: the hostile trial's 50-game machine lost.
    let err = refused(&["train", "hexapawn", "--games", "0", "--save", arg(&keep)]);
    assert!(
        err.contains("holds a hexapawn 3x3 machine (black, 50 games played)"),
        "{err}"
    );
    assert!(err.contains("--force"), "{err}");
    assert_eq!(std::fs::read(&keep).unwrap(), before);
    // A file that is not a machine is described by its size.
    let notes = dir.path().join("notes.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    let err = refused(&["train", "hexapawn", "--games", "1", "--save", arg(&notes)]);
    assert!(err.contains("holds a file of 9 bytes"), "{err}");
    // Resuming in place needs no --force; replacing with it is allowed.
    stdout(&[
        "train",
        "hexapawn",
        "--boxes",
        arg(&keep),
        "--games",
        "5",
        "--save",
        arg(&keep),
    ]);
    let v: serde_yaml::Value =
        serde_yaml::from_str(&std::fs::read_to_string(&keep).unwrap()).unwrap();
    assert_eq!(v["games_played"].as_u64(), Some(55));
    stdout(&[
        "train",
        "hexapawn",
        "--games",
        "0",
        "--save",
        arg(&keep),
        "--force",
    ]);
    let v: serde_yaml::Value =
        serde_yaml::from_str(&std::fs::read_to_string(&keep).unwrap()).unwrap();
    assert_eq!(v["games_played"].as_u64(), Some(0));
}

#[test]
fn labels_leave_no_stale_pages() {
    let dir = tempfile::tempdir().unwrap();
    let labels = dir.path().join("menace.svg");
    let page = |k: usize| dir.path().join(format!("menace-{k}.svg"));
    stdout(&["boxes", "tictactoe", "--labels", arg(&labels)]);
    assert!(page(18).exists() && !page(19).exists());
    let out = stdout(&["boxes", "hexapawn", "--labels", arg(&labels)]);
    assert!(page(2).exists());
    for k in 3..=18 {
        assert!(!page(k).exists(), "page {k} left from the earlier run");
    }
    assert!(out.contains("removed 16 stale pages"), "{out}");
    // An SVG of that name that matchbox did not draw (a teacher's own drawing) is left alone.
    let theirs = r#"<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>"#;
    std::fs::write(page(3), theirs).unwrap();
    let out = stdout(&["boxes", "hexapawn", "--labels", arg(&labels)]);
    assert_eq!(std::fs::read_to_string(page(3)).unwrap(), theirs);
    assert!(!out.contains("stale"), "{out}");
}

/// Runs `matchbox` with a deadline: a hang fails the test instead of stalling it.
fn run_within(args: &[&str], limit: Duration) -> (bool, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_matchbox"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            use std::io::Read;
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            return (status.success(), err);
        }
        if started.elapsed() > limit {
            child.kill().unwrap();
            panic!("{args:?} hung for {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_is_refused_before_it_is_opened() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let status = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(status.success());
    for args in [
        vec!["train", "hexapawn", "--boxes", arg(&fifo)],
        vec!["plot", arg(&fifo), "--out", "x.svg"],
    ] {
        let (ok, err) = run_within(&args, Duration::from_secs(20));
        assert!(!ok, "{args:?}");
        assert!(
            err.contains("is a named pipe (FIFO), not a regular file"),
            "{args:?}: {err}"
        );
    }
}

/// A record one move (or Arimaa turn) a line, in --moves or from --moves-file (`-`: standard
/// input), and the line `solve` prints with its move numbers, all replay.
#[test]
fn records_take_newlines_files_standard_input_and_move_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let line = stdout(&["solve", "hexapawn"]);
    let pv = line
        .lines()
        .find_map(|l| l.strip_prefix("Principal variation: "))
        .expect("solve prints its line");
    assert!(pv.starts_with("1. "), "{pv}");
    let out = stdout(&["replay", "hexapawn", "--moves", pv, "--json"]);
    assert!(out.contains("\"winner\":\"black\""), "{out}");
    let lines = "b1-b2\na3xb2\r\nc1xb2\n";
    let out = stdout(&["replay", "hexapawn", "--moves", lines, "--json"]);
    assert!(out.contains("\"ply\":3"), "{out}");
    let file = dir.path().join("game.txt");
    std::fs::write(&file, lines).unwrap();
    let out = stdout(&["replay", "hexapawn", "--moves-file", arg(&file), "--json"]);
    assert!(out.contains("\"ply\":3"), "{out}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_matchbox"))
        .args(["replay", "hexapawn", "--moves-file", "-", "--json"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(lines.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"ply\":3"));
    // An Arimaa record, a turn a line.
    let turns = "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2\nra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 ed7 me7 cf7 dg7 hh7\nEe2n Ee3n\n";
    let out = stdout(&["replay", "arimaa", "--moves", turns, "--json"]);
    assert!(out.contains("\"ply\":3"), "{out}");
    // Other control characters are still refused.
    let err = refused(&["replay", "hexapawn", "--moves", "b1-b2\x1b[2J"]);
    assert!(err.contains("control characters"), "{err}");
}

/// Options that cannot make sense are refused in one line before any work: a box with no beads,
/// a handicap of none, a handicap given twice, a side to move without a position.
#[test]
fn impossible_options_are_refused_naming_what_is_wrong() {
    for (args, says) in [
        (
            &["train", "hexapawn", "--beads", "0"][..],
            "resigns at once",
        ),
        (
            &["train", "tictactoe", "--beads", "4,3,0,1"][..],
            "resigns at once",
        ),
        (
            &["train", "havannah", "--handicap", "0"][..],
            "0 is not in 2..=255",
        ),
        (
            &[
                "train",
                "havannah",
                "--size",
                "3 handicap 2",
                "--handicap",
                "3",
            ][..],
            "give it once",
        ),
        (
            &["solve", "havannah", "--side", "black"][..],
            "give --position too",
        ),
    ] {
        let err = refused(args);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}
