//! Random games of Havannah, fast: one union-find array over the cells, each group's root holding
//! a bit mask of the corners and of the sides it touches (so a bridge or a fork is one test per
//! move), and a ring test in constant time around the new stone (`../shared` has the argument):
//! a ring closes exactly when two separate runs of own stones around it were already one group,
//! or when an own neighbour of it now has six own neighbours. The neighbour table has a guard cell
//! for "off the board"; every cell keeps the directions of its White and of its Black neighbours
//! as bits, set by each stone for its six neighbours with no test of colour, so a new stone's own
//! neighbours are one load and no branch asks "is this neighbour mine?" (those branches missed
//! about twice a move). Their runs come from a table, so a move makes at most three finds. No
//! allocation per game.

use super::rules::{GRID_MAX, Guarded};
use super::{Cell, Havannah, Structures};
use crate::game::Side;
use crate::rng::{Rng, uniform_below};

/// How a random game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    pub winner: Option<Side>,
    pub plies: u32,
    pub structures: Structures,
}

/// Reusable state for random games on one board: fixed tables over the grid, indexed by a cell
/// masked to their size (no bounds checks, no allocation).
pub struct Playouts<'a> {
    game: &'a Havannah,
    /// Union-find parent of each grid cell (meaningful for stones only).
    parent: [u16; GRID_MAX],
    /// At a root: the corners (bits 0–5) and sides (bits 8–13) its group touches.
    reach: [u16; GRID_MAX],
    /// Each grid cell's six neighbours (the guard cell, never a stone, off the board), and its
    /// own corner and side bits.
    tables: &'a Guarded,
    /// The board's cells: the moves played, in order, then the cells still empty.
    order: [Cell; GRID_MAX],
    cells: usize,
    /// The cells of the grid (the board's and the guard columns).
    grid: usize,
    /// For each grid cell, which of its six neighbours hold White's stones (bits 0–5, in turning
    /// order) and Black's (bits 8–13): set as each stone is placed, with no test of colour, so
    /// a new stone's own neighbours are one load.
    around: [u16; GRID_MAX],
}

/// A grid cell's index into the tables.
#[inline(always)]
fn ix(i: u16) -> usize {
    i as usize & (GRID_MAX - 1)
}

/// The runs of set bits of a 6-bit mask taken round in a circle: how many, and the first bit of
/// each (at most three).
const RUNS: [(u8, [u8; 3]); 64] = {
    let mut t = [(0u8, [0u8; 3]); 64];
    let mut m = 0;
    while m < 64 {
        if m == 63 {
            t[m] = (1, [0, 0, 0]);
        } else {
            let (mut k, mut n, mut first) = (0, 0, [0u8; 3]);
            while k < 6 {
                if (m >> k) & 1 == 1 && (m >> ((k + 5) % 6)) & 1 == 0 {
                    first[n] = k as u8;
                    n += 1;
                }
                k += 1;
            }
            t[m] = (n as u8, first);
        }
        m += 1;
    }
    t
};

/// For each direction of turning order, the bit that direction's neighbour sets for the stone
/// it sees in the opposite direction.
const FACING: [u16; 6] = [1 << 3, 1 << 4, 1 << 5, 1, 1 << 1, 1 << 2];

/// For a 6-bit mask of a new stone's own neighbours, the directions `k` whose neighbour has
/// the neighbours `k − 1` and `k + 1` of the new stone as its own too: only such a neighbour can
/// have been enclosed by it (the two are its common neighbours with the new stone).
const ENCLOSABLE: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut m = 0;
    while m < 64 {
        let mut k = 0;
        while k < 6 {
            let need = (1 << k) | (1 << ((k + 1) % 6)) | (1 << ((k + 5) % 6));
            if m & need == need {
                t[m] |= 1 << k;
            }
            k += 1;
        }
        m += 1;
    }
    t
};

/// No neighbour, or no root.
const NONE: u16 = u16::MAX;

impl<'a> Playouts<'a> {
    pub fn new(game: &'a Havannah) -> Self {
        // The board's own tables are borrowed: a tree search makes an engine for every rollout.
        let mut order = [Cell(0); GRID_MAX];
        let cells = game.cells();
        order[..cells.len()].copy_from_slice(cells);
        Playouts {
            game,
            parent: [0; GRID_MAX],
            reach: [0; GRID_MAX],
            tables: game.guarded(),
            order,
            cells: cells.len(),
            grid: game.neighbours.len().min(GRID_MAX),
            around: [0; GRID_MAX],
        }
    }

    #[inline]
    fn find(&mut self, mut i: u16) -> u16 {
        while self.parent[ix(i)] != i {
            let p = self.parent[ix(i)];
            self.parent[ix(i)] = self.parent[ix(p)];
            i = p;
        }
        i
    }

    /// One uniformly random game from the empty board: every move uniform over the empty cells.
    pub fn play(&mut self, rng: &mut Rng) -> Ending {
        self.around[..self.grid].fill(0);
        self.run(rng, 0, 0)
    }

    /// One game finished with uniformly random moves from `pos` (a position not over). The
    /// ending's `plies` counts the moves played here.
    pub fn play_from(&mut self, pos: &super::Position, rng: &mut Rng) -> Ending {
        let g = self.game;
        // Stones first in the order, empty cells after; groups built from the stones.
        let (mut stones, mut empty): (Vec<(Cell, usize)>, Vec<Cell>) = (Vec::new(), Vec::new());
        for &c in g.cells() {
            if pos.stones(Side::First).has(c.index()) {
                stones.push((c, 0));
            } else if pos.stones(Side::Second).has(c.index()) {
                stones.push((c, 8));
            } else {
                empty.push(c);
            }
        }
        self.around[..self.grid].fill(0);
        for &(c, shift) in &stones {
            self.parent[ix(c.0)] = c.0;
            self.reach[ix(c.0)] = self.tables.reach[ix(c.0)];
            for (k, &nb) in self.tables.neighbours[ix(c.0)].iter().enumerate() {
                self.around[ix(nb)] |= FACING[k] << shift;
            }
        }
        for &(c, shift) in &stones {
            let at = c.0;
            let mine = (self.around[ix(at)] >> shift) & 63;
            for (k, &nb) in self.tables.neighbours[ix(at)].iter().enumerate() {
                if mine & (1 << k) != 0 {
                    let (a, b) = (self.find(at), self.find(nb));
                    if a != b {
                        self.reach[ix(a)] |= self.reach[ix(b)];
                        self.parent[ix(b)] = a;
                    }
                }
            }
        }
        let placed = stones.len();
        for (k, c) in stones.into_iter().map(|(c, _)| c).chain(empty).enumerate() {
            self.order[k] = c;
        }
        let side = if pos.to_move_side() == Side::First {
            0
        } else {
            1
        };
        let mut ending = self.run(rng, placed, side);
        ending.plies -= placed as u32;
        ending
    }

    /// Plays random moves into `order[from..]`, `side` (0 White, 1 Black) first.
    fn run(&mut self, rng: &mut Rng, from: usize, first: usize) -> Ending {
        // The generator in a local for the whole game, written back at the end.
        let mut r = rng.clone();
        let ending = self.run_with(&mut r, from, first);
        *rng = r;
        ending
    }

    fn run_with(&mut self, rng: &mut Rng, from: usize, first: usize) -> Ending {
        // A random order of the empty cells, drawn as the game goes (Fisher–Yates).
        let cells = self.cells;
        let mut side = first;
        for ply in from..cells {
            let pick = ply + uniform_below(rng, (cells - ply) as u32) as usize;
            let (a, b) = (self.order[ix(ply as u16)], self.order[ix(pick as u16)]);
            self.order[ix(pick as u16)] = a;
            self.order[ix(ply as u16)] = b;
            let found = self.place(b.0, side);
            if !found.is_empty() {
                return Ending {
                    winner: Some(if side == 0 { Side::First } else { Side::Second }),
                    plies: ply as u32 + 1,
                    structures: found,
                };
            }
            side ^= 1;
        }
        Ending {
            winner: None,
            plies: cells as u32,
            structures: Structures::default(),
        }
    }

    /// Places a stone of `side` (0 White, 1 Black) at `at`: joins it to its own neighbours'
    /// groups and says which structures it completes.
    #[inline]
    fn place(&mut self, at: u16, side: usize) -> Structures {
        let nbs = self.tables.neighbours[ix(at)];
        let shift = 8 * side as u32;
        for (k, &nb) in nbs.iter().enumerate() {
            self.around[ix(nb)] |= FACING[k] << shift;
        }
        let mask = usize::from((self.around[ix(at)] >> shift) & 63);
        self.parent[ix(at)] = at;
        // An own neighbour with six own neighbours is enclosed: a ring.
        let mut enclosed = false;
        let mut candidates = ENCLOSABLE[mask];
        while candidates != 0 {
            let k = candidates.trailing_zeros() as usize;
            enclosed |= (self.around[ix(nbs[k % 6])] >> shift) & 63 == 63;
            candidates &= candidates - 1;
        }
        // One find a run of own neighbours (a run's stones are one group already).
        let (runs, firsts) = RUNS[mask & 63];
        let mut roots = [NONE; 3];
        for i in 0..runs as usize {
            roots[i] = self.find(nbs[firsts[i] as usize % 6]);
        }
        // Two runs of one group close a cycle through the new stone around a cell not its own.
        let ring = enclosed
            || (runs >= 2 && roots[0] == roots[1])
            || (runs == 3 && (roots[0] == roots[2] || roots[1] == roots[2]));
        let mut reach = self.tables.reach[ix(at)];
        for r in roots.into_iter().take(runs as usize) {
            // Each group joins once: its root then points at the new stone.
            if self.parent[ix(r)] == r {
                reach |= self.reach[ix(r)];
                self.parent[ix(r)] = at;
            }
        }
        self.reach[ix(at)] = reach;
        let mut found = Structures::default();
        if (reach & 0x3f).count_ones() >= 2 {
            found = found | Structures::BRIDGE;
        }
        if (reach >> 8).count_ones() >= 3 {
            found = found | Structures::FORK;
        }
        if ring {
            found = found | Structures::RING;
        }
        found
    }

    /// The moves of the last game, in order (its first `plies`).
    pub fn moves(&self, plies: u32) -> &[Cell] {
        &self.order[..(plies as usize).min(self.cells)]
    }
}
