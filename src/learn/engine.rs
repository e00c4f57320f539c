//! The fast training engine: the game graph, the learner's boxes and the opponent compiled into
//! dense tables, so a game is a handful of array lookups and random draws.

use std::sync::Arc;

use rand::RngExt;

use super::{Beads, BoxSet, GameResult, Reinforcement, Rng, Scope, StageBeads, SymmetryMode};
use crate::game::graph::{GameGraph, NodeId};
use crate::game::{Game, Side, Sym};
use crate::players::Opponent;

const NO_SLOT: u32 = u32::MAX;

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

/// What a node is, seen by the learner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum Kind {
    Opponent,
    Learner,
    Over(GameResult),
}

/// A learner's boxes compiled against an arena: for each (node, frame) where the learner is to move,
/// a slot naming the box and the real child node of each of its arrows.
pub struct Policy {
    side: Side,
    mode: SymmetryMode,
    sym_count: usize,
    kind: Vec<Kind>,
    slot_of: Vec<u32>,
    slot_box: Vec<u32>,
    slot_child_start: Vec<u32>,
    slot_children: Vec<NodeId>,
    arrow_start: Vec<u32>,
}

impl Policy {
    pub fn new<G: Game>(arena: &Arena<G>, boxes: &BoxSet<G>) -> Policy {
        let (game, graph) = (&arena.game, &arena.graph);
        let side = boxes.side();
        let sym_count = game.symmetry_count();
        let kind = (0..graph.len() as NodeId)
            .map(|n| match graph.outcome(n) {
                Some(o) => Kind::Over(match o.winner {
                    None => GameResult::Draw,
                    Some(w) if w == side => GameResult::Win,
                    Some(_) => GameResult::Loss,
                }),
                None if graph.to_move(n) == side => Kind::Learner,
                None => Kind::Opponent,
            })
            .collect::<Vec<_>>();
        let mut p = Policy {
            side,
            mode: boxes.mode(),
            sym_count,
            kind,
            slot_of: vec![NO_SLOT; graph.len() * sym_count],
            slot_box: Vec::new(),
            slot_child_start: vec![0],
            slot_children: Vec::new(),
            arrow_start: (0..=boxes.len())
                .map(|i| boxes.arrow_start(i) as u32)
                .collect(),
        };
        for n in 0..graph.len() as NodeId {
            if p.kind[n as usize] != Kind::Learner {
                continue;
            }
            for g in 0..sym_count {
                let sym = Sym(g as u8);
                let framed = game.transform_position(sym, graph.position(n));
                let Some(b) = boxes.find(&framed) else {
                    continue;
                };
                let back = game.inverse(sym);
                for &arrow in &boxes.get(b).arrows {
                    let real = game.transform_move(back, arrow);
                    let child = graph
                        .child_by_move(n, real)
                        .expect("a box arrow maps to a legal move of the real position");
                    p.slot_children.push(child);
                }
                p.slot_of[n as usize * sym_count + g] = p.slot_box.len() as u32;
                p.slot_box.push(b as u32);
                p.slot_child_start.push(p.slot_children.len() as u32);
            }
        }
        p
    }

    pub fn side(&self) -> Side {
        self.side
    }

    /// The slot for a learner-to-move node seen in `frame`.
    #[inline]
    fn slot(&self, n: NodeId, frame: u8, canon: u8) -> u32 {
        let g = match self.mode {
            SymmetryMode::None => 0,
            SymmetryMode::Full => canon,
            SymmetryMode::Gardner => frame,
        } as usize;
        self.slot_of[n as usize * self.sym_count + g]
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
    beads: Vec<Beads>,
    totals: Vec<u32>,
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
            beads: self.beads.clone(),
            totals: self.totals.clone(),
        }
    }
}

impl<G: Game> Machine<G> {
    /// Seeds the generator afresh (the beads are kept).
    pub fn reseed(&mut self, seed: u64) {
        self.seed = seed;
        self.rng = super::rng_from_seed(seed);
    }

    /// A fresh machine: every arrow gets its stage's initial beads.
    pub fn new(
        boxes: Arc<BoxSet<G>>,
        initial: StageBeads,
        reinforcement: Reinforcement,
        seed: u64,
    ) -> Machine<G> {
        let mut m = Machine {
            beads: Vec::new(),
            totals: Vec::new(),
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

    /// Refills every box with its initial beads, reseeds and forgets the games played.
    pub fn reset(&mut self) {
        let boxes = Arc::clone(&self.boxes);
        self.beads = boxes
            .boxes()
            .iter()
            .flat_map(|b| std::iter::repeat_n(self.initial.for_stage(b.stage as usize), b.arrows.len()))
            .collect();
        self.recount();
        self.rng = super::rng_from_seed(self.seed);
        self.games_played = 0;
    }

    fn recount(&mut self) {
        self.totals = (0..self.boxes.len())
            .map(|b| self.beads_in(b).iter().map(|x| x.0).sum())
            .collect();
    }

    /// The beads of each arrow of box `b`.
    pub fn beads_in(&self, b: usize) -> &[Beads] {
        &self.beads[self.boxes.arrow_start(b)..self.boxes.arrow_start(b + 1)]
    }
    /// Replaces the beads of box `b` (the caller gives one count per arrow).
    pub fn set_beads(&mut self, b: usize, beads: &[Beads]) {
        let start = self.boxes.arrow_start(b);
        self.beads[start..start + beads.len()].copy_from_slice(beads);
        self.totals[b] = beads.iter().map(|x| x.0).sum();
    }
    pub fn box_total(&self, b: usize) -> u32 {
        self.totals[b]
    }
    pub fn beads_left(&self) -> u64 {
        self.totals.iter().map(|&t| t as u64).sum()
    }
    pub fn boxes_emptied(&self) -> usize {
        self.totals.iter().filter(|&&t| t == 0).count()
    }
    /// Flat bead counts of every arrow of every box.
    pub fn all_beads(&self) -> &[Beads] {
        &self.beads
    }

    /// Draws one bead uniformly at random from box `b`: the arrow's index in the box, or `None`
    /// when the box is empty (the machine resigns).
    #[inline]
    pub fn draw(&mut self, b: usize) -> Option<usize> {
        let total = self.totals[b];
        if total == 0 {
            return None;
        }
        let start = self.boxes.arrow_start(b);
        let mut r = self.rng.random_range(0..total);
        for (i, beads) in self.beads[start..].iter().enumerate() {
            if r < beads.0 {
                return Some(i);
            }
            r -= beads.0;
        }
        unreachable!("box totals match the beads")
    }

    /// Applies the reinforcement for a finished game to the arrows played (flat arrow indexes, in
    /// order), and counts the game.
    #[inline]
    pub fn reinforce(&mut self, played: &[u32], result: GameResult) {
        self.games_played += 1;
        let delta = self.reinforcement.delta(result);
        if delta == 0 {
            return;
        }
        let chosen = match self.reinforcement.scope {
            Scope::AllMoves => played,
            Scope::LastMove => &played[played.len().saturating_sub(1)..],
        };
        for &a in chosen {
            let a = a as usize;
            let before = self.beads[a];
            let after = before.apply(delta);
            self.beads[a] = after;
            let b = self.box_of_arrow(a);
            self.totals[b] = self.totals[b] - before.0 + after.0;
        }
    }

    fn box_of_arrow(&self, a: usize) -> usize {
        // arrow_start is sorted; the box is the last start <= a.
        let mut lo = 0;
        let mut hi = self.boxes.len();
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if self.boxes.arrow_start(mid) <= a {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }
}

/// One game in progress.
#[derive(Clone, Debug, Default)]
pub struct GameState {
    pub node: NodeId,
    /// Gardner's frame (fixed after the first move).
    pub frame: u8,
    pub ply: u32,
    /// Flat indexes of the arrows the learner played.
    pub played: Vec<u32>,
}

impl GameState {
    pub fn new() -> GameState {
        GameState::default()
    }
    fn restart(&mut self) {
        self.node = 0;
        self.frame = 0;
        self.ply = 0;
        self.played.clear();
    }
}

/// What one step of a game did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The learner opened box `box_index` and drew a bead for arrow `arrow` (index in the box).
    Learner {
        box_index: usize,
        arrow: usize,
        node: NodeId,
    },
    /// The learner opened an empty box and resigned.
    Resigned { box_index: usize },
    /// The opponent moved.
    Opponent { node: NodeId },
    /// The game was already over.
    Over(GameResult),
}

/// Plays games between a machine and an opponent.
pub struct Trainer<'a, G: Game> {
    pub arena: &'a Arena<G>,
    pub policy: &'a Policy,
    pub opponent: &'a Opponent,
}

impl<'a, G: Game> Trainer<'a, G> {
    pub fn new(arena: &'a Arena<G>, policy: &'a Policy, opponent: &'a Opponent) -> Self {
        Trainer {
            arena,
            policy,
            opponent,
        }
    }

    /// Plays one ply of the game in `st` (or reports that it is over).
    #[inline]
    pub fn step(&self, m: &mut Machine<G>, st: &mut GameState) -> Step {
        let n = st.node;
        let step = match self.policy.kind[n as usize] {
            Kind::Over(r) => return Step::Over(r),
            Kind::Learner => {
                let slot = self.policy.slot(n, st.frame, self.arena.canon[n as usize]);
                debug_assert_ne!(slot, NO_SLOT, "every learner position has a box");
                let slot = slot as usize;
                let b = self.policy.slot_box[slot] as usize;
                match m.draw(b) {
                    None => return Step::Resigned { box_index: b },
                    Some(i) => {
                        st.played.push(self.policy.arrow_start[b] + i as u32);
                        let child =
                            self.policy.slot_children[self.policy.slot_child_start[slot] as usize + i];
                        Step::Learner {
                            box_index: b,
                            arrow: i,
                            node: child,
                        }
                    }
                }
            }
            Kind::Opponent => Step::Opponent {
                node: self.opponent.choose(&self.arena.graph, n, &mut m.rng),
            },
        };
        let (Step::Learner { node, .. } | Step::Opponent { node }) = step else {
            unreachable!()
        };
        st.node = node;
        st.ply += 1;
        if st.ply == 1 {
            st.frame = self.arena.canon[node as usize];
        }
        step
    }

    /// The result if the game in `st` ended at `step` (a resignation is a loss).
    pub fn result_of(step: Step) -> Option<GameResult> {
        match step {
            Step::Over(r) => Some(r),
            Step::Resigned { .. } => Some(GameResult::Loss),
            _ => None,
        }
    }

    /// Plays a whole game from the start, reinforces the machine, and returns the result.
    #[inline]
    pub fn play_game(&self, m: &mut Machine<G>, st: &mut GameState) -> GameResult {
        st.restart();
        loop {
            if let Some(r) = Self::result_of(self.step(m, st)) {
                m.reinforce(&st.played, r);
                return r;
            }
        }
    }

    /// Plays `games` games, returning each result.
    pub fn train(&self, m: &mut Machine<G>, games: usize) -> Vec<GameResult> {
        let mut st = GameState::new();
        (0..games).map(|_| self.play_game(m, &mut st)).collect()
    }
}

/// Losses of many independent learners, counted per game index.
pub struct ExperimentResult {
    pub runs: usize,
    /// `losses_by_game[g]`: how many runs lost game `g` (0-based).
    pub losses_by_game: Vec<u32>,
}

impl ExperimentResult {
    pub fn mean_losses(&self) -> f64 {
        self.losses_by_game.iter().map(|&x| x as f64).sum::<f64>() / self.runs.max(1) as f64
    }
    /// Share of runs that lost each game.
    pub fn loss_rate(&self) -> Vec<f64> {
        let runs = self.runs.max(1) as f64;
        self.losses_by_game.iter().map(|&x| x as f64 / runs).collect()
    }
}

impl<G: Game> Trainer<'_, G> {
    /// Trains `runs` copies of `template`, run `i` reseeded with [`derive_seed`]`(seed, i)`, for
    /// `games` games each, in parallel. Counts are integer sums, so the result is the same for any
    /// number of threads.
    pub fn experiment(&self, template: &Machine<G>, seed: u64, runs: usize, games: usize) -> ExperimentResult {
        use rayon::prelude::*;
        let losses_by_game = (0..runs as u64)
            .into_par_iter()
            .fold(
                || (vec![0u32; games], GameState::new()),
                |(mut acc, mut st), run| {
                    let mut m = template.clone();
                    m.reseed(super::derive_seed(seed, run));
                    for slot in acc.iter_mut() {
                        if self.play_game(&mut m, &mut st) == GameResult::Loss {
                            *slot += 1;
                        }
                    }
                    (acc, st)
                },
            )
            .map(|(acc, _)| acc)
            .reduce(
                || vec![0u32; games],
                |mut x, y| {
                    x.iter_mut().zip(y).for_each(|(a, b)| *a += b);
                    x
                },
            );
        ExperimentResult { runs, losses_by_game }
    }
}
