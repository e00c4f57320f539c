//! Solving on demand: a memoised negamax over canonical positions. Only the positions a question
//! needs are solved; the transposition table is kept across calls (and so across moves and games
//! when a perfect player asks it), and it has a size limit.

use std::collections::HashMap;

use super::{SolveError, Value, Values};
use crate::game::Game;

/// A memoised negamax over canonical positions, with a transposition table kept across calls.
pub struct OnDemand<G: Game> {
    table: HashMap<G::Position, Value>,
    /// Positions on the current search path (a position met again on its own path is a cycle).
    path: std::collections::HashSet<G::Position>,
    limit: usize,
    moves: Vec<Vec<G::Move>>,
}

impl<G: Game> Clone for OnDemand<G> {
    fn clone(&self) -> Self {
        OnDemand {
            table: self.table.clone(),
            path: Default::default(),
            limit: self.limit,
            moves: Vec::new(),
        }
    }
}

impl<G: Game> OnDemand<G> {
    /// A solver whose table may hold up to `limit` positions.
    pub fn new(limit: usize) -> Self {
        OnDemand {
            table: HashMap::new(),
            path: Default::default(),
            limit,
            moves: Vec::new(),
        }
    }

    /// Positions solved so far.
    pub fn len(&self) -> usize {
        self.table.len()
    }
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// The value of `pos` for the side to move.
    pub fn solve(&mut self, game: &G, pos: &G::Position) -> Result<Value, SolveError> {
        let result = self.search(game, pos, 0);
        self.path.clear();
        result
    }

    fn search(&mut self, game: &G, pos: &G::Position, depth: usize) -> Result<Value, SolveError> {
        if let Some(outcome) = game.outcome(pos) {
            return Ok(Value::of_finished(outcome.winner, game.to_move(pos)));
        }
        let (canon, _) = game.canonical(pos);
        if let Some(&v) = self.table.get(&canon) {
            return Ok(v);
        }
        if self.table.len() >= self.limit {
            return Err(SolveError::TooBig { limit: self.limit });
        }
        if !self.path.insert(canon.clone()) {
            return Err(SolveError::Cycle);
        }
        // One move buffer per depth, reused across calls.
        if self.moves.len() <= depth {
            self.moves.resize_with(depth + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.moves[depth]);
        moves.clear();
        game.legal_moves(&canon, &mut moves);
        let side = game.to_move(&canon);
        let mut best: Option<Value> = None;
        let mut result = Ok(());
        for &mv in &moves {
            let child = game.play(&canon, mv);
            match self.search(game, &child, depth + 1) {
                Ok(v) => {
                    let v = v.seen_from(game.to_move(&child) == side);
                    if best.is_none_or(|b| v.rank() > b.rank()) {
                        best = Some(v);
                    }
                }
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.moves[depth] = moves;
        self.path.remove(&canon);
        result?;
        let v = best.unwrap_or(Value::Draw);
        self.table.insert(canon, v);
        Ok(v)
    }
}

impl<G: Game> Values<G> for OnDemand<G> {
    fn value(&mut self, game: &G, pos: &G::Position) -> Result<Value, SolveError> {
        self.solve(game, pos)
    }
}
