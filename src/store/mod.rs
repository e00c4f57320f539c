//! YAML matchbox files: one file holds one learner (its settings, generator and every box with its
//! beads). Loading validates everything and reports the file and the key, line or box at fault;
//! saving is atomic (a temporary file in the same directory, then a rename).

use std::collections::HashSet;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_yaml::{Mapping, Value};
use thiserror::Error;

use crate::game::{Game, Side};
use crate::learn::engine::Machine;
use crate::learn::{Beads, BoxSet, Forced, RNG_NAME, Reinforcement, Rng, StageBeads, SymmetryMode};

#[derive(Debug, Error)]
pub enum StoreError {
    #[error("{path}: {message}")]
    Invalid { path: PathBuf, message: String },
    #[error("{path}: {err}")]
    Io { path: PathBuf, err: std::io::Error },
}

fn invalid(path: &Path, message: impl Into<String>) -> StoreError {
    StoreError::Invalid {
        path: path.to_path_buf(),
        message: message.into(),
    }
}

/// The file as written: settings first, then the boxes.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct MachineFile {
    game: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    size: Option<String>,
    side: String,
    symmetry: SymmetryMode,
    /// Whether positions with a single legal move have a box.
    #[serde(default = "include")]
    forced_moves: Forced,
    initial_beads: StageBeads,
    reinforcement: Reinforcement,
    rng: String,
    seed: u64,
    /// The generator's state, so a resumed run continues the same random stream.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rng_state: Option<Rng>,
    games_played: u64,
    boxes: Vec<BoxEntry>,
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

fn include() -> Forced {
    Forced::Include
}

/// What a file says about which game it holds, read before the game is built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileGame {
    pub game: String,
    pub size: Option<String>,
}

/// Reads a file from disk.
pub fn read(path: &Path) -> Result<String, StoreError> {
    fs::read_to_string(path).map_err(|err| StoreError::Io {
        path: path.to_path_buf(),
        err,
    })
}

fn parse_file(path: &Path, text: &str) -> Result<MachineFile, StoreError> {
    serde_yaml::from_str(text).map_err(|e| invalid(path, one_line(&e.to_string())))
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The game (and size) a matchbox file is for.
pub fn file_game(path: &Path, text: &str) -> Result<FileGame, StoreError> {
    let f = parse_file(path, text)?;
    Ok(FileGame {
        game: f.game,
        size: f.size,
    })
}

/// Serialises a machine. `size` is the game's size key, if the game has one.
pub fn to_yaml<G: Game>(game: &G, m: &Machine<G>, size: Option<String>) -> String {
    let boxes = m.boxes.as_ref();
    let file = MachineFile {
        game: game.name().to_string(),
        size,
        side: game.side_name(boxes.side()).to_string(),
        symmetry: boxes.mode(),
        forced_moves: boxes.forced(),
        initial_beads: m.initial.clone(),
        reinforcement: m.reinforcement,
        rng: RNG_NAME.to_string(),
        seed: m.seed,
        // A generator still at its seed's start is implied by the seed (and editing the seed of
        // such a file then does what one expects).
        rng_state: (m.rng != crate::learn::rng_from_seed(m.seed)).then(|| m.rng.clone()),
        games_played: m.games_played,
        boxes: boxes
            .boxes()
            .iter()
            .enumerate()
            .map(|(i, b)| BoxEntry {
                number: i + 1,
                move_number: b.move_number(),
                position: game.format_position(&b.position),
                arrows: b
                    .arrows
                    .iter()
                    .zip(m.beads_in(i))
                    .map(|(&a, n)| (Value::from(game.format_move(a)), Value::from(n.get())))
                    .collect(),
            })
            .collect(),
    };
    let body = serde_yaml::to_string(&file).expect("a machine always serialises");
    format!(
        "# matchbox learner: {} {}, {} boxes, {} arrows, {} beads left after {} games\n\
         # Bead counts may be edited by hand; `matchbox train {} --boxes FILE` resumes from here.\n{body}",
        game.name(),
        game.variant(),
        boxes.len(),
        boxes.arrow_count(),
        m.beads_left(),
        m.games_played,
        game.name()
    )
}

/// Loads and validates a machine for `game` from the text of `path`.
pub fn from_yaml<G: Game>(game: &G, path: &Path, text: &str) -> Result<Machine<G>, StoreError> {
    let f = parse_file(path, text)?;
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
    let set = Arc::new(BoxSet::build_with(game, side, f.symmetry, f.forced_moves));
    let mut m = Machine::new(Arc::clone(&set), f.initial_beads, f.reinforcement, f.seed);
    if let Some(rng) = f.rng_state {
        m.rng = rng;
    }
    m.games_played = f.games_played;

    let mut seen = HashSet::new();
    for entry in &f.boxes {
        let at = |msg: String| {
            invalid(
                path,
                format!("box {} ({}): {msg}", entry.number, entry.position),
            )
        };
        let pos = game
            .parse_position(&entry.position, side)
            .map_err(|e| at(e.to_string()))?;
        let Some(b) = set.find(&pos) else {
            let other = game.parse_position(&entry.position, side.other()).ok();
            let other_side = other.is_some_and(|p| {
                BoxSet::build_with(game, side.other(), f.symmetry, f.forced_moves)
                    .find(&p)
                    .is_some()
            });
            return Err(at(if other_side {
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
            }));
        };
        if !seen.insert(b) {
            return Err(at("duplicate box: this position already has a box".into()));
        }
        let expected = &set.get(b).arrows;
        let mut beads = vec![None; expected.len()];
        for (k, v) in &entry.arrows {
            let name = match k {
                Value::String(s) => s.clone(),
                other => format!("{other:?}"),
            };
            let mv = game
                .parse_move(&pos, &name)
                .map_err(|e| at(format!("arrow `{name}`: {e}")))?;
            let i = expected.iter().position(|&a| a == mv).ok_or_else(|| {
                at(format!(
                    "arrow `{name}` is legal but not an arrow of this box (symmetric moves share one arrow)"
                ))
            })?;
            let n = v
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| {
                    at(format!(
                        "arrow `{name}`: bead count must be a whole number from 0, found {}",
                        yaml_scalar(v)
                    ))
                })?;
            if beads[i].replace(Beads(n)).is_some() {
                return Err(at(format!("arrow `{name}` appears twice")));
            }
        }
        if let Some(i) = beads.iter().position(Option::is_none) {
            return Err(at(format!(
                "arrow `{}` is missing",
                game.format_move(expected[i])
            )));
        }
        let beads: Vec<Beads> = beads.into_iter().flatten().collect();
        m.set_beads(b, &beads);
        if entry.move_number != set.get(b).move_number() {
            return Err(at(format!(
                "key `move`: {} but this position is met at move {}",
                entry.move_number,
                set.get(b).move_number()
            )));
        }
    }
    if seen.len() != set.len() {
        let missing = (0..set.len()).find(|b| !seen.contains(b)).unwrap_or(0);
        return Err(invalid(
            path,
            format!(
                "key `boxes`: {} boxes, but the {} set for {} has {}; missing {}",
                f.boxes.len(),
                f.symmetry,
                game.side_name(side),
                set.len(),
                game.format_position(&set.get(missing).position)
            ),
        ));
    }
    Ok(m)
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

/// Checks, before any work is done, that `path` can be saved to: its directory exists.
pub fn check_writable(path: &Path) -> Result<(), StoreError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if path.is_dir() {
        return Err(invalid(path, "is a directory, not a file to save to"));
    }
    if !dir.is_dir() {
        return Err(invalid(
            path,
            format!("cannot save: no directory {}", dir.display()),
        ));
    }
    Ok(())
}

/// Writes `contents` to `path` atomically: a temporary file in the same directory, flushed to disk,
/// then renamed over the target. A failure leaves any existing file untouched.
pub fn save_atomic(path: &Path, contents: &str) -> Result<(), StoreError> {
    save_atomic_bytes(path, contents.as_bytes())
}

/// [`save_atomic`] for any bytes (charts, tables).
pub fn save_atomic_bytes(path: &Path, contents: &[u8]) -> Result<(), StoreError> {
    let io = |err| StoreError::Io {
        path: path.to_path_buf(),
        err,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| invalid(path, "not a file name"))?
        .to_string_lossy();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(contents)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map_err(io)
}
