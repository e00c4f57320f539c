//! A record of a real machine's games as a file (`train --record FILE`, `replay --record FILE`):
//! read as a machine file is (a regular file of text, at most [`store::MAX_FILE_BYTES`]), its
//! header's settings taken where the command line gives none, and its games learned from one by
//! one, each disagreement of the copy said as a warning naming the line and the box to audit.

use std::path::Path;
use std::str::FromStr;

use super::*;
use crate::cli::LearnArgs;
use crate::games::GameKind;
use crate::learn::real::{self, Record};

/// A record read: its games, and whether its machine keeps a bead in an emptied first box.
pub(super) struct RecordFile {
    pub name: String,
    pub record: Record,
    pub revive: bool,
}

/// Leaves out the record's games that do not end (all their moves legal), each said as a
/// warning naming its line: the real machine's beads did not move for them.
pub(super) fn keep_finished<G: FullGame>(record: &mut Record, game: &G, name: &str) {
    for line in record.leave_out_unfinished(game) {
        eprintln!(
            "warning: {name}: line {line}: the game is not over after its moves: left out (no bead moved for it); end it with `resign` where the machine gave up"
        );
    }
}

/// Reads the record at `path`, or the error naming it (and its line).
pub(super) fn read(path: &Path) -> Result<Record> {
    let text = store::read(path)?;
    real::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
}

/// The command's settings with the record's header where the command gives none (a header that
/// contradicts the command is refused, naming its line), the opponent the visitor (a person),
/// and the record with its first-box rule (`first_box` from the command, if given), its games
/// that do not end left out ([`keep_finished`]).
pub(super) fn with_header(
    a: &LearnArgs,
    path: &Path,
    first_box: Option<&str>,
) -> Result<(LearnArgs, RecordFile)> {
    let record = read(path)?;
    let name = path.display().to_string();
    let mut l = a.clone();
    // With --boxes the machine's settings are its file's (the `start` digest checks it is the
    // machine the games began from): the header's are not options then.
    let loaded = a.machine.boxes.is_some();
    let machine_key = |k: &str| {
        [
            "machine",
            "symmetry",
            "beads",
            "reinforcement",
            "preset",
            "seed",
        ]
        .contains(&k)
    };
    for s in (record.settings.iter()).filter(|s| !(loaded && machine_key(&s.key))) {
        let at = |e: String| anyhow::anyhow!("{name}: line {}: {}: {e}", s.line, s.key);
        let v = s.value.as_str();
        match s.key.as_str() {
            "game" => {
                let (was, is) = (
                    GameKind::parse(&a.game.game, None),
                    GameKind::parse(v, None),
                );
                let (was, is) = (
                    was.map_err(|e| at(e.to_string()))?,
                    is.map_err(|e| at(e.to_string()))?,
                );
                if was.name() != is.name() {
                    return Err(at(format!(
                        "the record is of {}, the command asks for {}",
                        is.name(),
                        was.name()
                    )));
                }
            }
            "size" => fill(&mut l.game.size, v.to_string(), at)?,
            "machine" => fill(&mut l.set.side, v.to_string(), at)?,
            "symmetry" => fill(&mut l.set.symmetry, parsed(v, &at)?, at)?,
            "beads" => fill(&mut l.machine.beads, parsed(v, &at)?, at)?,
            "reinforcement" => fill(&mut l.machine.reinforcement, parsed(v, &at)?, at)?,
            "preset" => fill(&mut l.machine.preset, parsed(v, &at)?, at)?,
            "seed" => fill(&mut l.machine.seed, parsed(v, &at)?, at)?,
            _ => {}
        }
    }
    if l.opponent
        .as_ref()
        .is_some_and(|o| o.kind != crate::players::Opponent::Human)
    {
        bail!(
            "--opponent: a record's games were played against visitors: its machine's opponent is the record"
        );
    }
    l.opponent = Some(crate::cli::OpponentSpec {
        kind: crate::players::Opponent::Human,
        file: None,
    });
    let header = record
        .setting("first_box")
        .map(|s| (s.line, s.value.as_str()));
    if let (Some(c), Some((line, h))) = (first_box, header)
        && !c.trim().eq_ignore_ascii_case(h.trim())
    {
        bail!("{name}: line {line}: first_box: the record says {h}, the command --first-box {c}");
    }
    let revive = match first_box.or(header.map(|h| h.1)) {
        Some(rule) => first_box_rule(rule).with_context(|| format!("{name}: first_box"))?,
        None => false,
    };
    let mut record = record;
    let game = crate::games::any::AnyGame::new(super::learn_kind(&l)?);
    keep_finished(&mut record, &game, &name);
    Ok((
        l,
        RecordFile {
            name,
            record,
            revive,
        },
    ))
}

/// Whether a first-box rule revives (`revive`) or not (`resign`).
pub(super) fn first_box_rule(rule: &str) -> Result<bool> {
    match rule.trim().to_ascii_lowercase().as_str() {
        "revive" => Ok(true),
        "resign" => Ok(false),
        other => bail!("`{}`: revive or resign", crate::text::quote(other)),
    }
}

fn parsed<T: FromStr>(v: &str, at: &impl Fn(String) -> anyhow::Error) -> Result<T>
where
    T::Err: std::fmt::Display,
{
    v.parse().map_err(|e: T::Err| at(e.to_string()))
}

/// The command's `slot`, or the header's `value` where the command gives none; a command that
/// gives another is refused.
fn fill<T: PartialEq + std::fmt::Debug>(
    slot: &mut Option<T>,
    value: T,
    at: impl Fn(String) -> anyhow::Error,
) -> Result<()> {
    match slot {
        Some(given) if *given != value => Err(at(format!(
            "the record says {value:?}, the command {given:?}"
        ))),
        Some(_) => Ok(()),
        None => {
            *slot = Some(value);
            Ok(())
        }
    }
}

/// Refuses a copy `m` that is not the machine the record's games began from (its `start`
/// digest, where the header gives one): a record of a trained machine learned onto a fresh one
/// would be another machine.
pub(super) fn check_start<G: FullGame>(
    rec: &RecordFile,
    m: &crate::learn::Machine<G>,
) -> Result<()> {
    if let Some(s) = rec.record.setting("start")
        && s.value != m.digest()
    {
        bail!(
            "{}: line {}: the games began from the machine of digest {}, and this one's is {}: give the --boxes they began from",
            rec.name,
            s.line,
            s.value,
            m.digest()
        );
    }
    Ok(())
}

/// Learns the record's game `i` on `s`: its result and the bead indexes of the boxes it drew
/// from (for the run's totals); each disagreement of the copy said on stderr.
pub(super) fn learn_one<G: FullGame>(
    s: &mut Setup<G>,
    rec: &RecordFile,
    i: usize,
    played: &mut Vec<u32>,
) -> Result<GameResult> {
    let line = &rec.record.games[i];
    let learned = real::learn_game(&mut s.bout, line, rec.revive)
        .map_err(|e| anyhow::anyhow!("{}: {e}", rec.name))?;
    for d in &learned.disagreements {
        eprintln!(
            "warning: {}: line {}: box {}: {}; taken as recorded (the real machine's game): audit box {}",
            rec.name, d.line, d.box_number, d.words, d.box_number
        );
    }
    played.clear();
    let m = s.machine();
    played.extend(learned.boxes.iter().map(|&b| m.boxes.bead_index(b) as u32));
    Ok(learned.ended.result)
}

/// One game of a record replayed: its line, its plies, who won and why.
#[derive(serde::Serialize)]
pub(super) struct RecordGame {
    line: usize,
    plies: usize,
    winner: &'static str,
    why: String,
}

/// A record's games replayed (`replay --record`), every move checked.
#[derive(serde::Serialize)]
pub(super) struct RecordReport {
    game: &'static str,
    games: Vec<RecordGame>,
    /// Games won by each side, and drawn.
    wins: std::collections::BTreeMap<&'static str, usize>,
}

impl std::fmt::Display for RecordReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for g in &self.games {
            let plies = crate::text::count(g.plies as u64, "ply", "plies");
            match g.winner {
                "draw" => writeln!(f, "line {}: {plies}; drawn: {}", g.line, g.why)?,
                w => writeln!(f, "line {}: {plies}; {w} wins: {}", g.line, g.why)?,
            }
        }
        let each: Vec<String> = self.wins.iter().map(|(w, n)| format!("{w} {n}")).collect();
        writeln!(
            f,
            "{} of {}: {}",
            crate::text::count(self.games.len() as u64, "game", "games"),
            self.game,
            each.join(", ")
        )
    }
}

/// `replay --record FILE`: the record's game (its header's, where it names one) checked line by
/// line.
pub(super) fn replay_command(a: &crate::cli::ReplayArgs) -> Result<()> {
    let path = a.record.as_deref().expect("the caller checked");
    let record = read(path)?;
    let named = |key: &str| record.setting(key).map(|s| s.value.clone());
    let f = store::FileGame {
        game: named("game").unwrap_or_else(|| a.game.game.clone()),
        size: named("size"),
    };
    let kind = crate::cli::setup::game_kind_of(&a.game, path, f)?;
    let name = path.display().to_string();
    let game = crate::games::any::AnyGame::new(kind);
    Out::new(a.json).report(&replay_record(&game, &record, &name)?)
}

/// Each game of `record` played from the start, every move checked.
fn replay_record<G: FullGame>(game: &G, record: &Record, name: &str) -> Result<RecordReport> {
    let mut record = record.clone();
    keep_finished(&mut record, game, name);
    let mut report = RecordReport {
        game: game.name(),
        games: Vec::new(),
        wins: Default::default(),
    };
    for g in &record.games {
        let mut pos = game.start();
        let mut ended = None;
        for (i, w) in g.words.iter().enumerate() {
            let at = |m: String| {
                anyhow::anyhow!(
                    "{name}: line {}: move {} `{}`: {m}",
                    g.line,
                    i + 1,
                    crate::text::quote(w)
                )
            };
            if ended.is_some() || game.outcome(&pos).is_some() {
                return Err(at("the game is already over".into()));
            }
            if w.eq_ignore_ascii_case(real::RESIGN) {
                let side = game.to_move(&pos);
                let who = game.side_name(side.other());
                ended = Some((who, format!("{} resigned", game.side_name(side))));
                continue;
            }
            let mv = game.parse_move(&pos, w).map_err(|e| at(e.to_string()))?;
            pos = game.play(&pos, mv);
        }
        let (winner, why) = match (ended, game.outcome(&pos)) {
            (Some(e), _) => e,
            (None, Some(o)) => (
                o.winner.map_or("draw", |w| game.side_name(w)),
                game.end_words(&pos, &o),
            ),
            (None, None) => bail!(
                "{name}: line {}: the game is not over after its moves",
                g.line
            ),
        };
        *report.wins.entry(winner).or_default() += 1;
        let plies = g
            .words
            .iter()
            .filter(|w| !w.eq_ignore_ascii_case(real::RESIGN))
            .count();
        report.games.push(RecordGame {
            line: g.line,
            plies,
            winner,
            why,
        });
    }
    Ok(report)
}
