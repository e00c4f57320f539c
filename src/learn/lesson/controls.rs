//! The teacher's controls over the class's machine: a fresh machine (reset), the machine on the
//! other side, and the opponent of the class's game as the machine. Each is an [`Event`] in the
//! log, so a replay follows it, and each abandons the games under way (no box changed) rather
//! than finish them on a machine they did not start with. While the boxes are dealt out the
//! machine cannot be reset or turned round: the pupils hold its boxes.

use std::sync::Arc;

use super::*;
use crate::learn::{BoxSet, Machine};
use crate::players::Opponent;

impl<G: GameDefaults> Lesson<G> {
    /// Every game under way abandoned, no box changed.
    fn abandon_all(&mut self) -> Vec<Event> {
        let under_way: Vec<GameId> = self.games.keys().copied().collect();
        under_way.into_iter().map(|g| self.abandon(g)).collect()
    }

    /// The machine as new: every box refilled with its first beads, its generator reseeded, no
    /// games played; the lesson's score and the games under way start again (the pupils keep
    /// their standings).
    pub fn reset(&mut self) -> Result<Vec<Event>, LessonError> {
        if self.dealt() {
            return Err(LessonError::HeldByPupils);
        }
        let mut events = self.abandon_all();
        self.bout.reset();
        self.last_end = None;
        self.curve.clear();
        events.push(self.event(|seq| Event::Reset { seq }));
        Ok(events)
    }

    /// The machine plays `side` from now: a new machine of that side's boxes, with the same
    /// symmetry, first beads, reinforcement and seed; the pupils play the other side.
    pub fn change_side(&mut self, side: Side) -> Result<Vec<Event>, LessonError> {
        if self.dealt() {
            return Err(LessonError::HeldByPupils);
        }
        let m = self.machine();
        if m.boxes.side() == side {
            return Err(LessonError::SameSide(
                self.game().side_name(side).to_string(),
            ));
        }
        let (mode, forced) = (m.boxes.mode(), m.boxes.forced());
        let boxes = match m.boxes.is_lazy() {
            true => BoxSet::lazy(self.game(), side, mode, forced),
            false => BoxSet::build_with(self.game(), side, mode, forced),
        };
        let machine = Machine::new(Arc::new(boxes), m.initial.clone(), m.reinforcement, m.seed);
        let bout = self.rebuilt(machine)?;
        let mut events = self.abandon_all();
        self.bout = bout;
        self.last_end = None;
        self.curve.clear();
        events.push(self.event(|seq| Event::SideChanged { seq, side }));
        Ok(events)
    }

    /// The opponent of the class's game as the machine (the perfect or the random player),
    /// from its next game (the boxes need not be dealt: it is kept for when they are).
    pub fn set_opponent(&mut self, opponent: Opponent) -> Result<Vec<Event>, LessonError> {
        if !matches!(opponent, Opponent::Perfect | Opponent::Random) {
            return Err(LessonError::NoOpponent(format!(
                "the perfect or the random player, not {}",
                opponent.words()
            )));
        }
        (self.bout.set_opponent(opponent)).map_err(|e| LessonError::NoOpponent(e.to_string()))?;
        self.relay_opponent = opponent;
        Ok(vec![
            self.event(|seq| Event::OpponentChanged { seq, opponent }),
        ])
    }

    /// Who the machine plays in the class's game as the machine.
    pub fn relay_opponent(&self) -> Opponent {
        self.relay_opponent
    }
}
