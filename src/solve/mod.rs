//! Exact game values, as strategies with limits:
//! - [`Solution::solve`]: every node of a whole game graph, by a depth-first post-order walk; a
//!   graph with a cycle is an error ([`SolveError::Cycle`]), not a panic;
//! - [`Solution::retrograde`]: every node of a graph that may have cycles (positions that can
//!   repeat), by retrograde analysis from the finished positions; what cannot be forced is a draw;
//! - [`OnDemand`]: a memoised negamax over canonical positions, solving only what it is asked
//!   (and what that needs), with a transposition table kept across calls and a size limit.
//!
//! [`Values`] is what the perfect player asks of any of them.

pub mod chance;
mod on_demand;
mod retrograde;

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

pub use on_demand::OnDemand;

use crate::game::graph::{GameGraph, NodeId};
use crate::game::{Game, Side};

/// Why a position could not be solved.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum SolveError {
    #[error(
        "the game graph has a cycle (a position can repeat): this solver needs a game without cycles; use retrograde analysis"
    )]
    Cycle,
    #[error(
        "solving needs more than {limit} positions in the transposition table; the game is too big to solve exactly here"
    )]
    TooBig { limit: usize },
    #[error("the position is not in the solved graph")]
    Unknown,
}

/// A source of exact values: the value for the side to move of any position of a game.
pub trait Values<G: Game>: Send {
    fn value(&mut self, game: &G, pos: &G::Position) -> Result<Value, SolveError>;
    /// The values of several positions (a position's children), in order: the same as asking
    /// one at a time, which a table may answer faster by looking all of them up at once.
    fn values(&mut self, game: &G, positions: &[G::Position]) -> Result<Vec<Value>, SolveError> {
        positions.iter().map(|p| self.value(game, p)).collect()
    }
    /// The values of a position's children: the same as [`Values::values`] of them, which a
    /// game may answer faster knowing their parent.
    fn child_values(&mut self, game: &G, c: Children<'_, G>) -> Result<Vec<Value>, SolveError> {
        self.values(game, c.positions)
    }
}

/// A position's children: `positions[i]` is `parent` after `moves[i]`.
pub struct Children<'a, G: Game> {
    pub parent: &'a G::Position,
    pub moves: &'a [G::Move],
    pub positions: &'a [G::Position],
}

impl<G: Game, V: Values<G> + ?Sized> Values<G> for Box<V> {
    fn value(&mut self, game: &G, pos: &G::Position) -> Result<Value, SolveError> {
        (**self).value(game, pos)
    }
    fn values(&mut self, game: &G, positions: &[G::Position]) -> Result<Vec<Value>, SolveError> {
        (**self).values(game, positions)
    }
    fn child_values(&mut self, game: &G, c: Children<'_, G>) -> Result<Vec<Value>, SolveError> {
        (**self).child_values(game, c)
    }
}

/// Values shared by many players (the runs of an experiment, on any thread): one transposition
/// table behind a lock, warm for all.
pub struct SharedValues<G: Game>(std::sync::Arc<std::sync::Mutex<Box<dyn Values<G> + Sync>>>);

impl<G: Game> SharedValues<G> {
    pub fn new(values: Box<dyn Values<G> + Sync>) -> Self {
        SharedValues(std::sync::Arc::new(std::sync::Mutex::new(values)))
    }
}

impl<G: Game> Clone for SharedValues<G> {
    fn clone(&self) -> Self {
        SharedValues(std::sync::Arc::clone(&self.0))
    }
}

impl<G: Game> Values<G> for SharedValues<G> {
    fn value(&mut self, game: &G, pos: &G::Position) -> Result<Value, SolveError> {
        let mut v = self.0.lock().unwrap_or_else(|e| e.into_inner());
        v.value(game, pos)
    }
    /// All under one lock.
    fn values(&mut self, game: &G, positions: &[G::Position]) -> Result<Vec<Value>, SolveError> {
        let mut v = self.0.lock().unwrap_or_else(|e| e.into_inner());
        v.values(game, positions)
    }
    /// All under one lock.
    fn child_values(&mut self, game: &G, c: Children<'_, G>) -> Result<Vec<Value>, SolveError> {
        let mut v = self.0.lock().unwrap_or_else(|e| e.into_inner());
        v.child_values(game, c)
    }
}

/// The value of a position for the side to move under perfect play, with the number of plies
/// until the game ends when both sides play their best (winner fastest, loser slowest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Win(u16),
    Draw,
    Loss(u16),
}

/// Which optimal move the perfect player picks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TieBreak {
    /// Uniformly at random among the moves that keep the best result (win over draw over loss).
    #[default]
    Random,
    /// Among those, the quickest win or the slowest loss (then uniformly at random).
    Fastest,
}

impl fmt::Display for TieBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TieBreak::Random => "random",
            TieBreak::Fastest => "fastest",
        })
    }
}

impl FromStr for TieBreak {
    type Err = String;
    fn from_str(s: &str) -> Result<TieBreak, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "random" => Ok(TieBreak::Random),
            "fastest" => Ok(TieBreak::Fastest),
            _ => Err(format!("`{s}` is not a tie-break (use random or fastest)")),
        }
    }
}

impl TieBreak {
    /// The key the perfect player maximises over a position's moves.
    pub fn key(self, v: Value) -> i32 {
        match self {
            TieBreak::Random => v.class() as i32,
            TieBreak::Fastest => v.rank(),
        }
    }
}

impl Value {
    /// The value of a finished position for the side to move there.
    pub fn of_finished(winner: Option<Side>, to_move: Side) -> Value {
        match winner {
            None => Value::Draw,
            Some(w) if w == to_move => Value::Win(0),
            Some(_) => Value::Loss(0),
        }
    }

    /// Higher is better for the side to move.
    pub fn rank(self) -> i32 {
        match self {
            Value::Win(d) => 1_000_000 - d as i32,
            Value::Draw => 0,
            Value::Loss(d) => -1_000_000 + d as i32,
        }
    }
    /// Win, draw or loss without the distance: -1, 0 or 1.
    pub fn class(self) -> i8 {
        match self {
            Value::Win(_) => 1,
            Value::Draw => 0,
            Value::Loss(_) => -1,
        }
    }
    /// This value, seen one ply earlier by `parent` (who is to move there).
    pub fn seen_from(self, same_side: bool) -> Value {
        let step = |d: u16| d.saturating_add(1);
        match (self, same_side) {
            (Value::Draw, _) => Value::Draw,
            (Value::Win(d), true) => Value::Win(step(d)),
            (Value::Loss(d), true) => Value::Loss(step(d)),
            (Value::Win(d), false) => Value::Loss(step(d)),
            (Value::Loss(d), false) => Value::Win(step(d)),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win in {d}"),
            Value::Draw => write!(f, "draw"),
            Value::Loss(d) => write!(f, "loss in {d}"),
        }
    }
}

/// The value of every node of a game graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    values: Vec<Value>,
}

impl Solution {
    /// Solves every node by an iterative depth-first post-order walk (no recursion limit). A graph
    /// with a cycle is refused: see [`Solution::retrograde`].
    pub fn solve<G: Game>(graph: &GameGraph<G>) -> Result<Solution, SolveError> {
        const UNSEEN: u8 = 0;
        const OPEN: u8 = 1;
        const DONE: u8 = 2;
        let mut state = vec![UNSEEN; graph.len()];
        let mut values = vec![Value::Draw; graph.len()];
        let mut stack: Vec<(NodeId, usize)> = Vec::new();
        for root in 0..graph.len() as NodeId {
            if state[root as usize] != UNSEEN {
                continue;
            }
            stack.push((root, 0));
            state[root as usize] = OPEN;
            while let Some(top) = stack.last_mut() {
                let n = top.0;
                let children = graph.children(n);
                if top.1 < children.len() {
                    let c = children[top.1];
                    top.1 += 1;
                    match state[c as usize] {
                        UNSEEN => {
                            state[c as usize] = OPEN;
                            stack.push((c, 0));
                        }
                        OPEN => return Err(SolveError::Cycle),
                        _ => {}
                    }
                    continue;
                }
                values[n as usize] = Self::node_value(graph, n, &values);
                state[n as usize] = DONE;
                stack.pop();
            }
        }
        Ok(Solution { values })
    }

    /// Solves every node of a graph that may have cycles, by retrograde analysis: finished
    /// positions first, then every position whose value is forced, in order of distance. A win is
    /// the fastest, a loss the slowest; a position from which neither side can force a result is a
    /// draw (play could go on for ever, or ends drawn). On a graph without cycles it gives the same
    /// values as [`Solution::solve`].
    /// The values of any graph: by the depth-first solver, or by retrograde analysis if the
    /// graph has cycles.
    pub fn solve_any<G: Game>(graph: &GameGraph<G>) -> Solution {
        Self::solve(graph).unwrap_or_else(|_| Self::retrograde(graph))
    }

    pub fn retrograde<G: Game>(graph: &GameGraph<G>) -> Solution {
        Solution {
            values: retrograde::solve(graph),
        }
    }

    fn node_value<G: Game>(graph: &GameGraph<G>, n: NodeId, values: &[Value]) -> Value {
        if let Some(outcome) = graph.outcome(n) {
            return Value::of_finished(outcome.winner, graph.to_move(n));
        }
        let side = graph.to_move(n);
        graph
            .children(n)
            .iter()
            .map(|&c| values[c as usize].seen_from(graph.to_move(c) == side))
            .max_by_key(|v| v.rank())
            .unwrap_or(Value::Draw)
    }

    pub fn value(&self, n: NodeId) -> Value {
        self.values[n as usize]
    }

    /// The value for the mover at `n` of each of its moves, in the graph's move order.
    pub fn move_values<G: Game>(&self, graph: &GameGraph<G>, n: NodeId) -> Vec<Value> {
        let side = graph.to_move(n);
        graph
            .children(n)
            .iter()
            .map(|&c| self.values[c as usize].seen_from(graph.to_move(c) == side))
            .collect()
    }

    /// Indexes (into the node's move list) of the moves the perfect player may choose.
    pub fn best_moves<G: Game>(
        &self,
        graph: &GameGraph<G>,
        n: NodeId,
        tie_break: TieBreak,
    ) -> Vec<usize> {
        best_indexes(&self.move_values(graph, n), tie_break)
    }

    /// Who wins from node `n` under perfect play (`None` for a draw).
    pub fn winner<G: Game>(&self, graph: &GameGraph<G>, n: NodeId) -> Option<Side> {
        match self.value(n) {
            Value::Win(_) => Some(graph.to_move(n)),
            Value::Loss(_) => Some(graph.to_move(n).other()),
            Value::Draw => None,
        }
    }

    /// A principal variation from `n`: the winner's fastest win against the loser's slowest defence
    /// (first such move in move order at each step).
    pub fn principal_variation<G: Game>(&self, graph: &GameGraph<G>, n: NodeId) -> Vec<G::Move> {
        let mut line = Vec::new();
        let mut cur = n;
        // A drawn line in a graph with cycles never ends: it stops once it has visited as many
        // positions as the graph holds.
        while !graph.is_terminal(cur) && line.len() < graph.len() {
            let Some(&i) = self.best_moves(graph, cur, TieBreak::Fastest).first() else {
                break;
            };
            line.push(graph.moves(cur)[i]);
            cur = graph.children(cur)[i];
        }
        line
    }
}

/// Indexes of the values that are best under `tie_break` (all of them, in order).
pub fn best_indexes(values: &[Value], tie_break: TieBreak) -> Vec<usize> {
    let Some(best) = values.iter().map(|&v| tie_break.key(v)).max() else {
        return Vec::new();
    };
    (0..values.len())
        .filter(|&i| tie_break.key(values[i]) == best)
        .collect()
}

/// The values of a whole solved graph, looked up by position: the fastest [`Values`] for a game
/// small enough to enumerate.
pub struct GraphValues<G: Game> {
    graph: std::sync::Arc<GameGraph<G>>,
    solution: std::sync::Arc<Solution>,
}

impl<G: Game> GraphValues<G> {
    pub fn new(graph: std::sync::Arc<GameGraph<G>>, solution: std::sync::Arc<Solution>) -> Self {
        GraphValues { graph, solution }
    }
}

impl<G: Game> Clone for GraphValues<G> {
    fn clone(&self) -> Self {
        GraphValues {
            graph: std::sync::Arc::clone(&self.graph),
            solution: std::sync::Arc::clone(&self.solution),
        }
    }
}

impl<G: Game> Values<G> for GraphValues<G> {
    fn value(&mut self, _game: &G, pos: &G::Position) -> Result<Value, SolveError> {
        let n = self.graph.node(pos).ok_or(SolveError::Unknown)?;
        Ok(self.solution.value(n))
    }
}
