//! Havannah (Christian Freeling): two players place stones on a hexagonal board of base n; a
//! player wins by completing a ring (a closed chain around at least one cell, whatever the cells
//! hold), a bridge (a chain joining two corners) or a fork (a chain joining three sides; corners
//! belong to no side). A full board without one is a draw.
//!
//! Cells use the notation of HavannahGui and the castro engine: `<letter><number>`, row
//! y = letter − 'a', column x = number − 1, on a (2n−1)×(2n−1) grid; a cell is on the board iff
//! |x − y| ≤ n − 1; its neighbours are (x±1, y), (x, y±1), (x+1, y+1), (x−1, y−1).
//!
//! Stones are bitboards over that grid with one guard column (row stride 2n), so the six
//! neighbour shifts never wrap: ±1, ±2n and ±(2n+1). The position carries the result of the move
//! that made it, so finding out whether a game is over costs nothing; `play` works it out from the
//! placed stone's group only (never a whole-board fill).

use std::fmt;

use crate::game::Side;

pub use super::cells::*;
use super::memo::Completions;
pub use super::variant::*;

/// Grid cells on the biggest board (base 10: 19 rows of 20), rounded up to a power of two.
pub const GRID_MAX: usize = 512;

/// The fast engine's tables over the grid (see [`Havannah::guarded`]).
#[derive(Clone, Debug)]
pub struct Guarded {
    pub(super) neighbours: [[u16; 6]; GRID_MAX],
    pub(super) reach: [u16; GRID_MAX],
}

/// A cell, as its index on the grid (row y, column x: y·2n + x).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub(super) u16);

impl Cell {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A move: a stone on a cell, or [`SWAP`].
pub type Move = Cell;

/// The swap move: on the second move of a game with the swap rule, Black takes White's first
/// stone as its own (colours exchanged, no reflection) and White moves next.
pub const SWAP: Cell = Cell(u16::MAX - 1);

impl Cell {
    /// Whether this is the swap move rather than a cell.
    pub fn is_swap(self) -> bool {
        self == SWAP
    }
}

/// The structures a move completed, as a set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Structures(pub(super) u8);

impl Structures {
    pub const RING: Structures = Structures(1);
    pub const BRIDGE: Structures = Structures(2);
    pub const FORK: Structures = Structures(4);
    pub fn contains(self, s: Structures) -> bool {
        self.0 & s.0 != 0
    }
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// `ring`, `bridge`, `fork`, in that order.
    pub fn names(self) -> Vec<&'static str> {
        [
            (Self::RING, "ring"),
            (Self::BRIDGE, "bridge"),
            (Self::FORK, "fork"),
        ]
        .into_iter()
        .filter(|(s, _)| self.contains(*s))
        .map(|(_, n)| n)
        .collect()
    }
}

impl Structures {
    /// Bit 0 ring, bit 1 bridge, bit 2 fork.
    pub fn bits(self) -> u8 {
        self.0
    }
}

impl std::ops::BitOr for Structures {
    type Output = Structures;
    fn bitor(self, o: Structures) -> Structures {
        Structures(self.0 | o.0)
    }
}

/// Why a game of Havannah ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    /// The winner's last stone completed these structures.
    Completed(Structures),
    /// The board is full and nobody completed a structure.
    FullBoard,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::Completed(s) => f.write_str(&s.names().join(" and ")),
            Reason::FullBoard => f.write_str("full board"),
        }
    }
}

/// The stones of each side, the side to move, and how the move that made the position ended the
/// game (if it did).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    /// White's stones, then Black's.
    pub(super) stones: [Bits; 2],
    pub(super) to_move: Side,
    /// 0: not over; 1: White won; 2: Black won; 3: drawn.
    pub(super) result: u8,
    pub(super) structures: Structures,
}

impl Position {
    /// A position still in play with these stones (White's, then Black's) and side to move.
    pub(super) fn in_play(stones: [Bits; 2], to_move: Side) -> Position {
        Position {
            stones,
            to_move,
            result: 0,
            structures: Structures::default(),
        }
    }
    pub fn stones(&self, side: Side) -> Bits {
        self.stones[side as usize]
    }
    /// The side to move.
    pub fn to_move_side(&self) -> Side {
        self.to_move
    }
    /// The structures the last move completed (empty if it won nothing).
    pub fn structures(&self) -> Structures {
        self.structures
    }
}

/// Havannah on a board of base n, with its geometry precomputed.
#[derive(Clone, Debug)]
pub struct Havannah {
    pub(super) base: Base,
    pub(super) swap: bool,
    pub(super) handicap: u8,
    /// Row stride of the grid: 2n (one guard column).
    pub(super) stride: usize,
    pub(super) shape: Shape<Bits>,
    /// The shape in one word, on boards whose grid fits in 64 bits (bases 2 to 4).
    pub(super) small: Option<Shape<u64>>,
    /// On those boards, the symmetries a byte at a time.
    pub(super) word_images: Option<WordImages>,
    /// The board's cells in reading order (row a first, then by column).
    pub(super) cells: Vec<Cell>,
    /// The six neighbours of each grid cell, in turning order (NONE off the board).
    pub(super) neighbours: Vec<[u16; 6]>,
    /// The same with a guard cell (row a's guard column, never a stone) for NONE, so the fast
    /// engine looks at six cells with no test for the edge of the board; and each cell's corner
    /// and side bits. Tables of [`GRID_MAX`] cells, so an index masked to fit needs no check.
    pub(super) guarded: Box<Guarded>,
    /// For each of the 12 symmetries, the image of each grid cell.
    pub(super) images: Vec<Vec<u16>>,
    pub(super) inverses: [u8; 12],
    /// On bases 2 and 3, the structures each stone completes, remembered once found.
    pub(super) completions: Option<Completions>,
}

impl Guarded {
    fn of(neighbours: &[[u16; 6]], reach: &[u16], guard: u16) -> Guarded {
        let mut t = Guarded {
            neighbours: [[guard; 6]; GRID_MAX],
            reach: [0; GRID_MAX],
        };
        for (i, nbs) in neighbours.iter().enumerate() {
            t.neighbours[i] = nbs.map(|n| if n == NONE { guard } else { n });
            t.reach[i] = reach[i];
        }
        t
    }
}

/// The neighbour offsets (dx, dy), in turning order around a cell.
/// The grid of a board of base `n`: (2n−1) rows of 2n columns (one a guard), a cell (x, y) on
/// the board iff |x − y| < n.
pub(super) struct Grid {
    pub(super) n: i32,
    pub(super) stride: usize,
    pub(super) size: i32,
    pub(super) grid: usize,
}

impl Grid {
    pub(super) fn of(n: i32) -> Grid {
        let stride = 2 * n as usize;
        let size = 2 * n - 1;
        Grid {
            n,
            stride,
            size,
            grid: stride * size as usize,
        }
    }
    pub(super) fn on(&self, x: i32, y: i32) -> bool {
        (0..self.size).contains(&x) && (0..self.size).contains(&y) && (x - y).abs() < self.n
    }
    pub(super) fn idx(&self, x: i32, y: i32) -> usize {
        y as usize * self.stride + x as usize
    }

    /// The board's cells, its edge, and each cell's neighbours in the six directions.
    pub(super) fn cells(&self) -> (Bits, Bits, Vec<Cell>, Vec<[u16; 6]>) {
        let (mut board, mut edge) = (Bits::default(), Bits::default());
        let mut cells = Vec::new();
        let mut neighbours = vec![[NONE; 6]; self.grid];
        for y in 0..self.size {
            for x in (0..self.size).filter(|&x| self.on(x, y)) {
                let i = self.idx(x, y);
                board.set(i);
                cells.push(Cell(i as u16));
                let mut count = 0;
                for (k, (dx, dy)) in AROUND.iter().enumerate() {
                    if self.on(x + dx, y + dy) {
                        neighbours[i][k] = self.idx(x + dx, y + dy) as u16;
                        count += 1;
                    }
                }
                if count < 6 {
                    edge.set(i);
                }
            }
        }
        (board, edge, cells, neighbours)
    }

    /// The six sides' cells (corners belong to no side).
    pub(super) fn sides(&self, corners: &[Bits; 6]) -> [Bits; 6] {
        let all_corners = corners.iter().fold(Bits::default(), |a, &c| a.or(c));
        let (m, e) = (self.n - 1, 2 * self.n - 2);
        let mut sides = [Bits::default(); 6];
        for y in 0..self.size {
            for x in 0..self.size {
                if !self.on(x, y) || all_corners.has(self.idx(x, y)) {
                    continue;
                }
                let tests = [y == 0, x - y == m, x == e, y == e, y - x == m, x == 0];
                for (s, &t) in tests.iter().enumerate() {
                    if t {
                        sides[s].set(self.idx(x, y));
                    }
                }
            }
        }
        sides
    }

    /// Each cell's image under the twelve symmetries: cube coordinates around the centre,
    /// (q, −r, r − q) with q = x − c, r = y − c; a rotation turns (a, b, c) into (−c, −a, −b), the
    /// reflection swaps a and b.
    pub(super) fn images(&self, cells: &[Cell]) -> Vec<Vec<u16>> {
        let c = self.n - 1;
        let mut images = Vec::with_capacity(12);
        for reflect in [false, true] {
            for turns in 0..6 {
                let mut image = vec![NONE; self.grid];
                for &cell in cells {
                    let i = cell.index();
                    let (x, y) = ((i % self.stride) as i32, (i / self.stride) as i32);
                    let (q, r) = (x - c, y - c);
                    let (mut a, mut b, mut cc) = (q, -r, r - q);
                    if reflect {
                        std::mem::swap(&mut a, &mut b);
                    }
                    for _ in 0..turns {
                        (a, b, cc) = (-cc, -a, -b);
                    }
                    let (nx, ny) = (a + c, -b + c);
                    debug_assert!(self.on(nx, ny));
                    image[i] = self.idx(nx, ny) as u16;
                }
                images.push(image);
            }
        }
        images
    }
}

pub(super) const AROUND: [(i32, i32); 6] = [(1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1)];

impl Havannah {
    /// The plain game on a board of base n.
    pub fn new(base: Base) -> Havannah {
        Self::with(Variant::plain(base))
    }

    /// The game with its optional rules.
    pub fn with(variant: Variant) -> Havannah {
        let base = variant.base;
        let g = Grid::of(base.get() as i32);
        let (board, edge, cells, neighbours) = g.cells();
        let (m, e) = (g.n - 1, 2 * g.n - 2);
        let corner_cells = [(0, 0), (m, 0), (e, m), (e, e), (m, e), (0, m)];
        let corners = corner_cells.map(|(x, y)| Bits::single(g.idx(x, y)));
        let shape = Shape {
            board,
            edge,
            corners,
            sides: g.sides(&corners),
        };
        let images = g.images(&cells);
        let mut inverses = [0u8; 12];
        for (s, inverse) in inverses.iter_mut().enumerate() {
            let undoes = |t: &Vec<u16>| {
                cells
                    .iter()
                    .all(|&x| t[images[s][x.index()] as usize] == x.0)
            };
            *inverse = images.iter().position(undoes).unwrap_or(0) as u8;
        }
        let small = shape.word();
        let word_images = small.as_ref().map(|_| WordImages::new(&images, g.grid));
        let mut reach = vec![0u16; g.grid];
        for (k, corner) in shape.corners.iter().enumerate() {
            corner.iter().for_each(|i| reach[i] |= 1 << k);
        }
        for (k, side) in shape.sides.iter().enumerate() {
            side.iter().for_each(|i| reach[i] |= 1 << (8 + k));
        }
        let guarded = Box::new(Guarded::of(&neighbours, &reach, (g.stride - 1) as u16));
        let indices: Vec<usize> = cells.iter().map(|c| c.index()).collect();
        let completions = Completions::new(&indices);
        Havannah {
            base,
            swap: variant.swap,
            handicap: variant.handicap,
            stride: g.stride,
            shape,
            small,
            word_images,
            cells,
            neighbours,
            guarded,
            images,
            inverses,
            completions,
        }
    }

    pub fn base(&self) -> Base {
        self.base
    }
    pub fn variant_rules(&self) -> Variant {
        Variant {
            base: self.base,
            swap: self.swap,
            handicap: self.handicap,
        }
    }
    /// Whether `pos` is the second move of a game with the swap rule (Black may swap).
    pub(super) fn swap_allowed(&self, pos: &Position) -> bool {
        self.swap
            && pos.to_move == Side::Second
            && pos.stones[0].count() == 1
            && pos.stones[1].is_empty()
    }
    /// The swap move if `pos` allows it (as a slice of none or one).
    pub(super) fn moves_with_swap(&self, pos: &Position) -> &'static [Cell] {
        if self.swap_allowed(pos) { &[SWAP] } else { &[] }
    }

    /// `pos` after a stone at `at`, as if it completed no structure ([`Game::play`] then looks;
    /// the solver knows): the game goes on unless the board is full.
    pub(super) fn play_quiet(&self, pos: &Position, at: Cell) -> Position {
        let side = pos.to_move;
        let mut stones = pos.stones;
        stones[side as usize].set(at.index());
        // The whole board's count only where it is more than one word.
        let taken = match self.small {
            Some(_) => (stones[0].0[0] | stones[1].0[0]).count_ones(),
            None => stones[0].or(stones[1]).count(),
        };
        let full = taken as usize == self.cells.len();
        Position {
            to_move: self.next_to_move(side, &stones),
            stones,
            result: if full { 3 } else { 0 },
            structures: Structures::default(),
        }
    }

    /// The side to move after `side` placed a stone, the position's stones counted after it.
    pub(super) fn next_to_move(&self, side: Side, stones: &[Bits; 2]) -> Side {
        if side == Side::First && stones[1].is_empty() && (stones[0].count() as u8) < self.handicap
        {
            Side::First
        } else {
            side.other()
        }
    }
    /// The board's cells in reading order.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }
    /// Column and row of a cell.
    pub fn xy(&self, c: Cell) -> (usize, usize) {
        (c.index() % self.stride, c.index() / self.stride)
    }
    /// The cell at column `x`, row `y`, if it is on the board.
    pub fn cell_at(&self, x: usize, y: usize) -> Option<Cell> {
        let n = self.base.get() as usize;
        let size = 2 * n - 1;
        (x < size && y < size && x.abs_diff(y) < n).then(|| Cell((y * self.stride + x) as u16))
    }
    /// The six neighbours of a cell on the board, in turning order.
    pub fn neighbours(&self, c: Cell) -> impl Iterator<Item = Cell> + '_ {
        self.neighbours[c.index()]
            .iter()
            .filter(|&&i| i != NONE)
            .map(|&i| Cell(i))
    }
    /// The fast engine's tables (see [`Havannah::guarded`]).
    pub(super) fn guarded(&self) -> &Guarded {
        &self.guarded
    }
    /// The corner cells, and the cells of each side (corners excluded).
    pub fn corners(&self) -> [Bits; 6] {
        self.shape.corners
    }
    pub fn sides(&self) -> [Bits; 6] {
        self.shape.sides
    }
    pub fn edge(&self) -> Bits {
        self.shape.edge
    }

    /// The cells next to any cell of `b`, on the board.
    #[inline]
    pub(super) fn spread<B: CellSet>(&self, shape: &Shape<B>, b: B) -> B {
        let s = self.stride as u32;
        b.up(1)
            .or(b.down(1))
            .or(b.up(s))
            .or(b.down(s))
            .or(b.up(s + 1))
            .or(b.down(s + 1))
            .and(shape.board)
    }

    /// The cells of `within` connected to `from` (which must be in `within`).
    pub(super) fn fill(&self, from: Bits, within: Bits) -> Bits {
        self.fill_in(&self.shape, from, within)
    }

    #[inline]
    pub(super) fn fill_in<B: CellSet>(&self, shape: &Shape<B>, from: B, within: B) -> B {
        let mut g = from;
        loop {
            let next = g.or(self.spread(shape, g)).and(within);
            if next.same(g) {
                return g;
            }
            g = next;
        }
    }

    /// Whether the region of `start` through `open` (the cells not in the ringing group, and
    /// `start` itself) is closed off from the edge of the board.
    pub(super) fn enclosed(&self, start: usize, open: Bits) -> bool {
        self.enclosed_in(&self.shape, start, open)
    }

    #[inline]
    pub(super) fn enclosed_in<B: CellSet>(&self, shape: &Shape<B>, start: usize, open: B) -> bool {
        let mut g = B::single(start);
        loop {
            if g.intersects(shape.edge) {
                return false;
            }
            let next = g.or(self.spread(shape, g).and(open));
            if next.same(g) {
                return true;
            }
            g = next;
        }
    }

    /// Whether a group of stones holds a ring, a bridge or a fork anywhere (the slow, whole-board
    /// test: for drawing a finished game, not for playing).
    pub(super) fn has_structure(&self, group: Bits) -> bool {
        let corners = self
            .shape
            .corners
            .iter()
            .filter(|&&c| c.intersects(group))
            .count();
        let sides = self
            .shape
            .sides
            .iter()
            .filter(|&&c| c.intersects(group))
            .count();
        let open = self.shape.board.and_not(group);
        corners >= 2 || sides >= 3 || self.cells.iter().any(|c| self.enclosed(c.index(), open))
    }

    /// The structures completed by a stone at `at`, given the mover's stones with it.
    pub fn completed(&self, own: Bits, at: Cell) -> Structures {
        match (&self.small, &self.completions) {
            (Some(shape), Some(memo)) => Structures(memo.get(own.0[0], at.index(), || {
                self.completed_in(shape, own.0[0], at).0
            })),
            (Some(shape), None) => self.completed_in(shape, own.0[0], at),
            (None, _) => self.completed_in(&self.shape, own, at),
        }
    }

    /// Up to `limit` of the empty `cells` where a stone would complete a structure with the
    /// mover's stones `own`, in the cells' order, and how many were found. On bases 2 and 3 the
    /// answers come from one row of the memo: the row is found once for all the cells.
    pub(super) fn completers(&self, own: Bits, cells: &[Cell], limit: usize) -> ([Cell; 2], usize) {
        let mut found = ([SWAP; 2], 0);
        let mut note = |c: Cell| {
            if found.1 < 2 {
                found.0[found.1] = c;
            }
            found.1 += 1;
            found.1 >= limit
        };
        // The memo's row for these stones, where the board is remembered.
        let memo = match (&self.small, &self.completions) {
            (Some(shape), Some(memo)) => memo.row(own.0[0]).map(|row| (shape, memo, row)),
            _ => None,
        };
        for &c in cells {
            let at = c.index();
            let entry = memo.and_then(|(shape, m, row)| Some((shape, row.get(m.ordinal(at)?)?)));
            let done = match entry {
                Some((shape, entry)) => super::memo::Completions::answer(entry, || {
                    self.completed_in(shape, own.0[0] | 1 << at, c).0
                }),
                None => self.completed(own.or(Bits::single(at)), c).0,
            };
            if done != 0 && note(c) {
                break;
            }
        }
        found
    }

    #[inline]
    pub(super) fn completed_in<B: CellSet>(
        &self,
        shape: &Shape<B>,
        own: B,
        at: Cell,
    ) -> Structures {
        // What the mover's stones could complete at all, before following the group: a bridge
        // needs two corners, a fork three sides, a ring six stones and two of them beside `at`.
        let touching = |group: B, of: &[B; 6]| of.iter().filter(|&&c| c.intersects(group)).count();
        let own_neighbours = self.neighbours(at).filter(|c| own.has(c.index())).count();
        if own_neighbours == 0 {
            // A lone stone: one corner at most, one side at most, no ring.
            return Structures::default();
        }
        let maybe_ring = own_neighbours >= 2 && own.count() >= 6;
        let maybe_bridge = touching(own, &shape.corners) >= 2;
        let maybe_fork = touching(own, &shape.sides) >= 3;
        if !(maybe_ring || maybe_bridge || maybe_fork) {
            return Structures::default();
        }
        let group = self.fill_in(shape, B::single(at.index()), own);
        let mut found = Structures::default();
        if touching(group, &shape.corners) >= 2 {
            found.0 |= Structures::BRIDGE.0;
        }
        if touching(group, &shape.sides) >= 3 {
            found.0 |= Structures::FORK.0;
        }
        // A ring through the new stone needs two of its neighbours in the group.
        if maybe_ring {
            let open = shape.board.and_not(group);
            let candidates = std::iter::once(at).chain(self.neighbours(at));
            if candidates
                .into_iter()
                .any(|x| self.enclosed_in(shape, x.index(), open))
            {
                found.0 |= Structures::RING.0;
            }
        }
        found
    }

    pub(super) fn cell_name(&self, c: Cell) -> String {
        let (x, y) = self.xy(c);
        format!("{}{}", (b'a' + y as u8) as char, x + 1)
    }

    /// The cell named `text` (`<letter><number>`), if it is on the board.
    pub fn parse_cell(&self, text: &str) -> Option<Cell> {
        let t = text.trim().to_ascii_lowercase();
        let mut chars = t.chars();
        let letter = chars.next()?;
        if !letter.is_ascii_lowercase() {
            return None;
        }
        let number: usize = chars.as_str().parse().ok()?;
        let y = (letter as u8 - b'a') as usize;
        self.cell_at(number.checked_sub(1)?, y)
    }

    /// The range of columns of row `y`.
    pub(super) fn row_columns(&self, y: usize) -> std::ops::RangeInclusive<usize> {
        let n = self.base.get() as usize;
        y.saturating_sub(n - 1)..=(y + n - 1).min(2 * n - 2)
    }
}

#[cfg(test)]
mod remembered {
    use super::*;

    /// The cells [`Havannah::completers`] finds (from the memo's row on bases 2 and 3) are the
    /// first of those where [`Havannah::completed`] finds a structure, for random sets of
    /// stones (their complement the empty cells), with limits 1 and 2.
    fn assert_completers_agree(g: &Havannah, seed: u64) {
        let mut x = 0x2545_F491_4F6C_DD1Du64 ^ seed;
        let mut some = 0;
        for _ in 0..3000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mut own = Bits::default();
            let mut empty = Vec::new();
            for (k, &c) in g.cells().iter().enumerate() {
                match (x >> (k % 61)) & 3 {
                    0 | 1 => own.set(c.index()),
                    2 => empty.push(c),
                    _ => {}
                }
            }
            let all: Vec<Cell> = empty
                .iter()
                .copied()
                .filter(|&c| !g.completed(own.or(Bits::single(c.index())), c).is_empty())
                .collect();
            some += usize::from(!all.is_empty());
            for limit in [1, 2] {
                let (cells, n) = g.completers(own, &empty, limit);
                assert_eq!(n, all.len().min(limit), "{own:?} limit {limit}");
                assert_eq!(&cells[..n], &all[..n]);
            }
        }
        assert!(some > 100, "sets with a completing cell: {some}");
    }

    /// Base 4 is not remembered: its answers are found afresh, the same way.
    #[test]
    fn completers_without_a_memo() {
        assert_completers_agree(&Havannah::new(Base::new(4).unwrap()), 4);
    }

    /// On bases 2 and 3, a remembered answer is the answer found afresh, for every cell of a
    /// few thousand stone sets (asked twice: found, then recalled); off the board, no entry.
    #[test]
    fn remembered_answers_are_the_answers() {
        for n in [2, 3] {
            let g = Havannah::new(Base::new(n).unwrap());
            let (Some(shape), Some(memo)) = (&g.small, &g.completions) else {
                panic!("base {n} remembers");
            };
            let cells: Vec<usize> = g.cells().iter().map(|c| c.index()).collect();
            let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ u64::from(n);
            let mut found = 0;
            for _ in 0..3000 {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let own = cells
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| (x >> (17 + k % 40)) & 3 == 0 || (x >> k) & 7 == 1)
                    .fold(0u64, |w, (_, &i)| w | 1 << i);
                for &c in g.cells() {
                    let own = own | 1 << c.index();
                    let fresh = g.completed_in(shape, own, c);
                    found += usize::from(!fresh.is_empty());
                    assert_eq!(g.completed(Bits([own, 0, 0, 0, 0, 0]), c), fresh);
                    assert_eq!(memo.get(own, c.index(), || unreachable!()), fresh.0);
                }
            }
            assert!(found > 100, "base {n}: structures among the sets ({found})");
            assert_completers_agree(&g, n.into());
            assert!(memo.entry(1, 63).is_none() && memo.entry(u64::MAX, cells[0]).is_none());
        }
    }
}
