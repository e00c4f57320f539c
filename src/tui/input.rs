//! The terminal's keys. On Unix the screens read the terminal's bytes themselves and decode them
//! as terminals do, with an escape time: a sequence left unfinished (`ESC [ ? 1049` from a pasted
//! log, a lone Esc) is given up after [`ESCAPE_TIME`], and a control key inside one (Ctrl-C)
//! breaks it. crossterm's decoder waits for ever for the end of some sequences (`ESC [ ?` ends
//! only at `u` or `c`), swallowing every key meanwhile; elsewhere (Windows, whose console gives
//! keys, not bytes) crossterm's events are used.

use std::collections::VecDeque;
use std::time::Duration;

use anyhow::Result;

use crate::view::key::{Key, KeyCode};

/// How long the rest of an escape sequence is waited for (tmux's default is 10 ms; a slow link
/// may split a sequence).
pub const ESCAPE_TIME: Duration = Duration::from_millis(50);

/// The longest escape sequence decoded; a longer one is given up.
const MAX_SEQUENCE: usize = 32;

/// Terminal bytes to keys: push bytes as they come, then [`Decoder::end_of_input`] when no more
/// are waiting, and [`Decoder::give_up`] when [`ESCAPE_TIME`] passed with a sequence unfinished.
#[derive(Debug, Default)]
pub struct Decoder {
    /// An escape sequence or a UTF-8 character begun and not finished.
    pending: Vec<u8>,
}

fn key(code: KeyCode) -> Key {
    Key { code, ctrl: false }
}

impl Decoder {
    /// Whether a sequence is begun and unfinished.
    pub fn pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Decodes one byte; the keys it completes go to `out`.
    pub fn push(&mut self, b: u8, out: &mut VecDeque<Key>) {
        match self.pending.first() {
            None => self.start(b, out),
            Some(0x1B) => self.escape(b, out),
            Some(_) => self.utf8(b, out),
        }
    }

    /// No more bytes are waiting now: a lone ESC is the Esc key (an escape sequence comes in one
    /// piece).
    pub fn end_of_input(&mut self, out: &mut VecDeque<Key>) {
        if self.pending == [0x1B] {
            self.pending.clear();
            out.push_back(key(KeyCode::Esc));
        }
    }

    /// The escape time passed: an unfinished sequence is given up (a lone ESC is the Esc key).
    pub fn give_up(&mut self, out: &mut VecDeque<Key>) {
        self.end_of_input(out);
        self.pending.clear();
    }

    fn start(&mut self, b: u8, out: &mut VecDeque<Key>) {
        let code = match b {
            0x1B => {
                self.pending.push(b);
                return;
            }
            b'\r' | b'\n' => KeyCode::Enter,
            b'\t' => KeyCode::Tab,
            0x7F | 0x08 => KeyCode::Backspace,
            0x01..=0x1A => {
                out.push_back(Key {
                    code: KeyCode::Char((b'a' + b - 1) as char),
                    ctrl: true,
                });
                return;
            }
            0x20..=0x7E => KeyCode::Char(b as char),
            0xC2..=0xF4 => {
                self.pending.push(b);
                return;
            }
            _ => KeyCode::Other,
        };
        out.push_back(key(code));
    }

    fn utf8(&mut self, b: u8, out: &mut VecDeque<Key>) {
        if b & 0xC0 != 0x80 {
            // Not a continuation: the character is broken; the byte starts afresh.
            self.pending.clear();
            return self.start(b, out);
        }
        self.pending.push(b);
        let want = match self.pending[0] {
            0xC2..=0xDF => 2,
            0xE0..=0xEF => 3,
            _ => 4,
        };
        if self.pending.len() == want {
            if let Some(c) = std::str::from_utf8(&self.pending)
                .ok()
                .and_then(|s| s.chars().next())
            {
                out.push_back(key(KeyCode::Char(c)));
            }
            self.pending.clear();
        }
    }

    fn escape(&mut self, b: u8, out: &mut VecDeque<Key>) {
        let p = &mut self.pending;
        if p.len() >= 2 && is_string(p[1]) {
            return self.string(b, out);
        }
        // The X10 mouse report, `ESC [ M` and three bytes of any value: read, and no key.
        if p.len() >= 3 && p[1] == b'[' && p[2] == b'M' {
            p.push(b);
            if p.len() == 6 {
                p.clear();
            }
            return;
        }
        match (p.len(), b) {
            // ESC ESC: the first was the Esc key.
            (1, 0x1B) => out.push_back(key(KeyCode::Esc)),
            (1, b'[' | b'O') => p.push(b),
            // A string sequence (OSC `ESC ]`, DCS, APC, PM, SOS): read to its end, no key.
            (1, _) if is_string(b) => p.push(b),
            (2, b'M') if p[1] == b'[' => p.push(b),
            // ESC and a key (Alt and the key, or Esc typed quickly before it): Esc, then it.
            (1, _) => {
                p.clear();
                out.push_back(key(KeyCode::Esc));
                self.start(b, out);
            }
            // SS3 (ESC O x): x ends it.
            (2, _) if p[1] == b'O' => {
                p.clear();
                if let Some(code) = ss3(b) {
                    out.push_back(key(code));
                }
            }
            // CSI: parameters and intermediates (0x20–0x3F), then a final byte (0x40–0x7E).
            (_, 0x40..=0x7E) => {
                if let Some(code) = csi(&p[2..], b) {
                    out.push_back(key(code));
                }
                p.clear();
            }
            (n, 0x20..=0x3F) if n < MAX_SEQUENCE => p.push(b),
            // Anything else (a control key, Ctrl-C) breaks the sequence and counts itself.
            _ => {
                p.clear();
                self.start(b, out);
            }
        }
    }
}

impl Decoder {
    /// A byte of a string sequence (a pasted clipboard write `ESC ] 52;c;… BEL`, a title): its
    /// text read and dropped, to BEL or `ESC \\`; another control key breaks it and counts
    /// itself, as in any sequence; ESC and anything but `\\` ends it and starts afresh.
    fn string(&mut self, b: u8, out: &mut VecDeque<Key>) {
        let p = &mut self.pending;
        let after_esc = p.len() == 3;
        match b {
            b'\\' if after_esc => p.clear(),
            _ if after_esc => {
                p.clear();
                self.start(0x1B, out);
                self.push(b, out);
            }
            0x07 => p.clear(),
            0x1B => p.push(b),
            0x00..=0x1F => {
                p.clear();
                self.start(b, out);
            }
            _ => {}
        }
    }
}

/// Whether `ESC x` begins a string sequence: OSC `]`, DCS `P`, SOS `X`, PM `^`, APC `_`.
fn is_string(x: u8) -> bool {
    matches!(x, b']' | b'P' | b'X' | b'^' | b'_')
}

/// The key of `ESC O x`.
fn ss3(x: u8) -> Option<KeyCode> {
    Some(match x {
        b'A' => KeyCode::Up,
        b'B' => KeyCode::Down,
        b'C' => KeyCode::Right,
        b'D' => KeyCode::Left,
        _ => return None,
    })
}

/// The key of `ESC [ params final`, if it is one the screens use.
fn csi(params: &[u8], last: u8) -> Option<KeyCode> {
    let first: Option<u32> = params
        .split(|&c| c == b';')
        .next()
        .and_then(|p| std::str::from_utf8(p).ok())
        .and_then(|p| p.parse().ok());
    if params
        .first()
        .is_some_and(|c| !c.is_ascii_digit() && *c != b';')
    {
        // Private sequences (`ESC [ ? …`, `ESC [ > …`) are answers and modes, not keys.
        return None;
    }
    Some(match (last, first) {
        (b'A', _) => KeyCode::Up,
        (b'B', _) => KeyCode::Down,
        (b'C', _) => KeyCode::Right,
        (b'D', _) => KeyCode::Left,
        (b'~', Some(5)) => KeyCode::PageUp,
        (b'~', Some(6)) => KeyCode::PageDown,
        _ => return None,
    })
}

/// The next key within `wait` (`None` if none came).
pub fn next(wait: Duration) -> Result<Option<Key>> {
    #[cfg(unix)]
    if let Some(reader) = tty::reader() {
        return Ok(reader.next(wait));
    }
    crossterm_next(wait)
}

/// A key from crossterm's events (where the terminal's bytes are not read here).
fn crossterm_next(wait: Duration) -> Result<Option<Key>> {
    use ratatui::crossterm::event::{self, Event, KeyEventKind};
    if !event::poll(wait)? {
        return Ok(None);
    }
    Ok(match event::read()? {
        Event::Key(k) if k.kind == KeyEventKind::Press => Some(super::key_of(k)),
        _ => Some(key(KeyCode::Other)),
    })
}

#[cfg(unix)]
mod tty {
    use std::collections::VecDeque;
    use std::io::Read;
    use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError, channel};
    use std::sync::{Mutex, OnceLock};
    use std::time::{Duration, Instant};

    use super::{Decoder, ESCAPE_TIME};
    use crate::view::key::Key;

    /// The terminal's bytes, read on a thread of their own (a blocking read of `/dev/tty`), and
    /// the keys decoded from them.
    pub(super) struct Reader {
        state: Mutex<State>,
    }

    struct State {
        bytes: Receiver<Vec<u8>>,
        decoder: Decoder,
        keys: VecDeque<Key>,
        /// When the unfinished sequence began.
        since: Option<Instant>,
    }

    /// The process's one reader, started at the first key asked for; `None` without a terminal.
    pub(super) fn reader() -> Option<&'static Reader> {
        static READER: OnceLock<Option<Reader>> = OnceLock::new();
        READER
            .get_or_init(|| {
                let mut tty = std::fs::File::open("/dev/tty").ok()?;
                let (tx, rx) = channel();
                std::thread::Builder::new()
                    .name("keys".into())
                    .spawn(move || {
                        let mut buf = [0u8; 4096];
                        while let Ok(n @ 1..) = tty.read(&mut buf) {
                            if tx.send(buf[..n].to_vec()).is_err() {
                                break;
                            }
                        }
                    })
                    .ok()?;
                Some(Reader {
                    state: Mutex::new(State {
                        bytes: rx,
                        decoder: Decoder::default(),
                        keys: VecDeque::new(),
                        since: None,
                    }),
                })
            })
            .as_ref()
    }

    impl Reader {
        pub(super) fn next(&self, wait: Duration) -> Option<Key> {
            let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
            let deadline = Instant::now() + wait;
            loop {
                if let Some(k) = s.keys.pop_front() {
                    return Some(k);
                }
                let now = Instant::now();
                if let Some(since) = s.since
                    && now >= since + ESCAPE_TIME
                {
                    let State { decoder, keys, .. } = &mut *s;
                    decoder.give_up(keys);
                    s.since = None;
                    continue;
                }
                // Bytes are waited for until the deadline, or the escape time's end if sooner.
                let until = s.since.map_or(deadline, |t| deadline.min(t + ESCAPE_TIME));
                let left = until.saturating_duration_since(now);
                let got = match left.is_zero() {
                    true => s.bytes.try_recv().map_err(|e| match e {
                        TryRecvError::Empty => RecvTimeoutError::Timeout,
                        TryRecvError::Disconnected => RecvTimeoutError::Disconnected,
                    }),
                    false => s.bytes.recv_timeout(left),
                };
                match got {
                    Ok(bytes) => s.take(&bytes),
                    Err(RecvTimeoutError::Disconnected) => {
                        // The terminal is gone: nothing will come.
                        std::thread::sleep(left);
                        return None;
                    }
                    Err(RecvTimeoutError::Timeout) if Instant::now() >= deadline => return None,
                    Err(RecvTimeoutError::Timeout) => {}
                }
            }
        }
    }

    impl State {
        fn take(&mut self, bytes: &[u8]) {
            for &b in bytes {
                self.decoder.push(b, &mut self.keys);
            }
            // More may already be waiting (a paste comes in pieces).
            while let Ok(more) = self.bytes.try_recv() {
                for &b in &more {
                    self.decoder.push(b, &mut self.keys);
                }
            }
            self.decoder.end_of_input(&mut self.keys);
            self.since = match (self.decoder.pending(), self.since) {
                (false, _) => None,
                (true, Some(t)) => Some(t),
                (true, None) => Some(Instant::now()),
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(bytes: &[u8]) -> Vec<Key> {
        let mut d = Decoder::default();
        let mut out = VecDeque::new();
        for &b in bytes {
            d.push(b, &mut out);
        }
        d.end_of_input(&mut out);
        out.into()
    }

    fn plain(c: char) -> Key {
        key(KeyCode::Char(c))
    }

    #[test]
    fn keys_and_sequences_decode() {
        assert_eq!(keys(b"q"), [plain('q')]);
        assert_eq!(keys(b"\x1b"), [key(KeyCode::Esc)]);
        assert_eq!(
            keys(b"\x1b[A\x1bOB"),
            [key(KeyCode::Up), key(KeyCode::Down)]
        );
        assert_eq!(
            keys(b"\x1b[5~\x1b[1;5C"),
            [key(KeyCode::PageUp), key(KeyCode::Right)]
        );
        assert_eq!(keys("é".as_bytes()), [plain('é')]);
        assert_eq!(
            keys(b"\x03"),
            [Key {
                code: KeyCode::Char('c'),
                ctrl: true
            }]
        );
    }

    #[test]
    fn a_pasted_terminal_mode_sequence_swallows_no_key() {
        assert_eq!(keys(b"\x1b[?1049lq"), [plain('q')]);
        assert_eq!(keys(b"\x1b[?1049hq"), [plain('q')]);
    }

    #[test]
    fn a_pasted_clipboard_write_or_mouse_report_types_nothing() {
        // OSC 52 (a clipboard write), ended by BEL, then by ST; a title; DCS.
        assert_eq!(keys(b"\x1b]52;c;aGVsbG8=\x07q"), [plain('q')]);
        assert_eq!(keys(b"\x1b]52;c;aGVsbG8=\x1b\\q"), [plain('q')]);
        assert_eq!(keys(b"\x1b]0;a title [with] ESC-free text\x07"), []);
        assert_eq!(keys(b"\x1bP1$r0m\x1b\\n"), [plain('n')]);
        // X10 mouse: ESC [ M and three bytes (spaces among them).
        assert_eq!(keys(b"\x1b[M !!q"), [plain('q')]);
        assert_eq!(keys(b"\x1b[M   \x1b[A"), [key(KeyCode::Up)]);
        // Ctrl-C still breaks a string sequence that never ends.
        let ctrl_c = Key {
            code: KeyCode::Char('c'),
            ctrl: true,
        };
        assert_eq!(keys(b"\x1b]52;c;aGVs\x03"), [ctrl_c]);
    }

    #[test]
    fn a_control_key_breaks_an_unfinished_sequence() {
        let ctrl_c = Key {
            code: KeyCode::Char('c'),
            ctrl: true,
        };
        assert_eq!(keys(b"\x1b[?1049\x03"), [ctrl_c]);
        assert_eq!(keys(b"\x1b[?1049\x1b"), [key(KeyCode::Esc)]);
    }

    #[test]
    fn an_unfinished_sequence_is_given_up_after_the_escape_time() {
        let mut d = Decoder::default();
        let mut out = VecDeque::new();
        for &b in b"\x1b[?1049" {
            d.push(b, &mut out);
        }
        d.end_of_input(&mut out);
        assert!(d.pending() && out.is_empty());
        d.give_up(&mut out);
        d.push(b'q', &mut out);
        assert_eq!(Vec::from(out), [plain('q')]);
    }
}
