//! From watching to playing and back (`p` on the watch screen): the person plays the machine just
//! trained, which learns from those games too; Esc goes back to watching, against the opponent
//! and with the limit the watch screen had.

use std::path::PathBuf;

use crate::common::menace_session;
use matchbox::players::Opponent;
use matchbox::view::app::{Action, Command, Mode, Snapshot, Speed, Titles, WatchApp, action_for};
use matchbox::view::key::{Front, Key, KeyCode};
use matchbox::view::play::PlayApp;
use matchbox::view::render;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn beads(s: &matchbox::view::session::Session<matchbox::games::tictactoe::TicTacToe>) -> Vec<u32> {
    let m = s.machine();
    (0..m.boxes.len())
        .flat_map(|b| m.beads_in(b).iter().map(|x| x.get()).collect::<Vec<_>>())
        .collect()
}

#[test]
fn p_on_the_watch_screen_asks_to_play() {
    use matchbox::games::tictactoe::TicTacToe;
    let s = menace_session(1);
    let titles = Titles::of(&TicTacToe, s.machine());
    let mut app = WatchApp::new(
        TicTacToe,
        titles,
        Snapshot::of(&s),
        Speed::Games10,
        PathBuf::from("m.yaml"),
        Opponent::Perfect,
    );
    let p = action_for(Key::plain(KeyCode::Char('p')), Mode::Watch).unwrap();
    assert_eq!(p, Action::PlayIt);
    // The trainer stops and hands the session over.
    assert_eq!(app.update(p), vec![Command::Quit]);
    assert!(app.to_play && !app.quit);
    // A front end that cannot switch screens says how to play instead.
    let mut app = WatchApp::new(
        TicTacToe,
        Titles::of(&TicTacToe, s.machine()),
        Snapshot::of(&s),
        Speed::Games10,
        PathBuf::from("m.yaml"),
        Opponent::Perfect,
    );
    app.can_play = false;
    assert!(app.update(p).is_empty());
    assert!(app.message.unwrap().contains("save it"));
}

#[test]
fn the_person_plays_the_machine_just_watched_and_goes_back() {
    use matchbox::games::tictactoe::TicTacToe;
    let mut s = menace_session(4);
    for _ in 0..30 {
        s.recorded_game();
    }
    // Mid-game, with the watch screen's limit reached after this game.
    s.ply();
    assert!(s.in_game());
    s.limit = Some(31);
    let titles = Titles::of(&TicTacToe, s.machine());
    // The switch every front end makes: on the page, the play screen is the page's too.
    let path = PathBuf::from("m.yaml");
    let mut watch = WatchApp::of_session(&s, titles, Speed::Games10, path, Front::Page);
    assert_eq!(watch.opponents, [Opponent::Perfect, Opponent::Random]);
    watch.to_play = true;
    let mut play = watch.play(s);
    assert!(!watch.to_play);
    assert_eq!(play.front, Front::Page);
    // The game under way was played out (against the perfect player), the limit set aside.
    assert_eq!(play.session.machine().games_played, 31);
    assert_eq!(play.session.limit, None);
    assert_eq!(play.session.playing_opponent(), Opponent::Human);
    // MENACE is X and moves first; the person has O's moves.
    assert!(!play.options().is_empty());
    let mut t = Terminal::new(TestBackend::new(100, 30)).unwrap();
    t.draw(|f| render::play(f, &play)).unwrap();
    let screen = render::buffer_text(t.backend().buffer());
    assert!(screen.contains("Esc watch"), "{screen}");
    assert!(screen.contains("you play o against"), "{screen}");
    // The score is the person's: no games yet.
    assert!(screen.contains("games      0"), "{screen}");
    // The box panel starts clean: the machine's first box, not the watched game's last box and
    // what that game taught it.
    assert!(!screen.contains("game 31 "), "{screen}");
    assert!(screen.contains("Box 1 · move 1"), "{screen}");
    // A whole game, the first move offered each time: the machine learns from it.
    while play.session.in_game() {
        play.update(Action::Enter);
    }
    assert_eq!(play.session.machine().games_played, 32);
    // A second game left half played is not learned from.
    play.update(Action::Enter);
    play.update(Action::Enter);
    assert!(play.session.in_game());
    let before = beads(&play.session);
    // Esc goes back without asking: the watch screen keeps the machine.
    assert_eq!(play.unsaved_games(), 0);
    play.update(Action::Back);
    assert!(play.quit && !play.interrupted);
    let s = watch.back_from(play);
    assert_eq!(
        watch.snapshot.games_played, 32,
        "the watch screen shows the games played"
    );
    assert!(!s.in_game());
    assert_eq!(s.machine().games_played, 32);
    assert_eq!(beads(&s), before, "the unfinished game changed no box");
    assert_eq!(s.opponent(), Opponent::Perfect);
    assert_eq!(s.limit, Some(31));
}

#[test]
fn ctrl_c_on_the_play_screen_stops_everything() {
    use matchbox::games::tictactoe::TicTacToe;
    let s = menace_session(2);
    let titles = Titles::of(&TicTacToe, s.machine());
    let mut play = PlayApp::from_watch(s, titles);
    play.update(Action::Interrupt);
    assert!(play.quit && play.interrupted);
}

/// Three thousand random printable keys typed into the watch screen of MENACE, the trainer's
/// snapshot a step behind the screen (as it is: the screen asks, the trainer answers at its next
/// frame), drawn at 120×40 after each: the screen never panics (it once did, on a box the
/// snapshot did not hold, losing the unsaved machine).
#[test]
fn random_keys_on_the_watch_screen_never_panic() {
    use matchbox::games::tictactoe::TicTacToe;
    use matchbox::rng::{rng_from_seed, uniform_below};
    let printable: Vec<char> = (' '..='~').collect();
    for seed in 0..4 {
        let mut s = menace_session(seed);
        let titles = Titles::of(&TicTacToe, s.machine());
        let path = PathBuf::from("m.yaml");
        let mut app = WatchApp::of_session(&s, titles, Speed::Games10, path, Front::Terminal);
        let mut rng = rng_from_seed(seed);
        let mut t = Terminal::new(TestBackend::new(120, 40)).unwrap();
        let (mut browse, mut whole) = (None, None);
        for _ in 0..3000 {
            let c = printable[uniform_below(&mut rng, printable.len() as u32) as usize];
            if let Some(action) = action_for(Key::plain(KeyCode::Char(c)), Mode::Watch) {
                app.update(action);
            }
            (app.quit, app.to_play) = (false, false);
            if s.in_game() {
                s.ply();
            } else {
                s.begin();
            }
            // The snapshot of the screen's last request, not this key's.
            app.snapshot = Snapshot::browsing(&s, browse, whole);
            (browse, whole) = (app.browser.shown, app.browser.whole_first());
            t.draw(|f| render::watch(f, &app)).unwrap();
        }
    }
}
