//! Machine files read and written box by box, in YAML and in the binary format: what is saved
//! loads, either format converts to the other, the YAML is what the YAML library would write, a
//! damaged binary file is refused, and a bad box is named as soon as it is read (the rest of the
//! file unread).

use std::io::{BufReader, Read};
use std::path::Path;
use std::sync::Arc;

use matchbox::game::{Game, Side};
use matchbox::games::arimaa::MiniArimaa;
use matchbox::games::havannah::{Base, Havannah};
use matchbox::games::hexapawn::{Hexapawn, Size};
use matchbox::games::tictactoe::TicTacToe;
use matchbox::games::{GameKind, with_game};
use matchbox::learn::{
    BoxSet, Forced, Machine, Preset, Reinforcement, StageBeads, SymmetryMode, lazy,
};
use matchbox::players::RandomPlayer;
use matchbox::store::{self, Format};

/// A machine of `game` for `side` after `games` games against random play: every box made
/// (`table`) or only those met (lazy).
fn trained<G: Game>(game: &G, side: Side, table: bool, games: usize) -> Machine<G> {
    let set = if table {
        BoxSet::build_with(game, side, SymmetryMode::Full, Forced::Include)
    } else {
        BoxSet::lazy(game, side, SymmetryMode::Full, Forced::Include)
    };
    let mut m = Machine::new(
        Arc::new(set),
        StageBeads::uniform(3),
        Reinforcement::GARDNER,
        7,
    );
    lazy::train(game, &mut m, &mut RandomPlayer, games);
    m
}

fn bytes_of<G: Game>(game: &G, m: &Machine<G>, format: Format) -> Vec<u8> {
    let mut out = Vec::new();
    store::write_machine(&mut out, format, game, m, None).unwrap();
    out
}

fn load<G: Game>(game: &G, bytes: &[u8], format: Format) -> Result<Machine<G>, String> {
    store::read_machine(game, Path::new("m"), format, std::io::Cursor::new(bytes))
        .map_err(|e| e.to_string())
}

/// Saved in either format, the machine loads as it was (the YAML of both the same), and the
/// binary file is much smaller.
fn round_trip<G: Game>(game: &G, m: &Machine<G>) {
    let yaml = store::to_yaml(game, m, None);
    let binary = bytes_of(game, m, Format::Binary);
    let from_binary = load(game, &binary, Format::Binary).unwrap();
    assert_eq!(
        store::to_yaml(game, &from_binary, None),
        yaml,
        "{}",
        game.name()
    );
    let from_yaml = load(game, yaml.as_bytes(), Format::Yaml).unwrap();
    assert_eq!(
        bytes_of(game, &from_yaml, Format::Binary),
        binary,
        "{}",
        game.name()
    );
    assert_eq!(from_yaml.rng, m.rng);
    assert_eq!(from_yaml.games_played, m.games_played);
    assert!(
        binary.len() * 3 / 2 < yaml.len(),
        "{}: {} vs {}",
        game.name(),
        binary.len(),
        yaml.len()
    );
}

#[test]
fn every_game_saves_and_loads_in_both_formats() {
    let her = Hexapawn::new(Size::GARDNER);
    round_trip(&her, &trained(&her, Side::Second, true, 50));
    round_trip(&her, &trained(&her, Side::Second, false, 50));
    let big = Hexapawn::new(Size::new(8, 8).unwrap());
    round_trip(&big, &trained(&big, Side::First, false, 200));
    round_trip(&TicTacToe, &trained(&TicTacToe, Side::First, true, 200));
    let h2 = Havannah::new(Base::new(2).unwrap());
    round_trip(&h2, &trained(&h2, Side::First, true, 100));
    let h4 = Havannah::new(Base::new(4).unwrap());
    round_trip(&h4, &trained(&h4, Side::First, false, 100));
    let arimaa = MiniArimaa::new();
    round_trip(&arimaa, &trained(&arimaa, Side::First, false, 20));
    // And every game of the registry in its default size, on positions.
    for kind in GameKind::ALL {
        with_game!(kind, |g| round_trip(
            &g,
            &trained(&g, Side::First, false, 20)
        ));
    }
}

/// The YAML written box by box is exactly what the YAML library writes for the same document.
#[test]
fn the_yaml_is_what_the_yaml_library_writes() {
    fn check<G: Game>(game: &G, m: &Machine<G>) {
        let text = store::to_yaml(game, m, None);
        let body: String = text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| format!("{l}\n"))
            .collect();
        let tree: serde_yaml::Value = serde_yaml::from_str(&body).unwrap();
        assert_eq!(
            serde_yaml::to_string(&tree).unwrap(),
            body,
            "{}",
            game.name()
        );
    }
    let her = Hexapawn::new(Size::GARDNER);
    check(&her, &trained(&her, Side::Second, true, 30));
    check(&TicTacToe, &trained(&TicTacToe, Side::First, true, 30));
    for base in 2..=4 {
        let h = Havannah::new(Base::new(base).unwrap());
        check(&h, &trained(&h, Side::Second, false, 30));
    }
    let arimaa = MiniArimaa::new();
    check(&arimaa, &trained(&arimaa, Side::First, false, 10));
}

#[test]
fn a_damaged_binary_file_is_refused_in_one_line() {
    let game = TicTacToe;
    let m = trained(&game, Side::First, true, 100);
    let good = bytes_of(&game, &m, Format::Binary);
    assert!(load(&game, &good, Format::Binary).is_ok());
    // A bead count changed: every box still checks, the checksum does not.
    let mut changed = good.clone();
    let at = good.len() - 36;
    changed[at] ^= 1;
    let err = load(&game, &changed, Format::Binary).unwrap_err();
    assert!(err.contains("checksum does not match"), "{err}");
    // Cut short, anywhere.
    for cut in [4, 20, good.len() / 2, good.len() - 1] {
        let err = load(&game, &good[..cut], Format::Binary).unwrap_err();
        assert!(err.contains("cut short"), "{cut}: {err}");
        assert_eq!(err.lines().count(), 1);
    }
    // Not a binary file; a YAML file given the binary name.
    let yaml = store::to_yaml(&game, &m, None);
    let err = load(&game, yaml.as_bytes(), Format::Binary).unwrap_err();
    assert!(err.contains("not a binary matchbox file"), "{err}");
    // Another game's file.
    let her = Hexapawn::new(Size::GARDNER);
    let other = bytes_of(&her, &trained(&her, Side::Second, true, 5), Format::Binary);
    let err = load(&game, &other, Format::Binary).unwrap_err();
    assert!(err.contains("key `game`"), "{err}");
    // Bytes after the checksum.
    let mut longer = good.clone();
    longer.push(0);
    let err = load(&game, &longer, Format::Binary).unwrap_err();
    assert!(
        err.contains("checksum does not match") && err.contains("added to"),
        "{err}"
    );
}

/// A reader of `head`, then boxes without end, counting what is read of them.
struct Endless {
    head: std::io::Cursor<Vec<u8>>,
    tail: u64,
    box_text: Vec<u8>,
}

impl Read for Endless {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.head.read(buf)?;
        if n > 0 {
            return Ok(n);
        }
        let n = buf.len().min(self.box_text.len());
        buf[..n].copy_from_slice(&self.box_text[..n]);
        self.tail += n as u64;
        Ok(n)
    }
}

/// A file of a terabyte, as far as its length goes; read from its start.
impl std::io::Seek for Endless {
    fn seek(&mut self, to: std::io::SeekFrom) -> std::io::Result<u64> {
        match to {
            std::io::SeekFrom::End(0) => Ok(1 << 40),
            std::io::SeekFrom::Start(0) => {
                self.head.set_position(0);
                Ok(0)
            }
            _ => Err(std::io::Error::other("not seekable there")),
        }
    }
}

/// A bad or duplicate box is named as soon as it is read: the file's boxes after it, without
/// end here, are not read.
#[test]
fn a_bad_box_is_named_as_soon_as_it_is_read() {
    let game = Hexapawn::new(Size::GARDNER);
    let m = Machine::new(
        Arc::new(BoxSet::build(&game, Side::Second, SymmetryMode::Gardner)),
        Preset::Gardner.beads(),
        Preset::Gardner.reinforcement(),
        1,
    );
    let text = store::to_yaml(&game, &m, None);
    let second = text.find("- box: 2").unwrap();
    let third = text.find("- box: 3").unwrap();
    let cases = [
        (text[..second].replace("b3xa2: 1", "b3xa2: lots"), "box 1"),
        (
            format!(
                "{}{}",
                &text[..third],
                &text[text.find("- box: 1").unwrap()..second]
            ),
            "duplicate box",
        ),
    ];
    for (head, words) in cases {
        let mut input = BufReader::with_capacity(
            256,
            Endless {
                head: std::io::Cursor::new(head.into_bytes()),
                tail: 0,
                box_text: text.as_bytes()[second..third].to_vec(),
            },
        );
        let err = store::read_machine(&game, Path::new("her.yaml"), Format::Yaml, &mut input)
            .map(|_| ())
            .unwrap_err()
            .to_string();
        assert!(err.contains(words), "{err}");
        let read_after = input.get_ref().tail;
        assert!(
            read_after < 1024,
            "{read_after} bytes read after the bad box"
        );
    }
}

/// Saved to a file, the format is chosen by its extension; what a file holds is said from its
/// settings alone, in either format.
#[test]
fn files_on_disk_in_both_formats() {
    let dir = tempfile::tempdir().unwrap();
    let game = TicTacToe;
    let m = trained(&game, Side::First, true, 77);
    for name in ["menace.yaml", "menace.mbx", "MENACE.MBX"] {
        let path = dir.path().join(name);
        store::save_machine(&path, &game, &m).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(
            bytes.starts_with(b"MATCHBOX"),
            name.to_lowercase().ends_with(".mbx"),
            "{name}"
        );
        let back = store::load_machine(&game, &path).unwrap();
        assert_eq!(
            store::to_yaml(&game, &back, None),
            store::to_yaml(&game, &m, None)
        );
        let what = store::describe_existing(&path).unwrap();
        assert!(
            what.contains("tictactoe") && what.contains("77 games"),
            "{name}: {what}"
        );
        assert_eq!(store::read_file_game(&path).unwrap().game, "tictactoe");
    }
}

/// A lazy machine's box must say the move its position is met at, where the position tells
/// (a mark or a stone a ply).
#[test]
fn a_lazy_box_at_the_wrong_move_is_refused() {
    let game = Havannah::new(Base::new(3).unwrap());
    let m = trained(&game, Side::First, false, 20);
    let text = store::to_yaml(&game, &m, None);
    assert!(load(&game, text.as_bytes(), Format::Yaml).is_ok());
    // Box 2 is White's second move (two stones on the board): move 3.
    let at = text.find("- box: 2\n  move: 3\n").expect("box 2 at move 3");
    let bad = format!("{}- box: 2\n  move: 5\n{}", &text[..at], &text[at + 18..]);
    let err = load(&game, bad.as_bytes(), Format::Yaml).unwrap_err();
    assert!(
        err.contains("box 2")
            && err.contains("key `move`: 5 but this position, after 2 plies, is met at move 3"),
        "{err}"
    );
}
