//! The structures a stone completes, remembered, on boards small enough to remember them all
//! (bases 2 and 3: a byte for each set of the mover's stones and each cell they hold, 10 MB on
//! base 3, filled as the answers are first needed). The perfect player's solver asks the same
//! question of the same stones millions of times; after the first, a lookup answers it.

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, OnceLock};

/// The most cells a remembered board has (base 3), so a set of stones is an index below 2^19.
const MAX_CELLS: usize = 19;
/// Grid words of up to four bytes (base 3's grid has 30 cells).
const BYTES: usize = 4;
/// An entry's mark that it holds an answer (an entry of 0 does not yet).
const KNOWN: u8 = 0x80;
/// The ordinal of a grid index that is not a cell of the board.
const NOT_A_CELL: u8 = u8::MAX;

/// The answers, shared by the clones of a game.
#[derive(Clone)]
pub(super) struct Completions(Arc<Inner>);

struct Inner {
    /// For byte `k` of a grid word and its value `v`, the same stones as bits in reading order.
    compact: [[u32; 256]; BYTES],
    /// Each grid cell's place in reading order ([`NOT_A_CELL`] off the board).
    ordinal: [u8; 8 * BYTES],
    /// The board's cells as a grid word.
    board: u64,
    cells: usize,
    /// Entry `others × cells + ordinal`, where `others` are the mover's stones but the one at
    /// the cell, made on first need (zero: no answer yet).
    answers: OnceLock<Box<[AtomicU8]>>,
}

impl std::fmt::Debug for Completions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Not the answers themselves: millions of bytes.
        let made = self.0.answers.get().is_some();
        write!(f, "Completions({} cells, made: {made})", self.0.cells)
    }
}

impl Completions {
    /// The store for a board whose cells have the grid indices `cells` (in reading order), if
    /// it is small enough to remember.
    pub(super) fn new(cells: &[usize]) -> Option<Completions> {
        if cells.len() > MAX_CELLS || cells.iter().any(|&i| i >= 8 * BYTES) {
            return None;
        }
        let mut compact = [[0u32; 256]; BYTES];
        let mut ordinal = [NOT_A_CELL; 8 * BYTES];
        let mut board = 0u64;
        for (k, &i) in cells.iter().enumerate() {
            ordinal[i] = k as u8;
            board |= 1 << i;
            for (v, bits) in compact[i / 8].iter_mut().enumerate() {
                if v >> (i % 8) & 1 == 1 {
                    *bits |= 1 << k;
                }
            }
        }
        Some(Completions(Arc::new(Inner {
            compact,
            ordinal,
            board,
            cells: cells.len(),
            answers: OnceLock::new(),
        })))
    }

    /// The entry for the mover's stones `own` (a grid word) and the stone at `at`; `None` where
    /// `at` is not a cell of the board or `own` holds more than its cells.
    pub(super) fn entry(&self, own: u64, at: usize) -> Option<&AtomicU8> {
        let ordinal = self.ordinal(at)?;
        // The row of the other stones: the questions of one look at a position (a stone on each
        // empty cell in turn) fall in one row, a cache line or two.
        self.row(own & !(1 << at))?.get(ordinal)
    }

    /// The row of answers for the mover's stones `own` (a grid word), indexed by a cell's
    /// [`Completions::ordinal`]: one computation of the row for every empty cell asked about;
    /// `None` where `own` holds more than the board's cells.
    pub(super) fn row(&self, own: u64) -> Option<&[AtomicU8]> {
        let t = &self.0;
        if own & !t.board != 0 {
            return None;
        }
        let stones = (0..BYTES).fold(0usize, |s, k| {
            s | t.compact[k][(own >> (8 * k)) as usize & 0xFF] as usize
        });
        let answers = t.answers.get_or_init(|| {
            (0..(1usize << t.cells) * t.cells)
                .map(|_| AtomicU8::new(0))
                .collect()
        });
        answers.get(stones * t.cells..(stones + 1) * t.cells)
    }

    /// The place of grid cell `at` in a row ([`Completions::row`]); `None` off the board.
    #[inline]
    pub(super) fn ordinal(&self, at: usize) -> Option<usize> {
        let o = *self.0.ordinal.get(at)?;
        (o != NOT_A_CELL).then_some(o as usize)
    }

    /// The answer held in `entry`, or found by `find` and kept there.
    #[inline]
    pub(super) fn answer(entry: &AtomicU8, find: impl FnOnce() -> u8) -> u8 {
        let known = entry.load(Ordering::Relaxed);
        if known & KNOWN != 0 {
            return known & !KNOWN;
        }
        let found = find();
        debug_assert!(found & KNOWN == 0);
        entry.store(found | KNOWN, Ordering::Relaxed);
        found
    }

    /// What a stone at `at` completes with the mover's stones `own` (the structures' bits, below
    /// [`KNOWN`]): remembered, or found by `find` and remembered. (Threads that ask at once may
    /// both find it: the same answer.)
    pub(super) fn get(&self, own: u64, at: usize, find: impl FnOnce() -> u8) -> u8 {
        match self.entry(own, at) {
            Some(entry) => Self::answer(entry, find),
            None => find(),
        }
    }
}
