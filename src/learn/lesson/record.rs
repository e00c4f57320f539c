//! A lesson's games as a record to show again (a film of the lesson): each finished game's plies
//! in the order the lesson finished them — the order the machine was reinforced in, so the
//! machine shown after each game is the lesson's at that game's end — with the teacher's resets
//! between them. Games left unfinished taught the machine nothing and are left out.

use std::collections::BTreeMap;

use super::{Event, GameId};
use crate::learn::GameResult;

/// One step of a recorded lesson.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recorded {
    /// A finished game: its number in the lesson, each ply's move as the log writes it (`None`
    /// where the machine resigned, its box empty), and the machine's result.
    Game {
        number: GameId,
        plies: Vec<Option<String>>,
        result: GameResult,
    },
    /// The teacher reset the machine: every box as a new machine's.
    Reset,
}

/// The lesson's steps from its log's events, and where the record stops early, why: a machine
/// turned round to the other side is a new machine, which a record of one machine cannot follow.
pub fn recorded(events: &[Event]) -> (Vec<Recorded>, Option<String>) {
    let mut under_way: BTreeMap<GameId, Vec<Option<String>>> = BTreeMap::new();
    let mut steps = Vec::new();
    for e in events {
        match e {
            Event::Started { game, .. } | Event::RelayStarted { game, .. } => {
                under_way.insert(*game, Vec::new());
            }
            Event::Moved { game, mv, .. }
            | Event::Drew { game, mv, .. }
            | Event::Answered { game, mv, .. } => {
                under_way.entry(*game).or_default().push(Some(mv.clone()));
            }
            Event::Resigned { game, .. } => under_way.entry(*game).or_default().push(None),
            Event::Abandoned { game, .. } => {
                under_way.remove(game);
            }
            Event::Ended { game, result, .. } => steps.push(Recorded::Game {
                number: *game,
                plies: under_way.remove(game).unwrap_or_default(),
                result: *result,
            }),
            Event::Reset { .. } => steps.push(Recorded::Reset),
            Event::SideChanged { seq, .. } => {
                let why = format!(
                    "the record stops at event {seq}, where the teacher turned the machine round (a new machine for the other side)"
                );
                return (steps, Some(why));
            }
            Event::Joined { .. }
            | Event::Left { .. }
            | Event::Away { .. }
            | Event::Back { .. }
            | Event::Dealt { .. }
            | Event::Collected { .. }
            | Event::Waiting { .. }
            | Event::Tapped { .. }
            | Event::DrawnFor { .. }
            | Event::OpponentChanged { .. } => {}
        }
    }
    (steps, None)
}
