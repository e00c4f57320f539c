//! The YAML machine file, read and written box by box. The settings come first, then `boxes:`,
//! a list of boxes; each box is read as a YAML document of its own (any YAML style within it) and
//! goes into the machine at once, so a load never holds the whole file, its text or a tree of it.

use std::borrow::Cow;
use std::io::{BufRead, Read, Write};
use std::path::Path;

use serde::Deserialize;

use super::loader::Loader;
use super::{BoxEntry, Header, StoreError, header_of, invalid, parse_yaml};
use crate::game::Game;
use crate::learn::Machine;
use crate::text::quote;

/// The longest line read (a box's line is some hundred bytes).
const MAX_LINE: u64 = 1 << 20;
/// The most text before `boxes:` (the settings are some hundred bytes).
const MAX_HEADER: usize = 1 << 20;
/// The most text of one box, or of boxes written as one flow list (`boxes: [...]`).
const MAX_BOX_TEXT: usize = 1 << 20;
const MAX_FLOW_TEXT: usize = 64 << 20;

/// Lines of a file, numbered from 1, each checked to be text of a bounded length.
struct Lines<'p, R> {
    input: R,
    path: &'p Path,
    number: usize,
    buf: Vec<u8>,
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
            return Err(invalid(
                self.path,
                format!("line {}: longer than {} bytes", self.number, MAX_LINE),
            ));
        }
        while matches!(self.buf.last(), Some(b'\n' | b'\r')) {
            self.buf.pop();
        }
        let line = std::str::from_utf8(&self.buf)
            .map_err(|_| invalid(self.path, format!("line {}: not UTF-8 text", self.number)))?;
        Ok(Some((self.number, line.to_string())))
    }
}

/// Reads a machine for `game` from YAML, box by box.
pub(super) fn read<G: Game>(
    game: &G,
    path: &Path,
    input: impl BufRead,
) -> Result<Machine<G>, StoreError> {
    let mut lines = Lines {
        input,
        path,
        number: 0,
        buf: Vec::new(),
    };
    let mut header = String::new();
    let mut boxes_at = None;
    while let Some((n, line)) = lines.next_line()? {
        if let Some(rest) = line.strip_prefix("boxes:") {
            boxes_at = Some((n, rest.to_string()));
            break;
        }
        header.push_str(&line);
        header.push('\n');
        if header.len() > MAX_HEADER {
            return Err(invalid(
                path,
                format!("line {n}: more than {MAX_HEADER} bytes of settings before `boxes:`"),
            ));
        }
    }
    let h: Header = parse_yaml(path, &header, 1)?;
    let Some((n, rest)) = boxes_at else {
        return Err(invalid(path, "missing field `boxes`"));
    };
    let mut loader = Loader::new(game, path, h)?;
    let rest = rest.split(" #").next().unwrap_or("").trim();
    if rest.is_empty() {
        block_list(&mut lines, &mut loader)?;
    } else {
        flow_list(&mut lines, &mut loader, n, rest)?;
    }
    loader.finish()
}

/// The boxes as a block list (`- box: 1` …, as this program writes them), a box at a time.
fn block_list<G: Game>(
    lines: &mut Lines<'_, impl BufRead>,
    loader: &mut Loader<'_, G>,
) -> Result<(), StoreError> {
    let path = lines.path;
    let mut chunk = String::new();
    let mut chunk_line = 0;
    let mut indent = None;
    while let Some((n, line)) = lines.next_line()? {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let at = line.len() - trimmed.len();
        let item = trimmed == "-" || trimmed.starts_with("- ");
        let i = *indent.get_or_insert(at);
        if at < i || (at == i && !item) || (chunk.is_empty() && !item) {
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
            one_box(loader, path, &chunk, chunk_line)?;
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
    if !chunk.is_empty() {
        one_box(loader, path, &chunk, chunk_line)?;
    }
    Ok(())
}

/// One box's text (`- box: …` and its lines), from the file's line `line`, into the machine.
fn one_box<G: Game>(
    loader: &mut Loader<'_, G>,
    path: &Path,
    text: &str,
    line: usize,
) -> Result<(), StoreError> {
    if let Some(entry) = quick_box(text) {
        return add(loader, &entry);
    }
    let entries: Vec<BoxEntry> = parse_yaml(path, text, line)?;
    for entry in entries {
        add(loader, &entry)?;
    }
    Ok(())
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
) -> Result<(), StoreError> {
    let path = lines.path;
    let mut text = format!("boxes: {first}\n");
    while let Some((_, l)) = lines.next_line()? {
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
    let flow: Flow = parse_yaml(path, &text, line)?;
    for entry in &flow.boxes {
        add(loader, entry)?;
    }
    Ok(())
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
