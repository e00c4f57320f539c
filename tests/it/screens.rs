//! Every game's screens at a class's sizes (80×24, 100×30, 120×40) and a projector's (240×67):
//! the watch screen as `matchbox film … --out F.txt` draws it (the command's own defaults), the
//! whole-machine view, and the play screen; each a snapshot, none with text cut at a border or
//! asking for a bigger terminal.

use std::sync::Arc;

use matchbox::game::Side;
use matchbox::learn::{BoxSet, Forced, Machine, Reinforcement, StageBeads, SymmetryMode};
use matchbox::players::Opponent;
use matchbox::solve::TieBreak;
use matchbox::view::board::BoardView;
use matchbox::view::play::PlayApp;
use matchbox::view::render;
use matchbox::view::session::Session;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

#[test]
fn the_screen_tests_cover_every_game_of_the_registry() {
    for kind in matchbox::games::GameKind::ALL {
        let covered = GAMES.iter().any(|(typed, _)| {
            let mut words = typed.split(' ');
            let name = words.next().unwrap();
            let size = words.skip_while(|w| *w != "--size").nth(1);
            matchbox::games::GameKind::parse(name, size).unwrap() == kind
        });
        assert!(covered, "no screen test for {kind}");
    }
}

const SIZES: [(u16, u16); 4] = [(80, 24), (100, 30), (120, 40), (240, 67)];

/// The games as typed, and the name of their snapshots.
const GAMES: [(&str, &str); 6] = [
    ("hexapawn", "her"),
    ("octopawn", "octopawn"),
    ("tictactoe", "menace"),
    ("havannah --size 2", "havannah2"),
    ("havannah --size 3 --opponent random", "havannah3"),
    ("arimaa --size 4 --opponent random", "arimaa4"),
];

/// Text cut off by a panel's right border: a letter, digit or punctuation right against it.
fn cut_at_a_border(screen: &str) -> Vec<String> {
    let mut cut = Vec::new();
    for (y, line) in screen.lines().enumerate() {
        let chars: Vec<char> = line.chars().collect();
        for x in 1..chars.len() {
            // A panel's right border: the screen's edge or another panel's border after it.
            let border = matches!(chars[x], '│' | '╮' | '╯')
                && chars.get(x + 1).is_none_or(|&n| "│╭╰╮╯─".contains(n));
            let before = chars[x - 1];
            if border && (before.is_alphanumeric() || "%)].,:;!?".contains(before)) {
                cut.push(format!("row {y}: {line}"));
            }
        }
    }
    cut
}

fn film_text(game: &str, (w, h): (u16, u16), whole: bool) -> String {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("screen.txt");
    let screen = format!("{w}x{h}");
    let mut args: Vec<&str> = game.split(' ').collect();
    let out_s = out.to_str().unwrap();
    args.splice(0..0, ["film"]);
    args.extend([
        "--games", "3", "--speed", "100", "--seed", "1", "--screen", &screen, "--out", out_s,
    ]);
    if whole {
        args.push("--whole");
    }
    crate::common::stdout(&args);
    std::fs::read_to_string(&out).unwrap()
}

fn check(name: &str, screen: &str) {
    assert!(!screen.contains("enlarge"), "{name}\n{screen}");
    // The whole-machine view has no panels: its rules between tiles are no borders.
    let cut = match name.starts_with("whole") {
        true => Vec::new(),
        false => cut_at_a_border(screen),
    };
    assert!(cut.is_empty(), "{name}: {}\n{screen}", cut.join("\n"));
    insta::assert_snapshot!(name.to_string(), screen);
}

#[test]
fn every_game_watched_at_four_sizes() {
    for (game, name) in GAMES {
        for size in SIZES {
            let screen = film_text(game, size, false);
            assert!(screen.contains(" learns "), "{game}\n{screen}");
            check(&format!("watch_{name}_{}x{}", size.0, size.1), &screen);
        }
    }
}

#[test]
fn every_game_s_whole_machine_on_a_projector() {
    for (game, name) in GAMES {
        let screen = film_text(game, (240, 67), true);
        assert!(screen.contains("Every box of "), "{game}\n{screen}");
        check(&format!("whole_{name}_240x67"), &screen);
    }
}

/// The play screen of a machine of `set` against a person, after their first move.
fn play_screen<G: BoardView>(game: &G, set: BoxSet<G>, (w, h): (u16, u16)) -> String {
    let m = Machine::new(
        Arc::new(set),
        StageBeads::uniform(1),
        Reinforcement::GARDNER,
        1,
    );
    let human = m.boxes.side().other();
    let s = Session::from_positions(game.clone(), m, Opponent::Human, TieBreak::Random).unwrap();
    let titles = matchbox::view::app::Titles::of(game, s.machine());
    let mut app = PlayApp::new(s, titles, human, None);
    app.update(matchbox::view::app::Action::Enter);
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| render::play(f, &app)).unwrap();
    render::buffer_text(t.backend().buffer())
}

#[test]
fn every_game_played_at_four_sizes() {
    use matchbox::games::arimaa::MiniArimaa;
    use matchbox::games::havannah::{Base, Havannah};
    use matchbox::games::hexapawn::{Hexapawn, Size};
    use matchbox::games::tictactoe::TicTacToe;
    let full = SymmetryMode::Full;
    let octopawn = Hexapawn::new(Size::new(4, 4).unwrap());
    let havannah = Havannah::new(Base::new(2).unwrap());
    for size in SIZES {
        let (w, h) = size;
        let screens = [
            (
                "octopawn",
                play_screen(
                    &octopawn,
                    BoxSet::build(&octopawn, Side::Second, full),
                    size,
                ),
            ),
            (
                "menace",
                play_screen(
                    &TicTacToe,
                    BoxSet::build_with(&TicTacToe, Side::First, full, Forced::Skip),
                    size,
                ),
            ),
            (
                "havannah2",
                play_screen(&havannah, BoxSet::build(&havannah, Side::First, full), size),
            ),
            (
                "arimaa4",
                play_screen(
                    &MiniArimaa::new(),
                    BoxSet::lazy(&MiniArimaa::new(), Side::First, full, Forced::Skip),
                    size,
                ),
            ),
        ];
        for (name, screen) in screens {
            assert!(screen.contains("matchbox play"), "{name}\n{screen}");
            check(&format!("play_{name}_{w}x{h}"), &screen);
        }
    }
}

/// Every screen snapshot (watch, play, the whole machine, help, the phone's 44 columns, every
/// game at 80×24 to 240×67) walked for an ellipsis that cut words: a title, a reason why a game
/// ended, a message. The ellipses left are the screens' own: the start of a long list of moves
/// (`…Ra1e dc4s`), a bead bar longer than its room (`▁▁▁…`), a legend's further entries (`━ a1n
/// …`) and the help's ranges (`1, 2, 3 … 8`).
#[test]
fn no_snapshot_cuts_a_title_or_a_reason() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/snapshots");
    let mut cut = Vec::new();
    let mut walked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "snap") {
            continue;
        }
        walked += 1;
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines().filter(|l| l.contains('…')) {
            let chars: Vec<char> = line.chars().collect();
            for (i, _) in chars.iter().enumerate().filter(|(_, c)| **c == '…') {
                let before = i.checked_sub(1).map(|j| chars[j]);
                let after = chars.get(i + 1).copied();
                let own = after.is_some_and(|c| c.is_alphanumeric()) // the latest moves
                    || before.is_some_and(|c| ('▁'..='█').contains(&c)) // a bead bar
                    || line.contains('━') // a legend
                    || (before == Some(' ') && after == Some(' ')); // a range: 1, 2 … 8
                if !own {
                    cut.push(format!("{}: {line}", path.file_name().unwrap().display()));
                }
            }
        }
    }
    assert!(walked >= 60, "{walked} snapshots");
    assert!(cut.is_empty(), "cut words:\n{}", cut.join("\n"));
}
