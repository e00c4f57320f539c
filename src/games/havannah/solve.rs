//! Solving small Havannah boards exactly: a negamax on win, draw or loss only (no distances),
//! which stops at the first winning move, plays a win in one at once, and when the opponent
//! threatens to win in one considers only the cell that blocks it (two threats: lost). Positions
//! are kept in a transposition table keyed by the least of their 12 images, packed into one
//! 64-bit word (bases 2 and 3: two bits per cell and the side to move), kept across calls.

use super::{Bits, Cell, Havannah, Position};
use crate::game::Game;
use crate::solve::{SolveError, Value, Values};
use crate::words::Outcomes;

/// Havannah positions of bases 2 and 3 packed into one 64-bit word ([`Game::pack`]), least of
/// their 12 images: one word a position in the solver's table and in the box count.
#[derive(Clone)]
pub struct Packer {
    game: Havannah,
}

impl Packer {
    /// A packer for `game`'s board; `None` above base 3 (the grid does not fit).
    pub fn new(game: &Havannah) -> Option<Packer> {
        if game.base().get() > 3 {
            return None;
        }
        Some(Packer { game: game.clone() })
    }

    /// The least packed image of a position.
    #[inline]
    pub fn key(&self, pos: &Position) -> u64 {
        self.game
            .pack(&self.game.canonical(pos).0)
            .unwrap_or_default()
    }

    /// The position a key stands for (not over: keys are made for positions still in play).
    pub fn position(&self, key: u64) -> Position {
        self.game.unpack(key).unwrap_or_else(|| self.game.start())
    }
}

/// Exact values of Havannah positions on bases 2 and 3.
#[derive(Clone)]
pub struct HavannahSolver {
    /// Shared so that a search can hold it while it updates the table.
    game: std::sync::Arc<Havannah>,
    /// Win (1), draw (0) or loss (−1) for the side to move, by packed canonical position.
    table: Outcomes,
    packer: Packer,
    limit: usize,
}

impl HavannahSolver {
    /// A solver whose table may hold up to `limit` positions. Bases above 3 are refused.
    pub fn new(game: &Havannah, limit: usize) -> Result<Self, SolveError> {
        let packer = Packer::new(game).ok_or(SolveError::TooBig { limit })?;
        Ok(HavannahSolver {
            game: std::sync::Arc::new(game.clone()),
            table: Outcomes::default(),
            packer,
            limit,
        })
    }

    /// Positions solved so far.
    pub fn len(&self) -> usize {
        self.table.len()
    }
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// Win (1), draw (0) or loss (−1) for the side to move.
    pub fn solve(&mut self, pos: &Position) -> Result<i8, SolveError> {
        if let Some(o) = self.game.outcome(pos) {
            return Ok(match o.winner {
                None => 0,
                Some(w) if w == self.game.to_move(pos) => 1,
                Some(_) => -1,
            });
        }
        let key = self.packer.key(pos);
        if let Some(v) = self.table.get(key) {
            return Ok(v);
        }
        if self.table.len() >= self.limit {
            return Err(SolveError::TooBig { limit: self.limit });
        }
        let g = std::sync::Arc::clone(&self.game);
        let mover = g.to_move(pos);
        let own = pos.stones(mover);
        let theirs = pos.stones(mover.other());
        let taken = own.or(theirs);
        // The empty cells, on the stack (at most 19 on base 3).
        let mut empty = [super::SWAP; 32];
        let mut n = 0;
        for &c in g.cells() {
            if !taken.has(c.index()) {
                empty[n] = c;
                n += 1;
            }
        }
        let empty = &empty[..n];
        // A win in one.
        if empty
            .iter()
            .any(|&c| !g.completed(with(own, c), c).is_empty())
        {
            self.table.insert(key, 1);
            return Ok(1);
        }
        // The opponent's wins in one: one must be blocked; two cannot be.
        let mut threat = None;
        for &c in empty {
            if !g.completed(with(theirs, c), c).is_empty() {
                if threat.is_some() {
                    self.table.insert(key, -1);
                    return Ok(-1);
                }
                threat = Some(c);
            }
        }
        let (candidates, swap) = match &threat {
            Some(c) => (std::slice::from_ref(c), &[][..]),
            None => (empty, g.moves_with_swap(pos)),
        };
        let mut best = -1;
        for &c in candidates.iter().chain(swap.iter()) {
            // No move wins here, so a child is still in play unless it fills the board.
            let child = if c.is_swap() {
                g.play(pos, c)
            } else {
                g.play_quiet(pos, c)
            };
            let v = -self.solve(&child)?;
            best = best.max(v);
            if best == 1 {
                break;
            }
        }
        self.table.insert(key, best);
        Ok(best)
    }
}

fn with(b: Bits, c: Cell) -> Bits {
    let mut b = b;
    b.set(c.index());
    b
}

impl Values<Havannah> for HavannahSolver {
    /// Win, draw or loss for the side to move; the distance is not computed (always 0).
    fn value(&mut self, _game: &Havannah, pos: &Position) -> Result<Value, SolveError> {
        Ok(match self.solve(pos)? {
            1 => Value::Win(0),
            0 => Value::Draw,
            _ => Value::Loss(0),
        })
    }
}
