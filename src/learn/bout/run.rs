//! Whole games on the engine chosen once: one game, N games, and experiments of many runs.

use crate::learn::ends::EndTally;
use crate::learn::engine::{Ends, ExperimentResult, RivalTrainer, Runs, Trainer};
use crate::learn::exact::{ExactCurve, ExactError, exact_curve_within};
use crate::learn::lazy;
use crate::learn::{GameDefaults, GameResult, Machine};

use super::*;

impl<G: GameDefaults> Bout<G> {
    /// Counts how the last whole game ended.
    pub(super) fn note_end(&mut self) {
        match (&self.table, &self.opposition) {
            (Some(t), Opposition::Rival(_)) => self
                .ends
                .add(&t.end_names()[self.rival_game.end as usize], 1),
            (Some(t), _) => self.ends.add(&t.end_names()[self.st.end as usize], 1),
            _ => {
                if let Some(end) = self.scratch.end {
                    self.ends.add(&end.name(&self.game), 1);
                }
            }
        }
    }

    /// Every game of the learner's counted in the score, by how it ended.
    pub fn ends(&self) -> &Ends {
        &self.ends
    }

    /// One whole game on the fastest engine, not counted in the score.
    #[inline]
    pub(super) fn whole_game(&mut self) -> Option<GameResult> {
        let g = &self.game;
        let m = &mut self.learner;
        Some(
            match (&self.table, &self.enumerated, &mut self.opposition) {
                (Some(t), _, Opposition::Rival(r)) => {
                    RivalTrainer::new(t).play_game(m, &mut r.machine, &mut self.rival_game)
                }
                (Some(t), Some(en), Opposition::Player(_)) => {
                    Trainer::new(en, t).play_game(m, &mut self.st)
                }
                (_, _, Opposition::Rival(r)) => lazy::rival_game(g, m, r, &mut self.scratch),
                (_, _, Opposition::Player(p)) => lazy::play_game(g, m, p, &mut self.scratch),
                (_, _, Opposition::Person) => return None,
            },
        )
    }

    /// The learner's draws of the last whole game ([`Bout::play_game`]): (bead index of the box,
    /// arrow), for a machine's running totals ([`super::BeadTotals`]).
    pub fn last_played(&self) -> &[(u32, u32)] {
        match (&self.table, &self.opposition) {
            (Some(_), Opposition::Rival(_)) => &self.rival_game.learner,
            (Some(_), _) => &self.st.played,
            _ => self.scratch.learner_played(),
        }
    }

    /// Plays up to `games` whole games (fewer when a person is to move), calling `each` with
    /// each game's number and result; returns how many were played. The learner changes exactly
    /// as under `matchbox train` with the same settings. The engine is chosen once, outside the
    /// loop.
    pub fn train_each(&mut self, games: u64, mut each: impl FnMut(u64, GameResult)) -> u64 {
        if self.live.is_some() {
            self.finish_game();
            if self.live.is_some() {
                return 0;
            }
        }
        let (g, m) = (&self.game, &mut self.learner);
        // The score kept in a local for the loop (in registers), written back after it.
        let mut score = self.score;
        let mut count = |m: &Machine<G>, r: GameResult| {
            score.add(m.games_played, r);
            each(m.games_played, r);
        };
        match (&self.table, &self.enumerated, &mut self.opposition) {
            (Some(t), _, Opposition::Rival(r)) => {
                let trainer = RivalTrainer::new(t);
                let mut by_id = vec![0u64; t.end_names().len()];
                for _ in 0..games {
                    let res = trainer.play_game(m, &mut r.machine, &mut self.rival_game);
                    by_id[self.rival_game.end as usize] += 1;
                    count(m, res);
                }
                t.name_ends(&by_id, &mut self.ends);
            }
            (Some(t), Some(en), Opposition::Player(_)) => {
                let mut each = |number, r| {
                    score.add(number, r);
                    each(number, r);
                };
                let ends = &mut self.ends;
                Trainer::new(en, t).train_each(m, &mut self.st, games, &mut each, ends);
            }
            (_, _, Opposition::Rival(r)) => {
                let mut tally = EndTally::new();
                for _ in 0..games {
                    let res = lazy::rival_game(g, m, r, &mut self.scratch);
                    tally.add_some(self.scratch.end);
                    count(m, res);
                }
                tally.name_into(g, &mut self.ends);
            }
            (_, _, Opposition::Player(p)) => {
                let mut tally = EndTally::new();
                for _ in 0..games {
                    let res = lazy::play_game(g, m, p, &mut self.scratch);
                    tally.add_some(self.scratch.end);
                    count(m, res);
                }
                tally.name_into(g, &mut self.ends);
            }
            (_, _, Opposition::Person) => return 0,
        }
        self.score = score;
        games
    }

    /// As [`Bout::train_each`], appending each result to `out`: where the learner plays a
    /// player on a table, with no call a game (the score is counted from `out` after the
    /// games).
    pub fn train_into(&mut self, games: u64, out: &mut Vec<GameResult>) -> u64 {
        let (Some(t), Some(en), Opposition::Player(_), None) =
            (&self.table, &self.enumerated, &self.opposition, &self.live)
        else {
            return self.train_each(games, |_, r| out.push(r));
        };
        let start = out.len();
        let first = self.learner.games_played;
        let trainer = Trainer::new(en, t);
        trainer.train_into(&mut self.learner, &mut self.st, games, out, &mut self.ends);
        self.score.add_all(first + 1, &out[start..]);
        games
    }

    /// Plays `games` whole games and returns their results.
    pub fn train(&mut self, games: usize) -> Vec<GameResult> {
        let mut out = Vec::with_capacity(games);
        self.train_each(games as u64, |_, r| out.push(r));
        out
    }

    /// The learner's exact learning curve over `games` games against the bout's player
    /// ([`exact_curve_within`]): for a machine whose beads never grow, on the table engine,
    /// against the perfect or the random player, with at most `max_states` bead states in
    /// `bytes`.
    pub fn exact_curve(
        &self,
        games: usize,
        max_states: usize,
        bytes: u64,
    ) -> Result<ExactCurve, ExactError> {
        match (&self.table, &self.opposition) {
            (_, Opposition::Rival(_)) => Err(ExactError::Rival),
            (Some(t), Opposition::Player(_)) => {
                exact_curve_within(t, &self.learner, games, max_states, bytes)
            }
            _ => Err(ExactError::NoTable),
        }
    }

    /// Trains `runs` copies of the learner (run `i` reseeded with
    /// [`crate::rng::derive_seed`]`(seed, i)`, its rival from that seed) for `games` games each,
    /// against fresh copies of the opponent: in parallel with the `parallel` feature, one after
    /// another without. The result does not depend on the number of threads. `on_run` is called
    /// after each run.
    pub fn experiment(
        &self,
        runs: impl Into<Runs>,
        games: usize,
        on_run: &(dyn Fn() + Sync),
    ) -> ExperimentResult {
        let runs = runs.into();
        let seed = self.learner.seed;
        let (m, g) = (&self.learner, &self.game);
        match (&self.table, &self.enumerated, &self.opposition) {
            (Some(t), _, Opposition::Rival(r)) => {
                RivalTrainer::new(t).experiment(m, &r.machine, seed, runs, games, on_run)
            }
            (Some(t), Some(en), _) => {
                Trainer::new(en, t).experiment_with(m, seed, runs, games, on_run)
            }
            (_, _, Opposition::Rival(r)) => {
                lazy::rival_experiment(g, m, &r.machine, seed, runs, games, on_run)
            }
            (_, _, Opposition::Player(p)) => {
                lazy::experiment(g, m, |_| p.clone(), seed, runs, games, on_run)
            }
            (_, _, Opposition::Person) => {
                crate::learn::engine::run_experiment(runs, games, on_run, |_, _, _| false)
            }
        }
    }
}
