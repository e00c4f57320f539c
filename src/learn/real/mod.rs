//! The real machine: a MENACE or a HER of real matchboxes, kept in step with its copy here. Its
//! games are a plain text record — one game a line, the moves in the game's notation from the
//! start (`b2 a1 …`), `resign` where the machine gave up (its box empty); its settings in an
//! optional header of `key: value` lines before the first game; `#` starts a comment — which
//! [`parse`] reads and [`learn_game`] teaches the copy, bead for bead as the real boxes learned.
//! The real machine's game is the truth: where the copy disagrees (the real box resigned where
//! the copy's still holds beads, a bead drawn that the copy's box has none of), the game is
//! taken as recorded and the disagreement said, naming the box to audit.

pub mod operate;

use thiserror::Error;

use super::bout::{Drawn, Reinforced};
use super::{Beads, Bout, GameDefaults};

/// The word of a record for the machine's resignation.
pub const RESIGN: &str = "resign";

/// The header's keys, and what each says.
pub const KEYS: &[(&str, &str)] = &[
    ("game", "the game (tictactoe, hexapawn, …)"),
    ("size", "the board's size (hexapawn: RxC)"),
    (
        "machine",
        "the side the machine plays (x, o, white, black, first, second)",
    ),
    (
        "beads",
        "beads per arrow for each of the machine's moves, e.g. 8,4,2,1",
    ),
    (
        "reinforcement",
        "WIN,DRAW,LOSS, e.g. 3,1,-1, or a preset's name",
    ),
    ("preset", "gardner, michie, scroggs or class"),
    ("symmetry", "full, gardner or none"),
    (
        "first_box",
        "revive (an emptied first box keeps one bead) or resign (as Michie's)",
    ),
    ("seed", "the seed of the copy's generator"),
    ("start", "the digest of the machine the games began from"),
];

/// A record that cannot be read or learned from: its line and why.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("line {line}: {message}")]
pub struct RecordError {
    pub line: usize,
    pub message: String,
}

fn bad(line: usize, message: impl Into<String>) -> RecordError {
    RecordError {
        line,
        message: message.into(),
    }
}

/// A setting of the header: its line, key and value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting {
    pub line: usize,
    pub key: String,
    pub value: String,
}

/// A game of the record: its line and its words (moves, and `resign`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLine {
    pub line: usize,
    pub words: Vec<String>,
}

/// A record of real games, as read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub settings: Vec<Setting>,
    pub games: Vec<GameLine>,
}

impl Record {
    /// The header's value of `key`, and its line.
    pub fn setting(&self, key: &str) -> Option<&Setting> {
        self.settings.iter().find(|s| s.key == key)
    }
}

/// Reads a record's text: the header's settings (known keys, each once, before the first game)
/// and one game a line (blank lines and comments skipped; a byte-order mark, as some editors
/// begin a file with, and Windows' line ends taken as nothing).
pub fn parse(text: &str) -> Result<Record, RecordError> {
    let mut record = Record::default();
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        if let Some((key, value)) = body.split_once(':') {
            let key = key.trim().to_ascii_lowercase().replace(['-', ' '], "_");
            // The names other records give the same settings.
            let key = match key.as_str() {
                "side" | "learner" => "machine".to_string(),
                "initial_beads" | "bead" => "beads".to_string(),
                "first_box_rule" => "first_box".to_string(),
                _ => key,
            };
            if !record.games.is_empty() {
                return Err(bad(
                    line,
                    format!(
                        "the setting `{key}` after the first game: settings go before the games"
                    ),
                ));
            }
            if !KEYS.iter().any(|(k, _)| *k == key) {
                let known: Vec<&str> = KEYS.iter().map(|(k, _)| *k).collect();
                return Err(bad(
                    line,
                    format!(
                        "unknown setting `{}` (known: {})",
                        crate::text::quote(&key),
                        known.join(", ")
                    ),
                ));
            }
            if let Some(s) = record.setting(&key) {
                return Err(bad(
                    line,
                    format!("`{key}` again (it is given at line {})", s.line),
                ));
            }
            let value = value.trim().to_string();
            record.settings.push(Setting { line, key, value });
            continue;
        }
        let words = body
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect();
        record.games.push(GameLine { line, words });
    }
    Ok(record)
}

impl Record {
    /// Leaves out the games whose moves, all legal, do not end the game (a visitor who walked
    /// away, say): their line numbers. A line with a move that cannot be played stays, for the
    /// learning to refuse naming it.
    pub fn leave_out_unfinished<G: crate::game::Game>(&mut self, game: &G) -> Vec<usize> {
        let mut left = Vec::new();
        self.games.retain(|g| {
            let mut pos = game.start();
            for w in &g.words {
                if w.eq_ignore_ascii_case(RESIGN) || game.outcome(&pos).is_some() {
                    return true;
                }
                match game.parse_move(&pos, w) {
                    Ok(mv) => pos = game.play(&pos, mv),
                    Err(_) => return true,
                }
            }
            let over = game.outcome(&pos).is_some();
            if !over {
                left.push(g.line);
            }
            over
        });
        left
    }
}

/// What the copy said of a game learned from a record, where it disagreed with the real machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    pub line: usize,
    /// The box to audit, numbered from 1 as its label.
    pub box_number: usize,
    pub words: String,
}

/// A game of a record learned: its end, and where the copy disagreed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Learned {
    pub ended: Reinforced,
    /// The boxes the machine drew from, in the order it opened them (each once).
    pub boxes: Vec<usize>,
    /// A first box emptied and given a bead back (the revival rule): (box, arrow).
    pub revived: Vec<(usize, usize)>,
    pub disagreements: Vec<Disagreement>,
}

/// Plays the game of `g` on `bout` (whose opponent is a person: the visitor) and reinforces the
/// copy as it ended; `revive`: a box of the machine's first move the game emptied keeps one bead
/// of the arrow it played. Refused naming the line and the move where a move is not legal or not
/// one of the machine's, or the game is not over at the line's end (the copy unchanged then).
pub fn learn_game<G: GameDefaults>(
    bout: &mut Bout<G>,
    g: &GameLine,
    revive: bool,
) -> Result<Learned, RecordError> {
    let before = bout.learner().clone();
    let played = play_line(bout, g);
    let (ended, disagreements, drawn) = match played {
        Ok(x) => x,
        Err(e) => {
            bout.abandon();
            *bout.learner_mut() = before;
            return Err(e);
        }
    };
    let revived = if revive {
        revive_first(bout, &drawn)
    } else {
        Vec::new()
    };
    let mut boxes: Vec<usize> = Vec::new();
    for d in &drawn {
        if !boxes.contains(&d.box_index) {
            boxes.push(d.box_index);
        }
    }
    Ok(Learned {
        ended,
        boxes,
        revived,
        disagreements,
    })
}

/// The moves of a line played: how the game ended, the disagreements, the machine's draws.
fn play_line<G: GameDefaults>(
    bout: &mut Bout<G>,
    g: &GameLine,
) -> Result<(Reinforced, Vec<Disagreement>, Vec<Drawn>), RecordError> {
    bout.abandon();
    bout.begin();
    let mut disagreements = Vec::new();
    let mut drawn = Vec::new();
    for (i, word) in g.words.iter().enumerate() {
        let at = |m: String| {
            bad(
                g.line,
                format!("move {} `{}`: {m}", i + 1, crate::text::quote(word)),
            )
        };
        let pos = bout
            .position()
            .cloned()
            .ok_or_else(|| at("the game is already over".into()))?;
        let game = bout.game().clone();
        let copy_box = bout.box_here();
        let copy_beads = copy_box.map(|b| bout.learner().beads_in(b));
        let mv = match word.eq_ignore_ascii_case(RESIGN) {
            true => None,
            false => Some(game.parse_move(&pos, word).map_err(|e| at(e.to_string()))?),
        };
        let ply = bout.recorded_ply(mv).map_err(at)?;
        // A resignation's box: the copy's, where it has one.
        let resigned = match (mv, copy_box) {
            (None, Some(b)) => Some(Drawn {
                box_index: b,
                arrow: None,
            }),
            _ => None,
        };
        if let Some(d) = ply.drawn.or(resigned) {
            drawn.push(d);
            if let Some(words) = disagreement(d, word, copy_beads.as_deref().unwrap_or(&[])) {
                disagreements.push(Disagreement {
                    line: g.line,
                    box_number: d.box_index + 1,
                    words,
                });
            }
        }
        if let Some(ended) = ply.ended {
            if i + 1 < g.words.len() {
                return Err(bad(
                    g.line,
                    format!(
                        "move {} `{}`: the game is already over",
                        i + 2,
                        crate::text::quote(&g.words[i + 1])
                    ),
                ));
            }
            return Ok((ended, disagreements, drawn));
        }
    }
    // A game at its ply limit ends with the next ply (which plays no move).
    let limit = bout.game().ply_limit();
    if limit.is_some_and(|l| bout.plies() >= l)
        && let Some(ended) = bout.ply().and_then(|p| p.ended)
    {
        return Ok((ended, disagreements, drawn));
    }
    Err(bad(
        g.line,
        "the game is not over after its moves (end it with `resign` where the machine gave up)",
    ))
}

/// Where the copy disagrees with the real machine's draw `d` for `word`, the copy's box holding
/// `held`: a bead drawn of which the copy has none, or a resignation where it holds some.
fn disagreement(d: Drawn, word: &str, held: &[Beads]) -> Option<String> {
    match d.arrow {
        Some(a) if held.get(a).is_none_or(|n| n.get() == 0) => Some(format!(
            "a bead drawn for {word}, of which the copy's box has none"
        )),
        None if held.iter().any(|n| n.get() > 0) => {
            let n: u32 = held.iter().map(|n| n.get()).sum();
            Some(format!("resigned where the copy's box holds {n} beads"))
        }
        _ => None,
    }
}

/// The revival rule after a game: every box of the machine's first move that `drawn` left empty
/// gets one bead of the arrow drawn from it back.
fn revive_first<G: GameDefaults>(bout: &mut Bout<G>, drawn: &[Drawn]) -> Vec<(usize, usize)> {
    let mut revived = Vec::new();
    for d in drawn {
        let (b, Some(a)) = (d.box_index, d.arrow) else {
            continue;
        };
        let m = bout.learner_mut();
        if m.boxes.stage(b) != 0 || m.box_total(b) != 0 || revived.iter().any(|&(x, _)| x == b) {
            continue;
        }
        let mut beads: Vec<u32> = m.beads_in(b).iter().map(|n| n.get()).collect();
        beads[a] = 1;
        let beads: Vec<Beads> = beads.into_iter().map(Beads).collect();
        if m.set_beads(b, &beads).is_ok() {
            revived.push((b, a));
        }
    }
    revived
}
