//! The server's journal: what happens to connections and files (a wrong code, a flood, a bad
//! message, a save that failed), a line each with the seconds since the lesson began, in a file
//! beside the lesson's (`FILE.server.log`), so the teacher's terminal keeps its one status line
//! and nothing a pupil sends ever reaches it. Each line is quoted text (no escape sequence, no
//! bidirectional control) and cut to a thousand characters; a flood of lines is counted, not
//! written, past a hundred a second. Without a file (tests), lines go to standard error.

use std::io::Write;
use std::sync::Mutex;
use std::time::Instant;

struct Journal {
    file: Option<std::fs::File>,
    began: Instant,
    /// The second being written and its lines so far, and the lines left out.
    second: u64,
    lines: u32,
    dropped: u64,
}

static JOURNAL: Mutex<Option<Journal>> = Mutex::new(None);

/// The most lines written in one second.
const PER_SECOND: u32 = 100;

/// Writes the journal to `path` from now (appended to: a resumed lesson's follows its first).
pub fn to_file(path: &std::path::Path) -> std::io::Result<()> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    let mut j = JOURNAL.lock().unwrap_or_else(|e| e.into_inner());
    *j = Some(Journal {
        file: Some(file),
        began: Instant::now(),
        second: 0,
        lines: 0,
        dropped: 0,
    });
    Ok(())
}

/// One line in the journal (quoted: a pupil's text is shown, never obeyed).
pub fn note(line: &str) {
    let mut guard = JOURNAL.lock().unwrap_or_else(|e| e.into_inner());
    let j = guard.get_or_insert_with(|| Journal {
        file: None,
        began: Instant::now(),
        second: 0,
        lines: 0,
        dropped: 0,
    });
    let secs = j.began.elapsed().as_secs();
    if secs != j.second {
        if j.dropped > 0 {
            let said = format!("{:>6} s: ({} more lines left out)\n", j.second, j.dropped);
            write(j, &said);
        }
        (j.second, j.lines, j.dropped) = (secs, 0, 0);
    }
    if j.lines >= PER_SECOND {
        j.dropped += 1;
        return;
    }
    j.lines += 1;
    let said = format!("{secs:>6} s: {}\n", crate::text::quote_long(line));
    write(j, &said);
}

fn write(j: &mut Journal, text: &str) {
    match &mut j.file {
        Some(f) => {
            let _ = f.write_all(text.as_bytes());
        }
        None => eprint!("class: {text}"),
    }
}
