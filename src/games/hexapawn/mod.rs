//! Hexapawn on any R×C board: Gardner's game (3×3), octopawn (4×4) and the rest. Everything about
//! the game is in this folder: its rules (`rules.rs`), the defaults matchbox uses for its learners
//! (here), its board on the screen (`screen.rs`) and on a printed label (`label.rs`).

mod label;
mod rules;
mod screen;

pub use rules::*;

use crate::game::Side;
use crate::learn::{Forced, GameDefaults, Preset, SymmetryMode};

impl GameDefaults for Hexapawn {
    fn default_side(&self) -> Side {
        Side::Second
    }
    fn default_symmetry(&self, side: Side) -> SymmetryMode {
        if self.size() == Size::GARDNER && side == Side::Second {
            SymmetryMode::Gardner
        } else {
            SymmetryMode::Full
        }
    }
    fn default_preset(&self) -> Preset {
        Preset::Gardner
    }
    fn default_forced(&self) -> Forced {
        Forced::Include
    }
    fn symmetry_modes(&self) -> &'static [SymmetryMode] {
        &[
            SymmetryMode::Full,
            SymmetryMode::Gardner,
            SymmetryMode::None,
        ]
    }
    fn size_key(&self) -> Option<String> {
        Some(self.size().to_string())
    }
    fn nickname(&self, side: Side, _mode: SymmetryMode) -> Option<&'static str> {
        (self.size() == Size::GARDNER).then_some(match side {
            Side::First => "HIM",
            Side::Second => "HER",
        })
    }
}
