//! Random games of Havannah, fast: one union-find array over the cells, each group's root holding
//! a bit mask of the corners and of the sides it touches (so a bridge or a fork is one test per
//! move), and a ring test in constant time around the new stone (`../shared` has the argument):
//! a ring closes exactly when two separate runs of own stones around it were already one group,
//! or when an own neighbour of it now has six own neighbours. The neighbour table has a guard cell
//! for "off the board", the own neighbours are a 6-bit mask whose runs come from a table, so a
//! move makes at most three finds. No allocation per game.

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
    /// The cells holding stones after the last game: the first `played` of `order`.
    played: usize,
    /// 0 empty, 1 White, 2 Black, for each grid cell.
    colour: [u8; GRID_MAX],
    /// For a stone: how many of its neighbours hold stones of its colour (six: it is enclosed).
    like: [u8; GRID_MAX],
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
            played: 0,
            colour: [0; GRID_MAX],
            like: [0; GRID_MAX],
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
        // Only the cells the last game played hold stones.
        for k in 0..self.played {
            self.colour[ix(self.order[k].0)] = 0;
        }
        self.run(rng, 0, 0)
    }

    /// One game finished with uniformly random moves from `pos` (a position not over). The
    /// ending's `plies` counts the moves played here.
    pub fn play_from(&mut self, pos: &super::Position, rng: &mut Rng) -> Ending {
        let g = self.game;
        // Stones first in the order, empty cells after; groups built from the stones.
        let cells: Vec<Cell> = g.cells().to_vec();
        let (mut stones, mut empty): (Vec<Cell>, Vec<Cell>) = (Vec::new(), Vec::new());
        for c in cells {
            let colour = if pos.stones(Side::First).has(c.index()) {
                1
            } else if pos.stones(Side::Second).has(c.index()) {
                2
            } else {
                0
            };
            self.colour[ix(c.0)] = colour;
            if colour == 0 {
                empty.push(c);
            } else {
                stones.push(c);
            }
        }
        for &c in &stones {
            self.parent[ix(c.0)] = c.0;
            self.reach[ix(c.0)] = self.tables.reach[ix(c.0)];
        }
        for &c in &stones {
            let at = c.0;
            let mine = self.colour[ix(at)];
            let mut like = 0;
            for nb in self.tables.neighbours[ix(at)] {
                if self.colour[ix(nb)] == mine {
                    like += 1;
                    let (a, b) = (self.find(at), self.find(nb));
                    if a != b {
                        self.reach[ix(a)] |= self.reach[ix(b)];
                        self.parent[ix(b)] = a;
                    }
                }
            }
            self.like[ix(at)] = like;
        }
        let placed = stones.len();
        for (k, c) in stones.into_iter().chain(empty).enumerate() {
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
        self.played = ending.plies as usize;
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
            let at = b.0;
            let me = side as u8 + 1;
            let found = self.place(at, me);
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

    /// Places a stone of colour `me` at `at`: joins it to its own neighbours' groups and says
    /// which structures it completes.
    #[inline]
    fn place(&mut self, at: u16, me: u8) -> Structures {
        let nbs = self.tables.neighbours[ix(at)];
        self.colour[ix(at)] = me;
        self.parent[ix(at)] = at;
        let mut mask = 0usize;
        let mut enclosed = false;
        for (k, &nb) in nbs.iter().enumerate() {
            if self.colour[ix(nb)] == me {
                mask |= 1 << k;
                // An own neighbour with six own neighbours is enclosed: a ring.
                let like = &mut self.like[ix(nb)];
                *like += 1;
                enclosed |= *like == 6;
            }
        }
        self.like[ix(at)] = mask.count_ones() as u8;
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
