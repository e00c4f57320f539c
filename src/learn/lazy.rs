//! The position engine: a game is played from positions, move by move, and a lazy machine makes a
//! box the first time it meets a position (in its symmetry frame), so memory grows with the boxes
//! made, not with the game's size. It works for any game and any [`Player`]; for a game small
//! enough to enumerate it makes exactly the moves the compiled table makes from the same random
//! numbers (tested), at a fraction of the speed.

use super::ends::{End, EndTally};
use super::machine::first_box_empty;
use super::{GameResult, Machine, MachineGame, MachineMove, SymmetryMode};
use crate::game::{Game, Side, Sym};
use crate::players::{Player, Turn};
use crate::rng::derive_seed;

/// A matchbox machine as a [`Player`]: it tracks its own frame and moves, and learns when told the
/// game is over ([`MatchboxPlayer::finish`]). It draws from its own generator.
pub struct MatchboxPlayer<G: Game> {
    pub machine: Machine<G>,
    pub game: MachineGame,
}

impl<G: Game> MatchboxPlayer<G> {
    pub fn new(machine: Machine<G>) -> Self {
        MatchboxPlayer {
            machine,
            game: MachineGame::default(),
        }
    }
    /// Reinforces the machine for the game just ended (`result` is the machine's) and gets ready
    /// for the next.
    pub fn finish(&mut self, result: GameResult) {
        self.machine.reinforce(&self.game.played, result);
        self.game.clear();
    }
}

/// The frame a machine with `mode` sees the game in, from the positions played so far.
fn frame_of<G: Game>(game: &G, mode: SymmetryMode, history: &[G::Position]) -> Sym {
    match history.get(1) {
        Some(after_first) => mode.frame_after(game, 1, after_first, Sym::IDENTITY),
        None => Sym::IDENTITY,
    }
}

impl<G: Game> Player<G> for MatchboxPlayer<G> {
    fn choose(&mut self, game: &G, pos: &G::Position, turn: Turn<'_, G>) -> Option<G::Move> {
        let frame = frame_of(game, self.machine.boxes.mode(), turn.history);
        match self
            .machine
            .choose(game, pos, turn.ply, frame, &mut self.game)
        {
            MachineMove::Move { mv, .. } => Some(mv),
            MachineMove::Resign { .. } => None,
        }
    }
}

/// Reusable buffers for games played from positions.
pub struct Scratch<G: Game> {
    history: Vec<G::Position>,
    learner: MachineGame,
    /// How the last game ended.
    pub end: Option<End<G::Reason>>,
}

impl<G: Game> Scratch<G> {
    /// The learner's moves of the last game: (box base, arrow index in the box).
    pub fn learner_played(&self) -> &[(u32, u32)] {
        &self.learner.played
    }
}

impl<G: Game> Default for Scratch<G> {
    fn default() -> Self {
        Scratch {
            history: Vec::new(),
            learner: MachineGame::default(),
            end: None,
        }
    }
}

/// How a game ended, from the learner's side.
pub(crate) fn result_for(winner: Option<Side>, learner: Side) -> GameResult {
    match winner {
        None => GameResult::Draw,
        Some(w) if w == learner => GameResult::Win,
        Some(_) => GameResult::Loss,
    }
}

/// Plays one game of the machine `m` against `opponent` from the start, reinforces the machine,
/// and returns its result. The opponent draws from the machine's generator (as in the compiled
/// table), so a seeded run is reproducible; an opponent that resigns loses.
pub fn play_game<G: Game>(
    game: &G,
    m: &mut Machine<G>,
    opponent: &mut dyn Player<G>,
    scratch: &mut Scratch<G>,
) -> GameResult {
    let side = m.boxes.side();
    let mode = m.boxes.mode();
    scratch.history.clear();
    scratch.learner.clear();
    let mut pos = game.start();
    scratch.history.push(pos.clone());
    let mut frame = Sym::IDENTITY;
    let mut ply = 0u32;
    let limit = game.ply_limit().unwrap_or(u32::MAX);
    let (result, end) = loop {
        if let Some(o) = game.outcome(&pos) {
            break (result_for(o.winner, side), End::Rules(o.winner, o.reason));
        }
        if ply >= limit {
            break (GameResult::Draw, End::Limit);
        }
        let mover = game.to_move(&pos);
        let mv = if mover == side {
            match m.choose(game, &pos, ply, frame, &mut scratch.learner) {
                MachineMove::Move { mv, .. } => mv,
                MachineMove::Resign { .. } => break (GameResult::Loss, End::Resigned(mover)),
            }
        } else {
            let turn = Turn {
                ply,
                history: &scratch.history,
                rng: &mut m.rng,
            };
            match opponent.choose(game, &pos, turn) {
                Some(mv) => mv,
                None => break (GameResult::Win, End::Resigned(mover)),
            }
        };
        pos = game.play(&pos, mv);
        ply += 1;
        frame = mode.frame_after(game, ply, &pos, frame);
        scratch.history.push(pos.clone());
    };
    m.reinforce(&scratch.learner.played, result);
    scratch.end = Some(end);
    result
}

/// Plays `games` games, returning each result.
pub fn train<G: Game>(
    game: &G,
    m: &mut Machine<G>,
    opponent: &mut dyn Player<G>,
    games: usize,
) -> Vec<GameResult> {
    let mut scratch = Scratch::default();
    (0..games)
        .map(|_| play_game(game, m, opponent, &mut scratch))
        .collect()
}

/// One game between two machines from positions; both learn. The result is the learner's (`a`).
pub fn rival_game<G: Game>(
    game: &G,
    a: &mut Machine<G>,
    b: &mut MatchboxPlayer<G>,
    scratch: &mut Scratch<G>,
) -> GameResult {
    let result = play_game(game, a, b, scratch);
    b.finish(result.for_opponent());
    result
}

/// `runs` runs of `games` games from positions: run `i`'s learner is `template` reseeded with
/// `derive_seed(seed, i)`, its opponent made by `opponent` from that seed, each game played by
/// `play`; in parallel, with a result that does not depend on the number of threads.
#[allow(clippy::too_many_arguments)]
fn runs_of<G: Game, O>(
    game: &G,
    template: &Machine<G>,
    opponent: impl Fn(u64) -> O + Sync,
    play: impl Fn(&G, &mut Machine<G>, &mut O, &mut Scratch<G>) -> GameResult + Sync,
    seed: u64,
    runs: super::experiment::Runs,
    games: usize,
    on_run: &(dyn Fn() + Sync),
) -> super::engine::ExperimentResult {
    super::engine::run_experiment(runs, games, on_run, |run, results, ends| {
        let mut m = template.clone();
        let run_seed = derive_seed(seed, run);
        m.reseed(run_seed);
        let mut opp = opponent(run_seed);
        let mut scratch = Scratch::default();
        let mut tally = EndTally::new();
        results.extend((0..games).map(|_| {
            let r = play(game, &mut m, &mut opp, &mut scratch);
            if let Some(end) = scratch.end {
                tally.add(end);
            }
            r
        }));
        tally.name_into(game, ends);
        first_box_empty(&m)
    })
}

/// Trains `runs` copies of `template` from positions, run `i` reseeded with
/// `derive_seed(seed, i)`, each against a fresh copy of the opponent made by `opponent`, in
/// parallel. The result does not depend on the number of threads.
pub fn experiment<G: Game, P: Player<G>>(
    game: &G,
    template: &Machine<G>,
    opponent: impl Fn(u64) -> P + Sync,
    seed: u64,
    runs: super::experiment::Runs,
    games: usize,
    on_run: &(dyn Fn() + Sync),
) -> super::engine::ExperimentResult {
    let play = |g: &G, m: &mut Machine<G>, o: &mut P, s: &mut Scratch<G>| play_game(g, m, o, s);
    runs_of(game, template, opponent, play, seed, runs, games, on_run)
}

/// As [`experiment`], against a rival machine that learns too: a fresh copy of `rival` a run,
/// seeded from the run's seed.
pub fn rival_experiment<G: Game>(
    game: &G,
    template: &Machine<G>,
    rival: &Machine<G>,
    seed: u64,
    runs: super::experiment::Runs,
    games: usize,
    on_run: &(dyn Fn() + Sync),
) -> super::engine::ExperimentResult {
    let opponent = |run_seed| {
        let mut b = MatchboxPlayer::new(rival.clone());
        b.machine.reseed(derive_seed(run_seed, u64::MAX));
        b
    };
    runs_of(
        game, template, opponent, rival_game, seed, runs, games, on_run,
    )
}
