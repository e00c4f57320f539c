//! YAML matchbox files: shipped presets, resuming, atomic saves, and a clear one-line error for
//! every kind of bad file.

use std::path::Path;
use std::sync::Arc;

use matchbox::game::Side;
use matchbox::games::hexapawn::{Hexapawn, Size};
use matchbox::learn::Machine;
use matchbox::learn::engine::{Enumerated, Table, Trainer};
use matchbox::learn::{BoxSet, Reinforcement, StageBeads, SymmetryMode};
use matchbox::solve::TieBreak;
use matchbox::store;

fn her_game() -> Hexapawn {
    Hexapawn::new(Size::GARDNER)
}

fn fresh(mode: SymmetryMode, seed: u64) -> Machine<Hexapawn> {
    let boxes = Arc::new(BoxSet::build(&her_game(), Side::Second, mode));
    Machine::new(boxes, StageBeads::uniform(1), Reinforcement::GARDNER, seed)
}

fn load(text: &str) -> Result<Machine<Hexapawn>, String> {
    store::from_yaml(&her_game(), Path::new("her.yaml"), text).map_err(|e| e.to_string())
}

fn save_text(m: &Machine<Hexapawn>) -> String {
    store::to_yaml(&her_game(), m, Some("3x3".into()))
}

#[test]
fn shipped_presets_are_fresh_her_machines() {
    for (file, mode, boxes) in [
        ("boxes/hexapawn-her-gardner.yaml", SymmetryMode::Gardner, 24),
        ("boxes/hexapawn-her.yaml", SymmetryMode::Full, 19),
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let m = store::from_yaml(&her_game(), &path, &text).unwrap();
        assert_eq!(m.boxes.len(), boxes, "{file}");
        assert_eq!(m.boxes.mode(), mode);
        assert_eq!(m.games_played, 0);
        assert_eq!(
            m.beads_left() as usize,
            m.boxes.arrow_count(),
            "one bead per arrow"
        );
        // The shipped file is exactly what `matchbox train hexapawn --games 0 --seed 1962 --save`
        // writes today, so it cannot drift from the code.
        assert_eq!(text, save_text(&fresh(mode, 1962)), "{file} is stale");
    }
}

#[test]
fn resuming_from_a_file_continues_the_same_run() {
    let game = her_game();
    let boxes = Arc::new(BoxSet::build(&game, Side::Second, SymmetryMode::Gardner));
    let arena = Enumerated::new(her_game());
    let table = Table::against_perfect(&arena, &boxes, TieBreak::Random).unwrap();
    let t = Trainer::new(&arena, &table);

    let mut straight = fresh(SymmetryMode::Gardner, 5);
    let all = t.train(&mut straight, 50);

    let mut first = fresh(SymmetryMode::Gardner, 5);
    let mut results = t.train(&mut first, 30);
    let mut resumed = load(&save_text(&first)).unwrap();
    assert_eq!(resumed.games_played, 30);
    results.extend(t.train(&mut resumed, 20));
    assert_eq!(results, all);
    assert_eq!(save_text(&resumed), save_text(&straight));
}

#[test]
fn saves_are_atomic() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("her.yaml");
    let m = fresh(SymmetryMode::Gardner, 1);
    store::save_atomic(&path, &save_text(&m)).unwrap();
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, ["her.yaml"], "no temporary file is left behind");
    assert!(load(&std::fs::read_to_string(&path).unwrap()).is_ok());
    // A save that cannot complete (here: its target is a directory) fails and leaves the
    // directory as it was.
    let blocked = dir.path().join("sub");
    std::fs::create_dir(&blocked).unwrap();
    std::fs::write(blocked.join("keep"), "x").unwrap();
    let err = store::save_atomic(&blocked, "new").unwrap_err().to_string();
    assert!(err.contains("sub"), "{err}");
    assert_eq!(std::fs::read_to_string(blocked.join("keep")).unwrap(), "x");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}

#[test]
fn bad_files_get_one_line_errors_naming_the_place() {
    let good = save_text(&fresh(SymmetryMode::Gardner, 1));
    assert!(load(&good).is_ok());
    // (what is wrong, edit to the good file, words the error must contain)
    let cases: Vec<(&str, String, &[&str])> = vec![
        (
            "unknown game",
            good.replace("game: hexapawn", "game: chess"),
            &["key `game`", "chess"],
        ),
        (
            "malformed YAML",
            good.replace("boxes:\n", "boxes: [\n"),
            &["her.yaml", "line"],
        ),
        (
            "missing key",
            good.replace("symmetry: gardner\n", ""),
            &["symmetry"],
        ),
        (
            "unknown key",
            good.replace("seed: 1\n", "seed: 1\ncolour: red\n"),
            &["colour"],
        ),
        (
            "bad symmetry",
            good.replace("symmetry: gardner", "symmetry: some"),
            &["symmetry", "some"],
        ),
        (
            "bad side",
            good.replace("side: black", "side: purple"),
            &["key `side`", "purple"],
        ),
        (
            "bad reinforcement",
            good.replace("reinforcement: gardner", "reinforcement: harsh"),
            &["harsh"],
        ),
        (
            "illegal diagram",
            good.replace("position: BBB/W../.WW", "position: BBB/W../.W"),
            &["box 1", "rank 1 has 2 squares"],
        ),
        (
            "unreachable position",
            good.replace("position: BBB/W../.WW", "position: BB./W../.WW"),
            &["box 1", "not a position"],
        ),
        (
            "illegal move",
            good.replacen("b3xa2: 1", "b3-b1: 1", 1),
            &["box 1", "b3-b1", "not a legal move"],
        ),
        (
            "merged mirror move",
            good.replacen("    a3-a2: 1\n", "    c3-c2: 1\n", 1),
            &["box 2", "c3-c2", "not an arrow of this box"],
        ),
        (
            "negative beads",
            good.replacen("b3xa2: 1", "b3xa2: -1", 1),
            &["box 1", "b3xa2", "-1"],
        ),
        (
            "fractional beads",
            good.replacen("b3xa2: 1", "b3xa2: 1.5", 1),
            &["box 1", "1.5"],
        ),
        (
            "text beads",
            good.replacen("b3xa2: 1", "b3xa2: many", 1),
            &["box 1", "many"],
        ),
        (
            "missing arrow",
            good.replacen("    b3xa2: 1\n", "", 1),
            &["box 1", "b3xa2", "missing"],
        ),
        (
            "duplicate box",
            good.replacen("position: BBB/.W./W.W", "position: BBB/W../.WW", 1),
            &["box 2", "duplicate"],
        ),
        (
            "wrong side",
            good.replace("position: BBB/W../.WW", "position: BBB/.../WWW"),
            &["box 1", "wrong side", "white"],
        ),
        (
            "wrong game size",
            good.replace("size: 3x3\n", "size: 4x4\n"),
            &[],
        ),
        (
            "negative games",
            good.replace("games_played: 0", "games_played: -3"),
            &["games_played"],
        ),
    ];
    for (what, text, words) in cases {
        assert_ne!(text, good, "{what}: the edit applied");
        let Err(err) = load(&text) else {
            // A 4x4 size key is checked by the CLI, which builds the game from it.
            assert_eq!(what, "wrong game size");
            continue;
        };
        assert!(!err.contains('\n'), "{what}: one line: {err}");
        assert!(
            err.starts_with("her.yaml: "),
            "{what}: names the file: {err}"
        );
        for w in words {
            assert!(err.contains(w), "{what}: `{w}` in: {err}");
        }
    }
}

#[test]
fn a_box_missing_from_the_file_is_named() {
    let good = save_text(&fresh(SymmetryMode::Gardner, 1));
    let start = good.find("- box: 24").unwrap();
    let err = load(&good[..start]).unwrap_err();
    assert!(err.contains("23 boxes") && err.contains("has 24"), "{err}");
}

#[test]
fn hand_edited_beads_are_kept() {
    let good = save_text(&fresh(SymmetryMode::Gardner, 1));
    let m = load(&good.replacen("b3xa2: 1", "b3xa2: 7", 1)).unwrap();
    assert_eq!(m.beads_in(0)[0].get(), 7);
    assert_eq!(m.box_total(0), 9);
}

/// Every file in tests/broken/ is refused with one line naming the file and the key or box at
/// fault (and quickly: a deeply nested file is refused before it is parsed).
#[test]
fn a_corpus_of_broken_files_each_gets_one_line() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/broken");
    let expected = [
        (
            "arrow-as-number.yaml",
            "box 1 (BBB/W../.WW): arrow `5`: `5` is not a move",
        ),
        (
            "beads-over-u32.yaml",
            "box 1 (BBB/W../.WW): arrow `b3xa2`: bead count must be a whole number from 0 to 1000000000, found 4000000000",
        ),
        (
            "box-over-maximum.yaml",
            "box 1 (BBB/W../.WW): 1800000000 beads in one box: a box may hold at most 1000000000",
        ),
        (
            "escape-in-position.yaml",
            "box 1 (\\u{1b}[2JBBB/W../.WW): bad position",
        ),
        (
            "games-played-negative.yaml",
            "key `games_played`: -1 is below 0",
        ),
        (
            "initial-beads-wrong-type.yaml",
            "key `initial_beads`: invalid type: string \"lots\", expected a sequence at line 8",
        ),
        (
            "nested-deeply.yaml",
            "line 8: lists or maps nested more than 64 levels deep",
        ),
        (
            "rng-state-zero.yaml",
            "key `rng_state`: an all-zero generator state gives only zeros",
        ),
        (
            "size-big-bad-box.yaml",
            "box 1 (BBB/W../.WW): bad position `BBB/W../.WW`: 3 ranks, the 6x5 board has 6",
        ),
        (
            "size-too-big.yaml",
            "key `size`: hexapawn 8x8 is too big to enumerate every box",
        ),
        (
            "symmetry-as-list.yaml",
            "key `symmetry`: invalid type: sequence, expected a string",
        ),
        ("unknown-key.yaml", "key `speed`: unknown field `speed`"),
    ];
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut names: Vec<&str> = expected.iter().map(|e| e.0).collect();
    names.sort();
    assert_eq!(
        files, names,
        "one expected message per file in tests/broken"
    );
    for (file, message) in expected {
        let path = dir.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let size = if file.starts_with("size-too-big") {
            Size::new(8, 8).unwrap()
        } else if file.starts_with("size-big") {
            Size::new(6, 5).unwrap()
        } else {
            Size::GARDNER
        };
        let err = store::from_yaml(&Hexapawn::new(size), &path, &text)
            .unwrap_err()
            .to_string();
        assert_eq!(err.lines().count(), 1, "{file}: {err}");
        assert!(
            err.starts_with(&path.display().to_string()),
            "{file}: {err}"
        );
        assert!(err.contains(message), "{file}: {err}");
        assert!(!err.contains('\x1b'), "{file}: {err}");
    }
}

#[test]
fn saves_never_replace_devices_follow_links_and_refuse_one_file_twice() {
    let dir = tempfile::tempdir().unwrap();
    let m = fresh(SymmetryMode::Gardner, 1);
    let text = save_text(&m);
    // A device is not replaced by a regular file.
    let err = store::save_atomic(Path::new("/dev/null"), &text).unwrap_err();
    assert!(err.to_string().contains("not a regular file"), "{err}");
    assert!(store::check_writable(Path::new("/dev/null")).is_err());
    assert!(!Path::new("/dev/null").is_file());
    // A link is kept, and its target replaced.
    let target = dir.path().join("target.yaml");
    std::fs::write(&target, "old").unwrap();
    let link = dir.path().join("link.yaml");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    store::save_atomic(&link, &text).unwrap();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_to_string(&target).unwrap(), text);
    // Two outputs to one file (also through a link) are refused.
    let a = dir.path().join("same.yaml");
    assert!(store::check_distinct(&[("--save", &a), ("--save-opponent", &a)]).is_err());
    assert!(store::check_distinct(&[("--save", &link), ("--csv", &target)]).is_err());
    assert!(store::check_distinct(&[("--save", &a), ("--csv", &target)]).is_ok());
    // A directory that cannot take files is found out before any work.
    assert!(store::check_writable(Path::new("/proc/x.yaml")).is_err());
    // A temporary file left by a killed save (a process that no longer runs) is cleaned up.
    let stale = dir.path().join(".target.yaml.999999999.tmp");
    std::fs::write(&stale, "torn").unwrap();
    store::save_atomic(&target, &text).unwrap();
    assert!(!stale.exists());
    // The check before the work writes nothing that stays, and what a check killed midway left
    // (its probe carries the save's temporary name) is cleaned by the next check or save.
    let temps = || {
        std::fs::read_dir(dir.path())
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with(".tmp")
            })
            .count()
    };
    std::fs::write(&stale, "").unwrap();
    store::check_writable(&target).unwrap();
    assert_eq!(temps(), 0);
}

/// Random mutations of a valid file: never a panic; either a machine that trains, or one line
/// of error naming the file.
#[test]
fn mutated_files_load_or_get_one_line() {
    use rand::{RngExt, SeedableRng};
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("boxes/hexapawn-her-gardner.yaml");
    let good = std::fs::read_to_string(&path).unwrap();
    let game = her_game();
    let en = Enumerated::new(game.clone());
    let pieces = [
        "",
        "-",
        "0",
        "1",
        "4294967296",
        "-1",
        "[",
        "]",
        "{",
        ":",
        " ",
        "\n",
        "'",
        "\"",
        "x",
        "b3xa2",
        "none",
        "full",
        "white",
        "~",
        "&a",
        "*a",
        "!!str",
        "#",
        "\t",
        "é",
    ];
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(2026);
    let (mut loaded, mut refused) = (0, 0);
    for _ in 0..3000 {
        let mut text: Vec<char> = good.chars().collect();
        for _ in 0..rng.random_range(1..4) {
            let at = rng.random_range(0..text.len());
            match rng.random_range(0..3) {
                0 => {
                    let len = rng.random_range(1..8).min(text.len() - at);
                    text.drain(at..at + len);
                }
                1 => {
                    let p = pieces[rng.random_range(0..pieces.len())];
                    for (k, c) in p.chars().enumerate() {
                        text.insert(at + k, c);
                    }
                }
                _ => {
                    let p = pieces[rng.random_range(0..pieces.len())];
                    let len = 1.min(text.len() - at);
                    text.splice(at..at + len, p.chars());
                }
            }
        }
        let text: String = text.into_iter().collect();
        match store::from_yaml(&game, Path::new("m.yaml"), &text) {
            Ok(mut m) => {
                loaded += 1;
                let table = Table::against_random(&en, &m.boxes);
                Trainer::new(&en, &table).train(&mut m, 20);
            }
            Err(e) => {
                refused += 1;
                let e = e.to_string();
                assert_eq!(e.lines().count(), 1, "{e}");
                assert!(e.starts_with("m.yaml: "), "{e}");
                assert!(e.chars().count() < 1200, "{e}");
            }
        }
    }
    assert!(
        loaded > 0 && refused > 0,
        "{loaded} loaded, {refused} refused"
    );
}

#[test]
fn a_game_count_at_its_maximum_stays_there() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("boxes/hexapawn-her-gardner.yaml");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("games_played: 0", "games_played: 18446744073709551615");
    let mut m = load(&text).unwrap();
    let en = Enumerated::new(her_game());
    let table = Table::against_random(&en, &m.boxes);
    Trainer::new(&en, &table).train(&mut m, 3);
    assert_eq!(m.games_played, u64::MAX);
}
