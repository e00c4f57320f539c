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

use super::ends::{End, EndTally};
use super::engine::{
    Ends, Enumerated, ExperimentResult, GameState, RivalGame, RivalTrainer, Runs, Table, Trainer,
};
use super::lazy::{self, MatchboxPlayer, Scratch};
use super::{Engine, GameDefaults, GameResult, Machine, MachineGame, MachineMove, Score};
use crate::game::{Game, Side, Sym, capitalised};
use crate::players::{Builtin, MctsPlayer, Opponent, Player, RandomPlayer, Turn};
use crate::solve::{GraphValues, SharedValues, Solution, TieBreak, Value, Values};

use super::against::table_engine;
pub use super::against::{Against, BoutError, Hint};

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

/// The game being played ply by ply, from positions.
struct Live<G: Game> {
    pos: G::Position,
    history: Vec<G::Position>,
    plies: u32,
    frame: Sym,
    part: MachineGame,
    /// The learner's draws: (box, arrow).
    drawn: Vec<(usize, usize)>,
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
    live: Option<Live<G>>,
    st: GameState,
    rival_game: RivalGame,
    scratch: Scratch<G>,
    score: Score,
    /// The games counted in the score, by how they ended.
    ends: Ends,
}

impl<G: GameDefaults> Bout<G> {
    /// A bout of `learner` against `opponent`. Big games are enumerated, solved and compiled
    /// here (minutes for Hexapawn 5×6): `progress` hears each step.
    pub fn new(
        game: G,
        learner: Machine<G>,
        opponent: Against<G>,
        options: BoutOptions,
        progress: &mut dyn FnMut(Preparing),
    ) -> Result<Bout<G>, BoutError> {
        let mut bout = Bout {
            game,
            learner,
            opposition: Opposition::Person,
            pending: None,
            benched: None,
            stand_in: None,
            options,
            enumerated: None,
            table: None,
            values: None,
            live: None,
            st: GameState::new(),
            rival_game: RivalGame::default(),
            scratch: Scratch::default(),
            score: Score::default(),
            ends: Ends::default(),
        };
        bout.check_engine(&opponent)?;
        bout.opposition = bout.opposition_for(opponent, progress)?;
        bout.compile(progress)?;
        Ok(bout)
    }

    /// As [`Bout::new`], on a game already enumerated (its graph is not built again).
    pub fn on_graph(
        enumerated: Arc<Enumerated<G>>,
        learner: Machine<G>,
        opponent: Against<G>,
        options: BoutOptions,
        progress: &mut dyn FnMut(Preparing),
    ) -> Result<Bout<G>, BoutError> {
        let mut bout = Self::new(
            enumerated.game.clone(),
            learner,
            Against::Person,
            options,
            progress,
        )?;
        bout.enumerated = Some(enumerated);
        bout.check_engine(&opponent)?;
        bout.opposition = bout.opposition_for(opponent, progress)?;
        bout.compile(progress)?;
        Ok(bout)
    }

    /// Refuses an engine the game or the opponent cannot run on.
    fn check_engine(&self, opponent: &Against<G>) -> Result<(), BoutError> {
        if self.options.engine != Engine::Table {
            return Ok(());
        }
        let g = &self.game;
        if let Against::Mcts(n) = opponent {
            return Err(BoutError::SearchOnTable(Opponent::Mcts(*n)));
        }
        if let Some(limit) = g.ply_limit() {
            return Err(BoutError::RepeatsOnTable {
                game: g.name(),
                limit,
            });
        }
        if self.learner.boxes.is_lazy() {
            return Err(BoutError::LazyOnTable);
        }
        if !crate::game::enumerable(g) {
            return Err(BoutError::TooBigForTable {
                game: g.name(),
                variant: g.variant(),
            });
        }
        Ok(())
    }

    /// Whether whole games may run on a compiled table, given an opponent that can be compiled.
    fn table_engine(&self) -> bool {
        table_engine(
            &self.game,
            self.options.engine,
            self.learner.boxes.is_lazy(),
        )
    }

    /// Whether whole games can run on a compiled table against the opposition now.
    fn table_possible(&self) -> bool {
        let opposition = match &self.opposition {
            Opposition::Player(p) => !matches!(p, Builtin::Mcts(_)),
            Opposition::Person => false,
            Opposition::Rival(r) => !r.machine.boxes.is_lazy(),
        };
        opposition && self.table_engine()
    }

    /// The game's whole graph, built on first need.
    fn enumerated(&mut self, progress: &mut dyn FnMut(Preparing)) -> Arc<Enumerated<G>> {
        if let Some(en) = &self.enumerated {
            return Arc::clone(en);
        }
        progress(Preparing::Enumerating {
            positions: 0,
            bytes: 0,
        });
        let graph = crate::game::graph::GameGraph::build_with_progress(&self.game, &mut |n, b| {
            progress(Preparing::Enumerating {
                positions: n,
                bytes: b,
            })
        });
        let en = Arc::new(Enumerated::from_graph(self.game.clone(), Arc::new(graph)));
        self.enumerated = Some(Arc::clone(&en));
        en
    }

    /// The perfect player's values, solved on first need: from the whole graph where the game
    /// is enumerated for the table, else the game's own solver or a search on demand.
    fn perfect_values(
        &mut self,
        progress: &mut dyn FnMut(Preparing),
    ) -> Result<SharedValues<G>, BoutError> {
        if let Some((v, _)) = &self.values {
            return Ok(v.clone());
        }
        let g = &self.game;
        let (name, variant) = (g.name(), g.variant());
        if !g.has_own_solver() && !crate::game::enumerable(g) {
            return Err(BoutError::PerfectTooBig {
                game: name,
                variant,
            });
        }
        let unsolvable = |err| BoutError::Unsolvable {
            game: name,
            variant: variant.clone(),
            err,
        };
        let (values, start) = if self.table_engine() || self.enumerated.is_some() {
            let en = self.enumerated(progress);
            progress(Preparing::Solving);
            let solution = Arc::new(Solution::solve_any(&en.graph));
            let mut graph = GraphValues::new(Arc::clone(&en.graph), solution);
            let start = graph
                .value(&self.game, &self.game.start())
                .map_err(unsolvable)?;
            (SharedValues::new(Box::new(graph)), start)
        } else {
            progress(Preparing::Solving);
            super::perfect_values(&self.game, self.options.tie_break).map_err(unsolvable)?
        };
        self.values = Some((values.clone(), start));
        Ok(values)
    }

    fn opposition_for(
        &mut self,
        opponent: Against<G>,
        progress: &mut dyn FnMut(Preparing),
    ) -> Result<Opposition<G>, BoutError> {
        Ok(match opponent {
            Against::Perfect => {
                let values = self.perfect_values(progress)?;
                Opposition::Player(Builtin::perfect(values, self.options.tie_break))
            }
            Against::Random => Opposition::Player(Builtin::Random(RandomPlayer)),
            Against::Mcts(n) => Opposition::Player(Builtin::Mcts(MctsPlayer::new(n))),
            Against::Person => Opposition::Person,
            Against::Rival(m) => Opposition::Rival(MatchboxPlayer::new(m)),
        })
    }

    /// Compiles the table for the opposition, where whole games can run on one.
    fn compile(&mut self, progress: &mut dyn FnMut(Preparing)) -> Result<(), BoutError> {
        self.table = None;
        if !self.table_possible() {
            return Ok(());
        }
        let en = self.enumerated(progress);
        progress(Preparing::Compiling);
        let boxes = Arc::clone(&self.learner.boxes);
        self.table = match &mut self.opposition {
            Opposition::Player(p) => Table::against_player(&en, &boxes, p).ok(),
            Opposition::Rival(r) => Some(Table::against_machine(&en, &boxes, &r.machine.boxes)),
            Opposition::Person => None,
        };
        Ok(())
    }

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

    fn switch(&mut self, kind: Opponent) -> Result<(), BoutError> {
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
    fn over(&self, pos: &G::Position) -> Option<GameResult> {
        let outcome = self.game.outcome(pos)?;
        Some(lazy::result_for(outcome.winner, self.learner.boxes.side()))
    }

    /// Plays one ply of the game under way (starting one if none is): the learner's, or its
    /// opponent's. A person's turn plays nothing (`None`): [`Bout::person_move`] plays it.
    pub fn ply(&mut self) -> Option<Ply<G::Move>> {
        self.ply_with(None)
    }

    /// The person's move (a legal move of the position): `None` when it is not a person's turn
    /// or the move is not legal.
    pub fn person_move(&mut self, mv: G::Move) -> Option<Ply<G::Move>> {
        let legal = self.person_options()?.contains(&mv);
        legal.then(|| self.ply_with(Some(mv))).flatten()
    }

    fn ply_with(&mut self, person: Option<G::Move>) -> Option<Ply<G::Move>> {
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
        let chosen = if side == self.learner.boxes.side() {
            self.learner_ply(&mut ply)
        } else {
            match person {
                Some(mv) => Some(mv),
                None if matches!(self.opposition, Opposition::Person) => return None,
                None => self.opponent_ply(&mut ply),
            }
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
    fn why_over(&self, pos: &G::Position) -> (String, End<G::Reason>) {
        match self.game.outcome(pos) {
            Some(o) => (self.game.end_words(pos, &o), End::Rules(o.winner, o.reason)),
            None => (String::new(), End::Limit),
        }
    }

    /// Why a game ended where `side` was to move and made no move: the machine resigns, its box
    /// empty.
    fn why_resigned(&self, side: Side, ply: &Ply<G::Move>) -> String {
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
    fn learner_ply(&mut self, ply: &mut Ply<G::Move>) -> Option<G::Move> {
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

    /// The opponent's move in the game under way; `None`: it resigns.
    fn opponent_ply(&mut self, ply: &mut Ply<G::Move>) -> Option<G::Move> {
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
    fn finish_live(
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

    /// Counts how the last whole game ended.
    fn note_end(&mut self) {
        match (&self.table, &self.opposition) {
            (Some(t), Opposition::Rival(_)) => self
                .ends
                .add(&t.end_names()[self.rival_game.end as usize], 1),
            (Some(t), _) => self.ends.add(&t.end_names()[self.st.end as usize], 1),
            _ => {
                if let Some(end) = self.scratch.end {
                    self.ends.add(&end.name(&self.game), 1);
                }
            }
        }
    }

    /// Every game of the learner's counted in the score, by how it ended.
    pub fn ends(&self) -> &Ends {
        &self.ends
    }

    /// One whole game on the fastest engine, not counted in the score.
    #[inline]
    fn whole_game(&mut self) -> Option<GameResult> {
        let g = &self.game;
        let m = &mut self.learner;
        Some(
            match (&self.table, &self.enumerated, &mut self.opposition) {
                (Some(t), _, Opposition::Rival(r)) => {
                    RivalTrainer::new(t).play_game(m, &mut r.machine, &mut self.rival_game)
                }
                (Some(t), Some(en), Opposition::Player(_)) => {
                    Trainer::new(en, t).play_game(m, &mut self.st)
                }
                (_, _, Opposition::Rival(r)) => lazy::rival_game(g, m, r, &mut self.scratch),
                (_, _, Opposition::Player(p)) => lazy::play_game(g, m, p, &mut self.scratch),
                (_, _, Opposition::Person) => return None,
            },
        )
    }

    /// The learner's draws of the last whole game ([`Bout::play_game`]): (bead index of the box,
    /// arrow), for a machine's running totals ([`super::BeadTotals`]).
    pub fn last_played(&self) -> &[(u32, u32)] {
        match (&self.table, &self.opposition) {
            (Some(_), Opposition::Rival(_)) => &self.rival_game.learner,
            (Some(_), _) => &self.st.played,
            _ => self.scratch.learner_played(),
        }
    }

    /// Plays up to `games` whole games (fewer when a person is to move), calling `each` with
    /// each game's number and result; returns how many were played. The learner changes exactly
    /// as under `matchbox train` with the same settings. The engine is chosen once, outside the
    /// loop.
    pub fn train_each(&mut self, games: u64, mut each: impl FnMut(u64, GameResult)) -> u64 {
        if self.live.is_some() {
            self.finish_game();
            if self.live.is_some() {
                return 0;
            }
        }
        let (g, m) = (&self.game, &mut self.learner);
        // The score kept in a local for the loop (in registers), written back after it.
        let mut score = self.score;
        let mut count = |m: &Machine<G>, r: GameResult| {
            score.add(m.games_played, r);
            each(m.games_played, r);
        };
        match (&self.table, &self.enumerated, &mut self.opposition) {
            (Some(t), _, Opposition::Rival(r)) => {
                let trainer = RivalTrainer::new(t);
                let mut by_id = vec![0u64; t.end_names().len()];
                for _ in 0..games {
                    let res = trainer.play_game(m, &mut r.machine, &mut self.rival_game);
                    by_id[self.rival_game.end as usize] += 1;
                    count(m, res);
                }
                t.name_ends(&by_id, &mut self.ends);
            }
            (Some(t), Some(en), Opposition::Player(_)) => {
                let mut each = |number, r| {
                    score.add(number, r);
                    each(number, r);
                };
                let ends = &mut self.ends;
                Trainer::new(en, t).train_each(m, &mut self.st, games, &mut each, ends);
            }
            (_, _, Opposition::Rival(r)) => {
                let mut tally = EndTally::new();
                for _ in 0..games {
                    let res = lazy::rival_game(g, m, r, &mut self.scratch);
                    tally.add_some(self.scratch.end);
                    count(m, res);
                }
                tally.name_into(g, &mut self.ends);
            }
            (_, _, Opposition::Player(p)) => {
                let mut tally = EndTally::new();
                for _ in 0..games {
                    let res = lazy::play_game(g, m, p, &mut self.scratch);
                    tally.add_some(self.scratch.end);
                    count(m, res);
                }
                tally.name_into(g, &mut self.ends);
            }
            (_, _, Opposition::Person) => return 0,
        }
        self.score = score;
        games
    }

    /// As [`Bout::train_each`], appending each result to `out`: where the learner plays a
    /// player on a table, with no call a game (the score is counted from `out` after the
    /// games).
    pub fn train_into(&mut self, games: u64, out: &mut Vec<GameResult>) -> u64 {
        let (Some(t), Some(en), Opposition::Player(_), None) =
            (&self.table, &self.enumerated, &self.opposition, &self.live)
        else {
            return self.train_each(games, |_, r| out.push(r));
        };
        let start = out.len();
        let first = self.learner.games_played;
        let trainer = Trainer::new(en, t);
        trainer.train_into(&mut self.learner, &mut self.st, games, out, &mut self.ends);
        self.score.add_all(first + 1, &out[start..]);
        games
    }

    /// Plays `games` whole games and returns their results.
    pub fn train(&mut self, games: usize) -> Vec<GameResult> {
        let mut out = Vec::with_capacity(games);
        self.train_each(games as u64, |_, r| out.push(r));
        out
    }

    /// Trains `runs` copies of the learner (run `i` reseeded with
    /// [`crate::rng::derive_seed`]`(seed, i)`, its rival from that seed) for `games` games each,
    /// against fresh copies of the opponent: in parallel with the `parallel` feature, one after
    /// another without. The result does not depend on the number of threads. `on_run` is called
    /// after each run.
    pub fn experiment(
        &self,
        runs: impl Into<Runs>,
        games: usize,
        on_run: &(dyn Fn() + Sync),
    ) -> ExperimentResult {
        let runs = runs.into();
        let seed = self.learner.seed;
        let (m, g) = (&self.learner, &self.game);
        match (&self.table, &self.enumerated, &self.opposition) {
            (Some(t), _, Opposition::Rival(r)) => {
                RivalTrainer::new(t).experiment(m, &r.machine, seed, runs, games, on_run)
            }
            (Some(t), Some(en), _) => {
                Trainer::new(en, t).experiment_with(m, seed, runs, games, on_run)
            }
            (_, _, Opposition::Rival(r)) => {
                lazy::rival_experiment(g, m, &r.machine, seed, runs, games, on_run)
            }
            (_, _, Opposition::Player(p)) => {
                lazy::experiment(g, m, |_| p.clone(), seed, runs, games, on_run)
            }
            (_, _, Opposition::Person) => {
                super::engine::run_experiment(runs, games, on_run, |_, _, _| false)
            }
        }
    }
}
