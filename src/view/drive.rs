//! Driving a session at the screen's speed, the same for every front end: the commands the
//! screen sends, and the training due at a given time (in milliseconds on any clock: the
//! terminal's worker thread and the browser's frame both ask). Pure: the clock is the caller's.

use super::app::{Command, Speed};
use super::board::BoardView;
use super::session::Session;

/// The trainer's speed and pause state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Control {
    pub speed: Speed,
    pub paused: bool,
    /// The box the screen's browser shows, if any.
    pub browse: Option<usize>,
    /// The first box of the whole-machine view's page, while that view is open.
    pub whole: Option<usize>,
    /// Whether `s` may replace the file it saves to: it is the machine being resumed, `--force`
    /// was given, or `s` was pressed once more after the screen said what the file holds.
    pub may_replace: bool,
}

/// Applies a command to the session (all but `Save` and `Quit`, which are the front end's).
/// Returns a message for the screen, if any.
pub fn apply<G: BoardView>(cmd: &Command, s: &mut Session<G>, c: &mut Control) -> Option<String> {
    match cmd {
        Command::SetSpeed(speed) => c.speed = *speed,
        Command::Pause(p) => c.paused = *p,
        Command::Step => {
            if !s.ply() {
                return Some("the session's game limit is reached".into());
            }
        }
        Command::SetOpponent(kind) => s.set_opponent(*kind),
        Command::Browse(b) => c.browse = *b,
        Command::Whole(first) => c.whole = *first,
        Command::Reset => s.reset(),
        Command::Save(_) | Command::Quit => {}
    }
    None
}

/// Does the training due at `now` (milliseconds) at the current speed and moves `due` to when
/// more is due. At flat out it trains until `keep_going` says stop (asked after every batch of at most 256 games), then
/// plays one game move by move, so the board and the boxes show something real.
pub fn work<G: BoardView>(
    s: &mut Session<G>,
    c: &Control,
    now: f64,
    due: &mut f64,
    keep_going: impl FnMut() -> bool,
) {
    if c.paused || s.limit_reached() {
        return;
    }
    let every = |d: f64, due: &mut f64| {
        // Catch up at most one period, so a stall does not cause a burst.
        *due = (*due + d).max(now);
    };
    match c.speed {
        Speed::Step => {}
        Speed::Slow if now >= *due => {
            s.ply();
            every(1000.0, due);
        }
        Speed::Games1 if now >= *due => {
            s.ply();
            // The moves of a game share the second by the recent games' length (a move after
            // each but the last), and the pause after a game fills it: at least 250 ms, the
            // whole second after a resignation before the first move.
            let moves = (s.mean_plies - 1.0).max(0.0);
            let step = (750.0 / moves.max(1.0)).clamp(20.0, 250.0);
            let d = if s.in_game() {
                step
            } else {
                (1000.0 - moves * step).clamp(250.0, 1000.0)
            };
            every(d.floor(), due);
        }
        Speed::Games10 | Speed::Games100 if now >= *due => {
            let per_sec: f64 = if c.speed == Speed::Games10 {
                10.0
            } else {
                100.0
            };
            // Every game due by now, so a frame slower than a game (the page draws 30 to 60
            // frames a second) plays several: 100 games a second on any front end. At most a
            // quarter of a second's games at once, and a stall is not made up.
            let period = 1000.0 / per_sec;
            let mut played = 0.0;
            while now >= *due && played < (per_sec / 4.0).ceil() {
                s.recorded_game();
                *due += period;
                played += 1.0;
                if s.limit_reached() {
                    break;
                }
            }
            if now >= *due {
                *due = now + period;
            }
        }
        Speed::FlatOut => {
            s.flat_out(u64::MAX, keep_going);
            s.recorded_game();
        }
        _ => {}
    }
}
