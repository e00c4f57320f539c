//! Two writers and a protected file: a second run resuming a machine another run holds is told
//! before it trains; a save over a machine that changed since it was read replaces nothing and
//! keeps this run's machine beside it; a file's mode is kept, a read-only file or one with other
//! names (hard links) is not replaced.

use std::fs;
use std::path::Path;

use crate::common::{refused, stdout};
use matchbox::games::hexapawn::{Hexapawn, Size};

fn games_played(path: &Path) -> u64 {
    let text = fs::read_to_string(path).unwrap();
    text.lines()
        .find_map(|l| l.strip_prefix("games_played: "))
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

fn train_new(path: &Path, game: &str) {
    stdout(&[
        "train",
        game,
        "--games",
        "20",
        "--seed",
        "1",
        "--save",
        path.to_str().unwrap(),
    ]);
}

/// The first writer is a class server, which holds the machine it resumes as long as it runs;
/// the second, a training run resuming the same file, is refused before it trains.
#[cfg(feature = "class")]
#[test]
fn a_second_run_resuming_a_machine_in_use_is_told_and_nothing_is_lost() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.yaml");
    train_new(&m, "tictactoe");
    let before = fs::read(&m).unwrap();
    let p = m.to_str().unwrap();
    let (mut server, _, _) =
        crate::common::class_server::start_class(&m, &["--boxes", p, "--force"]);
    let err = refused(&[
        "train",
        "tictactoe",
        "--boxes",
        p,
        "--save",
        p,
        "--force",
        "--games",
        "5",
    ]);
    server.kill().unwrap();
    server.wait().unwrap();
    assert!(
        err.contains("m.yaml") && err.contains("another matchbox run"),
        "{err}"
    );
    assert_eq!(
        fs::read(&m).unwrap(),
        before,
        "the machine is as the first run left it"
    );
    // With the first run gone, the second may resume it.
    stdout(&[
        "train",
        "tictactoe",
        "--boxes",
        p,
        "--save",
        p,
        "--games",
        "5",
    ]);
    assert_eq!(games_played(&m), 25);
}

/// A writer that takes no lock (another program, or a run on Windows) replaced the file after
/// this run claimed it: this run's save goes beside it, and the error says where.
#[test]
fn a_save_over_a_machine_changed_since_it_was_read_goes_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.yaml");
    train_new(&m, "hexapawn");
    matchbox::store::claim(&m).unwrap();
    let ours: matchbox::learn::Machine<Hexapawn> =
        matchbox::store::load_machine(&Hexapawn::new(Size::GARDNER), &m).unwrap();
    // Another program saves its own machine there (a new file renamed over it, as a save does).
    let theirs = dir.path().join("theirs.yaml");
    stdout(&[
        "train",
        "hexapawn",
        "--games",
        "70",
        "--seed",
        "2",
        "--save",
        theirs.to_str().unwrap(),
    ]);
    fs::rename(&theirs, &m).unwrap();
    let err = matchbox::store::save_machine(&m, &Hexapawn::new(Size::GARDNER), &ours)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("changed since this run read it") && err.contains("m-2.yaml"),
        "{err}"
    );
    assert_eq!(games_played(&m), 70, "the other program's machine is kept");
    assert_eq!(
        games_played(&dir.path().join("m-2.yaml")),
        20,
        "and so is this run's"
    );
    // The run never read the other machine: its next save does not replace it either.
    let err = matchbox::store::save_machine(&m, &Hexapawn::new(Size::GARDNER), &ours)
        .unwrap_err()
        .to_string();
    assert!(err.contains("m-3.yaml"), "{err}");
    assert_eq!(games_played(&m), 70);
}

#[cfg(unix)]
#[test]
fn a_private_machine_stays_private() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.yaml");
    train_new(&m, "hexapawn");
    fs::set_permissions(&m, fs::Permissions::from_mode(0o600)).unwrap();
    let p = m.to_str().unwrap();
    stdout(&[
        "train", "hexapawn", "--boxes", p, "--save", p, "--games", "5",
    ]);
    assert_eq!(games_played(&m), 25);
    assert_eq!(
        fs::metadata(&m).unwrap().permissions().mode() & 0o777,
        0o600
    );
}

#[cfg(unix)]
#[test]
fn a_read_only_machine_or_one_with_two_names_is_not_replaced() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.yaml");
    train_new(&m, "hexapawn");
    let p = m.to_str().unwrap();
    fs::set_permissions(&m, fs::Permissions::from_mode(0o444)).unwrap();
    let err = refused(&[
        "train", "hexapawn", "--boxes", p, "--save", p, "--games", "5",
    ]);
    assert!(err.contains("m.yaml") && err.contains("read-only"), "{err}");
    fs::set_permissions(&m, fs::Permissions::from_mode(0o644)).unwrap();
    let other = dir.path().join("other-name.yaml");
    fs::hard_link(&m, &other).unwrap();
    let err = refused(&[
        "train", "hexapawn", "--boxes", p, "--save", p, "--games", "5",
    ]);
    assert!(err.contains("2 names (hard links)"), "{err}");
    assert_eq!(games_played(&m), 20);
    // A table is refused there too (every save goes through the same check).
    let table = dir.path().join("t.csv");
    fs::write(&table, "game,result\n").unwrap();
    fs::hard_link(&table, dir.path().join("t-link.csv")).unwrap();
    let t = table.to_str().unwrap();
    let err = refused(&["train", "hexapawn", "--games", "5", "--csv", t, "--force"]);
    assert!(err.contains("t.csv") && err.contains("hard links"), "{err}");
}

/// A name near the file system's 255-byte limit saves (the temporary file beside it is named
/// from a shortened name) and resumes.
#[test]
fn a_machine_named_near_the_length_limit_saves() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join(format!("{}.yaml", "é".repeat(122)));
    assert_eq!(m.file_name().unwrap().len(), 249);
    train_new(&m, "hexapawn");
    let p = m.to_str().unwrap();
    stdout(&[
        "train", "hexapawn", "--boxes", p, "--save", p, "--games", "5",
    ]);
    assert_eq!(games_played(&m), 25);
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        1,
        "no temporary file left"
    );
}
