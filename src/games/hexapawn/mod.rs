//! Hexapawn on any R×C board: Gardner's game (3×3), octopawn (4×4) and the rest. Everything about
//! the game is in this folder: its rules (`rules.rs`), the defaults matchbox uses for its learners
//! (here), its board on the screen (`screen.rs`) and on a printed label (`label.rs`).

#[cfg(test)]
mod exact_chain;
mod label;
mod rules;
mod screen;

pub use rules::*;

use crate::game::{Game, Side};
use crate::learn::{Forced, GameDefaults, Preset, SymmetryMode};

/// Boards whose every position is solved to choose the default side: up to this bound on
/// positions (5×5 and 4×6 solve in seconds; beyond, White).
const SOLVE_FOR_DEFAULT_SIDE: f64 = 1e9;

/// The side that wins `game` under perfect play, if the board is small enough to solve for it;
/// solved once per board size in a run.
fn winning_side(game: &Hexapawn) -> Option<Side> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static SOLVED: OnceLock<Mutex<HashMap<Size, Option<Side>>>> = OnceLock::new();
    let cache = SOLVED.get_or_init(Default::default);
    if let Some(&known) = cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&game.size())
    {
        return known;
    }
    let small = game
        .position_bound(Side::First)
        .is_some_and(|(b, _)| b <= SOLVE_FOR_DEFAULT_SIDE);
    let winner = if small {
        let graph = crate::game::graph::GameGraph::build(game);
        crate::solve::Solution::solve(&graph)
            .ok()
            .and_then(|s| s.winner(&graph, 0))
    } else {
        None
    };
    cache
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(game.size(), winner);
    winner
}

impl GameDefaults for Hexapawn {
    /// Black on Gardner's 3×3 (HER); elsewhere the side that wins under perfect play (White on
    /// octopawn), so that a learner against the perfect player can learn to win; White where the
    /// board is too big to solve for it.
    fn default_side(&self) -> Side {
        if self.size() == Size::GARDNER {
            return Side::Second;
        }
        winning_side(self).unwrap_or(Side::First)
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
        // Gardner's board only: HER and HIM were 3×3 machines.
        (self.size() == Size::GARDNER)
            .then(|| crate::games::historic_nickname(crate::game::Game::name(self), side))
            .flatten()
    }
}
