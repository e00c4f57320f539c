//! `replay`: a game record played move by move from the start, every move checked.

use std::fmt;

use serde::Serialize;

use super::*;

pub(super) fn replay<G: FullGame>(game: G, a: &ReplayArgs) -> Result<ReplayReport> {
    let mut pos = game.start();
    let mut played = Vec::new();
    let record =
        crate::cli::record_text(a.moves.as_deref(), a.moves_file.as_deref())?.unwrap_or_default();
    // Move numbers (`1.`, `12.`), as `solve` prints its line, are skipped.
    let number = |t: &str| {
        t.strip_suffix('.')
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    let tokens = record.split(|c: char| c.is_whitespace() || c == ',');
    for (i, text) in tokens.filter(|t| !t.is_empty() && !number(t)).enumerate() {
        let number = i + 1;
        if game.outcome(&pos).is_some() {
            return Err(BadRecord(format!(
                "move {number} `{}`: the game is already over",
                crate::text::quote(text)
            ))
            .into());
        }
        let mv = game
            .parse_move(&pos, text)
            .map_err(|e| BadRecord(format!("move {number} `{}`: {e}", crate::text::quote(text))))?;
        played.push(game.format_move_at(&pos, mv));
        pos = game.play(&pos, mv);
    }
    let outcome = game.outcome(&pos);
    Ok(ReplayReport {
        game: game.name(),
        size: game.size_key(),
        ply: played.len(),
        winner: match outcome {
            None => "none",
            Some(o) => o.winner.map_or("draw", |w| game.side_name(w)),
        },
        reason: outcome.map(|o| o.reason.to_string()),
        why: outcome.map(|o| game.end_words(&pos, &o)),
        structures: game.structures(&pos),
        position: game.format_position(&pos),
        moves: played,
        diagram: game.diagram(&pos),
        to_move: game.side_name(game.to_move(&pos)),
    })
}

/// A game record played through: where it ended and why.
#[derive(Serialize)]
pub(super) struct ReplayReport {
    game: &'static str,
    size: Option<String>,
    ply: usize,
    winner: &'static str,
    reason: Option<String>,
    /// Why it ended, as a sentence ("Black cannot move").
    why: Option<String>,
    structures: Vec<&'static str>,
    position: String,
    moves: Vec<String>,
    #[serde(skip)]
    diagram: Vec<String>,
    #[serde(skip)]
    to_move: &'static str,
}

impl fmt::Display for ReplayReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for line in &self.diagram {
            writeln!(f, "{line}")?;
        }
        let plies = crate::text::count(self.ply as u64, "ply", "plies");
        match (self.winner, &self.why) {
            ("none", _) | (_, None) => writeln!(f, "{plies}; not over: {} to move", self.to_move)?,
            ("draw", Some(r)) => writeln!(f, "{plies}; drawn: {r}")?,
            (w, Some(r)) => writeln!(f, "{plies}; {w} wins: {r}")?,
        }
        writeln!(f, "position: {}", self.position)
    }
}
