//! A training session as the screen sees it: the machine, the game in progress move by move, what
//! the machine did last (the box it opened, the bead it drew, the beads it lost or gained) and the
//! running score. Pure: no terminal, no threads, no clock. The training thread and the tests both
//! drive this.

use std::collections::VecDeque;
use std::path::Path;
use std::sync::Arc;

use crate::game::{Game, Side, Sym};
use crate::learn::engine::{Enumerated, GameState, Table, Trainer};
use crate::learn::lazy::{self, MatchboxPlayer, Scratch};
use crate::learn::{GameDefaults, GameResult, Machine, MachineGame, MachineMove};
use crate::players::{MctsPlayer, Opponent, PerfectPlayer, Player, RandomPlayer, Turn};
use crate::solve::{GraphValues, SharedValues, Solution, SolveError, TieBreak, Value, Values};
use crate::store::{self, StoreError};

/// One game, move by move.
#[derive(Debug)]
pub struct GameRecord<G: Game> {
    /// Game number in the machine's life (1 for its first game).
    pub number: u64,
    /// The position before each move, and the current one last.
    pub positions: Vec<G::Position>,
    pub moves: Vec<(Side, G::Move)>,
    /// The learner's draws: (box, arrow).
    pub played: Vec<(usize, usize)>,
    pub result: Option<GameResult>,
    pub resigned: bool,
}

impl<G: Game> Clone for GameRecord<G> {
    fn clone(&self) -> Self {
        GameRecord {
            number: self.number,
            positions: self.positions.clone(),
            moves: self.moves.clone(),
            played: self.played.clone(),
            result: self.result,
            resigned: self.resigned,
        }
    }
}

impl<G: Game> GameRecord<G> {
    pub fn position(&self) -> &G::Position {
        self.positions.last().expect("a game has a start position")
    }
}

/// The box the machine opened last and the bead it drew (`None`: the box was empty and it resigned).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opened {
    pub game: u64,
    pub box_index: usize,
    pub arrow: Option<usize>,
    /// The symmetry that takes the board to the box's diagram, when they differ (the box is a
    /// mirror image or a turn of the board).
    pub image: Option<crate::game::Sym>,
    /// Increases with every event, so the screen knows when to start an animation.
    pub seq: u64,
}

/// The bead changes after the last game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reinforced {
    pub game: u64,
    pub result: GameResult,
    /// (box, arrow, change in beads), for every arrow whose count changed.
    pub changes: Vec<(usize, usize, i64)>,
    /// Boxes this game left empty.
    pub emptied: Vec<usize>,
    pub seq: u64,
}

/// Results of this session.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// The result repeated at the end of the record, and how many times.
    pub streak: Option<(GameResult, u64)>,
    /// Machine game number of the last loss.
    pub last_loss: Option<u64>,
}

/// The learning curve: Michie's cumulative score (+1 win, 0 draw, −1 loss) and the loss rate over
/// the last [`Curve::WINDOW`] games, sampled so that it never holds more than about 1,000 points.
#[derive(Clone, Debug, Default)]
pub struct Curve {
    every: u64,
    pub score: i64,
    pub points: Vec<(f64, f64)>,
    pub loss_rate: Vec<(f64, f64)>,
    window: VecDeque<bool>,
    window_losses: u32,
}

impl Curve {
    pub const WINDOW: usize = 50;
    const MAX_POINTS: usize = 1000;

    fn push(&mut self, game: u64, result: GameResult) {
        if self.every == 0 {
            self.every = 1;
            self.points.push((0.0, 0.0));
        }
        self.score += result.score() as i64;
        let lost = result == GameResult::Loss;
        self.window.push_back(lost);
        self.window_losses += u32::from(lost);
        if self.window.len() > Self::WINDOW && self.window.pop_front() == Some(true) {
            self.window_losses -= 1;
        }
        if game.is_multiple_of(self.every) {
            self.points.push((game as f64, self.score as f64));
            self.loss_rate.push((game as f64, self.rolling_loss_rate()));
            if self.points.len() > Self::MAX_POINTS {
                self.every *= 2;
                for v in [&mut self.points, &mut self.loss_rate] {
                    let kept: Vec<_> = v.iter().copied().step_by(2).collect();
                    *v = kept;
                }
            }
        }
    }

    /// Share of the last games (up to [`Curve::WINDOW`]) that were lost.
    pub fn rolling_loss_rate(&self) -> f64 {
        if self.window.is_empty() {
            0.0
        } else {
            self.window_losses as f64 / self.window.len() as f64
        }
    }
}

/// The opponent's player in a session: chosen by kind, asked from positions.
enum SessionPlayer<G: Game> {
    Random,
    Graph(PerfectPlayer<GraphValues<G>>),
    OnDemand(PerfectPlayer<SharedValues<G>>),
    Mcts(MctsPlayer),
    /// The session's second machine ([`Session::set_rival_machine`]), which learns too.
    Machine,
}

/// A machine learning against an opponent (the perfect or random player, or a person), one ply or
/// one game at a time. Games are played from positions (so any machine, lazy or enumerated, can be
/// watched); when the game is enumerated, whole games at flat out run on the compiled table, which
/// makes the same moves from the same random numbers.
pub struct Session<G: GameDefaults> {
    /// How the screen colours beads (as the printed labels do).
    pub colours: crate::palette::BeadColours,
    game_rules: G,
    /// The whole graph, when the game is small enough to enumerate (and the machine's set is
    /// complete): the compiled table for flat out and the solved values for the perfect player.
    enumerated: Option<Arc<Enumerated<G>>>,
    graph_values: Option<GraphValues<G>>,
    shared: Option<SharedValues<G>>,
    tie_break: TieBreak,
    rival: Opponent,
    pending_rival: Option<Opponent>,
    player: SessionPlayer<G>,
    table: Option<Table>,
    machine: Machine<G>,
    st: GameState,
    scratch: Scratch<G>,
    /// The game in progress, from positions.
    pos: G::Position,
    history: Vec<G::Position>,
    plies: u32,
    frame: Sym,
    part: MachineGame,
    /// The game in progress, or the last one played when none is.
    pub game: Option<GameRecord<G>>,
    in_game: bool,
    pub stats: Stats,
    pub curve: Curve,
    pub opened: Option<Opened>,
    pub reinforced: Option<Reinforced>,
    /// Boxes most recently opened, latest first.
    pub recent: VecDeque<usize>,
    /// Stop after this many games in this session.
    pub limit: Option<u64>,
    /// Games played before the machine was last reset (`r`), all resets together.
    pub games_before_reset: u64,
    /// The plies of a game, on average over the recent ones (for pacing games a second).
    pub mean_plies: f64,
    /// A player that moves for the machine instead of its boxes (a person playing a tree search
    /// or the perfect player); the machine then neither draws nor learns.
    stand_in: Option<Box<dyn Player<G>>>,
    /// A second machine playing the other side (`--opponent matchbox`): it learns from every game
    /// it plays, as the learner does.
    duel: Option<MatchboxPlayer<G>>,
    /// Who wins the game under perfect play (`Some(None)`: a draw), once the perfect player has
    /// solved it.
    perfect_winner: Option<Option<Side>>,
    /// The rival machine's boxes most recently opened, latest first.
    pub rival_recent: VecDeque<usize>,
    /// Beads left and boxes emptied when last counted ([`Session::count_totals`]), for machines
    /// too big to count at every frame.
    pub totals: (u64, usize),
    seq: u64,
}

impl<G: GameDefaults> Session<G> {
    /// A session of `machine` against `rival` (perfect, random or human) on a game small enough to
    /// enumerate. A graph with cycles cannot be played against the perfect player here.
    pub fn new(
        enumerated: Arc<Enumerated<G>>,
        machine: Machine<G>,
        rival: Opponent,
        tie_break: TieBreak,
    ) -> Result<Self, SolveError> {
        let game = enumerated.game.clone();
        Self::build(game, Some(enumerated), machine, rival, tie_break)
    }

    /// A session played from positions only (a lazy machine, or a game too big to enumerate); the
    /// perfect player solves on demand.
    pub fn from_positions(
        game: G,
        machine: Machine<G>,
        rival: Opponent,
        tie_break: TieBreak,
    ) -> Result<Self, SolveError> {
        Self::build(game, None, machine, rival, tie_break)
    }

    fn build(
        game: G,
        enumerated: Option<Arc<Enumerated<G>>>,
        machine: Machine<G>,
        rival: Opponent,
        tie_break: TieBreak,
    ) -> Result<Self, SolveError> {
        let start = game.start();
        let mut s = Session {
            colours: crate::palette::BeadColours::ByArrow,
            // A game whose positions repeat is played from positions only (cut at its ply limit).
            enumerated: enumerated.filter(|_| game.ply_limit().is_none()),
            game_rules: game,
            graph_values: None,
            shared: None,
            tie_break,
            rival,
            pending_rival: None,
            player: SessionPlayer::Random,
            table: None,
            machine,
            st: GameState::new(),
            scratch: Scratch::default(),
            pos: start,
            history: Vec::new(),
            plies: 0,
            frame: Sym::IDENTITY,
            part: MachineGame::default(),
            game: None,
            in_game: false,
            stats: Stats::default(),
            curve: Curve::default(),
            opened: None,
            reinforced: None,
            recent: VecDeque::new(),
            limit: None,
            games_before_reset: 0,
            mean_plies: 6.0,
            totals: (0, 0),
            stand_in: None,
            duel: None,
            perfect_winner: None,
            rival_recent: VecDeque::new(),
            seq: 0,
        };
        s.count_totals();
        s.prepare(rival)?;
        Ok(s)
    }

    /// The player and (for an enumerated game with a complete set) the compiled table for `rival`.
    fn prepare(&mut self, rival: Opponent) -> Result<(), SolveError> {
        let complete = !self.machine.boxes.is_lazy();
        self.player = match (rival, &self.enumerated) {
            (Opponent::Perfect, Some(en)) => {
                if self.graph_values.is_none() {
                    let solution = Solution::solve_any(&en.graph);
                    self.graph_values =
                        Some(GraphValues::new(Arc::clone(&en.graph), Arc::new(solution)));
                }
                let values = self.graph_values.clone().expect("just solved");
                SessionPlayer::Graph(PerfectPlayer::new(values, self.tie_break))
            }
            (Opponent::Perfect, None) => {
                let values = match &self.shared {
                    Some(v) => v.clone(),
                    None => {
                        let (v, _) =
                            crate::learn::perfect_values(&self.game_rules, self.tie_break)?;
                        self.shared = Some(v.clone());
                        v
                    }
                };
                SessionPlayer::OnDemand(PerfectPlayer::new(values, self.tie_break))
            }
            (Opponent::Mcts(sims), _) => SessionPlayer::Mcts(MctsPlayer::new(sims)),
            (Opponent::Matchbox, _) if self.duel.is_some() => SessionPlayer::Machine,
            (Opponent::Matchbox, _) => return Err(SolveError::Unknown),
            // A person may play any move (and so may the random player).
            _ => SessionPlayer::Random,
        };
        if rival == Opponent::Perfect && self.perfect_winner.is_none() {
            let start = self.game_rules.start();
            let value = match (&mut self.graph_values, &mut self.shared) {
                (Some(v), _) => v.value(&self.game_rules, &start).ok(),
                (None, Some(v)) => v.value(&self.game_rules, &start).ok(),
                _ => None,
            };
            let mover = self.game_rules.to_move(&start);
            self.perfect_winner = value.map(|v| match v {
                Value::Win(_) => Some(mover),
                Value::Loss(_) => Some(mover.other()),
                Value::Draw => None,
            });
        }
        self.table = match (&self.enumerated, &mut self.player, complete) {
            (Some(en), SessionPlayer::Graph(p), true) => Some(
                Table::against_player(en, &self.machine.boxes, p)
                    .map_err(|_| SolveError::Unknown)?,
            ),
            (Some(en), SessionPlayer::Random, true) => {
                Some(Table::against_random(en, &self.machine.boxes))
            }
            _ => None,
        };
        Ok(())
    }

    pub fn game(&self) -> &G {
        &self.game_rules
    }
    /// Lets `player` move for the machine from now on (see [`Session::stand_in`]).
    pub fn set_stand_in(&mut self, player: Box<dyn Player<G>>) {
        self.stand_in = Some(player);
    }
    /// Whether a player moves for the machine.
    pub fn has_stand_in(&self) -> bool {
        self.stand_in.is_some()
    }
    /// Makes `rival` (a machine for the other side) the opponent: learner against learner, both
    /// learning from every game. It stays with the session when the opponent is switched away and
    /// back.
    pub fn set_rival_machine(&mut self, rival: Machine<G>) {
        self.duel = Some(MatchboxPlayer::new(rival));
        self.rival_recent.clear();
        self.pending_rival = None;
        if self.in_game {
            self.pending_rival = Some(Opponent::Matchbox);
        } else if self.prepare(Opponent::Matchbox).is_ok() {
            self.rival = Opponent::Matchbox;
        }
    }
    /// Whether the machine can only lose: its opponent is the perfect player, and perfect play
    /// wins the game for the other side.
    pub fn can_only_lose(&self) -> bool {
        self.rival == Opponent::Perfect
            && self.perfect_winner == Some(Some(self.machine.boxes.side().other()))
    }
    /// The rival machine, if the session has one.
    pub fn rival_machine(&self) -> Option<&Machine<G>> {
        self.duel.as_ref().map(|p| &p.machine)
    }

    /// Counts the beads left and the boxes emptied (a walk over every box).
    pub fn count_totals(&mut self) {
        self.totals = (self.machine.beads_left(), self.machine.boxes_emptied());
    }
    pub fn machine(&self) -> &Machine<G> {
        &self.machine
    }
    /// The rival, as asked for (it plays from the next game when changed during one).
    pub fn rival(&self) -> Opponent {
        self.pending_rival.unwrap_or(self.rival)
    }
    /// The rival playing the game under way.
    pub fn playing_rival(&self) -> Opponent {
        self.rival
    }
    pub fn tie_break(&self) -> TieBreak {
        self.tie_break
    }
    /// Whether a game is under way (not between games).
    pub fn in_game(&self) -> bool {
        self.in_game
    }
    pub fn limit_reached(&self) -> bool {
        self.limit.is_some_and(|l| self.stats.games >= l)
    }

    /// Changes the rival from the next game on.
    pub fn set_rival(&mut self, rival: Opponent) {
        if self.in_game {
            self.pending_rival = Some(rival);
        } else {
            self.switch_rival(rival);
        }
    }

    fn switch_rival(&mut self, rival: Opponent) {
        // A rival that cannot be prepared (the perfect player on a game it cannot solve) is not
        // taken: the session keeps the one it has.
        if rival != self.rival && self.prepare(rival).is_ok() {
            self.rival = rival;
        }
        self.pending_rival = None;
    }

    /// Refills every box, reseeds, and forgets the games played.
    pub fn reset(&mut self) {
        self.games_before_reset += self.machine.games_played;
        self.machine.reset();
        if let Some(p) = &mut self.duel {
            p.game.clear();
        }
        self.st = GameState::new();
        self.game = None;
        self.in_game = false;
        self.stats = Stats::default();
        self.curve = Curve::default();
        self.opened = None;
        self.reinforced = None;
        self.recent.clear();
        self.count_totals();
        // A lazy machine's table (if any) no longer matches its emptied set.
        if self.machine.boxes.is_lazy() {
            self.table = None;
        }
    }

    /// Saves the machine atomically.
    pub fn save(&self, path: &Path) -> Result<(), StoreError> {
        let text = store::to_yaml(self.game(), &self.machine, self.game().size_key());
        store::save_atomic(path, &text)
    }

    /// Starts a new game if none is under way (and the session's limit allows one).
    pub fn begin(&mut self) -> bool {
        if !self.in_game {
            if self.limit_reached() {
                return false;
            }
            self.start_game();
        }
        true
    }

    fn start_game(&mut self) {
        if let Some(r) = self.pending_rival {
            self.switch_rival(r);
        }
        self.pos = self.game_rules.start();
        self.history.clear();
        self.history.push(self.pos.clone());
        self.plies = 0;
        self.frame = Sym::IDENTITY;
        self.part.clear();
        self.in_game = true;
        self.game = Some(GameRecord {
            number: self.machine.games_played + 1,
            positions: vec![self.pos.clone()],
            moves: Vec::new(),
            played: Vec::new(),
            result: None,
            resigned: false,
        });
    }

    /// The legal moves of the person to move, in the order `human_move` takes them, or `None`
    /// when it is not a person's turn.
    pub fn human_options(&self) -> Option<Vec<G::Move>> {
        let g = &self.game_rules;
        let persons_turn = self.rival == Opponent::Human
            && self.in_game
            && g.outcome(&self.pos).is_none()
            && g.to_move(&self.pos) != self.machine.boxes.side();
        persons_turn.then(|| g.moves(&self.pos))
    }

    /// Plays one ply (starting a new game if none is under way); a game that ends is reinforced
    /// and recorded. Returns whether anything happened (not at the session's game limit).
    pub fn ply(&mut self) -> bool {
        self.ply_with(None)
    }

    /// The person's move: option `pick` of [`Session::human_options`].
    pub fn human_move(&mut self, pick: usize) -> bool {
        self.ply_with(Some(pick))
    }

    /// The result of the game in progress if it is over, from the learner's side.
    fn over(&self) -> Option<GameResult> {
        let outcome = self.game_rules.outcome(&self.pos)?;
        Some(match outcome.winner {
            None => GameResult::Draw,
            Some(w) if w == self.machine.boxes.side() => GameResult::Win,
            Some(_) => GameResult::Loss,
        })
    }

    fn ply_with(&mut self, pick: Option<usize>) -> bool {
        if !self.begin() {
            return false;
        }
        if let Some(r) = self.over() {
            self.finish(r);
            return true;
        }
        if self.game_rules.ply_limit().is_some_and(|l| self.plies >= l) {
            self.finish(GameResult::Draw);
            return true;
        }
        let g = &self.game_rules;
        let side = g.to_move(&self.pos);
        let game_no = self.game.as_ref().map_or(0, |r| r.number);
        let mv = if side == self.machine.boxes.side()
            && let Some(stand_in) = &mut self.stand_in
        {
            let turn = Turn {
                ply: self.plies,
                history: &self.history,
                rng: &mut self.machine.rng,
            };
            match stand_in.choose(g, &self.pos, turn) {
                Some(mv) => mv,
                None => {
                    self.finish(GameResult::Loss);
                    return true;
                }
            }
        } else if side == self.machine.boxes.side() {
            let chosen = self
                .machine
                .choose(g, &self.pos, self.plies, self.frame, &mut self.part);
            let (box_index, arrow) = match chosen {
                MachineMove::Move { drawn: None, mv } => (None, Some(mv)),
                MachineMove::Move {
                    drawn: Some((b, a)),
                    mv,
                } => (Some((b, Some(a))), Some(mv)),
                MachineMove::Resign { box_index } => (Some((box_index, None)), None),
            };
            if let Some((b, drawn)) = box_index {
                self.seq += 1;
                let boxed = self.machine.boxes.position(b);
                let image = (boxed != self.pos)
                    .then(|| {
                        (1..g.symmetry_count())
                            .map(|i| crate::game::Sym(i as u8))
                            .find(|&s| g.transform_position(s, &self.pos) == boxed)
                    })
                    .flatten();
                self.opened = Some(Opened {
                    game: game_no,
                    box_index: b,
                    arrow: drawn,
                    image,
                    seq: self.seq,
                });
                self.recent.retain(|&x| x != b);
                self.recent.push_front(b);
                self.recent.truncate(64);
                if let (Some(rec), Some(a)) = (&mut self.game, drawn) {
                    rec.played.push((b, a));
                }
            }
            match arrow {
                Some(mv) => mv,
                None => {
                    if let Some(rec) = &mut self.game {
                        rec.resigned = true;
                    }
                    self.finish(GameResult::Loss);
                    return true;
                }
            }
        } else {
            let turn = Turn {
                ply: self.plies,
                history: &self.history,
                rng: &mut self.machine.rng,
            };
            let chosen = match (pick, &mut self.player) {
                (Some(i), _) => g.moves(&self.pos).get(i).copied(),
                (None, SessionPlayer::Random) => RandomPlayer.choose(g, &self.pos, turn),
                (None, SessionPlayer::Graph(p)) => p.choose(g, &self.pos, turn),
                (None, SessionPlayer::OnDemand(p)) => p.choose(g, &self.pos, turn),
                (None, SessionPlayer::Mcts(p)) => p.choose(g, &self.pos, turn),
                (None, SessionPlayer::Machine) => match &mut self.duel {
                    Some(p) => {
                        let before = p.game.played.len();
                        let mv = p.choose(g, &self.pos, turn);
                        // The rival's box, for its panel on the screen.
                        if p.game.played.len() > before
                            && let Some(&(base, _)) = p.game.played.last()
                        {
                            let b = p.machine.boxes.box_at_bead(base as usize);
                            self.rival_recent.retain(|&x| x != b);
                            self.rival_recent.push_front(b);
                            self.rival_recent.truncate(64);
                        }
                        mv
                    }
                    None => RandomPlayer.choose(g, &self.pos, turn),
                },
            };
            match chosen {
                Some(mv) => mv,
                // A pick out of range is no move; a player with no move resigns.
                None if pick.is_some() => return false,
                None => {
                    self.finish(GameResult::Win);
                    return true;
                }
            }
        };
        self.pos = g.play(&self.pos, mv);
        self.plies += 1;
        self.frame = self
            .machine
            .boxes
            .mode()
            .frame_after(g, self.plies, &self.pos, self.frame);
        self.history.push(self.pos.clone());
        if let Some(rec) = &mut self.game {
            rec.moves.push((side, mv));
            rec.positions.push(self.pos.clone());
        }
        // A game that has just ended is finished at once (this draws nothing).
        if let Some(r) = self.over() {
            self.finish(r);
        }
        true
    }

    fn finish(&mut self, result: GameResult) {
        let played = self
            .game
            .as_ref()
            .map(|g| g.played.clone())
            .unwrap_or_default();
        let boxes: Vec<usize> = played.iter().map(|&(b, _)| b).collect();
        let before: Vec<(usize, Vec<u32>)> = boxes
            .iter()
            .map(|&b| {
                (
                    b,
                    self.machine.beads_in(b).iter().map(|x| x.get()).collect(),
                )
            })
            .collect();
        self.machine.reinforce(&self.part.played, result);
        self.part.clear();
        if matches!(self.player, SessionPlayer::Machine)
            && let Some(p) = &mut self.duel
        {
            p.finish(result.for_opponent());
        }
        let mut changes = Vec::new();
        let mut emptied = Vec::new();
        for (b, old) in before {
            if changes.iter().any(|&(cb, _, _)| cb == b) || emptied.contains(&b) {
                continue;
            }
            let new = self.machine.beads_in(b);
            for (a, (&o, n)) in old.iter().zip(&new).enumerate() {
                if o != n.get() {
                    changes.push((b, a, n.get() as i64 - o as i64));
                }
            }
            if old.iter().sum::<u32>() > 0 && self.machine.box_total(b) == 0 {
                emptied.push(b);
            }
        }
        self.seq += 1;
        let number = self.machine.games_played;
        self.reinforced = Some(Reinforced {
            game: number,
            result,
            changes,
            emptied,
            seq: self.seq,
        });
        if let Some(g) = &mut self.game {
            g.result = Some(result);
            // A moving average that follows the games as the machine learns.
            self.mean_plies += (g.moves.len() as f64 - self.mean_plies) * 0.2;
        }
        self.in_game = false;
        self.record(number, result);
    }

    fn record(&mut self, number: u64, result: GameResult) {
        let s = &mut self.stats;
        s.games += 1;
        match result {
            GameResult::Win => s.wins += 1,
            GameResult::Draw => s.draws += 1,
            GameResult::Loss => {
                s.losses += 1;
                s.last_loss = Some(number);
            }
        }
        s.streak = match s.streak {
            Some((r, n)) if r == result => Some((r, n + 1)),
            _ => Some((result, 1)),
        };
        self.curve.push(number, result);
    }

    /// Plays the rest of the current game, if one is under way.
    pub fn finish_game(&mut self) {
        while self.in_game {
            self.ply();
        }
    }

    /// Plays one whole game move by move (recorded for the screen).
    pub fn recorded_game(&mut self) -> bool {
        if !self.ply() {
            return false;
        }
        self.finish_game();
        true
    }

    /// Plays up to `max` whole games as fast as the engine goes (nothing recorded but the
    /// results), stopping early when `keep_going` says so (asked every 256 games). The machine
    /// changes exactly as under `matchbox train` with the same settings.
    pub fn flat_out(&mut self, max: u64, mut keep_going: impl FnMut() -> bool) -> u64 {
        self.finish_game();
        let max = match self.limit {
            Some(l) => max.min(l.saturating_sub(self.stats.games)),
            None => max,
        };
        // The session's last game is played move by move (the same draws), so that the screen
        // shows it and its box when the session stops.
        let last_of_session = self
            .limit
            .is_some_and(|l| self.stats.games + max >= l && max > 0);
        let mut n = 0;
        while n < max && (n % 256 != 0 || n == 0 || keep_going()) {
            if last_of_session && n + 1 == max {
                self.recorded_game();
                n += 1;
                break;
            }
            let r = match (&self.table, &self.enumerated, &mut self.player) {
                (Some(table), Some(en), _) => {
                    Trainer::new(en, table).play_game(&mut self.machine, &mut self.st)
                }
                (_, _, SessionPlayer::OnDemand(p)) => {
                    lazy::play_game(&self.game_rules, &mut self.machine, p, &mut self.scratch)
                }
                (_, _, SessionPlayer::Graph(p)) => {
                    lazy::play_game(&self.game_rules, &mut self.machine, p, &mut self.scratch)
                }
                (_, _, SessionPlayer::Mcts(p)) => {
                    lazy::play_game(&self.game_rules, &mut self.machine, p, &mut self.scratch)
                }
                (_, _, SessionPlayer::Machine) if self.duel.is_some() => lazy::duel_game(
                    &self.game_rules,
                    &mut self.machine,
                    self.duel.as_mut().expect("checked"),
                    &mut self.scratch,
                ),
                (_, _, SessionPlayer::Random | SessionPlayer::Machine) => lazy::play_game(
                    &self.game_rules,
                    &mut self.machine,
                    &mut RandomPlayer,
                    &mut self.scratch,
                ),
            };
            let number = self.machine.games_played;
            self.record(number, r);
            n += 1;
        }
        n
    }
}
