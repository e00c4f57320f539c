//! The YAML machine file, read and written box by box. The settings come first, then `boxes:`,
//! a list of boxes; each box is read as a YAML document of its own (any YAML style within it) and
//! goes into the machine at once, so a load never holds the whole file, its text or a tree of it.

use std::borrow::Cow;
use std::io::{BufRead, Read, Seek, SeekFrom, Write};
use std::path::Path;

use serde::Deserialize;

use super::loader::Loader;
use super::{BoxEntry, Header, StoreError, header_of, invalid, parse_yaml};
use crate::game::Game;
use crate::learn::Machine;
use crate::text::quote;

/// The longest line read (a box's line is some hundred bytes).
const MAX_LINE: u64 = 1 << 20;
/// The most text before `boxes:` (the settings are some hundred bytes; comments may be long).
const MAX_HEADER: usize = 64 << 20;
/// The most text of a file read as one document (not shaped as this program writes it).
const MAX_WHOLE_TEXT: usize = 16 << 20;
/// The most text of one box, or of boxes written as one flow list (`boxes: [...]`).
const MAX_BOX_TEXT: usize = 1 << 20;
const MAX_FLOW_TEXT: usize = 64 << 20;

/// Lines of a file, numbered from 1, each checked to be text of a bounded length.
struct Lines<'p, R> {
    input: R,
    path: &'p Path,
    number: usize,
    buf: Vec<u8>,
    /// Set when a line was too long to read a line at a time (a file on one line, or with old
    /// Mac line ends): such a file is read whole.
    long: bool,
}

impl<R: BufRead> Lines<'_, R> {
    fn next_line(&mut self) -> Result<Option<(usize, String)>, StoreError> {
        self.buf.clear();
        let read = (&mut self.input)
            .take(MAX_LINE + 1)
            .read_until(b'\n', &mut self.buf)
            .map_err(|err| StoreError::Io {
                path: self.path.to_path_buf(),
                err,
            })?;
        if read == 0 {
            return Ok(None);
        }
        self.number += 1;
        if self.buf.len() as u64 > MAX_LINE {
            self.long = true;
            return Err(invalid(
                self.path,
                format!("line {}: longer than {} bytes", self.number, MAX_LINE),
            ));
        }
        while matches!(self.buf.last(), Some(b'\n' | b'\r')) {
            self.buf.pop();
        }
        if self.buf.contains(&b'\r') {
            // Old Mac line ends (a CR alone): not lines this reader splits.
            self.long = true;
            return Err(invalid(
                self.path,
                format!("line {}: a carriage return inside a line", self.number),
            ));
        }
        let line = std::str::from_utf8(&self.buf)
            .map_err(|_| invalid(self.path, format!("line {}: not UTF-8 text", self.number)))?;
        Ok(Some((self.number, line.to_string())))
    }
}

/// Reads a machine for `game` from YAML: box by box where the file is shaped as this program
/// writes it (the settings, then `boxes:` at the start of a line), else — a document indented,
/// written as JSON, with anchors across boxes or old Mac line ends — as one YAML document (at
/// most [`MAX_WHOLE_TEXT`]). Either way the YAML parser has the last word on what the text says.
pub(super) fn read<G: Game>(
    game: &G,
    path: &Path,
    mut input: impl BufRead + Seek,
) -> Result<Machine<G>, StoreError> {
    let io = |err| StoreError::Io {
        path: path.to_path_buf(),
        err,
    };
    let len = input.seek(SeekFrom::End(0)).map_err(io)?;
    input.seek(SeekFrom::Start(0)).map_err(io)?;
    // A box takes some 30 bytes at the least (`{box: 1, move: 1, position: x, arrows: {}}`).
    let most = (len / 24) as usize;
    let reason = match stream(game, path, &mut input, most)? {
        Streamed::Read(m) => return Ok(m),
        Streamed::Whole(reason) => reason,
    };
    input.seek(SeekFrom::Start(0)).map_err(io)?;
    whole(game, path, input, reason)
}

/// How a box-by-box read ended: the machine, or the reason the file must be read whole.
enum Streamed<G: Game> {
    Read(Machine<G>),
    Whole(StoreError),
}

/// The box-by-box read: `Err` for what is wrong whatever the file's shape (a bad box, a setting
/// out of range), `Whole` where the text is not in the shape it reads.
fn stream<G: Game>(
    game: &G,
    path: &Path,
    input: impl BufRead,
    most: usize,
) -> Result<Streamed<G>, StoreError> {
    let mut lines = Lines {
        input,
        path,
        number: 0,
        buf: Vec::new(),
        long: false,
    };
    let mut header = String::new();
    let mut boxes_at = None;
    loop {
        let (n, line) = match lines.next_line() {
            Ok(Some(l)) => l,
            Ok(None) => break,
            Err(e @ StoreError::Invalid { .. }) if lines.long => return Ok(Streamed::Whole(e)),
            Err(e) => return Err(e),
        };
        if let Some(rest) = line.strip_prefix("boxes:") {
            boxes_at = Some((n, rest.to_string()));
            break;
        }
        header.push_str(&line);
        header.push('\n');
        if header.len() > MAX_HEADER {
            return Err(invalid(
                path,
                format!(
                    "line {n}: more than {} of settings and comments before `boxes:`",
                    crate::text::bytes(MAX_HEADER as u64)
                ),
            ));
        }
    }
    let Some((n, rest)) = boxes_at else {
        return Ok(Streamed::Whole(invalid(path, "missing field `boxes`")));
    };
    // Text that is not YAML on its own (`boxes:` inside a flow map, say) is read whole; settings
    // that are YAML but wrong are refused here, with their line.
    if let Err(e) = parse_yaml::<serde_yaml::Value>(path, &header, 1) {
        return Ok(Streamed::Whole(e));
    }
    let h: Header = parse_yaml(path, &header, 1)?;
    let mut loader = Loader::new(game, path, h, most)?;
    let rest = rest.split(" #").next().unwrap_or("").trim();
    let listed = if rest.is_empty() {
        block_list(&mut lines, &mut loader)?
    } else {
        flow_list(&mut lines, &mut loader, n, rest)?
    };
    Ok(match listed {
        Listed::Read => Streamed::Read(loader.finish()?),
        Listed::NotYaml(e) => Streamed::Whole(e),
    })
}

/// How the boxes' text read: every box into the machine, or a piece the YAML parser refused on
/// its own (it may be YAML as part of the whole: an alias of an anchor in an earlier box).
enum Listed {
    Read,
    NotYaml(StoreError),
}

/// The file read as one YAML document (at most [`MAX_WHOLE_TEXT`]; a bigger file is refused
/// with `reason`, why it could not be read box by box).
fn whole<G: Game>(
    game: &G,
    path: &Path,
    input: impl BufRead,
    reason: StoreError,
) -> Result<Machine<G>, StoreError> {
    let mut bytes = Vec::new();
    input
        .take(MAX_WHOLE_TEXT as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|err| StoreError::Io {
            path: path.to_path_buf(),
            err,
        })?;
    if bytes.len() > MAX_WHOLE_TEXT {
        return Err(reason);
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let line = 1 + e.as_bytes()[..e.utf8_error().valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        invalid(path, format!("line {line}: not UTF-8 text"))
    })?;
    let value: serde_yaml::Value = parse_yaml(path, &text, 1)?;
    let serde_yaml::Value::Mapping(mut map) = value else {
        return Err(invalid(
            path,
            "not a machine: a machine file is a map of settings with its `boxes`",
        ));
    };
    let boxes = map
        .remove("boxes")
        .ok_or_else(|| invalid(path, "missing field `boxes`"))?;
    let header: Header = from_value(path, "", serde_yaml::Value::Mapping(map))?;
    let entries: Vec<BoxEntry> = from_value(path, "boxes", boxes)?;
    let mut loader = Loader::new(game, path, header, entries.len())?;
    for entry in &entries {
        add(&mut loader, entry)?;
    }
    loader.finish()
}

/// A parsed value as `T`, the key at fault named (under `under`).
fn from_value<T: serde::de::DeserializeOwned>(
    path: &Path,
    under: &str,
    value: serde_yaml::Value,
) -> Result<T, StoreError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let key = match (under, e.path().to_string()) {
            (u, k) if k.is_empty() || k == "." => u.to_string(),
            ("", k) => k,
            (u, k) if k.starts_with('[') => format!("{u}{k}"),
            (u, k) => format!("{u}.{k}"),
        };
        let inner = crate::text::quote_at_most(&e.inner().to_string(), 300);
        match key.is_empty() {
            true => invalid(path, inner),
            false => invalid(path, format!("key `{key}`: {inner}")),
        }
    })
}

/// The boxes as a block list (`- box: 1` …, as this program writes them), a box at a time.
fn block_list<G: Game>(
    lines: &mut Lines<'_, impl BufRead>,
    loader: &mut Loader<'_, G>,
) -> Result<Listed, StoreError> {
    let path = lines.path;
    let mut chunk = String::new();
    let mut chunk_line = 0;
    let mut indent = None;
    loop {
        let (n, line) = match lines.next_line() {
            Ok(Some(l)) => l,
            Ok(None) => break,
            Err(e @ StoreError::Invalid { .. }) if lines.long => return Ok(Listed::NotYaml(e)),
            Err(e) => return Err(e),
        };
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let at = line.len() - trimmed.len();
        let item = trimmed == "-" || trimmed.starts_with("- ");
        let i = *indent.get_or_insert(at);
        if at < i || (at == i && !item) || (chunk.is_empty() && !item) {
            if trimmed == "..." || trimmed == "---" || trimmed.starts_with("--- ") {
                // The end of the document, or another: the parser's to say.
                let what = format!(
                    "line {n}: `{trimmed}` (a YAML document's end or start) where a box was expected"
                );
                return Ok(Listed::NotYaml(invalid(path, what)));
            }
            let key = trimmed.split(':').next().unwrap_or(trimmed);
            return Err(invalid(
                path,
                format!(
                    "line {n}: `{}` where a box (`- box: …`) was expected; the settings come before `boxes:`",
                    quote(key)
                ),
            ));
        }
        if at == i && item && !chunk.is_empty() {
            if let Some(e) = one_box(loader, path, &chunk, chunk_line)? {
                return Ok(Listed::NotYaml(e));
            }
            chunk.clear();
        }
        if chunk.is_empty() {
            chunk_line = n;
        }
        chunk.push_str(&line[i..]);
        chunk.push('\n');
        if chunk.len() > MAX_BOX_TEXT {
            return Err(invalid(
                path,
                format!("line {chunk_line}: a box of more than {MAX_BOX_TEXT} bytes"),
            ));
        }
    }
    if !chunk.is_empty()
        && let Some(e) = one_box(loader, path, &chunk, chunk_line)?
    {
        return Ok(Listed::NotYaml(e));
    }
    Ok(Listed::Read)
}

/// One box's text (`- box: …` and its lines), from the file's line `line`, into the machine.
/// `Ok(Some(error))` where the text is not YAML on its own.
fn one_box<G: Game>(
    loader: &mut Loader<'_, G>,
    path: &Path,
    text: &str,
    line: usize,
) -> Result<Option<StoreError>, StoreError> {
    if let Some(entry) = quick_box(text) {
        return add(loader, &entry).map(|()| None);
    }
    if let Err(e) = parse_yaml::<serde_yaml::Value>(path, text, line) {
        return Ok(Some(e));
    }
    let entries: Vec<BoxEntry> = parse_yaml(path, text, line)?;
    for entry in entries {
        add(loader, &entry)?;
    }
    Ok(None)
}

/// A box's text read at once where it is exactly as this program writes it (plain or simply
/// quoted names, whole numbers); anything else (`None`) goes to the YAML parser, which reads
/// every YAML and says what is wrong.
fn quick_box(text: &str) -> Option<BoxEntry> {
    let mut lines = text.lines();
    let number = lines.next()?.strip_prefix("- box: ")?.parse().ok()?;
    let move_number = lines.next()?.strip_prefix("  move: ")?.parse().ok()?;
    let position = unquoted(lines.next()?.strip_prefix("  position: ")?)?;
    if lines.next()? != "  arrows:" {
        return None;
    }
    let mut arrows = serde_yaml::Mapping::new();
    for l in lines {
        let (name, beads) = l.strip_prefix("    ")?.split_once(": ")?;
        let name = unquoted(name)?;
        if beads.is_empty() || beads.len() > 10 || !beads.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let beads: u64 = beads.parse().ok()?;
        let key = serde_yaml::Value::String(name);
        if arrows.insert(key, serde_yaml::Value::from(beads)).is_some() {
            // A name twice: the parser's path says so.
            return None;
        }
    }
    Some(BoxEntry {
        number,
        move_number,
        position,
        arrows,
    })
}

/// A scalar as this program writes it: plain (as [`scalar`] leaves it), or in single quotes with
/// none inside.
fn unquoted(text: &str) -> Option<String> {
    if let Some(inner) = text.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')) {
        return (!inner.contains('\'') && inner.chars().all(|c| c == ' ' || c.is_ascii_graphic()))
            .then(|| inner.to_string());
    }
    matches!(scalar(text), Cow::Borrowed(_)).then(|| text.to_string())
}

fn add<G: Game>(loader: &mut Loader<'_, G>, entry: &BoxEntry) -> Result<(), StoreError> {
    let game = loader.game();
    let pos = game
        .parse_position(&entry.position, loader.side())
        .map_err(|e| loader.box_error(entry.number, &entry.position, e.to_string()))?;
    loader.add(
        entry.number,
        &entry.position,
        pos,
        entry.move_number,
        |pos, expected| entry.beads(game, pos, expected),
    )
}

/// The boxes as one flow list (`boxes: [ … ]`, from the file's line `line`), read whole (a hand-
/// written file; at most [`MAX_FLOW_TEXT`]).
fn flow_list<G: Game>(
    lines: &mut Lines<'_, impl BufRead>,
    loader: &mut Loader<'_, G>,
    line: usize,
    first: &str,
) -> Result<Listed, StoreError> {
    let path = lines.path;
    let mut text = format!("boxes: {first}\n");
    loop {
        let l = match lines.next_line() {
            Ok(Some((_, l))) => l,
            Ok(None) => break,
            Err(e @ StoreError::Invalid { .. }) if lines.long => return Ok(Listed::NotYaml(e)),
            Err(e) => return Err(e),
        };
        text.push_str(&l);
        text.push('\n');
        if text.len() > MAX_FLOW_TEXT {
            return Err(invalid(
                path,
                format!(
                    "line {line}: boxes written as one list of more than {MAX_FLOW_TEXT} bytes; write one box a line (`- box: 1`)"
                ),
            ));
        }
    }
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Flow {
        boxes: Vec<BoxEntry>,
    }
    if let Err(e) = parse_yaml::<serde_yaml::Value>(path, &text, line) {
        return Ok(Listed::NotYaml(e));
    }
    let flow: Flow = parse_yaml(path, &text, line)?;
    for entry in &flow.boxes {
        add(loader, entry)?;
    }
    Ok(Listed::Read)
}

/// Writes a machine as YAML, box by box.
pub(super) fn write<G: Game>(
    out: &mut impl Write,
    game: &G,
    m: &Machine<G>,
    size: Option<String>,
) -> std::io::Result<()> {
    let boxes = m.boxes.as_ref();
    writeln!(
        out,
        "# matchbox learner: {} {}, {} boxes, {} arrows, {} beads left after {} games",
        game.name(),
        game.variant(),
        boxes.len(),
        boxes.arrow_count(),
        m.beads_left(),
        m.games_played
    )?;
    writeln!(
        out,
        "# Bead counts may be edited by hand; `matchbox train {} --boxes FILE` resumes from here.",
        game.name()
    )?;
    let header = serde_yaml::to_string(&header_of(game, m, size)).expect("settings serialise");
    out.write_all(header.as_bytes())?;
    if boxes.is_empty() {
        return writeln!(out, "boxes: []");
    }
    writeln!(out, "boxes:")?;
    for i in 0..boxes.len() {
        let pos = game.format_position(&boxes.position(i));
        write!(
            out,
            "- box: {}\n  move: {}\n  position: {}\n  arrows:",
            i + 1,
            boxes.move_number(i),
            scalar(&pos)
        )?;
        let arrows = boxes.arrows(i);
        if arrows.is_empty() {
            writeln!(out, " {{}}")?;
            continue;
        }
        writeln!(out)?;
        for (&a, n) in arrows.iter().zip(m.beads_in(i)) {
            writeln!(out, "    {}: {}", scalar(&game.format_move(a)), n.get())?;
        }
    }
    Ok(())
}

/// A string as a YAML scalar, as the YAML library writes it: plain where that reads back as the
/// same string (the usual case, checked here quickly), else as the library quotes it.
fn scalar(s: &str) -> Cow<'_, str> {
    let mut chars = s.chars();
    let first_ok = match chars.next() {
        Some(c) if c.is_ascii_alphabetic() => true,
        // `../.../..` (Havannah), but not `.5`, `.inf` or `...` (the end of a document).
        Some('.') => match (chars.next(), chars.next()) {
            (Some('/'), _) => true,
            (Some('.'), Some(c)) => c != '.',
            (Some(c), _) if c.is_ascii_alphabetic() => {
                !matches!(s.to_ascii_lowercase().as_str(), ".inf" | ".nan")
            }
            _ => false,
        },
        _ => false,
    };
    let plain = first_ok
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '_' | '-'))
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "y" | "n" | "yes" | "no" | "true" | "false" | "on" | "off" | "null"
        )
        && s.parse::<f64>().is_err();
    if plain {
        Cow::Borrowed(s)
    } else {
        let text = serde_yaml::to_string(s).expect("a string serialises");
        Cow::Owned(text.trim_end_matches('\n').to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::scalar;

    /// What the YAML library writes for `s`, on its own.
    fn library(s: &str) -> String {
        serde_yaml::to_string(s)
            .unwrap()
            .trim_end_matches('\n')
            .to_string()
    }

    #[test]
    fn scalars_are_written_as_the_yaml_library_writes_them() {
        // The games' own positions and moves are checked in tests/store.rs, whole files at once.
        let all: Vec<String> = [
            "...",
            "..",
            ".",
            "---",
            "-a",
            ".5",
            ".inf",
            "../...",
            "./x",
            "y",
            "Y",
            "n",
            "no",
            "On",
            "null",
            "Null",
            "~",
            "1",
            "1e5",
            "0x1f",
            "inf",
            "nan",
            "a1",
            "b1-b2",
            "a: b",
            "a #b",
            "a,b",
            "",
            " a",
            "a ",
            "é",
            "x",
            "true",
            "swap",
            "12:30",
            "a/b",
            "_a",
            ".WB/...W/WWWBB",
            ".Inf",
            ".NaN",
            ".INF",
            ".nan",
            ".B",
            ".a",
            ".W.",
            "..W",
            ".b5",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for s in &all {
            assert_eq!(scalar(s), library(s), "{s:?}");
        }
    }
}
