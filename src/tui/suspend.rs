//! Suspending a screen (`kill -TSTP`, or Ctrl-Z): the terminal is given back to the shell before
//! the program stops, and taken again, redrawn in full, when it is continued (`fg`). The signal
//! only raises a flag; the screen's loop, which looks at it every frame, does the rest.

use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Result;
use ratatui::DefaultTerminal;

static ASKED: AtomicBool = AtomicBool::new(false);

#[cfg(unix)]
extern "C" fn on_stop(_: libc::c_int) {
    ASKED.store(true, Ordering::SeqCst);
}

/// From now on a stop signal (SIGTSTP) asks the screen to suspend rather than stopping the
/// program with the terminal in raw mode.
pub fn catch() {
    #[cfg(unix)]
    #[allow(unsafe_code)]
    // SAFETY: the handler only stores to an atomic flag, which is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGTSTP, on_stop as *const () as libc::sighandler_t);
    }
}

/// Asks the screen to suspend, as the signal does (Ctrl-Z, which raw mode delivers as a key).
pub fn ask() {
    ASKED.store(true, Ordering::SeqCst);
}

/// If a suspend was asked: the terminal given back, the program stopped until continued, the
/// terminal taken again and the next frame drawn in full.
pub fn if_asked(terminal: &mut DefaultTerminal) -> Result<()> {
    if !ASKED.swap(false, Ordering::SeqCst) {
        return Ok(());
    }
    ratatui::try_restore()?;
    #[cfg(unix)]
    #[allow(unsafe_code)]
    // SAFETY: raising SIGSTOP stops this process until a SIGCONT; no memory is touched.
    unsafe {
        libc::raise(libc::SIGSTOP);
    }
    *terminal = ratatui::try_init()?;
    terminal.clear()?;
    Ok(())
}
