//! Monte Carlo tree search (UCT) from any position of any game: each simulation walks down the
//! tree by the UCB1 bound, adds one node, finishes the game with uniformly random moves and backs
//! the result up. A move that wins at once is played without searching. Deterministic for a
//! generator state: every random choice is drawn from the generator it is given.

use super::{Player, Turn};
use crate::game::{Game, Side};
use crate::rng::{Rng, uniform_below};

/// The default number of simulations per move.
pub const DEFAULT_SIMULATIONS: u32 = 1000;
/// The most simulations per move accepted.
pub const MAX_SIMULATIONS: u32 = 10_000_000;
/// The most nodes a search's tree holds (about 256 MB): past it the tree grows no more, and
/// further simulations start from its leaves (a search of millions of simulations on a big board
/// would otherwise add a node for each move of each leaf it expands, without bound).
pub const MAX_NODES: usize = 1 << 23;

/// One node of the search tree: the move that led to it, the side that made it, and its
/// statistics from that side's point of view.
struct Node<M> {
    mv: Option<M>,
    mover: Option<Side>,
    parent: u32,
    /// Children occupy `first_child..first_child + children`.
    first_child: u32,
    children: u32,
    expanded: bool,
    visits: u32,
    /// Sum of results for the side that moved into this node (1 win, ½ draw, 0 loss).
    score: f64,
}

/// A UCT player.
#[derive(Clone, Debug)]
pub struct MctsPlayer {
    simulations: u32,
    /// The exploration constant of UCB1.
    exploration: f64,
}

impl MctsPlayer {
    pub fn new(simulations: u32) -> Self {
        MctsPlayer {
            simulations: simulations.clamp(1, MAX_SIMULATIONS),
            exploration: std::f64::consts::SQRT_2,
        }
    }
    pub fn simulations(&self) -> u32 {
        self.simulations
    }

    /// The best move of `pos` after the search (`None` when it has no legal move).
    pub fn search<G: Game>(&self, game: &G, pos: &G::Position, rng: &mut Rng) -> Option<G::Move> {
        let moves = game.moves(pos);
        let mover = game.to_move(pos);
        // A win at once needs no search; a single move needs no choice.
        if let Some(&m) = moves.iter().find(|&&m| {
            game.outcome(&game.play(pos, m))
                .is_some_and(|o| o.winner == Some(mover))
        }) {
            return Some(m);
        }
        if moves.len() <= 1 {
            return moves.first().copied();
        }
        let mut nodes: Vec<Node<G::Move>> = vec![Node {
            mv: None,
            mover: None,
            parent: u32::MAX,
            first_child: 0,
            children: 0,
            expanded: false,
            visits: 0,
            score: 0.0,
        }];
        let mut buffer = Vec::new();
        for _ in 0..self.simulations {
            // Selection: down the expanded part of the tree by UCB1 (unvisited children first).
            let mut node = 0u32;
            let mut cur = pos.clone();
            while nodes[node as usize].expanded && nodes[node as usize].children > 0 {
                let n = &nodes[node as usize];
                let log_visits = (n.visits.max(1) as f64).ln();
                let mut best = n.first_child;
                let mut best_value = f64::NEG_INFINITY;
                for c in n.first_child..n.first_child + n.children {
                    let child = &nodes[c as usize];
                    let value = if child.visits == 0 {
                        f64::INFINITY
                    } else {
                        child.score / child.visits as f64
                            + self.exploration * (log_visits / child.visits as f64).sqrt()
                    };
                    if value > best_value {
                        best_value = value;
                        best = c;
                    }
                }
                node = best;
                cur = game.play(&cur, nodes[node as usize].mv.expect("a child has a move"));
            }
            // Expansion: the root, or a node visited before, gets its children; one is tried.
            if game.outcome(&cur).is_none() && (node == 0 || nodes[node as usize].visits > 0) {
                buffer.clear();
                game.legal_moves(&cur, &mut buffer);
                if node != 0 && nodes.len() + buffer.len() > MAX_NODES {
                    // The tree is full: this leaf stays a leaf.
                    buffer.clear();
                }
                let first = nodes.len() as u32;
                let side = game.to_move(&cur);
                nodes.extend(buffer.iter().map(|&m| Node {
                    mv: Some(m),
                    mover: Some(side),
                    parent: node,
                    first_child: 0,
                    children: 0,
                    expanded: false,
                    visits: 0,
                    score: 0.0,
                }));
                let n = &mut nodes[node as usize];
                n.expanded = true;
                n.first_child = first;
                n.children = buffer.len() as u32;
                if !buffer.is_empty() {
                    node = first + uniform_below(rng, buffer.len() as u32);
                    cur = game.play(&cur, nodes[node as usize].mv.expect("a child has a move"));
                }
            }
            // Simulation and back-propagation.
            let winner = game.random_finish(&cur, rng);
            let mut n = node;
            while n != u32::MAX {
                let node = &mut nodes[n as usize];
                node.visits += 1;
                node.score += match (winner, node.mover) {
                    (None, _) => 0.5,
                    (Some(w), Some(m)) if w == m => 1.0,
                    _ => 0.0,
                };
                n = node.parent;
            }
        }
        let root = &nodes[0];
        (root.first_child..root.first_child + root.children)
            .max_by_key(|&c| nodes[c as usize].visits)
            .and_then(|c| nodes[c as usize].mv)
    }
}

impl<G: Game> Player<G> for MctsPlayer {
    fn choose(&mut self, game: &G, pos: &G::Position, turn: Turn<'_, G>) -> Option<G::Move> {
        self.search(game, pos, turn.rng)
    }
}
