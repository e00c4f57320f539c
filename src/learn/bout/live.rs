//! The game played ply by ply, from positions — the one place a game is played a ply at a time,
//! for every front end: a bout's own game (the screens, `film`, `replay`), each pupil's game in
//! a class lesson, and the class's game where the pupils are the machine. The learner's draw,
//! the opponent's move, the ply limit, the box's frame, the end and its reinforcement are all
//! decided here; the lesson holds [`LiveGame`]s of its own and plays them with
//! [`Bout::ply_in`].

use crate::game::{Side, Sym, capitalised};
use crate::learn::ends::End;
use crate::learn::lazy::{self};
use crate::learn::{GameDefaults, GameResult, MachineGame, MachineMove};
use crate::players::{Player, Turn};

use super::*;

/// Who chooses the ply about to be played: the bout itself (the learner's draw, the opponent's
/// move), a person (a pupil, a visitor), or a record (the move, and the learner's bead already
/// taken for it).
pub enum Choice<M> {
    Own,
    Person(M),
    Recorded(Option<M>, Option<Drawn>),
}

/// A game under way, played ply by ply from positions: a bout holds one, a lesson one a pupil.
pub struct LiveGame<G: Game> {
    pos: G::Position,
    history: Vec<G::Position>,
    moves: Vec<G::Move>,
    plies: u32,
    frame: Sym,
    part: MachineGame,
    /// The learner's draws: (box, arrow, the ply it was drawn at).
    drawn: Vec<(usize, usize, u32)>,
    over: bool,
}

impl<G: Game> LiveGame<G> {
    fn new(game: &G) -> LiveGame<G> {
        let pos = game.start();
        LiveGame {
            history: vec![pos.clone()],
            pos,
            moves: Vec::new(),
            plies: 0,
            frame: Sym::IDENTITY,
            part: MachineGame::default(),
            drawn: Vec::new(),
            over: false,
        }
    }
    /// The position now.
    pub fn position(&self) -> &G::Position {
        &self.pos
    }
    /// The positions from the start; the last is the one now.
    pub fn history(&self) -> &[G::Position] {
        &self.history
    }
    /// The moves played, one a ply.
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }
    pub fn plies(&self) -> u32 {
        self.plies
    }
    /// How the learner's boxes see the board now (the symmetry of its fixed frame, if any).
    pub fn frame(&self) -> Sym {
        self.frame
    }
    /// The learner's draws so far: (box, arrow, the ply it was drawn at).
    pub fn draws(&self) -> &[(usize, usize, u32)] {
        &self.drawn
    }
    /// Whether the game has ended (and the learner was reinforced).
    pub fn is_over(&self) -> bool {
        self.over
    }
}

impl<G: GameDefaults> Bout<G> {
    /// Whether a game is under way, played ply by ply.
    pub fn in_game(&self) -> bool {
        self.live.is_some()
    }
    /// The position of the game under way.
    pub fn position(&self) -> Option<&G::Position> {
        self.live.as_ref().map(|l| &l.pos)
    }
    /// The box of the learner's copy it would open in the game under way, if it is to move and
    /// has one there (nothing drawn).
    pub fn box_here(&self) -> Option<usize> {
        let live = self.live.as_ref()?;
        (self.learner_to_move(live))
            .then(|| (self.learner).box_opened_in(&self.game, &live.pos, live.frame))
            .flatten()
    }
    /// The frame the learner sees the game under way in (how its boxes are turned from the
    /// board).
    pub fn frame(&self) -> Sym {
        self.live.as_ref().map_or(Sym::IDENTITY, |l| l.frame)
    }
    /// Plies played in the game under way.
    pub fn plies(&self) -> u32 {
        self.live.as_ref().map_or(0, |l| l.plies)
    }

    /// Starts a game to be played ply by ply (the opponent asked for takes over first).
    pub fn begin(&mut self) {
        if self.live.is_none() {
            self.live = Some(self.new_live());
        }
    }

    /// A new game to play with [`Bout::ply_in`], beside the bout's own (a lesson plays many at
    /// once against one learner); the opponent asked for takes over first.
    pub fn new_live(&mut self) -> LiveGame<G> {
        if let Some(k) = self.pending.take() {
            // An opponent that cannot be had leaves the one playing.
            let _ = self.switch(k);
        }
        LiveGame::new(&self.game)
    }

    /// Whether the learner is to draw in `live`: not over, not at its end by the rules or the
    /// ply limit, the learner's turn.
    pub fn learner_to_move(&self, live: &LiveGame<G>) -> bool {
        let g = &self.game;
        !live.over
            && g.outcome(&live.pos).is_none()
            && g.ply_limit().is_none_or(|l| live.plies < l)
            && g.to_move(&live.pos) == self.learner.boxes.side()
    }

    /// Whether `live` waits for a move from the learner's other side (a person, a pupil, a
    /// record): not over, not at its end by the rules or the ply limit, not the learner's turn.
    pub fn waits_for_other(&self, live: &LiveGame<G>) -> bool {
        let g = &self.game;
        !live.over
            && g.outcome(&live.pos).is_none()
            && g.ply_limit().is_none_or(|l| live.plies < l)
            && g.to_move(&live.pos) != self.learner.boxes.side()
    }

    /// The legal moves of the person to move, in the order [`Bout::person_move`] takes them, or
    /// `None` when it is not a person's turn.
    pub fn person_options(&self) -> Option<Vec<G::Move>> {
        let live = self.live.as_ref()?;
        let g = &self.game;
        let turn = matches!(self.opposition, Opposition::Person)
            && g.outcome(&live.pos).is_none()
            && g.to_move(&live.pos) != self.learner.boxes.side();
        turn.then(|| g.moves(&live.pos))
    }

    /// The learner's result if the game under way is over.
    pub(super) fn over(&self, pos: &G::Position) -> Option<GameResult> {
        let outcome = self.game.outcome(pos)?;
        Some(lazy::result_for(outcome.winner, self.learner.boxes.side()))
    }

    /// Plays one ply of the game under way (starting one if none is): the learner's, or its
    /// opponent's. A person's turn plays nothing (`None`): [`Bout::person_move`] plays it.
    pub fn ply(&mut self) -> Option<Ply<G::Move>> {
        self.ply_with(Choice::Own)
    }

    /// The person's move (a legal move of the position): `None` when it is not a person's turn
    /// or the move is not legal.
    pub fn person_move(&mut self, mv: G::Move) -> Option<Ply<G::Move>> {
        let legal = self.person_options()?.contains(&mv);
        legal.then(|| self.ply_with(Choice::Person(mv))).flatten()
    }

    /// Plays a ply as a record gives it (a lesson's log, played again): `Some(mv)` for the side
    /// to move (the learner's bead the one that stands for `mv` in its box, whatever the box
    /// holds now), `None` where the learner resigned. `Err` when `mv` is not legal, or is not a
    /// move the learner's box has: no move is played, and the record should stop there (the
    /// learner's count of its own plies in this game has moved on).
    pub fn recorded_ply(&mut self, mv: Option<G::Move>) -> Result<Ply<G::Move>, String> {
        self.begin();
        let live = self.live.as_ref().ok_or("no game")?;
        let (g, pos) = (&self.game, &live.pos);
        if g.outcome(pos).is_some() || g.ply_limit().is_some_and(|l| live.plies >= l) {
            return Err("a move after the game's end".into());
        }
        let learner = g.to_move(pos) == self.learner.boxes.side();
        let mut live = self.live.take().ok_or("no game")?;
        let drawn = match mv {
            Some(m) if !g.moves(&live.pos).contains(&m) => Err(format!(
                "{} is not legal here",
                g.format_move_at(&live.pos, m)
            )),
            Some(m) if learner => self.learner_given(&mut live, m),
            None if !learner => Err("a resignation where the machine is not to move".into()),
            _ => Ok(None),
        };
        self.live = Some(live);
        let drawn = drawn?;
        (self.ply_with(Choice::Recorded(mv, drawn))).ok_or_else(|| "no ply could be played".into())
    }

    /// A ply of the bout's own game (begun if none is); the game is dropped once it ends.
    pub(super) fn ply_with(&mut self, choice: Choice<G::Move>) -> Option<Ply<G::Move>> {
        self.begin();
        let mut live = self.live.take()?;
        let ply = self.ply_in(&mut live, choice);
        if !live.over {
            self.live = Some(live);
        }
        ply
    }

    /// Plays one ply of `live`: the end (by the rules or the game's ply limit) if it has come,
    /// else the move `choice` asks for — the learner's draw on its turn, the opponent's or the
    /// person's move on the other — and the end that move makes. `None` when nothing can be
    /// played: the game is over, or a person is to move and `choice` gives no move.
    pub fn ply_in(
        &mut self,
        live: &mut LiveGame<G>,
        choice: Choice<G::Move>,
    ) -> Option<Ply<G::Move>> {
        if live.over {
            return None;
        }
        let side = self.game.to_move(&live.pos);
        let mut ply = Ply {
            side,
            mv: None,
            drawn: None,
            rival_box: None,
            ended: None,
        };
        if let Some(r) = self.over(&live.pos) {
            let why = self.why_over(&live.pos);
            ply.ended = Some(self.finish_in(live, r, why));
            return Some(ply);
        }
        if let Some(limit) = self.game.ply_limit().filter(|&l| live.plies >= l) {
            let why = (format!("{limit} plies without an end: a draw"), End::Limit);
            ply.ended = Some(self.finish_in(live, GameResult::Draw, why));
            return Some(ply);
        }
        let learner = side == self.learner.boxes.side();
        let chosen = match (learner, choice) {
            (_, Choice::Recorded(mv, drawn)) => {
                ply.drawn = drawn;
                mv
            }
            (true, _) => self.learner_ply(live, &mut ply),
            (false, Choice::Person(mv)) => Some(mv),
            (false, _) if matches!(self.opposition, Opposition::Person) => return None,
            (false, _) => self.opponent_ply(live, &mut ply),
        };
        let Some(mv) = chosen else {
            // The side to move resigned: the learner's empty box, or a player with no move.
            let r = if learner {
                GameResult::Loss
            } else {
                GameResult::Win
            };
            let why = (self.why_resigned(side, &ply), End::Resigned(side));
            ply.ended = Some(self.finish_in(live, r, why));
            return Some(ply);
        };
        ply.mv = Some(mv);
        live.pos = self.game.play(&live.pos, mv);
        live.moves.push(mv);
        live.plies += 1;
        let mode = self.learner.boxes.mode();
        live.frame = mode.frame_after(&self.game, live.plies, &live.pos, live.frame);
        live.history.push(live.pos.clone());
        // A game that has just ended is finished at once (this draws nothing).
        let pos = live.pos.clone();
        if let Some(r) = self.over(&pos) {
            let why = self.why_over(&pos);
            ply.ended = Some(self.finish_in(live, r, why));
        }
        Some(ply)
    }

    /// Why a game that reached `pos` ended, by the rules: in words, and its kind.
    pub(super) fn why_over(&self, pos: &G::Position) -> (String, End<G::Reason>) {
        match self.game.outcome(pos) {
            Some(o) => (self.game.end_words(pos, &o), End::Rules(o.winner, o.reason)),
            None => (String::new(), End::Limit),
        }
    }

    /// Why a game ended where `side` was to move and made no move: the machine resigns, its box
    /// empty.
    pub(super) fn why_resigned(&self, side: Side, ply: &Ply<G::Move>) -> String {
        let g = &self.game;
        let who = match (side == self.learner.boxes.side(), &self.opposition) {
            (true, _) => capitalised(&g.machine_name(side, self.learner.boxes.mode()).to_string()),
            (false, Opposition::Rival(r)) => {
                capitalised(&g.machine_name(side, r.machine.boxes.mode()).to_string())
            }
            (false, _) => capitalised(g.side_name(side)),
        };
        match ply.drawn {
            Some(Drawn {
                box_index,
                arrow: None,
            }) => format!("{who} resigns: its box {} is empty", box_index + 1),
            _ => format!("{who} resigns: its box for this position is empty"),
        }
    }

    /// The learner's move in `live` (its stand-in's, if it has one); `None`: it resigns.
    fn learner_ply(&mut self, live: &mut LiveGame<G>, ply: &mut Ply<G::Move>) -> Option<G::Move> {
        let g = &self.game;
        if let Some(stand_in) = &mut self.stand_in {
            let turn = Turn {
                ply: live.plies,
                history: &live.history,
                rng: &mut self.learner.rng,
            };
            return stand_in.choose(g, &live.pos, turn);
        }
        match self
            .learner
            .choose(g, &live.pos, live.plies, live.frame, &mut live.part)
        {
            MachineMove::Move { mv, drawn } => {
                if let Some((b, a)) = drawn {
                    ply.drawn = Some(Drawn {
                        box_index: b,
                        arrow: Some(a),
                    });
                    live.drawn.push((b, a, live.plies));
                }
                Some(mv)
            }
            MachineMove::Resign { box_index } => {
                ply.drawn = Some(Drawn {
                    box_index,
                    arrow: None,
                });
                None
            }
        }
    }

    /// The learner's move `mv` in `live` as a record gives it: the bead that stands for it
    /// taken as drawn (`None`: a forced move, no bead). `Err` when its box has no such arrow.
    fn learner_given(
        &mut self,
        live: &mut LiveGame<G>,
        mv: G::Move,
    ) -> Result<Option<Drawn>, String> {
        let g = &self.game;
        let part = &mut live.part;
        match (self.learner).choose_given(g, &live.pos, live.plies, live.frame, part, mv) {
            Some(Some((b, a))) => {
                live.drawn.push((b, a, live.plies));
                Ok(Some(Drawn {
                    box_index: b,
                    arrow: Some(a),
                }))
            }
            Some(None) => Ok(None),
            None => Err(format!(
                "the machine's box here has no arrow for {}",
                g.format_move_at(&live.pos, mv)
            )),
        }
    }

    /// The opponent's move in `live`; `None`: it resigns.
    fn opponent_ply(&mut self, live: &mut LiveGame<G>, ply: &mut Ply<G::Move>) -> Option<G::Move> {
        let g = &self.game;
        let turn = Turn {
            ply: live.plies,
            history: &live.history,
            rng: &mut self.learner.rng,
        };
        match &mut self.opposition {
            Opposition::Player(p) => p.choose(g, &live.pos, turn),
            Opposition::Rival(r) => {
                let before = r.game.played.len();
                let mv = r.choose(g, &live.pos, turn);
                if r.game.played.len() > before
                    && let Some(&(base, _)) = r.game.played.last()
                {
                    ply.rival_box = Some(r.machine.boxes.box_at_bead(base as usize));
                }
                mv
            }
            Opposition::Person => None,
        }
    }

    /// Ends `live` with `result`: reinforces both machines, counts it, and says what changed.
    fn finish_in(
        &mut self,
        live: &mut LiveGame<G>,
        result: GameResult,
        (why, end): (String, End<G::Reason>),
    ) -> Reinforced {
        self.ends.add(&end.name(&self.game), 1);
        live.over = true;
        let mut boxes: Vec<usize> = live.drawn.iter().map(|&(b, _, _)| b).collect();
        boxes.sort_unstable();
        boxes.dedup();
        let before: Vec<Vec<u32>> = boxes
            .iter()
            .map(|&b| self.learner.beads_in(b).iter().map(|x| x.get()).collect())
            .collect();
        self.learner.reinforce(&live.part.played, result);
        if let Opposition::Rival(r) = &mut self.opposition {
            r.finish(result.for_opponent());
        }
        let mut changes = Vec::new();
        let mut emptied = Vec::new();
        for (&b, old) in boxes.iter().zip(before) {
            let new = self.learner.beads_in(b);
            for (a, (&o, n)) in old.iter().zip(&new).enumerate() {
                if o != n.get() {
                    changes.push((b, a, n.get() as i64 - o as i64));
                }
            }
            if old.iter().sum::<u32>() > 0 && self.learner.box_total(b) == 0 {
                emptied.push(b);
            }
        }
        let number = self.learner.games_played;
        self.score.add(number, result);
        Reinforced {
            game: number,
            result,
            changes,
            emptied,
            why,
        }
    }

    /// Plays the rest of the game under way ply by ply, if one is (a person's turn stops it).
    pub fn finish_game(&mut self) {
        while self.live.is_some() {
            if self.ply().is_none() {
                break;
            }
        }
    }

    /// Plays one whole game as fast as the engine goes, reinforces and counts it; the game under
    /// way, if any, is finished first (ply by ply). `None` when a person is to move.
    #[inline]
    pub fn play_game(&mut self) -> Option<GameResult> {
        if self.live.is_some() {
            self.finish_game();
            if self.live.is_some() {
                return None;
            }
        }
        let r = self.whole_game()?;
        self.score.add(self.learner.games_played, r);
        self.note_end();
        Some(r)
    }
}
