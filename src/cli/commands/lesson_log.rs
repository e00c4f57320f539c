//! A class lesson's log as a file: its first line the machine the lesson began with (a fresh
//! machine by its settings alone, a loaded one whole), then one event a line. Read by `class --resume` and `class --replay`, and by `film --lesson`.

use std::path::Path;

use super::*;
use crate::learn::Machine;
use crate::learn::lesson::{Event, Lesson, LessonSpec};

/// The first line of a lesson's log: the machine as the lesson began and the lesson's settings,
/// so the log replays on its own as the lesson it was.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Began {
    /// A machine loaded from a file: its YAML, whole.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    began: Option<String>,
    /// A fresh machine: its settings' YAML alone (every box at its initial beads: a line of
    /// some hundred bytes, where the whole of a 5×5 Hexapawn machine is 65 MB), and the digest
    /// of its beads, which the machine built again from them must have.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fresh: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    digest: Option<String>,
    /// The opponent of the class's game (`perfect`, `random`) [perfect: a log from before it
    /// was kept].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) opponent: Option<String>,
    /// The perfect player's tie-break and the engine [the defaults].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) tie_break: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) engine: Option<String>,
}

impl Began {
    /// The first line for a lesson of `spec` beginning with `machine` (`fresh`: made from
    /// settings, not loaded).
    #[cfg_attr(not(feature = "class"), allow(dead_code))]
    pub(super) fn of<G: FullGame>(
        spec: &LessonSpec<G>,
        game: &G,
        machine: &Machine<G>,
        fresh: bool,
    ) -> Began {
        let (size, at_start) = (game.size_key(), machine.games_played == 0);
        let (began, fresh, digest) = if fresh && at_start {
            let settings = store::settings_to_yaml(game, machine, size);
            (None, Some(settings), Some(machine.digest()))
        } else {
            (Some(store::to_yaml(game, machine, size)), None, None)
        };
        Began {
            began,
            fresh,
            digest,
            opponent: Some(spec.spec.opponent.kind().to_string()),
            tie_break: Some(spec.spec.tie_break.to_string()),
            engine: Some(spec.spec.engine.to_string()),
        }
    }

    /// The machine this line names (`name`: the log's).
    fn machine<G: FullGame>(&self, game: &G, name: &Path) -> Result<Machine<G>> {
        let text = name.display();
        match (&self.began, &self.fresh) {
            (Some(yaml), None) => Ok(store::from_yaml(game, name, yaml)?),
            (None, Some(settings)) => {
                let m = store::fresh_from_settings(game, name, settings)?;
                let digest = m.digest();
                if self.digest.as_ref().is_some_and(|d| *d != digest) {
                    bail!(
                        "{text}: line 1: the settings make a machine of other beads (digest {digest}) than the lesson began with ({}): a log of another version of matchbox",
                        self.digest.as_deref().unwrap_or_default()
                    );
                }
                Ok(m)
            }
            _ => bail!(
                "{text}: line 1: the machine the lesson began with: `began` (a machine) or `fresh` (its settings), one of them"
            ),
        }
    }

    /// The lesson this line began: `machine` with the settings it names.
    fn spec<G: FullGame>(&self, machine: Machine<G>, name: &str) -> Result<LessonSpec<G>> {
        let bad = |key: &str, e: String| anyhow::anyhow!("{name}: line 1: {key}: {e}");
        let mut spec = LessonSpec::of(machine);
        if let Some(o) = &self.opponent {
            let kind: crate::players::Opponent = o.parse().map_err(|e| bad("opponent", e))?;
            spec.spec.opponent = crate::learn::Rival::Player(kind);
        }
        if let Some(t) = &self.tie_break {
            spec.spec.tie_break = t.parse().map_err(|e: String| bad("tie_break", e))?;
        }
        if let Some(e) = &self.engine {
            spec.spec.engine = e
                .parse()
                .map_err(|e: crate::learn::LearnError| bad("engine", e.to_string()))?;
        }
        Ok(spec)
    }
}

/// What the machine of a lesson's log is for: its first line's game and size (the line read
/// alone, opened as the whole log is).
pub(super) fn file_game(log: &Path) -> Result<store::FileGame> {
    use std::io::{BufRead, Read};
    let name = log.display();
    let f = store::open(log).with_context(|| format!("{name}: could not read the lesson's log"))?;
    let mut first = Vec::new();
    (std::io::BufReader::new(f.take(store::MAX_FILE_BYTES)).read_until(b'\n', &mut first))
        .with_context(|| format!("{name}: could not read the lesson's log"))?;
    let first = String::from_utf8(first).map_err(|_| not_text(log, 1))?;
    let began: Began = serde_json::from_str(&first)
        .with_context(|| format!("{name}: line 1 is not the machine the lesson began with"))?;
    let text = began.began.or(began.fresh).unwrap_or_default();
    Ok(store::file_game(log, &text)?)
}

/// The game of a lesson's log `log`: the command line's `args`, checked against the log's
/// (whose size it takes where the command gives none).
pub(super) fn kind(args: &crate::cli::GameArgs, log: &Path) -> Result<crate::games::GameKind> {
    crate::cli::setup::game_kind_of(args, log, file_game(log)?)
}

/// The error of a log's line `n` that is not text.
fn not_text(log: &Path, n: usize) -> anyhow::Error {
    anyhow::anyhow!(
        "{}: line {n}: not text (a lesson's log is UTF-8 JSON lines)",
        log.display()
    )
}

/// A lesson's log's lines: opened as a machine file is (a regular file only — never a pipe, a
/// device or a folder — of at most [`store::MAX_FILE_BYTES`]), each line UTF-8 text, or the
/// error naming the file and the line.
fn log_lines(log: &Path) -> Result<Vec<String>> {
    use std::io::Read;
    let name = log.display();
    let f = store::open(log).with_context(|| format!("{name}: could not read the lesson's log"))?;
    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
    if len > store::MAX_FILE_BYTES {
        bail!(
            "{name}: {} is more than a lesson's log may hold ({})",
            crate::text::bytes(len),
            crate::text::bytes(store::MAX_FILE_BYTES)
        );
    }
    let mut bytes = Vec::new();
    (f.take(store::MAX_FILE_BYTES + 1).read_to_end(&mut bytes))
        .with_context(|| format!("{name}: could not read the lesson's log"))?;
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    (lines.into_iter().enumerate())
        .map(|(i, line)| String::from_utf8(line.to_vec()).map_err(|_| not_text(log, i + 1)))
        .collect()
}

/// The machine a lesson's log began with, the lesson it leads to (the log replayed and checked
/// event by event), and its events.
pub(super) fn read<G: FullGame>(
    game: &G,
    log: &Path,
) -> Result<(crate::learn::Machine<G>, Lesson<G>, Vec<Event>)> {
    let name = log.display();
    let lines = log_lines(log)?;
    let first = lines.first().cloned().unwrap_or_default();
    let began: Began = serde_json::from_str(&first)
        .with_context(|| format!("{name}: line 1 is not the machine the lesson began with"))?;
    let machine = began.machine(game, log)?;
    let mut events = Vec::new();
    let lines = &lines[1.min(lines.len())..];
    for (i, line) in lines.iter().enumerate() {
        match serde_json::from_str::<Event>(line) {
            Ok(e) => events.push(e),
            // The last line, cut short by a crash.
            Err(_) if i + 1 == lines.len() => break,
            Err(e) => bail!("{name}: line {}: {e}", i + 2),
        }
    }
    let spec = began.spec(machine.clone(), &name.to_string())?;
    let (lesson, whole) = Lesson::replay_whole(spec, game.clone(), &events)
        .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    if whole < events.len() {
        eprintln!(
            "{name}: its last step (events {} to {}) was cut short by a crash: left out",
            whole + 1,
            events.len()
        );
        events.truncate(whole);
    }
    Ok((machine, lesson, events))
}
