//! What matchbox uses for a game's learners when the user says nothing. Each game implements this
//! in its own folder (`src/games/<game>/mod.rs`).

use super::{Forced, Preset, SymmetryMode};
use crate::game::{Game, Side};

/// A game with the settings matchbox uses for its learners when the user gives none.
pub trait GameDefaults: Game + Sized + Clone {
    /// The side a learner plays by default.
    fn default_side(&self) -> Side;
    fn default_symmetry(&self, side: Side) -> SymmetryMode;
    /// Beads and reinforcement when none are given.
    fn default_preset(&self) -> Preset;
    /// Whether positions with a single legal move get a box.
    fn default_forced(&self) -> Forced;
    /// The symmetry modes worth counting for this game.
    fn symmetry_modes(&self) -> &'static [SymmetryMode];
    /// The `size` key saved in files, for games that come in sizes.
    fn size_key(&self) -> Option<String>;
    /// The machine's historical name, if it has one (HER, HIM, MENACE).
    fn nickname(&self, side: Side, mode: SymmetryMode) -> Option<&'static str>;
}
