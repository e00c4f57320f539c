//! `experiment --odds A,B[,D]`: Michie's 1963 computer learner instead of the bead machine
//! (`learn::odds`), over many runs, against the perfect or random player or a second odds
//! learner: its results in ten blocks of games with 95 % intervals, and how many runs ended
//! near infallible.

use std::fmt;

use serde::Serialize;

use super::*;
use crate::learn::engine::{Enumerated, Table};
use crate::learn::odds::{OddsRule, odds_experiment};

/// The learner's results over a block of games, summed over runs.
#[derive(Serialize)]
struct Block {
    first: usize,
    last: usize,
    won: f64,
    drawn: f64,
    lost: f64,
    lost_low: f64,
    lost_high: f64,
}

/// What an odds experiment found.
#[derive(Serialize)]
pub(super) struct OddsReport {
    game: &'static str,
    side: &'static str,
    opponent: String,
    rule: OddsRule,
    runs: u64,
    games: usize,
    seed: u64,
    blocks: Vec<Block>,
    /// Against a player: the share of runs whose final learner loses under 1 % of games, and
    /// the median run's final chance of losing (exact, over every game it can play).
    converged: Option<f64>,
    median_final_loss: Option<f64>,
}

impl fmt::Display for OddsReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.rule.decay.map_or("none".into(), |d| d.to_string());
        writeln!(
            f,
            "Michie's 1963 learner ({} {}) against {}: A {}, B {}, decay {d}; {} runs of {} games (seed {})",
            self.game,
            self.side,
            self.opponent,
            self.rule.a,
            self.rule.b,
            self.runs,
            self.games,
            self.seed
        )?;
        writeln!(f, "  games        won    drawn     lost  (95 % interval)")?;
        for b in &self.blocks {
            writeln!(
                f,
                "  {:>5}–{:<5} {:>6.2} % {:>6.2} % {:>6.2} %  ({:.2}–{:.2} %)",
                b.first,
                b.last,
                100.0 * b.won,
                100.0 * b.drawn,
                100.0 * b.lost,
                100.0 * b.lost_low,
                100.0 * b.lost_high
            )?;
        }
        if let (Some(c), Some(m)) = (self.converged, self.median_final_loss) {
            writeln!(
                f,
                "  runs that end losing under 1 % of games: {:.1} %; the median run's final chance of losing: {:.3} %",
                100.0 * c,
                100.0 * m
            )?;
        }
        Ok(())
    }
}

pub(super) fn odds<G: FullGame>(game: G, a: &ExperimentArgs, rule: OddsRule) -> Result<OddsReport> {
    let games = a.learn.games.unwrap_or(50);
    if a.runs == 0 || games == 0 {
        bail!("--runs and --games: at least one each");
    }
    if a.learn.machine.boxes.is_some() {
        bail!("--odds: Michie's learner starts with equal odds; it takes no --boxes");
    }
    let set = SetOptions::for_game(&a.learn.set, &a.learn.game.game);
    let boxes = crate::cli::setup::box_set_choice(&game, &set)?;
    let side = boxes.side();
    let en = Enumerated::new(game.clone());
    let kind = a
        .learn
        .opponent
        .as_ref()
        .map_or(Opponent::Perfect, |o| o.kind);
    let rival_boxes;
    let (table, rival) = match kind {
        Opponent::Perfect => (
            Table::against_perfect(&en, &boxes, a.learn.tie_break)?,
            None,
        ),
        Opponent::Random => (Table::against_random(&en, &boxes), None),
        Opponent::Matchbox => {
            rival_boxes = crate::cli::setup::enumerate_boxes(
                &game,
                side.other(),
                boxes.mode(),
                boxes.forced(),
            );
            let table = Table::against_machine(&en, &boxes, &rival_boxes);
            (table, Some((&rival_boxes, rule)))
        }
        other => bail!(
            "--odds: the opponent is perfect, random or matchbox (a second odds learner), not {other}"
        ),
    };
    let seed = a.learn.machine.seed.unwrap_or_else(rand::random);
    let x = odds_experiment(&table, &boxes, rule, rival, seed, a.runs as u64, games);
    let blocks = (0..10.min(games))
        .map(|i| {
            let (from, to) = (i * games / 10.min(games), (i + 1) * games / 10.min(games));
            let sum = |r: GameResult| -> u64 {
                x.by_game[from..to]
                    .iter()
                    .map(|g| g[r as usize] as u64)
                    .sum()
            };
            let n = x.runs * (to - from) as u64;
            let (lo, hi) = crate::chart::data::wilson(sum(GameResult::Loss), n);
            Block {
                first: from + 1,
                last: to,
                won: sum(GameResult::Win) as f64 / n as f64,
                drawn: sum(GameResult::Draw) as f64 / n as f64,
                lost: sum(GameResult::Loss) as f64 / n as f64,
                lost_low: lo,
                lost_high: hi,
            }
        })
        .collect();
    let against_player = rival.is_none();
    Ok(OddsReport {
        game: game.name(),
        side: game.side_name(side),
        opponent: kind.to_string(),
        rule,
        runs: x.runs,
        games,
        seed,
        blocks,
        converged: against_player.then(|| x.share_below(0.01)),
        median_final_loss: against_player.then(|| x.final_loss[x.final_loss.len() / 2]),
    })
}
