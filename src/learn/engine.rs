//! The fast training engine, for games small enough to enumerate. The game graph, the learner's
//! boxes (in their symmetry frame) and the opponent's choices are compiled into one table of
//! states, so a game is a short walk of array lookups and random draws; the beads of each box sit
//! next to the box's total. The table is built from the same [`Player`]s the position engine
//! ([`super::lazy`]) asks move by move, and both make the same moves from the same random numbers.

use std::collections::HashMap;
use std::sync::Arc;

pub use super::experiment::{ExperimentResult, Runs, run_experiment};
use super::machine::first_box_empty;
use super::{BoxSet, GameResult, LearnError, Machine};
use crate::game::graph::{GameGraph, NodeId};
use crate::game::{Game, Side, Sym};
use crate::players::{PerfectPlayer, Player, RandomPlayer};
use crate::rng::{Rng, derive_seed, uniform_below};
use crate::solve::{GraphValues, Solution, TieBreak};

/// A game with every reachable position enumerated (its whole graph).
pub struct Enumerated<G: Game> {
    pub game: G,
    pub graph: Arc<GameGraph<G>>,
}

impl<G: Game> Enumerated<G> {
    pub fn new(game: G) -> Enumerated<G> {
        let graph = Arc::new(GameGraph::build(&game));
        Enumerated { game, graph }
    }
    /// The game with a graph already built (by [`GameGraph::build_with_progress`], say).
    pub fn from_graph(game: G, graph: Arc<GameGraph<G>>) -> Enumerated<G> {
        Enumerated { game, graph }
    }
}

const OPPONENT: u32 = 0;
const LEARNER: u32 = 1;
/// A machine's single legal move, where its box set has no box.
const FORCED: u32 = 2;
/// The rival machine, in a table for two machines.
const RIVAL: u32 = 3;
const WIN: u32 = 4;
const DRAW: u32 = 5;
const LOSS: u32 = 6;

/// One state of the compiled table: a real position seen in a frame.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
struct State {
    /// Who moves: [`OPPONENT`], [`LEARNER`], [`FORCED`], [`RIVAL`], or how the game ended
    /// ([`WIN`], [`DRAW`], [`LOSS`], from the learner's side).
    mover: u32,
    /// Number of options: arrows of the box, or the opponent's choices.
    options: u32,
    /// A machine's state: where the box's total sits in that machine's bead array.
    beads_at: u32,
    /// Index of the first option in `children`.
    first_option: u32,
}

/// A learner's boxes and an opponent compiled against an arena. State 0 is the start.
pub struct Table {
    side: Side,
    states: Vec<State>,
    /// The option lists: the id of each option's state, and a copy of that state (so the hot
    /// loop moves to the next state with one load).
    children: Vec<u32>,
    child_states: Vec<State>,
    node_of: Vec<NodeId>,
    box_of: Vec<u32>,
}

/// Who moves against the learner in a compiled table.
enum TableOpponent<'a, G: Game> {
    /// A player choosing uniformly among its options ([`Player::uniform_options`]).
    Player(&'a mut dyn Player<G>),
    /// A second machine with its own boxes (its beads live in its own [`Machine`]).
    Machine(&'a BoxSet<G>),
}

/// How a machine moves at a node: from a box (its index and the child of each arrow), or a forced
/// move where its set has no box.
enum BoxMove {
    Box(usize, Vec<NodeId>),
    Forced(NodeId),
}

fn box_move<G: Game>(en: &Enumerated<G>, boxes: &BoxSet<G>, n: NodeId, frame: Sym) -> BoxMove {
    let (game, graph) = (&en.game, &en.graph);
    let (view, sym) = boxes.mode().box_view(game, graph.position(n), frame);
    match boxes.find(&view) {
        Some(b) => {
            let back = game.inverse(sym);
            let children = boxes
                .arrows(b)
                .iter()
                .map(|&arrow| {
                    graph
                        .child_by_move(n, game.transform_move(back, arrow))
                        .expect("a box arrow maps to a legal move of the real position")
                })
                .collect();
            BoxMove::Box(b, children)
        }
        None => {
            // Only a forced move goes without a box.
            assert_eq!(
                graph.children(n).len(),
                1,
                "a position with a choice has a box"
            );
            BoxMove::Forced(graph.children(n)[0])
        }
    }
}

impl Table {
    /// Compiles the learner `boxes` against a player that picks uniformly among a set of moves at
    /// each position (random, perfect). Refused for a player that cannot say its set.
    pub fn against_player<G: Game>(
        en: &Enumerated<G>,
        boxes: &BoxSet<G>,
        player: &mut dyn Player<G>,
    ) -> Result<Table, LearnError> {
        Self::compile(en, boxes, TableOpponent::Player(player))
    }

    /// Compiles the learner `boxes` against the perfect player (the whole graph solved).
    pub fn against_perfect<G: Game>(
        en: &Enumerated<G>,
        boxes: &BoxSet<G>,
        tie_break: TieBreak,
    ) -> Result<Table, LearnError> {
        let solution = Arc::new(Solution::solve(&en.graph)?);
        let values = GraphValues::new(Arc::clone(&en.graph), solution);
        Self::against_player(en, boxes, &mut PerfectPlayer::new(values, tie_break))
    }

    /// Compiles the learner `boxes` against the random player.
    pub fn against_random<G: Game>(en: &Enumerated<G>, boxes: &BoxSet<G>) -> Table {
        Self::against_player(en, boxes, &mut RandomPlayer)
            .expect("the random player always compiles")
    }

    /// Compiles the learner `boxes` against a second machine's boxes.
    pub fn against_machine<G: Game>(
        en: &Enumerated<G>,
        boxes: &BoxSet<G>,
        rival: &BoxSet<G>,
    ) -> Table {
        Self::compile(en, boxes, TableOpponent::Machine(rival))
            .expect("a machine opponent always compiles")
    }

    /// Compiles the states reachable from the start when the learner plays its arrows and the
    /// opponent plays any of its options. In Gardner's mode a state is a (position, frame) pair,
    /// the frame being fixed by the first move; in the other modes it is the position.
    fn compile<G: Game>(
        en: &Enumerated<G>,
        boxes: &BoxSet<G>,
        mut opponent: TableOpponent<G>,
    ) -> Result<Table, LearnError> {
        let (game, graph) = (&en.game, &en.graph);
        let side = boxes.side();
        let frame_mode = match &opponent {
            TableOpponent::Machine(b) if b.mode() == super::SymmetryMode::Gardner => b.mode(),
            _ => boxes.mode(),
        };
        let mut t = Table {
            side,
            states: Vec::new(),
            children: Vec::new(),
            child_states: Vec::new(),
            node_of: Vec::new(),
            box_of: Vec::new(),
        };
        let mut ids: HashMap<(NodeId, u8), u32> = HashMap::new();
        let mut queue: Vec<(NodeId, u8)> = vec![(0, 0)];
        ids.insert((0, 0), 0);
        let mut next = 0;
        let mut opts: Vec<NodeId> = Vec::new();
        while next < queue.len() {
            let (n, frame) = queue[next];
            next += 1;
            let mut state = State {
                mover: OPPONENT,
                options: 0,
                beads_at: 0,
                first_option: 0,
            };
            let mut box_index = u32::MAX;
            opts.clear();
            let outcome = graph.outcome(n);
            let learner_moves = outcome.is_none() && graph.to_move(n) == side;
            let machine = match (&opponent, learner_moves) {
                (_, true) => Some((boxes, LEARNER)),
                (TableOpponent::Machine(b), false) => Some((*b, RIVAL)),
                (TableOpponent::Player(_), false) => None,
            };
            match (outcome, machine) {
                (Some(o), _) => {
                    state.mover = match o.winner {
                        None => DRAW,
                        Some(w) if w == side => WIN,
                        Some(_) => LOSS,
                    }
                }
                (None, Some((set, mover))) => match box_move(en, set, n, Sym(frame)) {
                    BoxMove::Box(b, children) => {
                        state.mover = mover;
                        opts.extend(children);
                        state.beads_at = set.bead_index(b) as u32;
                        box_index = b as u32;
                    }
                    BoxMove::Forced(child) => {
                        state.mover = FORCED;
                        opts.push(child);
                    }
                },
                (None, None) => {
                    if let TableOpponent::Player(player) = &mut opponent {
                        let moves = player
                            .uniform_options(game, graph.position(n))
                            .ok_or(LearnError::NotCompilable)?;
                        for mv in moves {
                            opts.push(
                                graph
                                    .child_by_move(n, mv)
                                    .ok_or(LearnError::NotCompilable)?,
                            );
                        }
                    }
                }
            }
            state.options = opts.len() as u32;
            state.first_option = t.children.len() as u32;
            let ply = graph.depth(n) as u32;
            for &c in &opts {
                // The frame is fixed by the first move (it only matters in Gardner's mode).
                let f = frame_mode
                    .frame_after(game, ply + 1, graph.position(c), Sym(frame))
                    .0;
                let id = *ids.entry((c, f)).or_insert_with(|| {
                    queue.push((c, f));
                    (queue.len() - 1) as u32
                });
                t.children.push(id);
            }
            t.states.push(state);
            t.node_of.push(n);
            t.box_of.push(box_index);
        }
        t.child_states = t.children.iter().map(|&c| t.states[c as usize]).collect();
        Ok(t)
    }

    pub fn side(&self) -> Side {
        self.side
    }
    /// The real position of a state.
    pub fn node(&self, state: u32) -> NodeId {
        self.node_of[state as usize]
    }
    /// The states the side to move may go to from `state` (the learner's arrows, or the
    /// opponent's options, in the graph's move order).
    pub fn options(&self, state: u32) -> &[u32] {
        let s = self.states[state as usize];
        &self.children[s.first_option as usize..(s.first_option + s.options) as usize]
    }
    /// Whether the opponent is to move in `state`.
    pub fn opponent_to_move(&self, state: u32) -> bool {
        self.states[state as usize].mover == OPPONENT
    }
    pub fn len(&self) -> usize {
        self.states.len()
    }
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }
}

/// One game in progress.
#[derive(Clone, Debug, Default)]
pub struct GameState {
    /// The current state of the compiled table.
    pub state: u32,
    pub plies: u32,
    /// The learner's moves so far: (box base, arrow index in the box).
    pub played: Vec<(u32, u32)>,
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
        if s.mover == OPPONENT {
            // Always one draw, even from a single option: one branch fewer.
            Ok(uniform_below(rng, s.options))
        } else if s.mover == LEARNER {
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
        result
    }

    /// Plays `games` games, returning each result.
    pub fn train(&self, m: &mut Machine<G>, games: usize) -> Vec<GameResult> {
        let mut st = GameState::new();
        (0..games).map(|_| self.play_game(m, &mut st)).collect()
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
        run_experiment(runs.into(), games, on_run, |run, results| {
            let mut m = template.clone();
            m.reseed(derive_seed(seed, run));
            let mut st = GameState::new();
            results.extend((0..games).map(|_| self.play_game(&mut m, &mut st)));
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
        run_experiment(runs.into(), games, on_run, |run, results| {
            let (mut ma, mut mb) = (a.clone(), b.clone());
            let run_seed = derive_seed(seed, run);
            ma.reseed(run_seed);
            mb.reseed(derive_seed(run_seed, u64::MAX));
            results.extend(self.train(&mut ma, &mut mb, games));
            first_box_empty(&ma)
        })
    }
}
