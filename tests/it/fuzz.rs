//! No panic from any text a user types: every parser (games and sizes, positions, moves, sides,
//! Arimaa records and steps, settings, matchbox files) is fed arbitrary Unicode and text close to
//! the real notation with multi-byte characters mixed in. Each must answer `Ok` or `Err`, and
//! what it accepts must print as text that parses to the same value (`roundtrip.rs` holds the
//! round trips of everything the program prints).

use matchbox::game::{Game, Side};
use matchbox::games::GameKind;
use matchbox::games::arimaa::{GameLine, MiniArimaa, Rules, split_turns};
use matchbox::games::havannah::Havannah;
use matchbox::games::hexapawn::{Hexapawn, Size};
use matchbox::games::tictactoe::TicTacToe;
use matchbox::learn::{Preset, Reinforcement, StageBeads, SymmetryMode};
use proptest::prelude::*;

/// Characters of the games' notations, digits and separators, and multi-byte characters where a
/// parser slicing by bytes would break (`é`, `…`, `→`, `✓`, an emoji, a combining accent).
const ALPHABET: &[char] = &[
    'a', 'b', 'c', 'd', 'e', 'h', 'x', 'g', 's', 'n', 'w', 'E', 'M', 'H', 'D', 'C', 'R', 'r', 'm',
    'B', 'W', 'X', 'O', 'o', '.', '/', '-', '_', '[', ']', ' ', ',', ':', '1', '2', '3', '4', '5',
    '8', '9', '0', 'é', '…', '→', '✓', '🙂', '\u{301}', '×', 'ｘ', '٣',
];

/// Text close to a notation: up to 24 characters of [`ALPHABET`].
fn notation_like() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(ALPHABET), 0..24)
        .prop_map(|chars| chars.into_iter().collect())
}

/// Either arbitrary Unicode or notation-like text.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![any::<String>(), notation_like()]
}

/// Feeds `t` to every parser of `game`: a position for either side, a move at the start and a
/// few plies in, a side.
fn every_parser<G: Game>(game: &G, t: &str) {
    // What parses prints as text that parses to the same.
    for side in [Side::First, Side::Second] {
        if let Ok(p) = game.parse_position(t, side) {
            let shown = game.format_position(&p);
            let again = game
                .parse_position(&shown, side)
                .expect("a printed position parses");
            assert_eq!(game.format_position(&again), shown, "{t:?}");
        }
    }
    if let Some(side) = game.parse_side(t) {
        assert_eq!(game.parse_side(game.side_name(side)), Some(side), "{t:?}");
    }
    let mut pos = game.start();
    for _ in 0..3 {
        if let Ok(mv) = game.parse_move(&pos, t) {
            let shown = game.format_move(mv);
            assert_eq!(
                game.parse_move(&pos, &shown).ok(),
                Some(mv),
                "{t:?} → {shown:?}"
            );
        }
        match game.moves(&pos).first() {
            Some(&mv) => pos = game.play(&pos, mv),
            None => break,
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn games_and_sizes_parse_or_refuse(name in text(), size in text()) {
        for kind in [GameKind::parse(&name, Some(&size)), GameKind::parse(&name, None)].into_iter().flatten() {
            prop_assert_eq!(GameKind::parse(kind.name(), kind.size().as_deref()).ok(), Some(kind));
        }
        for game in ["hexapawn", "octopawn", "tictactoe", "havannah", "arimaa", "mini-arimaa"] {
            if let Ok(kind) = GameKind::parse(game, Some(&size)) {
                prop_assert_eq!(GameKind::parse(kind.name(), kind.size().as_deref()).ok(), Some(kind));
            }
        }
        crate::roundtrip::round_trips::<Size>(&size)?;
    }

    #[test]
    fn positions_moves_and_sides_parse_or_refuse(t in text()) {
        every_parser(&Hexapawn::new(Size::GARDNER), &t);
        every_parser(&Hexapawn::new(Size::OCTOPAWN), &t);
        every_parser(&TicTacToe, &t);
        every_parser(&Havannah::new(matchbox::games::havannah::Base::new(3).unwrap()), &t);
        every_parser(&MiniArimaa::new(), &t);
    }

    #[test]
    fn arimaa_records_and_steps_parse_or_refuse(t in text(), u in text()) {
        let rules = Rules::standard();
        let _ = rules.parse_step(&t);
        let _ = rules.parse_placement(&t);
        let _ = rules.parse_short(&t);
        let _ = rules.parse_square(&t);
        let _ = matchbox::games::arimaa::parse_side(&t);
        let record = format!("{t} {u}");
        for turn in split_turns(&record) {
            let mut line = GameLine::from_setup();
            let _ = line.play(&rules, &turn);
        }
        let start = "[rrrrrrrrdhcemchd                                DHCMECHDRRRRRRRR]";
        let board = rules.parse_short(start).unwrap();
        let mut line = GameLine::new(board, Side::First);
        for turn in split_turns(&record) {
            if line.play(&rules, &turn).is_err() {
                break;
            }
        }
    }

    #[test]
    fn settings_parse_or_refuse(t in text()) {
        use crate::roundtrip::round_trips;
        round_trips::<Reinforcement>(&t)?;
        round_trips::<StageBeads>(&t)?;
        round_trips::<SymmetryMode>(&t)?;
        round_trips::<Preset>(&t)?;
        round_trips::<matchbox::learn::Engine>(&t)?;
        round_trips::<matchbox::players::Opponent>(&t)?;
        round_trips::<matchbox::solve::TieBreak>(&t)?;
        let _ = t.parse::<matchbox::cli::ByteSize>();
    }

    #[test]
    fn move_numbers_and_binary_files_refuse_or_load(t in text(), bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        for (token, _) in matchbox::games::arimaa::split_numbered(&t) {
            if let Some(token) = token {
                let _ = matchbox::games::arimaa::check_move_number(token, 1, Side::First);
            }
        }
        // Any bytes as a binary machine file, and a good file's header followed by them.
        let game = TicTacToe;
        let path = std::path::Path::new("fuzz.mbx");
        let format = matchbox::store::Format::Binary;
        let _ = matchbox::store::read_machine(&game, path, format, std::io::Cursor::new(&bytes[..]));
        let mut file = b"MATCHBOX\x01\x00\x00".to_vec();
        file.extend_from_slice(&bytes);
        let _ = matchbox::store::read_machine(&game, path, format, std::io::Cursor::new(&file[..]));
        let _ = matchbox::store::read_file_game_from(path, format, std::io::Cursor::new(&file[..]));
    }

    #[test]
    fn binary_files_with_a_good_checksum_refuse_or_load(
        bytes in prop::collection::vec(any::<u8>(), 0..300),
        settings in text(),
        packed in 0u8..3,
    ) {
        use sha2::{Digest, Sha256};
        let sealed = |mut file: Vec<u8>| {
            let sum = Sha256::digest(&file);
            file.extend_from_slice(&sum);
            file
        };
        let game = TicTacToe;
        let path = std::path::Path::new("fuzz.mbx");
        let format = matchbox::store::Format::Binary;
        // Any bytes after the magic, sealed with their checksum.
        let mut file = b"MATCHBOX\x01\x00".to_vec();
        file.push(packed);
        file.extend_from_slice(&bytes);
        let file = sealed(file);
        let _ = matchbox::store::read_machine(&game, path, format, std::io::Cursor::new(&file[..]));
        let _ = matchbox::store::read_file_game_from(path, format, std::io::Cursor::new(&file[..]));
        // Any settings text, then any boxes, sealed.
        let mut file = b"MATCHBOX\x01\x00".to_vec();
        file.push(packed);
        file.extend_from_slice(&(settings.len() as u32).to_le_bytes());
        file.extend_from_slice(settings.as_bytes());
        file.extend_from_slice(&bytes);
        let file = sealed(file);
        let _ = matchbox::store::read_machine(&game, path, format, std::io::Cursor::new(&file[..]));
    }

    #[test]
    fn no_bytes_typed_leave_the_keys_stuck(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        use matchbox::tui::input::Decoder;
        use matchbox::view::key::{Key, KeyCode};
        let mut d = Decoder::default();
        let mut keys = std::collections::VecDeque::new();
        for &b in &bytes {
            d.push(b, &mut keys);
        }
        d.end_of_input(&mut keys);
        prop_assert!(keys.len() <= bytes.len());
        // After the escape time, the next key is the key typed.
        d.give_up(&mut keys);
        keys.clear();
        d.push(b'q', &mut keys);
        prop_assert_eq!(Vec::from(keys), vec![Key { code: KeyCode::Char('q'), ctrl: false }]);
    }

    #[test]
    fn matchbox_files_load_or_refuse(t in text(), key in prop::sample::select(&["game", "size", "side", "symmetry", "seed", "beads", "position", "arrows", "move"][..])) {
        let game = Hexapawn::new(Size::GARDNER);
        let path = std::path::Path::new("fuzz.yaml");
        let _ = matchbox::store::from_yaml(&game, path, &t);
        let text = format!("game: hexapawn\nsize: 3x3\n{key}: {t}\nboxes:\n- position: {t}\n  arrows: [{t}]\n");
        let _ = matchbox::store::from_yaml(&game, path, &text);
        let _ = matchbox::store::from_yaml(&TicTacToe, path, &text);
    }
}

/// The cases the hostile trial found: a record token ending in a multi-byte character.
#[test]
fn arimaa_tokens_ending_in_a_multibyte_character_are_refused_not_panics() {
    let rules = Rules::standard();
    for token in ["é", "…", "Ed2n →", "b1e ✓", "1é", "Ed2→", "E→"] {
        for turn in split_turns(token) {
            let mut line = GameLine::from_setup();
            assert!(line.play(&rules, &turn).is_err(), "{token} was taken");
        }
        assert!(rules.parse_step(token).is_err() || token.is_empty());
    }
    let mini = MiniArimaa::new();
    assert!(mini.parse_move(&mini.start(), "b1e ✓").is_err());
}

/// A part of an experiment with one of its values replaced: `merge` refuses it in one line or
/// merges it, never a panic, a hang or a message of many lines.
#[test]
fn merge_parts_edited_anywhere_are_refused_or_merged() {
    let dir = tempfile::tempdir().unwrap();
    let part = |k: usize| {
        let shard = format!("{k}/2");
        let args = [
            "experiment",
            "hexapawn",
            "--runs",
            "6",
            "--games",
            "3",
            "--seed",
            "9",
            "--shard",
            &shard,
        ];
        let path = dir.path().join(format!("p{k}.json"));
        std::fs::write(&path, crate::common::stdout(&args)).unwrap();
        path
    };
    let (first, second) = (part(1), part(2));
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&second).unwrap()).unwrap();
    // Every leaf of the part, by its JSON pointer.
    fn leaves(v: &serde_json::Value, at: String, out: &mut Vec<String>) {
        match v {
            serde_json::Value::Object(o) => o
                .iter()
                .for_each(|(k, x)| leaves(x, format!("{at}/{k}"), out)),
            serde_json::Value::Array(a) => a
                .iter()
                .enumerate()
                .for_each(|(i, x)| leaves(x, format!("{at}/{i}"), out)),
            _ => out.push(at),
        }
    }
    let mut all = Vec::new();
    leaves(&value, String::new(), &mut all);
    let replacements: [serde_json::Value; 7] = [
        serde_json::json!(u64::MAX),
        serde_json::json!(-1),
        serde_json::json!(1_000_000_000_000_000u64),
        serde_json::json!(0),
        serde_json::json!("\u{1b}[2J\u{202e}"),
        serde_json::json!(null),
        serde_json::json!([[[[[[1]]]]]]),
    ];
    let edited = dir.path().join("edited.json");
    let mut rng = matchbox::rng::rng_from_seed(11);
    for _ in 0..48 {
        let at = &all[matchbox::rng::uniform_below(&mut rng, all.len() as u32) as usize];
        let with = &replacements[matchbox::rng::uniform_below(&mut rng, 7) as usize];
        let mut v = value.clone();
        *v.pointer_mut(at).unwrap() = with.clone();
        std::fs::write(&edited, v.to_string()).unwrap();
        let out = crate::common::run(&["merge", first.to_str().unwrap(), edited.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_ne!(
            out.status.code(),
            Some(101),
            "{at} = {with}: a panic: {err}"
        );
        if !out.status.success() {
            assert_eq!(err.lines().count(), 1, "{at} = {with}: {err}");
            assert!(!err.contains('\u{1b}'), "{at} = {with}: {err}");
        }
    }
}
