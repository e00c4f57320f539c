//! The fast training engine. The game graph, the learner's boxes (in their symmetry frame) and the
//! opponent's choices are compiled into one table of states, so a game is a short walk of array
//! lookups and random draws; the beads of each box sit next to the box's total.

use std::collections::HashMap;
use std::sync::Arc;

use super::{Beads, BoxSet, GameResult, Reinforcement, Rng, Scope, StageBeads, SymmetryMode};
use crate::game::graph::{GameGraph, NodeId};
use crate::game::{Game, Side, Sym};
use crate::players::Opponent;

/// A game with its whole reachable graph and each node's canonical symmetry.
pub struct Arena<G: Game> {
    pub game: G,
    pub graph: GameGraph<G>,
    canon: Vec<u8>,
}

impl<G: Game> Arena<G> {
    pub fn new(game: G) -> Arena<G> {
        let graph = GameGraph::build(&game);
        let canon = (0..graph.len() as NodeId)
            .map(|n| game.canonical(graph.position(n)).1.0)
            .collect();
        Arena { game, graph, canon }
    }
    pub fn canonical_sym(&self, n: NodeId) -> Sym {
        Sym(self.canon[n as usize])
    }
}

/// Where a box's beads live in a machine's flat bead array: `[total, arrow 0, arrow 1, …]`.
fn box_base<G: Game>(boxes: &BoxSet<G>, b: usize) -> usize {
    boxes.arrow_start(b) + b
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
    kind: u32,
    /// Number of options: arrows of the box, or the opponent's choices.
    len: u32,
    /// Learner states: index of the box's total in the machine's bead array.
    base: u32,
    /// Index of the first option in `children`.
    child0: u32,
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

/// Who moves for the learner's rival in a compiled table.
pub enum RivalPlan<'a, G: Game> {
    /// A player choosing uniformly among its options.
    Player(&'a Opponent),
    /// A second machine with its own boxes (its beads live in its own [`Machine`]).
    Machine(&'a BoxSet<G>),
}

/// How a machine moves at a node: from a box (its index and the child of each arrow), or a forced
/// move where its set has no box.
enum MachineMove {
    Box(usize, Vec<NodeId>),
    Forced(NodeId),
}

fn machine_move<G: Game>(arena: &Arena<G>, boxes: &BoxSet<G>, n: NodeId, frame: u8) -> MachineMove {
    let (game, graph) = (&arena.game, &arena.graph);
    let sym = match boxes.mode() {
        SymmetryMode::None => Sym::IDENTITY,
        SymmetryMode::Full => arena.canonical_sym(n),
        SymmetryMode::Gardner => Sym(frame),
    };
    match boxes.find(&game.transform_position(sym, graph.position(n))) {
        Some(b) => {
            let back = game.inverse(sym);
            let children = boxes
                .get(b)
                .arrows
                .iter()
                .map(|&arrow| {
                    graph
                        .child_by_move(n, game.transform_move(back, arrow))
                        .expect("a box arrow maps to a legal move of the real position")
                })
                .collect();
            MachineMove::Box(b, children)
        }
        None => {
            // Only a forced move goes without a box.
            assert_eq!(
                graph.children(n).len(),
                1,
                "a position with a choice has a box"
            );
            MachineMove::Forced(graph.children(n)[0])
        }
    }
}

impl Table {
    /// Compiles the states reachable from the start when the learner plays its arrows and the
    /// opponent plays any of its options. In Gardner's mode a state is a (position, frame) pair,
    /// the frame being fixed by the first move; in the other modes it is the position.
    pub fn new<G: Game>(arena: &Arena<G>, boxes: &BoxSet<G>, opponent: &Opponent) -> Table {
        Self::compile(arena, boxes, RivalPlan::Player(opponent))
    }

    /// Compiles a table for the learner `boxes` against `rival`.
    pub fn compile<G: Game>(arena: &Arena<G>, boxes: &BoxSet<G>, rival: RivalPlan<G>) -> Table {
        let graph = &arena.graph;
        let side = boxes.side();
        let gardner = boxes.mode() == SymmetryMode::Gardner
            || matches!(&rival, RivalPlan::Machine(b) if b.mode() == SymmetryMode::Gardner);
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
                kind: OPPONENT,
                len: 0,
                base: 0,
                child0: 0,
            };
            let mut box_index = u32::MAX;
            opts.clear();
            let mover_boxes = match (graph.outcome(n), &rival) {
                (Some(_), _) => None,
                (None, _) if graph.to_move(n) == side => Some((boxes, LEARNER)),
                (None, RivalPlan::Machine(b)) => Some((*b, RIVAL)),
                (None, RivalPlan::Player(_)) => None,
            };
            match (graph.outcome(n), mover_boxes) {
                (Some(o), _) => {
                    state.kind = match o.winner {
                        None => DRAW,
                        Some(w) if w == side => WIN,
                        Some(_) => LOSS,
                    }
                }
                (None, Some((set, kind))) => match machine_move(arena, set, n, frame) {
                    MachineMove::Box(b, children) => {
                        state.kind = kind;
                        opts.extend(children);
                        state.base = box_base(set, b) as u32;
                        box_index = b as u32;
                    }
                    MachineMove::Forced(child) => {
                        state.kind = FORCED;
                        opts.push(child);
                    }
                },
                (None, None) => {
                    if let RivalPlan::Player(opponent) = &rival {
                        opts.extend_from_slice(opponent.options(graph, n));
                    }
                }
            }
            state.len = opts.len() as u32;
            state.child0 = t.children.len() as u32;
            let ply = graph.depth(n);
            for &c in &opts {
                // The frame is fixed by the first move (it only matters in Gardner's mode).
                let f = if gardner && ply == 0 {
                    arena.canonical_sym(c).0
                } else {
                    frame
                };
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
        t
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
        &self.children[s.child0 as usize..(s.child0 + s.len) as usize]
    }
    /// Whether the opponent is to move in `state`.
    pub fn opponent_to_move(&self, state: u32) -> bool {
        self.states[state as usize].kind == OPPONENT
    }
    pub fn len(&self) -> usize {
        self.states.len()
    }
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }
}

/// A learner: its boxes, the beads in them, its settings and its random number generator.
pub struct Machine<G: Game> {
    pub boxes: Arc<BoxSet<G>>,
    pub initial: StageBeads,
    pub reinforcement: Reinforcement,
    /// The seed the generator was last seeded with.
    pub seed: u64,
    pub rng: Rng,
    pub games_played: u64,
    /// For each box in turn: its total, then the beads of each arrow.
    cells: Vec<u32>,
}

impl<G: Game> Clone for Machine<G> {
    fn clone(&self) -> Self {
        Machine {
            boxes: Arc::clone(&self.boxes),
            initial: self.initial.clone(),
            reinforcement: self.reinforcement,
            seed: self.seed,
            rng: self.rng.clone(),
            games_played: self.games_played,
            cells: self.cells.clone(),
        }
    }
}

impl<G: Game> std::fmt::Debug for Machine<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Machine")
            .field("boxes", &self.boxes.len())
            .field("beads_left", &self.beads_left())
            .field("games_played", &self.games_played)
            .field("seed", &self.seed)
            .finish()
    }
}

impl<G: Game> Machine<G> {
    /// A fresh machine: every arrow gets its stage's initial beads.
    pub fn new(
        boxes: Arc<BoxSet<G>>,
        initial: StageBeads,
        reinforcement: Reinforcement,
        seed: u64,
    ) -> Machine<G> {
        let mut m = Machine {
            cells: Vec::new(),
            boxes,
            initial,
            reinforcement,
            seed,
            rng: super::rng_from_seed(seed),
            games_played: 0,
        };
        m.reset();
        m
    }

    /// Seeds the generator afresh (the beads are kept).
    pub fn reseed(&mut self, seed: u64) {
        self.seed = seed;
        self.rng = super::rng_from_seed(seed);
    }

    /// Refills every box with its initial beads, reseeds and forgets the games played.
    pub fn reset(&mut self) {
        let mut cells = Vec::with_capacity(self.boxes.len() + self.boxes.arrow_count());
        for b in self.boxes.boxes() {
            let n = self.initial.for_stage(b.stage as usize).get();
            cells.push(n.saturating_mul(b.arrows.len() as u32));
            cells.extend(std::iter::repeat_n(n, b.arrows.len()));
        }
        self.cells = cells;
        self.reseed(self.seed);
        self.games_played = 0;
    }

    fn base(&self, b: usize) -> usize {
        box_base(&self.boxes, b)
    }

    /// The beads of each arrow of box `b`.
    pub fn beads_in(&self, b: usize) -> Vec<Beads> {
        let base = self.base(b);
        self.cells[base + 1..base + 1 + self.boxes.get(b).arrows.len()]
            .iter()
            .map(|&n| Beads(n))
            .collect()
    }
    /// Replaces the beads of box `b`, one count per arrow.
    pub fn set_beads(&mut self, b: usize, beads: &[Beads]) {
        let base = self.base(b);
        assert_eq!(
            beads.len(),
            self.boxes.get(b).arrows.len(),
            "one count per arrow"
        );
        for (cell, n) in self.cells[base + 1..].iter_mut().zip(beads) {
            *cell = n.get();
        }
        self.cells[base] = beads.iter().map(|n| n.get()).fold(0, u32::saturating_add);
    }
    pub fn box_total(&self, b: usize) -> u32 {
        self.cells[self.base(b)]
    }
    pub fn beads_left(&self) -> u64 {
        (0..self.boxes.len())
            .map(|b| self.box_total(b) as u64)
            .sum()
    }
    pub fn boxes_emptied(&self) -> usize {
        (0..self.boxes.len())
            .filter(|&b| self.box_total(b) == 0)
            .count()
    }

    /// Draws one bead uniformly from the box whose total is at `base` in `cells`: the arrow's index
    /// in the box, or `None` when the box is empty (the machine resigns).
    #[inline(always)]
    fn draw_at(cells: &[u32], rng: &mut Rng, base: usize, len: usize) -> Option<usize> {
        let total = cells[base];
        if total == 0 {
            return None;
        }
        let r = super::uniform_below(rng, total);
        // Branch-free: the arrow is the number of arrows whose running total is still <= r.
        let mut arrow = 0;
        let mut running = 0;
        for &n in &cells[base + 1..base + 1 + len] {
            running += n;
            arrow += usize::from(running <= r);
        }
        Some(arrow)
    }

    /// Draws one bead from box `b` (see [`Machine::draw_at`]).
    pub fn draw(&mut self, b: usize) -> Option<usize> {
        let (base, len) = (self.base(b), self.boxes.get(b).arrows.len());
        Self::draw_at(&self.cells, &mut self.rng, base, len)
    }

    /// Applies the reinforcement for a finished game to the moves played, given as (box base,
    /// arrow index in box) pairs in order, and counts the game.
    #[inline]
    fn reinforce(&mut self, played: &[(u32, u32)], result: GameResult) {
        self.games_played += 1;
        let delta = self.reinforcement.delta(result);
        if delta == 0 {
            return;
        }
        let chosen = match self.reinforcement.scope {
            Scope::AllMoves => played,
            Scope::LastMove => &played[played.len().saturating_sub(1)..],
        };
        for &(base, arrow) in chosen {
            let cell = (base + 1 + arrow) as usize;
            let before = self.cells[cell];
            let after = before.saturating_add_signed(delta);
            self.cells[cell] = after;
            let total = &mut self.cells[base as usize];
            *total = (*total - before).saturating_add(after);
        }
    }
}

/// One game in progress.
#[derive(Clone, Debug, Default)]
pub struct GameState {
    /// The current state of the compiled table.
    pub state: u32,
    pub plies: u32,
    /// The learner's moves so far: (box base, arrow index in the box).
    played: Vec<(u32, u32)>,
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
    pub arena: &'a Arena<G>,
    pub table: &'a Table,
}

impl<'a, G: Game> Trainer<'a, G> {
    pub fn new(arena: &'a Arena<G>, table: &'a Table) -> Self {
        Trainer { arena, table }
    }

    /// The move made from state `s`: the index of the option taken, or the end of the game (a
    /// resignation is a loss). The learner's draws are appended to `played`. The learner's and the
    /// opponent's moves take the same path (a weighted draw from the beads or from equal weights),
    /// which keeps the loop free of hard-to-predict branches.
    #[inline(always)]
    fn choose(
        cells: &[u32],
        rng: &mut Rng,
        s: State,
        played: &mut Vec<(u32, u32)>,
    ) -> Result<u32, GameResult> {
        if s.kind == OPPONENT {
            // Always one draw, even from a single option: one branch fewer.
            Ok(super::uniform_below(rng, s.len))
        } else if s.kind == LEARNER {
            match Machine::<G>::draw_at(cells, rng, s.base as usize, s.len as usize) {
                Some(i) => {
                    played.push((s.base, i as u32));
                    Ok(i as u32)
                }
                None => Err(GameResult::Loss),
            }
        } else if s.kind == FORCED {
            Ok(0)
        } else {
            Err(match s.kind {
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
            Some(p) if s.kind == OPPONENT && p < s.len => Ok(p),
            _ => Self::choose(&m.cells, &mut m.rng, s, &mut st.played),
        };
        match choice {
            Ok(pick) => {
                st.state = self.table.children[(s.child0 + pick) as usize];
                st.plies += 1;
                if s.kind == LEARNER {
                    Step::Learner {
                        box_index,
                        arrow: pick as usize,
                    }
                } else {
                    Step::Opponent
                }
            }
            Err(_) if s.kind == LEARNER => Step::Resigned { box_index },
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
            match Self::choose(&m.cells, &mut rng, s, &mut st.played) {
                Ok(pick) => s = child_states[(s.child0 + pick) as usize],
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
        runs: usize,
        games: usize,
    ) -> ExperimentResult {
        self.experiment_with(template, seed, runs, games, &|| {})
    }

    /// As [`Trainer::experiment`], calling `on_run` after each run (for a progress bar).
    pub fn experiment_with(
        &self,
        template: &Machine<G>,
        seed: u64,
        runs: usize,
        games: usize,
        on_run: &(dyn Fn() + Sync),
    ) -> ExperimentResult {
        run_experiment(runs, games, on_run, |run, results| {
            let mut m = template.clone();
            m.reseed(super::derive_seed(seed, run));
            let mut st = GameState::new();
            results.extend((0..games).map(|_| self.play_game(&mut m, &mut st)));
            first_box_empty(&m)
        })
    }
}

/// Whether every box of a machine's first move is empty (it resigns every game).
pub fn first_box_empty<G: Game>(m: &Machine<G>) -> bool {
    let mut first = (0..m.boxes.len())
        .filter(|&b| m.boxes.get(b).stage == 0)
        .peekable();
    first.peek().is_some() && first.all(|b| m.box_total(b) == 0)
}

/// Runs `play_run(i, results)` for every run `i` in parallel (it fills `results` with the run's
/// games and says whether its first box ended empty) and sums the counts. Integer sums, so the
/// result does not depend on the number of threads.
pub fn run_experiment(
    runs: usize,
    games: usize,
    on_run: &(dyn Fn() + Sync),
    play_run: impl Fn(u64, &mut Vec<GameResult>) -> bool + Sync,
) -> ExperimentResult {
    use rayon::prelude::*;
    (0..runs as u64)
        .into_par_iter()
        .fold(
            || (ExperimentResult::empty(games), Vec::with_capacity(games)),
            |(mut acc, mut results), run| {
                results.clear();
                let stuck = play_run(run, &mut results);
                acc.add_run(&results, stuck);
                on_run();
                (acc, results)
            },
        )
        .map(|(acc, _)| acc)
        .reduce(|| ExperimentResult::empty(games), ExperimentResult::merge)
}

/// The learner's and its rival's moves in a game between two machines.
#[derive(Clone, Debug, Default)]
pub struct DuelState {
    learner: Vec<(u32, u32)>,
    rival: Vec<(u32, u32)>,
}

/// Two machines playing each other, both learning: the learner (`a`) and its rival (`b`), compiled
/// with [`RivalPlan::Machine`].
pub struct Duel<'a, G: Game> {
    pub arena: &'a Arena<G>,
    pub table: &'a Table,
}

impl<'a, G: Game> Duel<'a, G> {
    pub fn new(arena: &'a Arena<G>, table: &'a Table) -> Self {
        Duel { arena, table }
    }

    /// Plays a game; each machine is reinforced with its own scheme. The result is the learner's.
    pub fn play_game(
        &self,
        a: &mut Machine<G>,
        b: &mut Machine<G>,
        st: &mut DuelState,
    ) -> GameResult {
        st.learner.clear();
        st.rival.clear();
        let child_states = &self.table.child_states[..];
        let mut s = self.table.states[0];
        let result = loop {
            let pick = match s.kind {
                LEARNER => {
                    match Machine::<G>::draw_at(
                        &a.cells,
                        &mut a.rng,
                        s.base as usize,
                        s.len as usize,
                    ) {
                        Some(i) => {
                            st.learner.push((s.base, i as u32));
                            i as u32
                        }
                        None => break GameResult::Loss,
                    }
                }
                RIVAL => {
                    match Machine::<G>::draw_at(
                        &b.cells,
                        &mut b.rng,
                        s.base as usize,
                        s.len as usize,
                    ) {
                        Some(i) => {
                            st.rival.push((s.base, i as u32));
                            i as u32
                        }
                        None => break GameResult::Win,
                    }
                }
                FORCED => 0,
                WIN => break GameResult::Win,
                DRAW => break GameResult::Draw,
                _ => break GameResult::Loss,
            };
            s = child_states[(s.child0 + pick) as usize];
        };
        a.reinforce(&st.learner, result);
        b.reinforce(&st.rival, result.for_opponent());
        result
    }

    /// Plays `games` games, returning each result from the learner's side.
    pub fn train(&self, a: &mut Machine<G>, b: &mut Machine<G>, games: usize) -> Vec<GameResult> {
        let mut st = DuelState::default();
        (0..games).map(|_| self.play_game(a, b, &mut st)).collect()
    }

    /// As [`Trainer::experiment`], with a fresh copy of the rival per run, seeded from the run's
    /// seed; `on_run` is called after each run.
    pub fn experiment(
        &self,
        a: &Machine<G>,
        b: &Machine<G>,
        seed: u64,
        runs: usize,
        games: usize,
        on_run: &(dyn Fn() + Sync),
    ) -> ExperimentResult {
        run_experiment(runs, games, on_run, |run, results| {
            let (mut ma, mut mb) = (a.clone(), b.clone());
            let run_seed = super::derive_seed(seed, run);
            ma.reseed(run_seed);
            mb.reseed(super::derive_seed(run_seed, u64::MAX));
            results.extend(self.train(&mut ma, &mut mb, games));
            first_box_empty(&ma)
        })
    }
}

/// Results of many independent learners, counted per game index (0-based).
#[derive(Clone, Debug, PartialEq, Eq)]
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
}

impl ExperimentResult {
    fn empty(games: usize) -> Self {
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
        let mut lost = 0u64;
        for (g, &r) in results.iter().enumerate() {
            lost += u64::from(r == GameResult::Loss);
            self.cumulative_losses[g] += lost;
            self.cumulative_losses_sq[g] += lost * lost;
            match r {
                GameResult::Win => self.wins_by_game[g] += 1,
                GameResult::Draw => self.draws_by_game[g] += 1,
                GameResult::Loss => {
                    self.losses_by_game[g] += 1;
                    if !first_box_empty {
                        self.losses_by_game_first_box_kept[g] += 1;
                    }
                }
            }
        }
    }

    fn merge(mut self, other: Self) -> Self {
        self.runs += other.runs;
        self.first_box_empty += other.first_box_empty;
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
            a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        }
        for (a, b) in [
            (&mut self.cumulative_losses, &other.cumulative_losses),
            (&mut self.cumulative_losses_sq, &other.cumulative_losses_sq),
        ] {
            a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        }
        self
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
