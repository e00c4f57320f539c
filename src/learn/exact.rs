//! Exact learning curves. A machine whose beads never grow (Gardner's HER: a loss takes the last
//! move's bead, nothing else changes) has finitely many bead states, and its games against a
//! player that picks uniformly from a set (perfect, random) make a Markov chain on them: from
//! each state, every game the machine can play has an exact probability and leaves one next
//! state. Walking that chain gives the probability that game n is won, drawn or lost, the
//! distribution of the number of losses and of the game of the last loss, and their means —
//! exactly, up to the rounding of f64 sums (about 1e-15), with no simulation.
//!
//! A machine that is rewarded (MENACE's +3/+1) has no bound on its beads and so no finite
//! chain; the exact curve refuses it ([`ExactError::Grows`]).

use rustc_hash::FxHashMap as HashMap;

pub(crate) use super::machine::reinforce_beads;
use super::machine::reinforced;
use super::table::{DRAW, FORCED, LEARNER, LOSS, OPPONENT, Table, WIN};
use super::{GameResult, Machine};
use crate::game::Game;

/// Counts of losses beyond this are summed in [`ExactCurve::losses_beyond`].
pub const MAX_LOSSES_COUNTED: usize = 200;

/// Why an exact curve cannot be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExactError {
    #[error(
        "an exact curve needs a machine whose beads never grow (rewards of 0, as Gardner's); this one gains beads"
    )]
    Grows,
    #[error("an exact curve is for a machine against a player, not against a second machine")]
    Rival,
    #[error(
        "an exact curve needs the game's whole graph against the perfect or the random player (the table engine)"
    )]
    NoTable,
    #[error("the machine's bead states have more than {} games to walk: too many for an exact curve", crate::text::group(*.0))]
    TooManyGames(u64),
    #[error("the machine has more than {} bead states within reach: too many for an exact curve", crate::text::group(*.0 as u64))]
    TooManyStates(usize),
}

/// The exact learning curve of one machine against one player.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactCurve {
    /// The bead states the machine can reach.
    pub states: usize,
    /// For game n (index n − 1): the probability it is won, drawn and lost.
    pub games: Vec<[f64; 3]>,
    /// `losses[k]`: the probability that the machine loses exactly k games in all
    /// (k < [`MAX_LOSSES_COUNTED`]).
    pub losses: Vec<f64>,
    /// The probability of more losses than `losses` counts, a never-ending run of them included.
    pub losses_beyond: f64,
    /// The probability that the machine never stops losing (it loses with positive probability
    /// in a state it can never leave).
    pub loses_for_ever: f64,
    /// `last_loss[n]`: the probability that game n is its last loss (n ≥ 1); `last_loss[0]` that
    /// it never loses. Up to the games asked for.
    pub last_loss: Vec<f64>,
    /// As `last_loss`, but of the last loss within the games computed (what a simulated run of
    /// that many games reports): `None` when the table of it would pass 50 million numbers.
    pub last_loss_within: Option<Vec<f64>>,
    /// The mean number of losses; `None` when it is infinite.
    pub mean_losses: Option<f64>,
    /// The mean game of the last loss (0 when none); `None` when it is infinite.
    pub mean_last_loss: Option<f64>,
}

impl ExactCurve {
    /// The probability that game `n` (1-based) is lost.
    pub fn lost(&self, n: usize) -> f64 {
        self.games[n - 1][2]
    }
    /// The smallest k with P(losses ≤ k) ≥ `q`: a quantile of the number of losses.
    pub fn losses_quantile(&self, q: f64) -> Option<usize> {
        quantile(&self.losses, q)
    }
    /// The smallest n with P(last loss ≤ n) ≥ `q` within the games computed.
    pub fn last_loss_quantile(&self, q: f64) -> Option<usize> {
        quantile(&self.last_loss, q)
    }
}

fn quantile(p: &[f64], q: f64) -> Option<usize> {
    let mut sum = 0.0;
    for (k, &x) in p.iter().enumerate() {
        sum += x;
        if sum >= q - 1e-12 {
            return Some(k);
        }
    }
    None
}

/// One way a game from a bead state can go: the next state, its probability and the result.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    pub(crate) next: u32,
    pub(crate) p: f64,
    pub(crate) result: GameResult,
}

/// The chain: every reachable bead state and its games.
pub(crate) struct Chain {
    pub(crate) beads: Vec<Vec<u32>>,
    pub(crate) steps: Vec<Vec<Step>>,
}

impl Chain {
    /// A chain of the one state `beads` (numbered 0), not yet walked, and its index.
    pub(crate) fn start(beads: &[u32]) -> (Chain, HashMap<Vec<u32>, u32>) {
        let mut index = HashMap::default();
        index.insert(beads.to_vec(), 0);
        let chain = Chain {
            beads: vec![beads.to_vec()],
            steps: Vec::new(),
        };
        (chain, index)
    }
}

/// The exact curve of `machine` (as it stands) against the player compiled into `table`, for
/// `games` games; at most `max_states` bead states are explored.
pub fn exact_curve<G: Game>(
    table: &Table,
    machine: &Machine<G>,
    games: usize,
    max_states: usize,
) -> Result<ExactCurve, ExactError> {
    exact_curve_within(table, machine, games, max_states, u64::MAX)
}

/// The bytes one bead state of `machine` takes in the chain (its beads, and their index).
pub fn state_bytes<G: Game>(machine: &Machine<G>) -> u64 {
    8 * machine.raw_beads().len() as u64 + 64
}

/// As [`exact_curve`], within `bytes` of bead states, and a walk that copies no more than fifty
/// times that many bytes of beads (one machine's beads for each game walked): a machine of many
/// boxes (octopawn, MENACE punished only) is refused in a moment instead of filling the memory.
pub fn exact_curve_within<G: Game>(
    table: &Table,
    machine: &Machine<G>,
    games: usize,
    max_states: usize,
    bytes: u64,
) -> Result<ExactCurve, ExactError> {
    let per_state = state_bytes(machine);
    let max_states = max_states.min((bytes / per_state).min(usize::MAX as u64) as usize);
    let most_walked = (max_states as u64)
        .saturating_mul(GAMES_PER_STATE)
        .min(bytes.saturating_mul(50) / per_state);
    let r = machine.reinforcement;
    if r.win > 0 || r.draw > 0 || r.loss > 0 {
        return Err(ExactError::Grows);
    }
    if table
        .raw_states()
        .iter()
        .any(|s| s.mover == super::table::RIVAL)
    {
        return Err(ExactError::Rival);
    }
    // Each bead state's games are walked one by one: a game tree too big to walk (octopawn
    // against the random player) is refused before the walk, not after hours of it.
    if games_from(table, 0, &mut vec![0; table.len()]) > most_walked {
        return Err(ExactError::TooManyGames(most_walked));
    }
    let chain = explore(table, machine, max_states, most_walked)?;
    let summary = Summary::new(&chain);
    let (games_p, last_loss) = forward(&chain, &summary, games);
    let (losses, losses_beyond, loses_for_ever) = loss_counts(&chain, &summary);
    Ok(ExactCurve {
        states: chain.beads.len(),
        games: games_p,
        losses,
        losses_beyond,
        loses_for_ever,
        last_loss,
        last_loss_within: within(&chain, games),
        mean_losses: summary.mean_losses[0]
            .is_finite()
            .then_some(summary.mean_losses[0]),
        mean_last_loss: summary.mean_last[0]
            .is_finite()
            .then_some(summary.mean_last[0]),
    })
}

/// The games the walks may pass through in all, for each bead state allowed: HER against the
/// perfect player walks 50 a state, HIM against the random one 46.
const GAMES_PER_STATE: u64 = 100;

/// The number of games from table state `state` when every arrow holds beads (a bound on any
/// bead state's walk), saturating; `memo` holds each state's count plus one, 0 for not yet.
fn games_from(table: &Table, state: u32, memo: &mut Vec<u64>) -> u64 {
    if memo[state as usize] > 0 {
        return memo[state as usize] - 1;
    }
    let options = table.options(state);
    let n = match table.raw_states()[state as usize].mover {
        OPPONENT | LEARNER | FORCED => options.iter().fold(0u64, |sum, &c| {
            sum.saturating_add(games_from(table, c, memo))
        }),
        _ => 1,
    };
    memo[state as usize] = n.saturating_add(1).max(1);
    n
}

/// Every bead state reachable from the machine's, with its games.
pub(crate) fn explore<G: Game>(
    table: &Table,
    machine: &Machine<G>,
    max_states: usize,
    most_walked: u64,
) -> Result<Chain, ExactError> {
    let (mut chain, mut index) = Chain::start(machine.raw_beads());
    let mut at = 0;
    // Games walked in all: the walk stops when they pass the budget, or the states theirs.
    let mut walked = 0u64;
    while at < chain.beads.len() {
        let mut next: HashMap<(u32, u8), f64> = HashMap::default();
        let beads = chain.beads[at].clone();
        // One buffer for every game's beads after it, put back after each game: a game that
        // changes nothing stays in this state with no lookup, and the state a game's changes
        // lead to is looked up once for each set of changes (HER's losses take one of few
        // beads), not once a game.
        let mut after = beads.clone();
        let mut changes: Vec<(u32, u32)> = Vec::new();
        let mut led: HashMap<Vec<(u32, u32)>, u32> = HashMap::default();
        let mut each = |played: &[(u32, u32)], p: f64, result: GameResult| {
            walked += 1;
            if walked > most_walked || chain.beads.len() > max_states {
                return false;
            }
            reinforce_beads(&mut after, machine.reinforcement, played, result);
            let touched = reinforced(machine.reinforcement, played, result);
            changes.clear();
            for i in bead_cells(touched) {
                if after[i as usize] != beads[i as usize] {
                    changes.push((i, after[i as usize]));
                }
            }
            let id = if changes.is_empty() {
                at as u32
            } else {
                changes.sort_unstable();
                changes.dedup();
                match led.get(&changes) {
                    Some(&id) => id,
                    None => {
                        let id = state_id(&mut chain.beads, &mut index, &after);
                        led.insert(changes.clone(), id);
                        id
                    }
                }
            };
            for i in bead_cells(touched) {
                after[i as usize] = beads[i as usize];
            }
            *next.entry((id, result as u8)).or_default() += p;
            true
        };
        if !walk(table, &beads, 0, 1.0, &mut Vec::new(), &mut each) {
            return Err(match walked > most_walked {
                true => ExactError::TooManyGames(most_walked),
                false => ExactError::TooManyStates(max_states),
            });
        }
        let mut steps: Vec<Step> = next
            .into_iter()
            .map(|((next, r), p)| Step {
                next,
                p,
                result: result_of(r),
            })
            .collect();
        // A fixed order, so the sums (and so the figures) are the same on every run.
        steps.sort_by_key(|s| (s.next, s.result as u8));
        chain.steps.push(steps);
        at += 1;
    }
    Ok(chain)
}

/// The places in a bead array that reinforcing the draws `touched` may change: each box's total
/// and the drawn arrow's beads.
fn bead_cells(touched: &[(u32, u32)]) -> impl Iterator<Item = u32> + '_ {
    touched
        .iter()
        .flat_map(|&(base, arrow)| [base, base + 1 + arrow])
}

/// The number of bead state `beads`, new ones numbered as they are met.
fn state_id(states: &mut Vec<Vec<u32>>, index: &mut HashMap<Vec<u32>, u32>, beads: &[u32]) -> u32 {
    if let Some(&id) = index.get(beads) {
        return id;
    }
    let id = states.len() as u32;
    index.insert(beads.to_vec(), id);
    states.push(beads.to_vec());
    id
}

pub(crate) fn result_of(r: u8) -> GameResult {
    [GameResult::Win, GameResult::Draw, GameResult::Loss]
        .into_iter()
        .find(|&x| x as u8 == r)
        .expect("a result's own number")
}

/// What [`walk`] calls for each game: the learner's draws, the game's chance, its result;
/// false to stop the walk.
type EachGame<'a> = dyn FnMut(&[(u32, u32)], f64, GameResult) -> bool + 'a;

/// Every game from table state `state` with the machine's beads `beads`: `each(played, p,
/// result)` for each, with the learner's draws and the game's probability. False when `each`
/// stopped it.
pub(crate) fn walk(
    table: &Table,
    beads: &[u32],
    state: u32,
    p: f64,
    played: &mut Vec<(u32, u32)>,
    each: &mut EachGame,
) -> bool {
    let s = table.raw_states()[state as usize];
    let options = table.options(state);
    match s.mover {
        OPPONENT => {
            let q = p / options.len() as f64;
            options
                .iter()
                .all(|&child| walk(table, beads, child, q, played, each))
        }
        LEARNER => {
            let total = beads[s.beads_at as usize];
            if total == 0 {
                return each(played, p, GameResult::Loss);
            }
            for (i, &child) in options.iter().enumerate() {
                let n = beads[s.beads_at as usize + 1 + i];
                if n > 0 {
                    played.push((s.beads_at, i as u32));
                    let p = p * n as f64 / total as f64;
                    let go = walk(table, beads, child, p, played, each);
                    played.pop();
                    if !go {
                        return false;
                    }
                }
            }
            true
        }
        FORCED => walk(table, beads, options[0], p, played, each),
        WIN => each(played, p, GameResult::Win),
        DRAW => each(played, p, GameResult::Draw),
        LOSS => each(played, p, GameResult::Loss),
        _ => unreachable!("a rival's state in a table checked to have none"),
    }
}

/// What each state leads to, computed backwards from the states with fewest beads (a game either
/// leaves a state unchanged or takes beads away, so every other step goes to fewer beads).
struct Summary {
    /// States by their total beads, most first (a step never goes up this order).
    order: Vec<u32>,
    /// The probability of staying put, and of losing while staying put.
    stay: Vec<f64>,
    stay_lost: Vec<f64>,
    /// The probability of never losing again from a state.
    safe: Vec<f64>,
    mean_losses: Vec<f64>,
    /// The mean number of games until the last loss from a state (0 if none).
    mean_last: Vec<f64>,
}

impl Summary {
    fn new(chain: &Chain) -> Summary {
        let n = chain.beads.len();
        let mut order: Vec<u32> = (0..n as u32).collect();
        let weight = |s: &u32| {
            chain.beads[*s as usize]
                .iter()
                .map(|&b| b as u64)
                .sum::<u64>()
        };
        order.sort_by_key(|s| (std::cmp::Reverse(weight(s)), *s));
        let mut sum = Summary {
            order,
            stay: vec![0.0; n],
            stay_lost: vec![0.0; n],
            safe: vec![1.0; n],
            mean_losses: vec![0.0; n],
            mean_last: vec![0.0; n],
        };
        for &s in sum.order.clone().iter().rev() {
            sum.settle(chain, s as usize);
        }
        sum
    }

    /// Works out state `s` from the states it leads to (already settled).
    fn settle(&mut self, chain: &Chain, s: usize) {
        let (mut stay, mut stay_lost, mut lost) = (0.0, 0.0, 0.0);
        let (mut safe, mut losses, mut last) = (0.0, 0.0, 0.0);
        for st in &chain.steps[s] {
            let lose = st.result == GameResult::Loss;
            if lose {
                lost += st.p;
            }
            if st.next as usize == s {
                stay += st.p;
                stay_lost += if lose { st.p } else { 0.0 };
                continue;
            }
            let t = st.next as usize;
            if !lose {
                safe += st.p * self.safe[t];
            }
            losses += st.p * self.mean_losses[t];
            last += st.p * self.mean_last[t];
        }
        self.stay[s] = stay;
        self.stay_lost[s] = stay_lost;
        let leave = 1.0 - stay;
        let other = 1.0 - (stay - stay_lost);
        // Games that change nothing and are not lost do not count: what follows is what the
        // first game that counts does.
        self.safe[s] = if other <= 1e-300 { 1.0 } else { safe / other };
        if leave <= 1e-300 {
            let forever = if lost > 0.0 { f64::INFINITY } else { 0.0 };
            self.mean_losses[s] = forever;
            self.mean_last[s] = forever;
        } else {
            self.mean_losses[s] = (lost + losses) / leave;
            self.mean_last[s] = ((1.0 - self.safe[s]) + last) / leave;
        }
    }
}

/// The distribution over states game by game: each game's result probabilities, and the
/// probability that each game is the last lost.
fn forward(chain: &Chain, sum: &Summary, games: usize) -> (Vec<[f64; 3]>, Vec<f64>) {
    let mut dist = vec![0.0; chain.beads.len()];
    dist[0] = 1.0;
    let mut per_game = Vec::with_capacity(games);
    let mut last = vec![sum.safe[0]];
    for _ in 0..games {
        let mut next = vec![0.0; dist.len()];
        let (mut wdl, mut last_here) = ([0.0; 3], 0.0);
        for &s in &sum.order {
            let d = dist[s as usize];
            if d == 0.0 {
                continue;
            }
            for st in &chain.steps[s as usize] {
                let mass = d * st.p;
                next[st.next as usize] += mass;
                wdl[st.result as usize] += mass;
                if st.result == GameResult::Loss {
                    last_here += mass * sum.safe[st.next as usize];
                }
            }
        }
        per_game.push(wdl);
        last.push(last_here);
        dist = next;
    }
    (per_game, last)
}

/// The distribution of the last loss within the first `games` games: the chance of no loss in
/// the m games after each state (backwards, m = 0..games), then forwards the chance that game n
/// is lost and none of the games after it up to `games`.
fn within(chain: &Chain, games: usize) -> Option<Vec<f64>> {
    let n = chain.beads.len();
    if n.saturating_mul(games + 1) > 50_000_000 {
        return None;
    }
    let mut clear = vec![vec![1.0; n]];
    for m in 1..=games {
        let before = &clear[m - 1];
        let now = (0..n)
            .map(|s| {
                chain.steps[s]
                    .iter()
                    .filter(|st| st.result != GameResult::Loss)
                    .map(|st| st.p * before[st.next as usize])
                    .sum()
            })
            .collect();
        clear.push(now);
    }
    let mut dist = vec![0.0; n];
    dist[0] = 1.0;
    let mut out = vec![clear[games][0]];
    for g in 1..=games {
        let mut next = vec![0.0; n];
        let mut here = 0.0;
        for (s, &d) in dist.iter().enumerate() {
            if d == 0.0 {
                continue;
            }
            for st in &chain.steps[s] {
                next[st.next as usize] += d * st.p;
                if st.result == GameResult::Loss {
                    here += d * st.p * clear[games - g][st.next as usize];
                }
            }
        }
        out.push(here);
        dist = next;
    }
    Some(out)
}

/// The distribution of the number of losses, the mass beyond [`MAX_LOSSES_COUNTED`], and the
/// probability of losing for ever.
fn loss_counts(chain: &Chain, sum: &Summary) -> (Vec<f64>, f64, f64) {
    let k_max = MAX_LOSSES_COUNTED;
    let mut mass: HashMap<u32, Vec<f64>> = HashMap::default();
    let mut start = vec![0.0; k_max + 1];
    start[0] = 1.0;
    mass.insert(0, start);
    let mut done = vec![0.0; k_max + 1];
    let mut for_ever = 0.0;
    for &s in &sum.order {
        let Some(m) = mass.remove(&s) else { continue };
        let s = s as usize;
        let leave = 1.0 - sum.stay[s];
        if leave <= 1e-300 {
            let total: f64 = m.iter().sum();
            if sum.stay_lost[s] > 0.0 {
                for_ever += total;
            } else {
                add(&mut done, &m);
            }
            continue;
        }
        // Losses while staying: geometric, each game a loss-in-place or the leaving game.
        let r = sum.stay_lost[s] / (sum.stay_lost[s] + leave);
        let m = geometric(&m, r);
        for st in chain.steps[s].iter().filter(|st| st.next as usize != s) {
            let shift = usize::from(st.result == GameResult::Loss);
            let share = st.p / leave;
            let to = mass.entry(st.next).or_insert_with(|| vec![0.0; k_max + 1]);
            // Count k goes to k + shift, the last slot keeping everything from it on: slot by
            // slot in one pass the compiler vectorises (the same sums, in the same order).
            for (t, &x) in to[shift..].iter_mut().zip(&m[..=k_max - shift]) {
                *t += x * share;
            }
            if shift == 1 {
                to[k_max] += m[k_max] * share;
            }
        }
    }
    let beyond = done[k_max] + for_ever;
    done.truncate(k_max);
    (done, beyond, for_ever)
}

/// `m` convolved with a geometric count of extra losses (P(j) = r^j (1 − r)); the last slot
/// holds everything from it on.
fn geometric(m: &[f64], r: f64) -> Vec<f64> {
    if r == 0.0 {
        return m.to_vec();
    }
    let k_max = m.len() - 1;
    let mut out = vec![0.0; m.len()];
    for (k, &x) in m.iter().enumerate() {
        if x == 0.0 {
            continue;
        }
        let mut p = x * (1.0 - r);
        for slot in out.iter_mut().take(k_max).skip(k) {
            *slot += p;
            p *= r;
        }
        // What is left is P(at least k_max − k extra) = x · r^(k_max − k).
        out[k_max] += x * r.powi((k_max - k) as i32);
    }
    out
}

fn add(to: &mut [f64], from: &[f64]) {
    for (a, b) in to.iter_mut().zip(from) {
        *a += b;
    }
}
