//! Noughts and crosses, the game of Michie's MENACE. Everything about the game is in this folder:
//! its rules (`rules.rs`), the defaults matchbox uses for its learners (here), its board on the
//! screen (`screen.rs`) and on a printed label (`label.rs`).

mod label;
mod rules;
mod screen;

pub use rules::*;

use crate::game::Side;
use crate::learn::{Forced, GameDefaults, Preset, SymmetryMode};

impl GameDefaults for TicTacToe {
    fn default_side(&self) -> Side {
        Side::First
    }
    fn default_symmetry(&self, _side: Side) -> SymmetryMode {
        SymmetryMode::Full
    }
    fn default_preset(&self) -> Preset {
        Preset::Class
    }
    fn default_forced(&self) -> Forced {
        Forced::Skip
    }
    fn symmetry_modes(&self) -> &'static [SymmetryMode] {
        &[SymmetryMode::Full, SymmetryMode::None]
    }
    fn size_key(&self) -> Option<String> {
        None
    }
    /// MENACE is the machine that plays X (Michie's opened); a machine for O has no name.
    fn nickname(&self, side: Side, _mode: SymmetryMode) -> Option<&'static str> {
        crate::games::historic_nickname(crate::game::Game::name(self), side)
    }
}
