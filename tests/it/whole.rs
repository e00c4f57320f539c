//! The whole machine on one screen (`m` on the watch screen, Tab on the play screen): every box
//! a tile grouped by move, the beads in its cells, the box opened last and the bead drawn marked,
//! a page at a time where the screen is too small, a click opening a box.

use std::path::PathBuf;
use std::sync::Arc;

use matchbox::game::Side;
use matchbox::games::tictactoe::TicTacToe;
use matchbox::learn::{BoxSet, Machine, SymmetryMode};
use matchbox::players::Opponent;
use matchbox::solve::TieBreak;
use matchbox::view::app::{Action, Command, Mode, Snapshot, Speed, Titles, WatchApp, action_for};
use matchbox::view::drive::{self, Control};
use matchbox::view::key::{Key, KeyCode};
use matchbox::view::render;
use matchbox::view::session::Session;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::Color;

fn menace(seed: u64, games: usize) -> Session<TicTacToe> {
    let mut s = crate::common::menace_session(seed);
    for _ in 0..games {
        s.recorded_game();
    }
    s
}

fn app(s: &Session<TicTacToe>, screen: (u16, u16)) -> WatchApp<TicTacToe> {
    let titles = Titles::of(&TicTacToe, s.machine());
    let mut app = WatchApp::new(
        TicTacToe,
        titles,
        Snapshot::of(s),
        Speed::Games10,
        PathBuf::from("menace.yaml"),
        Opponent::Perfect,
    );
    app.browser.screen = screen;
    app
}

/// Applies `action` as the screen and its trainer would, and takes the next snapshot.
fn press(app: &mut WatchApp<TicTacToe>, s: &mut Session<TicTacToe>, c: &mut Control, a: Action) {
    for cmd in app.update(a) {
        drive::apply(&cmd, s, c);
    }
    app.snapshot = Snapshot::browsing(s, c.browse, c.whole);
}

fn control() -> Control {
    Control {
        speed: Speed::Games10,
        paused: true,
        browse: None,
        whole: None,
        may_replace: false,
    }
}

fn draw(app: &WatchApp<TicTacToe>) -> Terminal<TestBackend> {
    let (w, h) = app.browser.screen;
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| render::watch(f, app)).unwrap();
    t
}

fn text(t: &Terminal<TestBackend>) -> String {
    render::buffer_text(t.backend().buffer())
}

/// The box numbers under the tiles (1 up), in the order drawn: the lines of numbers alone.
fn numbers(screen: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for line in screen.lines() {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let numbers: Vec<usize> = (tokens.iter())
            .filter_map(|t| t.trim_start_matches(['▶', '✗']).parse().ok())
            .collect();
        if !tokens.is_empty() && numbers.len() == tokens.len() {
            out.extend(numbers);
        }
    }
    out
}

#[test]
fn all_304_of_menace_on_a_240x67_screen() {
    let mut s = menace(1, 60);
    let mut c = control();
    let mut app = app(&s, (240, 67));
    // `m` opens the view: the trainer copies out the page's boxes.
    let m = action_for(Key::plain(KeyCode::Char('m')), Mode::Watch).unwrap();
    assert_eq!(app.update(m), vec![Command::Whole(Some(0))]);
    c.whole = Some(0);
    app.snapshot = Snapshot::browsing(&s, None, c.whole);
    let t = draw(&app);
    let screen = text(&t);
    assert!(
        screen.contains("Every box of MENACE (x): all 304 boxes"),
        "{screen}"
    );
    assert_eq!(numbers(&screen), (1..=304).collect::<Vec<_>>(), "{screen}");
    for heading in [
        "move 1 · box 1",
        "move 3 · 12 boxes, 2–13",
        "move 5 · 108 boxes, 14–121",
        "move 7 · 183 boxes, 122–304",
    ] {
        assert!(screen.contains(heading), "{heading}\n{screen}");
    }
    // The box opened last is marked by its number, and its drawn bead is on red.
    let opened = s.opened.unwrap();
    assert!(screen.contains(&format!("▶{}", opened.box_index + 1)));
    let buf = t.backend().buffer();
    let red = (0..67u16)
        .flat_map(|y| (0..240u16).map(move |x| (x, y)))
        .filter(|&(x, y)| buf[(x, y)].bg == Color::Red)
        .count();
    assert_eq!(red, 2, "one cell two columns wide on red: the bead drawn");
    // Box 1's tile holds its beads: the centre's count where the centre is.
    let beads: Vec<u32> = s.machine().beads_in(0).iter().map(|b| b.get()).collect();
    let row_b2: String = (2..12u16)
        .map(|x| buf[(x, 4)].symbol().to_string())
        .collect();
    let centre = beads[2].min(99).to_string();
    assert!(row_b2.contains(&centre), "{row_b2:?} {beads:?}");
    // Esc closes the view.
    press(&mut app, &mut s, &mut c, Action::Back);
    assert_eq!(c.whole, None);
    assert!(!text(&draw(&app)).contains("Every box of"));
    let _ = &mut s;
}

#[test]
fn at_80x24_the_pages_show_every_box_once() {
    let mut s = menace(2, 10);
    let mut c = control();
    let mut app = app(&s, (80, 24));
    press(&mut app, &mut s, &mut c, Action::ToggleWhole);
    let mut seen = Vec::new();
    let mut firsts = Vec::new();
    loop {
        let screen = text(&draw(&app));
        let page = numbers(&screen);
        assert!(!page.is_empty(), "{screen}");
        assert_eq!(page[0], c.whole.unwrap() + 1, "the page starts where asked");
        assert!(screen.contains("of 304"), "{screen}");
        firsts.push(c.whole.unwrap());
        seen.extend(page);
        let before = c.whole;
        press(&mut app, &mut s, &mut c, Action::Browse(10));
        if c.whole == before {
            break;
        }
    }
    assert_eq!(seen, (1..=304).collect::<Vec<_>>());
    assert!(firsts.len() > 5, "{firsts:?}");
    // PgUp goes back the way PgDn came.
    for &first in firsts.iter().rev().skip(1) {
        press(&mut app, &mut s, &mut c, Action::Browse(-10));
        assert_eq!(c.whole, Some(first));
    }
    // A page starting within a group says it goes on.
    press(&mut app, &mut s, &mut c, Action::Browse(10));
    press(&mut app, &mut s, &mut c, Action::Browse(10));
    let screen = text(&draw(&app));
    assert!(screen.contains("(continued)"), "{screen}");
}

#[test]
fn a_click_on_a_tile_opens_its_box() {
    let mut s = menace(3, 5);
    let mut c = control();
    let mut app = app(&s, (120, 40));
    press(&mut app, &mut s, &mut c, Action::ToggleWhole);
    let screen = text(&draw(&app));
    // Box 5's number, under its tile: find it and click the tile above it.
    let (row, line) = (screen.lines().enumerate())
        .find(|(_, l)| numbers(l).contains(&5))
        .unwrap();
    let col = line.chars().collect::<Vec<_>>();
    let at = (0..col.len())
        .find(|&i| col[i] == '5' && (i + 1 == col.len() || col[i + 1] == ' '))
        .unwrap();
    let area = ratatui::layout::Rect::new(0, 0, 120, 40);
    let action = render::watch_click(&app, area, at as u16, row as u16);
    assert_eq!(action, Some(Action::BrowseTo(4)), "{screen}");
    let cmds = app.update(action.unwrap());
    assert!(cmds.contains(&Command::Browse(Some(4))), "{cmds:?}");
    assert!(cmds.contains(&Command::Whole(None)), "{cmds:?}");
    assert_eq!(app.browser.shown, Some(4));
    // Headings and the gaps between tiles open nothing.
    let heading = screen.lines().position(|l| l.contains("move 3 ·")).unwrap();
    app.update(Action::ToggleWhole);
    assert_eq!(render::watch_click(&app, area, 3, heading as u16), None);
}

#[test]
fn the_play_screen_shows_the_whole_machine_on_tab() {
    use matchbox::games::hexapawn::{Hexapawn, Size};
    use matchbox::learn::{Reinforcement, StageBeads};
    use matchbox::view::play::PlayApp;
    let game = Hexapawn::new(Size::GARDNER);
    let set = BoxSet::build(&game, Side::Second, SymmetryMode::Gardner);
    let m = Machine::new(
        Arc::new(set),
        StageBeads::uniform(1),
        Reinforcement::GARDNER,
        1,
    );
    let s = Session::from_positions(game.clone(), m, Opponent::Human, TieBreak::Random).unwrap();
    let titles = Titles::of(&game, s.machine());
    let mut app = PlayApp::new(s, titles, Side::First, None);
    app.browser.screen = (100, 30);
    // Letters are moves being typed on this screen; Tab opens the view.
    assert_eq!(
        action_for(Key::plain(KeyCode::Char('m')), Mode::Play),
        Some(Action::Type('m'))
    );
    let tab = action_for(Key::plain(KeyCode::Tab), Mode::Play).unwrap();
    app.update(tab);
    let mut t = Terminal::new(TestBackend::new(100, 30)).unwrap();
    t.draw(|f| render::play(f, &app)).unwrap();
    let screen = text(&t);
    assert!(screen.contains("Every box of HER (black)"), "{screen}");
    assert!(screen.contains("move 2 · 2 boxes, 1–2"), "{screen}");
    let shown = numbers(&screen);
    assert_eq!(shown, (1..=shown.len()).collect::<Vec<_>>(), "{screen}");
    assert!(shown.len() >= 13, "{screen}");
    app.update(Action::Back);
    assert!(app.browser.whole.is_none());
}
