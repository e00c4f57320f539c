//! The pupils' own games against the class's machine: each a [`LiveGame`] the lesson's bout
//! plays ply by ply, the pupil's move given, the machine's drawn from its boxes.

use serde::{Deserialize, Serialize};

use super::*;
use crate::learn::bout::{Ply, Reinforced};

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

/// A box the machine drew from in a finished game, and what the game changed in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Learned {
    /// The box's number, from 1, as its label prints it.
    pub number: usize,
    /// The arrow drawn, from 0, in the box's order.
    pub index: usize,
    /// The arrow as the box's label and its holder's phone draw it: in the box's own frame,
    /// which is the board turned or mirrored where the box stands for several positions.
    pub arrow: String,
    /// The move it made on the board in this game.
    pub played: String,
    /// The change in that arrow's beads.
    pub change: i64,
}

impl Learned {
    /// "box 12 b1 +3", or "box 189 c3 (a3 on the board) +3" where the box sees the board
    /// turned.
    pub fn words(&self) -> String {
        match self.arrow == self.played {
            true => format!("box {} {} {:+}", self.number, self.arrow, self.change),
            false => format!(
                "box {} {} ({} on the board) {:+}",
                self.number, self.arrow, self.played, self.change
            ),
        }
    }
}

impl Learned {
    /// What the holder of the box does with its beads after the class's game, in the box's own
    /// words: the arrow as its label prints it ("box 189: add 3 beads to c3").
    pub fn instruction(&self) -> String {
        let (n, arrow) = (self.number, &self.arrow);
        let beads = |k: u64| crate::text::count(k, "bead", "beads");
        match self.change {
            0 => format!("box {n}: leave {arrow} as it is"),
            c if c < 0 => format!("box {n}: take {} of {arrow} out", beads(c.unsigned_abs())),
            c => format!("box {n}: add {} to {arrow}", beads(c as u64)),
        }
    }
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finished {
    /// The result: the pupil's in their own game, the machine's in the class's game.
    pub result: GameResult,
    /// Each box the machine drew from, in the order it drew.
    pub learned: Vec<Learned>,
    /// Why the game ended: "White cannot move", "HER resigns: its box 7 is empty".
    pub why: String,
    /// The plies played.
    pub plies: u32,
    /// The game's number in the lesson's count of finished games (1, 2, 3 as a class counts).
    pub number: u64,
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
        let live = self.bout.new_live();
        self.games.insert(id, ClassGame { pupil, live });
        let mut events = vec![self.event(|seq| Event::Started {
            seq,
            game: id,
            pupil,
        })];
        let over = self.machine_turns(id, &mut events);
        Ok((self.view(id, over), events))
    }

    /// The pupil's game under way, as their page shows it (a page come back after a reload).
    pub fn current_view(&self, pupil: PupilId) -> Option<GameView> {
        let id = self.pupils.get(&pupil)?.game?;
        Some(self.view(id, None))
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
        if !self.bout.waits_for_other(&g.live) {
            return Err(LessonError::NotYourTurn);
        }
        let (gm, pos) = (self.bout.game(), g.live.position());
        let mv = gm.parse_move(pos, text.trim()).map_err(|_| {
            let legal: Vec<String> = (gm.moves(pos).into_iter())
                .map(|m| gm.format_move_at(pos, m))
                .collect();
            LessonError::Illegal {
                text: crate::text::quote(text),
                legal: legal.join(", "),
            }
        })?;
        let written = gm.format_move_at(pos, mv);
        let mut events = vec![self.event(|seq| Event::Moved {
            seq,
            game,
            mv: written,
        })];
        let over = match self.ply_of(game, Choice::Person(mv), &mut events) {
            Some(f) => Some(f),
            None => self.machine_turns(game, &mut events),
        };
        Ok((self.view(game, over), events))
    }

    /// The machine moves while it is its turn; ends the game when it is over. Returns the
    /// finished game, if it ended.
    fn machine_turns(&mut self, id: GameId, events: &mut Vec<Event>) -> Option<Finished> {
        loop {
            let g = self.games.get(&id)?;
            if self.bout.waits_for_other(&g.live) {
                return None;
            }
            if let Some(f) = self.ply_of(id, Choice::Own, events) {
                return Some(f);
            }
        }
    }

    /// One ply of pupil's game `id` played by the bout, its events logged; the game finished
    /// (for the pupil) if it ended.
    fn ply_of(
        &mut self,
        id: GameId,
        choice: Choice<G::Move>,
        events: &mut Vec<Event>,
    ) -> Option<Finished> {
        let mut g = self.games.remove(&id)?;
        let ply = self.bout.ply_in(&mut g.live, choice);
        let ended = ply.and_then(|p| self.log_ply(id, &g.live, p, events));
        match ended {
            None => {
                self.games.insert(id, g);
                None
            }
            Some(r) => {
                let learned = self.learned(&g.live, &r);
                self.count_end(id, &g.live, events, r.result);
                if let Some(p) = self.pupils.get_mut(&g.pupil) {
                    p.game = None;
                    p.score.add(p.score.games + 1, r.result.for_opponent());
                }
                Some(Finished {
                    result: r.result.for_opponent(),
                    learned,
                    why: r.why,
                    plies: g.live.plies(),
                    number: self.curve.len() as u64,
                })
            }
        }
    }

    /// The events of a ply the machine made (its draw, or its resignation) and of the game's
    /// end; the reinforcement, where the ply ended the game.
    pub(super) fn log_ply(
        &mut self,
        game: GameId,
        live: &LiveGame<G>,
        ply: Ply<G::Move>,
        events: &mut Vec<Event>,
    ) -> Option<Reinforced> {
        let machine = ply.side == self.machine().boxes.side();
        match (ply.mv, ply.drawn) {
            (Some(mv), drawn) if machine => {
                let before = &live.history()[live.history().len() - 2];
                let mv = self.game().format_move_at(before, mv);
                let drawn = drawn.and_then(|d| Some((d.box_index, d.arrow?)));
                events.push(self.event(|seq| Event::Drew {
                    seq,
                    game,
                    mv,
                    drawn,
                }));
            }
            (None, Some(d)) if machine => events.push(self.event(|seq| Event::Resigned {
                seq,
                game,
                box_index: d.box_index,
            })),
            _ => {}
        }
        ply.ended
    }

    /// Logs the end of game `id` and keeps it as the game finished last.
    pub(super) fn count_end(
        &mut self,
        id: GameId,
        live: &LiveGame<G>,
        events: &mut Vec<Event>,
        result: GameResult,
    ) {
        let g = self.game();
        let pos = live.position();
        let machine_move = self.machine_move(live);
        self.last_end = Some(LastEnd {
            game: id,
            position: g.format_position(pos),
            board: g.diagram(pos),
            machine_move,
        });
        let last = self.curve.last().copied().unwrap_or(0);
        self.curve.push(last + result.score() as i64);
        events.push(self.event(|seq| Event::Ended {
            seq,
            game: id,
            result,
        }));
    }

    /// The machine's last move in `live`, as the game writes it.
    pub(super) fn machine_move(&self, live: &LiveGame<G>) -> Option<String> {
        let (g, side) = (self.game(), self.machine().boxes.side());
        (live.history().iter().zip(live.moves()))
            .rev()
            .find(|(pos, _)| g.to_move(pos) == side)
            .map(|(pos, &mv)| g.format_move_at(pos, mv))
    }

    /// What each box the machine drew from in `live` learned, named in the box's own frame.
    pub(super) fn learned(&self, live: &LiveGame<G>, r: &Reinforced) -> Vec<Learned> {
        let (g, boxes) = (self.game(), &self.machine().boxes);
        (live.draws().iter())
            .map(|&(b, a, ply)| {
                let at = boxes.position(b);
                let change = (r.changes.iter())
                    .find(|c| c.0 == b && c.1 == a)
                    .map_or(0, |c| c.2);
                let ply = ply as usize;
                Learned {
                    number: b + 1,
                    index: a,
                    arrow: g.format_move_at(&at, boxes.arrows(b)[a]),
                    played: g.format_move_at(&live.history()[ply], live.moves()[ply]),
                    change,
                }
            })
            .collect()
    }

    /// The pupil's view of game `id` (`over` once it has ended).
    pub(super) fn view(&self, id: GameId, over: Option<Finished>) -> GameView {
        let gm = self.game();
        let side = gm.side_name(self.pupil_side()).to_string();
        let Some(g) = self.games.get(&id) else {
            let (position, board, machine_move) = match &self.last_end {
                Some(e) if e.game == id => {
                    (e.position.clone(), e.board.clone(), e.machine_move.clone())
                }
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
        let pos = g.live.position();
        let legal = match self.bout.waits_for_other(&g.live) {
            true => (gm.moves(pos).into_iter())
                .map(|m| gm.format_move_at(pos, m))
                .collect(),
            false => Vec::new(),
        };
        let machine_move = self.machine_move(&g.live);
        GameView {
            game: id,
            side,
            position: gm.format_position(pos),
            board: gm.diagram(pos),
            legal,
            machine_move,
            over,
        }
    }
}
