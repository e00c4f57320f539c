//! Arimaa (Omar Syed, 2002): the full game's rules on a parametrised board, and mini-Arimaa, a
//! 4×4 variant small enough for matchboxes. Everything about the game is in this folder: its rules
//! (`rules.rs`), the mini game as a learner's game with its defaults (`mini.rs`), its board on the
//! screen and on a label.

pub mod rules;

pub use rules::*;
