//! The learning curve keeps the first games at any count (every game of the first 200, then
//! log-spaced; a log axis past 1,000 games), and the first box's beads are plotted live.

use std::path::PathBuf;

use crate::common::menace_session;
use matchbox::games::tictactoe::TicTacToe;
use matchbox::players::Opponent;
use matchbox::view::app::{Snapshot, Speed, Titles, WatchApp};
use matchbox::view::render;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// The watch screen of `s` at flat out.
fn app_of(s: &matchbox::view::session::Session<TicTacToe>) -> WatchApp<TicTacToe> {
    let titles = Titles::of(&TicTacToe, s.machine());
    WatchApp::new(
        TicTacToe,
        titles,
        Snapshot::of(s),
        Speed::FlatOut,
        PathBuf::from("m.yaml"),
        Opponent::Perfect,
    )
}

fn screen(s: &matchbox::view::session::Session<TicTacToe>, (w, h): (u16, u16)) -> String {
    let app = app_of(s);
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| render::watch(f, &app)).unwrap();
    render::buffer_text(t.backend().buffer())
}

#[test]
fn the_first_games_stay_on_the_curve_at_any_count() {
    let mut s = menace_session(1);
    assert_eq!(s.flat_out(60_000, || true), 60_000);
    let xs: Vec<u64> = s.curve.points.iter().map(|p| p.0 as u64).collect();
    // Every game of the first 200, then each half a percent more: a few thousand points.
    assert_eq!(xs[..=200], (0..=200).collect::<Vec<_>>()[..]);
    assert!(xs.windows(2).all(|w| w[0] < w[1]));
    assert!(xs.len() < 2_000, "{}", xs.len());
    let last = *xs.last().unwrap();
    assert!(last as f64 >= 60_000.0 / 1.006, "{last}");
    // The score at each point is the games' running sum: the last is W − L of the whole.
    let st = s.stats();
    let last_score = s.curve.points.last().unwrap().1 as i64;
    if last == 60_000 {
        assert_eq!(last_score, st.wins as i64 - st.losses as i64);
    }
    // On the screen the axis of games is logarithmic past 1,000 games, decades labelled.
    let text = screen(&s, (120, 40));
    assert!(
        text.contains("Learning: wins − losses · games on a log scale"),
        "{text}"
    );
    assert!(
        text.contains("1        ") && text.contains("100k"),
        "{text}"
    );
}

#[test]
fn the_first_box_is_plotted_as_it_learns() {
    let mut s = menace_session(2);
    s.flat_out(3_000, || true);
    let samples = &s.first_box.samples;
    // From the first game, game by game (the flat-out batches start small).
    let games: Vec<u64> = samples.iter().map(|x| x.0).collect();
    assert_eq!(games[..=16], (0..=16).collect::<Vec<_>>()[..]);
    // The first sample is the box as filled: Michie's 4 beads an arrow in box 1.
    assert_eq!(samples[0].1, vec![4, 4, 4]);
    let (at, beads) = samples.last().unwrap();
    let now: Vec<u32> = s.machine().beads_in(0).iter().map(|b| b.get()).collect();
    assert_eq!(*at, 3_000);
    assert_eq!(*beads, now);
    let text = screen(&s, (120, 40));
    assert!(text.contains("First box: beads by move"), "{text}");
    assert!(
        text.contains("b2 centre") && text.contains("a1 corner"),
        "{text}"
    );
    // Too short a screen for both: the curve alone.
    assert!(!screen(&s, (80, 24)).contains("First box"));
}

/// Flat out with no end (as the screens run it) stops when asked: after every batch, however the
/// batches fall (they start at one game and grow).
#[test]
fn flat_out_stops_when_asked() {
    let mut s = menace_session(3);
    let mut asked = 0;
    let played = s.flat_out(u64::MAX, || {
        asked += 1;
        asked < 40
    });
    assert_eq!(asked, 40);
    assert!(played > 40 && played < 40 * 256, "{played}");
    let mut asked = 0;
    let more = s.flat_out(u64::MAX, || {
        asked += 1;
        asked < 3
    });
    assert!(more <= 3 * 256, "{more}");
}

/// The rows of a screen's text between `from` and `to` (the curve's plot), right half.
fn plot_rows(text: &str, from: usize, to: usize) -> Vec<String> {
    text.lines()
        .skip(from)
        .take(to - from)
        .map(|l| l.chars().skip(60).collect())
        .collect()
}

#[test]
fn charts_are_drawn_again_only_when_they_would_move() {
    let mut s = menace_session(3);
    assert_eq!(s.flat_out(20_000, || true), 20_000);
    let mut app = app_of(&s);
    let mut t = Terminal::new(TestBackend::new(120, 40)).unwrap();
    let mut draw = |app: &WatchApp<TicTacToe>| {
        t.draw(|f| render::watch(f, app)).unwrap();
        render::buffer_text(t.backend().buffer())
    };
    let first = draw(&app);
    // Ten games later (0.05 %), with the curve's last point made far off: the plots are copied
    // as they were (a new screen would draw that point), the words are new.
    s.flat_out(10, || true);
    app.snapshot = Snapshot::of(&s);
    if let Some(p) = app.snapshot.curve.points.last_mut() {
        p.1 = 5_000.0;
    }
    let copied = draw(&app);
    assert_eq!(plot_rows(&first, 12, 38), plot_rows(&copied, 12, 38));
    assert!(copied.contains("20,010"));
    let mut fresh_app = app_of(&s);
    if let Some(p) = fresh_app.snapshot.curve.points.last_mut() {
        p.1 = 5_000.0;
    }
    let fresh = draw(&fresh_app);
    assert_ne!(plot_rows(&first, 12, 38), plot_rows(&fresh, 12, 38));
    // Ten times the games: drawn again, as a new screen draws them.
    s.flat_out(180_000, || true);
    app.snapshot = Snapshot::of(&s);
    let again = draw(&app);
    assert_ne!(plot_rows(&first, 12, 38), plot_rows(&again, 12, 38));
    assert_eq!(again, screen(&s, (120, 40)));
}
