//! Arimaa (Omar Syed, 2002): the full game's rules on a parametrised board, and mini-Arimaa, a
//! 4×4 variant small enough for matchboxes. Everything about the game is in this folder: its rules
//! (`rules.rs`), the mini game as a learner's game with its defaults (`mini.rs`), its board on the
//! screen and on a label.

mod label;
pub mod mini;
pub mod record;
pub mod rules;
mod screen;

pub use mini::{MiniArimaa, TURN_LIMIT};
pub use record::{GameLine, check_move_number, parse_side, side_name, split_numbered, split_turns};
pub use rules::*;

use std::sync::Arc;

use crate::game::Side;
use crate::game::graph::GameGraph;
use crate::learn::{Forced, GameDefaults, Preset, SymmetryMode};
use crate::solve::{GraphValues, Solution, TieBreak, Values};

impl GameDefaults for MiniArimaa {
    /// Gold: the first player wins under perfect play (README, "Mini-Arimaa").
    fn default_side(&self) -> Side {
        Side::First
    }
    /// No symmetry: the traps break the mirror.
    fn default_symmetry(&self, _side: Side) -> SymmetryMode {
        SymmetryMode::None
    }
    /// Gardner's (1 bead, punish the last move of a lost game): against the perfect player,
    /// Michie's and Scroggs' presets empty the first box within a few dozen games and resign
    /// for ever (README, "Mini-Arimaa").
    fn default_preset(&self) -> Preset {
        Preset::Gardner
    }
    fn default_forced(&self) -> Forced {
        Forced::Skip
    }
    fn symmetry_modes(&self) -> &'static [SymmetryMode] {
        &[SymmetryMode::None]
    }
    fn size_key(&self) -> Option<String> {
        Some("4".into())
    }
    fn nickname(&self, _side: Side, _mode: SymmetryMode) -> Option<&'static str> {
        None
    }
    fn has_own_solver(&self) -> bool {
        true
    }
    /// Its positions repeat, so its values come from retrograde analysis of its whole graph.
    fn own_solver(&self, _tie_break: TieBreak) -> Option<Box<dyn Values<Self> + Sync>> {
        let graph = Arc::new(GameGraph::build(self));
        let solution = Arc::new(Solution::retrograde(&graph));
        Some(Box::new(GraphValues::new(graph, solution)))
    }
}
