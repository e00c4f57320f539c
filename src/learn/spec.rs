//! A new learner's settings as a front end takes them (the command line's options, the browser
//! page's address), each one the game's default when not given, and the machine they make.

use std::sync::Arc;

use super::{
    BoxSet, Forced, GameDefaults, LearnError, Machine, Preset, Reinforcement, StageBeads,
    SymmetryMode,
};
use crate::game::Side;
use crate::rng::derive_seed;

/// A new learner's settings; `None` is the game's default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MachineSpec {
    pub side: Option<Side>,
    pub symmetry: Option<SymmetryMode>,
    pub forced: Option<Forced>,
    pub preset: Option<Preset>,
    pub reinforcement: Option<Reinforcement>,
    pub beads: Option<StageBeads>,
    pub seed: u64,
    /// Boxes made the first time a position comes up, not enumerated up front.
    pub lazy: bool,
    /// The most bytes a lazy machine's boxes may take (`None`: the default budget).
    pub max_memory: Option<usize>,
}

impl MachineSpec {
    /// The side, symmetry and forced-move rule, with the game's defaults.
    pub fn set_choice<G: GameDefaults>(&self, game: &G) -> (Side, SymmetryMode, Forced) {
        let side = self.side.unwrap_or_else(|| game.default_side());
        let mode = self.symmetry.unwrap_or_else(|| game.default_symmetry(side));
        (
            side,
            mode,
            self.forced.unwrap_or_else(|| game.default_forced()),
        )
    }

    /// A machine with fresh boxes. More bead counts than the learner has moves are refused.
    pub fn build<G: GameDefaults>(&self, game: &G) -> Result<Machine<G>, LearnError> {
        let (side, mode, forced) = self.set_choice(game);
        let mut boxes = match (self.lazy, self.max_memory) {
            (true, _) => BoxSet::lazy(game, side, mode, forced),
            (false, None) => BoxSet::build_with(game, side, mode, forced),
            // Within the limit or refused, without building more than it allows (a box takes
            // more than 16 bytes).
            (false, Some(max)) => {
                let set = BoxSet::build_at_most(game, side, mode, forced, max / 16 + 1);
                let need = set.as_ref().map(|s| s.memory());
                if need.is_none_or(|n| n > max) {
                    return Err(LearnError::TableTooBig {
                        game: game.name(),
                        variant: game.variant(),
                        need: match need {
                            Some(n) => crate::text::bytes(n as u64),
                            None => format!("more than {}", crate::text::bytes(max as u64)),
                        },
                        max: crate::text::bytes(max as u64),
                    });
                }
                set.expect("within the limit")
            }
        };
        if let Some(bytes) = self.max_memory {
            boxes.set_budget(bytes);
        }
        if let Some(beads) = &self.beads
            && !boxes.is_lazy()
        {
            let moves = (0..boxes.len())
                .map(|b| boxes.stage(b) as usize + 1)
                .max()
                .unwrap_or(0);
            if beads.counts().len() > moves {
                return Err(LearnError::TooManyStages {
                    beads: beads.to_string(),
                    given: beads.counts().len(),
                    moves,
                    game: game.name(),
                    variant: game.variant(),
                });
            }
        }
        let preset = self.preset.unwrap_or_else(|| game.default_preset());
        Ok(Machine::new(
            Arc::new(boxes),
            self.beads.clone().unwrap_or_else(|| preset.beads()),
            self.reinforcement.unwrap_or_else(|| preset.reinforcement()),
            self.seed,
        ))
    }
}

/// A fresh rival for `learner`: the other side, with the game's defaults, its seed drawn from
/// the learner's; lazy when the learner is.
pub fn rival_for<G: GameDefaults>(game: &G, learner: &Machine<G>) -> Machine<G> {
    let side = learner.boxes.side().other();
    let preset = game.default_preset();
    let mode = game.default_symmetry(side);
    let boxes = match learner.boxes.is_lazy() {
        true => BoxSet::lazy(game, side, mode, game.default_forced()),
        false => BoxSet::build_with(game, side, mode, game.default_forced()),
    };
    Machine::new(
        Arc::new(boxes),
        preset.beads(),
        preset.reinforcement(),
        derive_seed(learner.seed, u64::MAX),
    )
}
