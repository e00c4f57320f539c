//! Exact game values for every reachable position (games whose graph has no cycles).

use std::fmt;

use crate::game::graph::{GameGraph, NodeId};
use crate::game::{Game, Side};

/// The value of a position for the side to move under perfect play, with the number of plies
/// until the game ends when both sides play their best (winner fastest, loser slowest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    Win(u16),
    Draw,
    Loss(u16),
}

/// Which optimal move the perfect player picks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, clap::ValueEnum)]
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

impl Value {
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
    fn seen_from(self, same_side: bool) -> Value {
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
pub struct Solution {
    values: Vec<Value>,
}

impl Solution {
    /// Solves every node by an iterative depth-first post-order walk (no recursion limit).
    pub fn solve<G: Game>(graph: &GameGraph<G>) -> Solution {
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
                        OPEN => panic!("the game graph has a cycle; this solver needs a DAG"),
                        _ => {}
                    }
                    continue;
                }
                values[n as usize] = Self::node_value(graph, n, &values);
                state[n as usize] = DONE;
                stack.pop();
            }
        }
        Solution { values }
    }

    fn node_value<G: Game>(graph: &GameGraph<G>, n: NodeId, values: &[Value]) -> Value {
        if let Some(outcome) = graph.outcome(n) {
            return match outcome.winner {
                None => Value::Draw,
                Some(w) if w == graph.to_move(n) => Value::Win(0),
                Some(_) => Value::Loss(0),
            };
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
        let vals = self.move_values(graph, n);
        let key = |v: Value| match tie_break {
            TieBreak::Random => v.class() as i32,
            TieBreak::Fastest => v.rank(),
        };
        let Some(best) = vals.iter().map(|&v| key(v)).max() else {
            return Vec::new();
        };
        (0..vals.len()).filter(|&i| key(vals[i]) == best).collect()
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
        while !graph.is_terminal(cur) {
            let Some(&i) = self.best_moves(graph, cur, TieBreak::Fastest).first() else {
                break;
            };
            line.push(graph.moves(cur)[i]);
            cur = graph.children(cur)[i];
        }
        line
    }
}
