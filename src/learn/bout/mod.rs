//! The match at the heart of matchbox: a learner against its opponent on an engine, game after
//! game. A [`Bout`] owns the learner, the opponent (a built-in player, a person, or a rival
//! machine that learns too) and the way games are played (the compiled table where the game can
//! be enumerated, positions otherwise). It advances by a budget — one ply, one game, N games —
//! and returns at once: no threads, no clock, so a terminal's worker thread and a browser's frame
//! loop drive it alike.
//!
//! Whole games run on the compiled table when there is one; games shown ply by ply are played
//! from positions. Both make the same moves from the same random numbers (tested).

use std::sync::Arc;

use super::engine::{Ends, Enumerated, GameState, RivalGame, Table};
use super::lazy::{MatchboxPlayer, Scratch};
use super::{Engine, GameDefaults, GameResult, Machine, Score};
use crate::game::{Game, Side};
use crate::players::{Builtin, Opponent, RandomPlayer};
use crate::solve::{SharedValues, TieBreak, Value};

pub use super::against::{Against, BoutError, Hint};

mod live;
pub use live::{Choice, LiveGame};
mod prepare;
mod run;

/// Who plays the learner's opponent side now.
enum Opposition<G: Game> {
    Player(Builtin<G>),
    Person,
    Rival(MatchboxPlayer<G>),
}

impl<G: Game> Opposition<G> {
    fn kind(&self) -> Opponent {
        match self {
            Opposition::Player(p) => p.kind(),
            Opposition::Person => Opponent::Human,
            Opposition::Rival(_) => Opponent::Matchbox,
        }
    }
}

/// What a front end tells a bout while it prepares a big game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preparing {
    /// Enumerating every reachable position; the positions found so far and their bytes.
    Enumerating { positions: usize, bytes: usize },
    /// Solving the game for the perfect player.
    Solving,
    /// Compiling the learner's boxes and the opponent into one table.
    Compiling,
}

/// How a bout is set up besides its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct BoutOptions {
    pub engine: Engine,
    pub tie_break: TieBreak,
}

/// The learner's draw in one ply: the box it opened and the arrow drawn (`None`: the box was
/// empty and it resigned).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Drawn {
    pub box_index: usize,
    pub arrow: Option<usize>,
}

/// The bead changes a finished game made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reinforced {
    /// The game's number in the machine's life.
    pub game: u64,
    pub result: GameResult,
    /// (box, arrow, change in beads), for every arrow whose count changed.
    pub changes: Vec<(usize, usize, i64)>,
    /// Boxes this game left empty.
    pub emptied: Vec<usize>,
    /// Why the game ended, as a sentence: "Black cannot move", "HER resigns: its box 7 is
    /// empty".
    pub why: String,
}

/// What one ply did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply<M> {
    /// The side that moved (or would have).
    pub side: Side,
    /// The move made; `None` when the game ended without one (a resignation, the ply limit).
    pub mv: Option<M>,
    /// The learner's box and bead, when it drew one.
    pub drawn: Option<Drawn>,
    /// The rival machine's box, when it opened one.
    pub rival_box: Option<usize>,
    /// The bead changes, when the game ended with this ply.
    pub ended: Option<Reinforced>,
}

/// A learner against its opponent; see the module documentation.
pub struct Bout<G: GameDefaults> {
    game: G,
    learner: Machine<G>,
    opposition: Opposition<G>,
    /// The opponent asked for from the next game on, when changed during one.
    pending: Option<Opponent>,
    /// The rival machine while another opponent plays (it comes back with `matchbox`).
    benched: Option<MatchboxPlayer<G>>,
    /// A player that moves for the learner instead of its boxes (a person playing the perfect
    /// player, say): the machine then neither draws nor learns.
    stand_in: Option<Builtin<G>>,
    options: BoutOptions,
    /// The whole game, where it is enumerated.
    enumerated: Option<Arc<Enumerated<G>>>,
    /// The opponent and the learner's boxes compiled, where whole games run on the table.
    table: Option<Table>,
    /// The perfect player's values once solved, and the start's value for the side to move.
    values: Option<(SharedValues<G>, Value)>,
    live: Option<LiveGame<G>>,
    st: GameState,
    rival_game: RivalGame,
    scratch: Scratch<G>,
    score: Score,
    /// The games counted in the score, by how they ended.
    ends: Ends,
}

impl<G: GameDefaults> Bout<G> {
    pub fn game(&self) -> &G {
        &self.game
    }
    pub fn learner(&self) -> &Machine<G> {
        &self.learner
    }
    /// The learner, to change between games (its settings, its seed).
    pub fn learner_mut(&mut self) -> &mut Machine<G> {
        &mut self.learner
    }
    /// Gives the learner back (and the rival machine, if there is one).
    pub fn into_machines(self) -> (Machine<G>, Option<Machine<G>>) {
        let rival = match self.opposition {
            Opposition::Rival(r) => Some(r.machine),
            _ => self.benched.map(|r| r.machine),
        };
        (self.learner, rival)
    }
    /// The rival machine, if the bout has one (playing now or benched).
    pub fn rival(&self) -> Option<&Machine<G>> {
        match &self.opposition {
            Opposition::Rival(r) => Some(&r.machine),
            _ => self.benched.as_ref().map(|r| &r.machine),
        }
    }
    /// The opponent playing the game under way (or the next one, between games).
    pub fn opponent(&self) -> Opponent {
        self.opposition.kind()
    }
    /// The opponent asked for: the one playing, or the one that plays from the next game.
    pub fn asked_opponent(&self) -> Opponent {
        self.pending.unwrap_or_else(|| self.opponent())
    }
    pub fn options(&self) -> BoutOptions {
        self.options
    }
    /// The engine whole games run on.
    pub fn engine(&self) -> Engine {
        match self.table {
            Some(_) => Engine::Table,
            None => Engine::Lazy,
        }
    }
    /// The results since the bout began (or was reset).
    pub fn score(&self) -> &Score {
        &self.score
    }
    /// The start's value under perfect play for the side to move, once the perfect player has
    /// solved the game.
    pub fn start_value(&self) -> Option<Value> {
        self.values.as_ref().map(|&(_, v)| v)
    }
    /// One line naming the match, for charts and CSV files (`HER (black) v perfect player ·
    /// hexapawn 3x3 · Gardner's symmetry · …`), the game named `shown` where the
    /// front end names it so.
    pub fn label(&self, shown: Option<&str>) -> String {
        let (g, m) = (&self.game, &self.learner);
        let name = g.machine_name(m.boxes.side(), m.boxes.mode());
        let opponent = match (self.asked_opponent(), self.rival()) {
            (Opponent::Matchbox, Some(r)) => {
                g.machine_name(r.boxes.side(), r.boxes.mode()).to_string()
            }
            (other, _) => format!("{other} player"),
        };
        format!(
            "{name} v {opponent} · {} {} · {} · {} reinforcement · beads {} · seed {}",
            shown.unwrap_or(g.name()),
            g.variant(),
            m.boxes.mode().words(),
            m.reinforcement,
            m.initial,
            m.seed
        )
    }
    /// The learner's score a game under perfect play (1, 0 or −1), where its opponent is the
    /// perfect player: the slope of the perfect-play line of its learning curve.
    pub fn perfect_play(&self) -> Option<i64> {
        if self.asked_opponent() != Opponent::Perfect {
            return None;
        }
        self.perfect_result().map(|r| r.score() as i64)
    }
    /// The learner's result under perfect play on both sides, when the game is solved.
    pub fn perfect_result(&self) -> Option<GameResult> {
        let v = self.start_value()?;
        let mover = self.game.to_move(&self.game.start());
        let learner_moves_first = mover == self.learner.boxes.side();
        Some(match v.class() {
            0 => GameResult::Draw,
            c if (c > 0) == learner_moves_first => GameResult::Win,
            _ => GameResult::Loss,
        })
    }
    /// Whether the learner can only lose: its opponent is the perfect player, and perfect play
    /// wins the game for the other side.
    pub fn can_only_lose(&self) -> bool {
        self.opponent() == Opponent::Perfect && self.perfect_result() == Some(GameResult::Loss)
    }

    /// Lets `player` move for the learner from now on (see [`Bout::stand_in`]).
    pub fn set_stand_in(&mut self, player: Against<G>) -> Result<(), BoutError> {
        let p = match self.opposition_for(player, &mut |_| {})? {
            Opposition::Player(p) => p,
            _ => Builtin::Random(RandomPlayer),
        };
        self.stand_in = Some(p);
        Ok(())
    }
    /// Whether a player moves for the learner.
    pub fn has_stand_in(&self) -> bool {
        self.stand_in.is_some()
    }

    /// Changes the opponent from the next game on (now, between games). An opponent that cannot
    /// be had (the perfect player on a game it cannot solve; a rival machine the bout does not
    /// have) is refused and the bout keeps the one it has.
    pub fn set_opponent(&mut self, kind: Opponent) -> Result<(), BoutError> {
        if kind == Opponent::Matchbox && self.rival().is_none() {
            return Err(BoutError::NoRival);
        }
        if self.live.is_some() {
            self.pending = Some(kind);
            return Ok(());
        }
        self.switch(kind)
    }

    /// Makes `rival` (a machine for the other side) the opponent, from the next game on.
    pub fn set_rival(&mut self, rival: Machine<G>) -> Result<(), BoutError> {
        let player = MatchboxPlayer::new(rival);
        match &mut self.opposition {
            Opposition::Rival(r) => *r = player,
            _ => self.benched = Some(player),
        }
        self.set_opponent(Opponent::Matchbox)
    }

    pub(super) fn switch(&mut self, kind: Opponent) -> Result<(), BoutError> {
        self.pending = None;
        if kind == self.opponent() {
            return Ok(());
        }
        let next = match kind {
            Opponent::Matchbox => match self.benched.take() {
                Some(r) => Opposition::Rival(r),
                None => return Err(BoutError::NoRival),
            },
            k => self.opposition_for(Against::of(k)?, &mut |_| {})?,
        };
        if let Opposition::Rival(r) = std::mem::replace(&mut self.opposition, next) {
            self.benched = Some(r);
        }
        self.compile(&mut |_| {})
    }

    /// Refills every box of the learner, reseeds it and forgets the games played; the game under
    /// way is dropped.
    pub fn reset(&mut self) {
        self.learner.reset();
        if let Opposition::Rival(r) = &mut self.opposition {
            r.game.clear();
        }
        self.live = None;
        self.score = Score::default();
        self.ends = Ends::default();
        // A lazy machine's boxes are new: a table (there is none for one) would not match.
        if self.learner.boxes.is_lazy() {
            self.table = None;
        }
    }

    /// Drops the game under way, unfinished: no machine learns from it, nothing counts it (the
    /// beads are put back in the boxes at the end of a game, so none is lost).
    pub fn abandon(&mut self) {
        if let Opposition::Rival(r) = &mut self.opposition {
            r.game.clear();
        }
        self.live = None;
    }
}
