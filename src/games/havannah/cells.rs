//! Sets of cells: bitboards over the grid with a guard column (`Bits`), or one word for small
//! boards, and the images of a word under the board's symmetries.

/// No neighbour (off the board).
pub(super) const NONE: u16 = u16::MAX;

/// 64-bit words in a board: base 10 takes 19 rows of 20 bits.
pub(super) const WORDS: usize = 6;

/// A set of grid cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bits(pub(super) [u64; WORDS]);

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
    pub(super) fn and(self, o: Bits) -> Bits {
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
    pub(super) fn same(self, o: Bits) -> bool {
        let mut diff = 0;
        for k in 0..WORDS {
            diff |= self.0[k] ^ o.0[k];
        }
        diff == 0
    }
    #[inline]
    pub(super) fn intersects(self, o: Bits) -> bool {
        (0..WORDS).any(|k| self.0[k] & o.0[k] != 0)
    }
    /// Bits moved up by `s` (towards higher indexes), 0 < s < 64.
    #[inline]
    pub(super) fn up(self, s: u32) -> Bits {
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
    pub(super) fn down(self, s: u32) -> Bits {
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
    pub(super) board: B,
    pub(super) edge: B,
    pub(super) corners: [B; 6],
    pub(super) sides: [B; 6],
}

impl Shape<Bits> {
    /// The same shape in one word, if the grid fits in 64 bits.
    pub(super) fn word(&self) -> Option<Shape<u64>> {
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
pub(super) enum WordImages {
    /// 32-bit entries, four bytes a word, where the grid fits (bases 2 and 3): half the cache.
    Narrow(Vec<[u32; 256]>),
    /// 64-bit entries, `bytes` bytes a word (base 4).
    Wide {
        bytes: usize,
        table: Vec<[u64; 256]>,
    },
}

impl WordImages {
    pub(super) fn new(images: &[Vec<u16>], grid: usize) -> WordImages {
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
    pub(super) fn image(&self, s: usize, w: u64) -> u64 {
        match self {
            WordImages::Narrow(table) => narrow_image(&table[s * 4..(s + 1) * 4], w),
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

/// The image of the cells `w` (a narrow board's word) from a symmetry's four rows of a
/// [`WordImages::Narrow`] table.
#[inline]
pub(super) fn narrow_image(rows: &[[u32; 256]], w: u64) -> u64 {
    u64::from(
        rows[0][w as usize & 0xff]
            | rows[1][(w >> 8) as usize & 0xff]
            | rows[2][(w >> 16) as usize & 0xff]
            | rows[3][(w >> 24) as usize & 0xff],
    )
}
