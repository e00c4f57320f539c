//! The training thread of the watch screen: it owns the session, takes commands, trains at the
//! chosen speed and publishes snapshots. The screen never waits for it.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crate::view::app::{Command, Snapshot, Speed};
use crate::view::board::BoardView;
use crate::view::session::Session;

/// The trainer's speed and pause state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Control {
    pub speed: Speed,
    pub paused: bool,
    /// The box the screen's browser shows, if any.
    pub browse: Option<usize>,
    /// Whether `s` may replace the file it saves to: it is the machine being resumed, `--force`
    /// was given, or `s` was pressed once more after the screen said what the file holds.
    pub may_replace: bool,
}

/// Applies a command to the session. Returns a message for the screen, if any.
pub fn handle<G: BoardView>(cmd: &Command, s: &mut Session<G>, c: &mut Control) -> Option<String> {
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
        Command::Reset => s.reset(),
        Command::Save(path) => return Some(save(path, s, c)),
        Command::Quit => {}
    }
    None
}

/// Saves the machine to `path`, unless that would replace another file the person has not been
/// told of: then it says what the file holds, and the next `s` replaces it.
fn save<G: BoardView>(path: &std::path::Path, s: &Session<G>, c: &mut Control) -> String {
    if !c.may_replace
        && let Some(what) = crate::store::describe_existing(path)
    {
        c.may_replace = true;
        return format!(
            "not saved: {} holds {what}; press s again to replace it",
            path.display()
        );
    }
    match crate::store::save_machine(path, s.game(), s.machine()) {
        Ok(()) => {
            c.may_replace = true;
            format!(
                "saved {} to {}",
                crate::text::count(s.machine().games_played, "game", "games"),
                path.display()
            )
        }
        Err(e) => format!("not saved: {e}"),
    }
}

/// Does the training due at `now` at the current speed and moves `due` to when more is due.
pub fn work<G: BoardView>(s: &mut Session<G>, c: &Control, now: Instant, due: &mut Instant) {
    if c.paused || s.limit_reached() {
        return;
    }
    let every = |d: Duration, due: &mut Instant| {
        // Catch up at most one period, so a stall does not cause a burst.
        *due = (*due + d).max(now);
    };
    match c.speed {
        Speed::Step => {}
        Speed::Slow if now >= *due => {
            s.ply();
            every(Duration::from_millis(1000), due);
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
            } as u64;
            every(Duration::from_millis(d), due);
        }
        Speed::Games10 | Speed::Games100 if now >= *due => {
            s.recorded_game();
            let per_sec = if c.speed == Speed::Games10 { 10 } else { 100 };
            every(Duration::from_millis(1000 / per_sec), due);
        }
        Speed::FlatOut => {
            let deadline = now + Duration::from_millis(12);
            s.flat_out(u64::MAX, || Instant::now() < deadline);
            // One game move by move, so the board and the boxes show something real.
            s.recorded_game();
        }
        _ => {}
    }
}

/// The latest snapshot and message, for the screen to take.
pub type Mailbox<G> = Arc<Mutex<(Option<Snapshot<G>>, Option<String>)>>;

/// Starts the training thread. Returns the command channel, the mailbox and the thread, which
/// hands the session back when it quits.
pub fn spawn<G: BoardView + 'static>(
    mut session: Session<G>,
    mut control: Control,
) -> (Sender<Command>, Mailbox<G>, JoinHandle<Session<G>>) {
    let (tx, rx): (Sender<Command>, Receiver<Command>) = mpsc::channel();
    let mailbox: Mailbox<G> = Arc::new(Mutex::new((
        Some(Snapshot::browsing(&session, control.browse)),
        None,
    )));
    let out = Arc::clone(&mailbox);
    let handle = thread::spawn(move || {
        let mut due = Instant::now();
        let mut published = Instant::now();
        let mut totals_counted = Instant::now();
        let mut dirty = false;
        let mut message = None;
        loop {
            let idle = control.paused || control.speed == Speed::Step || session.limit_reached();
            let wait = if idle {
                Duration::from_millis(20)
            } else if control.speed == Speed::FlatOut {
                Duration::ZERO
            } else {
                due.saturating_duration_since(Instant::now())
                    .min(Duration::from_millis(5))
            };
            let mut changed = false;
            let first = match rx.recv_timeout(wait) {
                Ok(c) => Some(c),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => return session,
            };
            for cmd in first.into_iter().chain(rx.try_iter()) {
                if cmd == Command::Quit {
                    return session;
                }
                if let Some(m) = handle(&cmd, &mut session, &mut control) {
                    message = Some(m);
                }
                changed = true;
            }
            let before = session.machine().games_played;
            let plies = session.game.as_ref().map(|g| g.moves.len());
            work(&mut session, &control, Instant::now(), &mut due);
            changed |= session.machine().games_played != before
                || session.game.as_ref().map(|g| g.moves.len()) != plies;
            dirty |= changed;
            // At most about 60 snapshots a second; the screen draws 30.
            if dirty && (published.elapsed() >= Duration::from_millis(16) || message.is_some()) {
                // Counting the beads of a big machine takes a while: once a second is enough.
                if totals_counted.elapsed() >= Duration::from_secs(1) {
                    session.count_totals();
                    totals_counted = Instant::now();
                }
                let snap = Snapshot::browsing(&session, control.browse);
                let mut slot = out.lock().unwrap_or_else(|e| e.into_inner());
                slot.0 = Some(snap);
                if let Some(m) = message.take() {
                    slot.1 = Some(m);
                }
                published = Instant::now();
                dirty = false;
            }
        }
    });
    (tx, mailbox, handle)
}
