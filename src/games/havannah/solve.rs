//! Solving small Havannah boards exactly: a negamax on win, draw or loss only (no distances),
//! which stops at the first winning move, plays a win in one at once, and when the opponent
//! threatens to win in one considers only the cell that blocks it (two threats: lost). Positions
//! are kept in a transposition table keyed by the least of their 12 images, packed into one
//! 64-bit word (bases 2 and 3: two bits per cell and the side to move), kept across calls.

use super::{Bits, Cell, Havannah, Position};
use crate::game::Game;
use crate::solve::{SolveError, Value, Values};

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

/// Win, draw or loss by packed position, one word a slot (the key above two bits holding the value
/// plus 2; 0 marks an empty slot), found by linear probing from a multiplicative hash: a lookup
/// usually reads one cache line, where a general hash map reads two (its control bytes and its
/// entries), and the table is far bigger than any cache.
#[derive(Clone, Default)]
struct WordTable {
    slots: Vec<u64>,
    len: usize,
}

impl WordTable {
    /// The first slot to try for `key` in a table of `2^bits` slots.
    #[inline]
    fn home(key: u64, bits: u32) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
    }

    fn len(&self) -> usize {
        self.len
    }

    #[inline]
    fn get(&self, key: u64) -> Option<i8> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = Self::home(key, self.slots.len().trailing_zeros());
        loop {
            let slot = self.slots[i];
            if slot == 0 {
                return None;
            }
            if slot >> 2 == key {
                return Some((slot & 3) as i8 - 2);
            }
            i = (i + 1) & mask;
        }
    }

    /// Records `key`'s value (keys are below 2⁶², values −1, 0 or 1).
    fn insert(&mut self, key: u64, value: i8) {
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        if self.put(key << 2 | (value + 2) as u64) {
            self.len += 1;
        }
    }

    /// Puts a slot word in its place; whether its key is new.
    fn put(&mut self, word: u64) -> bool {
        let mask = self.slots.len() - 1;
        let mut i = Self::home(word >> 2, self.slots.len().trailing_zeros());
        loop {
            let slot = self.slots[i];
            if slot == 0 || slot >> 2 == word >> 2 {
                self.slots[i] = word;
                return slot == 0;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(1 << 16);
        let old = std::mem::replace(&mut self.slots, vec![0; size]);
        for word in old.into_iter().filter(|&w| w != 0) {
            self.put(word);
        }
    }
}

/// Exact values of Havannah positions on bases 2 and 3.
#[derive(Clone)]
pub struct HavannahSolver {
    /// Shared so that a search can hold it while it updates the table.
    game: std::sync::Arc<Havannah>,
    /// Win (1), draw (0) or loss (−1) for the side to move, by packed canonical position.
    table: WordTable,
    packer: Packer,
    limit: usize,
}

impl HavannahSolver {
    /// A solver whose table may hold up to `limit` positions. Bases above 3 are refused.
    pub fn new(game: &Havannah, limit: usize) -> Result<Self, SolveError> {
        let packer = Packer::new(game).ok_or(SolveError::TooBig { limit })?;
        Ok(HavannahSolver {
            game: std::sync::Arc::new(game.clone()),
            table: WordTable::default(),
            packer,
            limit,
        })
    }

    /// Positions solved so far.
    pub fn len(&self) -> usize {
        self.table.len()
    }
    pub fn is_empty(&self) -> bool {
        self.table.len() == 0
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
