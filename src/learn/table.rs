//! The compiled table: a game with every position enumerated, and the learner's boxes and an
//! opponent compiled against it into one array of states, so that a game is a short walk of
//! array lookups and random draws.

use std::collections::HashMap;
use std::sync::Arc;

use super::ends::End;
use super::{BoxSet, LearnError};
use crate::game::graph::{GameGraph, NodeId};
use crate::game::{Game, Side, Sym};
use crate::players::{PerfectPlayer, Player, RandomPlayer};
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

pub(super) const OPPONENT: u32 = 0;
pub(super) const LEARNER: u32 = 1;
/// A machine's single legal move, where its box set has no box.
pub(super) const FORCED: u32 = 2;
/// The rival machine, in a table for two machines.
pub(super) const RIVAL: u32 = 3;
pub(super) const WIN: u32 = 4;
pub(super) const DRAW: u32 = 5;
pub(super) const LOSS: u32 = 6;

/// One state of the compiled table: a real position seen in a frame.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub(super) struct State {
    /// Who moves: [`OPPONENT`], [`LEARNER`], [`FORCED`], [`RIVAL`], or how the game ended
    /// ([`WIN`], [`DRAW`], [`LOSS`], from the learner's side).
    pub(super) mover: u32,
    /// Number of options: arrows of the box, or the opponent's choices.
    pub(super) options: u32,
    /// A machine's state: where the box's total sits in that machine's bead array.
    pub(super) beads_at: u32,
    /// Index of the first option in `children`.
    pub(super) first_option: u32,
}

/// A learner's boxes and an opponent compiled against an arena. State 0 is the start.
pub struct Table {
    pub(super) side: Side,
    pub(super) states: Vec<State>,
    /// The option lists: the id of each option's state, and a copy of that state (so the hot
    /// loop moves to the next state with one load).
    pub(super) children: Vec<u32>,
    pub(super) child_states: Vec<State>,
    pub(super) node_of: Vec<NodeId>,
    pub(super) box_of: Vec<u32>,
    /// The kinds of end a game on this table can have, by id: [`LEARNER_RESIGNS`],
    /// [`RIVAL_RESIGNS`], then those by the rules (a finished state's id is in its `beads_at`).
    pub(super) ends: Vec<String>,
}

/// The end id of the learner's resignation (an empty box).
pub(super) const LEARNER_RESIGNS: u32 = 0;
/// The end id of the rival machine's resignation.
pub(super) const RIVAL_RESIGNS: u32 = 1;

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
            ends: vec![
                End::<G::Reason>::Resigned(side).name(game),
                End::<G::Reason>::Resigned(side.other()).name(game),
            ],
        };
        let mut ids: HashMap<(NodeId, u8), u32> = HashMap::from([((0, 0), 0)]);
        let mut queue: Vec<(NodeId, u8)> = vec![(0, 0)];
        let mut next = 0;
        let mut opts: Vec<NodeId> = Vec::new();
        while next < queue.len() {
            let (n, frame) = queue[next];
            next += 1;
            let mut state = State::default();
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
                    };
                    state.beads_at = t.end_id(End::Rules(o.winner, o.reason).name(game));
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

    /// The id of the kind of end `name`, given one if it has none yet.
    fn end_id(&mut self, name: String) -> u32 {
        match self.ends.iter().position(|e| *e == name) {
            Some(id) => id as u32,
            None => {
                self.ends.push(name);
                (self.ends.len() - 1) as u32
            }
        }
    }

    pub fn side(&self) -> Side {
        self.side
    }
    /// The states, for [`super::fast::FastTable`].
    pub(super) fn raw_states(&self) -> &[State] {
        &self.states
    }
    /// Every state's options, in order: the id of each option's state.
    pub(super) fn raw_children(&self) -> &[u32] {
        &self.children
    }
    /// The learner's box at a state where it draws from one.
    pub(super) fn box_index(&self, state: u32) -> Option<u32> {
        self.box_of
            .get(state as usize)
            .copied()
            .filter(|&b| b != u32::MAX)
    }
    /// The kinds of end, by id (see [`Table::ends`]).
    pub(super) fn end_names(&self) -> &[String] {
        &self.ends
    }
    /// Adds counts by end id to `ends`, named.
    pub(super) fn name_ends(&self, by_id: &[u64], ends: &mut super::ends::Ends) {
        for (name, &n) in self.ends.iter().zip(by_id) {
            ends.add(name, n);
        }
    }
    /// The end id of a game that stopped at `state`: a finished game's kind, or the
    /// resignation of the machine to move.
    pub(super) fn end_at(&self, state: State) -> u32 {
        match state.mover {
            LEARNER => LEARNER_RESIGNS,
            RIVAL => RIVAL_RESIGNS,
            _ => state.beads_at,
        }
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
