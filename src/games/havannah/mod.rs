//! Havannah on hexagonal boards of base 2 to 10. Everything about the game is in this folder: its
//! rules (`rules.rs`), the defaults matchbox uses for its learners (here), its board on the
//! screen (`screen.rs`) and on a printed label (`label.rs`).

mod cells;
mod count;
mod game;
mod label;
mod memo;
pub mod playout;
mod rules;
mod screen;
pub mod solve;
mod variant;

pub use count::{count_boxes, count_boxes_to};
pub use rules::*;

use crate::game::Side;
use crate::learn::{BoxCounts, Forced, GameDefaults, Preset, SymmetryMode};
use crate::solve::{TieBreak, Values};

impl GameDefaults for Havannah {
    /// White: the first player wins under perfect play on bases 2 to 4; with the swap rule,
    /// Black (the second player then wins).
    fn default_side(&self) -> Side {
        if self.variant_rules().swap {
            Side::Second
        } else {
            Side::First
        }
    }
    fn default_symmetry(&self, _side: Side) -> SymmetryMode {
        SymmetryMode::Full
    }
    /// Gardner's: 1 bead an arrow, punish the last move of a lost game. Chosen by experiment:
    /// on base 2 against the perfect player it stops losing soonest and never empties its first
    /// box (README, "Havannah learners").
    fn default_preset(&self) -> Preset {
        Preset::Gardner
    }
    /// As in MENACE, the last empty cell is filled without a box.
    fn default_forced(&self) -> Forced {
        Forced::Skip
    }
    fn symmetry_modes(&self) -> &'static [SymmetryMode] {
        &[SymmetryMode::Full, SymmetryMode::None]
    }
    fn size_key(&self) -> Option<String> {
        Some(self.variant_rules().to_string())
    }
    fn nickname(&self, _side: Side, _mode: SymmetryMode) -> Option<&'static str> {
        None
    }
    /// Bases 2 and 3 (up to 19 cells): the win/draw/loss solver of `solve.rs`.
    fn has_own_solver(&self) -> bool {
        self.base().get() <= 3
    }
    fn own_solver(&self, tie_break: TieBreak) -> Option<Box<dyn Values<Self> + Sync>> {
        if !self.has_own_solver() {
            return None;
        }
        match tie_break {
            TieBreak::Random => solve::HavannahSolver::new(self, 200_000_000),
            TieBreak::Fastest => solve::HavannahSolver::with_distances(self, 200_000_000),
        }
        .ok()
        .map(|s| Box::new(s) as Box<dyn Values<Self> + Sync>)
    }
    /// Base 3 (and 2) with full symmetry: counted level by level in `count.rs`.
    fn own_count(
        &self,
        side: Side,
        mode: SymmetryMode,
        forced: Forced,
        progress: &(dyn Fn(u16) + Sync),
    ) -> Option<BoxCounts> {
        if mode != SymmetryMode::Full {
            return None;
        }
        count_boxes(self, side, forced, progress)
    }
}
