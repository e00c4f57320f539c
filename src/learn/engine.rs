//! The fast training engine, for games small enough to enumerate: games played on the compiled
//! table ([`Table`]), step by step for the screens or whole (the long runs and experiments on
//! the fast loop where it takes the table). The table is built from the same [`Player`]s the position engine
//! ([`super::lazy`]) asks move by move, and both make the same moves from the same random numbers.

pub use super::ends::Ends;
pub use super::experiment::{ExperimentResult, Runs, run_experiment, run_in_lanes};
use super::machine::first_box_empty;
use super::table::{DRAW, FORCED, LEARNER, OPPONENT, RIVAL, State, WIN};
pub use super::table::{Enumerated, Table};
use super::{GameResult, Machine};
use crate::game::Game;
use crate::rng::{Rng, derive_seed, uniform_below};

/// One game in progress.
#[derive(Clone, Debug, Default)]
pub struct GameState {
    /// The current state of the compiled table.
    pub state: u32,
    pub plies: u32,
    /// The learner's moves so far: (box base, arrow index in the box).
    pub played: Vec<(u32, u32)>,
    /// How the last whole game ([`Trainer::play_game`]) ended: an end id of the table.
    pub end: u32,
}

impl GameState {
    pub fn new() -> GameState {
        GameState::default()
    }
    pub fn restart(&mut self) {
        self.state = 0;
        self.plies = 0;
        self.played.clear();
    }
    /// How many moves the learner has made in this game.
    pub fn learner_moves(&self) -> usize {
        self.played.len()
    }
}

/// What one step of a game did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The learner opened box `box_index` and drew a bead for arrow `arrow` (index in the box).
    Learner { box_index: usize, arrow: usize },
    /// The learner opened an empty box and resigned.
    Resigned { box_index: usize },
    /// The opponent moved.
    Opponent,
    /// The game is over.
    Over(GameResult),
}

impl Step {
    /// The result if the game ended at this step (a resignation is a loss).
    pub fn result(self) -> Option<GameResult> {
        match self {
            Step::Over(r) => Some(r),
            Step::Resigned { .. } => Some(GameResult::Loss),
            _ => None,
        }
    }
}

/// Plays games between a machine and the opponent compiled into a table.
pub struct Trainer<'a, G: Game> {
    pub enumerated: &'a Enumerated<G>,
    pub table: &'a Table,
}

impl<'a, G: Game> Trainer<'a, G> {
    pub fn new(enumerated: &'a Enumerated<G>, table: &'a Table) -> Self {
        Trainer { enumerated, table }
    }

    /// The move made from state `s`: the index of the option taken, or the end of the game (a
    /// resignation is a loss). The learner's draws are appended to `played`. The learner's and the
    /// opponent's moves take the same path (a weighted draw from the beads or from equal weights),
    /// which keeps the loop free of hard-to-predict branches.
    #[inline(always)]
    fn choose(
        beads: &[u32],
        rng: &mut Rng,
        s: State,
        played: &mut Vec<(u32, u32)>,
    ) -> Result<u32, GameResult> {
        // A two-way test on who draws, then the draw: not a jump table on the mover, whose
        // indirect jump the processor mispredicted on most plies.
        if s.mover <= LEARNER {
            if s.mover == OPPONENT {
                // Always one draw, even from a single option: one branch fewer.
                return Ok(uniform_below(rng, s.options));
            }
            match Machine::<G>::draw_at(beads, rng, s.beads_at as usize, s.options as usize) {
                Some(i) => {
                    played.push((s.beads_at, i as u32));
                    Ok(i as u32)
                }
                None => Err(GameResult::Loss),
            }
        } else if s.mover == FORCED {
            Ok(0)
        } else {
            Err(match s.mover {
                WIN => GameResult::Win,
                DRAW => GameResult::Draw,
                _ => GameResult::Loss,
            })
        }
    }

    /// Plays one ply of the game in `st` (or reports that it is over). Does not reinforce.
    pub fn step(&self, m: &mut Machine<G>, st: &mut GameState) -> Step {
        self.step_with(m, st, None)
    }

    /// Like [`Trainer::step`], but when the opponent is to move it plays option `pick` (an index
    /// into [`Table::options`]) instead of drawing one: how a person plays the machine.
    pub fn step_with(&self, m: &mut Machine<G>, st: &mut GameState, pick: Option<u32>) -> Step {
        let from = st.state as usize;
        let s = self.table.states[from];
        let box_index = self.table.box_of[from] as usize;
        let choice = match pick {
            Some(p) if s.mover == OPPONENT && p < s.options => Ok(p),
            _ => {
                let (beads, rng) = m.beads_and_rng();
                Self::choose(beads, rng, s, &mut st.played)
            }
        };
        match choice {
            Ok(pick) => {
                st.state = self.table.children[(s.first_option + pick) as usize];
                st.plies += 1;
                if s.mover == LEARNER {
                    Step::Learner {
                        box_index,
                        arrow: pick as usize,
                    }
                } else {
                    Step::Opponent
                }
            }
            Err(_) if s.mover == LEARNER => Step::Resigned { box_index },
            Err(r) => Step::Over(r),
        }
    }

    /// Reinforces the machine for the finished game in `st`.
    pub fn finish(&self, m: &mut Machine<G>, st: &GameState, result: GameResult) {
        m.reinforce(&st.played, result);
    }

    /// Plays a whole game from the start, reinforces the machine, and returns the result: the same
    /// moves as repeated [`Trainer::step`]s, walking copies of the states so that each ply is one
    /// load. (`st.state` and `st.plies` are not kept up to date here.)
    #[inline]
    pub fn play_game(&self, m: &mut Machine<G>, st: &mut GameState) -> GameResult {
        st.restart();
        let child_states = &self.table.child_states[..];
        let mut s = self.table.states[0];
        // The generator lives in registers for the game, not behind `m`.
        let mut rng = m.rng.clone();
        let result = loop {
            match Self::choose(m.beads_and_rng().0, &mut rng, s, &mut st.played) {
                Ok(pick) => s = child_states[(s.first_option + pick) as usize],
                Err(r) => break r,
            }
        };
        m.rng = rng;
        m.reinforce(&st.played, result);
        st.end = self.table.end_at(s);
        result
    }

    /// Plays `games` games, returning each result.
    pub fn train(&self, m: &mut Machine<G>, games: usize) -> Vec<GameResult> {
        let mut out = Vec::with_capacity(games);
        let mut ends = Ends::default();
        let mut each = |_, r| out.push(r);
        self.train_each(m, &mut GameState::new(), games as u64, &mut each, &mut ends);
        out
    }

    /// Plays `games` games, calling `each` with each game's number (the machine's games played
    /// after it) and result, and counting how they ended in `ends`: [`Trainer::play_game`] one
    /// after another (the screens' way: a call a game; `matchbox train` takes
    /// [`Trainer::train_into`], on the fast loop where it can); the last game leaves its draws in
    /// `st`.
    pub fn train_each(
        &self,
        m: &mut Machine<G>,
        st: &mut GameState,
        games: u64,
        each: &mut dyn FnMut(u64, GameResult),
        ends: &mut Ends,
    ) {
        // Counted by id in the loop, named once after it.
        let mut by_id = vec![0u64; self.table.end_names().len()];
        for _ in 0..games {
            let r = self.play_game(m, st);
            by_id[st.end as usize] += 1;
            each(m.games_played, r);
        }
        self.table.name_ends(&by_id, ends);
    }

    /// Plays `games` games, appending each result to `out` and counting how they ended in
    /// `ends`: [`Trainer::train_each`] without a call a game (for `matchbox train`'s long
    /// runs, where the call and its bookkeeping cost a fifth of the time).
    pub fn train_into(
        &self,
        m: &mut Machine<G>,
        st: &mut GameState,
        games: u64,
        out: &mut Vec<GameResult>,
        ends: &mut Ends,
    ) {
        let mut by_id = vec![0u64; self.table.end_names().len()];
        out.reserve(usize::try_from(games.min(1 << 20)).unwrap_or(0));
        // All but the last game on the fast loop where it takes the table; the last on the
        // general loop, which leaves its draws in `st`.
        let fast = games > 1 && super::fast::train(self.table, m, games - 1, out, &mut by_id);
        let general = if fast { 1 } else { games };
        for _ in 0..general {
            let r = self.play_game(m, st);
            by_id[st.end as usize] += 1;
            out.push(r);
        }
        self.table.name_ends(&by_id, ends);
    }

    /// Trains `runs` copies of `template`, run `i` reseeded with [`super::derive_seed`]`(seed, i)`,
    /// for `games` games each, in parallel. Counts are integer sums, so the result is the same for
    /// any number of threads.
    pub fn experiment(
        &self,
        template: &Machine<G>,
        seed: u64,
        runs: impl Into<Runs>,
        games: usize,
    ) -> ExperimentResult {
        self.experiment_with(template, seed, runs, games, &|| {})
    }

    /// As [`Trainer::experiment`], calling `on_run` after each run (for a progress bar).
    pub fn experiment_with(
        &self,
        template: &Machine<G>,
        seed: u64,
        runs: impl Into<Runs>,
        games: usize,
        on_run: &(dyn Fn() + Sync),
    ) -> ExperimentResult {
        let runs = runs.into();
        match super::fast::experiment(self.table, template, seed, runs, games, on_run) {
            Some(r) => r,
            None => self.general_experiment(template, seed, runs, games, on_run),
        }
    }

    /// Whether experiments and long runs of `m` on this table take the fast loop.
    pub fn has_fast_loop(&self, m: &Machine<G>) -> bool {
        super::fast::takes(self.table, m)
    }

    /// [`Trainer::experiment_with`] on the general loop ([`Trainer::play_game`]): for tables the
    /// fast loop does not take, and to test that the fast loop plays the same games.
    pub fn general_experiment(
        &self,
        template: &Machine<G>,
        seed: u64,
        runs: Runs,
        games: usize,
        on_run: &(dyn Fn() + Sync),
    ) -> ExperimentResult {
        run_experiment(runs, games, on_run, |run, results, ends| {
            let mut m = template.clone();
            m.reseed(derive_seed(seed, run));
            let mut st = GameState::new();
            let mut by_id = vec![0u64; self.table.end_names().len()];
            results.extend((0..games).map(|_| {
                let r = self.play_game(&mut m, &mut st);
                by_id[st.end as usize] += 1;
                r
            }));
            self.table.name_ends(&by_id, ends);
            first_box_empty(&m)
        })
    }
}

/// Draws a bead from the box of machine state `s` and records the draw in `played`; `None` when
/// the box is empty.
#[inline(always)]
fn draw_recorded<G: Game>(
    m: &mut Machine<G>,
    s: State,
    played: &mut Vec<(u32, u32)>,
) -> Option<u32> {
    let (beads, rng) = m.beads_and_rng();
    let i = Machine::<G>::draw_at(beads, rng, s.beads_at as usize, s.options as usize)?;
    played.push((s.beads_at, i as u32));
    Some(i as u32)
}

/// The learner's and its rival's moves in a game between two machines.
#[derive(Clone, Debug, Default)]
pub struct RivalGame {
    /// The learner's moves of the last game: (box base, arrow index in the box).
    pub learner: Vec<(u32, u32)>,
    rival: Vec<(u32, u32)>,
    /// How the last game ended (an end id of the table).
    pub end: u32,
}

/// Two machines playing each other, both learning: the learner (`a`) and its rival (`b`), compiled
/// with [`Table::against_machine`].
pub struct RivalTrainer<'a, G: Game> {
    pub table: &'a Table,
    game: std::marker::PhantomData<G>,
}

impl<'a, G: Game> RivalTrainer<'a, G> {
    pub fn new(table: &'a Table) -> Self {
        RivalTrainer {
            table,
            game: std::marker::PhantomData,
        }
    }

    /// Plays a game; each machine is reinforced with its own scheme. The result is the learner's.
    pub fn play_game(
        &self,
        a: &mut Machine<G>,
        b: &mut Machine<G>,
        st: &mut RivalGame,
    ) -> GameResult {
        st.learner.clear();
        st.rival.clear();
        let child_states = &self.table.child_states[..];
        let mut s = self.table.states[0];
        let result = loop {
            let pick = match s.mover {
                LEARNER => match draw_recorded(a, s, &mut st.learner) {
                    Some(i) => i,
                    None => break GameResult::Loss,
                },
                RIVAL => match draw_recorded(b, s, &mut st.rival) {
                    Some(i) => i,
                    None => break GameResult::Win,
                },
                FORCED => 0,
                WIN => break GameResult::Win,
                DRAW => break GameResult::Draw,
                _ => break GameResult::Loss,
            };
            s = child_states[(s.first_option + pick) as usize];
        };
        a.reinforce(&st.learner, result);
        b.reinforce(&st.rival, result.for_opponent());
        st.end = self.table.end_at(s);
        result
    }

    /// Plays `games` games, returning each result from the learner's side.
    pub fn train(&self, a: &mut Machine<G>, b: &mut Machine<G>, games: usize) -> Vec<GameResult> {
        let mut st = RivalGame::default();
        (0..games).map(|_| self.play_game(a, b, &mut st)).collect()
    }

    /// As [`Trainer::experiment`], with a fresh copy of the rival per run, seeded from the run's
    /// seed; `on_run` is called after each run.
    pub fn experiment(
        &self,
        a: &Machine<G>,
        b: &Machine<G>,
        seed: u64,
        runs: impl Into<Runs>,
        games: usize,
        on_run: &(dyn Fn() + Sync),
    ) -> ExperimentResult {
        run_experiment(runs.into(), games, on_run, |run, results, ends| {
            let (mut ma, mut mb) = (a.clone(), b.clone());
            let run_seed = derive_seed(seed, run);
            ma.reseed(run_seed);
            mb.reseed(derive_seed(run_seed, u64::MAX));
            let mut st = RivalGame::default();
            let mut by_id = vec![0u64; self.table.end_names().len()];
            results.extend((0..games).map(|_| {
                let r = self.play_game(&mut ma, &mut mb, &mut st);
                by_id[st.end as usize] += 1;
                r
            }));
            self.table.name_ends(&by_id, ends);
            first_box_empty(&ma)
        })
    }
}
