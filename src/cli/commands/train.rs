//! `train`: one learner trained headless, its results and its machine after.

use std::fmt;

use serde::Serialize;

use super::*;
use crate::cli::progress::Work;
use crate::learn::result_letter;
use crate::text::group;

pub(super) fn result_letters(results: &[GameResult]) -> String {
    results
        .chunks(10)
        .map(|c| c.iter().map(|&r| result_letter(r)).collect::<String>())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The rival machine after the run.
#[derive(Serialize)]
pub(super) struct RivalSummary {
    beads_left: u64,
    boxes_emptied: usize,
    games_played: u64,
}

/// What `train` did: the results, the machine after it, and where it was written.
#[derive(Serialize)]
pub(super) struct TrainReport {
    settings: crate::cli::settings::RunSettings,
    #[serde(flatten)]
    score: ScoreCounts,
    results: String,
    /// The games by how they ended ("white: reached the far rank": 12).
    ended: crate::learn::engine::Ends,
    beads_left: u64,
    boxes: usize,
    boxes_emptied: usize,
    box_bytes: usize,
    games_played: u64,
    /// Positions met after a lazy machine's memory budget was spent, played without a box.
    played_without_box: u64,
    #[serde(skip)]
    budget: usize,
    opponent_machine: Option<RivalSummary>,
    /// Box 1 (its label's number) after the run: each move and its beads, as a real machine's
    /// helper reports its first box.
    first_box: Vec<(String, u32)>,
    saved: Option<String>,
    #[serde(skip)]
    log: ResultLog,
    #[serde(skip)]
    written: Vec<(&'static str, String)>,
}

/// The counts of a run, as JSON has them.
#[derive(Serialize)]
struct ScoreCounts {
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    last_loss: Option<u64>,
}

impl fmt::Display for TrainReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let log = &self.log;
        let first_game = log.first_game;
        let tail = log.last_games();
        let games = self.score.games;
        if games <= 200 {
            let mut all = log.head.clone();
            all.extend(tail.iter().skip(log.head.len() + 100 - games as usize));
            writeln!(
                f,
                "\nresults (W win, D draw, L loss; from game {first_game}):\n  {}",
                result_letters(&all)
            )?;
        } else {
            writeln!(
                f,
                "\nresults (W win, D draw, L loss), games {} to {}:\n  {}\n  …\nlast 100 games:\n  {}",
                group(first_game),
                group(first_game + 99),
                result_letters(&log.head),
                result_letters(&tail)
            )?;
        }
        let sc = &self.score;
        writeln!(
            f,
            "\n{} games: {} won, {} drawn, {} lost; last loss: {}",
            group(sc.games),
            group(sc.wins),
            group(sc.draws),
            group(sc.losses),
            sc.last_loss
                .map_or("none".into(), |g| format!("game {}", group(g)))
        )?;
        writeln!(f, "{}", super::ended_text(&self.ended))?;
        writeln!(
            f,
            "boxes emptied: {} of {}; beads left: {}",
            group(self.boxes_emptied as u64),
            group(self.boxes as u64),
            group(self.beads_left)
        )?;
        if let Some(per_box) = self.box_bytes.checked_div(self.boxes) {
            writeln!(
                f,
                "memory of the boxes: {}, {per_box} bytes a box (position, arrows and beads)",
                crate::text::bytes(self.box_bytes as u64),
            )?;
        }
        if !self.first_box.is_empty() {
            let each: Vec<String> = (self.first_box.iter())
                .map(|(mv, n)| format!("{mv} {n}"))
                .collect();
            writeln!(f, "box 1 holds: {}", each.join(" · "))?;
        }
        if self.played_without_box > 0 {
            writeln!(
                f,
                "the machine is full: its boxes reached the {} of --max-memory, and {} met after that were played at random without a box (learning nothing there)",
                crate::text::bytes(self.budget as u64),
                crate::text::count(self.played_without_box, "position", "positions")
            )?;
        }
        for (what, path) in &self.written {
            writeln!(f, "{what} written to {}", crate::text::quote_long(path))?;
        }
        if let Some(path) = &self.saved {
            writeln!(
                f,
                "saved to {} ({} games played in all)",
                crate::text::quote_long(path),
                group(self.games_played)
            )?;
        }
        Ok(())
    }
}

pub(super) fn train<G: FullGame>(
    game: G,
    a: &TrainArgs,
    rec: Option<&super::record::RecordFile>,
    out: Out,
) -> Result<TrainReport> {
    let games = match rec {
        Some(r) => (r.record.games.len()).min(a.learn.games.unwrap_or(usize::MAX)),
        None => a.learn.games.unwrap_or(50),
    };
    super::outputs::check_chart(&a.output, "train", true)?;
    // The roles first (an output naming a file the run reads), then each output on its own.
    check_machine_outputs(a)?;
    check_outputs(
        &a.output,
        &[
            ("--save", a.save.as_ref()),
            ("--save-opponent", a.save_opponent.as_ref()),
        ],
    )?;
    // Claimed before the machines are read: another run saving there meanwhile is not overwritten.
    for path in [&a.save, &a.save_opponent].into_iter().flatten() {
        store::claim(path)?;
    }
    if let Some(crate::players::Opponent::Mcts(n)) = a.learn.opponent.as_ref().map(|o| o.kind) {
        crate::cli::progress::search_forecast(&game, n, games as u64)?;
    }
    let mut s = Setup::new(game, &a.learn)?;
    if let Some(rec) = rec {
        super::record::check_start(rec, s.machine())?;
    }
    if a.save_opponent.is_some() && s.rival().is_none() {
        bail!("--save-opponent needs --opponent matchbox");
    }
    out.preamble(s.header("train", &[("games", group(games as u64))]));
    let settings = s.settings();
    let mut log = ResultLog::new(s.machine().games_played + 1, out.is_json());
    if a.output.csv.is_some() || a.output.plot.is_some() {
        train_tracked(&mut s, a, games, rec, &mut log)?;
    } else {
        train_untracked(&mut s, games, rec, &mut log)?;
    }
    if let Some(path) = &a.save {
        store::save_machine(path, s.game(), s.machine())?;
    }
    if let (Some(path), Some(rival)) = (&a.save_opponent, s.rival()) {
        store::save_machine(path, s.game(), rival)?;
    }
    let m = s.machine();
    let written = [("table", &a.output.csv), ("chart", &a.output.plot)]
        .into_iter()
        .filter_map(|(what, p)| Some((what, p.as_ref()?.display().to_string())))
        .collect();
    Ok(TrainReport {
        settings,
        score: {
            // The bout's own tally: it began with this command.
            let sc = s.bout.score();
            ScoreCounts {
                games: sc.games,
                wins: sc.wins,
                draws: sc.draws,
                losses: sc.losses,
                last_loss: sc.last_loss,
            }
        },
        ended: s.bout.ends().clone(),
        results: log.letters_text(),
        beads_left: m.beads_left(),
        boxes: m.boxes.len(),
        boxes_emptied: m.boxes_emptied(),
        box_bytes: m.bytes(),
        played_without_box: m.unboxed,
        budget: m.boxes.budget(),
        games_played: m.games_played,
        opponent_machine: s.rival().map(|r| RivalSummary {
            beads_left: r.beads_left(),
            boxes_emptied: r.boxes_emptied(),
            games_played: r.games_played,
        }),
        first_box: match m.boxes.is_empty() {
            true => Vec::new(),
            false => (m.boxes.arrows(0).iter().zip(m.beads_in(0)))
                .map(|(&mv, n)| (s.game().format_move(mv), n.get()))
                .collect(),
        },
        saved: a.save.as_ref().map(|p| p.display().to_string()),
        log,
        written,
    })
}

/// Trains `games` games (or learns them from the record `rec`) with no table or chart: only
/// the results kept, in memory that does not grow with the games.
fn train_untracked<G: FullGame>(
    s: &mut Setup<G>,
    games: usize,
    rec: Option<&super::record::RecordFile>,
    log: &mut ResultLog,
) -> Result<()> {
    if let Some(rec) = rec {
        let mut played = Vec::new();
        for i in 0..games {
            log.push(super::record::learn_one(s, rec, i, &mut played)?);
        }
    } else {
        // In chunks, so that memory does not grow with the games played.
        let (mut work, mut done) = (Work::new(games as u64, "games"), 0);
        let mut results = Vec::new();
        while done < games {
            // Chunks that grow from one game: the first estimate of the time left comes after
            // the first game, not the first 65,536 (a game against a long search takes minutes).
            let chunk = (games - done).min(done.clamp(1, 1 << 16));
            results.clear();
            s.train_into(chunk as u64, &mut results);
            log.extend(&results);
            done += chunk;
            work.at(done as u64)?;
        }
        work.finish();
    }
    Ok(())
}

/// Trains game by game, recording the beads after each one: streamed to the CSV table, thinned
/// for the chart.
fn train_tracked<G: FullGame>(
    s: &mut Setup<G>,
    a: &TrainArgs,
    games: usize,
    rec: Option<&super::record::RecordFile>,
    log: &mut ResultLog,
) -> Result<()> {
    let (label, perfect) = (s.label(), s.perfect_play());
    let mut csv = super::outputs::Table::create(a.output.csv.as_ref())?;
    let mut sampled = chart::data::GameSampler::new();
    let (mut work, mut score) = (Work::new(games as u64, "games"), 0i64);
    // Totals kept from the boxes each game changes: a row a game costs that game only.
    let mut tally = crate::learn::BeadTotals::new(s.machine());
    let mut boxes_played = Vec::new();
    let first_move = match s.machine().boxes.side() {
        Side::First => 1,
        Side::Second => 2,
    };
    let move_numbers = (0..tally.beads_by_stage.len())
        .map(|k| (first_move + 2 * k).to_string())
        .collect::<Vec<_>>()
        .join("/");
    let slashed = |v: &mut dyn Iterator<Item = String>| v.collect::<Vec<_>>().join("/");
    let (g, m) = (s.game(), s.machine());
    let first_box_moves = match m.boxes.is_empty() {
        true => String::new(),
        false => slashed(&mut m.boxes.arrows(0).iter().map(|&mv| g.move_words(mv))),
    };
    for played in 0..games {
        let r = match rec {
            Some(rec) => super::record::learn_one(s, rec, played, &mut boxes_played)?,
            None => s.train_one(&mut boxes_played),
        };
        log.push(r);
        score += r.score() as i64;
        tally.update(s.machine(), &boxes_played);
        let m = s.machine();
        let first_box = match m.boxes.is_empty() {
            true => String::new(),
            false => slashed(&mut m.beads_in(0).iter().map(|b| b.get().to_string())),
        };
        let row = GameRow {
            run: 1,
            game: m.games_played,
            result: r,
            cumulative_score: score,
            beads_left: tally.beads_left,
            boxes_emptied: tally.boxes_emptied,
            beads_by_move: slashed(&mut tally.beads_by_stage.iter().map(u64::to_string)),
            move_numbers: move_numbers.clone(),
            first_box,
            first_box_moves: first_box_moves.clone(),
            perfect_play: perfect,
            label: label.clone(),
        };
        if let Some(w) = &mut csv {
            w.row(&row)?;
        }
        sampled.push(row);
        if played % 4096 == 4095 {
            work.at(played as u64 + 1)?;
        }
    }
    work.finish();
    if let Some(table) = csv {
        table.commit()?;
    }
    if let Some(path) = &a.output.plot {
        let spec = chart::data::chart(
            a.output.chart.unwrap_or(ChartKind::Score),
            &Rows::Games(sampled.finish()),
        )?;
        let bytes = chart::exporter_for(path)?.export(&spec)?;
        store::save_atomic_bytes(path, &bytes)?;
    }
    Ok(())
}

/// The results of one learner's run, in memory that does not grow with the games (the counts
/// are the bout's [`crate::learn::Score`]): the first and the last 100 games, and (only for
/// JSON, which lists them) one letter per game.
pub(super) struct ResultLog {
    first_game: u64,
    head: Vec<GameResult>,
    /// The last games, round a ring: game `k` (counted from 0) at `k % TAIL`.
    tail: [GameResult; TAIL],
    /// Games pushed, and where the next goes in `tail`.
    pushed: u64,
    next: usize,
    /// Every result as its letter (ASCII, so bytes: appended many at a time).
    letters: Option<Vec<u8>>,
}

/// Each result's letter, by its index (`result_letter` as a byte, for many at a time).
const LETTERS: [u8; 3] = *b"WDL";

/// The last games kept.
const TAIL: usize = 100;

impl ResultLog {
    fn new(first_game: u64, letters: bool) -> Self {
        ResultLog {
            first_game,
            head: Vec::new(),
            tail: [GameResult::Win; TAIL],
            pushed: 0,
            next: 0,
            letters: letters.then(Vec::new),
        }
    }

    #[inline]
    fn push(&mut self, r: GameResult) {
        if self.head.len() < 100 {
            self.head.push(r);
        }
        self.tail[self.next] = r;
        self.next = if self.next + 1 == TAIL {
            0
        } else {
            self.next + 1
        };
        self.pushed += 1;
        if let Some(l) = &mut self.letters {
            l.push(result_letter(r) as u8);
        }
    }

    /// [`ResultLog::push`] for each of `results`, in passes over them.
    fn extend(&mut self, results: &[GameResult]) {
        let room = 100usize.saturating_sub(self.head.len());
        self.head.extend(&results[..room.min(results.len())]);
        // Only the last `TAIL` can stay in the ring.
        let skip = results.len().saturating_sub(TAIL);
        self.next = (self.next + skip) % TAIL;
        for &r in &results[skip..] {
            self.tail[self.next] = r;
            self.next = if self.next + 1 == TAIL {
                0
            } else {
                self.next + 1
            };
        }
        self.pushed += results.len() as u64;
        if let Some(l) = &mut self.letters {
            l.extend(results.iter().map(|&r| LETTERS[r as usize]));
        }
    }

    /// Every result as its letter, or nothing where they are not kept.
    fn letters_text(&self) -> String {
        // Letters are ASCII, so the bytes are always text.
        let bytes = self.letters.as_deref().unwrap_or_default();
        std::str::from_utf8(bytes).map_or_else(|_| String::new(), str::to_owned)
    }

    /// The last games (up to [`TAIL`]), oldest first.
    fn last_games(&self) -> Vec<GameResult> {
        let n = (self.pushed as usize).min(TAIL);
        (0..n)
            .map(|i| self.tail[(self.next + TAIL - n + i) % TAIL])
            .collect()
    }
}

/// Refuses, before any work, a save that would lose a machine: an output on a file the command
/// reads in another role, or over an existing file that is not the machine resumed (without
/// `--force`).
pub(super) fn check_machine_outputs(a: &TrainArgs) -> Result<()> {
    let learner = a.learn.machine.boxes.as_deref();
    let rival = a.learn.opponent.as_ref().and_then(|o| o.file.as_deref());
    let inputs: Vec<(&str, &std::path::Path)> = [("--boxes", learner), ("--opponent", rival)]
        .into_iter()
        .filter_map(|(k, p)| Some((k, p?)))
        .collect();
    let outputs: Vec<(&str, &std::path::Path)> = [
        ("--save", a.save.as_deref()),
        ("--save-opponent", a.save_opponent.as_deref()),
        ("--csv", a.output.csv.as_deref()),
        ("--plot", a.output.plot.as_deref()),
    ]
    .into_iter()
    .filter_map(|(k, p)| Some((k, p?)))
    .collect();
    store::check_not_inputs(
        &outputs,
        &inputs,
        &[("--save", "--boxes"), ("--save-opponent", "--opponent")],
    )?;
    if let Some(p) = &a.save {
        store::check_replace("--save", p, learner, a.force)?;
    }
    if let Some(p) = &a.save_opponent {
        store::check_replace("--save-opponent", p, rival, a.force)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_keeps_the_first_and_the_last_hundred_games_in_order() {
        let result = |k: u64| match k % 7 {
            0 => GameResult::Loss,
            3 => GameResult::Draw,
            _ => GameResult::Win,
        };
        for games in [0u64, 1, 99, 100, 101, 150, 250, 1000] {
            let mut log = ResultLog::new(1, true);
            (0..games).for_each(|k| log.push(result(k)));
            let last: Vec<GameResult> = (games.saturating_sub(100)..games).map(result).collect();
            assert_eq!(log.last_games(), last, "{games} games");
            let first: Vec<GameResult> = (0..games.min(100)).map(result).collect();
            assert_eq!(log.head, first, "{games} games");
            let letters: String = (0..games).map(|k| result_letter(result(k))).collect();
            assert_eq!(log.letters_text(), letters);
            // The same log from the results in chunks (as `train` gives them).
            for chunk in [1, 7, 100, 101, 333] {
                let all: Vec<GameResult> = (0..games).map(result).collect();
                let mut chunked = ResultLog::new(1, true);
                all.chunks(chunk).for_each(|c| chunked.extend(c));
                assert_eq!(chunked.head, log.head, "{games} games in chunks of {chunk}");
                assert_eq!(chunked.last_games(), log.last_games(), "{games}, {chunk}");
                assert_eq!(chunked.letters, log.letters, "{games}, {chunk}");
                assert_eq!(chunked.pushed, log.pushed);
            }
        }
    }
}
