//! The training thread of the watch screen: it owns the session, takes commands, trains at the
//! chosen speed and publishes snapshots. The screen never waits for it.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crate::view::app::{Command, Snapshot, Speed};
use crate::view::board::BoardView;
use crate::view::session::Session;

pub use crate::view::drive::Control;

/// Applies a command to the session: a save here (a file), the rest as every front end does.
/// Returns a message for the screen, if any.
pub fn handle<G: BoardView>(cmd: &Command, s: &mut Session<G>, c: &mut Control) -> Option<String> {
    match cmd {
        Command::Save(path) => Some(save(path, s, c)),
        other => crate::view::drive::apply(other, s, c),
    }
}

/// Saves the machine to `path`, unless that would replace another file the person has not been
/// told of: then it says what the file holds, and the next `s` replaces it.
fn save<G: BoardView>(path: &std::path::Path, s: &mut Session<G>, c: &mut Control) -> String {
    if !c.may_replace
        && let Some(what) = crate::store::describe_existing(path)
    {
        c.may_replace = true;
        return format!(
            "not saved: {} holds {what}; press s again to replace it",
            path.display()
        );
    }
    let start = Instant::now();
    match crate::store::save_machine(path, s.game(), s.machine()) {
        Ok(()) => {
            c.may_replace = true;
            s.saved_games = s.machine().games_played;
            let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
            format!(
                "saved {} ({}, {}) to {} in {}",
                crate::text::count(s.machine().games_played, "game", "games"),
                crate::text::count(s.machine().boxes.len() as u64, "box", "boxes"),
                crate::text::bytes(size),
                path.display(),
                seconds(start.elapsed().as_secs_f64())
            )
        }
        Err(e) => format!("not saved: {e}"),
    }
}

/// A short time, to a tenth of a second.
fn seconds(secs: f64) -> String {
    if secs < 10.0 {
        format!("{secs:.1} s")
    } else {
        crate::text::duration_text(secs)
    }
}

/// The clock's origin for the milliseconds the shared pacing counts in.
fn epoch() -> Instant {
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn ms(t: Instant) -> f64 {
    t.saturating_duration_since(epoch()).as_secs_f64() * 1000.0
}

/// Does the training due at `now` at the current speed and moves `due` to when more is due (at
/// flat out for 12 ms).
pub fn work<G: BoardView>(s: &mut Session<G>, c: &Control, now: Instant, due: &mut Instant) {
    let origin = epoch();
    let mut d = ms(*due);
    let deadline = now + Duration::from_millis(12);
    crate::view::drive::work(s, c, ms(now), &mut d, || Instant::now() < deadline);
    *due = origin + Duration::from_secs_f64(d / 1000.0);
}

/// The training thread: it hands back the session and its control when it stops.
pub type Trainer<G> = JoinHandle<(Session<G>, Control)>;

/// The latest snapshot and message, for the screen to take.
pub type Mailbox<G> = Arc<Mutex<(Option<Snapshot<G>>, Option<String>)>>;

/// Starts the training thread. Returns the command channel, the mailbox and the thread, which
/// hands the session (and its control: whether `s` may replace the file now) back when it quits.
pub fn spawn<G: BoardView + 'static>(
    mut session: Session<G>,
    mut control: Control,
) -> (Sender<Command>, Mailbox<G>, Trainer<G>) {
    let (tx, rx): (Sender<Command>, Receiver<Command>) = mpsc::channel();
    let mailbox: Mailbox<G> = Arc::new(Mutex::new((
        Some(Snapshot::browsing(&session, control.browse, control.whole)),
        None,
    )));
    let out = Arc::clone(&mailbox);
    let handle = thread::spawn(move || {
        let mut due = Instant::now();
        let mut published = Instant::now();
        let mut totals_counted = Instant::now();
        let mut dirty = false;
        let mut message = None;
        let mut told_full = false;
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
                Err(RecvTimeoutError::Disconnected) => return (session, control),
            };
            for cmd in first.into_iter().chain(rx.try_iter()) {
                if cmd == Command::Quit {
                    return (session, control);
                }
                if let Command::Save(path) = &cmd {
                    // A big machine takes a while: the screen says so first.
                    let boxes = session.machine().boxes.len() as u64;
                    let mut slot = out.lock().unwrap_or_else(|e| e.into_inner());
                    slot.1 = Some(format!(
                        "saving {} to {}…",
                        crate::text::count(boxes, "box", "boxes"),
                        path.display()
                    ));
                }
                if let Some(m) = handle(&cmd, &mut session, &mut control) {
                    message = Some(m);
                }
                changed = true;
            }
            let before = session.machine().games_played;
            let plies = session.game.as_ref().map(|g| g.moves.len());
            work(&mut session, &control, Instant::now(), &mut due);
            if session.machine().unboxed > 0 && !told_full {
                told_full = true;
                message = Some(format!(
                    "the machine is full: its boxes reached the {} of --max-memory; new positions are played at random without a box",
                    crate::text::bytes(session.machine().boxes.budget() as u64)
                ));
            }
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
                let snap = Snapshot::browsing(&session, control.browse, control.whole);
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
