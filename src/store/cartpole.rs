//! A BOXES machine of the cart-pole saved and loaded: YAML (the settings, the merit, then a line a
//! box: its push and its records) or binary (`.mbx`: the same numbers, bit for bit). The
//! generator's state is saved, so a machine loaded goes on as it would have.

#[cfg(feature = "native")]
use std::io::Read;
use std::path::Path;

#[cfg(feature = "native")]
use super::Format;
use super::StoreError;
use crate::cartpole::Push;
use crate::cartpole::boxes::{BOXES, Machine, Record, Settings};
use crate::rng::Rng;

/// The YAML file.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    game: String,
    learner: String,
    seed: u64,
    trials: u64,
    settings: Settings,
    /// The machine's merit: the trials' lengths and their count, aged.
    global_life: f64,
    global_usage: f64,
    rng_state: Rng,
    /// Box by box, from 0 as `pole.c` counts them.
    boxes: Vec<Saved>,
}

#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Saved {
    push: Push,
    #[serde(flatten)]
    record: Record,
}

/// The largest BOXES file read (one is about 30 kB of YAML, 5 kB binary).
#[cfg(feature = "native")]
const MAX_FILE: u64 = 1 << 20;

/// The binary file's first bytes (not those of a board game's machine: neither reads the other).
const MAGIC: &[u8; 8] = b"MBXBOXES";
/// Its length: the magic, seed, trials, four settings, the merit's two, the generator's 32 bytes,
/// then a box each: its push (a byte) and four numbers.
const BINARY_LEN: usize = 8 + 8 + 8 + 4 * 8 + 2 * 8 + 32 + BOXES * (1 + 4 * 8);

fn invalid(path: &Path, message: impl Into<String>) -> StoreError {
    StoreError::Invalid {
        path: path.to_path_buf(),
        message: message.into(),
    }
}

/// A BOXES machine as its YAML file says it.
pub fn boxes_yaml(m: &Machine) -> String {
    let file = File {
        game: crate::cartpole::CARTPOLE.name.into(),
        learner: "boxes".into(),
        seed: m.seed,
        trials: m.trials,
        settings: m.settings,
        global_life: m.global_life,
        global_usage: m.global_usage,
        rng_state: m.rng().clone(),
        boxes: (m.pushes.iter().zip(&m.records))
            .map(|(&push, &record)| Saved { push, record })
            .collect(),
    };
    // Plain numbers, strings and lists: nothing YAML cannot write.
    let text = serde_yaml::to_string(&file).unwrap_or_default();
    format!("# a BOXES machine of the cart-pole (matchbox)\n{text}")
}

/// Saves a BOXES machine, atomically.
#[cfg(feature = "native")]
pub fn save_boxes(path: &Path, m: &Machine) -> Result<(), StoreError> {
    let bytes = match Format::of(path) {
        Format::Binary => boxes_binary(m),
        Format::Yaml => boxes_yaml(m).into_bytes(),
    };
    super::save_atomic_bytes(path, &bytes)
}

/// A BOXES machine as its binary file (`.mbx`) holds it.
pub fn boxes_binary(m: &Machine) -> Vec<u8> {
    let mut out = Vec::with_capacity(BINARY_LEN);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&m.seed.to_le_bytes());
    out.extend_from_slice(&m.trials.to_le_bytes());
    let s = m.settings;
    for v in [s.dk, s.k, s.c0, s.c1, m.global_life, m.global_usage] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&m.rng().state());
    for (push, r) in m.pushes.iter().zip(&m.records) {
        out.push(u8::from(*push == Push::Right));
        for v in [r.left_life, r.left_usage, r.right_life, r.right_usage] {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    out
}

/// Loads a BOXES machine saved by [`save_boxes`], checking every number.
#[cfg(feature = "native")]
pub fn load_boxes(path: &Path) -> Result<Machine, StoreError> {
    let mut bytes = Vec::new();
    let io = |err| StoreError::Io {
        path: path.to_path_buf(),
        err,
    };
    let f = super::open(path)?;
    f.take(MAX_FILE + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > MAX_FILE {
        return Err(invalid(
            path,
            "more than 1 MB: not a BOXES machine (one is about 30 kB of YAML)",
        ));
    }
    boxes_from_bytes(path, &bytes)
}

/// A BOXES machine from the bytes of its file (YAML or binary), every number checked; `path`
/// names it in an error.
pub fn boxes_from_bytes(path: &Path, bytes: &[u8]) -> Result<Machine, StoreError> {
    let m = match bytes.starts_with(MAGIC) {
        true => from_binary(path, bytes)?,
        false => from_yaml(path, bytes)?,
    };
    check(path, &m)?;
    Ok(m)
}

fn from_yaml(path: &Path, bytes: &[u8]) -> Result<Machine, StoreError> {
    let text = std::str::from_utf8(bytes).map_err(|_| invalid(path, "not UTF-8 text"))?;
    let f: File = serde_yaml::from_str(text).map_err(|e| invalid(path, e.to_string()))?;
    if f.game != crate::cartpole::CARTPOLE.name || f.learner != "boxes" {
        return Err(invalid(
            path,
            format!(
                "game: {}, learner: {}: not a BOXES machine of the cart-pole",
                crate::text::quote(&f.game),
                crate::text::quote(&f.learner)
            ),
        ));
    }
    if f.boxes.len() != BOXES {
        return Err(invalid(
            path,
            format!("boxes: {} boxes, where BOXES has {BOXES}", f.boxes.len()),
        ));
    }
    let boxes = f.boxes.into_iter().map(|b| (b.push, b.record)).collect();
    let merit = (f.global_life, f.global_usage);
    Ok(Machine::from_parts(
        f.settings,
        f.seed,
        boxes,
        merit,
        f.trials,
        f.rng_state,
    ))
}

fn from_binary(path: &Path, bytes: &[u8]) -> Result<Machine, StoreError> {
    if bytes.len() != BINARY_LEN {
        return Err(invalid(
            path,
            format!(
                "{} bytes, where a BOXES machine has {BINARY_LEN}: cut short or not one",
                bytes.len()
            ),
        ));
    }
    let mut at = MAGIC.len();
    let mut take = |n: usize| {
        at += n;
        &bytes[at - n..at]
    };
    let word = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
    let (seed, trials) = (word(take(8)), word(take(8)));
    let mut num = [0.0; 6];
    num.iter_mut()
        .for_each(|v| *v = f64::from_bits(word(take(8))));
    let state: [u8; 32] = take(32).try_into().expect("32 bytes");
    let rng = <Rng as rand::SeedableRng>::from_seed(state);
    let mut boxes = Vec::with_capacity(BOXES);
    for b in 0..BOXES {
        let push = match take(1)[0] {
            0 => Push::Left,
            1 => Push::Right,
            other => {
                return Err(invalid(
                    path,
                    format!("box {b}: push byte {other}, not 0 or 1"),
                ));
            }
        };
        let mut r = [0.0; 4];
        r.iter_mut()
            .for_each(|v| *v = f64::from_bits(word(take(8))));
        let [left_life, left_usage, right_life, right_usage] = r;
        boxes.push((
            push,
            Record {
                left_life,
                left_usage,
                right_life,
                right_usage,
            },
        ));
    }
    let [dk, k, c0, c1, life, usage] = num;
    let settings = Settings { dk, k, c0, c1 };
    Ok(Machine::from_parts(
        settings,
        seed,
        boxes,
        (life, usage),
        trials,
        rng,
    ))
}

/// Every number a machine can work with: finite, lives and usages not negative, the ageing
/// from 0 to 1, the weight not negative, the generator able to draw.
fn check(path: &Path, m: &Machine) -> Result<(), StoreError> {
    let s = m.settings;
    let bad = |what: String| Err(invalid(path, what));
    if !(s.dk > 0.0 && s.dk <= 1.0) {
        return bad(format!(
            "settings: dk {}: the ageing is above 0 and at most 1",
            s.dk
        ));
    }
    if !(s.k >= 0.0 && s.k.is_finite() && s.c0.is_finite() && s.c1.is_finite()) {
        return bad("settings: k must be a number ≥ 0, c0 and c1 numbers".into());
    }
    let ok = |v: f64| v.is_finite() && v >= 0.0;
    if !(ok(m.global_life) && ok(m.global_usage)) {
        return bad("global_life, global_usage: numbers ≥ 0".into());
    }
    for (b, r) in m.records.iter().enumerate() {
        if ![r.left_life, r.left_usage, r.right_life, r.right_usage]
            .into_iter()
            .all(ok)
        {
            return bad(format!("box {b}: its lives and usages must be numbers ≥ 0"));
        }
    }
    if !crate::rng::is_usable(m.rng()) {
        return bad("rng_state: all zeros, a generator that draws nothing".into());
    }
    Ok(())
}
