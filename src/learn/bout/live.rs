//! The game played ply by ply, from positions: the learner's draw, the opponent's move, the
//! end and its reinforcement, each ply returned to the front end as it is made.

use crate::game::{Side, Sym, capitalised};
use crate::learn::ends::End;
use crate::learn::lazy::{self};
use crate::learn::{GameDefaults, GameResult, MachineGame, MachineMove};
use crate::players::{Player, Turn};

use super::*;

/// Who chooses the ply about to be played: the bout itself (the learner's draw, the opponent's
/// move), a person, or a record (the move, and the learner's bead already taken for it).
pub(super) enum Choice<M> {
    Own,
    Person(M),
    Recorded(Option<M>, Option<Drawn>),
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
    /// Plies played in the game under way.
    pub fn plies(&self) -> u32 {
        self.live.as_ref().map_or(0, |l| l.plies)
    }

    /// Starts a game to be played ply by ply (the opponent asked for takes over first).
    pub fn begin(&mut self) {
        if self.live.is_some() {
            return;
        }
        if let Some(k) = self.pending.take() {
            // An opponent that cannot be had leaves the one playing.
            let _ = self.switch(k);
        }
        let pos = self.game.start();
        self.live = Some(Live {
            history: vec![pos.clone()],
            pos,
            plies: 0,
            frame: Sym::IDENTITY,
            part: MachineGame::default(),
            drawn: Vec::new(),
        });
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
        let drawn = match mv {
            Some(m) if !g.moves(pos).contains(&m) => {
                return Err(format!("{} is not legal here", g.format_move_at(pos, m)));
            }
            Some(m) if learner => self.learner_given(m)?,
            None if !learner => return Err("a resignation where the machine is not to move".into()),
            _ => None,
        };
        (self.ply_with(Choice::Recorded(mv, drawn))).ok_or_else(|| "no ply could be played".into())
    }

    pub(super) fn ply_with(&mut self, choice: Choice<G::Move>) -> Option<Ply<G::Move>> {
        self.begin();
        let live = self.live.as_ref()?;
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
            ply.ended = Some(self.finish_live(r, why));
            return Some(ply);
        }
        if let Some(limit) = self.game.ply_limit().filter(|&l| live.plies >= l) {
            let why = (format!("{limit} plies without an end: a draw"), End::Limit);
            ply.ended = Some(self.finish_live(GameResult::Draw, why));
            return Some(ply);
        }
        let chosen = match (side == self.learner.boxes.side(), choice) {
            (_, Choice::Recorded(mv, drawn)) => {
                ply.drawn = drawn;
                mv
            }
            (true, _) => self.learner_ply(&mut ply),
            (false, Choice::Person(mv)) => Some(mv),
            (false, _) if matches!(self.opposition, Opposition::Person) => return None,
            (false, _) => self.opponent_ply(&mut ply),
        };
        let Some(mv) = chosen else {
            // The side to move resigned: the learner's empty box, or a player with no move.
            let r = if side == self.learner.boxes.side() {
                GameResult::Loss
            } else {
                GameResult::Win
            };
            let why = (self.why_resigned(side, &ply), End::Resigned(side));
            ply.ended = Some(self.finish_live(r, why));
            return Some(ply);
        };
        ply.mv = Some(mv);
        let live = self.live.as_mut()?;
        live.pos = self.game.play(&live.pos, mv);
        live.plies += 1;
        let mode = self.learner.boxes.mode();
        live.frame = mode.frame_after(&self.game, live.plies, &live.pos, live.frame);
        live.history.push(live.pos.clone());
        // A game that has just ended is finished at once (this draws nothing).
        let pos = live.pos.clone();
        if let Some(r) = self.over(&pos) {
            let why = self.why_over(&pos);
            ply.ended = Some(self.finish_live(r, why));
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

    /// The learner's move in the game under way (its stand-in's, if it has one); `None`: it
    /// resigns.
    pub(super) fn learner_ply(&mut self, ply: &mut Ply<G::Move>) -> Option<G::Move> {
        let live = self.live.as_mut()?;
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
                    live.drawn.push((b, a));
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

    /// The learner's move `mv` in the game under way as a record gives it: the bead that stands
    /// for it taken as drawn (`None`: a forced move, no bead). `Err` when its box has no such
    /// arrow.
    fn learner_given(&mut self, mv: G::Move) -> Result<Option<Drawn>, String> {
        let live = self.live.as_mut().ok_or("no game")?;
        let g = &self.game;
        let part = &mut live.part;
        match (self.learner).choose_given(g, &live.pos, live.plies, live.frame, part, mv) {
            Some(Some((b, a))) => {
                live.drawn.push((b, a));
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

    /// The opponent's move in the game under way; `None`: it resigns.
    pub(super) fn opponent_ply(&mut self, ply: &mut Ply<G::Move>) -> Option<G::Move> {
        let live = self.live.as_mut()?;
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

    /// Ends the game under way with `result`: reinforces both machines, counts it, and says
    /// what changed.
    pub(super) fn finish_live(
        &mut self,
        result: GameResult,
        (why, end): (String, End<G::Reason>),
    ) -> Reinforced {
        self.ends.add(&end.name(&self.game), 1);
        let Some(live) = self.live.take() else {
            return Reinforced {
                game: self.learner.games_played,
                result,
                changes: Vec::new(),
                emptied: Vec::new(),
                why,
            };
        };
        let mut boxes: Vec<usize> = live.drawn.iter().map(|&(b, _)| b).collect();
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
