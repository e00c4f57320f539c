//! Random games of Havannah, fast: one union-find array over the cells, each group's root holding
//! a bit mask of the corners and of the sides it touches (so a bridge or a fork is one test per
//! move), and the ring test run only when the new stone joins two neighbours of one group that are
//! not next to each other (no ring can close otherwise). No allocation per game.

use super::{Bits, Cell, Havannah, Structures};
use crate::game::Side;
use crate::rng::{Rng, uniform_below};

/// How a random game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    pub winner: Option<Side>,
    pub plies: u32,
    pub structures: Structures,
}

/// Reusable state for random games on one board.
pub struct Playouts<'a> {
    game: &'a Havannah,
    /// Union-find parent of each grid cell (meaningful for stones only).
    parent: Vec<u16>,
    /// At a root: the corners (bits 0–5) and sides (bits 8–13) its group touches.
    reach: Vec<u16>,
    /// Corner and side bits of each grid cell.
    own_reach: &'a [u16],
    order: Vec<Cell>,
    neighbours: &'a [[u16; 6]],
    /// 0 empty, 1 White, 2 Black, for each grid cell.
    colour: Vec<u8>,
    /// At a root: the cells of its group (for the ring test, which needs the group's shape).
    group: Vec<Bits>,
}

/// No neighbour, or no root.
const NONE: u16 = u16::MAX;

impl<'a> Playouts<'a> {
    pub fn new(game: &'a Havannah) -> Self {
        // The board's own tables are borrowed: a tree search makes an engine for every rollout.
        let grid = game.neighbour_table().len();
        Playouts {
            game,
            parent: vec![0; grid],
            reach: vec![0; grid],
            own_reach: game.reach_table(),
            order: game.cells().to_vec(),
            neighbours: game.neighbour_table(),
            colour: vec![0; grid],
            group: vec![Bits::default(); grid],
        }
    }

    #[inline]
    fn find(&mut self, mut i: u16) -> u16 {
        while self.parent[i as usize] != i {
            let p = self.parent[i as usize];
            self.parent[i as usize] = self.parent[p as usize];
            i = p;
        }
        i
    }

    /// One uniformly random game from the empty board: every move uniform over the empty cells.
    pub fn play(&mut self, rng: &mut Rng) -> Ending {
        for c in &self.order {
            self.colour[c.index()] = 0;
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
            self.colour[c.index()] = colour;
            if colour == 0 {
                empty.push(c);
            } else {
                stones.push(c);
            }
        }
        for &c in &stones {
            let at = c.index() as u16;
            self.parent[at as usize] = at;
            self.reach[at as usize] = self.own_reach[at as usize];
            self.group[at as usize] = Bits::single(at as usize);
        }
        for &c in &stones {
            let at = c.index() as u16;
            for nb in self.neighbours[at as usize] {
                if nb != NONE && self.colour[nb as usize] == self.colour[at as usize] {
                    let (a, b) = (self.find(at), self.find(nb));
                    if a != b {
                        self.reach[a as usize] |= self.reach[b as usize];
                        self.group[a as usize] = self.group[a as usize].or(self.group[b as usize]);
                        self.parent[b as usize] = a;
                    }
                }
            }
        }
        let placed = stones.len();
        self.order.clear();
        self.order.extend(stones);
        self.order.extend(empty);
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
        // A random order of the empty cells, drawn as the game goes (Fisher–Yates).
        let cells = self.order.len();
        let mut side = first;
        for ply in from..cells {
            let pick = ply + uniform_below(rng, (cells - ply) as u32) as usize;
            self.order.swap(ply, pick);
            let at = self.order[ply].index() as u16;
            let me = side as u8 + 1;
            self.colour[at as usize] = me;
            self.parent[at as usize] = at;
            let mut reach = self.own_reach[at as usize];
            let mut group = Bits::single(at as usize);
            // Roots of the own neighbours before joining them, by turning position.
            let mut roots = [NONE; 6];
            let mut own = 0;
            let nbs = self.neighbours[at as usize];
            for (k, &nb) in nbs.iter().enumerate() {
                if nb != NONE && self.colour[nb as usize] == me {
                    roots[k] = self.find(nb);
                    own += 1;
                }
            }
            // Two neighbours not next to each other (two or three apart around the cell) already
            // in one group: the stone closes a cycle, which may enclose the neighbours between
            // them (on either side). Those are the only cells a new ring can enclose.
            let mut candidates = 0u8;
            if own >= 2 {
                for k in 0..6 {
                    let r = roots[k];
                    if r == NONE {
                        continue;
                    }
                    for d in [2, 3] {
                        if roots[(k + d) % 6] == r {
                            candidates |= between(k, k + d) | between(k + d, k + 6);
                        }
                    }
                }
            }
            for r in roots {
                // Each group joins once: its root then points at the new stone.
                if r != NONE && self.parent[r as usize] == r {
                    reach |= self.reach[r as usize];
                    group = group.or(self.group[r as usize]);
                    self.parent[r as usize] = at;
                }
            }
            self.reach[at as usize] = reach;
            self.group[at as usize] = group;
            let mut found = Structures::default();
            if (reach & 0x3f).count_ones() >= 2 {
                found = found | Structures::BRIDGE;
            }
            if (reach >> 8).count_ones() >= 3 {
                found = found | Structures::FORK;
            }
            if candidates != 0 && self.ring_at(at, group, candidates) {
                found = found | Structures::RING;
            }
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

    /// The moves of the last game, in order (its first `plies`).
    pub fn moves(&self, plies: u32) -> &[Cell] {
        &self.order[..plies as usize]
    }

    /// Whether `group`, the group of the stone at `at`, encloses one of its neighbours marked in
    /// `candidates` (bit k: the k-th neighbour in turning order).
    fn ring_at(&self, at: u16, group: Bits, candidates: u8) -> bool {
        let g = self.game;
        let open = g.board_bits().and_not(group);
        self.neighbours[at as usize]
            .iter()
            .enumerate()
            .filter(|&(k, &i)| candidates >> k & 1 == 1 && i != NONE)
            .any(|(_, &i)| g.enclosed(i as usize, open))
    }
}

/// The turning positions strictly between `from` and `to` (`from < to`, taken mod 6), as bits.
#[inline]
fn between(from: usize, to: usize) -> u8 {
    let mut bits = 0u8;
    for k in from + 1..to {
        bits |= 1 << (k % 6);
    }
    bits
}
