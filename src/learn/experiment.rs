//! Many independent learners: the runs of an experiment (all of them, or one shard of them),
//! played in parallel, and their results summed per game index.

use serde::{Deserialize, Serialize};

use super::GameResult;
use super::ends::Ends;

/// The runs an experiment plays: run `i` of `first..end` is seeded from the seed and `i`, so a
/// shard of the runs plays the same games as it would in the whole experiment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Runs {
    pub first: u64,
    pub end: u64,
}

impl Runs {
    /// Runs `0..n`.
    pub fn all(n: usize) -> Runs {
        Runs {
            first: 0,
            end: n as u64,
        }
    }
    /// The `k`-th (1-based) of `n` slices of `0..total`, as even as they come: slice `k` holds
    /// runs `(k-1)·total/n .. k·total/n`. `None` unless `1 <= k <= n`.
    pub fn shard(total: usize, k: usize, n: usize) -> Option<Runs> {
        if k == 0 || k > n {
            return None;
        }
        let at = |i: usize| (i as u128 * total as u128 / n as u128) as u64;
        Some(Runs {
            first: at(k - 1),
            end: at(k),
        })
    }
    pub fn len(&self) -> usize {
        (self.end - self.first) as usize
    }
    pub fn is_empty(&self) -> bool {
        self.end <= self.first
    }
}

impl From<usize> for Runs {
    fn from(n: usize) -> Runs {
        Runs::all(n)
    }
}

/// Runs `play_run(i, results)` for every run `i` (it fills `results` with the run's games and
/// says whether its first box ended empty) and sums the counts: in parallel with the `parallel`
/// feature. Integer sums, so the result does not depend on the number of threads.
pub fn run_experiment(
    runs: Runs,
    games: usize,
    on_run: &(dyn Fn() + Sync),
    play_run: impl Fn(u64, &mut Vec<GameResult>, &mut Ends) -> bool + Sync,
) -> ExperimentResult {
    run_in_lanes::<1>(runs, games, on_run, |run, results, ends| {
        [play_run(run[0], &mut results[0], ends)]
    })
}

/// A piece of work: `L` runs at a time (the last piece may hold fewer), their results in lanes.
struct Lanes<const L: usize> {
    acc: ExperimentResult,
    results: [Vec<GameResult>; L],
}

impl<const L: usize> Lanes<L> {
    fn new(games: usize) -> Self {
        Lanes {
            acc: ExperimentResult::empty(games),
            results: std::array::from_fn(|_| Vec::with_capacity(games)),
        }
    }
    /// Plays the runs of piece `piece` (runs `first + L·piece ..`, up to `end`) and counts them.
    fn play(
        mut self,
        runs: Runs,
        piece: u64,
        on_run: &(dyn Fn() + Sync),
        play: &(impl Fn(&[u64], &mut [Vec<GameResult>; L], &mut Ends) -> [bool; L] + Sync),
    ) -> Self {
        let first = runs.first + piece * L as u64;
        let mut ids = [0u64; L];
        let count = (runs.end.min(first + L as u64) - first) as usize;
        for (i, id) in ids.iter_mut().enumerate() {
            *id = first + i as u64;
        }
        let ids = &ids[..count];
        self.results.iter_mut().for_each(Vec::clear);
        let stuck = play(ids, &mut self.results, &mut self.acc.ended);
        for (lane, _) in ids.iter().enumerate() {
            self.acc.add_run(&self.results[lane], stuck[lane]);
            on_run();
        }
        self
    }
}

/// Runs `play(ids, results)` for the runs in pieces of up to `L` (it fills `results[i]` with run
/// `ids[i]`'s games and says for each whether its first box ended empty) and sums the counts, in
/// parallel with the `parallel` feature. Integer sums, so the result does not depend on the number
/// of threads.
pub fn run_in_lanes<const L: usize>(
    runs: Runs,
    games: usize,
    on_run: &(dyn Fn() + Sync),
    play: impl Fn(&[u64], &mut [Vec<GameResult>; L], &mut Ends) -> [bool; L] + Sync,
) -> ExperimentResult {
    let pieces = runs.len().div_ceil(L);
    fold_pieces(
        pieces,
        games,
        || Lanes::<L>::new(games),
        |lanes, piece| lanes.play(runs, piece, on_run, &play),
        |a, b| Lanes {
            acc: a.acc.merge(b.acc),
            results: a.results,
        },
    )
    .map_or_else(|| ExperimentResult::empty(games), |lanes| lanes.acc)
}

/// Folds pieces `0..pieces` of an experiment of `games` games a run into accumulators made by
/// `new` (`play` adds a piece) and merges them with `merge`: in parallel with the `parallel`
/// feature, else in order. `None` for no pieces. `merge` must be associative and commutative.
pub fn fold_pieces<A: Send>(
    pieces: usize,
    games: usize,
    new: impl Fn() -> A + Sync + Send,
    play: impl Fn(A, u64) -> A + Sync + Send,
    merge: impl Fn(A, A) -> A + Sync + Send,
) -> Option<A> {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        // Statistics per game index take about 40 bytes per game index in each accumulator, and
        // there is one accumulator per piece of work. Short runs are split as rayon likes
        // (fastest); long ones into one piece per thread, so that memory does not grow with the
        // runs.
        let threads = rayon::current_num_threads().max(1);
        let min_len = match 40 * games * threads * 8 > 256 << 20 {
            true => pieces.div_ceil(threads).max(1),
            false => 1,
        };
        (0..pieces)
            .into_par_iter()
            .with_min_len(min_len)
            .fold(&new, |acc, piece| play(acc, piece as u64))
            .reduce_with(merge)
    }
    #[cfg(not(feature = "parallel"))]
    {
        let _ = (games, merge);
        (pieces > 0).then(|| (0..pieces as u64).fold(new(), play))
    }
}

/// Results of many independent learners, counted per game index (0-based).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExperimentResult {
    pub runs: usize,
    pub losses_by_game: Vec<u32>,
    pub draws_by_game: Vec<u32>,
    pub wins_by_game: Vec<u32>,
    /// Runs that ended with every box of their first move empty: such a machine resigns every
    /// game from then on (for a machine that moves first, its one first box).
    pub first_box_empty: usize,
    /// Losses per game among the other runs.
    pub losses_by_game_first_box_kept: Vec<u32>,
    /// `last_loss[g]`: runs whose last loss was game `g` (1-based); `last_loss[0]`: runs that
    /// never lost.
    pub last_loss: Vec<u32>,
    /// Sum over runs of the losses up to and including each game, and of their squares (for the
    /// mean cumulative losses and their spread).
    pub cumulative_losses: Vec<u64>,
    pub cumulative_losses_sq: Vec<u64>,
    /// Every game of every run, by how it ended.
    pub ended: Ends,
}

impl ExperimentResult {
    pub fn empty(games: usize) -> Self {
        ExperimentResult {
            runs: 0,
            losses_by_game: vec![0; games],
            draws_by_game: vec![0; games],
            wins_by_game: vec![0; games],
            first_box_empty: 0,
            losses_by_game_first_box_kept: vec![0; games],
            last_loss: vec![0; games + 1],
            cumulative_losses: vec![0; games],
            cumulative_losses_sq: vec![0; games],
            ended: Ends::default(),
        }
    }

    fn add_run(&mut self, results: &[GameResult], first_box_empty: bool) {
        self.runs += 1;
        let last = results
            .iter()
            .rposition(|&r| r == GameResult::Loss)
            .map_or(0, |i| i + 1);
        self.last_loss[last] += 1;
        self.first_box_empty += usize::from(first_box_empty);
        // Branch-free: a game's result adds one to one of three counts.
        let kept = u32::from(!first_box_empty);
        let mut lost = 0u64;
        let games = results
            .iter()
            .zip(&mut self.wins_by_game)
            .zip(&mut self.draws_by_game)
            .zip(&mut self.losses_by_game)
            .zip(&mut self.losses_by_game_first_box_kept)
            .zip(
                self.cumulative_losses
                    .iter_mut()
                    .zip(&mut self.cumulative_losses_sq),
            );
        for (((((&r, win), draw), loss), loss_kept), (cumulative, squares)) in games {
            let l = u32::from(r == GameResult::Loss);
            *win += u32::from(r == GameResult::Win);
            *draw += u32::from(r == GameResult::Draw);
            *loss += l;
            *loss_kept += l & kept;
            lost += u64::from(l);
            *cumulative += lost;
            *squares += lost * lost;
        }
    }

    /// The sums of two sets of runs of the same number of games (in either order: the sums are
    /// the same).
    pub fn merge(self, other: Self) -> Self {
        self.checked_merge(other)
            .expect("the counts of runs played fit their types")
    }

    /// [`ExperimentResult::merge`], or `None` if a sum would pass its type's range (parts read
    /// from files claiming too much).
    pub fn checked_merge(mut self, other: Self) -> Option<Self> {
        self.runs = self.runs.checked_add(other.runs)?;
        self.first_box_empty = self.first_box_empty.checked_add(other.first_box_empty)?;
        self.ended.total().checked_add(other.ended.total())?;
        self.ended.merge(&other.ended);
        for (a, b) in [
            (&mut self.losses_by_game, &other.losses_by_game),
            (&mut self.draws_by_game, &other.draws_by_game),
            (&mut self.wins_by_game, &other.wins_by_game),
            (
                &mut self.losses_by_game_first_box_kept,
                &other.losses_by_game_first_box_kept,
            ),
            (&mut self.last_loss, &other.last_loss),
        ] {
            for (x, y) in a.iter_mut().zip(b) {
                *x = x.checked_add(*y)?;
            }
        }
        for (a, b) in [
            (&mut self.cumulative_losses, &other.cumulative_losses),
            (&mut self.cumulative_losses_sq, &other.cumulative_losses_sq),
        ] {
            for (x, y) in a.iter_mut().zip(b) {
                *x = x.checked_add(*y)?;
            }
        }
        Some(self)
    }

    pub fn mean_losses(&self) -> f64 {
        self.losses_by_game.iter().map(|&x| x as f64).sum::<f64>() / self.runs.max(1) as f64
    }
    /// Share of runs that lost each game.
    pub fn loss_rate(&self) -> Vec<f64> {
        Self::rate(&self.losses_by_game, self.runs)
    }
    pub fn win_rate(&self) -> Vec<f64> {
        Self::rate(&self.wins_by_game, self.runs)
    }
    pub fn draw_rate(&self) -> Vec<f64> {
        Self::rate(&self.draws_by_game, self.runs)
    }
    /// Loss rate per game among the runs whose first box was not empty at the end.
    pub fn loss_rate_first_box_kept(&self) -> Vec<f64> {
        Self::rate(
            &self.losses_by_game_first_box_kept,
            self.runs - self.first_box_empty,
        )
    }
    /// Mean game (1-based) after which a run never lost again: the game of its last loss, 0 for a
    /// run that never lost.
    pub fn mean_last_loss(&self) -> f64 {
        let sum: u64 = self
            .last_loss
            .iter()
            .enumerate()
            .map(|(g, &n)| g as u64 * n as u64)
            .sum();
        sum as f64 / self.runs.max(1) as f64
    }
    /// Share of runs that lost none of their last `n` games.
    pub fn share_clean_last(&self, n: usize) -> f64 {
        let games = self.last_loss.len() - 1;
        let cutoff = games.saturating_sub(n);
        let clean: u64 = self.last_loss[..=cutoff].iter().map(|&x| x as u64).sum();
        clean as f64 / self.runs.max(1) as f64
    }
    /// Share of runs whose first box was empty at the end.
    pub fn first_box_empty_share(&self) -> f64 {
        self.first_box_empty as f64 / self.runs.max(1) as f64
    }
    fn rate(counts: &[u32], runs: usize) -> Vec<f64> {
        let runs = runs.max(1) as f64;
        counts.iter().map(|&x| x as f64 / runs).collect()
    }
    /// Mean of `rates` over games `from..=to` (1-based, clamped to the games played).
    pub fn mean_over(rates: &[f64], from: usize, to: usize) -> f64 {
        let lo = from.saturating_sub(1).min(rates.len());
        let hi = to.min(rates.len());
        if hi <= lo {
            return 0.0;
        }
        rates[lo..hi].iter().sum::<f64>() / (hi - lo) as f64
    }
}
