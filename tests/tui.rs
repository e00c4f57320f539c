//! The screens without a terminal: snapshots of what they draw (ratatui's TestBackend + insta),
//! the key-driven state machine, and the promise that watching adds no hidden randomness.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use matchbox::game::Side;
use matchbox::games::hexapawn::{Hexapawn, Size};
use matchbox::learn::Machine;
use matchbox::learn::engine::{Enumerated, Table, Trainer};
use matchbox::learn::{BoxSet, GameResult, Reinforcement, StageBeads, SymmetryMode};
use matchbox::players::Opponent;
use matchbox::solve::TieBreak;
use matchbox::store;
use matchbox::tui::app::{Action, Command, Mode, Snapshot, Speed, Titles, WatchApp, action_for};
use matchbox::tui::play::PlayApp;
use matchbox::tui::render;
use matchbox::tui::session::Session;
use matchbox::tui::worker::{self, Control};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

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
    assert!(screen_text(&t).contains("any key closes this help"));
    insta::assert_snapshot!("help_overlay", t.backend());
    // Any key closes it without doing anything else.
    assert!(app.update(Action::Reset).is_empty());
    assert!(!app.show_help);
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
    // A legal move typed in notation is played, and the machine answers from a box.
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
    assert_eq!(app.session.stats.games as usize, games);
    assert_eq!(app.session.machine().games_played as usize, games);
}

#[test]
fn keys_map_to_actions() {
    let key = |c| KeyEvent::new(c, KeyModifiers::NONE);
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
        (key(KeyCode::Esc), Mode::Play, Some(Action::Quit)),
        (
            KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL),
            Mode::Play,
            Some(Action::Quit),
        ),
        (key(KeyCode::Char('b')), Mode::Play, Some(Action::Type('b'))),
        (key(KeyCode::Char('b')), Mode::Watch, None),
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
    assert_eq!(s.stats.games, 20, "one game per 10 ms");
    // Opponent changes from the next game.
    apply(app.update(Action::ToggleOpponent), &mut s, &mut c);
    assert_eq!(s.rival(), Opponent::Random);
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
    assert_eq!((s.stats.games, s.machine().games_played), (0, 0));
    // Save writes a file that loads.
    s.recorded_game();
    let dir = tempfile::tempdir().unwrap();
    app.save_path = dir.path().join("her.yaml");
    let msgs = apply(app.update(Action::Save), &mut s, &mut c);
    assert!(msgs[0].starts_with("saved 1 games to"), "{msgs:?}");
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
    let s = handle.join().unwrap();
    assert_eq!(s.stats.games, games);
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
    use matchbox::games::tictactoe::TicTacToe;
    use matchbox::learn::{Forced, Preset};
    let boxes = Arc::new(BoxSet::build_with(
        &TicTacToe,
        Side::First,
        SymmetryMode::Full,
        Forced::Skip,
    ));
    let m = Machine::new(
        boxes,
        Preset::Michie.beads(),
        Preset::Michie.reinforcement(),
        5,
    );
    let mut s = Session::new(
        Arc::new(Enumerated::new(TicTacToe)),
        m,
        Opponent::Perfect,
        TieBreak::Random,
    )
    .unwrap();
    s.ply();
    let titles = Titles::of(&TicTacToe, s.machine());
    let mut app = WatchApp::new(
        TicTacToe,
        titles,
        Snapshot::of(&s),
        Speed::Slow,
        PathBuf::from("menace.yaml"),
        Opponent::Perfect,
    );
    app.fps = 30.0;
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
    assert_eq!(lazy.stats, table.stats);
    assert_eq!(lazy.machine().rng, table.machine().rng);
}

#[test]
fn a_person_can_play_a_tree_search_instead_of_the_machine() {
    use matchbox::game::Game;
    use matchbox::games::havannah::{Base, Havannah};
    use matchbox::players::MctsPlayer;
    let game = Havannah::new(Base::new(4).unwrap());
    let set = Arc::new(BoxSet::lazy(
        Side::Second,
        SymmetryMode::Full,
        matchbox::learn::Forced::Skip,
    ));
    let m = Machine::new(set, StageBeads::uniform(1), Reinforcement::GARDNER, 3);
    let mut s =
        Session::from_positions(game.clone(), m, Opponent::Human, TieBreak::Random).unwrap();
    s.set_stand_in(Box::new(MctsPlayer::new(300)));
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
    use matchbox::tui::board::BoardView;
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
    assert_eq!(s.stats.games, 300);
    let last = s.game.as_ref().expect("the last game is shown");
    assert_eq!(last.number, 300);
    assert!(last.result.is_some());
    assert!(s.opened.is_some_and(|o| o.game == 300));
}
