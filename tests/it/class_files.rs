//! The teacher's files through what goes wrong around a lesson: the laptop shut down or the
//! terminal closed (SIGTERM, SIGHUP) saves as Ctrl-C does; a second start on a port in use
//! touches no file; a save that fails is said, and the program's last word is an error.

#![cfg(all(feature = "class", unix))]

use std::path::Path;

use crate::class::{join_code, play_games};
use crate::common::class_server;

/// The games the machine file at `path` says it has played.
fn games_in(path: &Path) -> u64 {
    let text = std::fs::read_to_string(path).unwrap();
    let line = (text.lines())
        .find(|l| l.trim_start().starts_with("games_played:"))
        .unwrap_or_else(|| panic!("no games_played in {text}"));
    line.split(':').nth(1).unwrap().trim().parse().unwrap()
}

fn signal(child: &std::process::Child, name: &str) {
    let ok = std::process::Command::new("kill")
        .args([format!("-{name}"), child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_and_sighup_save_the_machine_as_ctrl_c_does() {
    for name in ["TERM", "HUP"] {
        let dir = tempfile::tempdir().unwrap();
        let save = dir.path().join("m.yaml");
        // Saved every 1,000 games: only the end's save can hold these three.
        let (mut child, addr, code) = class_server::start_class(&save, &["--every", "1000"]);
        let mut ws = join_code(addr, &code).await;
        assert_eq!(play_games(&mut ws, 3, 1).await, 3);
        signal(&child, name);
        let status = child.wait().unwrap();
        assert!(status.success(), "SIG{name}: {status:?}");
        assert_eq!(
            games_in(&save),
            3,
            "SIG{name}: the machine saved with its games"
        );
    }
}

#[test]
fn a_start_refused_for_its_port_writes_no_file() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port();
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("m.yaml");
    let listen = format!("127.0.0.1:{port}");
    let refused = crate::common::refused(&[
        "class",
        "tictactoe",
        "--listen",
        &listen,
        "--save",
        save.to_str().unwrap(),
    ]);
    assert!(
        refused.contains("--listen") && refused.contains("could not listen"),
        "{refused}"
    );
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "files left behind: {left:?}");
}

/// The lesson's folder gone (a USB stick pulled out): every save fails, is said, and the
/// program ends with an error naming the log that keeps the games.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_save_that_fails_is_said_and_the_last_word_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("lesson");
    std::fs::create_dir(&folder).unwrap();
    let save = folder.join("m.yaml");
    let (child, addr, code) = start_with_stderr(&save, &["--every", "1"]);
    let mut ws = join_code(addr, &code).await;
    std::fs::remove_dir_all(&folder).unwrap();
    assert_eq!(play_games(&mut ws, 2, 1).await, 2);
    signal(&child, "TERM");
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success(),
        "a failed save exits with an error: {err}"
    );
    assert!(
        err.contains("could not be saved") && err.contains("m.yaml.log"),
        "{err}"
    );
}

/// Another program replaces the machine file mid-lesson: the class's machine goes beside it,
/// and every later save goes to that one file (not a new copy a save).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_changed_by_another_program_gets_one_copy_beside() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("m.yaml");
    let (mut child, addr, code) = class_server::start_class(&save, &["--every", "1"]);
    let mut ws = join_code(addr, &code).await;
    std::fs::remove_file(&save).unwrap();
    std::fs::write(&save, "another program's file\n").unwrap();
    for round in 0..3 {
        assert_eq!(play_games(&mut ws, 2, round).await, 2);
        tokio::time::sleep(std::time::Duration::from_millis(2100)).await;
    }
    signal(&child, "TERM");
    assert!(child.wait().unwrap().success());
    assert_eq!(
        std::fs::read_to_string(&save).unwrap(),
        "another program's file\n"
    );
    assert_eq!(games_in(&dir.path().join("m-2.yaml")), 6);
    assert!(
        !dir.path().join("m-3.yaml").exists(),
        "one copy beside, not one a save"
    );
}

/// As [`class_server::start_class`], with the program's standard error kept for the test.
fn start_with_stderr(
    save: &Path,
    extra: &[&str],
) -> (std::process::Child, std::net::SocketAddr, String) {
    class_server::start_class_piped(save, extra)
}

/// A lesson's log that is not one — a FIFO (which would block), a folder, a binary file, a
/// device — is refused with one line naming it, by `--replay`, `--resume` and `film --lesson`;
/// nothing hangs and nothing grows.
#[test]
fn a_log_that_is_not_a_file_of_text_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.log");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let folder = dir.path().join("folder.log");
    std::fs::create_dir(&folder).unwrap();
    let binary = dir.path().join("binary.log");
    std::fs::write(&binary, [0xFFu8, 0xFE, 0x00, 0x81, b'\n']).unwrap();
    let cases = [
        (fifo.to_str().unwrap(), "named pipe"),
        (folder.to_str().unwrap(), "directory"),
        (binary.to_str().unwrap(), "line 1: not text"),
        ("/dev/zero", "device"),
    ];
    for (log, says) in cases {
        let replay = crate::common::refused(&["class", "tictactoe", "--replay", log]);
        assert!(replay.contains(log) && replay.contains(says), "{replay}");
        let out = dir.path().join("f.gif");
        let film = crate::common::refused(&[
            "film",
            "tictactoe",
            "--lesson",
            log,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(film.contains(log) && film.contains(says), "{film}");
    }
}

/// `--resume` after a crash: the machine file as the lesson last saved it is replaced by the
/// log's machine; one edited by hand since (or another machine copied there) is kept beside.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resume_keeps_a_machine_file_changed_since_the_lesson_saved_it() {
    for edited in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let save = dir.path().join("m.yaml");
        let (mut child, addr, code) = class_server::start_class(&save, &["--every", "1"]);
        let mut ws = join_code(addr, &code).await;
        assert_eq!(play_games(&mut ws, 2, 1).await, 2);
        tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
        child.kill().unwrap();
        child.wait().unwrap();
        let mut text = std::fs::read_to_string(&save).unwrap();
        if edited {
            text.push_str("# the teacher's own note\n");
            std::fs::write(&save, &text).unwrap();
        }
        let (mut child, _, _) = class_server::start_class(&save, &["--resume"]);
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        signal(&child, "TERM");
        assert!(child.wait().unwrap().success());
        let beside = dir.path().join("m-2.yaml");
        match edited {
            true => assert_eq!(std::fs::read_to_string(&beside).unwrap(), text),
            false => assert!(!beside.exists(), "the lesson's own save is not kept beside"),
        }
        assert_eq!(
            games_in(&save),
            2,
            "the lesson's machine saved in its place"
        );
    }
}

/// A big machine is saved off the actor, from a copy (here every machine is, as in all the
/// in-process class tests): the file holds the games while the lesson goes on, and the last save
/// waits for one under way.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_machine_saved_off_the_actor_holds_the_games_while_the_lesson_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let running = crate::class::serve(dir.path(), matchbox::class::Limits::default()).await;
    let save = dir.path().join("m.yaml");
    let mut ws = join_code(running.addr, crate::class::CODE).await;
    assert_eq!(play_games(&mut ws, 6, 1).await, 6);
    // Past the least time between saves, five more games make the save due.
    tokio::time::sleep(std::time::Duration::from_millis(5200)).await;
    assert_eq!(play_games(&mut ws, 5, 2).await, 5);
    tokio::time::sleep(std::time::Duration::from_millis(800)).await;
    let during = games_in(&save);
    assert!(
        during >= 6,
        "saved while the lesson goes on: {during} games"
    );
    let lesson = crate::class::stop(running).await;
    assert_eq!(lesson.machine().games_played, 11);
    assert_eq!(games_in(&save), 11, "the last save after the one under way");
}

/// A fresh machine's lesson begins its log with the machine's settings, not its boxes (one short
/// line, where the whole machine of a 5×5 board is 65 MB); the log replays alone — its board's
/// size taken from it — to the machine the lesson saved; a first line whose digest is not that
/// of the machine its settings make is refused naming the log and its line 1.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fresh_lessons_log_begins_with_its_settings_and_replays_alone() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("m.yaml");
    let game = ["hexapawn", "--size", "4x4"];
    let (mut child, addr, code, _) = class_server::start_class_of(&game, &save, &["--seed", "3"]);
    let mut ws = join_code(addr, &code).await;
    assert_eq!(play_games(&mut ws, 4, 1).await, 4);
    signal(&child, "TERM");
    assert!(child.wait().unwrap().success());
    let log = dir.path().join("m.yaml.log");
    let text = std::fs::read_to_string(&log).unwrap();
    let first = text.lines().next().unwrap();
    assert!(
        first.len() < 1000 && first.contains(r#""fresh":"game: hexapawn\nsize: 4x4"#),
        "{first}"
    );
    let log_name = log.to_str().unwrap();
    let report = crate::common::json(&["class", "hexapawn", "--json", "--replay", log_name]);
    assert_eq!(report["games"], 4, "{report}");
    let saved = std::fs::read_to_string(&save).unwrap();
    let g = matchbox::games::hexapawn::Hexapawn::new(
        matchbox::games::hexapawn::Size::new(4, 4).unwrap(),
    );
    let machine = matchbox::store::from_yaml(&g, &save, &saved).unwrap();
    assert_eq!(report["digest"], machine.digest(), "the saved machine");
    // Another size asked for is refused; so is a digest that is not the settings' machine's.
    let other =
        crate::common::refused(&["class", "hexapawn", "--size", "3x3", "--replay", log_name]);
    assert!(other.contains("4x4") && other.contains(log_name), "{other}");
    let forged = dir.path().join("forged.log");
    std::fs::write(&forged, text.replacen(r#""digest":""#, r#""digest":"0"#, 1)).unwrap();
    let refused =
        crate::common::refused(&["class", "hexapawn", "--replay", forged.to_str().unwrap()]);
    assert!(
        refused.contains("forged.log: line 1") && refused.contains("digest"),
        "{refused}"
    );
}
