//! The screens without a terminal: snapshots of what they draw (ratatui's TestBackend + insta),
//! the key-driven state machine, and the promise that watching adds no hidden randomness.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::common::menace_session;
use matchbox::game::Side;
use matchbox::games::hexapawn::{Hexapawn, Size};
use matchbox::learn::Machine;
use matchbox::learn::engine::{Enumerated, Table, Trainer};
use matchbox::learn::{BoxSet, GameResult, Reinforcement, StageBeads, SymmetryMode};
use matchbox::players::Opponent;
use matchbox::solve::TieBreak;
use matchbox::store;
use matchbox::tui::worker::{self, Control};
use matchbox::view::app::{Action, Command, Mode, Snapshot, Speed, Titles, WatchApp, action_for};
use matchbox::view::key::{Key, KeyCode};
use matchbox::view::play::PlayApp;
use matchbox::view::render;
use matchbox::view::session::Session;
use matchbox::view::theme::{Theme, contrast};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn her_machine(seed: u64) -> Machine<Hexapawn> {
    let game = Hexapawn::new(Size::GARDNER);
    let boxes = Arc::new(BoxSet::build(&game, Side::Second, SymmetryMode::Gardner));
    Machine::new(boxes, StageBeads::uniform(1), Reinforcement::GARDNER, seed)
}

fn session(seed: u64, rival: Opponent) -> Session<Hexapawn> {
    let arena = Arc::new(Enumerated::new(Hexapawn::new(Size::GARDNER)));
    Session::new(arena, her_machine(seed), rival, TieBreak::Random).unwrap()
}

fn watch_app(s: &Session<Hexapawn>) -> WatchApp<Hexapawn> {
    let game = Hexapawn::new(Size::GARDNER);
    let titles = Titles::of(&game, s.machine());
    let mut app = WatchApp::new(
        game,
        titles,
        Snapshot::of(s),
        Speed::Slow,
        PathBuf::from("her.yaml"),
        Opponent::Perfect,
    );
    app.fps = 30.0;
    app.games_per_sec = 1.0;
    app
}

fn draw_watch(app: &WatchApp<Hexapawn>, w: u16, h: u16) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| render::watch(f, app)).unwrap();
    t
}

fn screen_text(t: &Terminal<TestBackend>) -> String {
    t.backend().to_string()
}

#[test]
fn watch_screen_mid_game() {
    let mut s = session(1, Opponent::Perfect);
    for _ in 0..5 {
        s.recorded_game();
    }
    s.ply();
    s.ply();
    assert!(s.in_game());
    let app = watch_app(&s);
    let t = draw_watch(&app, 120, 40);
    let text = screen_text(&t);
    assert!(text.contains("Game 6"));
    assert!(text.contains("Machine: 24 boxes"));
    insta::assert_snapshot!("watch_mid_game_120x40", t.backend());
    insta::assert_snapshot!("watch_mid_game_80x24", draw_watch(&app, 80, 24).backend());
}

#[test]
fn box_after_a_confiscation() {
    let mut s = session(1, Opponent::Perfect);
    // Play until a game is lost with a bead taken from the box the machine opened last.
    loop {
        s.recorded_game();
        let r = s.reinforced.clone().unwrap();
        let opened = s.opened.unwrap();
        if r.result == GameResult::Loss && r.changes.iter().any(|c| c.0 == opened.box_index) {
            break;
        }
    }
    let mut app = watch_app(&s);
    app.anim = 0.5; // half way through the bead leaving the box
    let t = draw_watch(&app, 80, 24);
    let text = screen_text(&t);
    assert!(text.contains("-1"), "{text}");
    assert!(text.contains("lost"));
    insta::assert_snapshot!("box_after_confiscation", t.backend());
}

#[test]
fn help_overlay() {
    let s = session(1, Opponent::Perfect);
    let mut app = watch_app(&s);
    app.update(Action::ToggleHelp);
    assert!(app.show_help);
    let t = draw_watch(&app, 80, 24);
    assert!(screen_text(&t).contains("any other key closes this help (q quits)"));
    insta::assert_snapshot!("help_overlay", t.backend());
    // Any key closes it without doing anything else.
    assert!(app.update(Action::Reset).is_empty());
    assert!(!app.show_help);
}

/// The page's help on a phone (44 columns): every entry's words wrap under it, none runs off the
/// overlay's edge, and the page's help names no terminal-only key.
#[test]
fn help_overlay_on_a_phone() {
    let s = session(1, Opponent::Perfect);
    let mut app = watch_app(&s);
    app.front = matchbox::view::key::Front::Page;
    app.update(Action::ToggleHelp);
    let text = screen_text(&draw_watch(&app, 44, 48));
    let overlay: Vec<&str> = text.lines().filter(|l| l.contains('│')).collect();
    // A page has no quit key: any key closes its help.
    assert!(text.contains("any key closes this help"), "{text}");
    assert!(!text.contains("q quits"), "{text}");
    // Each entry's words whole, wrapped over rows (the overlay's rows read as one text).
    let words: Vec<&str> = overlay
        .iter()
        .flat_map(|l| l.trim_matches('"').trim_matches('│').split_whitespace())
        .collect();
    let all = words.join(" ");
    for entry in [
        "one move (at step speed, or while paused)",
        "the whole machine: every box by move (pages: PgUp / PgDn)",
        "an arrow's beads in the machine panel: 1, 2, 3 … 8 or more",
    ] {
        assert!(all.contains(entry), "{entry}\n{text}");
    }
    assert!(!all.contains("Ctrl-C") && !all.contains(" quit "), "{text}");
}

#[test]
fn too_small_terminal() {
    let s = session(1, Opponent::Perfect);
    let app = watch_app(&s);
    let t = draw_watch(&app, 60, 20);
    let text = screen_text(&t);
    assert!(text.contains("enlarge the terminal to at least 80×24"));
    insta::assert_snapshot!("too_small", t.backend());
    // And it recovers once the terminal is big enough.
    assert!(!screen_text(&draw_watch(&app, 80, 24)).contains("enlarge"));
    // A narrow pane wraps the words rather than cut them.
    let narrow = screen_text(&draw_watch(&app, 30, 8));
    let unquoted = narrow.replace('"', " ");
    let words: Vec<&str> = unquoted.split_whitespace().collect();
    assert_eq!(
        words.join(" "),
        "enlarge the terminal to at least 80×24 (it is 30×8; q quits)",
        "{narrow}"
    );
}

#[test]
fn play_screen_after_an_illegal_move() {
    let s = session(4, Opponent::Human);
    let game = Hexapawn::new(Size::GARDNER);
    let titles = Titles::of(&game, s.machine());
    let mut app = PlayApp::new(s, titles, Side::First, None);
    assert_eq!(
        app.options().len(),
        3,
        "White to move first: a1-a2, b1-b2, c1-c2"
    );
    for c in "b1-b3".chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::Enter);
    let message = app.message.clone().unwrap();
    assert!(message.contains("b1-b3 is not a legal move"), "{message}");
    assert_eq!(
        app.session.game.as_ref().unwrap().moves.len(),
        0,
        "nothing was played"
    );
    let mut t = Terminal::new(TestBackend::new(80, 24)).unwrap();
    t.draw(|f| render::play(f, &app)).unwrap();
    insta::assert_snapshot!("play_illegal_move", t.backend());
    // A legal move typed in notation is played, and the machine answers from a box. (The
    // illegal move stays typed, to be mended: here it is erased.)
    for _ in 0..5 {
        app.update(Action::Backspace);
    }
    for c in "b1-b2".chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::Enter);
    let rec = app.session.game.as_ref().unwrap();
    assert_eq!(rec.moves.len(), 2, "your move and the machine's");
    assert!(app.session.opened.is_some());
}

#[test]
fn playing_whole_games_with_the_arrow_keys() {
    let s = session(9, Opponent::Human);
    let game = Hexapawn::new(Size::GARDNER);
    let titles = Titles::of(&game, s.machine());
    let mut app = PlayApp::new(s, titles, Side::First, None);
    let mut games = 0;
    for _ in 0..200 {
        if app.session.in_game() {
            app.update(Action::Down);
            app.update(Action::Enter);
        } else {
            games += 1;
            assert!(app.message.as_ref().unwrap().contains("Enter: next game"));
            app.update(Action::Enter);
        }
    }
    assert!(games >= 10);
    assert_eq!(app.session.stats().games as usize, games);
    assert_eq!(app.session.machine().games_played as usize, games);
}

#[test]
fn keys_map_to_actions() {
    let key = Key::plain;
    let cases = [
        (
            key(KeyCode::Char(' ')),
            Mode::Watch,
            Some(Action::TogglePause),
        ),
        (key(KeyCode::Char('n')), Mode::Watch, Some(Action::Step)),
        (key(KeyCode::Right), Mode::Watch, Some(Action::Step)),
        (key(KeyCode::Char('+')), Mode::Watch, Some(Action::Faster)),
        (key(KeyCode::Char('-')), Mode::Watch, Some(Action::Slower)),
        (
            key(KeyCode::Char('o')),
            Mode::Watch,
            Some(Action::ToggleOpponent),
        ),
        (key(KeyCode::Char('r')), Mode::Watch, Some(Action::Reset)),
        (key(KeyCode::Char('s')), Mode::Watch, Some(Action::Save)),
        (
            key(KeyCode::Char('?')),
            Mode::Watch,
            Some(Action::ToggleHelp),
        ),
        (key(KeyCode::Char('q')), Mode::Watch, Some(Action::Quit)),
        (key(KeyCode::Esc), Mode::Play, Some(Action::Back)),
        (
            Key::ctrl(KeyCode::Char('c')),
            Mode::Play,
            Some(Action::Interrupt),
        ),
        (key(KeyCode::Char('b')), Mode::Play, Some(Action::Type('b'))),
        // Any other key is still a key: it closes the help.
        (key(KeyCode::Char('b')), Mode::Watch, Some(Action::Other)),
        (
            key(KeyCode::Char(']')),
            Mode::Watch,
            Some(Action::Browse(1)),
        ),
        (
            key(KeyCode::Char('[')),
            Mode::Play,
            Some(Action::Browse(-1)),
        ),
        (
            key(KeyCode::PageDown),
            Mode::Watch,
            Some(Action::Browse(10)),
        ),
        (key(KeyCode::Char('#')), Mode::Play, Some(Action::GoTo)),
        (
            key(KeyCode::Char('7')),
            Mode::Watch,
            Some(Action::Type('7')),
        ),
        (key(KeyCode::Up), Mode::Play, Some(Action::Up)),
        (key(KeyCode::Enter), Mode::Play, Some(Action::Enter)),
    ];
    for (k, mode, expected) in cases {
        assert_eq!(action_for(k, mode), expected, "{k:?} {mode:?}");
    }
}

/// Applies the app's commands to a session synchronously, as the training thread would.
fn apply(cmds: Vec<Command>, s: &mut Session<Hexapawn>, c: &mut Control) -> Vec<String> {
    cmds.iter()
        .filter_map(|cmd| worker::handle(cmd, s, c))
        .collect()
}

#[test]
fn actions_drive_the_session() {
    let mut s = session(2, Opponent::Perfect);
    let mut app = watch_app(&s);
    let mut c = Control {
        speed: Speed::Slow,
        paused: false,
        browse: None,
        whole: None,
        may_replace: false,
    };
    // Pause, then step one move at a time.
    apply(app.update(Action::TogglePause), &mut s, &mut c);
    assert!(c.paused && app.paused);
    let mut due = Instant::now();
    worker::work(
        &mut s,
        &c,
        Instant::now() + Duration::from_secs(5),
        &mut due,
    );
    assert!(s.game.is_none(), "nothing happens while paused");
    apply(app.update(Action::Step), &mut s, &mut c);
    assert_eq!(s.game.as_ref().unwrap().moves.len(), 1);
    apply(app.update(Action::Step), &mut s, &mut c);
    assert_eq!(s.game.as_ref().unwrap().moves.len(), 2);
    // Speeds go up to flat out and down to step, and stop at the ends.
    for expected in [
        Speed::Games1,
        Speed::Games10,
        Speed::Games100,
        Speed::FlatOut,
        Speed::FlatOut,
    ] {
        apply(app.update(Action::Faster), &mut s, &mut c);
        assert_eq!((app.speed, c.speed), (expected, expected));
    }
    for _ in 0..6 {
        apply(app.update(Action::Slower), &mut s, &mut c);
    }
    assert_eq!(c.speed, Speed::Step);
    // Resume at 100 games a second: a game is due every 10 ms.
    apply(app.update(Action::Faster), &mut s, &mut c);
    apply(app.update(Action::Faster), &mut s, &mut c);
    apply(app.update(Action::Faster), &mut s, &mut c);
    apply(app.update(Action::Faster), &mut s, &mut c);
    apply(app.update(Action::TogglePause), &mut s, &mut c);
    assert_eq!((c.speed, c.paused), (Speed::Games100, false));
    let start = Instant::now();
    let mut due = start;
    for i in 0..20 {
        worker::work(&mut s, &c, start + Duration::from_millis(10 * i), &mut due);
    }
    assert_eq!(s.stats().games, 20, "one game per 10 ms");
    // Opponent changes from the next game.
    apply(app.update(Action::ToggleOpponent), &mut s, &mut c);
    assert_eq!(s.opponent(), Opponent::Random);
    // Reset asks first: one `r` does nothing but ask, another key cancels, two `r`s refill
    // every box.
    assert!(s.machine().beads_left() < 55);
    assert!(app.update(Action::Reset).is_empty());
    assert!(
        app.message
            .as_deref()
            .is_some_and(|m| m.contains("r again"))
    );
    // A speed change restarts the games-per-second reading.
    app.speed_changed = false;
    app.update(Action::Slower);
    assert!(app.speed_changed);
    app.update(Action::Faster);
    app.update(Action::TogglePause);
    app.update(Action::TogglePause);
    assert!(
        app.update(Action::Reset).is_empty(),
        "cancelled by the other key"
    );
    apply(app.update(Action::Reset), &mut s, &mut c);
    assert_eq!(s.machine().beads_left(), 55);
    assert_eq!((s.stats().games, s.machine().games_played), (0, 0));
    // Save writes a file that loads.
    s.recorded_game();
    let dir = tempfile::tempdir().unwrap();
    app.save_path = dir.path().join("her.yaml");
    let msgs = apply(app.update(Action::Save), &mut s, &mut c);
    assert!(msgs[0].starts_with("saved 1 game (24 boxes, "), "{msgs:?}");
    let text = std::fs::read_to_string(&app.save_path).unwrap();
    let m = store::from_yaml(&Hexapawn::new(Size::GARDNER), &app.save_path, &text).unwrap();
    assert_eq!(m.games_played, 1);
    // Quit.
    assert_eq!(app.update(Action::Quit), vec![Command::Quit]);
    assert!(app.quit);
}

/// What `matchbox train` does with the same seed and options.
fn trained(seed: u64, games: usize) -> String {
    let game = Hexapawn::new(Size::GARDNER);
    let mut m = her_machine(seed);
    let arena = Enumerated::new(Hexapawn::new(Size::GARDNER));
    let table = Table::against_perfect(&arena, &m.boxes, TieBreak::Random).unwrap();
    Trainer::new(&arena, &table).train(&mut m, games);
    store::to_yaml(&game, &m, Some("3x3".into()))
}

#[test]
fn watching_flat_out_trains_exactly_as_train_does() {
    let games = 5000;
    // On the real training thread, at flat out, with the session's game limit.
    let mut s = session(77, Opponent::Perfect);
    s.limit = Some(games);
    let control = Control {
        speed: Speed::FlatOut,
        paused: false,
        browse: None,
        whole: None,
        may_replace: false,
    };
    let (tx, mailbox, handle) = worker::spawn(s, control);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let done = mailbox
            .lock()
            .unwrap()
            .0
            .as_ref()
            .is_some_and(|snap| snap.limit_reached);
        if done || Instant::now() > deadline {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    tx.send(Command::Quit).unwrap();
    let (s, _) = handle.join().unwrap();
    assert_eq!(s.stats().games, games);
    let game = Hexapawn::new(Size::GARDNER);
    let watched = store::to_yaml(&game, s.machine(), Some("3x3".into()));
    assert_eq!(watched, trained(77, games as usize));
    // Slower speeds play move by move, and still draw the same beads.
    let mut s = session(77, Opponent::Perfect);
    for _ in 0..300 {
        s.recorded_game();
    }
    let stepped = store::to_yaml(&game, s.machine(), Some("3x3".into()));
    assert_eq!(stepped, trained(77, 300));
}

#[test]
fn menace_screen_shows_beads_as_a_heat_map() {
    let mut s = menace_session(5);
    s.ply();
    let app = menace_app(&s, Speed::Slow);
    let mut t = Terminal::new(TestBackend::new(80, 24)).unwrap();
    t.draw(|f| render::watch(f, &app)).unwrap();
    let text = t.backend().to_string();
    // The first box: 4 beads on each of its three arrows (corner, edge, centre), drawn on the board.
    assert!(text.contains("Box 1 · move 1"), "{text}");
    assert!(text.contains("4 4 ·") || text.contains("4 · ·"), "{text}");
    insta::assert_snapshot!("menace_first_box", t.backend());
}

#[test]
fn a_lazy_machine_on_the_screen_plays_as_the_table_machine_does() {
    let game = Hexapawn::new(Size::GARDNER);
    let lazy_machine = |seed| {
        let set = Arc::new(BoxSet::lazy(
            &game,
            Side::Second,
            SymmetryMode::Gardner,
            matchbox::learn::Forced::Include,
        ));
        Machine::new(set, StageBeads::uniform(1), Reinforcement::GARDNER, seed)
    };
    // Move by move from positions, without the game's graph (as for a game too big to list).
    let mut lazy = Session::from_positions(
        game.clone(),
        lazy_machine(77),
        Opponent::Perfect,
        TieBreak::Random,
    )
    .unwrap();
    let mut table = session(77, Opponent::Perfect);
    let mut results = (Vec::new(), Vec::new());
    for _ in 0..200 {
        lazy.recorded_game();
        table.recorded_game();
        results.0.push(lazy.game.as_ref().unwrap().result);
        results.1.push(table.game.as_ref().unwrap().result);
    }
    assert_eq!(results.0, results.1);
    assert!(lazy.machine().boxes.len() <= 24);
    // And at flat out, where the lazy machine plays from positions and the other on the table.
    assert_eq!(lazy.flat_out(3000, || true), 3000);
    assert_eq!(table.flat_out(3000, || true), 3000);
    assert_eq!(lazy.stats(), table.stats());
    assert_eq!(lazy.machine().rng, table.machine().rng);
}

#[test]
fn a_person_can_play_a_tree_search_instead_of_the_machine() {
    use matchbox::game::Game;
    use matchbox::games::havannah::{Base, Havannah};
    let game = Havannah::new(Base::new(4).unwrap());
    let set = BoxSet::lazy(
        &game,
        Side::Second,
        SymmetryMode::Full,
        matchbox::learn::Forced::Skip,
    );
    let mut s = person_session(&game, set, 3);
    s.set_stand_in(matchbox::learn::Against::Mcts(300)).unwrap();
    // The person plays a1 (a corner); the search answers; its boxes stay untouched.
    s.begin();
    let options = s.human_options().unwrap();
    let a1 = options
        .iter()
        .position(|&m| game.format_move(m) == "a1")
        .unwrap();
    assert!(s.human_move(a1));
    assert!(s.human_options().is_none() || s.game.as_ref().unwrap().moves.len() == 1);
    s.ply();
    let rec = s.game.as_ref().unwrap();
    assert_eq!(rec.moves.len(), 2);
    assert_eq!(rec.moves[1].0, Side::Second);
    assert!(
        s.machine().boxes.is_empty(),
        "no box made: the search moved"
    );
}

#[test]
fn a_finished_havannah_game_shows_its_winning_structure() {
    use matchbox::game::Game;
    use matchbox::games::havannah::{Base, Havannah};
    use matchbox::view::board::BoardView;
    use ratatui::style::Modifier;
    let g = Havannah::new(Base::new(4).unwrap());
    let mut pos = g.start();
    // White rings d4 (and has a loose stone at a4); Black plays far away.
    for name in "c3 g7 c4 g6 d5 g5 e5 a1 e4 a2 a4 a3 d3".split(' ') {
        pos = g.play(&pos, g.parse_move(&pos, name).unwrap());
    }
    assert!(g.outcome(&pos).is_some());
    let lines = g.board_lines(&pos, &[]);
    let reversed: Vec<String> = lines
        .iter()
        .flat_map(|l| l.spans.iter())
        .filter(|s| s.style.add_modifier.contains(Modifier::REVERSED))
        .map(|s| s.content.to_string())
        .collect();
    // The six stones of the ring, and neither a4 (White, not in it) nor any Black stone.
    assert_eq!(reversed, ["W"; 6]);
}

#[test]
fn a_session_run_flat_out_to_its_limit_shows_its_last_game_and_box() {
    let mut s = session(5, Opponent::Perfect);
    s.limit = Some(300);
    while !s.limit_reached() {
        s.flat_out(1000, || true);
    }
    assert_eq!(s.stats().games, 300);
    let last = s.game.as_ref().expect("the last game is shown");
    assert_eq!(last.number, 300);
    assert!(last.result.is_some());
    assert!(s.opened.is_some_and(|o| o.game == 300));
}

/// A machine of `set` (1 bead an arrow, Gardner's reinforcement) against a person, played from
/// positions.
fn person_session<G: matchbox::view::board::BoardView>(
    game: &G,
    set: BoxSet<G>,
    seed: u64,
) -> Session<G> {
    let m = Machine::new(
        Arc::new(set),
        StageBeads::uniform(1),
        Reinforcement::GARDNER,
        seed,
    );
    Session::from_positions(game.clone(), m, Opponent::Human, TieBreak::Random).unwrap()
}

fn menace_app(
    s: &Session<matchbox::games::tictactoe::TicTacToe>,
    speed: Speed,
) -> WatchApp<matchbox::games::tictactoe::TicTacToe> {
    use matchbox::games::tictactoe::TicTacToe;
    let titles = Titles::of(&TicTacToe, s.machine());
    let mut app = WatchApp::new(
        TicTacToe,
        titles,
        Snapshot::of(s),
        speed,
        PathBuf::from("menace.yaml"),
        Opponent::Perfect,
    );
    app.fps = 30.0;
    app
}

const BORDERS: &str = "│╭╰╮╯─┐┘┌└";

/// Text cut off by a panel's right border: a letter, digit or punctuation right against it.
fn cut_at_a_border(t: &Terminal<TestBackend>) -> Vec<String> {
    let buf = t.backend().buffer();
    let (w, h) = (buf.area.width, buf.area.height);
    let mut cut = Vec::new();
    for y in 0..h {
        for x in 1..w {
            let sym = buf[(x, y)].symbol();
            let right_border = (sym == "│" || sym == "╮" || sym == "╯")
                && (x + 1 == w || BORDERS.contains(buf[(x + 1, y)].symbol()));
            let before = buf[(x - 1, y)].symbol().chars().next().unwrap_or(' ');
            if right_border && (before.is_alphanumeric() || "%)].,:;!?".contains(before)) {
                let row: String = (0..w).map(|i| buf[(i, y)].symbol().to_string()).collect();
                cut.push(format!("row {y}: {row}"));
            }
        }
    }
    cut
}

/// Characters that do not stand out from their background (WCAG contrast below 3:1).
fn unreadable(t: &Terminal<TestBackend>, theme: Theme) -> Vec<String> {
    let buf = t.backend().buffer();
    let mut bad = Vec::new();
    for (i, cell) in buf.content.iter().enumerate() {
        if cell.symbol() == " " {
            continue;
        }
        let (fg, bg) = theme.shown(cell.fg, cell.bg, cell.modifier);
        let c = contrast(fg, bg);
        if c < 3.0 {
            let (x, y) = (i as u16 % buf.area.width, i as u16 / buf.area.width);
            bad.push(format!(
                "{:?} at ({x}, {y}): {fg:?} on {bg:?}, {c:.1}:1",
                cell.symbol()
            ));
        }
    }
    bad
}

/// Every screen at the sizes a class uses: nothing cut off at a border, every character readable
/// in both themes, and a snapshot of each.
#[test]
fn screens_fit_and_read_at_80x24_100x30_120x40_and_on_a_phone() {
    let mut her = session(3, Opponent::Perfect);
    for _ in 0..40 {
        her.recorded_game();
    }
    her.ply();
    let mut menace = menace_session(5);
    for _ in 0..30 {
        menace.recorded_game();
    }
    menace.ply();
    let her_app = watch_app(&her);
    let mut menace_app = menace_app(&menace, Speed::Games10);
    menace_app.games_per_sec = 3_812_345.0;
    let play_s = session(4, Opponent::Human);
    let game = Hexapawn::new(Size::GARDNER);
    let titles = Titles::of(&game, play_s.machine());
    let mut play_app = PlayApp::new(play_s, titles, Side::First, None);
    play_app.update(Action::Enter);
    // The last: a phone held upright, its panels one above the other.
    for (w, h) in [(80, 24), (100, 30), (120, 40), (44, 48)] {
        for theme in [Theme::Dark, Theme::Light] {
            let mut her_app = watch_app(&her);
            her_app.theme = theme;
            menace_app.theme = theme;
            play_app.theme = theme;
            let screens = [
                draw_watch(&her_app, w, h),
                {
                    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
                    t.draw(|f| render::watch(f, &menace_app)).unwrap();
                    t
                },
                {
                    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
                    t.draw(|f| render::play(f, &play_app)).unwrap();
                    t
                },
            ];
            for (name, t) in ["HER", "MENACE", "play"].iter().zip(&screens) {
                let cut = cut_at_a_border(t);
                assert!(
                    cut.is_empty(),
                    "{name} {w}x{h}: cut off\n{}",
                    cut.join("\n")
                );
                let bad = unreadable(t, theme);
                assert!(
                    bad.is_empty(),
                    "{name} {w}x{h} {theme:?}: hard to read\n{}",
                    bad.join("\n")
                );
            }
            if theme == Theme::Dark {
                insta::assert_snapshot!(format!("her_{w}x{h}"), screens[0].backend());
                insta::assert_snapshot!(format!("menace_{w}x{h}"), screens[1].backend());
                insta::assert_snapshot!(format!("play_{w}x{h}"), screens[2].backend());
            }
        }
    }
    // The light theme, colours and all.
    let mut light = watch_app(&her);
    light.theme = Theme::Light;
    let t = draw_watch(&light, 80, 24);
    insta::assert_debug_snapshot!("her_80x24_light", t.backend().buffer());
    let _ = her_app;
}

/// On a phone held upright, where under the score the learning curve would get too few rows to
/// read, the two stand side by side and the curve is drawn; narrower, the curve goes under the
/// score with the rows left and is drawn too.
#[test]
fn on_a_phone_the_learning_curve_is_drawn_beside_or_under_the_score() {
    let mut her = session(3, Opponent::Perfect);
    for _ in 0..40 {
        her.recorded_game();
    }
    let app = watch_app(&her);
    let rows = |t: &Terminal<TestBackend>| -> Vec<String> {
        let buf = t.backend().buffer();
        (0..buf.area.height)
            .map(|y| {
                (0..buf.area.width)
                    .map(|x| buf[(x, y)].symbol().to_string())
                    .collect()
            })
            .collect()
    };
    let braille = |r: &String| r.chars().any(|c| ('\u{2801}'..='\u{28FF}').contains(&c));
    for (w, h, beside) in [(46, 48, true), (46, 50, true), (44, 48, false)] {
        let t = draw_watch(&app, w, h);
        assert!(cut_at_a_border(&t).is_empty(), "{w}x{h}: cut off");
        let rows = rows(&t);
        let score = rows.iter().position(|r| r.contains("Score")).unwrap();
        let curve = rows.iter().position(|r| r.contains("Learning")).unwrap();
        assert_eq!(score == curve, beside, "{w}x{h}:\n{}", rows.join("\n"));
        // Beside the score, the curve keeps the column's rows (no first box's chart under it).
        assert!(!beside || !rows.iter().any(|r| r.contains("First box")));
        assert!(
            rows[curve..].iter().any(braille),
            "{w}x{h}: no curve drawn\n{}",
            rows.join("\n")
        );
    }
}

#[test]
fn the_box_browser_shows_every_box_with_its_chances() {
    let mut s = session(6, Opponent::Perfect);
    s.recorded_game();
    let mut app = watch_app(&s);
    let mut c = Control {
        speed: Speed::Slow,
        paused: false,
        browse: None,
        whole: None,
        may_replace: false,
    };
    let live = s.opened.unwrap().box_index;
    // `]` starts from the live box; the worker then copies that box out for the screen.
    let cmds = app.update(Action::Browse(1));
    assert_eq!(cmds, vec![Command::Browse(Some(live + 1))]);
    apply(cmds, &mut s, &mut c);
    assert_eq!(c.browse, Some(live + 1));
    // `{` goes back ten, never before box 1; `}` on, never past the last.
    app.update(Action::Browse(-10));
    assert_eq!(app.browser.shown, Some(0));
    app.update(Action::Browse(100));
    assert_eq!(app.browser.shown, Some(23));
    // `#` and a number jump to a box; a number out of range says so and keeps the box.
    app.update(Action::GoTo);
    for ch in "12".chars() {
        app.update(Action::Type(ch));
    }
    let cmds = app.update(Action::Enter);
    assert_eq!(cmds, vec![Command::Browse(Some(11))]);
    apply(cmds, &mut s, &mut c);
    app.update(Action::GoTo);
    for ch in "99".chars() {
        app.update(Action::Type(ch));
    }
    app.update(Action::Enter);
    assert_eq!(app.browser.shown, Some(11));
    assert_eq!(
        app.message.as_deref(),
        Some("no box 99: the machine has 24 boxes")
    );
    // The screen shows box 12 and each arrow's chance.
    app.snapshot = Snapshot::browsing(&s, c.browse, None);
    let text = screen_text(&draw_watch(&app, 120, 40));
    assert!(text.contains("Box 12 of 24"), "{text}");
    let mbox = s.machine().boxes.get(11).clone();
    let beads: Vec<u32> = s.machine().beads_in(11).iter().map(|b| b.get()).collect();
    let total: u32 = beads.iter().sum();
    let game = Hexapawn::new(Size::GARDNER);
    use matchbox::game::Game;
    for (i, &mv) in mbox.arrows.iter().enumerate() {
        let pct = 100.0 * beads[i] as f64 / total as f64;
        let line = format!(
            "{}: {} of {total} beads = {pct:.0} %",
            game.format_move(mv),
            beads[i]
        );
        assert!(text.contains(&line), "{line}\n{text}");
    }
    // Esc goes back to the live box; another Esc asks (a game is not saved), a third quits.
    assert_eq!(app.update(Action::Back), vec![Command::Browse(None)]);
    assert!(!app.quit);
    assert_eq!(app.update(Action::Back), vec![]);
    assert!(
        !app.quit
            && app
                .message
                .as_deref()
                .unwrap()
                .contains("1 game since it was saved")
    );
    assert_eq!(app.update(Action::Back), vec![Command::Quit]);
    assert!(app.quit);
}

/// `q` in watch asks once when games were played since the machine was saved (as `play` does),
/// any other key keeps watching, and a saved machine quits at once.
#[test]
fn quitting_watch_asks_once_when_learning_is_unsaved() {
    let mut s = session(6, Opponent::Perfect);
    let mut app = watch_app(&s);
    assert!(
        app.update(Action::Quit) == vec![Command::Quit],
        "nothing played: quits"
    );
    for _ in 0..30 {
        s.recorded_game();
    }
    let mut app = watch_app(&s);
    assert_eq!(app.snapshot.unsaved, 30);
    assert!(app.update(Action::Quit).is_empty());
    assert!(
        app.message
            .as_deref()
            .unwrap()
            .contains("30 games since it was saved")
    );
    app.update(Action::TogglePause);
    assert!(
        app.update(Action::Quit).is_empty(),
        "another key in between: asks again"
    );
    assert_eq!(app.update(Action::Quit), vec![Command::Quit]);
    // Saved: quits at once.
    let dir = tempfile::tempdir().unwrap();
    let mut c = Control {
        speed: Speed::Slow,
        paused: false,
        browse: None,
        whole: None,
        may_replace: true,
    };
    let said = worker::handle(&Command::Save(dir.path().join("m.yaml")), &mut s, &mut c);
    assert!(said.unwrap().starts_with("saved"));
    let mut app = watch_app(&s);
    assert_eq!(app.update(Action::Quit), vec![Command::Quit]);
    // Ctrl-C never asks.
    s.recorded_game();
    let mut app = watch_app(&s);
    assert_eq!(app.update(Action::Interrupt), vec![Command::Quit]);
}

#[test]
fn a_box_that_is_a_mirror_image_names_the_move_on_the_board() {
    // HER keeps one box for a position and its mirror image: find games whose box was opened
    // for the mirror image of the board, with a drawn move off the mirror's axis (b3-b2 here is
    // a3-a2 there) and on it (b3-b2 is b3-b2 on both).
    use matchbox::game::Game;
    let game = Hexapawn::new(Size::GARDNER);
    let mut s = session(11, Opponent::Perfect);
    let (mut off_axis, mut on_axis) = (false, false);
    for _ in 0..2000 {
        s.ply();
        let Some(o) = s.opened.filter(|o| o.image.is_some() && s.in_game()) else {
            continue;
        };
        let Some(a) = o.arrow else { continue };
        let here = s.machine().boxes.get(o.box_index).arrows[a];
        let there = game.transform_move(game.inverse(o.image.unwrap()), here);
        let text = screen_text(&draw_watch(&watch_app(&s), 120, 40));
        // The left panel wraps its text: compare its lines joined, borders and padding out.
        let panel: Vec<String> = text
            .lines()
            .filter_map(|l| l.trim_matches('"').strip_prefix('│'))
            .map(|l| l.split('│').next().unwrap_or("").trim().to_string())
            .collect();
        let flat = panel.join(" ");
        let expected = if here == there {
            on_axis = true;
            format!(
                "▶{} here and on the board (the board mirrored to match)",
                game.format_move(here)
            )
        } else {
            off_axis = true;
            format!(
                "▶{} here = {} on the board (mirrored)",
                game.format_move(here),
                game.format_move(there)
            )
        };
        assert!(flat.contains(&expected), "{expected}\n{text}");
        if on_axis && off_axis {
            return;
        }
    }
    panic!("no mirrored box seen (off the axis: {off_axis}, on it: {on_axis})");
}

#[test]
fn the_help_closes_on_any_key_and_o_shows_the_next_opponent() {
    let mut s = session(1, Opponent::Perfect);
    let mut app = watch_app(&s);
    app.update(Action::ToggleHelp);
    assert!(app.update(Action::Other).is_empty());
    assert!(!app.show_help);
    // Mid game, `o` applies from the next game, and the title says so until then.
    s.ply();
    let mut c = Control {
        speed: Speed::Slow,
        paused: false,
        browse: None,
        whole: None,
        may_replace: false,
    };
    apply(app.update(Action::ToggleOpponent), &mut s, &mut c);
    app.snapshot = Snapshot::of(&s);
    let text = screen_text(&draw_watch(&app, 120, 40));
    assert!(
        text.contains("against the perfect player (next game: random)"),
        "{text}"
    );
    while s.in_game() {
        s.ply();
    }
    s.ply();
    app.snapshot = Snapshot::of(&s);
    let text = screen_text(&draw_watch(&app, 120, 40));
    assert!(text.contains("against the random player"), "{text}");
    assert!(!text.contains("next game:"), "{text}");
}

#[test]
fn play_keeps_a_mistyped_move_and_asks_before_losing_the_machine() {
    let s = session(4, Opponent::Human);
    let game = Hexapawn::new(Size::GARDNER);
    let titles = Titles::of(&game, s.machine());
    let mut app = PlayApp::new(s, titles, Side::First, None);
    for c in "b1-b3".chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::Enter);
    assert_eq!(app.input, "b1-b3", "an illegal move stays to be mended");
    app.update(Action::Backspace);
    app.update(Action::Type('2'));
    app.update(Action::Enter);
    assert_eq!(app.input, "");
    // Play the game out; text typed after it ends does not carry into the next.
    while app.session.in_game() {
        app.update(Action::Enter);
    }
    let message = app.message.clone().unwrap();
    assert!(message.starts_with("game 1: "), "{message}");
    let mut t = Terminal::new(TestBackend::new(80, 24)).unwrap();
    t.draw(|f| render::play(f, &app)).unwrap();
    assert!(t.backend().to_string().contains("Enter: next game"));
    app.update(Action::Type('a'));
    app.update(Action::Enter);
    assert!(app.session.in_game());
    assert_eq!(app.input, "");
    // One game learned and no --save: q asks, another key plays on, q twice quits.
    assert_eq!(app.unsaved_games(), 1);
    app.update(Action::Quit);
    assert!(!app.quit);
    assert!(
        app.message
            .as_deref()
            .unwrap()
            .contains("quit without saving?")
    );
    app.update(Action::Down);
    app.update(Action::Quit);
    assert!(!app.quit);
    app.update(Action::Quit);
    assert!(app.quit);
}

#[test]
fn menace_says_how_many_beads_a_lost_game_takes() {
    use matchbox::games::tictactoe::TicTacToe;
    // MENACE (X) against a person who wins: Michie's reinforcement takes a bead from each box
    // the machine opened in that game.
    let s = menace_session(2);
    let titles = Titles::of(&TicTacToe, s.machine());
    let mut app = PlayApp::new(s, titles, Side::Second, None);
    let mut seen = false;
    for _ in 0..2000 {
        if app.session.in_game() {
            // The person plays the first move offered.
            app.update(Action::Enter);
            continue;
        }
        let m = app.message.clone().unwrap_or_default();
        if m.contains("you won") {
            let r = app.session.reinforced.clone().unwrap();
            let lost: i64 = r.changes.iter().map(|c| -c.2).sum();
            let words = if lost == 1 {
                "loses a bead".to_string()
            } else {
                format!("loses {lost} beads")
            };
            assert!(m.contains(&words), "{m} / {lost}");
            seen = true;
            break;
        }
        app.update(Action::Enter);
    }
    assert!(seen);
}

/// `watch --opponent matchbox`: learner against learner, both machines learning and on the screen;
/// `o` goes from the rival machine to the perfect and random players and back to it.
#[test]
fn a_second_machine_as_the_rival() {
    let game = Hexapawn::new(Size::GARDNER);
    let mut s = session(12, Opponent::Random);
    let him = Arc::new(BoxSet::build(&game, Side::First, SymmetryMode::Full));
    let him_boxes = him.len();
    s.set_rival_machine(Machine::new(
        him,
        StageBeads::uniform(1),
        Reinforcement::GARDNER,
        13,
    ));
    assert_eq!(s.opponent(), Opponent::Matchbox);
    for _ in 0..20 {
        s.recorded_game();
    }
    s.flat_out(200, || true);
    let rival = s.rival_machine().unwrap();
    assert_eq!(rival.games_played, 220, "the rival learns from every game");
    assert_eq!(s.machine().games_played, 220);
    assert!(
        rival.beads_left() < 45,
        "Gardner's rival lost beads for its losses"
    );
    let mut app = watch_app(&s);
    app.titles.rival = Some("HIM (white)".into());
    app.opponents = vec![Opponent::Matchbox, Opponent::Perfect, Opponent::Random];
    app.opponent = Opponent::Matchbox;
    let text = screen_text(&draw_watch(&app, 100, 30));
    assert!(
        text.contains("against HIM (white), another machine"),
        "{text}"
    );
    assert!(text.contains(&format!("HIM: {him_boxes} boxes")), "{text}");
    assert!(text.contains("HIM empt."), "{text}");
    assert!(text.contains("Machine: 24 boxes"), "{text}");
    assert!(cut_at_a_border(&draw_watch(&app, 80, 24)).is_empty());
    let mut c = Control {
        speed: Speed::Slow,
        paused: false,
        browse: None,
        whole: None,
        may_replace: false,
    };
    for expected in [Opponent::Perfect, Opponent::Random, Opponent::Matchbox] {
        apply(app.update(Action::ToggleOpponent), &mut s, &mut c);
        assert_eq!(s.opponent(), expected);
    }
    // Back to the same rival machine, which kept what it learned.
    assert_eq!(s.rival_machine().unwrap().games_played, 220);
}

/// A learner that perfect play beats (Black on octopawn) is told so on the screen; HER on 3x3,
/// which wins, is not.
#[test]
fn the_screen_says_when_a_learner_can_only_lose() {
    let octo = Hexapawn::new("4x4".parse().unwrap());
    let boxes = Arc::new(BoxSet::build(&octo, Side::Second, SymmetryMode::Full));
    let m = Machine::new(boxes, StageBeads::uniform(1), Reinforcement::GARDNER, 1);
    let mut s = Session::new(
        Arc::new(Enumerated::new(octo.clone())),
        m,
        Opponent::Perfect,
        TieBreak::Random,
    )
    .unwrap();
    assert!(s.can_only_lose());
    s.recorded_game();
    let titles = Titles::of(&octo, s.machine());
    let app = WatchApp::new(
        octo,
        titles,
        Snapshot::of(&s),
        Speed::Slow,
        PathBuf::from("x.yaml"),
        Opponent::Perfect,
    );
    let mut t = Terminal::new(TestBackend::new(120, 40)).unwrap();
    t.draw(|f| render::watch(f, &app)).unwrap();
    let text = screen_text(&t);
    assert!(text.contains("can only lose"), "{text}");
    let mut small = Terminal::new(TestBackend::new(80, 24)).unwrap();
    small.draw(|f| render::watch(f, &app)).unwrap();
    assert!(screen_text(&small).contains("can only lose"));
    let cut = cut_at_a_border(&small);
    assert!(cut.is_empty(), "{cut:?}\n{}", screen_text(&small));
    // Against the random player it can win; and HER on 3x3 wins under perfect play.
    s.set_opponent(Opponent::Random);
    assert!(!s.can_only_lose());
    assert!(!session(1, Opponent::Perfect).can_only_lose());
    let text = screen_text(&draw_watch(
        &watch_app(&session(1, Opponent::Perfect)),
        120,
        40,
    ));
    assert!(!text.contains("can only lose"));
}

/// A browsed box with no beads says the machine resigns there, rather than "0 of 0".
#[test]
fn an_empty_box_in_the_browser_says_the_machine_resigns() {
    let mut s = session(1, Opponent::Perfect);
    // Play until some box other than the one opened last is empty.
    let empty = loop {
        s.recorded_game();
        let live = s.opened.map(|o| o.box_index);
        if let Some(b) = (0..24).find(|&b| s.machine().box_total(b) == 0 && Some(b) != live) {
            break b;
        }
    };
    let mut app = watch_app(&s);
    app.browser.shown = Some(empty);
    app.snapshot = Snapshot::browsing(&s, Some(empty), None);
    let text = screen_text(&draw_watch(&app, 100, 30));
    assert!(text.contains("no beads: the machine"), "{text}");
    assert!(text.contains("resigns here"), "{text}");
    assert!(!text.contains("0 of 0"));
}

/// Big hexagons at a class's 80×24: `play havannah --size 5` against the tree search keeps the
/// typed line and the cursor's move in view (the list of 61 moves scrolls, marked), shows no
/// matchboxes for a player that has none; `watch havannah --size 4` fits with its board's panel
/// cut to the board and the game's state.
#[test]
fn big_hexagons_fit_80x24() {
    use matchbox::game::Game;
    use matchbox::games::havannah::{Base, Havannah};
    let lazy = |game: &Havannah, side| {
        let set = Arc::new(BoxSet::lazy(
            game,
            side,
            SymmetryMode::Full,
            matchbox::learn::Forced::Skip,
        ));
        Machine::new(set, StageBeads::uniform(1), Reinforcement::GARDNER, 3)
    };
    let game = Havannah::new(Base::new(5).unwrap());
    let mut s = Session::from_positions(
        game.clone(),
        lazy(&game, Side::Second),
        Opponent::Human,
        TieBreak::Random,
    )
    .unwrap();
    s.set_stand_in(matchbox::learn::Against::Mcts(50)).unwrap();
    let mut titles = Titles::of(&game, s.machine());
    titles.machine = "mcts:50 (black)".into();
    let mut app = PlayApp::new(s, titles, Side::First, None);
    app.update(Action::Enter);
    // No boxes to browse: `]` does nothing.
    app.update(Action::Browse(1));
    assert_eq!(app.browser.shown, None);
    let draw = |app: &PlayApp<Havannah>| {
        let mut t = Terminal::new(TestBackend::new(80, 24)).unwrap();
        t.draw(|f| render::play(f, app)).unwrap();
        t
    };
    for downs in [0, 30, 60] {
        for _ in 0..downs {
            app.update(Action::Down);
        }
        let t = draw(&app);
        let text = screen_text(&t);
        assert!(!text.contains("enlarge"), "{text}");
        assert!(text.contains("type: ▏"), "{text}");
        let cursor = app.options()[app.cursor];
        let shown = format!("▶ {}", game.format_move(cursor));
        assert!(text.contains(&shown), "{shown} not in view\n{text}");
        assert_eq!(text.contains("↑ "), app.cursor > 10, "{text}");
        assert!(!text.contains("its beads"), "{text}");
        assert!(text.contains("Opponent ─"), "{text}");
        assert!(!text.contains("[ ] boxes"), "{text}");
        assert!(cut_at_a_border(&t).is_empty(), "{text}");
    }

    let game = Havannah::new(Base::new(4).unwrap());
    let mut s = Session::from_positions(
        game.clone(),
        lazy(&game, Side::First),
        Opponent::Mcts(20),
        TieBreak::Random,
    )
    .unwrap();
    for _ in 0..3 {
        s.recorded_game();
    }
    s.ply();
    let titles = Titles::of(&game, s.machine());
    let mut app = WatchApp::new(
        game,
        titles,
        Snapshot::of(&s),
        Speed::Slow,
        PathBuf::from("hav.yaml"),
        Opponent::Mcts(20),
    );
    app.fps = 30.0;
    let mut t = Terminal::new(TestBackend::new(80, 24)).unwrap();
    t.draw(|f| render::watch(f, &app)).unwrap();
    let text = screen_text(&t);
    assert!(!text.contains("enlarge"), "{text}");
    assert!(text.contains("Game 4") && text.contains("move 2"), "{text}");
    assert!(text.contains("Box "), "{text}");
    assert!(cut_at_a_border(&t).is_empty(), "{text}");
    // A box of 30-odd arrows draws its first bars and "…", not bars into the border.
    assert!(text.contains('…') && !text.contains("▁│"), "{text}");
    // The sizes bigger boards ask for: as tall as the board and the panel under it need, as wide
    // as the board beside the machine and the score.
    use matchbox::view::render::{ScreenKind, min_size};
    let base = |n| Havannah::new(Base::new(n).unwrap());
    assert_eq!(min_size(&base(4), ScreenKind::Watch), (80, 24));
    assert_eq!(min_size(&base(5), ScreenKind::Play), (80, 24));
    // (The numbers over the top row take a line; the end of a row no longer does.)
    assert_eq!(min_size(&base(5), ScreenKind::Watch), (80, 28));
    assert_eq!(min_size(&base(6), ScreenKind::Play), (80, 25));
    assert_eq!(min_size(&base(7), ScreenKind::Play), (84, 27));
    assert_eq!(min_size(&base(10), ScreenKind::Watch), (96, 48));
    assert_eq!(min_size(&base(10), ScreenKind::Play), (96, 33));
    // Taller, the board's panel lists the moves too.
    let mut t = Terminal::new(TestBackend::new(80, 30)).unwrap();
    t.draw(|f| render::watch(f, &app)).unwrap();
    assert!(screen_text(&t).contains("Game 4"));
}

/// After hundreds of millions of games at flat out the scoreboard's numbers and the curve's last
/// game are shortened to fit a class's 80×24 screen, not cut at the border.
#[test]
fn big_counts_fit_the_score_and_the_curve_at_80x24() {
    let s = session(3, Opponent::Perfect);
    let mut app = watch_app(&s);
    app.snapshot.games_played = 158_098_684;
    app.snapshot.stats.games = 158_098_684;
    app.snapshot.stats.wins = 158_098_674;
    app.snapshot.stats.losses = 10;
    app.snapshot.stats.streak = Some((GameResult::Win, 158_098_652));
    app.snapshot.stats.last_loss = Some(32);
    app.games_per_sec = 31_912_345.0;
    let t = draw_watch(&app, 80, 24);
    let text = screen_text(&t);
    let cut = cut_at_a_border(&t);
    assert!(cut.is_empty(), "{}\n{text}", cut.join("\n"));
    for shown in ["158.1M/0/10", "158.1M won", "game 32", "31.9M games/s"] {
        assert!(text.contains(shown), "{shown}\n{text}");
    }
    // The curve's axis of games is logarithmic, in decades up to the one past the games played
    // (short, not cut: "1bn", not "84 games").
    assert!(text.contains("1bn "), "{text}");
    assert!(!text.contains(" 84 games"), "{text}");
    // Where there is room, the numbers are whole, and the axis says it is logarithmic.
    let wide = screen_text(&draw_watch(&app, 120, 40));
    assert!(wide.contains("158,098,674/0/10"), "{wide}");
    assert!(wide.contains("games on a log scale"), "{wide}");
    assert!(wide.contains("100M"), "{wide}");
}

/// Against a player standing in for the machine (`play … --opponent mcts`) nothing is learned,
/// so quitting neither asks nor says that games were lost.
#[test]
fn quitting_a_game_against_a_stand_in_does_not_ask_to_save() {
    let mut s = session(6, Opponent::Human);
    s.set_stand_in(matchbox::learn::Against::Mcts(50)).unwrap();
    let game = Hexapawn::new(Size::GARDNER);
    let titles = Titles::of(&game, s.machine());
    let mut app = PlayApp::new(s, titles, Side::First, None);
    app.update(Action::Enter);
    for _ in 0..20 {
        if !app.session.in_game() {
            break;
        }
        app.update(Action::Enter);
    }
    assert!(!app.session.in_game(), "the game ended");
    assert_eq!(app.unsaved_games(), 0);
    app.update(Action::Quit);
    assert!(app.quit, "{:?}", app.message);
}

/// The title keeps a space before the speed in brackets at every width a class uses, however
/// long the title ("… 304 boxes[100 games/s]" was seen at 100 columns).
#[test]
fn the_title_never_runs_into_the_speed() {
    let mut menace = menace_session(5);
    menace.ply();
    for speed in [Speed::Games100, Speed::FlatOut, Speed::Step] {
        let app = menace_app(&menace, speed);
        for w in [80u16, 100, 120] {
            let mut t = Terminal::new(TestBackend::new(w, 30)).unwrap();
            t.draw(|f| render::watch(f, &app)).unwrap();
            let buf = t.backend().buffer();
            let title: String = (0..w).map(|x| buf[(x, 0)].symbol().to_string()).collect();
            let at = title.find('[').unwrap();
            assert!(title[..at].ends_with(' '), "{w}: {title:?}");
            assert!(title.trim_end().ends_with(']'), "{w}: {title:?}");
        }
    }
}

/// A reset (`r` twice) refills the machine, and the games watched before it are kept for the
/// summary printed on quitting.
#[test]
fn a_reset_keeps_the_count_of_games_watched_before_it() {
    let mut s = session(8, Opponent::Perfect);
    for _ in 0..5 {
        s.recorded_game();
    }
    assert_eq!(s.machine().games_played, 5);
    s.reset();
    assert_eq!((s.machine().games_played, s.games_before_reset), (0, 5));
    for _ in 0..3 {
        s.recorded_game();
    }
    s.reset();
    assert_eq!((s.machine().games_played, s.games_before_reset), (0, 8));
}

/// "1 game a second" is a game a second whatever the game's length: the moves share the second
/// by the recent games' length (Hexapawn's games are about 5 plies, noughts and crosses' 7 to 9).
/// Time is simulated: the trainer is asked for work whenever it is due.
#[test]
fn one_game_a_second_for_games_of_any_length() {
    fn games_in_a_minute<G: matchbox::view::board::BoardView>(s: &mut Session<G>) -> u64 {
        let c = Control {
            speed: Speed::Games1,
            paused: false,
            browse: None,
            whole: None,
            may_replace: false,
        };
        let start = Instant::now();
        let mut due = start;
        // Settle on the game's length first, then count.
        let before = loop {
            worker::work(s, &c, due, &mut due);
            if due >= start + Duration::from_secs(20) {
                break s.machine().games_played;
            }
        };
        while due < start + Duration::from_secs(80) {
            worker::work(s, &c, due, &mut due);
        }
        s.machine().games_played - before
    }
    let her = games_in_a_minute(&mut session(2, Opponent::Perfect));
    let menace = games_in_a_minute(&mut menace_session(2));
    assert!(
        (50..=70).contains(&her) && (50..=70).contains(&menace),
        "games in a minute: HER {her}, MENACE {menace}"
    );
}

/// The play screen of mini-Arimaa at 80×24, the machine playing Silver: nothing cut off at a
/// border (the score panel's title read "You v the machine (silver" against its corner).
#[test]
fn mini_arimaa_play_fits_80x24() {
    use matchbox::games::arimaa::MiniArimaa;
    let game = MiniArimaa::new();
    let set = BoxSet::build_with(
        &game,
        Side::Second,
        SymmetryMode::None,
        matchbox::learn::Forced::Include,
    );
    let s = person_session(&game, set, 2);
    let titles = Titles::of(&game, s.machine());
    let mut app = PlayApp::new(s, titles, Side::First, None);
    app.update(Action::Enter);
    let mut t = Terminal::new(TestBackend::new(80, 24)).unwrap();
    t.draw(|f| render::play(f, &app)).unwrap();
    let cut = cut_at_a_border(&t);
    assert!(cut.is_empty(), "{}\n{}", cut.join("\n"), screen_text(&t));
    assert!(
        screen_text(&t).contains("You v the machine "),
        "{}",
        screen_text(&t)
    );
}

/// `s` on a file that holds another machine says what it holds and saves nothing; a second `s`
/// replaces it; a save to a new file, or with `--force`, goes through at once.
#[test]
fn saving_over_another_machine_takes_a_second_s() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hexapawn-black-watch.yaml");
    let mut earlier = session(8, Opponent::Perfect);
    earlier.flat_out(40, || true);
    matchbox::store::save_machine(&path, earlier.game(), earlier.machine()).unwrap();
    let before = std::fs::read(&path).unwrap();
    let mut s = session(2, Opponent::Perfect);
    s.recorded_game();
    let mut c = Control {
        speed: Speed::Slow,
        paused: false,
        browse: None,
        whole: None,
        may_replace: false,
    };
    let save = Command::Save(path.clone());
    let first = apply(vec![save.clone()], &mut s, &mut c);
    assert_eq!(first.len(), 1);
    assert!(
        first[0].contains("holds a hexapawn 3x3 machine (black, 40 games played)")
            && first[0].contains("press s again"),
        "{first:?}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), before, "nothing saved yet");
    let second = apply(vec![save.clone()], &mut s, &mut c);
    assert!(
        second[0].starts_with("saved 1 game (24 boxes, "),
        "{second:?}"
    );
    assert_ne!(std::fs::read(&path).unwrap(), before);
    // A new file needs no second `s`.
    let mut c = Control {
        may_replace: false,
        ..c
    };
    let fresh = Command::Save(dir.path().join("new.yaml"));
    assert!(apply(vec![fresh], &mut s, &mut c)[0].starts_with("saved"));
}

/// A click (or a tap) on a move of the list plays it, wherever the list is drawn; a click
/// elsewhere does nothing. The row is found in the drawn screen, as a person sees it.
#[test]
fn a_click_on_a_move_in_the_list_plays_it() {
    for (w, h) in [(80, 24), (120, 40)] {
        let s = session(4, Opponent::Human);
        let game = Hexapawn::new(Size::GARDNER);
        let titles = Titles::of(&game, s.machine());
        let mut app = PlayApp::new(s, titles, Side::First, None);
        let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
        t.draw(|f| render::play(f, &app)).unwrap();
        let buffer = t.backend().buffer().clone();
        let rows: Vec<String> = (0..h)
            .map(|y| {
                (0..w)
                    .map(|x| buffer[(x, y)].symbol().to_string())
                    .collect()
            })
            .collect();
        // The second move offered, b1-b2, where the screen shows it.
        let (y, line) = rows
            .iter()
            .enumerate()
            .find(|(_, l)| l.contains("  b1-b2"))
            .expect("b1-b2 is listed");
        let x = line.find("b1-b2").unwrap();
        let x = line[..x].chars().count() as u16;
        let area = ratatui::layout::Rect::new(0, 0, w, h);
        assert_eq!(
            render::play_click(&app, area, x, y as u16),
            Some(Action::Choose(1))
        );
        assert_eq!(
            render::play_click(&app, area, 0, 0),
            None,
            "the title is no move"
        );
        app.update(Action::Choose(1));
        let moves = &app.session.game.as_ref().unwrap().moves;
        assert!(
            moves.len() >= 2,
            "b1-b2 and the machine's answer: {moves:?}"
        );
        assert_eq!(
            matchbox::game::Game::format_move(&game, moves[0].1),
            "b1-b2"
        );
    }
}

/// A click (or a tap) on a box's number in the machine panel opens that box in the browser;
/// a click elsewhere does nothing. The place is found in the drawn screen.
#[test]
fn a_click_on_a_box_in_the_machine_panel_browses_it() {
    let mut s = session(3, Opponent::Perfect);
    s.recorded_game();
    let mut app = watch_app(&s);
    app.snapshot = Snapshot::browsing(&s, None, None);
    for (w, h) in [(80, 24), (120, 40)] {
        let t = draw_watch(&app, w, h);
        let buffer = t.backend().buffer().clone();
        let area = ratatui::layout::Rect::new(0, 0, w, h);
        // Box 17's number, in the machine panel (the middle column).
        let (x, y) = (0..h)
            .find_map(|y| {
                let line: String = (0..w)
                    .map(|x| buffer[(x, y)].symbol().to_string())
                    .collect();
                let at = line.find(" 17 ")?;
                Some((line[..at].chars().count() as u16 + 1, y))
            })
            .expect("box 17 is drawn");
        assert_eq!(
            render::watch_click(&app, area, x, y),
            Some(Action::BrowseTo(16))
        );
        assert_eq!(
            render::watch_click(&app, area, 1, 1),
            None,
            "the board is no box"
        );
    }
    app.update(Action::BrowseTo(16));
    assert_eq!(app.browser.shown, Some(16));
    assert!(screen_text(&draw_watch(&app, 80, 24)).contains("Box 17 of 24"));
}

/// Typing: Ctrl-U clears the move being typed; a square alone is the one move that goes there
/// (refused, with the message, when several or none do).
#[test]
fn ctrl_u_clears_and_a_destination_alone_is_taken_when_only_one_move_goes_there() {
    use matchbox::view::key::{Key, KeyCode};
    let s = session(4, Opponent::Human);
    let game = Hexapawn::new(Size::GARDNER);
    let titles = Titles::of(&game, s.machine());
    let mut app = PlayApp::new(s, titles, Side::First, None);
    for c in "b1-b".chars() {
        app.update(Action::Type(c));
    }
    assert_eq!(
        action_for(Key::ctrl(KeyCode::Char('u')), Mode::Play),
        Some(Action::ClearInput)
    );
    app.update(Action::ClearInput);
    assert!(app.input.is_empty());
    // b2: only b1-b2 goes there at the start.
    for c in "b2".chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::Enter);
    let moves = &app.session.game.as_ref().unwrap().moves;
    assert_eq!(
        matchbox::game::Game::format_move(&game, moves[0].1),
        "b1-b2"
    );
    // A square no move goes to is refused with the parser's message.
    for c in "a1".chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::Enter);
    assert!(app.message.is_some(), "no White move goes back to a1");
}

#[test]
fn reverse_video_written_out_for_the_page_reads_in_both_themes() {
    use matchbox::view::theme::{Theme, luminance};
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::style::{Color, Modifier, Style};
    for theme in [Theme::Dark, Theme::Light] {
        let mut buf = Buffer::empty(Rect::new(0, 0, 4, 1));
        buf.set_string(0, 0, "57", Style::new().add_modifier(Modifier::REVERSED));
        theme.apply(&mut buf);
        theme.explicit_reverse(&mut buf);
        let cell = &buf.content[0];
        assert!(!cell.modifier.contains(Modifier::REVERSED));
        let (Color::Rgb(fr, fg, fb), Color::Rgb(br, bg, bb)) = (cell.fg, cell.bg) else {
            panic!(
                "{theme:?}: colours not explicit: {:?} on {:?}",
                cell.fg, cell.bg
            );
        };
        let (f, b) = (luminance((fr, fg, fb)), luminance((br, bg, bb)));
        let ratio = (f.max(b) + 0.05) / (f.min(b) + 0.05);
        assert!(ratio > 4.5, "{theme:?}: {:?} on {:?}", cell.fg, cell.bg);
    }
}

/// "100 games/s" plays 100 games a second whatever the frame rate (the page's frame loop calls
/// the same driving code once a frame), and 10 games/s ten.
#[test]
fn games_a_second_hold_at_any_frame_rate() {
    use matchbox::view::drive;
    for (speed, per_sec) in [(Speed::Games100, 100.0), (Speed::Games10, 10.0)] {
        for fps in [4.0, 30.0, 60.0, 200.0] {
            let mut s = session(3, Opponent::Perfect);
            let c = Control {
                speed,
                paused: false,
                browse: None,
                whole: None,
                may_replace: false,
            };
            let mut due = 0.0;
            let frames = (5.0 * fps) as usize;
            for f in 1..=frames {
                let now = f as f64 * 1000.0 / fps;
                drive::work(&mut s, &c, now, &mut due, || true);
            }
            let played = s.machine().games_played as f64;
            let want = 5.0 * per_sec;
            assert!(
                played >= want * 0.95 && played <= want * 1.05,
                "{speed:?} at {fps} frames a second: {played} games in 5 s"
            );
        }
    }
}

/// A machine loaded with games already played: the score says they were before, in the file
/// (which keeps no score), not that the machine never lost.
#[test]
fn a_loaded_machine_s_score_says_its_games_came_before() {
    let mut m = her_machine(4);
    m.games_played = 500;
    let arena = Arc::new(Enumerated::new(Hexapawn::new(Size::GARDNER)));
    let s = Session::new(arena, m, Opponent::Perfect, TieBreak::Random).unwrap();
    let app = watch_app(&s);
    let text = screen_text(&draw_watch(&app, 120, 40));
    assert!(text.contains("500 (500 before, in the file)"), "{text}");
    assert!(text.contains("none since loaded"), "{text}");
    // A fresh machine says nothing of a file.
    let fresh = session(4, Opponent::Perfect);
    let text = screen_text(&draw_watch(&watch_app(&fresh), 120, 40));
    assert!(
        text.contains("none yet") && !text.contains("in the file"),
        "{text}"
    );
}
