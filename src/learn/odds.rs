//! Michie's 1963 computer learner (D. Michie, "Experiments on the mechanization of
//! game-learning, Part I", Computer Journal 6(3), 1963), beside the matchbox machine.
//!
//! The program on the Pegasus 2 kept each move's chance as *odds* and reinforced by multiplying
//! them: a move that led to a win after n more moves of the play had its odds multiplied by
//! Mₙ = A·B^(n−8), a loss by the reciprocal, a draw left them alone. So a move is reckoned back
//! from the end of the play: the opening move of a nine-move play stands eight moves from the end
//! (n = 8, Mₙ = A), the last move of any play n = 0 (Mₙ = A·B^(−8)); with B < 1 the moves near
//! the end are reinforced most, as he wanted. Multiplying a move's odds p/(1 − p) by M while the
//! other moves keep their proportions is multiplying its *weight* by M, where each move is drawn
//! with probability weight / box total: the form kept here, one f64 per arrow.
//!
//! Beads cannot hold this: a multiplier of 1.3 would need fractions of beads, and the weights of
//! a long run span thousands of orders of magnitude, past what an f64 holds. So this learner
//! keeps each weight's logarithm (a multiplication is an addition), in the same layout as a
//! machine's beads, and draws in proportion to exp(log weight − the box's largest).
//!
//! His improvement, the *sliding origin*: the value of an outcome (win +1, draw 0, loss −1) is
//! measured against μ, a weighted average of past outcomes with weight D for the last play, D²
//! for the one before, and so on (normalised so the weights sum to one); a play is reinforced by
//! Mₙ^(v − μ): won Mₙ^(1−μ), drawn Mₙ^(−μ), lost Mₙ^(−1−μ). (The paper's printed formula sums
//! from D⁰ where its words say the last play weighs D; normalised, the two agree.) He applied the
//! decay to averages of a hundred plays at a time, to save the machine's time; this is his ideal,
//! play by play.

use serde::{Deserialize, Serialize};

use super::table::{DRAW, FORCED, LEARNER, OPPONENT, RIVAL, Table, WIN};
use super::{BoxSet, GameResult};
use crate::game::Game;
use crate::rng::{Rng, rng_from_seed, uniform_below};

/// The parameters of Michie's odds learner: A, B and the decay D of the sliding origin (none:
/// the origin stays at 0).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct OddsRule {
    pub a: f64,
    pub b: f64,
    pub decay: Option<f64>,
}

impl OddsRule {
    /// The multiplier Mₙ = A·B^(n−8) of a move n moves before the end of the play.
    pub fn multiplier(&self, n: u32) -> f64 {
        self.a * self.b.powi(n as i32 - 8)
    }
    /// The factor a move's weight is multiplied by: Mₙ^(v − μ).
    pub fn factor(&self, n: u32, result: GameResult, mu: f64) -> f64 {
        self.multiplier(n).powf(value(result) - mu)
    }
    /// Whether the parameters make sense: A, B positive and finite, D in (0, 1).
    pub fn check(&self) -> Result<(), String> {
        let positive = |x: f64| x.is_finite() && x > 0.0;
        if !positive(self.a) || !positive(self.b) {
            return Err(format!(
                "A and B must be positive numbers (A {}, B {})",
                self.a, self.b
            ));
        }
        match self.decay {
            Some(d) if !(d > 0.0 && d < 1.0) => {
                Err(format!("the decay D must lie between 0 and 1 (not {d})"))
            }
            _ => Ok(()),
        }
    }
}

/// Michie's outcome value: +1 win, 0 draw, −1 loss.
fn value(r: GameResult) -> f64 {
    match r {
        GameResult::Win => 1.0,
        GameResult::Draw => 0.0,
        GameResult::Loss => -1.0,
    }
}

/// The sliding origin μ: past outcomes averaged with weights D (the last), D², D³, …
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SlidingOrigin {
    sum: f64,
    weight: f64,
}

impl SlidingOrigin {
    /// μ now: 0 before any play.
    pub fn mu(&self) -> f64 {
        if self.weight == 0.0 {
            0.0
        } else {
            self.sum / self.weight
        }
    }
    /// Counts one more play's result.
    pub fn record(&mut self, decay: f64, r: GameResult) {
        self.sum = decay * (self.sum + value(r));
        self.weight = decay * (self.weight + 1.0);
    }
}

/// One learner's weights, as natural logarithms (a machine's bead layout: each box's slot,
/// unused here, then its arrows), its rule and its origin.
#[derive(Clone, Debug)]
pub struct OddsLearner {
    pub rule: OddsRule,
    pub origin: SlidingOrigin,
    log_weights: Vec<f64>,
}

impl OddsLearner {
    /// Equal odds on every arrow of every box of `boxes`.
    pub fn new<G: Game>(boxes: &BoxSet<G>, rule: OddsRule) -> OddsLearner {
        OddsLearner {
            rule,
            origin: SlidingOrigin::default(),
            log_weights: vec![0.0; boxes.len() + boxes.arrow_count()],
        }
    }
    /// The chance of each arrow of the box whose slot is at `base`.
    pub fn chances(&self, base: usize, arrows: usize) -> Vec<f64> {
        let logs = &self.log_weights[base + 1..base + 1 + arrows];
        let top = logs.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let w: Vec<f64> = logs.iter().map(|&l| (l - top).exp()).collect();
        let sum: f64 = w.iter().sum();
        w.into_iter().map(|x| x / sum).collect()
    }
    /// Draws an arrow of the box at `base` in proportion to the weights.
    fn draw(&self, rng: &mut Rng, base: usize, arrows: usize) -> usize {
        let logs = &self.log_weights[base + 1..base + 1 + arrows];
        let top = logs.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let sum: f64 = logs.iter().map(|&l| (l - top).exp()).sum();
        let mut x = unit(rng) * sum;
        for (i, &l) in logs.iter().enumerate() {
            x -= (l - top).exp();
            if x < 0.0 {
                return i;
            }
        }
        // Rounding can leave x a hair above the sum: the heaviest arrow.
        logs.iter().position(|&l| l == top).unwrap_or(0)
    }
    /// Reinforces the moves of a play of `plies` plies, then counts its result in the origin:
    /// each move's weight ×Mₙ^(v − μ), in logarithms (v − μ)·ln Mₙ.
    pub fn reinforce(&mut self, played: &[OddsMove], plies: u32, result: GameResult) {
        let mu = self.origin.mu();
        for m in played {
            let n = plies - m.ply;
            let step = (value(result) - mu) * self.rule.multiplier(n).ln();
            self.log_weights[(m.base + 1 + m.arrow) as usize] += step;
        }
        if let Some(d) = self.rule.decay {
            self.origin.record(d, result);
        }
    }
}

/// A move an odds learner made: its box (where its total sits), the arrow, how many arrows the
/// box has, and the ply of the play it was made at (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OddsMove {
    pub base: u32,
    pub arrow: u32,
    pub arrows: u32,
    pub ply: u32,
}

/// A uniform number in [0, 1): the top 53 bits of one draw.
fn unit(rng: &mut Rng) -> f64 {
    use rand::Rng as _;
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// One play on `table` between `learner` and the player compiled into it, or the `rival`
/// learner where the table was compiled against a second box set. Each learner is reinforced;
/// the result is the learner's.
pub fn play(
    table: &Table,
    learner: &mut OddsLearner,
    rival: Option<&mut OddsLearner>,
    rng: &mut Rng,
    moves: &mut [Vec<OddsMove>; 2],
) -> GameResult {
    moves[0].clear();
    moves[1].clear();
    let states = table.raw_states();
    let mut state = 0u32;
    let mut ply = 0u32;
    let result = loop {
        let s = states[state as usize];
        let options = table.options(state);
        let pick = match s.mover {
            OPPONENT => uniform_below(rng, s.options) as usize,
            LEARNER | RIVAL => {
                let who = usize::from(s.mover == RIVAL);
                let me: &OddsLearner = if who == 0 {
                    learner
                } else {
                    rival
                        .as_deref()
                        .expect("a rival's state in a table with a rival")
                };
                let i = me.draw(rng, s.beads_at as usize, s.options as usize);
                moves[who].push(OddsMove {
                    base: s.beads_at,
                    arrow: i as u32,
                    arrows: s.options,
                    ply: ply + 1,
                });
                i
            }
            FORCED => 0,
            WIN => break GameResult::Win,
            DRAW => break GameResult::Draw,
            _ => break GameResult::Loss,
        };
        state = options[pick];
        ply += 1;
    };
    learner.reinforce(&moves[0], ply, result);
    if let Some(r) = rival {
        r.reinforce(&moves[1], ply, result.for_opponent());
    }
    result
}

/// A fresh generator for run `run` of an odds experiment seeded with `seed`.
pub fn run_rng(seed: u64, run: u64) -> Rng {
    rng_from_seed(crate::rng::derive_seed(seed, run))
}

/// The chance that `learner`, as it stands, loses one play against the player compiled into
/// `table` (a table without a rival).
pub fn loss_chance(table: &Table, learner: &OddsLearner) -> f64 {
    fn walk(table: &Table, l: &OddsLearner, state: u32, p: f64) -> f64 {
        let s = table.raw_states()[state as usize];
        let options = table.options(state);
        match s.mover {
            OPPONENT => {
                let q = p / options.len() as f64;
                options.iter().map(|&c| walk(table, l, c, q)).sum()
            }
            LEARNER => {
                let chances = l.chances(s.beads_at as usize, options.len());
                options
                    .iter()
                    .zip(chances)
                    .map(|(&c, q)| {
                        if q > 0.0 {
                            walk(table, l, c, p * q)
                        } else {
                            0.0
                        }
                    })
                    .sum()
            }
            FORCED => walk(table, l, options[0], p),
            WIN | DRAW => 0.0,
            _ => p,
        }
    }
    walk(table, learner, 0, 1.0)
}

/// Many independent runs of odds learners: results per game summed over runs, and each run's
/// final chance of losing a play against the table's player (none against a rival).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OddsExperiment {
    pub runs: u64,
    /// Per game: wins, draws and losses of the learner, summed over runs.
    pub by_game: Vec<[u32; 3]>,
    /// Each run's final chance of losing, sorted.
    pub final_loss: Vec<f64>,
}

impl OddsExperiment {
    /// The learner's rate of `result` over games `from..to` (0-based, end excluded).
    pub fn rate(&self, result: GameResult, from: usize, to: usize) -> f64 {
        let n: u64 = self.by_game[from..to]
            .iter()
            .map(|g| g[result as usize] as u64)
            .sum();
        n as f64 / (self.runs as f64 * (to - from) as f64)
    }
    /// The share of runs whose final chance of losing is below `p`.
    pub fn share_below(&self, p: f64) -> f64 {
        let n = self.final_loss.iter().filter(|&&x| x < p).count();
        n as f64 / self.final_loss.len().max(1) as f64
    }
}

/// Plays `runs` runs of `games` plays: a fresh learner with `rule` on `boxes`, against the player
/// in `table` or, with `rival`, a second fresh learner on its boxes with its own rule. Run `i`
/// draws from its own generator ([`run_rng`]), so the result is the same on any number of
/// threads.
pub fn odds_experiment<G: Game>(
    table: &Table,
    boxes: &BoxSet<G>,
    rule: OddsRule,
    rival: Option<(&BoxSet<G>, OddsRule)>,
    seed: u64,
    runs: u64,
    games: usize,
) -> OddsExperiment {
    let one = |run: u64| {
        let mut rng = run_rng(seed, run);
        let mut learner = OddsLearner::new(boxes, rule);
        let mut second = rival.map(|(b, r)| OddsLearner::new(b, r));
        let mut moves = [Vec::new(), Vec::new()];
        let mut by_game = vec![[0u32; 3]; games];
        for g in &mut by_game {
            let r = play(table, &mut learner, second.as_mut(), &mut rng, &mut moves);
            g[r as usize] += 1;
        }
        let final_loss = if second.is_none() {
            vec![loss_chance(table, &learner)]
        } else {
            Vec::new()
        };
        OddsExperiment {
            runs: 1,
            by_game,
            final_loss,
        }
    };
    let mut out =
        crate::par::map_reduce_range(0..runs, one, OddsExperiment::default, |mut a, b| {
            if a.by_game.is_empty() {
                return b;
            }
            for (x, y) in a.by_game.iter_mut().zip(&b.by_game) {
                for k in 0..3 {
                    x[k] += y[k];
                }
            }
            a.runs += b.runs;
            a.final_loss.extend(b.final_loss);
            a
        });
    out.final_loss.sort_by(f64::total_cmp);
    out
}
