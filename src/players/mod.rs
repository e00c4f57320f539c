//! Players the learner trains against: the perfect player and the random player. Each is given the
//! generator to draw from; there is no global randomness.

use std::fmt;

use rand::RngExt;

use crate::game::Game;
use crate::game::graph::{GameGraph, NodeId};
use crate::learn::Rng;
use crate::solve::{Solution, TieBreak};

/// Which opponent to train against, as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OpponentKind {
    Perfect,
    Random,
}

impl fmt::Display for OpponentKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OpponentKind::Perfect => "perfect",
            OpponentKind::Random => "random",
        })
    }
}

/// A compiled opponent: for each node, the children it may move to, chosen uniformly.
pub enum Opponent {
    /// Picks uniformly among the moves that keep the best value.
    Perfect {
        tie_break: TieBreak,
        start: Vec<u32>,
        choices: Vec<NodeId>,
    },
    /// Picks uniformly among all legal moves.
    Random,
}

impl Opponent {
    pub fn perfect<G: Game>(
        graph: &GameGraph<G>,
        solution: &Solution,
        tie_break: TieBreak,
    ) -> Self {
        let mut start = vec![0];
        let mut choices = Vec::new();
        for n in 0..graph.len() as NodeId {
            let children = graph.children(n);
            choices.extend(
                solution
                    .best_moves(graph, n, tie_break)
                    .into_iter()
                    .map(|i| children[i]),
            );
            start.push(choices.len() as u32);
        }
        Opponent::Perfect {
            tie_break,
            start,
            choices,
        }
    }

    pub fn kind(&self) -> OpponentKind {
        match self {
            Opponent::Perfect { .. } => OpponentKind::Perfect,
            Opponent::Random => OpponentKind::Random,
        }
    }

    /// The nodes the opponent may move to from the non-terminal node `n` (it picks one uniformly).
    pub fn options<'a, G: Game>(&'a self, graph: &'a GameGraph<G>, n: NodeId) -> &'a [NodeId] {
        match self {
            Opponent::Perfect { start, choices, .. } => {
                &choices[start[n as usize] as usize..start[n as usize + 1] as usize]
            }
            Opponent::Random => graph.children(n),
        }
    }

    /// The node the opponent moves to from the non-terminal node `n`.
    pub fn choose<G: Game>(&self, graph: &GameGraph<G>, n: NodeId, rng: &mut Rng) -> NodeId {
        let options = self.options(graph, n);
        match options.len() {
            1 => options[0],
            len => options[rng.random_range(0..len)],
        }
    }
}
