//! A lesson: one machine, many pupils, each playing their own games against it at once. The
//! machine draws its beads from the boxes as they stand when each of its moves is asked for, and
//! is reinforced when each game ends, whoever played it. No sockets, threads or clock: the class
//! server's actor owns a [`Lesson`] and hands it each pupil's command in turn.
//!
//! Every step is an [`Event`] with a sequence number, returned as it happens for the server to
//! write to the lesson's log. The machine at any moment is the replay of its log
//! ([`Lesson::replay`]): pupils' moves are the only input, and the machine's draws come from its
//! own seeded generator in the order the log gives.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

mod controls;
mod record;
mod relay;
pub use controls::RelayOpponent;
pub use record::{Recorded, recorded};
pub use relay::{HeldBox, RelayView};

use super::{GameDefaults, GameResult, Machine, MachineGame, MachineMove};
use crate::game::{Game, Side, Sym};
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
    /// The perfect player's move in the class's game.
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
        opponent: RelayOpponent,
    },
}

impl Event {
    /// The event's sequence number in the lesson.
    pub fn seq(&self) -> u64 {
        match self {
            Event::Joined { seq, .. }
            | Event::Left { seq, .. }
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
            | Event::Answered { seq, .. }
            | Event::Reset { seq }
            | Event::SideChanged { seq, .. }
            | Event::OpponentChanged { seq, .. } => *seq,
        }
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
    #[error("the class's game needs the perfect player: {0}")]
    NoOpponent(String),
}

/// A pupil: the name the lesson gave them, their results against the machine, their game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Pupil {
    pub name: String,
    /// The pupil's wins, draws and losses (theirs, not the machine's).
    pub won: u64,
    pub drawn: u64,
    pub lost: u64,
    pub game: Option<GameId>,
}

/// A game under way between a pupil and the machine.
struct ClassGame<G: Game> {
    pupil: PupilId,
    pos: G::Position,
    plies: u32,
    frame: Sym,
    part: MachineGame,
    /// The machine's draws: (box, arrow, its move as written).
    drawn: Vec<(usize, usize, String)>,
}

/// What a game looks like to the pupil playing it, after their command.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameView {
    pub game: GameId,
    /// The pupil's side, by name.
    pub side: String,
    /// The position, as the game writes it.
    pub position: String,
    /// The position as a diagram, a line a rank.
    pub board: Vec<String>,
    /// The moves the pupil may make now (empty when the game is over or not their turn).
    pub legal: Vec<String>,
    /// The machine's last move, if it has moved.
    pub machine_move: Option<String>,
    /// How the game ended, for the pupil: their result and what the machine learned.
    pub over: Option<Finished>,
}

/// A finished game, for the pupil who played it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finished {
    /// The pupil's result.
    pub result: GameResult,
    /// Each box the machine drew from: (box number from 1, its move, the change in beads).
    pub learned: Vec<(usize, String, i64)>,
}

/// One machine and the games a class plays against it; see the module documentation.
pub struct Lesson<G: GameDefaults> {
    game: G,
    machine: Machine<G>,
    pupils: BTreeMap<PupilId, Pupil>,
    games: BTreeMap<GameId, ClassGame<G>>,
    next_pupil: PupilId,
    next_game: GameId,
    seq: u64,
    /// Games finished in this lesson, from the machine's side: won, drawn, lost.
    pub score: (u64, u64, u64),
    names: crate::rng::Rng,
    /// The game finished last: its number, final position, diagram and the machine's last move.
    last_end: Option<(GameId, String, Vec<String>, Option<String>)>,
    /// The boxes dealt out, while the class is the machine.
    relay: Option<relay::Relay<G>>,
    /// Who the machine plays in the class's game as the machine.
    relay_opponent: RelayOpponent,
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
    /// A lesson of `machine` on `game`. Pupils' names come from a generator seeded from the
    /// machine's seed, so a replay names them alike.
    pub fn new(game: G, machine: Machine<G>) -> Lesson<G> {
        let names = rng_from_seed(derive_seed(machine.seed, 0x6c65_7373_6f6e));
        Lesson {
            game,
            machine,
            pupils: BTreeMap::new(),
            games: BTreeMap::new(),
            next_pupil: 1,
            next_game: 1,
            seq: 0,
            score: (0, 0, 0),
            names,
            last_end: None,
            relay: None,
            relay_opponent: RelayOpponent::Perfect,
        }
    }

    pub fn game(&self) -> &G {
        &self.game
    }
    pub fn machine(&self) -> &Machine<G> {
        &self.machine
    }
    /// Gives the machine back, its games finished in the lesson learned from.
    pub fn into_machine(self) -> Machine<G> {
        self.machine
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
        self.machine.boxes.side().other()
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
            won: 0,
            drawn: 0,
            lost: 0,
            game: None,
        };
        self.pupils.insert(id, pupil);
        let e = self.event(|seq| Event::Joined {
            seq,
            pupil: id,
            name,
        });
        (id, vec![e])
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
}

impl<G: GameDefaults> Lesson<G> {
    /// Starts a game for `pupil` (who may have one game at a time); the machine moves first
    /// where its side does.
    pub fn start(&mut self, pupil: PupilId) -> Result<(GameView, Vec<Event>), LessonError> {
        let p = self.pupils.get(&pupil).ok_or(LessonError::NoPupil(pupil))?;
        if let Some(g) = p.game {
            return Err(LessonError::GameUnderWay(g));
        }
        if self.relay.is_some() {
            return Err(LessonError::Dealt);
        }
        let id = self.next_game;
        self.next_game += 1;
        if let Some(p) = self.pupils.get_mut(&pupil) {
            p.game = Some(id);
        }
        let g = ClassGame {
            pupil,
            pos: self.game.start(),
            plies: 0,
            frame: Sym::IDENTITY,
            part: MachineGame::default(),
            drawn: Vec::new(),
        };
        self.games.insert(id, g);
        let mut events = vec![self.event(|seq| Event::Started {
            seq,
            game: id,
            pupil,
        })];
        let over = self.machine_turns(id, &mut events);
        Ok((self.view(id, over), events))
    }

    /// The pupil's move `text` in their game `game`, then the machine's answer; at the game's
    /// end the machine is reinforced and the view says what it learned.
    pub fn play(
        &mut self,
        pupil: PupilId,
        game: GameId,
        text: &str,
    ) -> Result<(GameView, Vec<Event>), LessonError> {
        let p = self.pupils.get(&pupil).ok_or(LessonError::NoPupil(pupil))?;
        let yours = p.game.ok_or(LessonError::NoGame)?;
        if yours != game {
            return Err(LessonError::NotYourGame { given: game, yours });
        }
        let g = self.games.get(&game).ok_or(LessonError::NoGame)?;
        if self.game.to_move(&g.pos) != self.pupil_side() {
            return Err(LessonError::NotYourTurn);
        }
        let mv = self.game.parse_move(&g.pos, text.trim()).map_err(|_| {
            let legal: Vec<String> = (self.game.moves(&g.pos).into_iter())
                .map(|m| self.game.format_move_at(&g.pos, m))
                .collect();
            LessonError::Illegal {
                text: crate::text::quote(text),
                legal: legal.join(", "),
            }
        })?;
        let written = self.game.format_move_at(&g.pos, mv);
        self.advance(game, mv);
        let mut events = vec![self.event(|seq| Event::Moved {
            seq,
            game,
            mv: written,
        })];
        let over = self.machine_turns(game, &mut events);
        Ok((self.view(game, over), events))
    }

    /// Plays `mv` in game `id` (legal there).
    fn advance(&mut self, id: GameId, mv: G::Move) {
        let mode = self.machine.boxes.mode();
        if let Some(g) = self.games.get_mut(&id) {
            g.pos = self.game.play(&g.pos, mv);
            g.plies += 1;
            g.frame = mode.frame_after(&self.game, g.plies, &g.pos, g.frame);
        }
    }

    /// The machine moves while it is its turn; ends the game when it is over. Returns the
    /// finished game, if it ended.
    fn machine_turns(&mut self, id: GameId, events: &mut Vec<Event>) -> Option<Finished> {
        let side = self.machine.boxes.side();
        loop {
            let g = self.games.get_mut(&id)?;
            if let Some(o) = self.game.outcome(&g.pos) {
                let result = super::lazy::result_for(o.winner, side);
                return Some(self.finish(id, result, events));
            }
            if self.game.to_move(&g.pos) != side {
                return None;
            }
            let pos = g.pos.clone();
            match (self.machine).choose(&self.game, &pos, g.plies, g.frame, &mut g.part) {
                MachineMove::Move { mv, drawn } => {
                    let written = self.game.format_move_at(&pos, mv);
                    if let Some((b, a)) = drawn {
                        g.drawn.push((b, a, written.clone()));
                    }
                    self.advance(id, mv);
                    events.push(self.event(|seq| Event::Drew {
                        seq,
                        game: id,
                        mv: written,
                        drawn,
                    }));
                }
                MachineMove::Resign { box_index } => {
                    events.push(self.event(|seq| Event::Resigned {
                        seq,
                        game: id,
                        box_index,
                    }));
                    return Some(self.finish(id, GameResult::Loss, events));
                }
            }
        }
    }

    /// Ends game `id` with the machine's `result`: reinforces the machine, counts the game.
    fn finish(&mut self, id: GameId, result: GameResult, events: &mut Vec<Event>) -> Finished {
        let Some(g) = self.games.remove(&id) else {
            return Finished {
                result: result.for_opponent(),
                learned: Vec::new(),
            };
        };
        let learned = self.learn_from(id, &g.pos, &g.drawn, &g.part, result);
        match result {
            GameResult::Win => self.score.0 += 1,
            GameResult::Draw => self.score.1 += 1,
            GameResult::Loss => self.score.2 += 1,
        }
        if let Some(p) = self.pupils.get_mut(&g.pupil) {
            p.game = None;
            match result.for_opponent() {
                GameResult::Win => p.won += 1,
                GameResult::Draw => p.drawn += 1,
                GameResult::Loss => p.lost += 1,
            }
        }
        events.push(self.event(|seq| Event::Ended {
            seq,
            game: id,
            result,
        }));
        Finished {
            result: result.for_opponent(),
            learned,
        }
    }

    /// Reinforces the machine for a finished game `id` (ended at `pos`, its draws `drawn`) and
    /// keeps it as the game finished last; what each box drawn from learned: (box number from 1,
    /// its move, the change in beads). Both ways of playing the lesson end their games here.
    fn learn_from(
        &mut self,
        id: GameId,
        pos: &G::Position,
        drawn: &[(usize, usize, String)],
        part: &MachineGame,
        result: GameResult,
    ) -> Vec<(usize, String, i64)> {
        let before: Vec<u32> = (drawn.iter())
            .map(|&(b, a, _)| self.machine.beads_in(b)[a].get())
            .collect();
        self.machine.reinforce(&part.played, result);
        self.last_end = Some((
            id,
            self.game.format_position(pos),
            self.game.diagram(pos),
            drawn.last().map(|d| d.2.clone()),
        ));
        (drawn.iter().zip(before))
            .map(|(&(b, a, ref mv), was)| {
                let now = self.machine.beads_in(b)[a].get();
                (b + 1, mv.clone(), now as i64 - was as i64)
            })
            .collect()
    }

    /// The pupil's view of game `id` (`over` once it has ended).
    fn view(&self, id: GameId, over: Option<Finished>) -> GameView {
        let side = self.game.side_name(self.pupil_side()).to_string();
        let Some(g) = self.games.get(&id) else {
            let (position, board, machine_move) = match &self.last_end {
                Some((g, p, b, m)) if *g == id => (p.clone(), b.clone(), m.clone()),
                _ => Default::default(),
            };
            return GameView {
                game: id,
                side,
                position,
                board,
                legal: Vec::new(),
                machine_move,
                over,
            };
        };
        let legal = match self.game.to_move(&g.pos) == self.pupil_side() {
            true => (self.game.moves(&g.pos).into_iter())
                .map(|m| self.game.format_move_at(&g.pos, m))
                .collect(),
            false => Vec::new(),
        };
        GameView {
            game: id,
            side,
            position: self.game.format_position(&g.pos),
            board: self.game.diagram(&g.pos),
            legal,
            machine_move: g.drawn.last().map(|d| d.2.clone()),
            over,
        }
    }

    /// The lesson a log makes from `machine` as it stood when the lesson began: each pupil's
    /// join, move and departure done again, and everything the lesson did in answer checked
    /// against the log.
    pub fn replay(game: G, machine: Machine<G>, log: &[Event]) -> Result<Lesson<G>, LessonError> {
        let mut lesson = Lesson::new(game, machine);
        let mut i = 0;
        while i < log.len() {
            let made = lesson.redo(&log[i..])?;
            let want = log.get(i..i + made.len());
            if want != Some(&made[..]) {
                return Err(LessonError::Replay(format!(
                    "at event {}: the log has {:?}, the replay {:?}",
                    i + 1,
                    log.get(i),
                    made.first()
                )));
            }
            i += made.len();
        }
        Ok(lesson)
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
                    LessonError::Replay(format!("a game abandoned for no step: {first:?}"))
                })?,
            _ => first,
        };
        let bad = |what: &str| LessonError::Replay(format!("{what}: {e:?}"));
        Ok(match e {
            Event::Joined { .. } => self.join().1,
            Event::Left { pupil, .. } => self.leave(*pupil)?,
            Event::Started { pupil, .. } => self.start(*pupil)?.1,
            Event::Moved { game, mv, .. } => {
                let g = self.games.get(game).ok_or_else(|| bad("no such game"))?;
                self.play(g.pupil, *game, mv)?.1
            }
            Event::Dealt { .. } => self.deal()?,
            Event::Collected { .. } => self.collect()?,
            Event::RelayStarted { .. } => self.relay_start()?.1,
            Event::Tapped { pupil, .. } => self.draw(*pupil)?.1,
            Event::Reset { .. } => self.reset()?,
            Event::SideChanged { side, .. } => self.change_side(*side)?,
            Event::OpponentChanged { opponent, .. } => self.set_opponent(*opponent)?,
            _ => return Err(bad("an answer where a pupil's step belongs")),
        })
    }
}
