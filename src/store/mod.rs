//! YAML matchbox files: one file holds one learner (its settings, generator and every box with its
//! beads). Loading validates everything and reports the file and the key, line or box at fault.
//! This module reads and writes the text; [`files`] (with the `native` feature) reads files from
//! disk and saves them atomically (a temporary file in the same directory, then a rename).

mod binary;
mod cartpole;
pub use cartpole::{boxes_binary, boxes_from_bytes, boxes_yaml};
#[cfg(feature = "native")]
pub use cartpole::{load_boxes, save_boxes};
#[cfg(feature = "native")]
mod claim;
#[cfg(feature = "native")]
pub use claim::beside;
#[cfg(feature = "native")]
mod files;
mod loader;
mod yaml;
#[cfg(feature = "native")]
pub use files::*;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_yaml::{Mapping, Value};
use thiserror::Error;

use crate::game::{Game, Side};
use crate::learn::{
    Beads, BoxSet, Forced, MAX_BOX_BEADS, Machine, MatchBox, Reinforcement, StageBeads,
    SymmetryMode,
};
use crate::rng::{RNG_NAME, Rng, is_usable, rng_from_seed};
use crate::text::quote;

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("{path}: {message}")]
    Invalid { path: PathBuf, message: String },
    #[error("{path}: {err}")]
    Io { path: PathBuf, err: std::io::Error },
    /// The file changed since this run read it: it was not replaced, the machine went beside.
    #[error(
        "{path}: changed since this run read it (another run or program saved it there), so it was not replaced; this run's machine is saved in {} instead",
        quote(&.kept.display().to_string())
    )]
    Changed { path: PathBuf, kept: PathBuf },
}

fn invalid(path: &Path, message: impl Into<String>) -> StoreError {
    StoreError::Invalid {
        path: path.to_path_buf(),
        message: message.into(),
    }
}

/// A file's settings, written before its boxes (the same in the YAML and the binary format).
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    game: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    size: Option<String>,
    side: String,
    symmetry: SymmetryMode,
    /// Whether positions with a single legal move have a box.
    #[serde(default = "include")]
    forced_moves: Forced,
    /// `table`: every box of the machine is in the file; `lazy`: only the boxes it has made.
    #[serde(default, skip_serializing_if = "is_table")]
    engine: FileEngine,
    initial_beads: StageBeads,
    reinforcement: Reinforcement,
    rng: String,
    #[serde(deserialize_with = "whole_number")]
    seed: u64,
    /// The generator's state, so a resumed run continues the same random stream.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rng_state: Option<Rng>,
    #[serde(deserialize_with = "whole_number")]
    games_played: u64,
}

/// A count or a seed as YAML may write a whole number: `20`, `-0`, `+20`, `!!int "20"`, `0x14`
/// (a valid YAML integer is read as one, not refused as "integer, expected u64").
fn whole_number<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    struct Whole;
    impl serde::de::Visitor<'_> for Whole {
        type Value = u64;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a whole number from 0 to 18446744073709551615")
        }
        fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<u64, E> {
            Ok(v)
        }
        fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<u64, E> {
            u64::try_from(v).map_err(|_| E::custom(format!("{v} is below 0")))
        }
        fn visit_u128<E: serde::de::Error>(self, v: u128) -> Result<u64, E> {
            u64::try_from(v).map_err(|_| E::custom(format!("{v} is too big")))
        }
        fn visit_i128<E: serde::de::Error>(self, v: i128) -> Result<u64, E> {
            u64::try_from(v).map_err(|_| E::custom(format!("{v} is out of range")))
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<u64, E> {
            let t = v.trim().trim_start_matches('+');
            let n = match t.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16).ok(),
                None => t.parse().ok().or((t == "-0").then_some(0)),
            };
            n.ok_or_else(|| E::custom(format!("`{v}` is not a whole number")))
        }
    }
    d.deserialize_any(Whole)
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct BoxEntry {
    #[serde(rename = "box")]
    number: usize,
    #[serde(rename = "move")]
    move_number: u16,
    position: String,
    /// Arrow (move in the game's notation) → beads.
    arrows: Mapping,
}

/// A box as the YAML holds it.
impl BoxEntry {
    /// Its beads, arrow by arrow in the order of `expected` (the box it must be).
    fn beads<G: Game>(
        &self,
        game: &G,
        pos: &G::Position,
        expected: &MatchBox<G>,
    ) -> Result<Vec<Beads>, String> {
        entry_beads(game, self, pos, expected)
    }
}

fn include() -> Forced {
    Forced::Include
}

/// How a file's boxes were made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
enum FileEngine {
    #[default]
    Table,
    Lazy,
}

fn is_table(e: &FileEngine) -> bool {
    *e == FileEngine::Table
}

/// The largest matchbox file read (a machine of some millions of boxes).
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// What a file says about which game it holds, read before the game is built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileGame {
    pub game: String,
    pub size: Option<String>,
}

/// Flow collections (`[…]`, `{…}`) nested deeper than this are refused before parsing.
pub const MAX_NESTING: usize = 64;

/// Refuses text whose flow collections nest deeper than [`MAX_NESTING`], at once: a parser takes
/// quadratic time on such files. One pass over the text as YAML reads it: brackets inside quoted
/// scalars (which may span lines; `''` and `\"` escaped) and comments (`#` after a space) do not
/// count; a quote starts a scalar only where a scalar may start (`it's` is plain text).
fn check_nesting(path: &Path, text: &str, first_line: usize) -> Result<(), StoreError> {
    let (mut depth, mut line) = (0usize, first_line);
    let mut quote: Option<char> = None;
    // The character before, and the last one that was not a space (on this line).
    let (mut prev, mut last) = ('\n', '\n');
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (_, '\n') => line += 1,
            // `''` inside single quotes is a quote; one alone closes.
            (Some('\''), '\'') if chars.next_if_eq(&'\'').is_none() => quote = None,
            (Some('"'), '\\') => line += usize::from(chars.next() == Some('\n')),
            (Some('"'), '"') => quote = None,
            (Some(_), _) => {}
            (None, '#') if prev.is_whitespace() => {
                // A comment, to the end of the line.
                if chars.by_ref().any(|c| c == '\n') {
                    line += 1;
                }
                (prev, last) = ('\n', '\n');
                continue;
            }
            (None, '\'' | '"') if starts_scalar(prev, last) => quote = Some(c),
            (None, '[' | '{') => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(invalid(
                        path,
                        format!(
                            "line {line}: lists or maps nested more than {MAX_NESTING} levels deep"
                        ),
                    ));
                }
            }
            (None, ']' | '}') => depth = depth.saturating_sub(1),
            _ => {}
        }
        if c == '\n' {
            last = '\n';
        } else if !c.is_whitespace() {
            last = c;
        }
        prev = c;
    }
    Ok(())
}

/// Whether a quote after `prev` (the character before) and `last` (the last one not a space, or
/// a line's start) starts a quoted scalar: at a line's start, after a flow bracket or comma, or
/// after a space that follows `:`, `-` or `?`.
fn starts_scalar(prev: char, last: char) -> bool {
    matches!(prev, '[' | '{' | ',' | '\n')
        || (prev.is_whitespace() && matches!(last, '\n' | ':' | '-' | '?' | '[' | '{' | ','))
}

/// Reads YAML text of `T` (the header, or a box), naming the key at fault; `line` is the file's
/// line the text starts on.
fn parse_yaml<T: serde::de::DeserializeOwned>(
    path: &Path,
    text: &str,
    line: usize,
) -> Result<T, StoreError> {
    check_nesting(path, text, line)?;
    let de = serde_yaml::Deserializer::from_str(text);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let key = e.path().to_string();
        let message = at_line_column(&e.inner().to_string(), text);
        let inner = one_line(&at_file_line(&message, line));
        // The parser may name the key itself.
        let inner = inner
            .strip_prefix(&format!("{key}: "))
            .map(str::to_string)
            .unwrap_or(inner);
        if key.is_empty() || key == "." {
            invalid(path, inner)
        } else {
            invalid(path, format!("key `{key}`: {inner}"))
        }
    })
}

/// A parser's message that places a fault by its byte (` at position N`, for a control character)
/// placed by its line and column in `text` instead, as the parser's other messages are.
fn at_line_column(message: &str, text: &str) -> String {
    let Some((head, n)) = message
        .rsplit_once(" at position ")
        .and_then(|(h, n)| Some((h, n.trim().parse::<usize>().ok()?)))
    else {
        return message.to_string();
    };
    let before = text.get(..n.min(text.len())).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    format!("{head} at line {line} column {column}")
}

/// A parser's message with its line (` at line N column C`) counted from the file's start, where
/// the text read began at the file's line `line`.
fn at_file_line(message: &str, line: usize) -> String {
    let Some(i) = message.rfind(" at line ") else {
        return message.to_string();
    };
    let rest = &message[i + " at line ".len()..];
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    match rest[..digits].parse::<usize>() {
        Ok(n) => format!(
            "{} at line {}{}",
            &message[..i],
            n + line - 1,
            &rest[digits..]
        ),
        Err(_) => message.to_string(),
    }
}

/// A parser's message on one line, control characters escaped, at most 300 characters.
fn one_line(s: &str) -> String {
    crate::text::quote_at_most(&s.split_whitespace().collect::<Vec<_>>().join(" "), 300)
}

/// The game (and size) a matchbox file is for, from its settings, as the YAML parser reads them
/// (quoted keys, tags, flow style and all): the text before `boxes:` at a line's start where
/// that is YAML of its own, else the whole text (the whole file is read, with every check, by
/// [`read_machine`]).
pub fn file_game(path: &Path, text: &str) -> Result<FileGame, StoreError> {
    #[derive(Deserialize)]
    struct Settings {
        game: String,
        #[serde(default)]
        size: Option<String>,
    }
    let settings = |text: &str| parse_yaml::<Settings>(path, text, 1);
    let head = text
        .match_indices('\n')
        .map(|(i, _)| i + 1)
        .find(|&i| text[i..].starts_with("boxes:"))
        .map(|i| &text[..i]);
    let found = match head.map(|h| (h, parse_yaml::<Value>(path, h, 1))) {
        Some((head, Ok(v))) if v.get("game").is_none() => {
            return Err(settings_after_boxes(path, text, head));
        }
        Some((head, Ok(_))) => settings(head)?,
        _ => settings(text)?,
    };
    Ok(FileGame {
        game: found.game,
        size: found.size,
    })
}

/// The boxes listed before the settings: said so, with where each is (the settings are read
/// first, so a machine's game is known before its boxes).
fn settings_after_boxes(path: &Path, text: &str, head: &str) -> StoreError {
    let line_of = |at: usize| text[..at].matches('\n').count() + 1;
    let boxes = line_of(head.len());
    let game = (text.match_indices("\ngame:").map(|(i, _)| i + 1))
        .find(|&i| i > head.len())
        .map(|i| format!(", where `game:` is at line {}", line_of(i)))
        .unwrap_or_default();
    invalid(
        path,
        format!(
            "the settings (game:, side:, …) must come before the boxes: `boxes:` is at line {boxes}{game}; move the settings to the top"
        ),
    )
}

/// The game (and size) a machine file in `format` is for, from its settings alone (`input` read
/// no further than `boxes:`, or to its end when the settings are not before such a line).
pub fn read_file_game_from(
    path: &Path,
    format: Format,
    mut input: impl std::io::BufRead + std::io::Seek,
) -> Result<FileGame, StoreError> {
    use std::io::{BufRead, Read};
    let text = match format {
        Format::Binary => binary::header_text(path, input)?,
        Format::Yaml => {
            binary_named_yaml(path, &mut input)?;
            // The lines before `boxes:` (at most 16 MB of them), then the rest if those are not
            // YAML of their own; at most 16 MB in all.
            let mut bytes = Vec::new();
            let mut line = Vec::new();
            let mut head_done = false;
            while bytes.len() < 16 << 20 {
                line.clear();
                let n = (&mut input)
                    .take(1 << 20)
                    .read_until(b'\n', &mut line)
                    .map_err(|err| StoreError::Io {
                        path: path.to_path_buf(),
                        err,
                    })?;
                if n == 0 {
                    break;
                }
                if !head_done && line.starts_with(b"boxes:") {
                    let head = String::from_utf8_lossy(&bytes);
                    // Settings of their own (else read on: they may follow the boxes).
                    let settings = parse_yaml::<Value>(path, &head, 1);
                    if settings.is_ok_and(|v| v.get("game").is_some()) {
                        break;
                    }
                    head_done = true;
                }
                bytes.extend_from_slice(&line);
            }
            String::from_utf8_lossy(&bytes).into_owned()
        }
    };
    file_game(path, &text)
}

/// A machine's settings as a file's header. `size` is the game's size key, if the game has one.
fn header_of<G: Game>(game: &G, m: &Machine<G>, size: Option<String>) -> Header {
    let boxes = m.boxes.as_ref();
    Header {
        game: game.name().to_string(),
        size,
        side: game.side_name(boxes.side()).to_string(),
        symmetry: boxes.mode(),
        forced_moves: boxes.forced(),
        engine: if boxes.is_lazy() {
            FileEngine::Lazy
        } else {
            FileEngine::Table
        },
        initial_beads: m.initial.clone(),
        reinforcement: m.reinforcement,
        rng: RNG_NAME.to_string(),
        seed: m.seed,
        // A generator still at its seed's start is implied by the seed (and editing the seed of
        // such a file then does what one expects).
        rng_state: (m.rng != rng_from_seed(m.seed)).then(|| m.rng.clone()),
        games_played: m.games_played,
    }
}

/// A machine as YAML text. `size` is the game's size key, if the game has one.
pub fn to_yaml<G: Game>(game: &G, m: &Machine<G>, size: Option<String>) -> String {
    let mut out = Vec::new();
    yaml::write(&mut out, game, m, size).expect("writing to memory does not fail");
    String::from_utf8(out).expect("YAML is text")
}

/// A machine's settings alone as YAML, without its boxes: all a fresh machine is (its boxes
/// are those the settings enumerate, each at its initial beads).
pub fn settings_to_yaml<G: Game>(game: &G, m: &Machine<G>, size: Option<String>) -> String {
    serde_yaml::to_string(&header_of(game, m, size)).expect("settings are YAML")
}

/// The fresh machine of settings written by [`settings_to_yaml`] (`path` names them in errors).
pub fn fresh_from_settings<G: Game>(
    game: &G,
    path: &Path,
    text: &str,
) -> Result<Machine<G>, StoreError> {
    let header: Header = parse_yaml(path, text, 1)?;
    loader::Loader::new(game, path, header, usize::MAX)?.fresh()
}

/// Loads and validates a machine for `game` from the YAML text of `path`.
pub fn from_yaml<G: Game>(game: &G, path: &Path, text: &str) -> Result<Machine<G>, StoreError> {
    yaml::read(game, path, std::io::Cursor::new(text.as_bytes()))
}

/// The two formats of a machine file, chosen by its extension: YAML (a teacher reads and edits
/// it) and binary (`.mbx`: compact and fast, for machines of millions of boxes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Yaml,
    Binary,
}

impl Format {
    /// The format of a file named `path`: binary for `.mbx`, YAML otherwise.
    pub fn of(path: &Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case(binary::EXTENSION) => Format::Binary,
            _ => Format::Yaml,
        }
    }
}

/// Writes a machine in `format`, box by box.
pub fn write_machine<G: Game>(
    out: &mut impl std::io::Write,
    format: Format,
    game: &G,
    m: &Machine<G>,
    size: Option<String>,
) -> std::io::Result<()> {
    match format {
        Format::Yaml => yaml::write(out, game, m, size),
        Format::Binary => binary::write(out, game, m, size),
    }
}

/// Reads and checks a machine for `game` in `format` from `input`, box by box (`path` names the
/// file in errors).
pub fn read_machine<G: Game>(
    game: &G,
    path: &Path,
    format: Format,
    input: impl std::io::BufRead + std::io::Seek,
) -> Result<Machine<G>, StoreError> {
    let mut input = input;
    match format {
        Format::Yaml => {
            binary_named_yaml(path, &mut input)?;
            yaml::read(game, path, input)
        }
        Format::Binary => binary::read(game, path, input),
    }
}

/// A binary machine file (it starts with `MATCHBOX`) named as a YAML one, said as such.
fn binary_named_yaml(path: &Path, input: &mut impl std::io::BufRead) -> Result<(), StoreError> {
    let head = input.fill_buf().map_err(|err| StoreError::Io {
        path: path.to_path_buf(),
        err,
    })?;
    match head.starts_with(b"MATCHBOX") {
        true => Err(invalid(
            path,
            "a binary machine file (it starts with MATCHBOX) named as YAML: rename it to .mbx",
        )),
        false => Ok(()),
    }
}

/// Checks a file's header against `game`: the game, the side, the generator, the engine. Returns
/// the learner's side and whether the machine is lazy.
fn check_header<G: Game>(game: &G, path: &Path, f: &Header) -> Result<(Side, bool), StoreError> {
    if f.game != game.name() {
        return Err(invalid(
            path,
            format!(
                "key `game`: file is for `{}`, expected `{}`",
                f.game,
                game.name()
            ),
        ));
    }
    let side = game.parse_side(&f.side).ok_or_else(|| {
        invalid(
            path,
            format!(
                "key `side`: `{}` is not a side of {} (use {}, {}, first or second)",
                f.side,
                game.name(),
                game.side_name(Side::First),
                game.side_name(Side::Second)
            ),
        )
    })?;
    if f.rng != RNG_NAME {
        return Err(invalid(
            path,
            format!(
                "key `rng`: unknown generator `{}` (expected {RNG_NAME})",
                f.rng
            ),
        ));
    }
    if let Some(rng) = &f.rng_state
        && !is_usable(rng)
    {
        return Err(invalid(
            path,
            "key `rng_state`: an all-zero generator state gives only zeros; delete the key to restart from the seed",
        ));
    }
    let lazy = f.engine == FileEngine::Lazy;
    if !lazy && !crate::game::enumerable(game) {
        return Err(invalid(
            path,
            format!(
                "key `size`: {} {} is too big to enumerate every box; only a lazy machine (`engine: lazy`) can play it",
                game.name(),
                game.variant()
            ),
        ));
    }
    Ok((side, lazy))
}

/// The box a file's entry must be: the enumerated set's box for its position (a table
/// machine), or a box made for it (a lazy machine).
fn expected_box<G: Game>(
    game: &G,
    f: &Header,
    side: Side,
    full_set: Option<&BoxSet<G>>,
    (text, move_number, pos): (&str, u16, &G::Position),
) -> Result<MatchBox<G>, String> {
    let Some(set) = full_set else {
        return lazy_box(game, side, f.symmetry, f.forced_moves, pos, move_number);
    };
    if let Some(b) = set.find(pos) {
        return Ok(set.get(b));
    }
    let other = game.parse_position(text, side.other()).ok();
    let other_side = other.is_some_and(|p| {
        BoxSet::build_with(game, side.other(), f.symmetry, f.forced_moves)
            .find(&p)
            .is_some()
    });
    Err(if other_side {
        format!(
            "wrong side: a position for {}, but this file's learner plays {}",
            game.side_name(side.other()),
            game.side_name(side)
        )
    } else {
        format!(
            "not a position the {} learner meets with symmetry {} (unreachable, or not in the mode's frame)",
            game.side_name(side),
            f.symmetry
        )
    })
}

/// The beads of each arrow of `expected` (a box for `pos`) that the entry gives: every arrow
/// once, each count from 0 to [`MAX_BOX_BEADS`], the box at most that in all.
fn entry_beads<G: Game>(
    game: &G,
    entry: &BoxEntry,
    pos: &G::Position,
    expected: &MatchBox<G>,
) -> Result<Vec<Beads>, String> {
    let arrows = &expected.arrows;
    let names: Vec<String> = arrows.iter().map(|&a| game.format_move(a)).collect();
    let mut beads = vec![None; arrows.len()];
    let mut total = 0u64;
    for (k, v) in &entry.arrows {
        let name = match k {
            Value::String(s) => quote(s),
            Value::Number(n) => n.to_string(),
            other => yaml_scalar(other),
        };
        // The arrow written as this program writes it, found without parsing; any other
        // spelling is parsed (and a wrong one said why).
        let written = names.iter().position(|n| *n == name);
        let i = match written {
            Some(i) => Some(i),
            None => {
                let mv = game
                    .parse_move(pos, &name)
                    .map_err(|e| format!("arrow `{name}`: {e}"))?;
                arrows.iter().position(|&a| a == mv)
            }
        };
        let i = i.ok_or_else(|| {
            format!(
                "arrow `{name}` is legal but not an arrow of this box (symmetric moves share one arrow)"
            )
        })?;
        let n = v
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .filter(|&n| n <= MAX_BOX_BEADS)
            .ok_or_else(|| {
                format!(
                    "arrow `{name}`: bead count must be a whole number from 0 to {MAX_BOX_BEADS}, found {}",
                    yaml_scalar(v)
                )
            })?;
        total += n as u64;
        if beads[i].replace(Beads(n)).is_some() {
            return Err(format!("arrow `{name}` appears twice"));
        }
    }
    if total > MAX_BOX_BEADS as u64 {
        return Err(format!(
            "{total} beads in one box: a box may hold at most {MAX_BOX_BEADS}"
        ));
    }
    if let Some(i) = beads.iter().position(Option::is_none) {
        return Err(format!(
            "arrow `{}` is missing",
            game.format_move(arrows[i])
        ));
    }
    Ok(beads.into_iter().flatten().collect())
}

/// Whether `pos` is a position where the learner playing `side` moves (and so may have a box).
fn needs_a_box<G: Game>(game: &G, side: Side, pos: &G::Position) -> Result<(), String> {
    if game.to_move(pos) != side {
        return Err(format!(
            "wrong side: {} is to move here, but this file's learner plays {}",
            game.side_name(game.to_move(pos)),
            game.side_name(side)
        ));
    }
    if game.outcome(pos).is_some() {
        return Err("the game is over in this position: it needs no box".into());
    }
    Ok(())
}

/// The box a lazy machine would have made for `pos`, checked on its own: a position where the
/// learner is to move and has a choice, seen in the mode's frame.
fn lazy_box<G: Game>(
    game: &G,
    side: Side,
    mode: SymmetryMode,
    forced: Forced,
    pos: &G::Position,
    move_number: u16,
) -> Result<MatchBox<G>, String> {
    needs_a_box(game, side, pos)?;
    let moves = game.moves(pos);
    if forced == Forced::Skip && moves.len() == 1 {
        return Err("a single legal move, and this machine skips forced moves".into());
    }
    if mode == SymmetryMode::Full && game.canonical(pos).0 != *pos {
        return Err(format!(
            "not in the canonical frame of symmetry full (it would be {})",
            game.format_position(&game.canonical(pos).0)
        ));
    }
    if move_number == 0 {
        return Err("key `move`: moves count from 1".into());
    }
    if let Some(plies) = game.plies_played(pos)
        && u32::from(move_number) != plies + 1
    {
        return Err(format!(
            "key `move`: {move_number} but this position, after {plies} plies, is met at move {}",
            plies + 1
        ));
    }
    let ply = move_number - 1;
    Ok(MatchBox {
        ply,
        stage: ply / 2,
        position: pos.clone(),
        arrows: mode.arrows(game, pos).into(),
    })
}

fn yaml_scalar(v: &Value) -> String {
    match v {
        Value::Number(n) => n.to_string(),
        Value::String(s) => format!("`{s}`"),
        Value::Null => "nothing".into(),
        Value::Bool(b) => b.to_string(),
        _ => "a list or mapping".into(),
    }
}
