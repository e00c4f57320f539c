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

use crate::game::{Game, GameError, Outcome, Side, Sym};

/// 64-bit words in a board: base 10 takes 19 rows of 20 bits.
const WORDS: usize = 6;

/// A set of grid cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bits([u64; WORDS]);

impl Bits {
    #[inline]
    pub fn has(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
    #[inline]
    pub fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    #[inline]
    pub(super) fn single(i: usize) -> Bits {
        let mut b = Bits::default();
        b.set(i);
        b
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn and(self, o: Bits) -> Bits {
        let mut r = self;
        for k in 0..WORDS {
            r.0[k] &= o.0[k];
        }
        r
    }
    #[inline]
    pub(super) fn or(self, o: Bits) -> Bits {
        let mut r = self;
        for k in 0..WORDS {
            r.0[k] |= o.0[k];
        }
        r
    }
    #[inline]
    pub(super) fn and_not(self, o: Bits) -> Bits {
        let mut r = self;
        for k in 0..WORDS {
            r.0[k] &= !o.0[k];
        }
        r
    }
    /// Equality without a call to `memcmp` (the derived one makes one per flood step).
    #[inline]
    fn same(self, o: Bits) -> bool {
        let mut diff = 0;
        for k in 0..WORDS {
            diff |= self.0[k] ^ o.0[k];
        }
        diff == 0
    }
    #[inline]
    fn intersects(self, o: Bits) -> bool {
        (0..WORDS).any(|k| self.0[k] & o.0[k] != 0)
    }
    /// Bits moved up by `s` (towards higher indexes), 0 < s < 64.
    #[inline]
    fn up(self, s: u32) -> Bits {
        let mut r = [0u64; WORDS];
        for (k, out) in r.iter_mut().enumerate() {
            *out = self.0[k] << s;
            if k > 0 {
                *out |= self.0[k - 1] >> (64 - s);
            }
        }
        Bits(r)
    }
    #[inline]
    fn down(self, s: u32) -> Bits {
        let mut r = [0u64; WORDS];
        for (k, out) in r.iter_mut().enumerate() {
            *out = self.0[k] >> s;
            if k + 1 < WORDS {
                *out |= self.0[k + 1] << (64 - s);
            }
        }
        Bits(r)
    }
    /// The indexes of the cells, in order.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        (0..WORDS).flat_map(move |k| {
            let mut w = self.0[k];
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let i = w.trailing_zeros() as usize;
                    w &= w - 1;
                    k * 64 + i
                })
            })
        })
    }
}

/// The set operations the win test needs, on the six-word [`Bits`] of any board and on a single
/// word for boards whose grid fits in 64 bits (bases 2 to 4), where they cost one instruction each.
pub(super) trait CellSet: Copy {
    fn single(i: usize) -> Self;
    fn or(self, o: Self) -> Self;
    fn and(self, o: Self) -> Self;
    fn and_not(self, o: Self) -> Self;
    fn up(self, s: u32) -> Self;
    fn down(self, s: u32) -> Self;
    fn same(self, o: Self) -> bool;
    fn intersects(self, o: Self) -> bool;
    fn count(self) -> u32;
    fn has(self, i: usize) -> bool;
}

impl CellSet for Bits {
    #[inline]
    fn single(i: usize) -> Self {
        Bits::single(i)
    }
    #[inline]
    fn or(self, o: Self) -> Self {
        Bits::or(self, o)
    }
    #[inline]
    fn and(self, o: Self) -> Self {
        Bits::and(self, o)
    }
    #[inline]
    fn and_not(self, o: Self) -> Self {
        Bits::and_not(self, o)
    }
    #[inline]
    fn up(self, s: u32) -> Self {
        Bits::up(self, s)
    }
    #[inline]
    fn down(self, s: u32) -> Self {
        Bits::down(self, s)
    }
    #[inline]
    fn same(self, o: Self) -> bool {
        Bits::same(self, o)
    }
    #[inline]
    fn intersects(self, o: Self) -> bool {
        Bits::intersects(self, o)
    }
    #[inline]
    fn count(self) -> u32 {
        Bits::count(&self)
    }
    #[inline]
    fn has(self, i: usize) -> bool {
        Bits::has(&self, i)
    }
}

impl CellSet for u64 {
    #[inline]
    fn single(i: usize) -> Self {
        1 << i
    }
    #[inline]
    fn or(self, o: Self) -> Self {
        self | o
    }
    #[inline]
    fn and(self, o: Self) -> Self {
        self & o
    }
    #[inline]
    fn and_not(self, o: Self) -> Self {
        self & !o
    }
    #[inline]
    fn up(self, s: u32) -> Self {
        self << s
    }
    #[inline]
    fn down(self, s: u32) -> Self {
        self >> s
    }
    #[inline]
    fn same(self, o: Self) -> bool {
        self == o
    }
    #[inline]
    fn intersects(self, o: Self) -> bool {
        self & o != 0
    }
    #[inline]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline]
    fn has(self, i: usize) -> bool {
        self >> i & 1 == 1
    }
}

/// The board's shape as cell sets of one kind: its cells, its edge cells (fewer than six
/// neighbours), its corners and its sides.
#[derive(Clone, Debug)]
pub(super) struct Shape<B> {
    board: B,
    edge: B,
    corners: [B; 6],
    sides: [B; 6],
}

impl Shape<Bits> {
    /// The same shape in one word, if the grid fits in 64 bits.
    fn word(&self) -> Option<Shape<u64>> {
        let fits = |b: &Bits| b.0[1..].iter().all(|&w| w == 0);
        fits(&self.board).then(|| Shape {
            board: self.board.0[0],
            edge: self.edge.0[0],
            corners: self.corners.map(|b| b.0[0]),
            sides: self.sides.map(|b| b.0[0]),
        })
    }
}

/// The images of one-word boards under each symmetry, a byte at a time: entry
/// `[sym][k][v]` is the image of the byte value `v` at byte `k` of the word.
#[derive(Clone, Debug)]
enum WordImages {
    /// 32-bit entries, four bytes a word, where the grid fits (bases 2 and 3): half the cache.
    Narrow(Vec<[u32; 256]>),
    /// 64-bit entries, `bytes` bytes a word (base 4).
    Wide {
        bytes: usize,
        table: Vec<[u64; 256]>,
    },
}

impl WordImages {
    fn new(images: &[Vec<u16>], grid: usize) -> WordImages {
        // Four bytes at least, so that the 32-bit path reads a whole word on every small board.
        let bytes = grid.div_ceil(8).max(4);
        let mut table = vec![[0u64; 256]; images.len() * bytes];
        for (s, image) in images.iter().enumerate() {
            for k in 0..bytes {
                for (v, out) in table[s * bytes + k].iter_mut().enumerate() {
                    for bit in 0..8 {
                        let i = 8 * k + bit;
                        if v >> bit & 1 == 1 && i < grid && image[i] != NONE {
                            *out |= 1 << image[i];
                        }
                    }
                }
            }
        }
        if grid <= 32 {
            WordImages::Narrow(table.iter().map(|row| row.map(|i| i as u32)).collect())
        } else {
            WordImages::Wide { bytes, table }
        }
    }

    /// The image of the cells `w` under symmetry `s`.
    #[inline]
    fn image(&self, s: usize, w: u64) -> u64 {
        match self {
            WordImages::Narrow(table) => {
                let rows = &table[s * 4..(s + 1) * 4];
                u64::from(
                    rows[0][w as usize & 0xff]
                        | rows[1][(w >> 8) as usize & 0xff]
                        | rows[2][(w >> 16) as usize & 0xff]
                        | rows[3][(w >> 24) as usize & 0xff],
                )
            }
            WordImages::Wide { bytes, table } => {
                let rows = &table[s * bytes..(s + 1) * bytes];
                let mut out = 0;
                for (k, row) in rows.iter().enumerate() {
                    out |= row[(w >> (8 * k)) as usize & 0xff];
                }
                out
            }
        }
    }
}

/// A board size: base n from 2 to 10 (3n(n−1)+1 cells).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Base(u8);

impl Base {
    pub const MIN: u8 = 2;
    pub const MAX: u8 = 10;
    pub fn new(n: u8) -> Result<Base, GameError> {
        if (Self::MIN..=Self::MAX).contains(&n) {
            Ok(Base(n))
        } else {
            Err(GameError::BadVariant(format!(
                "havannah base {n}: bases go from {} to {}",
                Self::MIN,
                Self::MAX
            )))
        }
    }
    pub fn get(self) -> u8 {
        self.0
    }
    /// 3n(n−1)+1.
    pub fn cells(self) -> usize {
        let n = self.0 as usize;
        3 * n * (n - 1) + 1
    }
}

impl fmt::Display for Base {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::str::FromStr for Base {
    type Err = GameError;
    fn from_str(s: &str) -> Result<Base, GameError> {
        let n: u8 = s.trim().parse().map_err(|_| {
            GameError::BadVariant(format!(
                "havannah --size `{}`: give the base, a whole number from {} to {}",
                crate::text::quote(s),
                Base::MIN,
                Base::MAX
            ))
        })?;
        Base::new(n)
    }
}

/// A board and the optional rules: the swap (pie) rule, or a handicap of K ≥ 2 stones that White
/// places on its first turn. Written `4`, `4 swap`, `4 handicap 3` (the `size` key of a file).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Variant {
    pub base: Base,
    pub swap: bool,
    /// 0 for none, else K ≥ 2.
    pub handicap: u8,
}

impl Variant {
    pub fn new(base: Base, swap: bool, handicap: u8) -> Result<Variant, GameError> {
        if swap && handicap > 0 {
            return Err(GameError::BadVariant(
                "havannah: the swap rule and a handicap do not go together".into(),
            ));
        }
        if handicap == 1 || handicap as usize >= base.cells() {
            return Err(GameError::BadVariant(format!(
                "havannah --handicap {handicap}: a handicap is from 2 stones to fewer than the {} cells",
                base.cells()
            )));
        }
        Ok(Variant {
            base,
            swap,
            handicap,
        })
    }
    pub fn plain(base: Base) -> Variant {
        Variant {
            base,
            swap: false,
            handicap: 0,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.base)?;
        if self.swap {
            f.write_str(" swap")?;
        }
        if self.handicap > 0 {
            write!(f, " handicap {}", self.handicap)?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Variant {
    type Err = GameError;
    fn from_str(s: &str) -> Result<Variant, GameError> {
        let words: Vec<&str> = s.split_whitespace().collect();
        let base: Base = words.first().copied().unwrap_or("").parse()?;
        match words[1..] {
            [] => Ok(Variant::plain(base)),
            ["swap"] => Variant::new(base, true, 0),
            ["handicap", k] => Variant::new(
                base,
                false,
                k.parse().map_err(|_| {
                    GameError::BadVariant(format!(
                        "havannah handicap `{}`: a number of stones",
                        crate::text::quote(k)
                    ))
                })?,
            ),
            _ => Err(GameError::BadVariant(format!(
                "havannah `{}`: write the base, then `swap` or `handicap K`",
                crate::text::quote(s)
            ))),
        }
    }
}

/// A cell, as its index on the grid (row y, column x: y·2n + x).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u16);

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
pub struct Structures(u8);

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
    stones: [Bits; 2],
    to_move: Side,
    /// 0: not over; 1: White won; 2: Black won; 3: drawn.
    result: u8,
    structures: Structures,
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

/// No neighbour (off the board).
const NONE: u16 = u16::MAX;

/// Havannah on a board of base n, with its geometry precomputed.
#[derive(Clone, Debug)]
pub struct Havannah {
    base: Base,
    swap: bool,
    handicap: u8,
    /// Row stride of the grid: 2n (one guard column).
    stride: usize,
    shape: Shape<Bits>,
    /// The shape in one word, on boards whose grid fits in 64 bits (bases 2 to 4).
    small: Option<Shape<u64>>,
    /// On those boards, the symmetries a byte at a time.
    word_images: Option<WordImages>,
    /// The board's cells in reading order (row a first, then by column).
    cells: Vec<Cell>,
    /// The six neighbours of each grid cell, in turning order (NONE off the board).
    neighbours: Vec<[u16; 6]>,
    /// The corner (bits 0–5) and side (bits 8–13) each grid cell belongs to.
    reach: Vec<u16>,
    /// For each of the 12 symmetries, the image of each grid cell.
    images: Vec<Vec<u16>>,
    inverses: [u8; 12],
}

/// The neighbour offsets (dx, dy), in turning order around a cell.
const AROUND: [(i32, i32); 6] = [(1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1)];

impl Havannah {
    /// The plain game on a board of base n.
    pub fn new(base: Base) -> Havannah {
        Self::with(Variant::plain(base))
    }

    /// The game with its optional rules.
    pub fn with(variant: Variant) -> Havannah {
        let base = variant.base;
        let n = base.get() as i32;
        let stride = 2 * n as usize;
        let size = 2 * n - 1;
        let on =
            |x: i32, y: i32| (0..size).contains(&x) && (0..size).contains(&y) && (x - y).abs() < n;
        let idx = |x: i32, y: i32| y as usize * stride + x as usize;
        let grid = stride * size as usize;
        let mut board = Bits::default();
        let mut edge = Bits::default();
        let mut cells = Vec::new();
        let mut neighbours = vec![[NONE; 6]; grid];
        for y in 0..size {
            for x in 0..size {
                if !on(x, y) {
                    continue;
                }
                let i = idx(x, y);
                board.set(i);
                cells.push(Cell(i as u16));
                let mut count = 0;
                for (k, (dx, dy)) in AROUND.iter().enumerate() {
                    if on(x + dx, y + dy) {
                        neighbours[i][k] = idx(x + dx, y + dy) as u16;
                        count += 1;
                    }
                }
                if count < 6 {
                    edge.set(i);
                }
            }
        }
        let (m, e) = (n - 1, 2 * n - 2);
        let corner_cells = [(0, 0), (m, 0), (e, m), (e, e), (m, e), (0, m)];
        let corners = corner_cells.map(|(x, y)| Bits::single(idx(x, y)));
        let all_corners = corners.iter().fold(Bits::default(), |a, &c| a.or(c));
        let mut sides = [Bits::default(); 6];
        for y in 0..size {
            for x in 0..size {
                if !on(x, y) || all_corners.has(idx(x, y)) {
                    continue;
                }
                let tests = [y == 0, x - y == m, x == e, y == e, y - x == m, x == 0];
                for (s, &t) in tests.iter().enumerate() {
                    if t {
                        sides[s].set(idx(x, y));
                    }
                }
            }
        }
        // Symmetries: cube coordinates around the centre, (q, −r, r − q) with q = x − c,
        // r = y − c; a rotation turns (a, b, c) into (−c, −a, −b), the reflection swaps a and b.
        let c = m;
        let mut images = Vec::with_capacity(12);
        for reflect in [false, true] {
            for turns in 0..6 {
                let mut image = vec![NONE; grid];
                for &cell in &cells {
                    let i = cell.index();
                    let (x, y) = ((i % stride) as i32, (i / stride) as i32);
                    let (q, r) = (x - c, y - c);
                    let (mut a, mut b, mut cc) = (q, -r, r - q);
                    if reflect {
                        std::mem::swap(&mut a, &mut b);
                    }
                    for _ in 0..turns {
                        (a, b, cc) = (-cc, -a, -b);
                    }
                    let (nx, ny) = (a + c, -b + c);
                    debug_assert!(on(nx, ny));
                    image[i] = idx(nx, ny) as u16;
                }
                images.push(image);
            }
        }
        let mut inverses = [0u8; 12];
        for (s, inverse) in inverses.iter_mut().enumerate() {
            let undoes = |t: &Vec<u16>| {
                cells
                    .iter()
                    .all(|&x| t[images[s][x.index()] as usize] == x.0)
            };
            *inverse = images.iter().position(undoes).unwrap_or(0) as u8;
        }
        let shape = Shape {
            board,
            edge,
            corners,
            sides,
        };
        let small = shape.word();
        let word_images = small.as_ref().map(|_| WordImages::new(&images, grid));
        let mut reach = vec![0u16; grid];
        for (k, corner) in shape.corners.iter().enumerate() {
            for i in corner.iter() {
                reach[i] |= 1 << k;
            }
        }
        for (k, side) in shape.sides.iter().enumerate() {
            for i in side.iter() {
                reach[i] |= 1 << (8 + k);
            }
        }
        Havannah {
            base,
            swap: variant.swap,
            handicap: variant.handicap,
            stride,
            shape,
            small,
            word_images,
            cells,
            neighbours,
            reach,
            images,
            inverses,
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
    fn swap_allowed(&self, pos: &Position) -> bool {
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
        let full = stones[0].or(stones[1]).count() as usize == self.cells.len();
        Position {
            to_move: self.next_to_move(side, &stones),
            stones,
            result: if full { 3 } else { 0 },
            structures: Structures::default(),
        }
    }

    /// The side to move after `side` placed a stone, the position's stones counted after it.
    fn next_to_move(&self, side: Side, stones: &[Bits; 2]) -> Side {
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
    /// The raw neighbour table: six grid indexes per grid cell, `u16::MAX` off the board.
    pub(super) fn neighbour_table(&self) -> &[[u16; 6]] {
        &self.neighbours
    }
    /// The corner (bits 0–5) and side (bits 8–13) of each grid cell, as masks.
    pub(super) fn reach_table(&self) -> &[u16] {
        &self.reach
    }
    pub(super) fn board_bits(&self) -> Bits {
        self.shape.board
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
    fn spread<B: CellSet>(&self, shape: &Shape<B>, b: B) -> B {
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
    fn fill_in<B: CellSet>(&self, shape: &Shape<B>, from: B, within: B) -> B {
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
    fn enclosed_in<B: CellSet>(&self, shape: &Shape<B>, start: usize, open: B) -> bool {
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
        match &self.small {
            Some(shape) => self.completed_in(shape, own.0[0], at),
            None => self.completed_in(&self.shape, own, at),
        }
    }

    #[inline]
    fn completed_in<B: CellSet>(&self, shape: &Shape<B>, own: B, at: Cell) -> Structures {
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

    fn cell_name(&self, c: Cell) -> String {
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
    fn row_columns(&self, y: usize) -> std::ops::RangeInclusive<usize> {
        let n = self.base.get() as usize;
        y.saturating_sub(n - 1)..=(y + n - 1).min(2 * n - 2)
    }
}

impl Game for Havannah {
    type Position = Position;
    type Move = Move;
    type Reason = Reason;

    fn name(&self) -> &'static str {
        "havannah"
    }
    fn variant(&self) -> String {
        match (self.swap, self.handicap) {
            (true, _) => format!("base {}, swap rule", self.base),
            (false, 0) => format!("base {}", self.base),
            (false, k) => format!("base {}, handicap {k}", self.base),
        }
    }
    fn side_name(&self, side: Side) -> &'static str {
        match side {
            Side::First => "white",
            Side::Second => "black",
        }
    }
    fn start(&self) -> Position {
        Position {
            stones: [Bits::default(); 2],
            to_move: Side::First,
            result: 0,
            structures: Structures::default(),
        }
    }
    fn to_move(&self, pos: &Position) -> Side {
        pos.to_move
    }
    fn legal_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        if pos.result != 0 {
            return;
        }
        let taken = pos.stones[0].or(pos.stones[1]);
        out.extend(self.cells.iter().copied().filter(|c| !taken.has(c.index())));
        if self.swap_allowed(pos) {
            out.push(SWAP);
        }
    }
    /// Without listing the moves: the one empty cell of a game still in play (the swap rule
    /// only applies with one stone on the board).
    fn only_move(&self, pos: &Position) -> Option<Move> {
        let taken = pos.stones[0].or(pos.stones[1]);
        if pos.result != 0 || taken.count() as usize + 1 != self.cells.len() {
            return None;
        }
        self.shape
            .board
            .and_not(taken)
            .iter()
            .next()
            .map(|i| Cell(i as u16))
    }
    fn play(&self, pos: &Position, mv: Move) -> Position {
        let side = pos.to_move;
        if mv.is_swap() {
            return Position {
                stones: [Bits::default(), pos.stones[0]],
                to_move: Side::First,
                result: 0,
                structures: Structures::default(),
            };
        }
        let mut next = self.play_quiet(pos, mv);
        let structures = self.completed(next.stones[side as usize], mv);
        if !structures.is_empty() {
            next.result = 1 + side as u8;
            next.structures = structures;
        }
        next
    }
    fn outcome(&self, pos: &Position) -> Option<Outcome<Reason>> {
        match pos.result {
            1 | 2 => Some(Outcome {
                winner: Some(if pos.result == 1 {
                    Side::First
                } else {
                    Side::Second
                }),
                reason: Reason::Completed(pos.structures),
            }),
            3 => Some(Outcome {
                winner: None,
                reason: Reason::FullBoard,
            }),
            _ => None,
        }
    }

    fn symmetry_count(&self) -> usize {
        12
    }
    fn transform_position(&self, sym: Sym, pos: &Position) -> Position {
        if sym == Sym::IDENTITY {
            return *pos;
        }
        if let Some(words) = &self.word_images {
            let map = |b: Bits| {
                let mut out = Bits::default();
                out.0[0] = words.image(sym.index(), b.0[0]);
                out
            };
            return Position {
                stones: pos.stones.map(map),
                ..*pos
            };
        }
        let image = &self.images[sym.index()];
        let map = |b: Bits| {
            let mut out = Bits::default();
            for i in b.iter() {
                out.set(image[i] as usize);
            }
            out
        };
        Position {
            stones: [map(pos.stones[0]), map(pos.stones[1])],
            ..*pos
        }
    }
    /// On boards of one word, the least image found a byte at a time: positions are ordered by
    /// White's stones, then Black's, so the least image has the least (White, Black) words.
    fn canonical(&self, pos: &Position) -> (Position, Sym) {
        let Some(words) = &self.word_images else {
            return crate::game::least_image(self, pos);
        };
        let [w, b] = pos.stones.map(|s| s.0[0]);
        // White's least image first; Black's only for the symmetries that tie on it.
        let mut best = (w, b, 0);
        let mut ties = false;
        for s in 1..12 {
            let iw = words.image(s, w);
            if iw < best.0 {
                best = (iw, words.image(s, b), s);
                ties = false;
            } else if iw == best.0 {
                ties = true;
            }
        }
        if ties {
            for s in 1..12 {
                if words.image(s, w) == best.0 {
                    let ib = words.image(s, b);
                    if ib < best.1 || (ib == best.1 && s < best.2) {
                        best = (best.0, ib, s);
                    }
                }
            }
        }
        let mut out = *pos;
        out.stones[0].0[0] = best.0;
        out.stones[1].0[0] = best.1;
        (out, Sym(best.2 as u8))
    }
    fn transform_move(&self, sym: Sym, mv: Move) -> Move {
        if mv.is_swap() {
            return mv;
        }
        Cell(self.images[sym.index()][mv.index()])
    }
    fn inverse(&self, sym: Sym) -> Sym {
        Sym(self.inverses[sym.index()])
    }

    /// Every placement of up to ⌈k/2⌉ White and ⌊k/2⌋ Black stones: Σₖ C(N, k)·C(k, ⌊k/2⌋).
    fn position_bound(&self, _side: Side) -> Option<(f64, &'static str)> {
        let cells = self.cells.len();
        let mut total = 0.0;
        let mut choose_n = 1.0f64; // C(N, k)
        for k in 0..=cells {
            if k > 0 {
                choose_n = choose_n * (cells + 1 - k) as f64 / k as f64;
            }
            let mut choose_k = 1.0f64; // C(k, k/2)
            for j in 1..=k / 2 {
                choose_k = choose_k * (k + 1 - j) as f64 / j as f64;
            }
            total += choose_n * choose_k;
        }
        Some((
            total,
            "upper bound: every placement of alternating White and Black stones",
        ))
    }

    fn structure_kinds(&self) -> &'static [&'static str] {
        &["ring", "bridge", "fork"]
    }

    /// On the fast engine of [`super::playout`].
    fn random_games(
        &self,
        games: u64,
        rng: &mut crate::rng::Rng,
        each: &mut dyn FnMut(crate::game::RandomGame),
    ) {
        if self.swap || self.handicap > 0 {
            return crate::game::random_games_by_rules(self, games, rng, each);
        }
        let mut playouts = super::playout::Playouts::new(self);
        for _ in 0..games {
            let e = playouts.play(rng);
            each(crate::game::RandomGame {
                winner: e.winner,
                plies: e.plies,
                structures: e.structures.bits(),
            });
        }
    }

    /// On the fast engine, from the position (the swap rule and a handicap only matter before
    /// a tree search starts: with them, through the rules).
    fn random_finish(&self, pos: &Position, rng: &mut crate::rng::Rng) -> Option<Side> {
        if pos.result != 0 {
            return self.outcome(pos).and_then(|o| o.winner);
        }
        if self.swap_allowed(pos) || (self.handicap > 0 && pos.stones[1].is_empty()) {
            let mut cur = *pos;
            let mut moves = Vec::new();
            while self.outcome(&cur).is_none() {
                moves.clear();
                self.legal_moves(&cur, &mut moves);
                let mv = moves[crate::rng::uniform_below(rng, moves.len() as u32) as usize];
                cur = self.play(&cur, mv);
            }
            return self.outcome(&cur).and_then(|o| o.winner);
        }
        super::playout::Playouts::new(self)
            .play_from(pos, rng)
            .winner
    }

    fn structures(&self, pos: &Position) -> Vec<&'static str> {
        pos.structures.names()
    }

    /// Only base 2 (7 cells) is small enough to list every position.
    fn small_enough_to_enumerate(&self) -> bool {
        self.base.get() <= 2
    }

    /// Rows from `a` down, `/` between them, each cell from its lowest column: `W` White, `B`
    /// Black, `.` empty. Base 2: `W./.B./..`.
    fn format_position(&self, pos: &Position) -> String {
        let rows = 2 * self.base.get() as usize - 1;
        (0..rows)
            .map(|y| {
                self.row_columns(y)
                    .map(|x| {
                        let i = y * self.stride + x;
                        if pos.stones[0].has(i) {
                            'W'
                        } else if pos.stones[1].has(i) {
                            'B'
                        } else {
                            '.'
                        }
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }

    fn parse_position(&self, text: &str, to_move: Side) -> Result<Position, GameError> {
        let bad = |why: String| GameError::BadPosition {
            text: text.to_string(),
            why,
        };
        let rows: Vec<&str> = text.trim().split('/').collect();
        let want = 2 * self.base.get() as usize - 1;
        if rows.len() != want {
            return Err(bad(format!(
                "{} rows, base {} has {want}",
                rows.len(),
                self.base
            )));
        }
        let mut pos = self.start();
        for (y, row) in rows.iter().enumerate() {
            let cols = self.row_columns(y);
            let chars: Vec<char> = row.chars().collect();
            if chars.len() != cols.clone().count() {
                return Err(bad(format!(
                    "row {} has {} cells, expected {}",
                    (b'a' + y as u8) as char,
                    chars.len(),
                    cols.count()
                )));
            }
            for (x, ch) in cols.zip(chars) {
                let i = y * self.stride + x;
                match ch.to_ascii_uppercase() {
                    'W' => pos.stones[0].set(i),
                    'B' => pos.stones[1].set(i),
                    '.' => {}
                    other => {
                        return Err(bad(format!(
                            "`{}` is not a cell (W, B or .)",
                            other.escape_default()
                        )));
                    }
                }
            }
        }
        pos.to_move = to_move;
        let (w, b) = (pos.stones[0].count() as i64, pos.stones[1].count() as i64);
        let k = i64::from(self.handicap.max(1));
        let possible = match to_move {
            // White moves on at w − b = K − 1 (or during its handicap, before Black's first
            // stone), or after a swap at w − b = −1.
            Side::First => w - b == k - 1 || (b == 0 && w < k) || (self.swap && w - b == -1),
            // Black moves at w − b = K, or after a swap at w = b.
            Side::Second => w - b == k || (self.swap && w == b && b > 0),
        };
        if !possible {
            return Err(bad(format!(
                "{w} white and {b} black stones do not leave {} to move",
                self.side_name(to_move)
            )));
        }
        // A finished game: whoever has a structure won with the last stone.
        for side in [Side::First, Side::Second] {
            let own = pos.stones[side as usize];
            let mut found = Structures::default();
            for c in own.iter() {
                found.0 |= self.completed(own, Cell(c as u16)).0;
            }
            if !found.is_empty() {
                pos.result = 1 + side as u8;
                pos.structures = found;
            }
        }
        if pos.result == 0 && (w + b) as usize == self.cells.len() {
            pos.result = 3;
        }
        Ok(pos)
    }

    /// Up to base 3 the grid (row stride 2n, 2n − 1 rows) fits in 30 bits: each side's stones in
    /// 30 bits of the word, the side to move above them. Base 4's 37 cells, each empty, White or
    /// Black, count in base three below 3³⁷ (under 2⁵⁹), the side to move in the lowest bit.
    fn pack(&self, pos: &Position) -> Option<u64> {
        let [white, black] = pos.stones.map(|b| b.0[0]);
        let to_move = pos.to_move as u64;
        match self.base.get() {
            2 | 3 => Some(white | black << 30 | to_move << 60),
            4 => {
                let digits = self.cells.iter().rev().fold(0u64, |acc, c| {
                    let i = c.index();
                    acc * 3 + (white >> i & 1) + 2 * (black >> i & 1)
                });
                Some(digits << 1 | to_move)
            }
            _ => None,
        }
    }

    fn unpack(&self, key: u64) -> Option<Position> {
        let board = self.shape.board.0[0];
        let (white, black, to_move) = match self.base.get() {
            2 | 3 => (key & board, key >> 30 & board, key >> 60),
            4 => {
                let (mut digits, mut white, mut black) = (key >> 1, 0u64, 0u64);
                for c in &self.cells {
                    match digits % 3 {
                        1 => white |= 1 << c.index(),
                        2 => black |= 1 << c.index(),
                        _ => {}
                    }
                    digits /= 3;
                }
                if digits != 0 {
                    return None;
                }
                (white, black, key & 1)
            }
            _ => return None,
        };
        if white & black != 0 {
            return None;
        }
        let mut stones = [Bits::default(); 2];
        stones[0].0[0] = white;
        stones[1].0[0] = black;
        let side = if to_move == 1 {
            Side::Second
        } else {
            Side::First
        };
        let pos = Position::in_play(stones, side);
        // Only a word this board packs (no stray bits) stands for a position.
        (self.pack(&pos) == Some(key)).then_some(pos)
    }

    fn move_cell(&self, mv: Move) -> Option<usize> {
        // Cells numbered in board order, so a base-2 board uses seven colours.
        (!mv.is_swap())
            .then(|| self.cells().iter().position(|&c| c == mv))
            .flatten()
    }

    fn format_move(&self, mv: Move) -> String {
        if mv.is_swap() {
            return "swap".into();
        }
        self.cell_name(mv)
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, GameError> {
        if text.trim().eq_ignore_ascii_case("swap") {
            return crate::game::find_legal(self, pos, text.trim(), |m| m.is_swap());
        }
        let cell = self
            .parse_cell(text)
            .ok_or_else(|| GameError::BadMoveSyntax {
                text: text.to_string(),
                example: "a1, d4 or swap",
            })?;
        crate::game::find_legal(self, pos, text.trim(), |m| m == cell)
    }

    /// The board as a hexagon: row letters on the left, each row's first column number on the
    /// right.
    fn diagram(&self, pos: &Position) -> Vec<String> {
        let n = self.base.get() as usize;
        (0..2 * n - 1)
            .map(|y| {
                let cols = self.row_columns(y);
                let first = *cols.start();
                let indent = 2 * first + n - 1 - y;
                let cells: Vec<String> = cols
                    .map(|x| {
                        let i = y * self.stride + x;
                        if pos.stones[0].has(i) {
                            "W".into()
                        } else if pos.stones[1].has(i) {
                            "B".into()
                        } else {
                            "·".into()
                        }
                    })
                    .collect();
                format!(
                    "{} {}{}   {}{}",
                    (b'a' + y as u8) as char,
                    " ".repeat(indent),
                    cells.join(" "),
                    (b'a' + y as u8) as char,
                    first + 1
                )
            })
            .collect()
    }
}
