//! Solving small Havannah boards exactly: a negamax on win, draw or loss, which stops at the
//! first winning move, plays a win in one at once, and when the opponent threatens to win in one
//! considers only the cell that blocks it (two threats: lost; never on the move where Black may
//! swap). Where asked, a second search on top of it counts distances (the quickest win, the
//! slowest loss): a won position searches only its winning moves, and a move only until it is
//! shown no better than the best so far. Positions are kept in transposition tables keyed by
//! the least of their 12 images, packed into one 64-bit word (bases 2 and 3: two bits per cell
//! and the side to move), kept across calls.

use super::cells::narrow_image;
use super::{Cell, Havannah, Position};
use crate::game::{Game, Side};
use crate::solve::{Children, SolveError, Value, Values};
use crate::words::{Outcomes, WordMap};

/// Havannah positions of bases 2 and 3 packed into one 64-bit word ([`Game::pack`]), least of
/// their 12 images: one word a position in the solver's table and in the box count.
#[derive(Clone)]
pub struct Packer {
    game: Havannah,
    /// Each grid cell's image under the 12 symmetries, as a one-word set, where the board fits
    /// in 32 bits (bases 2 and 3): a child's images are its parent's with one bit more.
    cell_images: Vec<[u32; 12]>,
}

/// A position's 12 images, each as White's word over Black's (`white << 32 | black`), so that
/// the least of them is the canonical image: positions are ordered by White's stones, then
/// Black's ([`Game::canonical`]).
pub struct Images([u64; 12]);

impl Packer {
    /// A packer for `game`'s board; `None` above base 3 (the grid does not fit).
    pub fn new(game: &Havannah) -> Option<Packer> {
        if game.base().get() > 3 {
            return None;
        }
        let cell_images = match &game.word_images {
            Some(words @ super::cells::WordImages::Narrow(_)) => (0..game.images[0].len())
                .map(|i| std::array::from_fn(|s| words.image(s, 1 << i) as u32))
                .collect(),
            _ => Vec::new(),
        };
        Some(Packer {
            game: game.clone(),
            cell_images,
        })
    }

    /// The least packed image of a position.
    #[inline]
    pub fn key(&self, pos: &Position) -> u64 {
        self.game
            .pack(&self.game.canonical(pos).0)
            .unwrap_or_default()
    }

    /// The 12 images of `pos`, where the board fits in 32 bits.
    #[inline]
    pub fn images(&self, pos: &Position) -> Option<Images> {
        let Some(super::cells::WordImages::Narrow(table)) = &self.game.word_images else {
            return None;
        };
        let [w, b] = [pos.stones[0].0[0], pos.stones[1].0[0]];
        let mut out = [0; 12];
        for (s, o) in out.iter_mut().enumerate() {
            let rows = &table[s * 4..s * 4 + 4];
            *o = narrow_image(rows, w) << 32 | narrow_image(rows, b);
        }
        Some(Images(out))
    }

    /// The key of the child of the position whose images are `images` where `mover` put a
    /// stone on `c` (not the swap), with `to_move` to move in it: the same as [`Packer::key`] of
    /// the child, from twelve unions and compares rather than its images looked up anew.
    #[inline]
    pub fn child_key(&self, images: &Images, mover: Side, c: Cell, to_move: Side) -> u64 {
        let shift = if mover == Side::First { 32 } else { 0 };
        let cell = &self.cell_images[c.index()];
        let mut least = u64::MAX;
        for (&image, &c) in images.0.iter().zip(cell) {
            least = least.min(image | u64::from(c) << shift);
        }
        let (white, black) = (least >> 32, least & 0xFFFF_FFFF);
        white | black << 30 | (to_move as u64) << 60
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
    /// Exact distances, computed only when asked ([`HavannahSolver::with_distances`]): the
    /// value for the side to move by packed canonical position, encoded by [`encode`].
    distances: Option<WordMap<i8>>,
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
            distances: None,
        })
    }

    /// A solver that also counts distances: the quickest win and the slowest loss, in plies,
    /// for the perfect player's `fastest` tie-break and for `solve`'s line of best moves. It
    /// searches more than win, draw or loss alone (every reply of a lost position, every winning
    /// move of a won one).
    pub fn with_distances(game: &Havannah, limit: usize) -> Result<Self, SolveError> {
        let mut s = Self::new(game, limit)?;
        s.distances = Some(WordMap::new());
        Ok(s)
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
        self.solve_keyed(pos, key)
    }

    /// [`HavannahSolver::solve`] of a position in play whose key is known.
    fn solve_keyed(&mut self, pos: &Position, key: u64) -> Result<i8, SolveError> {
        if let Some(v) = self.table.get(key) {
            return Ok(v);
        }
        let look = Look::at(&self.game, pos);
        self.solve_looked(pos, key, &look)
    }

    /// Solves a position not in the table, whose first look has been taken.
    fn solve_looked(&mut self, pos: &Position, key: u64, look: &Look) -> Result<i8, SolveError> {
        if self.table.len() >= self.limit {
            return Err(SolveError::TooBig { limit: self.limit });
        }
        let best = match look.kind {
            Kind::WinInOne => 1,
            Kind::TwoThreats => -1,
            Kind::Threat(c) => -self.solve(&self.child(pos, c))?,
            Kind::Open => {
                let g = std::sync::Arc::clone(&self.game);
                let images = self.packer.images(pos);
                let mut best = -1;
                for &c in look.empty().iter().chain(g.moves_with_swap(pos).iter()) {
                    let child = self.child(pos, c);
                    let v = match &images {
                        Some(images) if !c.is_swap() && child.result == 0 => {
                            let key = self.packer.child_key(images, pos.to_move, c, child.to_move);
                            self.solve_keyed(&child, key)?
                        }
                        _ => self.solve(&child)?,
                    };
                    best = best.max(-v);
                    if best == 1 {
                        break;
                    }
                }
                best
            }
        };
        self.table.insert(key, best);
        Ok(best)
    }

    /// A child of a position where no move wins: still in play unless it fills the board.
    fn child(&self, pos: &Position, c: Cell) -> Position {
        if c.is_swap() {
            self.game.play(pos, c)
        } else {
            self.game.play_quiet(pos, c)
        }
    }

    /// The exact value of `pos` for the side to move: a win in the fewest plies the opponent
    /// cannot prolong, a loss in the most plies the opponent cannot shorten, or a draw.
    pub fn distance(&mut self, pos: &Position) -> Result<Value, SolveError> {
        if let Some(o) = self.game.outcome(pos) {
            return Ok(Value::of_finished(o.winner, self.game.to_move(pos)));
        }
        let key = self.packer.key(pos);
        self.distance_keyed(pos, key)
    }

    /// [`HavannahSolver::distance`] of a position in play whose key is known.
    fn distance_keyed(&mut self, pos: &Position, key: u64) -> Result<Value, SolveError> {
        Ok(self.bounded(pos, key, None)?.0)
    }

    /// The value of a position in play, searched until it is known to be at least `enough` (for
    /// the side to move): then `(a value at least that good, false)`, else `(the value, true)`.
    /// Only exact values are kept. A won position searches only its winning moves.
    fn bounded(
        &mut self,
        pos: &Position,
        key: u64,
        enough: Option<Value>,
    ) -> Result<(Value, bool), SolveError> {
        let table = self.distances.get_or_insert_with(WordMap::new);
        if let Some(v) = table.get(key) {
            return Ok((decode(v), true));
        }
        if table.len() >= self.limit {
            return Err(SolveError::TooBig { limit: self.limit });
        }
        let look = Look::at(&self.game, pos);
        let (value, exact) = match look.kind {
            Kind::WinInOne => (Value::Win(1), true),
            // Whatever the mover does, the opponent wins next.
            Kind::TwoThreats => (Value::Loss(2), true),
            // Any other move loses in 2, so the block is at least as good.
            Kind::Threat(c) => self
                .child_bounded(pos, c, false, None)?
                .unwrap_or((Value::Draw, true)),
            Kind::Open => {
                let class = match self.table.get(key) {
                    Some(v) => v,
                    None => self.solve_looked(pos, key, &look)?,
                };
                if class == 0 {
                    return Ok((Value::Draw, true));
                }
                // The slowest loss possible: the opponent's winning stone the last on the
                // board (a loss is always an even number of plies away); no quicker win than in
                // 3 without a win in one. Both hold only where the sides alternate: a handicap's
                // stones are White's moves in a row.
                let alternate = self.game.variant_rules().handicap == 0;
                let longest = Value::Loss((look.n & !1) as u16);
                let g = std::sync::Arc::clone(&self.game);
                let (mut best, mut exact): (Option<Value>, bool) = (None, true);
                for &c in look.empty().iter().chain(g.moves_with_swap(pos).iter()) {
                    // A won position needs only its winning moves' distances; a move shown to be
                    // no better than the best so far is not searched to the end.
                    if let Some((v, true)) = self.child_bounded(pos, c, class == 1, best)?
                        && best.is_none_or(|b| v.rank() > b.rank())
                    {
                        best = Some(v);
                    }
                    let Some(b) = best else { continue };
                    if alternate && (b == Value::Win(3) || b == longest) {
                        break;
                    }
                    if enough.is_some_and(|e| b.rank() >= e.rank()) {
                        exact = false;
                        break;
                    }
                }
                (best.unwrap_or(Value::Draw), exact)
            }
        };
        if exact && let Some(t) = self.distances.as_mut() {
            t.insert(key, encode(value));
        }
        Ok((value, exact))
    }

    /// The value of playing `c` in `pos`, for the side to move in `pos`, and whether it is exact:
    /// searched only until it is known to be no better than `best`. `None`: with `only_wins`, a
    /// move that does not win, not searched.
    fn child_bounded(
        &mut self,
        pos: &Position,
        c: Cell,
        only_wins: bool,
        best: Option<Value>,
    ) -> Result<Option<(Value, bool)>, SolveError> {
        let child = self.child(pos, c);
        let same = self.game.to_move(&child) == self.game.to_move(pos);
        if self.game.outcome(&child).is_some() {
            // A full board: a draw.
            return Ok((!only_wins).then_some((Value::Draw, true)));
        }
        let key = self.packer.key(&child);
        if only_wins {
            let v = self.solve_keyed(&child, key)?;
            if (if same { v } else { -v }) != 1 {
                return Ok(None);
            }
        }
        // The child's value that would make this move exactly as good as `best`.
        let enough = best.map(|b| match (b, same) {
            (Value::Draw, _) => Value::Draw,
            (Value::Win(d), false) => Value::Loss(d.saturating_sub(1)),
            (Value::Loss(d), false) => Value::Win(d.saturating_sub(1)),
            (Value::Win(d), true) => Value::Win(d.saturating_sub(1)),
            (Value::Loss(d), true) => Value::Loss(d.saturating_sub(1)),
        });
        let (v, exact) = self.bounded(&child, key, enough)?;
        Ok(Some((v.seen_from(same), exact)))
    }
}

/// What a first look at a position in play finds: its empty cells and who can win at once.
struct Look {
    empty: [Cell; 32],
    n: usize,
    kind: Kind,
}

enum Kind {
    /// The mover completes a structure with one stone.
    WinInOne,
    /// The opponent could complete one in two places: one cannot block both.
    TwoThreats,
    /// The opponent could complete one here: the mover must block it.
    Threat(Cell),
    /// Neither side wins at once.
    Open,
}

impl Look {
    fn at(g: &Havannah, pos: &Position) -> Look {
        let mover = g.to_move(pos);
        let own = pos.stones(mover);
        let theirs = pos.stones(mover.other());
        let taken = own.or(theirs);
        // The empty cells, on the stack (at most 19 on base 3), from their bits in increasing
        // order: the cells' reading order.
        let mut empty = [super::SWAP; 32];
        let mut n = 0;
        let mut free = g.shape.board.and_not(taken).0[0];
        while free != 0 && n < empty.len() {
            empty[n] = Cell(free.trailing_zeros() as u16);
            n += 1;
            free &= free - 1;
        }
        let cells = &empty[..n];
        let kind = if !g.moves_with_swap(pos).is_empty() {
            // Black may take White's stone: a threat of White's may become Black's own.
            Kind::Open
        } else if g.completers(own, cells, 1).1 > 0 {
            Kind::WinInOne
        } else {
            match g.completers(theirs, cells, 2) {
                (_, 2..) => Kind::TwoThreats,
                ([c, _], 1) => Kind::Threat(c),
                _ => Kind::Open,
            }
        };
        Look { empty, n, kind }
    }

    fn empty(&self) -> &[Cell] {
        &self.empty[..self.n]
    }
}

/// A value with its distance in one byte: a win in d plies is 100 − d, a loss −(100 − d), a draw
/// 0 (no game on bases 2 and 3 lasts 100 plies).
fn encode(v: Value) -> i8 {
    match v {
        Value::Win(d) => 100 - d.min(99) as i8,
        Value::Draw => 0,
        Value::Loss(d) => -(100 - d.min(99) as i8),
    }
}

fn decode(v: i8) -> Value {
    match v {
        0 => Value::Draw,
        v if v > 0 => Value::Win((100 - v) as u16),
        v => Value::Loss((100 + v) as u16),
    }
}

impl Values<Havannah> for HavannahSolver {
    /// Win, draw or loss for the side to move, with its distance when the solver counts them
    /// ([`HavannahSolver::with_distances`]; 0 otherwise).
    fn value(&mut self, _game: &Havannah, pos: &Position) -> Result<Value, SolveError> {
        if self.distances.is_some() {
            return self.distance(pos);
        }
        Ok(of_outcome(self.solve(pos)?))
    }

    /// The keys of all the positions first, then their lookups back to back (so the table's
    /// cache misses overlap), then a search for those not in the table.
    fn values(
        &mut self,
        game: &Havannah,
        positions: &[Position],
    ) -> Result<Vec<Value>, SolveError> {
        if self.distances.is_some() {
            return positions.iter().map(|p| self.value(game, p)).collect();
        }
        let keys: Vec<Option<u64>> = positions
            .iter()
            .map(|p| self.game.outcome(p).is_none().then(|| self.packer.key(p)))
            .collect();
        self.values_keyed(positions, &keys)
    }

    /// The same, with the children's keys made from their parent's images.
    fn child_values(
        &mut self,
        game: &Havannah,
        c: Children<'_, Havannah>,
    ) -> Result<Vec<Value>, SolveError> {
        let (pos, moves, children) = (c.parent, c.moves, c.positions);
        let images = self.packer.images(pos);
        let (Some(images), None) = (images, &self.distances) else {
            return self.values(game, children);
        };
        let mover = pos.to_move;
        // Plain loops here and below: the iterator adapters' code was left out of line by
        // some builds (a `Zip::new` call a child), a few per cent of the whole run.
        let mut keys = Vec::with_capacity(children.len());
        for (&c, p) in moves.iter().zip(children) {
            keys.push(match (p.result, c.is_swap()) {
                (0, false) => Some(self.packer.child_key(&images, mover, c, p.to_move)),
                (0, true) => Some(self.packer.key(p)),
                _ => None,
            });
        }
        self.values_keyed(children, &keys)
    }
}

impl HavannahSolver {
    /// The values of `positions` whose keys are `keys` (`None` for a finished game): their
    /// lookups back to back (so the table's cache misses overlap), then a search for each not
    /// found.
    fn values_keyed(
        &mut self,
        positions: &[Position],
        keys: &[Option<u64>],
    ) -> Result<Vec<Value>, SolveError> {
        const UNKNOWN: i8 = i8::MIN;
        for key in keys.iter().flatten() {
            self.table.touch(*key);
        }
        let mut found = Vec::with_capacity(keys.len());
        for key in keys {
            found.push(key.and_then(|k| self.table.get(k)).unwrap_or(UNKNOWN));
        }
        let mut out = Vec::with_capacity(keys.len());
        for ((p, key), known) in positions.iter().zip(keys).zip(found) {
            let v = match (known, key) {
                // Asks the table again: a sibling's search may have solved it since.
                (UNKNOWN, Some(k)) => self.solve_keyed(p, *k)?,
                (UNKNOWN, None) => self.solve(p)?,
                (v, _) => v,
            };
            out.push(of_outcome(v));
        }
        Ok(out)
    }
}

/// Win (1), draw (0) or loss (−1) as a value with no distance.
fn of_outcome(v: i8) -> Value {
    match v {
        1 => Value::Win(0),
        0 => Value::Draw,
        _ => Value::Loss(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Sym;
    use crate::games::havannah::{Base, Variant};

    /// A child's key made from its parent's images is the key of the child's own least image,
    /// for every move of every position of a few thousand random games on bases 2 and 3, with
    /// the swap rule and a handicap (White's first stones placed in a row).
    #[test]
    fn child_keys_are_the_childrens_keys() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut checked = 0;
        for (base, swap, handicap) in [(2, false, 0), (3, false, 0), (3, true, 0), (3, false, 3)] {
            let base = Base::new(base).unwrap();
            let game = Havannah::with(Variant {
                base,
                swap,
                handicap,
            });
            let packer = Packer::new(&game).unwrap();
            for _ in 0..500 {
                let mut pos = game.start();
                while game.outcome(&pos).is_none() {
                    let images = packer.images(&pos).unwrap();
                    let moves = game.moves(&pos);
                    for &c in moves.iter().filter(|c| !c.is_swap()) {
                        let child = game.play(&pos, c);
                        if game.outcome(&child).is_none() {
                            let key = packer.child_key(&images, pos.to_move, c, child.to_move);
                            assert_eq!(key, packer.key(&child), "{pos:?} then {c:?}");
                            checked += 1;
                        }
                    }
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    pos = game.play(&pos, moves[(x % moves.len() as u64) as usize]);
                }
            }
        }
        assert!(checked > 50_000, "{checked} children checked");
    }

    /// The stabilizer read word by word is the symmetries that leave the position as it is, for
    /// every position of a few hundred random games on bases 2 to 4 (the empty board keeps all
    /// twelve).
    #[test]
    fn the_stabilizer_is_the_symmetries_that_keep_the_position() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut symmetric = 0;
        for base in [2, 3, 4] {
            let game = Havannah::new(Base::new(base).unwrap());
            assert_eq!(game.stabilizer(&game.start()).len(), 12);
            for _ in 0..300 {
                let mut pos = game.start();
                while game.outcome(&pos).is_none() {
                    let kept: Vec<Sym> = (0..12u8)
                        .map(Sym)
                        .filter(|&s| game.transform_position(s, &pos) == pos)
                        .collect();
                    assert_eq!(game.stabilizer(&pos), kept, "{pos:?}");
                    symmetric += usize::from(kept.len() > 1);
                    let moves = game.moves(&pos);
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    pos = game.play(&pos, moves[(x % moves.len() as u64) as usize]);
                }
            }
        }
        assert!(symmetric > 900, "{symmetric} symmetric positions");
    }
}
