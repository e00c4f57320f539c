//! A machine file in any shape the YAML parser reads (quoted keys, `key : value`, a document
//! indented, old Mac line ends, long comments, tags, a closing `...`, JSON, anchors across
//! boxes) loads as the same machine, and what the parser refuses is refused in its words; the
//! nesting guard reads quotes and comments as YAML does. A binary file's checksum is checked
//! before its contents, its packed positions as text ones are, and a file claiming a machine
//! far bigger than it can hold is refused without building it.

use std::fs;
use std::path::Path;

use matchbox::game::{Game, Side};
use matchbox::games::havannah::{Base, Havannah};
use matchbox::games::hexapawn::{Hexapawn, Size};
use matchbox::learn::{BoxSet, Forced, Machine, Reinforcement, StageBeads, SymmetryMode};
use matchbox::rng::{rng_from_seed, uniform_below};
use matchbox::store::{self, Format};
use sha2::{Digest, Sha256};

use crate::common::{refused, run, stdout};

/// The machine `path` holds, as `train --games 0` saves it again (the same text for the same
/// machine, whatever shape the file was in).
fn resaved(dir: &Path, path: &Path) -> String {
    let out = dir.join("resaved.yaml");
    let _ = fs::remove_file(&out);
    let p = path.to_str().unwrap();
    let o = out.to_str().unwrap();
    let done = run(&[
        "train", "hexapawn", "--boxes", p, "--games", "1", "--save", o,
    ]);
    assert!(
        done.status.success(),
        "{}: {}",
        path.display(),
        String::from_utf8_lossy(&done.stderr)
    );
    fs::read_to_string(&out).unwrap()
}

#[test]
fn every_shape_the_yaml_parser_reads_loads_as_the_same_machine() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.yaml");
    stdout(&[
        "train",
        "hexapawn",
        "--games",
        "20",
        "--seed",
        "1",
        "--save",
        m.to_str().unwrap(),
    ]);
    let text = fs::read_to_string(&m).unwrap();
    let want = resaved(dir.path(), &m);
    let value: serde_json::Value = serde_yaml::from_str(&text).unwrap();
    // Box 2's first arrow given box 1's first arrow's beads through an alias, and the same
    // written out.
    let second = text.find("- box: 2").unwrap();
    let arrow = second + text[second..].find("\n    ").unwrap() + 5;
    let colon = arrow + text[arrow..].find(": ").unwrap() + 2;
    let end = colon + text[colon..].find('\n').unwrap();
    let first = text.find("b3xa2: 1").unwrap();
    let mut anchored = text.clone();
    anchored.replace_range(colon..end, "*one");
    anchored.replace_range(first..first + 8, "b3xa2: &one 1");
    let mut written = text.clone();
    written.replace_range(colon..end, "1");
    let written_path = dir.path().join("written.yaml");
    fs::write(&written_path, &written).unwrap();
    let want_anchored = resaved(dir.path(), &written_path);
    let shapes = [
        (
            "quoted keys",
            text.replace("game: hexapawn", "\"game\": hexapawn"),
        ),
        (
            "a space before the colon",
            text.replace("game: hexapawn", "game : hexapawn"),
        ),
        (
            "indented",
            text.lines().map(|l| format!("  {l}\n")).collect(),
        ),
        ("old Mac line ends", text.replace('\n', "\r")),
        (
            "2 MB of comments first",
            "# a note\n".repeat(250_000) + &text,
        ),
        (
            "a tag",
            text.replace("game: hexapawn", "game: !!str hexapawn"),
        ),
        ("a closing ...", format!("{text}...\n")),
        ("JSON", serde_json::to_string(&value).unwrap()),
        (
            "JSON over lines",
            serde_json::to_string_pretty(&value).unwrap(),
        ),
        ("anchors across boxes", anchored),
    ];
    for (what, shape) in shapes {
        let path = dir.path().join("shape.yaml");
        fs::write(&path, &shape).unwrap();
        let got = resaved(dir.path(), &path);
        match what {
            "anchors across boxes" => assert_eq!(got, want_anchored, "{what}"),
            _ => assert_eq!(got, want, "{what}"),
        }
    }
}

#[test]
fn what_the_yaml_parser_refuses_is_refused_in_its_words() {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.yaml");
    stdout(&[
        "train",
        "hexapawn",
        "--games",
        "5",
        "--save",
        m.to_str().unwrap(),
    ]);
    let text = fs::read_to_string(&m).unwrap();
    let bad = dir.path().join("bad.yaml");
    // A tab before a key: YAML does not indent with tabs.
    fs::write(&bad, text.replace("game: hexapawn", "\tgame: hexapawn")).unwrap();
    let err = refused(&["train", "hexapawn", "--boxes", bad.to_str().unwrap()]);
    assert!(err.contains("bad.yaml") && err.contains("line 3"), "{err}");
    // Two documents.
    fs::write(&bad, format!("{text}---\n{text}")).unwrap();
    let err = refused(&["train", "hexapawn", "--boxes", bad.to_str().unwrap()]);
    assert!(err.contains("more than one document"), "{err}");
}

#[test]
fn the_nesting_guard_reads_quotes_and_comments_as_yaml_does() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("deep.yaml");
    for text in [
        // An apostrophe in plain text starts no string.
        format!("game: it's {}\n", "[".repeat(100_000)),
        // Brackets over many lines.
        format!("game: {}\n", "[\n".repeat(100_000)),
        // A quoted string, then brackets.
        format!("game: 'x' {}\n", "[".repeat(100_000)),
    ] {
        fs::write(&bad, text).unwrap();
        let err = refused(&["train", "hexapawn", "--boxes", bad.to_str().unwrap()]);
        assert!(err.contains("nested more than 64 levels"), "{err}");
    }
    // Brackets inside quotes, or in a comment, are text.
    let dir2 = tempfile::tempdir().unwrap();
    let m = dir2.path().join("m.yaml");
    stdout(&[
        "train",
        "hexapawn",
        "--games",
        "5",
        "--save",
        m.to_str().unwrap(),
    ]);
    let text = fs::read_to_string(&m).unwrap();
    let deep = "[".repeat(200);
    let ok = text.replacen(
        "game: hexapawn",
        &format!("# {deep}\ngame: hexapawn # {deep}\n\"x{deep}\": 'it''s {deep}'"),
        1,
    );
    fs::write(&bad, ok).unwrap();
    let err = refused(&["train", "hexapawn", "--boxes", bad.to_str().unwrap()]);
    assert!(
        err.contains("unknown field `x[[["),
        "the parser's own complaint: {err}"
    );
}

/// The same bytes with a fresh checksum: a damaged file made to pass the checksum.
fn with_sum(mut bytes: Vec<u8>) -> Vec<u8> {
    let body = bytes.len() - 32;
    let sum = Sha256::digest(&bytes[..body]);
    bytes[body..].copy_from_slice(&sum);
    bytes
}

fn binary<G: Game>(game: &G, m: &Machine<G>) -> Vec<u8> {
    let mut out = Vec::new();
    store::write_machine(&mut out, Format::Binary, game, m, game_size(game)).unwrap();
    out
}

fn game_size<G: Game>(game: &G) -> Option<String> {
    (game.name() == "hexapawn").then(|| game.variant().split(' ').next().unwrap().to_string())
}

fn load<G: Game>(game: &G, bytes: &[u8]) -> Result<Machine<G>, String> {
    let input = std::io::Cursor::new(bytes);
    store::read_machine(game, Path::new("m.mbx"), Format::Binary, input).map_err(|e| e.to_string())
}

#[test]
fn a_damaged_binary_file_is_called_damaged_before_its_contents_are_read() {
    let game = Hexapawn::new(Size::GARDNER);
    let m = crate::common::fresh_machine(&game, 1);
    let good = binary(&game, &m);
    let at = good.windows(8).position(|w| w == b"hexapawn").unwrap();
    let mut bad = good.clone();
    bad[at + 7] = b'o';
    let err = load(&game, &bad).unwrap_err();
    assert!(err.contains("checksum does not match"), "{err}");
    let err = store::read_file_game_from(
        Path::new("m.mbx"),
        Format::Binary,
        std::io::Cursor::new(&bad),
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("checksum does not match"),
        "not blamed on the game's name: {err}"
    );
}

/// The position a random game of Havannah base 2 ends in, when Black won it: White to move
/// after the game is over, as the learner (White) would be.
fn won_by_black(game: &Havannah) -> <Havannah as Game>::Position {
    let mut rng = rng_from_seed(3);
    loop {
        let mut pos = game.start();
        while game.outcome(&pos).is_none() {
            let moves = game.moves(&pos);
            pos = game.play(
                &pos,
                moves[uniform_below(&mut rng, moves.len() as u32) as usize],
            );
        }
        if game.to_move(&pos) == Side::First && game.outcome(&pos).is_some() {
            return game.canonical(&pos).0;
        }
    }
}

#[test]
fn packed_positions_are_checked_as_text_ones_are() {
    let game = Havannah::new(Base::new(2).unwrap());
    let set = BoxSet::lazy(&game, Side::First, SymmetryMode::Full, Forced::Include);
    let mut m = Machine::new(
        std::sync::Arc::new(set),
        StageBeads::uniform(3),
        Reinforcement::GARDNER,
        1,
    );
    matchbox::learn::lazy::train(&game, &mut m, &mut matchbox::players::RandomPlayer, 50);
    let good = binary(&game, &m);
    assert!(load(&game, &good).is_ok());
    assert_eq!(good[10], 1, "positions packed");
    // Box 1's position replaced by one after the game was won, the checksum made good.
    let header = u32::from_le_bytes(good[11..15].try_into().unwrap()) as usize;
    let first = 15 + header + 8;
    let word = game.pack(&won_by_black(&game)).unwrap();
    let mut bad = good.clone();
    bad[first + 2..first + 10].copy_from_slice(&word.to_le_bytes());
    let err = load(&game, &with_sum(bad)).unwrap_err();
    assert!(
        err.contains("box 1") && err.contains("game is over"),
        "{err}"
    );
}

/// A binary file with its settings' text rewritten by `edit` and a good checksum.
fn with_settings(bytes: &[u8], edit: impl Fn(&str) -> String) -> Vec<u8> {
    let len = u32::from_le_bytes(bytes[11..15].try_into().unwrap()) as usize;
    let text = edit(std::str::from_utf8(&bytes[15..15 + len]).unwrap());
    let mut out = bytes[..11].to_vec();
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(text.as_bytes());
    out.extend_from_slice(&bytes[15 + len..]);
    with_sum(out)
}

#[test]
fn a_file_claiming_a_machine_far_bigger_than_it_holds_is_refused_without_building_it() {
    // Hexapawn 5x6's first boxes (a lazy machine after a game), then its settings made to say
    // that the file holds every box (a table machine: gigabytes).
    let big = Hexapawn::new("5x6".parse().unwrap());
    let set = BoxSet::lazy(&big, Side::Second, SymmetryMode::Full, Forced::Include);
    let mut m = Machine::new(
        std::sync::Arc::new(set),
        StageBeads::uniform(3),
        Reinforcement::GARDNER,
        1,
    );
    matchbox::learn::lazy::train(&big, &mut m, &mut matchbox::players::RandomPlayer, 1);
    let boxes = m.boxes.len();
    let lazy = binary(&big, &m);
    assert!(load(&big, &lazy).is_ok());
    let table = with_settings(&lazy, |t| t.replace("engine: lazy\n", ""));
    let err = load(&big, &table).unwrap_err();
    assert!(
        err.contains(&format!("more than the {boxes} this file can hold")),
        "{err}"
    );
    // In YAML too.
    let yaml = store::to_yaml(&big, &m, Some("5x6".into())).replace("engine: lazy\n", "");
    let err = store::from_yaml(&big, Path::new("m.yaml"), &yaml)
        .unwrap_err()
        .to_string();
    assert!(err.contains("this file can hold"), "{err}");
}
