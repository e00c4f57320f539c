//! "The class is the machine": the teacher deals the machine's boxes out among the pupils, and
//! one game at a time between the machine and its opponent runs on the projector. When it
//! reaches a box, the pupil who holds it is asked to draw a bead, and taps; the draw is the
//! machine's own seeded draw, so the game and the machine are what they would be without the
//! class (the same games as `train`'s), and the log replays them. At the end, each pupil whose
//! box played is told what to take out or add, in the box's own words (its label's arrows).
//! A pupil who joins late is dealt boxes; a leaver's boxes are dealt again; a box nobody holds
//! is drawn by the server, and the teacher may draw for a pupil who does not tap.

use serde::{Deserialize, Serialize};

use super::*;

/// The boxes dealt out, and the class's game.
pub(super) struct Relay<G: Game> {
    /// Each box's holder, by box (from 0).
    pub(super) holders: Vec<Option<PupilId>>,
    /// The order boxes are dealt in: by move number, then number.
    order: Vec<usize>,
    pub(super) game: Option<RelayGame<G>>,
    /// The class's games as the machine.
    pub(super) score: Score,
}

/// The game the class plays as the machine.
pub(super) struct RelayGame<G: Game> {
    id: GameId,
    live: LiveGame<G>,
    /// The moves so far, as written.
    moves: Vec<String>,
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

/// A box a pupil holds, as their phone shows it: in the box's own frame, as its label prints it.
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
    /// the boxes are collected ([`Lesson::collect`]). Refused with no pupil here.
    pub fn deal(&mut self) -> Result<Vec<Event>, LessonError> {
        let pupils = self.present();
        if pupils.is_empty() {
            return Err(LessonError::NobodyToDeal);
        }
        let mut events = Vec::new();
        let under_way: Vec<GameId> = self.games.keys().copied().collect();
        for g in under_way {
            events.push(self.abandon(g));
        }
        let score = self.relay.take().map_or_else(Score::default, |r| r.score);
        let boxes = &self.machine().boxes;
        let mut order: Vec<usize> = (0..boxes.len()).collect();
        order.sort_by_key(|&b| (boxes.move_number(b), b));
        let mut holders = vec![None; boxes.len()];
        for (i, &b) in order.iter().enumerate() {
            holders[b] = Some(pupils[i % pupils.len()]);
        }
        self.relay = Some(Relay {
            holders,
            order,
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

    /// The class's results as the machine.
    pub fn relay_score(&self) -> Score {
        self.relay.as_ref().map_or_else(Score::default, |r| r.score)
    }

    /// Starts the class's game on the projector: the machine against its opponent, until the
    /// first box that a pupil holds.
    pub fn relay_start(&mut self) -> Result<(RelayView, Vec<Event>), LessonError> {
        let relay = self.relay.as_ref().ok_or(LessonError::NotDealt)?;
        if let Some(g) = &relay.game {
            return Err(LessonError::GameUnderWay(g.id));
        }
        let id = self.next_game;
        self.next_game += 1;
        let live = self.bout.new_live();
        if let Some(r) = &mut self.relay {
            r.game = Some(RelayGame {
                id,
                live,
                moves: Vec::new(),
                waiting: None,
            });
        }
        let mut events = vec![self.event(|seq| Event::RelayStarted { seq, game: id })];
        let over = self.relay_turns(&mut events);
        Ok((self.relay_view(over), events))
    }

    /// The pupil draws a bead from the box waiting for them: the machine's seeded draw, then
    /// the game goes on to the next box a pupil holds (or its end).
    pub fn draw(&mut self, pupil: PupilId) -> Result<(RelayView, Vec<Event>), LessonError> {
        let (game, holder) = self.waiting_for().ok_or(LessonError::NotYourBox)?;
        if holder != pupil {
            return Err(LessonError::NotYourBox);
        }
        let mut events = vec![self.event(|seq| Event::Tapped { seq, game, pupil })];
        let over = self.relay_turns_from_tap(&mut events);
        Ok((self.relay_view(over), events))
    }

    /// The box waiting for a pupil's tap drawn for them (the teacher's "draw for them", or the
    /// time for a tap run out): the same draw as their tap.
    pub fn draw_for_holder(&mut self) -> Result<(RelayView, Vec<Event>), LessonError> {
        let (game, pupil) = self.waiting_for().ok_or(LessonError::NotYourBox)?;
        let mut events = vec![self.event(|seq| Event::DrawnFor { seq, game, pupil })];
        let over = self.relay_turns_from_tap(&mut events);
        Ok((self.relay_view(over), events))
    }

    /// The class's game and the pupil its waiting box waits for, if one does.
    pub fn waiting_for(&self) -> Option<(GameId, PupilId)> {
        let g = self.relay.as_ref()?.game.as_ref()?;
        Some((g.id, self.holder(g.waiting?)?))
    }

    /// After a tap: the waiting box drawn, and the game on to the next box a pupil holds.
    fn relay_turns_from_tap(&mut self, events: &mut Vec<Event>) -> Option<Finished> {
        if let Some(g) = self.relay.as_mut().and_then(|r| r.game.as_mut()) {
            g.waiting = None;
        }
        match self.relay_ply(events) {
            Step::Ended(f) => Some(f),
            Step::Played => self.relay_turns(events),
            Step::Stuck => None,
        }
    }

    /// The class's game as it stands (`over` once it has ended).
    pub fn relay_view(&self, over: Option<Finished>) -> RelayView {
        let g = self.relay.as_ref().and_then(|r| r.game.as_ref());
        let (game, board, moves, waiting) = match (g, &self.last_end) {
            (Some(g), _) => (
                g.id,
                self.game().diagram(g.live.position()),
                g.moves.clone(),
                g.waiting.and_then(|b| Some((b + 1, self.holder(b)?))),
            ),
            (None, Some(e)) => (e.game, e.board.clone(), Vec::new(), None),
            (None, None) => (
                0,
                self.game().diagram(&self.game().start()),
                Vec::new(),
                None,
            ),
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
    /// move and beads now, in the box's own frame.
    pub fn box_view(&self, b: usize) -> HeldBox {
        let boxes = &self.machine().boxes;
        let pos = boxes.position(b);
        let beads = self.machine().beads_in(b);
        HeldBox {
            number: b + 1,
            move_number: boxes.move_number(b),
            board: self.game().diagram(&pos),
            arrows: (boxes.arrows(b).iter().zip(beads))
                .map(|(&mv, n)| (self.game().format_move_at(&pos, mv), n.get()))
                .collect(),
        }
    }
}

/// What one ply of the class's game did.
enum Step {
    Played,
    Ended(Finished),
    /// Nothing could be played (no game, or it waits for a move nobody gives).
    Stuck,
}

impl<G: GameDefaults> Lesson<G> {
    /// A pupil joins while the boxes are dealt: boxes nobody holds go to them, then boxes from
    /// the pupils who hold the most, until theirs is a fair share (none, where the class has
    /// more pupils than the machine has boxes: they watch). A box waiting for a tap stays with
    /// its holder.
    pub(super) fn relay_join(&mut self, pupil: PupilId) {
        let here = self.present();
        let Some(relay) = &mut self.relay else {
            return;
        };
        let waiting = relay.game.as_ref().and_then(|g| g.waiting);
        for &b in &relay.order {
            if relay.holders[b].is_none_or(|h| !here.contains(&h)) {
                relay.holders[b] = Some(pupil);
            }
        }
        loop {
            let mut counts: BTreeMap<PupilId, usize> = BTreeMap::new();
            for h in relay.holders.iter().flatten() {
                *counts.entry(*h).or_default() += 1;
            }
            let mine = counts.get(&pupil).copied().unwrap_or(0);
            // The holder of the most boxes (the first such, by number).
            let Some((&most, &n)) = counts.iter().rev().max_by_key(|(_, n)| **n) else {
                break;
            };
            if most == pupil || n <= mine + 1 {
                break;
            }
            // Their last box in the order of dealing, not one waiting for a tap.
            let given = (relay.order.iter().rev())
                .find(|&&b| relay.holders[b] == Some(most) && Some(b) != waiting);
            match given {
                Some(&b) => relay.holders[b] = Some(pupil),
                None => break,
            }
        }
    }

    /// A pupil leaves while the boxes are dealt: their boxes are dealt again among the pupils
    /// here, to those who hold fewest (the server draws them if nobody is here); a box that
    /// waited for them waits for its new holder, or is drawn now.
    pub(super) fn relay_leave(&mut self, pupil: PupilId, events: &mut Vec<Event>) {
        let pupils: Vec<PupilId> = (self.present().into_iter())
            .filter(|&p| p != pupil)
            .collect();
        let Some(relay) = &mut self.relay else {
            return;
        };
        let mut counts: BTreeMap<PupilId, usize> = pupils.iter().map(|&p| (p, 0)).collect();
        if counts.is_empty() {
            // Nobody here: the leaver keeps them until someone is (the server draws meanwhile).
            return self.draw_if_waiting_for(pupil, events);
        }
        for h in relay.holders.iter().flatten() {
            if let Some(n) = counts.get_mut(h) {
                *n += 1;
            }
        }
        for &b in &relay.order {
            if relay.holders[b] != Some(pupil) {
                continue;
            }
            let fewest = counts.iter().min_by_key(|(_, n)| **n).map(|(&p, _)| p);
            relay.holders[b] = fewest;
            if let Some(p) = fewest {
                *counts.entry(p).or_default() += 1;
            }
        }
        let Some(g) = relay.game.as_ref() else {
            return;
        };
        let (game, waiting) = (g.id, g.waiting);
        match waiting.map(|b| (b, relay.holders[b])) {
            Some((box_index, Some(pupil))) => events.push(self.event(|seq| Event::Waiting {
                seq,
                game,
                box_index,
                pupil,
            })),
            Some((_, None)) => {
                self.relay_turns_from_tap(events);
            }
            None => {}
        }
    }

    /// With nobody here to hold the boxes: a box waiting for `pupil` is drawn by the server.
    fn draw_if_waiting_for(&mut self, pupil: PupilId, events: &mut Vec<Event>) {
        if self.waiting_for().is_some_and(|(_, p)| p == pupil) {
            self.relay_turns_from_tap(events);
        }
    }

    /// Plays on until a box a pupil holds is reached or the game ends.
    fn relay_turns(&mut self, events: &mut Vec<Event>) -> Option<Finished> {
        loop {
            let relay = self.relay.as_ref()?;
            let g = relay.game.as_ref()?;
            if self.bout.learner_to_move(&g.live) {
                let (live, gm) = (&g.live, self.game());
                let opened = self
                    .machine()
                    .box_opened_in(gm, live.position(), live.frame());
                if let Some((b, pupil)) = opened.and_then(|b| Some((b, self.holder(b)?))) {
                    let game = g.id;
                    if let Some(g) = self.relay.as_mut().and_then(|r| r.game.as_mut()) {
                        g.waiting = Some(b);
                    }
                    events.push(self.event(|seq| Event::Waiting {
                        seq,
                        game,
                        box_index: b,
                        pupil,
                    }));
                    return None;
                }
            }
            match self.relay_ply(events) {
                Step::Played => {}
                Step::Ended(f) => return Some(f),
                Step::Stuck => return None,
            }
        }
    }

    /// One ply of the class's game, played by the lesson's bout: the machine's draw (where a
    /// pupil tapped, or for a box nobody holds) or its opponent's move; the end if it came.
    fn relay_ply(&mut self, events: &mut Vec<Event>) -> Step {
        let Some(mut g) = self.relay.as_mut().and_then(|r| r.game.take()) else {
            return Step::Stuck;
        };
        let Some(ply) = self.bout.ply_in(&mut g.live, Choice::Own) else {
            self.put_back(g);
            return Step::Stuck;
        };
        let machine = ply.side == self.machine().boxes.side();
        if let Some(mv) = ply.mv {
            let before = &g.live.history()[g.live.history().len() - 2];
            let written = self.game().format_move_at(before, mv);
            g.moves.push(written.clone());
            if !machine {
                let game = g.id;
                events.push(self.event(|seq| Event::Answered {
                    seq,
                    game,
                    mv: written,
                }));
            }
        }
        let Some(r) = self.log_ply(g.id, &g.live, ply, events) else {
            self.put_back(g);
            return Step::Played;
        };
        let learned = self.learned(&g.live, &r);
        self.count_end(g.id, &g.live, events, r.result);
        if let Some(relay) = &mut self.relay {
            relay.score.add(relay.score.games + 1, r.result);
        }
        Step::Ended(Finished {
            result: r.result,
            learned,
            why: r.why,
            plies: g.live.plies(),
            number: self.curve.len() as u64,
        })
    }

    fn put_back(&mut self, g: RelayGame<G>) {
        if let Some(r) = &mut self.relay {
            r.game = Some(g);
        }
    }
}
