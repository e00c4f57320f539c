//! The binary machine file (`.mbx`), for machines of millions of boxes: the same settings as the
//! YAML (as YAML text in a header), then the boxes packed, then a SHA-256 checksum of all that
//! comes before it. Read and written box by box, checked as the YAML is.
//!
//! ```text
//! "MATCHBOX"                     8 bytes
//! version                        u16 (1)
//! positions                      u8: 1 packed in a 64-bit word (games that pack), 0 as text
//! settings                       u32 length, then that many bytes of YAML (the YAML file's keys)
//! boxes                          u64 count, then per box:
//!   move number                  u16
//!   position                     u64 packed, or u32 length and UTF-8 text
//!   arrows                       u16 count, then u32 beads per arrow, in the box's arrow order
//! checksum                       32 bytes: SHA-256 of every byte before it
//! ```
//! Numbers are little-endian.

use std::io::{BufRead, Read, Seek, SeekFrom, Write};
use std::path::Path;

use sha2::{Digest, Sha256};

use super::loader::Loader;
use super::{Header, StoreError, header_of, invalid, parse_yaml};
use crate::game::Game;
use crate::learn::{Beads, Machine};

/// The extension that chooses this format.
pub const EXTENSION: &str = "mbx";
const MAGIC: &[u8; 8] = b"MATCHBOX";
const VERSION: u16 = 1;
/// The most bytes of settings, and of one position written as text.
const MAX_HEADER: u32 = 1 << 20;
const MAX_POSITION: u32 = 1 << 16;

/// A writer that hashes what it writes.
struct Hashing<W> {
    out: W,
    hash: Sha256,
}

impl<W: Write> Hashing<W> {
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.hash.update(bytes);
        self.out.write_all(bytes)
    }
}

/// Writes a machine in the binary format, box by box.
pub(super) fn write<G: Game>(
    out: &mut impl Write,
    game: &G,
    m: &Machine<G>,
    size: Option<String>,
) -> std::io::Result<()> {
    let boxes = m.boxes.as_ref();
    let packed = game.pack(&game.start()).is_some();
    let header = serde_yaml::to_string(&header_of(game, m, size)).expect("settings serialise");
    let mut w = Hashing {
        out,
        hash: Sha256::new(),
    };
    w.put(MAGIC)?;
    w.put(&VERSION.to_le_bytes())?;
    w.put(&[u8::from(packed)])?;
    w.put(&(header.len() as u32).to_le_bytes())?;
    w.put(header.as_bytes())?;
    w.put(&(boxes.len() as u64).to_le_bytes())?;
    let mut record = Vec::new();
    for i in 0..boxes.len() {
        record.clear();
        record.extend_from_slice(&boxes.move_number(i).to_le_bytes());
        let pos = boxes.position(i);
        match game.pack(&pos).filter(|_| packed) {
            Some(word) => record.extend_from_slice(&word.to_le_bytes()),
            None => {
                let text = game.format_position(&pos);
                record.extend_from_slice(&(text.len() as u32).to_le_bytes());
                record.extend_from_slice(text.as_bytes());
            }
        }
        let beads = m.beads_in(i);
        record.extend_from_slice(&(beads.len() as u16).to_le_bytes());
        for n in beads {
            record.extend_from_slice(&n.get().to_le_bytes());
        }
        w.put(&record)?;
    }
    let sum = w.hash.finalize();
    w.out.write_all(&sum)
}

/// A reader that names the file in its errors.
struct Reading<'p, R> {
    input: R,
    path: &'p Path,
    /// What is being read, for the error if the file ends in it.
    reading: String,
}

impl<R: BufRead> Reading<'_, R> {
    fn bytes<const N: usize>(&mut self) -> Result<[u8; N], StoreError> {
        let mut buf = [0u8; N];
        self.fill(&mut buf)?;
        Ok(buf)
    }
    fn fill(&mut self, buf: &mut [u8]) -> Result<(), StoreError> {
        self.input.read_exact(buf).map_err(|err| {
            if err.kind() == std::io::ErrorKind::UnexpectedEof {
                invalid(
                    self.path,
                    format!("the file ends in {}: it is cut short", self.reading),
                )
            } else {
                StoreError::Io {
                    path: self.path.to_path_buf(),
                    err,
                }
            }
        })?;
        Ok(())
    }
    fn u16(&mut self) -> Result<u16, StoreError> {
        Ok(u16::from_le_bytes(self.bytes()?))
    }
    fn u32(&mut self) -> Result<u32, StoreError> {
        Ok(u32::from_le_bytes(self.bytes()?))
    }
    fn u64(&mut self) -> Result<u64, StoreError> {
        Ok(u64::from_le_bytes(self.bytes()?))
    }
    /// `len` bytes of text (at most `max`), what `what` names.
    fn text(&mut self, len: u32, max: u32, what: &str) -> Result<String, StoreError> {
        if len > max {
            return Err(invalid(
                self.path,
                format!("{what} of {len} bytes: more than {max}; the file is damaged"),
            ));
        }
        let mut buf = vec![0u8; len as usize];
        self.fill(&mut buf)?;
        String::from_utf8(buf).map_err(|_| {
            invalid(
                self.path,
                format!("{what} is not UTF-8 text; the file is damaged"),
            )
        })
    }
}

impl<R: BufRead> Reading<'_, R> {
    /// The magic, the version, the position encoding and the settings' text.
    fn header(&mut self) -> Result<(u8, String), StoreError> {
        if &self.bytes::<8>()? != MAGIC {
            return Err(not_binary(self.path));
        }
        let version = self.u16()?;
        if version != VERSION {
            return Err(invalid(
                self.path,
                format!("binary format version {version}: this matchbox reads version {VERSION}"),
            ));
        }
        let packed = self.bytes::<1>()?[0];
        let len = self.u32()?;
        Ok((packed, self.text(len, MAX_HEADER, "the settings")?))
    }
}

/// Checks a binary file's checksum before anything in it is read (so a damaged file is called
/// damaged, not blamed on what the damage made of its contents), and leaves `input` at its start.
/// Returns where the boxes' bytes end (the checksum's offset).
fn check_sum(path: &Path, input: &mut (impl BufRead + Seek)) -> Result<u64, StoreError> {
    let io = |err| StoreError::Io {
        path: path.to_path_buf(),
        err,
    };
    let len = input.seek(SeekFrom::End(0)).map_err(io)?;
    input.seek(SeekFrom::Start(0)).map_err(io)?;
    let mut magic = [0u8; 8];
    let got = input.by_ref().take(8).read(&mut magic).map_err(io)?;
    if got < 8 && MAGIC.starts_with(&magic[..got]) {
        return Err(invalid(path, "the file is cut short (in its first bytes)"));
    }
    if &magic != MAGIC {
        return Err(not_binary(path));
    }
    // The smallest file: magic, version, encoding, settings' length, box count, checksum.
    let Some(body) = len.checked_sub(32).filter(|&b| b >= 8 + 2 + 1 + 4 + 8) else {
        return Err(invalid(
            path,
            "the file is cut short (too small to hold a machine)",
        ));
    };
    let mut hash = Sha256::new();
    hash.update(magic);
    let mut left = body - 8;
    let mut buf = vec![0u8; 1 << 16];
    while left > 0 {
        let n = input
            .read(&mut buf[..left.min(1 << 16) as usize])
            .map_err(io)?;
        if n == 0 {
            return Err(invalid(path, "the file is cut short"));
        }
        hash.update(&buf[..n]);
        left -= n as u64;
    }
    let mut stored = [0u8; 32];
    input.read_exact(&mut stored).map_err(io)?;
    if stored[..] != hash.finalize()[..] {
        return Err(invalid(
            path,
            "the checksum does not match: the file is damaged (cut short, added to, or changed by hand: edit the YAML instead)",
        ));
    }
    input.seek(SeekFrom::Start(0)).map_err(io)?;
    Ok(body)
}

fn not_binary(path: &Path) -> StoreError {
    invalid(
        path,
        "not a binary matchbox file (it does not start with MATCHBOX); a YAML machine is a .yaml file",
    )
}

/// The settings of a binary file, as YAML text (for the game it is for, before it is read); the
/// checksum is checked first.
pub(super) fn header_text(
    path: &Path,
    mut input: impl BufRead + Seek,
) -> Result<String, StoreError> {
    check_sum(path, &mut input)?;
    let mut r = Reading {
        input,
        path,
        reading: "its header".into(),
    };
    Ok(r.header()?.1)
}

/// Reads a machine for `game` from the binary format: the checksum first, then box by box.
pub(super) fn read<G: Game>(
    game: &G,
    path: &Path,
    mut input: impl BufRead + Seek,
) -> Result<Machine<G>, StoreError> {
    let body = check_sum(path, &mut input)?;
    let mut r = Reading {
        input,
        path,
        reading: "its header".into(),
    };
    let (packed, text) = r.header()?;
    let packed = match packed {
        0 => false,
        1 if game.pack(&game.start()).is_some() => true,
        _ => return Err(invalid(path, "bad position encoding; the file is damaged")),
    };
    let header: Header = parse_yaml(path, &text, 1)
        .map_err(|e| invalid(path, format!("settings: {}", strip_path(&e, path))))?;
    let count = r.u64()?;
    // Each box takes at least 12 bytes (its move number, a packed position, an arrow count).
    let room = body.saturating_sub(8 + 2 + 1 + 4 + text.len() as u64 + 8) / 12;
    if count > room {
        return Err(invalid(
            path,
            format!(
                "{} boxes claimed, more than the file's {} bytes can hold; the file is damaged",
                crate::text::group(count),
                crate::text::group(body + 32)
            ),
        ));
    }
    let mut loader = Loader::new(game, path, header, count as usize)?;
    for number in 1..=count {
        r.reading = format!("box {number}");
        let move_number = r.u16()?;
        let (pos, label) = if packed {
            let word = r.u64()?;
            let Some(p) = game.unpack(word) else {
                return Err(invalid(
                    path,
                    format!("box {number}: {word:#x} packs no position; the file is damaged"),
                ));
            };
            // Checked as a position written as text is (stones that could not stand so, a
            // game already won).
            let label = game.format_position(&p);
            let pos = game
                .parse_position(&label, game.to_move(&p))
                .map_err(|e| loader.box_error(number as usize, &label, e.to_string()))?;
            (pos, label)
        } else {
            let len = r.u32()?;
            let label = r.text(len, MAX_POSITION, &format!("box {number}'s position"))?;
            let pos = game
                .parse_position(&label, loader.side())
                .map_err(|e| loader.box_error(number as usize, &label, e.to_string()))?;
            (pos, label)
        };
        let arrows = r.u16()? as usize;
        let mut counts = Vec::with_capacity(arrows);
        for _ in 0..arrows {
            counts.push(Beads(r.u32()?));
        }
        loader.add(number as usize, &label, pos, move_number, |_, expected| {
            let want = expected.arrows.len();
            if want != arrows {
                return Err(format!(
                    "{arrows} bead counts for a box of {want} arrows; the file is damaged"
                ));
            }
            let total: u64 = counts.iter().map(|n| n.get() as u64).sum();
            if total > crate::learn::MAX_BOX_BEADS as u64 {
                return Err(format!(
                    "{total} beads in one box: a box may hold at most {}",
                    crate::learn::MAX_BOX_BEADS
                ));
            }
            Ok(counts)
        })?;
    }
    let at = r.input.stream_position().map_err(|err| StoreError::Io {
        path: path.to_path_buf(),
        err,
    })?;
    if at != body {
        return Err(invalid(
            path,
            "bytes between the last box and the checksum: the file is damaged",
        ));
    }
    loader.finish()
}

/// An error's message without its `path: ` prefix.
fn strip_path(e: &StoreError, path: &Path) -> String {
    let text = e.to_string();
    text.strip_prefix(&format!("{}: ", path.display()))
        .map(str::to_string)
        .unwrap_or(text)
}
