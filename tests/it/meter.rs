//! The one meter both front ends read: games a second over the last four seconds (afresh when
//! the speed changes), frames a second over each second.

use std::path::PathBuf;

use crate::common::menace_session;
use matchbox::games::tictactoe::TicTacToe;
use matchbox::players::Opponent;
use matchbox::view::app::{Snapshot, Speed, Titles, WatchApp};
use matchbox::view::meter::Meter;

fn app() -> WatchApp<TicTacToe> {
    let s = menace_session(1);
    WatchApp::new(
        TicTacToe,
        Titles::of(&TicTacToe, s.machine()),
        Snapshot::of(&s),
        Speed::Games10,
        PathBuf::from("m.yaml"),
        Opponent::Perfect,
    )
}

/// Frames at 10 a second from `from` to `to` seconds, the machine playing `per_sec` games a
/// second.
fn run(meter: &mut Meter, app: &mut WatchApp<TicTacToe>, from: f64, to: f64, per_sec: f64) {
    let mut t = from;
    while t < to {
        t += 0.1;
        app.snapshot.games_played += (per_sec / 10.0) as u64;
        meter.frame(t, app);
    }
}

#[test]
fn the_meter_reads_games_and_frames_a_second() {
    let (mut meter, mut app) = (Meter::default(), app());
    run(&mut meter, &mut app, 0.0, 10.0, 100.0);
    assert!(
        (app.games_per_sec - 100.0).abs() < 1.0,
        "{}",
        app.games_per_sec
    );
    assert!((app.fps - 10.0).abs() < 0.6, "{}", app.fps);
    // Slower: the 4-second window still remembers the fast games a second later...
    run(&mut meter, &mut app, 10.0, 11.0, 10.0);
    assert!(app.games_per_sec > 50.0, "{}", app.games_per_sec);
    // ...and has forgotten them after its four seconds.
    run(&mut meter, &mut app, 11.0, 15.5, 10.0);
    assert!(
        (app.games_per_sec - 10.0).abs() < 1.0,
        "{}",
        app.games_per_sec
    );
}

#[test]
fn a_new_speed_starts_the_reading_afresh() {
    let (mut meter, mut app) = (Meter::default(), app());
    run(&mut meter, &mut app, 0.0, 10.0, 100.0);
    app.speed_changed = true;
    run(&mut meter, &mut app, 10.0, 11.0, 10.0);
    assert!(
        (app.games_per_sec - 10.0).abs() < 1.0,
        "{}",
        app.games_per_sec
    );
    assert!(!app.speed_changed, "the meter took the change");
}
