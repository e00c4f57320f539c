//! The server's journal: what happens to connections and files (a wrong code, a flood, a bad
//! message, a save that failed) as `tracing` events, written by `tracing-subscriber`'s formatter a
//! line each — the time since the server started, the level, the words and the fields — into a
//! file beside the lesson's (`FILE.server.log`), so the teacher's terminal keeps its one status
//! line and nothing a pupil sends ever reaches it. Each line is quoted text (no escape sequence,
//! no bidirectional control) cut to a thousand characters; a flood of lines is counted, not
//! written, past a hundred a second. Before [`to_file`] (in tests) events go nowhere.

use std::io::Write;
use std::sync::{Mutex, Once};
use std::time::Instant;

/// Where the journal's lines go, and how many were written this second.
struct Sink {
    file: Option<std::fs::File>,
    began: Instant,
    /// The second being written and its lines so far, and the lines left out.
    second: u64,
    lines: u32,
    dropped: u64,
}

static SINK: Mutex<Option<Sink>> = Mutex::new(None);

/// The most lines written in one second.
pub const PER_SECOND: u32 = 100;

/// Writes the journal to `path` from now (appended to: a resumed lesson's follows its first).
pub fn to_file(path: &std::path::Path) -> std::io::Result<()> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    let mut sink = SINK.lock().unwrap_or_else(|e| e.into_inner());
    *sink = Some(Sink {
        file: Some(file),
        began: Instant::now(),
        second: 0,
        lines: 0,
        dropped: 0,
    });
    drop(sink);
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let subscriber = tracing_subscriber::fmt()
            .with_ansi(false)
            .with_target(false)
            .with_timer(tracing_subscriber::fmt::time::uptime())
            .with_writer(|| Line)
            .finish();
        // Another subscriber already (a program embedding the server): it has the events.
        let _ = tracing::subscriber::set_global_default(subscriber);
    });
    Ok(())
}

/// One event's line, as the formatter hands it over: quoted, counted and written whole.
struct Line;

impl Write for Line {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let text = String::from_utf8_lossy(buf);
        let mut guard = SINK.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(sink) = guard.as_mut() {
            sink.line(text.trim_end_matches('\n'));
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Sink {
    fn line(&mut self, line: &str) {
        let secs = self.began.elapsed().as_secs();
        if secs != self.second {
            if self.dropped > 0 {
                let said = format!("({} more lines left out)\n", self.dropped);
                self.write(&said);
            }
            (self.second, self.lines, self.dropped) = (secs, 0, 0);
        }
        if self.lines >= PER_SECOND {
            self.dropped += 1;
            return;
        }
        self.lines += 1;
        let said = format!("{}\n", crate::text::quote_long(line));
        self.write(&said);
    }

    fn write(&mut self, text: &str) {
        if let Some(f) = &mut self.file {
            // One write a line: a line is whole or absent.
            let _ = f.write_all(text.as_bytes());
        }
    }
}
