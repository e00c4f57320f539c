//! A lesson as data: a [`MatchSpec`] whose opponent is the class. The learner, its engine and
//! the opponent of the class's game (when the pupils are the machine) mean what they mean in
//! `train` and `watch`, built by [`MatchSpec::build`]; what a lesson cannot do is refused here,
//! with the reason.

use super::*;
use crate::learn::{MatchError, MatchSpec, Rival, Source};
use crate::players::Opponent;
use crate::solve::TieBreak;

/// A lesson, not yet built: the match the class's machine plays (its opponent: the one the
/// class's game plays while the pupils hold the boxes).
#[derive(Clone)]
pub struct LessonSpec<G: GameDefaults> {
    pub spec: MatchSpec<G>,
}

/// Why a lesson cannot be had.
#[derive(Debug, thiserror::Error)]
pub enum LessonSpecError {
    #[error(transparent)]
    Match(#[from] MatchError),
    #[error(
        "a lesson's class game plays the perfect or the random player, not {0} (pupils play the machine themselves)"
    )]
    Opponent(Opponent),
}

/// What a lesson's bout was built from, for the machine turned round.
#[derive(Clone, Copy, Debug)]
pub(super) struct Settings {
    pub(super) engine: crate::learn::Engine,
    pub(super) tie_break: TieBreak,
}

impl<G: GameDefaults> LessonSpec<G> {
    /// A lesson of `machine` whose class game plays the perfect player (ties broken at
    /// random), on the automatic engine.
    pub fn of(machine: Machine<G>) -> LessonSpec<G> {
        LessonSpec {
            spec: MatchSpec {
                learner: Source::Loaded(machine),
                opponent: Rival::Player(Opponent::Perfect),
                engine: Default::default(),
                tie_break: TieBreak::default(),
                graph: None,
            },
        }
    }

    /// The lesson: its bout built once, as every front end builds one.
    pub fn build(self, game: G) -> Result<Lesson<G>, LessonSpecError> {
        let relay_opponent = match &self.spec.opponent {
            Rival::Player(k @ (Opponent::Perfect | Opponent::Random)) => *k,
            other => return Err(LessonSpecError::Opponent(other.kind())),
        };
        let settings = Settings {
            engine: self.spec.engine,
            tie_break: self.spec.tie_break,
        };
        let bout = self.spec.build(game, &mut |_| {})?;
        Ok(Lesson::around(bout, settings, relay_opponent))
    }
}

impl<G: GameDefaults> Lesson<G> {
    /// The lesson's bout rebuilt around `machine` (a machine turned round), with the same
    /// engine, opponent and tie-break.
    pub(super) fn rebuilt(&self, machine: Machine<G>) -> Result<Bout<G>, LessonError> {
        let spec = MatchSpec {
            learner: Source::Loaded(machine),
            opponent: Rival::Player(self.relay_opponent),
            engine: self.spec.engine,
            tie_break: self.spec.tie_break,
            graph: None,
        };
        (spec.build(self.game().clone(), &mut |_| {}))
            .map_err(|e| LessonError::NoOpponent(e.to_string()))
    }
}
