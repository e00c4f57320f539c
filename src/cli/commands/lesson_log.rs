//! A class lesson's log as a file: its first line the machine the lesson began with, then one
//! event a line. Read by `class --resume` and `class --replay`, and by `film --lesson`.

use std::io::BufRead;
use std::path::Path;

use super::*;
use crate::learn::lesson::{Event, Lesson};

/// The first line of a lesson's log: the machine as the lesson began (its YAML), so the log
/// replays on its own.
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Began {
    pub(super) began: String,
}

/// The machine a lesson's log began with, the lesson it leads to (the log replayed and checked
/// event by event), and its events.
pub(super) fn read<G: FullGame>(
    game: &G,
    log: &Path,
) -> Result<(crate::learn::Machine<G>, Lesson<G>, Vec<Event>)> {
    let name = log.display();
    let f = std::fs::File::open(log)
        .with_context(|| format!("{name}: could not read the lesson's log"))?;
    let mut lines = std::io::BufReader::new(f).lines();
    let first = lines.next().transpose()?.unwrap_or_default();
    let began: Began = serde_json::from_str(&first)
        .with_context(|| format!("{name}: line 1 is not the machine the lesson began with"))?;
    let machine = store::from_yaml(game, log, &began.began)?;
    let mut events = Vec::new();
    let lines: Vec<String> = lines.collect::<Result<_, _>>()?;
    for (i, line) in lines.iter().enumerate() {
        match serde_json::from_str::<Event>(line) {
            Ok(e) => events.push(e),
            // The last line, cut short by a crash.
            Err(_) if i + 1 == lines.len() => break,
            Err(e) => bail!("{name}: line {}: {e}", i + 2),
        }
    }
    let lesson = Lesson::replay(game.clone(), machine.clone(), &events)
        .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    Ok((machine, lesson, events))
}
