//! A lesson: one machine, many pupils, each playing their own games against it at once. The
//! machine draws its beads from the boxes as they stand when each of its moves is asked for, and
//! is reinforced when each game ends, whoever played it. No sockets, threads or clock: the class
//! server's actor owns a [`Lesson`] and hands it each pupil's command in turn.
//!
//! Every step is an [`Event`] with a sequence number, returned as it happens for the server to
//! write to the lesson's log. The machine at any moment is the replay of its log
//! ([`Lesson::replay`]): pupils' moves are the only input, and the machine's draws come from its
//! own seeded generator in the order the log gives.
//!
//! A lesson is a match whose opponent is the class: it is built from a [`LessonSpec`] (a
//! [`crate::learn::MatchSpec`]) into one [`Bout`], and every game in it — each pupil's, and the
//! class's game where the pupils hold the boxes — is a [`LiveGame`] the bout plays ply by ply
//! ([`Bout::ply_in`]): the same draws, ply limit, frames and reinforcement as `train` and
//! `watch`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

mod controls;
mod play;
mod record;
mod relay;
mod spec;
pub use play::{Finished, GameView, Learned};
pub use record::{Recorded, recorded};
pub use relay::{HeldBox, RelayView};
pub use spec::LessonSpec;

use super::bout::{Bout, Choice, LiveGame};
use super::{GameDefaults, GameResult, Machine, Score};
use crate::game::{Game, Side};
use crate::rng::{derive_seed, rng_from_seed, uniform_below};

/// A pupil, by the number the lesson gave them.
pub type PupilId = u32;
/// A game of the lesson, numbered from 1.
pub type GameId = u64;

/// One step of a lesson, as its log keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    Joined {
        seq: u64,
        pupil: PupilId,
        name: String,
    },
    Left {
        seq: u64,
        pupil: PupilId,
    },
    /// The pupil's page has been gone a while (a phone asleep, the Wi-Fi lost, the server
    /// restarted): they stay in the lesson, and the boxes they held are dealt to those here.
    Away {
        seq: u64,
        pupil: PupilId,
    },
    /// The pupil's page is back: they are dealt boxes again, where the class is the machine.
    Back {
        seq: u64,
        pupil: PupilId,
    },
    Started {
        seq: u64,
        game: GameId,
        pupil: PupilId,
    },
    /// A pupil's move.
    Moved {
        seq: u64,
        game: GameId,
        mv: String,
    },
    /// The machine's move, and the box and arrow it drew (none for a forced move).
    Drew {
        seq: u64,
        game: GameId,
        mv: String,
        drawn: Option<(usize, usize)>,
    },
    /// The machine's box was empty: it resigned.
    Resigned {
        seq: u64,
        game: GameId,
        box_index: usize,
    },
    /// A game finished and the machine was reinforced (the result is the machine's).
    Ended {
        seq: u64,
        game: GameId,
        result: GameResult,
    },
    /// A game left unfinished: no box changed.
    Abandoned {
        seq: u64,
        game: GameId,
    },
    /// The teacher dealt the boxes out among the pupils: the class is the machine.
    Dealt {
        seq: u64,
    },
    /// The teacher collected the boxes: the class plays the machine again.
    Collected {
        seq: u64,
    },
    /// The teacher started the class's game (the machine against the perfect player).
    RelayStarted {
        seq: u64,
        game: GameId,
    },
    /// The class's game reached a box a pupil holds: it waits for their tap.
    Waiting {
        seq: u64,
        game: GameId,
        box_index: usize,
        pupil: PupilId,
    },
    /// The pupil holding the box waited for tapped to draw.
    Tapped {
        seq: u64,
        game: GameId,
        pupil: PupilId,
    },
    /// The box waiting for `pupil` was drawn for them (the teacher's "draw for them", or the
    /// class's time for a tap ran out).
    DrawnFor {
        seq: u64,
        game: GameId,
        pupil: PupilId,
    },
    /// The opponent's move in the class's game.
    Answered {
        seq: u64,
        game: GameId,
        mv: String,
    },
    /// The teacher reset the machine: every box as a new machine's.
    Reset {
        seq: u64,
    },
    /// The teacher turned the machine round: a new machine playing `side`.
    SideChanged {
        seq: u64,
        side: Side,
    },
    /// The teacher chose the opponent of the class's game as the machine.
    OpponentChanged {
        seq: u64,
        opponent: crate::players::Opponent,
    },
}

impl Event {
    /// The event's sequence number in the lesson.
    pub fn seq(&self) -> u64 {
        match self {
            Event::Joined { seq, .. }
            | Event::Left { seq, .. }
            | Event::Away { seq, .. }
            | Event::Back { seq, .. }
            | Event::Started { seq, .. }
            | Event::Moved { seq, .. }
            | Event::Drew { seq, .. }
            | Event::Resigned { seq, .. }
            | Event::Ended { seq, .. }
            | Event::Abandoned { seq, .. }
            | Event::Dealt { seq }
            | Event::Collected { seq }
            | Event::RelayStarted { seq, .. }
            | Event::Waiting { seq, .. }
            | Event::Tapped { seq, .. }
            | Event::DrawnFor { seq, .. }
            | Event::Answered { seq, .. }
            | Event::Reset { seq }
            | Event::SideChanged { seq, .. }
            | Event::OpponentChanged { seq, .. } => *seq,
        }
    }
}

impl Event {
    /// The event in words, for an error that names it: "event 37, game 5's move b2".
    pub fn words(&self) -> String {
        let what = match self {
            Event::Joined { pupil, name, .. } => format!("pupil {pupil} ({name}) joining"),
            Event::Left { pupil, .. } => format!("pupil {pupil} leaving"),
            Event::Away { pupil, .. } => format!("pupil {pupil} away"),
            Event::Back { pupil, .. } => format!("pupil {pupil} back"),
            Event::Started { game, pupil, .. } => format!("pupil {pupil} starting game {game}"),
            Event::Moved { game, mv, .. } => format!("the pupil's move {mv} in game {game}"),
            Event::Drew { game, mv, .. } => format!("the machine's move {mv} in game {game}"),
            Event::Resigned { game, .. } => format!("the machine resigning game {game}"),
            Event::Ended { game, result, .. } => {
                format!("game {game} ending in the machine's {result}")
            }
            Event::Abandoned { game, .. } => format!("game {game} abandoned"),
            Event::Dealt { .. } => "the boxes dealt".into(),
            Event::Collected { .. } => "the boxes collected".into(),
            Event::RelayStarted { game, .. } => format!("the class's game {game} starting"),
            Event::Waiting {
                game, box_index, ..
            } => {
                format!("game {game} waiting at box {}", box_index + 1)
            }
            Event::Tapped { game, pupil, .. } => format!("pupil {pupil}'s tap in game {game}"),
            Event::DrawnFor { game, pupil, .. } => {
                format!("a bead drawn for pupil {pupil} in game {game}")
            }
            Event::Answered { game, mv, .. } => format!("the opponent's move {mv} in game {game}"),
            Event::Reset { .. } => "the machine reset".into(),
            Event::SideChanged { .. } => "the machine turned round".into(),
            Event::OpponentChanged { opponent, .. } => {
                format!("the opponent changed to {}", opponent.words())
            }
        };
        format!("event {} ({what})", self.seq())
    }
}

/// Why a pupil's command is refused. The lesson is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LessonError {
    #[error("no pupil {0} in this lesson")]
    NoPupil(PupilId),
    #[error("you have no game under way: start one")]
    NoGame,
    #[error("your game {0} is still under way")]
    GameUnderWay(GameId),
    #[error("game {given} is not yours (yours is {yours})")]
    NotYourGame { given: GameId, yours: GameId },
    #[error("it is the machine's turn, not yours")]
    NotYourTurn,
    #[error("`{text}` is not a legal move here (legal: {legal})")]
    Illegal { text: String, legal: String },
    #[error("the pupils hold the machine's boxes: collect them first")]
    HeldByPupils,
    #[error("the machine plays {0} already")]
    SameSide(String),
    #[error("the log does not replay: {0}")]
    Replay(String),
    #[error("the class is the machine now: wait for your box")]
    Dealt,
    #[error("the boxes are not dealt out")]
    NotDealt,
    #[error("no box of yours is waiting for a bead")]
    NotYourBox,
    #[error("no pupil is here to hold the boxes: deal them once pupils have joined")]
    NobodyToDeal,
    #[error("the class's game needs {0}")]
    NoOpponent(String),
}

/// A pupil: the name the lesson gave them, their results against the machine, their game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Pupil {
    pub name: String,
    /// The pupil's wins, draws and losses (theirs, not the machine's).
    pub score: Score,
    pub game: Option<GameId>,
    /// Whether their page is here (not [`Event::Away`]).
    pub here: bool,
}

/// A game under way between a pupil and the machine.
struct ClassGame<G: Game> {
    pupil: PupilId,
    live: LiveGame<G>,
}

/// The game finished last, as the projector and a late view show it.
struct LastEnd {
    game: GameId,
    position: String,
    board: Vec<String>,
    machine_move: Option<String>,
}

/// One machine and the games a class plays against it; see the module documentation.
pub struct Lesson<G: GameDefaults> {
    /// The machine and whom it plays in the class's game.
    bout: Bout<G>,
    /// What the bout was built from (for a machine turned round).
    spec: spec::Settings,
    pupils: BTreeMap<PupilId, Pupil>,
    games: BTreeMap<GameId, ClassGame<G>>,
    next_pupil: PupilId,
    next_game: GameId,
    seq: u64,
    names: crate::rng::Rng,
    last_end: Option<LastEnd>,
    /// The boxes dealt out, while the class is the machine.
    relay: Option<relay::Relay<G>>,
    /// The machine's learning curve in the lesson: its wins − losses after each game finished
    /// since the lesson began (or the machine was reset or turned round).
    curve: Vec<i64>,
    /// Who the machine plays in the class's game as the machine.
    relay_opponent: crate::players::Opponent,
}

const COLOURS: [&str; 12] = [
    "Blue", "Red", "Green", "Gold", "Silver", "Orange", "Purple", "Pink", "Teal", "Amber", "Ruby",
    "Jade",
];
const ANIMALS: [&str; 16] = [
    "Fox", "Owl", "Otter", "Badger", "Hare", "Wren", "Heron", "Lynx", "Seal", "Moth", "Newt",
    "Robin", "Stoat", "Vole", "Crane", "Finch",
];

impl<G: GameDefaults> Lesson<G> {
    /// A lesson around a built bout. Pupils' names come from a generator seeded from the
    /// machine's seed, so a replay names them alike.
    fn around(
        bout: Bout<G>,
        spec: spec::Settings,
        relay_opponent: crate::players::Opponent,
    ) -> Lesson<G> {
        let names = rng_from_seed(derive_seed(bout.learner().seed, 0x6c65_7373_6f6e));
        Lesson {
            bout,
            spec,
            pupils: BTreeMap::new(),
            games: BTreeMap::new(),
            next_pupil: 1,
            next_game: 1,
            seq: 0,
            names,
            last_end: None,
            relay: None,
            curve: Vec::new(),
            relay_opponent,
        }
    }

    pub fn game(&self) -> &G {
        self.bout.game()
    }
    pub fn machine(&self) -> &Machine<G> {
        self.bout.learner()
    }
    /// Gives the machine back, its games finished in the lesson learned from.
    pub fn into_machine(self) -> Machine<G> {
        self.bout.into_machines().0
    }
    /// The machine's results in the lesson since it began (or was reset, or turned round): the
    /// pupils' games and the class's games alike.
    pub fn score(&self) -> &Score {
        self.bout.score()
    }
    pub fn pupils(&self) -> &BTreeMap<PupilId, Pupil> {
        &self.pupils
    }
    /// Games under way.
    pub fn games_under_way(&self) -> usize {
        self.games.len()
    }
    /// The pupil's side: the side the machine does not play.
    pub fn pupil_side(&self) -> Side {
        self.machine().boxes.side().other()
    }

    fn event(&mut self, make: impl FnOnce(u64) -> Event) -> Event {
        self.seq += 1;
        make(self.seq)
    }

    /// A new pupil, with a name of a colour, an animal and a number ("Blue Fox 7").
    pub fn join(&mut self) -> (PupilId, Vec<Event>) {
        let id = self.next_pupil;
        self.next_pupil += 1;
        let pick = |rng: &mut crate::rng::Rng, n: usize| uniform_below(rng, n as u32) as usize;
        let name = format!(
            "{} {} {}",
            COLOURS[pick(&mut self.names, COLOURS.len())],
            ANIMALS[pick(&mut self.names, ANIMALS.len())],
            1 + pick(&mut self.names, 9)
        );
        let pupil = Pupil {
            name: name.clone(),
            score: Score::default(),
            game: None,
            here: true,
        };
        self.pupils.insert(id, pupil);
        let e = self.event(|seq| Event::Joined {
            seq,
            pupil: id,
            name,
        });
        self.relay_join(id);
        (id, vec![e])
    }

    /// The machine's learning curve in the lesson: wins − losses after each finished game.
    pub fn curve(&self) -> &[i64] {
        &self.curve
    }

    /// The pupil's page has gone: they stay in the lesson (their name, score and game), and the
    /// boxes they held are dealt to the pupils here.
    pub fn away(&mut self, pupil: PupilId) -> Result<Vec<Event>, LessonError> {
        let p = self
            .pupils
            .get_mut(&pupil)
            .ok_or(LessonError::NoPupil(pupil))?;
        p.here = false;
        let mut events = vec![self.event(|seq| Event::Away { seq, pupil })];
        self.relay_leave(pupil, &mut events);
        Ok(events)
    }

    /// The pupil's page is back: where the class is the machine, they are dealt boxes again.
    pub fn back(&mut self, pupil: PupilId) -> Result<Vec<Event>, LessonError> {
        let p = self
            .pupils
            .get_mut(&pupil)
            .ok_or(LessonError::NoPupil(pupil))?;
        p.here = true;
        let events = vec![self.event(|seq| Event::Back { seq, pupil })];
        self.relay_join(pupil);
        Ok(events)
    }

    /// The pupils whose pages are here, by number.
    pub(super) fn present(&self) -> Vec<PupilId> {
        (self.pupils.iter())
            .filter(|(_, p)| p.here)
            .map(|(&id, _)| id)
            .collect()
    }

    /// The pupil leaves; their game, if one is under way, is abandoned with no box changed.
    pub fn leave(&mut self, pupil: PupilId) -> Result<Vec<Event>, LessonError> {
        let p = self.pupils.get(&pupil).ok_or(LessonError::NoPupil(pupil))?;
        let mut events = Vec::new();
        if let Some(g) = p.game {
            events.push(self.abandon(g));
        }
        self.pupils.remove(&pupil);
        events.push(self.event(|seq| Event::Left { seq, pupil }));
        self.relay_leave(pupil, &mut events);
        Ok(events)
    }

    /// Abandons a game under way: the machine's draws in it are put back (no bead changes).
    fn abandon(&mut self, game: GameId) -> Event {
        if let Some(g) = self.games.remove(&game)
            && let Some(p) = self.pupils.get_mut(&g.pupil)
        {
            p.game = None;
        }
        self.event(|seq| Event::Abandoned { seq, game })
    }

    /// The lesson a log makes from the lesson `spec` builds (the machine as it stood when the
    /// lesson began): each pupil's join, move and departure done again, and everything the
    /// lesson did in answer checked against the log.
    pub fn replay(spec: LessonSpec<G>, game: G, log: &[Event]) -> Result<Lesson<G>, LessonError> {
        let mut lesson = spec
            .build(game)
            .map_err(|e| LessonError::Replay(e.to_string()))?;
        match lesson.redo_all(log)? {
            n if n == log.len() => Ok(lesson),
            n => Err(LessonError::Replay(format!(
                "at event {}: the log ends inside a step (its events {} to {} of more)",
                n + 1,
                n + 1,
                log.len()
            ))),
        }
    }

    /// As [`Lesson::replay`], for a log a crash may have cut inside its last step (the events of
    /// one step are written together, but a write can be cut): the lesson of its whole steps, and
    /// how many events they are (the rest, a step cut short, is left out).
    pub fn replay_whole(
        spec: LessonSpec<G>,
        game: G,
        log: &[Event],
    ) -> Result<(Lesson<G>, usize), LessonError> {
        let again = (spec.clone(), game.clone());
        let mut lesson = (spec.build(game)).map_err(|e| LessonError::Replay(e.to_string()))?;
        let whole = lesson.redo_all(log)?;
        if whole == log.len() {
            return Ok((lesson, whole));
        }
        // The cut step was done again in full: the lesson again, without it.
        Ok((Lesson::replay(again.0, again.1, &log[..whole])?, whole))
    }

    /// Does again every step of `log`, each checked against the events it logged; the events of
    /// the whole steps, where the log ends inside the last (its events so far the first of what
    /// doing it again makes).
    fn redo_all(&mut self, log: &[Event]) -> Result<usize, LessonError> {
        let mut i = 0;
        while i < log.len() {
            let made = self.redo(&log[i..])?;
            let have = &log[i..log.len().min(i + made.len())];
            if have.len() < made.len() && made.starts_with(have) {
                return Ok(i);
            }
            if have != &made[..] {
                let at = (0..made.len())
                    .find(|&k| have.get(k) != made.get(k))
                    .unwrap_or(0);
                let json = |e: Option<&Event>| {
                    e.map_or("nothing".into(), |e| {
                        serde_json::to_string(e).unwrap_or_default()
                    })
                };
                return Err(LessonError::Replay(format!(
                    "at event {}: the log has {}, the replay {}",
                    i + at + 1,
                    json(have.get(at)),
                    json(made.get(at)),
                )));
            }
            i += made.len();
        }
        Ok(i)
    }

    /// Does again what the first of the logged events `rest` asked for; the events that makes.
    /// Games abandoned come first in the log, before what abandoned them (a pupil leaving, the
    /// boxes dealt or collected, the machine reset or turned round): that is what is done again.
    fn redo(&mut self, rest: &[Event]) -> Result<Vec<Event>, LessonError> {
        let first = &rest[0];
        let e = match first {
            Event::Abandoned { .. } => (rest.iter())
                .find(|e| !matches!(e, Event::Abandoned { .. }))
                .ok_or_else(|| {
                    LessonError::Replay(format!("a game abandoned for no step: {}", first.words()))
                })?,
            _ => first,
        };
        let bad = |what: &str| LessonError::Replay(format!("{what}: {}", e.words()));
        Ok(match e {
            Event::Joined { .. } => self.join().1,
            Event::Left { pupil, .. } => self.leave(*pupil)?,
            Event::Away { pupil, .. } => self.away(*pupil)?,
            Event::Back { pupil, .. } => self.back(*pupil)?,
            Event::Started { pupil, .. } => self.start(*pupil)?.1,
            Event::Moved { game, mv, .. } => {
                let g = self.games.get(game).ok_or_else(|| bad("no such game"))?;
                self.play(g.pupil, *game, mv)?.1
            }
            Event::Dealt { .. } => self.deal()?,
            Event::Collected { .. } => self.collect()?,
            Event::RelayStarted { .. } => self.relay_start()?.1,
            Event::Tapped { pupil, .. } => self.draw(*pupil)?.1,
            Event::DrawnFor { .. } => self.draw_for_holder()?.1,
            Event::Reset { .. } => self.reset()?,
            Event::SideChanged { side, .. } => self.change_side(*side)?,
            Event::OpponentChanged { opponent, .. } => self.set_opponent(*opponent)?,
            _ => return Err(bad("an answer where a pupil's step belongs")),
        })
    }
}
