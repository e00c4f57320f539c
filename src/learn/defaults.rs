//! What matchbox uses for a game's learners when the user says nothing. Each game implements this
//! in its own folder (`src/games/<game>/mod.rs`).

use super::{Forced, Preset, SymmetryMode};
use crate::game::{Game, Side};
use crate::solve::{OnDemand, SharedValues, SolveError, TieBreak, Value, Values};

/// A machine's name: its historical nickname if it has one, and its side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MachineName {
    pub nickname: Option<&'static str>,
    pub side: &'static str,
}

impl std::fmt::Display for MachineName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.nickname {
            Some(n) => write!(f, "{n} ({})", self.side),
            None => write!(f, "the machine ({})", self.side),
        }
    }
}

/// A game with the settings matchbox uses for its learners when the user gives none.
pub trait GameDefaults: Game + Sized + Clone + 'static {
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

    /// A machine's name as every screen, chart and report writes it: `HER (black)`, or `the
    /// machine (white)` where it has no historical name.
    fn machine_name(&self, side: Side, mode: SymmetryMode) -> MachineName {
        MachineName {
            nickname: self.nickname(side, mode),
            side: self.side_name(side),
        }
    }

    /// A solver of the game's own for boards too big to enumerate (Havannah's base 3), if it
    /// has one; `None` leaves the generic solvers. With [`TieBreak::Fastest`] its values must
    /// carry distances (the quickest win, the slowest loss); with `Random` win, draw or loss is
    /// enough.
    fn own_solver(&self, tie_break: TieBreak) -> Option<Box<dyn Values<Self> + Sync>> {
        let _ = tie_break;
        None
    }

    /// Whether [`GameDefaults::own_solver`] gives a solver, without building it.
    fn has_own_solver(&self) -> bool {
        false
    }

    /// An exact count of a learner's boxes of the game's own, for boards too big to enumerate
    /// generically (Havannah's base 3), if it has one for this side and symmetry. `progress` is
    /// told each move number as the count reaches it.
    fn own_count(
        &self,
        _side: Side,
        _mode: SymmetryMode,
        _forced: Forced,
        _progress: &(dyn Fn(u16) + Sync),
    ) -> Option<BoxCounts> {
        None
    }
}

/// A learner's boxes and their arrows, by move number (Gardner's: plies counted from 1).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BoxCounts {
    pub boxes: std::collections::BTreeMap<u16, u64>,
    pub arrows: std::collections::BTreeMap<u16, u64>,
}

impl BoxCounts {
    pub fn total_boxes(&self) -> u64 {
        self.boxes.values().sum()
    }
    pub fn total_arrows(&self) -> u64 {
        self.arrows.values().sum()
    }
}

/// The most positions a generic on-demand solver may keep for a perfect player.
pub const ON_DEMAND_LIMIT: usize = 20_000_000;

/// Exact values for a perfect player on `game` from positions, shared by every copy of the player:
/// the game's own solver if it has one, else a memoised negamax where the game can be enumerated.
/// The start is solved first (so a game too big to solve is refused here, not mid-game); its value
/// comes back too.
pub fn perfect_values<G: GameDefaults>(
    game: &G,
    tie_break: TieBreak,
) -> Result<(SharedValues<G>, Value), SolveError> {
    let solver: Box<dyn Values<G> + Sync> = match game.own_solver(tie_break) {
        Some(s) => s,
        None if crate::game::enumerable(game) => Box::new(OnDemand::new(ON_DEMAND_LIMIT)),
        None => {
            return Err(SolveError::TooBig {
                limit: ON_DEMAND_LIMIT,
            });
        }
    };
    let mut shared = SharedValues::new(solver);
    let start = shared.value(game, &game.start())?;
    Ok((shared, start))
}
