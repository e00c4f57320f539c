//! The terminal front end of the screens `watch` (a machine learning, live) and `play` (a person
//! against the machine): it owns the terminal (crossterm) and the training thread (`worker`).
//! What the screens hold and draw is in [`crate::view`], shared with the browser.

pub mod input;
mod operate;
mod pole;
pub use operate::operate_screen;
pub use pole::watch_pole;
mod suspend;
pub mod worker;

use std::path::PathBuf;
use std::sync::mpsc::Sender;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use ratatui::DefaultTerminal;
use ratatui::crossterm::event;

use crate::view::app::{self, Command, Mode, Speed, Titles, WatchApp, action_for};
use crate::view::board::BoardView;
use crate::view::key::{Key, KeyCode};
use crate::view::play::PlayApp;
use crate::view::session::Session;
use crate::view::{render, theme};
use worker::{Control, Mailbox};

use crate::view::key::Front;

/// Frames per second the screens are drawn at.
pub const FPS: u32 = 30;

/// Refuses to start a screen (`what`: "watch", "play") where there is no terminal to draw on and
/// read keys from: its input or output is a pipe or a file.
pub fn check_terminal(what: &str) -> Result<()> {
    if !has_terminal() {
        anyhow::bail!(
            "{what} draws on a terminal and reads its keys, and its input or output here is a pipe or a file: run it in a terminal (train, experiment and the other commands print text)"
        );
    }
    Ok(())
}

/// Whether input and output are a terminal.
pub fn has_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}

/// Takes over the terminal for `run`, and gives it back afterwards, also on error; ratatui's panic
/// hook gives it back on a panic. Ctrl-C arrives as a key (the terminal is in raw mode).
fn with_terminal<T>(run: impl FnOnce(&mut DefaultTerminal) -> Result<T>) -> Result<T> {
    let mut terminal = ratatui::try_init().context("cannot take over the terminal")?;
    suspend::catch();
    let result = run(&mut terminal);
    let restored = ratatui::try_restore().context("cannot restore the terminal");
    let value = result?;
    restored?;
    Ok(value)
}

/// Watches `session` learn; returns the session when the person quits. `p` hands the session to
/// the play screen (the training thread stops), and Esc there comes back (a new one starts).
pub fn watch<G: BoardView + Clone + 'static>(
    session: Session<G>,
    titles: Titles,
    speed: Speed,
    save_path: PathBuf,
    may_replace: bool,
    theme: theme::Theme,
) -> Result<Session<G>> {
    let mut app = WatchApp::of_session(&session, titles, speed, save_path, Front::Terminal);
    app.theme = theme;
    let (mut session, mut may_replace) = (session, may_replace);
    with_terminal(move |t| {
        loop {
            let (back, result) = watch_once(t, &mut app, session, may_replace);
            (session, may_replace) = back?;
            result?;
            if !std::mem::take(&mut app.to_play) {
                return Ok(session);
            }
            let mut play = app.play(session);
            let played = play_loop(t, &mut play);
            let interrupted = play.interrupted;
            session = app.back_from(play);
            played?;
            if interrupted {
                return Ok(session);
            }
        }
    })
}

/// One stretch of watching: a training thread for `session` until the person quits or asks to
/// play. Returns the session the thread hands back, and how the screen ended.
fn watch_once<G: BoardView + Clone + 'static>(
    t: &mut DefaultTerminal,
    app: &mut WatchApp<G>,
    session: Session<G>,
    may_replace: bool,
) -> (Result<(Session<G>, bool)>, Result<()>) {
    let control = Control {
        speed: app.speed,
        paused: app.paused,
        browse: app.browser.shown,
        whole: app.browser.whole_first(),
        may_replace,
    };
    let (tx, mailbox, handle) = worker::spawn(session, control);
    let alive = || !handle.is_finished();
    let result = watch_loop(t, app, &tx, &mailbox, &alive);
    let _ = tx.send(Command::Quit);
    let back = handle
        .join()
        .map(|(s, c)| (s, c.may_replace))
        .map_err(|_| anyhow::anyhow!("the training thread failed"));
    (back, result)
}

fn watch_loop<G: BoardView>(
    terminal: &mut DefaultTerminal,
    app: &mut WatchApp<G>,
    tx: &Sender<Command>,
    mailbox: &Mailbox<G>,
    alive: &dyn Fn() -> bool,
) -> Result<()> {
    let frame = Duration::from_secs(1) / FPS;
    let start = Instant::now();
    let mut meter = crate::view::meter::Meter::default();
    loop {
        if !alive() {
            anyhow::bail!("the training thread stopped");
        }
        let now = Instant::now();
        {
            let mut slot = mailbox.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(s) = slot.0.take() {
                app.snapshot = s;
            }
            if let Some(m) = slot.1.take() {
                app.message = Some(m);
            }
        }
        meter.frame((now - start).as_secs_f64(), app);
        suspend::if_asked(terminal)?;
        let size = terminal.size()?;
        app.browser.screen = (size.width, size.height);
        terminal.draw(|f| render::watch(f, app))?;
        let done = keys_until(now + frame, Mode::Watch, |action| {
            for cmd in app.update(action) {
                // A closed channel means the trainer has stopped; quitting still works.
                let _ = tx.send(cmd);
            }
            app.quit || app.to_play
        })?;
        if done {
            return Ok(());
        }
    }
}

/// Lets a person play the machine; returns when they quit.
pub fn play<G: BoardView>(app: &mut PlayApp<G>) -> Result<()> {
    with_terminal(|terminal| play_loop(terminal, app))
}

fn play_loop<G: BoardView>(terminal: &mut DefaultTerminal, app: &mut PlayApp<G>) -> Result<()> {
    loop {
        suspend::if_asked(terminal)?;
        let size = terminal.size()?;
        app.browser.screen = (size.width, size.height);
        terminal.draw(|f| render::play(f, app))?;
        // Every key waiting is taken before the next frame (a paste of thousands of
        // characters is one frame, not thousands); a stop signal is looked at meanwhile.
        let mut wait = Duration::from_millis(100);
        while let Some(key) = input::next(wait)? {
            wait = Duration::ZERO;
            if !suspend_key(&key)
                && let Some(action) = action_for(key, Mode::Play)
            {
                app.update(action);
            }
            if app.quit {
                return Ok(());
            }
        }
    }
}

/// Runs `work` (building a big machine, solving its game) on its own thread. If it takes more
/// than a moment, the terminal shows what is being done and for how long, and `q`, Esc or Ctrl-C
/// stop the program at once (nothing has been trained yet, so nothing is lost). `stage` names
/// the step under way; `work` may update it.
pub fn preparing<T: Send>(
    what: &str,
    theme: theme::Theme,
    stage: &std::sync::Mutex<String>,
    work: impl FnOnce() -> T + Send,
) -> Result<T> {
    std::thread::scope(|scope| {
        let handle = scope.spawn(work);
        let started = Instant::now();
        while !handle.is_finished() && started.elapsed() < Duration::from_millis(400) {
            std::thread::sleep(Duration::from_millis(10));
        }
        // Without a terminal (a command refused once the work is done) there is nothing to draw.
        if !handle.is_finished() && has_terminal() {
            let stopped = with_terminal(|terminal| {
                let mut tick = 0usize;
                while !handle.is_finished() {
                    let doing = stage.lock().map(|s| s.clone()).unwrap_or_default();
                    let secs = started.elapsed().as_secs();
                    terminal.draw(|f| {
                        render::preparing(f, what, &doing, secs, tick);
                        theme.apply(f.buffer_mut());
                    })?;
                    tick += 1;
                    if let Some(key) = input::next(Duration::from_millis(100))?
                        && matches!(
                            action_for(key, Mode::Watch),
                            Some(app::Action::Quit | app::Action::Back | app::Action::Interrupt)
                        )
                    {
                        return Ok(true);
                    }
                }
                Ok(false)
            })?;
            if stopped {
                // The work cannot be interrupted; the terminal is restored, so leave now.
                eprintln!("stopped while preparing {what}");
                std::process::exit(0);
            }
        }
        handle
            .join()
            .map_err(|_| anyhow::anyhow!("preparing {what} failed"))
    })
}

/// A terminal key press as the screens' [`Key`].
/// Ctrl-Z: the screen suspends (raw mode delivers it as a key, not as a signal).
/// Reads keys until `next` (Ctrl-Z suspends), giving each key's action on screen `mode` to
/// `act`, which says whether the screen is done: then at once `true`.
fn keys_until(
    next: Instant,
    mode: Mode,
    mut act: impl FnMut(crate::view::key::Action) -> bool,
) -> Result<bool> {
    while let Some(wait) = next.checked_duration_since(Instant::now()) {
        let Some(key) = input::next(wait)? else {
            break;
        };
        if !suspend_key(&key)
            && let Some(action) = action_for(key, mode)
            && act(action)
        {
            return Ok(true);
        }
    }
    Ok(false)
}

fn suspend_key(key: &Key) -> bool {
    let z = key.code == KeyCode::Char('z') && key.ctrl;
    if z {
        suspend::ask();
    }
    z
}

fn key_of(key: event::KeyEvent) -> Key {
    use event::KeyCode as C;
    let code = match key.code {
        C::Char(c) => KeyCode::Char(c),
        C::Enter => KeyCode::Enter,
        C::Esc => KeyCode::Esc,
        C::Backspace => KeyCode::Backspace,
        C::Left => KeyCode::Left,
        C::Right => KeyCode::Right,
        C::Up => KeyCode::Up,
        C::Down => KeyCode::Down,
        C::PageUp => KeyCode::PageUp,
        C::PageDown => KeyCode::PageDown,
        C::Tab => KeyCode::Tab,
        _ => KeyCode::Other,
    };
    Key {
        code,
        ctrl: key.modifiers.contains(event::KeyModifiers::CONTROL),
    }
}
