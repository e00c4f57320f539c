//! "The class is the machine": the teacher deals the machine's boxes out among the pupils, and
//! one game at a time between the machine and the perfect player runs on the projector. When it
//! reaches a box, the pupil who holds it is asked to draw a bead, and taps; the draw is the
//! machine's own seeded draw, so the game and the machine are what they would be without the
//! class, and the log replays them. At the end, each pupil whose box played is told what to take
//! out or add. A box nobody holds (its holder left, or nobody joined) is drawn by the server.

use serde::{Deserialize, Serialize};

use super::*;
use crate::players::{Builtin, Player, Turn};
use crate::rng::Rng;

/// The boxes dealt out, and the class's game.
pub(super) struct Relay<G: Game> {
    /// Each box's holder, by box (from 0).
    pub(super) holders: Vec<Option<PupilId>>,
    opponent: Builtin<G>,
    rng: Rng,
    pub(super) game: Option<RelayGame<G>>,
    /// The class's games as the machine: won, drawn, lost.
    pub(super) score: (u64, u64, u64),
}

impl<G: Game> Relay<G> {
    /// The class's game's opponent from its next move.
    pub(super) fn set_opponent(&mut self, opponent: Builtin<G>) {
        self.opponent = opponent;
    }
}

/// The game the class plays as the machine.
pub(super) struct RelayGame<G: Game> {
    id: GameId,
    pos: G::Position,
    history: Vec<G::Position>,
    plies: u32,
    frame: Sym,
    part: MachineGame,
    /// The moves so far, as written.
    moves: Vec<String>,
    /// The machine's draws: (box, arrow, its move as written).
    drawn: Vec<(usize, usize, String)>,
    /// The box waiting for its holder's tap.
    waiting: Option<usize>,
}

/// The class's game as the projector and the pupils see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RelayView {
    pub game: GameId,
    pub board: Vec<String>,
    /// The moves so far.
    pub moves: Vec<String>,
    /// The box waiting for its holder: its number (from 1) and the pupil.
    pub waiting: Option<(usize, PupilId)>,
    /// How it ended, from the machine's side, and what each box that played learned.
    pub over: Option<Finished>,
}

/// A box a pupil holds, as their phone shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeldBox {
    /// The box's number, from 1.
    pub number: usize,
    /// The machine's move number the box belongs to.
    pub move_number: u16,
    pub board: Vec<String>,
    /// Each arrow's move and beads.
    pub arrows: Vec<(String, u32)>,
}

impl<G: GameDefaults> Lesson<G> {
    /// Deals the machine's boxes out among the pupils here, by move number (box by box in the
    /// order of the machine's moves, round the pupils), so each pupil's boxes come up in most
    /// games. Games under way against the machine are abandoned; no pupil may start one until
    /// the boxes are collected ([`Lesson::collect`]).
    pub fn deal(&mut self) -> Result<Vec<Event>, LessonError> {
        let mut events = Vec::new();
        let under_way: Vec<GameId> = self.games.keys().copied().collect();
        for g in under_way {
            events.push(self.abandon(g));
        }
        let score = self.relay.as_ref().map_or((0, 0, 0), |r| r.score);
        let opponent = match self.relay.take() {
            Some(r) => r.opponent,
            None => self.relay_opponent.player(&self.game)?,
        };
        let boxes = &self.machine.boxes;
        let mut order: Vec<usize> = (0..boxes.len()).collect();
        order.sort_by_key(|&b| (boxes.move_number(b), b));
        let pupils: Vec<PupilId> = self.pupils.keys().copied().collect();
        let mut holders = vec![None; boxes.len()];
        if !pupils.is_empty() {
            for (i, b) in order.into_iter().enumerate() {
                holders[b] = Some(pupils[i % pupils.len()]);
            }
        }
        let rng = rng_from_seed(derive_seed(self.machine.seed, 0x0072_656c_6179));
        self.relay = Some(Relay {
            holders,
            opponent,
            rng,
            game: None,
            score,
        });
        events.push(self.event(|seq| Event::Dealt { seq }));
        Ok(events)
    }

    /// Collects the boxes back: the class plays the machine again. A class game under way is
    /// abandoned, no box changed.
    pub fn collect(&mut self) -> Result<Vec<Event>, LessonError> {
        let relay = self.relay.take().ok_or(LessonError::NotDealt)?;
        let mut events = Vec::new();
        if let Some(g) = relay.game {
            events.push(self.event(|seq| Event::Abandoned { seq, game: g.id }));
        }
        events.push(self.event(|seq| Event::Collected { seq }));
        Ok(events)
    }

    /// Whether the boxes are dealt out (the class is the machine).
    pub fn dealt(&self) -> bool {
        self.relay.is_some()
    }

    /// Whether the class's game is under way.
    pub fn relay_under_way(&self) -> bool {
        self.relay.as_ref().is_some_and(|r| r.game.is_some())
    }

    /// Who holds box `b` (from 0), while the boxes are dealt.
    pub fn holder(&self, b: usize) -> Option<PupilId> {
        self.relay.as_ref()?.holders.get(b).copied().flatten()
    }

    /// The class's score as the machine: won, drawn, lost.
    pub fn relay_score(&self) -> (u64, u64, u64) {
        self.relay.as_ref().map_or((0, 0, 0), |r| r.score)
    }

    /// Starts the class's game on the projector: the machine against the perfect player, until
    /// the first box that a pupil holds.
    pub fn relay_start(&mut self) -> Result<(RelayView, Vec<Event>), LessonError> {
        let relay = self.relay.as_mut().ok_or(LessonError::NotDealt)?;
        if let Some(g) = &relay.game {
            return Err(LessonError::GameUnderWay(g.id));
        }
        let id = self.next_game;
        self.next_game += 1;
        let start = self.game.start();
        relay.game = Some(RelayGame {
            id,
            pos: start.clone(),
            history: vec![start],
            plies: 0,
            frame: Sym::IDENTITY,
            part: MachineGame::default(),
            moves: Vec::new(),
            drawn: Vec::new(),
            waiting: None,
        });
        let mut events = vec![self.event(|seq| Event::RelayStarted { seq, game: id })];
        let over = self.relay_turns(&mut events);
        Ok((self.relay_view(over), events))
    }

    /// The pupil draws a bead from the box waiting for them: the machine's seeded draw, then
    /// the game goes on to the next box a pupil holds (or its end).
    pub fn draw(&mut self, pupil: PupilId) -> Result<(RelayView, Vec<Event>), LessonError> {
        let relay = self.relay.as_ref().ok_or(LessonError::NotDealt)?;
        let g = relay.game.as_ref().ok_or(LessonError::NotYourBox)?;
        let waiting = g.waiting.ok_or(LessonError::NotYourBox)?;
        if relay.holders.get(waiting).copied().flatten() != Some(pupil) {
            return Err(LessonError::NotYourBox);
        }
        let game = g.id;
        let mut events = vec![self.event(|seq| Event::Tapped { seq, game, pupil })];
        let over = match self.relay_draw(&mut events) {
            Some(f) => Some(f),
            None => self.relay_turns(&mut events),
        };
        Ok((self.relay_view(over), events))
    }

    /// The class's game as it stands (`over` once it has ended).
    pub fn relay_view(&self, over: Option<Finished>) -> RelayView {
        let g = self.relay.as_ref().and_then(|r| r.game.as_ref());
        let (game, board, moves, waiting) = match (g, &self.last_end) {
            (Some(g), _) => (
                g.id,
                self.game.diagram(&g.pos),
                g.moves.clone(),
                g.waiting.and_then(|b| Some((b + 1, self.holder(b)?))),
            ),
            (None, Some((id, _, board, _))) => (*id, board.clone(), Vec::new(), None),
            (None, None) => (0, self.game.diagram(&self.game.start()), Vec::new(), None),
        };
        RelayView {
            game,
            board,
            moves,
            waiting,
            over,
        }
    }

    /// The boxes `pupil` holds, with their beads now.
    pub fn held(&self, pupil: PupilId) -> Vec<HeldBox> {
        let Some(relay) = &self.relay else {
            return Vec::new();
        };
        (relay.holders.iter().enumerate())
            .filter(|(_, h)| **h == Some(pupil))
            .map(|(b, _)| self.box_view(b))
            .collect()
    }

    /// Box `b` (from 0) as a phone or the projector shows it: its position and each arrow's
    /// move and beads now.
    pub fn box_view(&self, b: usize) -> HeldBox {
        let boxes = &self.machine.boxes;
        let pos = boxes.position(b);
        let beads = self.machine.beads_in(b);
        HeldBox {
            number: b + 1,
            move_number: boxes.move_number(b),
            board: self.game.diagram(&pos),
            arrows: (boxes.arrows(b).iter().zip(beads))
                .map(|(&mv, n)| (self.game.format_move_at(&pos, mv), n.get()))
                .collect(),
        }
    }

    /// A pupil leaves while the boxes are dealt: their boxes are held by nobody (the server
    /// draws them), and a box waiting for them is drawn now.
    pub(super) fn relay_leave(&mut self, pupil: PupilId, events: &mut Vec<Event>) {
        let Some(relay) = &mut self.relay else {
            return;
        };
        for h in relay.holders.iter_mut().filter(|h| **h == Some(pupil)) {
            *h = None;
        }
        let waiting = relay.game.as_ref().and_then(|g| g.waiting);
        if waiting.is_some() && self.relay_draw(events).is_none() {
            self.relay_turns(events);
        }
    }

    /// Plays on until a box a pupil holds is reached or the game ends.
    fn relay_turns(&mut self, events: &mut Vec<Event>) -> Option<Finished> {
        let side = self.machine.boxes.side();
        loop {
            let relay = self.relay.as_mut()?;
            let g = relay.game.as_mut()?;
            if let Some(o) = self.game.outcome(&g.pos) {
                let result = crate::learn::lazy::result_for(o.winner, side);
                return Some(self.relay_finish(result, events));
            }
            if self.game.to_move(&g.pos) != side {
                let turn = Turn {
                    ply: g.plies,
                    history: &g.history,
                    rng: &mut relay.rng,
                };
                let Some(mv) = relay.opponent.choose(&self.game, &g.pos, turn) else {
                    return Some(self.relay_finish(GameResult::Win, events));
                };
                let written = self.game.format_move_at(&g.pos, mv);
                let id = g.id;
                self.relay_advance(mv, written.clone());
                events.push(self.event(|seq| Event::Answered {
                    seq,
                    game: id,
                    mv: written,
                }));
                continue;
            }
            let held = (self.machine.box_opened_in(&self.game, &g.pos, g.frame))
                .and_then(|b| Some((b, relay.holders.get(b).copied().flatten()?)));
            if let Some((b, pupil)) = held {
                g.waiting = Some(b);
                let game = g.id;
                events.push(self.event(|seq| Event::Waiting {
                    seq,
                    game,
                    box_index: b,
                    pupil,
                }));
                return None;
            }
            if let Some(f) = self.relay_draw(events) {
                return Some(f);
            }
        }
    }

    /// The machine draws in the class's game (where a pupil tapped, or for a box nobody holds).
    fn relay_draw(&mut self, events: &mut Vec<Event>) -> Option<Finished> {
        let relay = self.relay.as_mut()?;
        let g = relay.game.as_mut()?;
        g.waiting = None;
        let pos = g.pos.clone();
        let id = g.id;
        match (self.machine).choose(&self.game, &pos, g.plies, g.frame, &mut g.part) {
            MachineMove::Move { mv, drawn } => {
                let written = self.game.format_move_at(&pos, mv);
                if let Some((b, a)) = drawn {
                    g.drawn.push((b, a, written.clone()));
                }
                self.relay_advance(mv, written.clone());
                events.push(self.event(|seq| Event::Drew {
                    seq,
                    game: id,
                    mv: written,
                    drawn,
                }));
                None
            }
            MachineMove::Resign { box_index } => {
                events.push(self.event(|seq| Event::Resigned {
                    seq,
                    game: id,
                    box_index,
                }));
                Some(self.relay_finish(GameResult::Loss, events))
            }
        }
    }

    /// Plays `mv` (written `written`) in the class's game.
    fn relay_advance(&mut self, mv: G::Move, written: String) {
        let mode = self.machine.boxes.mode();
        if let Some(g) = self.relay.as_mut().and_then(|r| r.game.as_mut()) {
            g.pos = self.game.play(&g.pos, mv);
            g.history.push(g.pos.clone());
            g.plies += 1;
            g.frame = mode.frame_after(&self.game, g.plies, &g.pos, g.frame);
            g.moves.push(written);
        }
    }

    /// Ends the class's game with the machine's `result`: the machine reinforced, what each box
    /// learned (the result in [`Finished`] is the machine's).
    fn relay_finish(&mut self, result: GameResult, events: &mut Vec<Event>) -> Finished {
        let Some(g) = self.relay.as_mut().and_then(|r| r.game.take()) else {
            return Finished {
                result,
                learned: Vec::new(),
            };
        };
        let learned = self.learn_from(g.id, &g.pos, &g.drawn, &g.part, result);
        if let Some(r) = &mut self.relay {
            match result {
                GameResult::Win => r.score.0 += 1,
                GameResult::Draw => r.score.1 += 1,
                GameResult::Loss => r.score.2 += 1,
            }
        }
        events.push(self.event(|seq| Event::Ended {
            seq,
            game: g.id,
            result,
        }));
        Finished { result, learned }
    }
}
