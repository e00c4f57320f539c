//! A run's settings, typed: written once as the JSON every report carries (`settings`), shown as
//! the header over a command's text, and compared by `merge` when it sums the parts of an
//! experiment.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Every setting of a run. The fields are in the order of the JSON's keys (alphabetical, as
/// the reports have always written them).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunSettings {
    pub arrow_count: usize,
    pub box_count: usize,
    pub engine: String,
    pub game: String,
    pub initial_beads: String,
    pub learner: String,
    pub opponent: String,
    pub opponent_machine: Option<RivalSettings>,
    pub reinforcement: String,
    pub rng: String,
    pub seed: u64,
    pub size: String,
    pub start_games_played: u64,
    /// The digest of the machine's beads when the run began ([`crate::learn::Machine::digest`]);
    /// absent in parts written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_machine: Option<String>,
    pub symmetry: String,
    pub tie_break: String,
    /// What the header says in more words than the JSON (not in the JSON).
    #[serde(skip)]
    pub words: Words,
}

/// The rival machine's settings, when the opponent is a second learner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RivalSettings {
    pub box_count: usize,
    pub initial_beads: String,
    pub reinforcement: String,
    pub seed: u64,
    pub side: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_machine: Option<String>,
    pub symmetry: String,
}

/// The header's longer words for some settings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Words {
    /// The machine's historical name (HER), if it has one.
    pub nickname: Option<&'static str>,
    /// Whether the machine makes its boxes as it meets them (the count is "made so far").
    pub lazy: bool,
    /// The opponent with its settings (a rival machine's in full, the perfect player's tie-break).
    pub opponent: String,
    /// The reinforcement in words.
    pub reinforcement: String,
    /// Where the machine started: fresh boxes, or a file after N games.
    pub start: String,
}

impl RunSettings {
    /// The settings that differ from `other`'s, by their JSON keys, the ones a person chose
    /// first (the game before the box count it makes).
    pub fn differences(&self, other: &RunSettings) -> Vec<String> {
        const FIRST: [&str; 9] = [
            "game",
            "size",
            "learner",
            "symmetry",
            "engine",
            "opponent",
            "seed",
            "start_machine",
            "start_games_played",
        ];
        let (Ok(a), Ok(b)) = (serde_json::to_value(self), serde_json::to_value(other)) else {
            return vec!["the settings".into()];
        };
        let (Some(a), Some(b)) = (a.as_object(), b.as_object()) else {
            return vec!["the settings".into()];
        };
        let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
        keys.sort_by_key(|k| (FIRST.iter().position(|f| f == k).unwrap_or(FIRST.len()), *k));
        keys.dedup();
        keys.into_iter()
            .filter(|k| a.get(*k) != b.get(*k))
            .cloned()
            .collect()
    }
}

impl fmt::Display for RunSettings {
    /// The header's rows: a setting a line, its name in a column of 14.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = &self.words;
        let name = w.nickname.map(|n| format!(" ({n})")).unwrap_or_default();
        let made = if w.lazy { " made so far" } else { "" };
        let learner = format!(
            "{}{name}: {} boxes{made}, {} arrows, symmetry {}, {} engine",
            self.learner,
            crate::text::group(self.box_count as u64),
            crate::text::group(self.arrow_count as u64),
            self.symmetry,
            self.engine
        );
        let rows = [
            ("learner", learner),
            ("opponent", w.opponent.clone()),
            ("reinforcement", w.reinforcement.clone()),
            (
                "initial beads",
                format!("{} per arrow (by learner move)", self.initial_beads),
            ),
            ("seed", format!("{} ({})", self.seed, self.rng)),
            ("start", w.start.clone()),
        ];
        for (k, v) in rows {
            writeln!(f, "  {k:<14} {v}")?;
        }
        Ok(())
    }
}
