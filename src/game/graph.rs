//! Every position reachable from the start, as a dense graph (positions numbered from 0, moves as
//! compressed edge lists). The solver, the players and the fast training engine work on node numbers.

use std::hash::BuildHasher;

use hashbrown::{DefaultHashBuilder, HashTable};

use super::{Game, Outcome, Side};

/// Node number in a [`GameGraph`].
pub type NodeId = u32;

/// All positions reachable from the start of a game, numbered in breadth-first order (node 0 is
/// the start), with their moves and outcomes.
pub struct GameGraph<G: Game> {
    positions: Vec<G::Position>,
    /// Node numbers, found by their position (each position is kept once, in `positions`).
    index: HashTable<NodeId>,
    hasher: DefaultHashBuilder,
    to_move: Vec<Side>,
    /// Fewest plies from the start.
    depth: Vec<u16>,
    outcome: Vec<Option<Outcome<G::Reason>>>,
    edge_start: Vec<u32>,
    edge_move: Vec<G::Move>,
    edge_child: Vec<NodeId>,
}

impl<G: Game> GameGraph<G> {
    /// Enumerates every position reachable from the start.
    pub fn build(game: &G) -> GameGraph<G> {
        Self::build_with_progress(game, &mut |_, _| {})
    }

    /// As [`GameGraph::build`], calling `progress` with the number of positions found and the
    /// bytes the graph holds every million positions expanded.
    pub fn build_with_progress(game: &G, progress: &mut dyn FnMut(usize, usize)) -> GameGraph<G> {
        let start = game.start();
        let hasher = DefaultHashBuilder::default();
        let mut index = HashTable::new();
        index.insert_unique(hasher.hash_one(&start), 0, |_: &NodeId| 0);
        let mut g: GameGraph<G> = GameGraph {
            positions: vec![start],
            index,
            hasher,
            to_move: Vec::new(),
            depth: vec![0],
            outcome: Vec::new(),
            edge_start: vec![0],
            edge_move: Vec::new(),
            edge_child: Vec::new(),
        };
        let mut moves = Vec::new();
        // Breadth-first order: node ids are handed out in the order nodes are found and expanded
        // in that same order, so the queue is just the next id, and the compressed edge lists can
        // be appended as we go.
        let mut n = 0;
        while n < g.positions.len() {
            if n % 1_000_000 == 0 && n > 0 {
                progress(g.positions.len(), g.bytes());
            }
            let pos = g.positions[n].clone();
            g.to_move.push(game.to_move(&pos));
            g.outcome.push(game.outcome(&pos));
            moves.clear();
            game.legal_moves(&pos, &mut moves);
            let child_depth = g.depth[n] + 1;
            for &mv in &moves {
                let child = game.play(&pos, mv);
                let hash = g.hasher.hash_one(&child);
                let found = g
                    .index
                    .find(hash, |&j| g.positions[j as usize] == child)
                    .copied();
                let id = match found {
                    Some(id) => id,
                    None => {
                        let id = g.positions.len() as NodeId;
                        let (positions, hasher) = (&g.positions, &g.hasher);
                        g.index
                            .insert_unique(hash, id, |&j| hasher.hash_one(&positions[j as usize]));
                        g.positions.push(child);
                        g.depth.push(child_depth);
                        id
                    }
                };
                g.edge_move.push(mv);
                g.edge_child.push(id);
            }
            g.edge_start.push(g.edge_move.len() as u32);
            n += 1;
        }
        g
    }

    pub fn len(&self) -> usize {
        self.positions.len()
    }
    /// The memory the graph holds, in bytes (what its tables have room for).
    pub fn bytes(&self) -> usize {
        use std::mem::size_of;
        self.positions.capacity() * size_of::<G::Position>()
            + self.index.capacity() * (size_of::<NodeId>() + 1)
            + self.to_move.capacity() * size_of::<Side>()
            + self.depth.capacity() * size_of::<u16>()
            + self.outcome.capacity() * size_of::<Option<Outcome<G::Reason>>>()
            + self.edge_start.capacity() * size_of::<u32>()
            + self.edge_move.capacity() * size_of::<G::Move>()
            + self.edge_child.capacity() * size_of::<NodeId>()
    }
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }
    pub fn position(&self, n: NodeId) -> &G::Position {
        &self.positions[n as usize]
    }
    pub fn node(&self, pos: &G::Position) -> Option<NodeId> {
        let hash = self.hasher.hash_one(pos);
        self.index
            .find(hash, |&j| self.positions[j as usize] == *pos)
            .copied()
    }
    pub fn to_move(&self, n: NodeId) -> Side {
        self.to_move[n as usize]
    }
    pub fn depth(&self, n: NodeId) -> u16 {
        self.depth[n as usize]
    }
    pub fn outcome(&self, n: NodeId) -> Option<Outcome<G::Reason>> {
        self.outcome[n as usize]
    }
    pub fn is_terminal(&self, n: NodeId) -> bool {
        self.outcome[n as usize].is_some()
    }
    pub fn moves(&self, n: NodeId) -> &[G::Move] {
        &self.edge_move[self.edge_range(n)]
    }
    pub fn children(&self, n: NodeId) -> &[NodeId] {
        &self.edge_child[self.edge_range(n)]
    }
    fn edge_range(&self, n: NodeId) -> std::ops::Range<usize> {
        self.edge_start[n as usize] as usize..self.edge_start[n as usize + 1] as usize
    }
    /// The child reached by playing `mv` at node `n`, if it is legal there.
    pub fn child_by_move(&self, n: NodeId, mv: G::Move) -> Option<NodeId> {
        let i = self.moves(n).iter().position(|&m| m == mv)?;
        Some(self.children(n)[i])
    }
    pub fn edge_count(&self) -> usize {
        self.edge_move.len()
    }
}
