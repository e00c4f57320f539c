//! A training session as the screen sees it: the machine, the game in progress move by move, what
//! the machine did last (the box it opened, the bead it drew, the beads it lost or gained) and the
//! running score. It drives a [`Bout`] (the library's match) and keeps what the screen shows.
//! Pure: no terminal, no threads, no clock. The training thread, the browser's frames and the
//! tests all drive this.

use std::collections::VecDeque;
use std::sync::Arc;

use crate::game::{Game, Side};
use crate::learn::bout::Ply;
use crate::learn::engine::Enumerated;
use crate::learn::lesson::Recorded;
use crate::learn::{
    Against, Bout, BoutError, Engine, GameDefaults, GameResult, Machine, MachineSpec, MatchError,
    MatchSpec, Score, Source,
};
use crate::players::Opponent;
use crate::solve::TieBreak;

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
    /// Why the game ended: "Black cannot move", "X has three in a row: a1 b2 c3".
    pub why: Option<String>,
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
            why: self.why.clone(),
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

/// The bead changes after the last game, numbered for the screen's animations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reinforced {
    pub of: crate::learn::bout::Reinforced,
    /// Increases with every event, so the screen knows when to start an animation.
    pub seq: u64,
}

impl std::ops::Deref for Reinforced {
    type Target = crate::learn::bout::Reinforced;
    fn deref(&self) -> &Self::Target {
        &self.of
    }
}

/// Results of this session.
pub type Stats = Score;

/// The learning curve: Michie's cumulative score (+1 win, 0 draw, −1 loss), every game of the
/// first [`Curve::EVERY_GAME`] and then a point each time the count grows by half a percent (so
/// the first games, where the learning is, stay there at any count, for a log axis: about 3,300
/// points at a billion games); and the loss rate over the last [`Curve::WINDOW`] games, sampled
/// evenly, never more than about 1,000 points.
#[derive(Clone, Debug, Default)]
pub struct Curve {
    every: u64,
    pub score: i64,
    pub points: Vec<(f64, f64)>,
    pub loss_rate: Vec<(f64, f64)>,
    window: VecDeque<bool>,
    window_losses: u32,
    next_point: u64,
}

/// The game after `game` at which a log-spaced series takes its next point.
pub fn next_sample(game: u64) -> u64 {
    if game < Curve::EVERY_GAME {
        game + 1
    } else {
        (game + 1).max((game as f64 * 1.005).ceil() as u64)
    }
}

impl Curve {
    pub const WINDOW: usize = 50;
    /// Games drawn one by one before the points thin out.
    pub const EVERY_GAME: u64 = 200;
    const MAX_POINTS: usize = 1000;

    /// The games the rolling loss rate is over (up to [`Curve::WINDOW`]; none before a game).
    pub fn window_games(&self) -> usize {
        self.window.len()
    }

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
        if game >= self.next_point {
            self.points.push((game as f64, self.score as f64));
            self.next_point = next_sample(game);
        }
        if game.is_multiple_of(self.every) {
            self.loss_rate.push((game as f64, self.rolling_loss_rate()));
            if self.loss_rate.len() > Self::MAX_POINTS {
                self.every *= 2;
                let kept: Vec<_> = self.loss_rate.iter().copied().step_by(2).collect();
                self.loss_rate = kept;
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

/// The beads of the machine's first box, arrow by arrow, as the games go (as Scroggs plots
/// MENACE's first box): every game of the first [`Curve::EVERY_GAME`], then log-spaced.
#[derive(Clone, Debug, Default)]
pub struct FirstBox {
    /// (games played, beads of each arrow); shared with the snapshots, copied only when a sample
    /// is added while one holds it.
    pub samples: std::sync::Arc<Vec<(u64, Vec<u32>)>>,
    next: u64,
}

impl FirstBox {
    /// Takes a sample if one is due at `games`.
    fn sample<G: Game>(&mut self, m: &Machine<G>) {
        let games = m.games_played;
        if games < self.next || m.boxes.is_empty() {
            return;
        }
        let beads = m.beads_in(0).iter().map(|b| b.get()).collect();
        std::sync::Arc::make_mut(&mut self.samples).push((games, beads));
        self.next = next_sample(games);
    }
}

/// A machine learning against an opponent (the perfect or random player, a rival machine, or a
/// person), one ply or one game at a time, as the screen shows it.
pub struct Session<G: GameDefaults> {
    /// How the screen colours beads (as the printed labels do).
    pub colours: crate::palette::BeadColours,
    bout: Bout<G>,
    /// The game in progress, or the last one played when none is.
    pub game: Option<GameRecord<G>>,
    pub curve: Curve,
    pub first_box: FirstBox,
    pub opened: Option<Opened>,
    pub reinforced: Option<Reinforced>,
    /// Boxes most recently opened, latest first.
    pub recent: VecDeque<usize>,
    /// The rival machine's boxes most recently opened, latest first.
    pub rival_recent: VecDeque<usize>,
    /// Stop after this many games in this session.
    pub limit: Option<u64>,
    /// Games played before the machine was last reset (`r`), all resets together.
    pub games_before_reset: u64,
    /// The plies of a game, on average over the recent ones (for pacing games a second).
    pub mean_plies: f64,
    /// Beads left and boxes emptied when last counted ([`Session::count_totals`]), for machines
    /// too big to count at every frame.
    pub totals: (u64, usize),
    /// The machine's games played when it was last saved (or loaded, or made): the games after
    /// it are lost if the screen quits without saving.
    pub saved_games: u64,
    seq: u64,
    /// A record the session plays again instead of choosing its own moves (a lesson's games).
    script: Option<Script>,
}

/// A record being played again: the steps left, the ply reached in the first, and what stopped
/// it if the record and the machine disagreed.
struct Script {
    steps: VecDeque<Recorded>,
    at: usize,
    error: Option<String>,
}

impl<G: GameDefaults> Session<G> {
    /// A session of `machine` against `rival` (perfect, random, human, or a fresh rival machine)
    /// on a game already enumerated, whole games at flat out running on the compiled table.
    pub fn new(
        enumerated: Arc<Enumerated<G>>,
        machine: Machine<G>,
        rival: Opponent,
        tie_break: TieBreak,
    ) -> Result<Self, MatchError> {
        let mut spec = MatchSpec::fresh(MachineSpec::default(), rival);
        spec.learner = Source::Loaded(machine);
        spec.tie_break = tie_break;
        spec.graph = Some(enumerated.clone());
        Ok(Self::of(spec.build(enumerated.game.clone(), &mut |_| {})?))
    }

    /// A session played from positions only (a lazy machine, or a game too big to enumerate); the
    /// perfect player solves on demand.
    pub fn from_positions(
        game: G,
        machine: Machine<G>,
        rival: Opponent,
        tie_break: TieBreak,
    ) -> Result<Self, MatchError> {
        let mut spec = MatchSpec::fresh(MachineSpec::default(), rival);
        spec.learner = Source::Loaded(machine);
        spec.tie_break = tie_break;
        spec.engine = Engine::Lazy;
        Ok(Self::of(spec.build(game, &mut |_| {})?))
    }

    /// The screen's view of a bout.
    pub fn of(bout: Bout<G>) -> Self {
        let mut s = Session {
            colours: crate::palette::BeadColours::ByArrow,
            bout,
            game: None,
            curve: Curve::default(),
            first_box: FirstBox::default(),
            opened: None,
            reinforced: None,
            recent: VecDeque::new(),
            rival_recent: VecDeque::new(),
            limit: None,
            games_before_reset: 0,
            mean_plies: 6.0,
            totals: (0, 0),
            saved_games: 0,
            seq: 0,
            script: None,
        };
        s.saved_games = s.machine().games_played;
        s.count_totals();
        s.first_box.sample(s.bout.learner());
        s
    }

    pub fn game(&self) -> &G {
        self.bout.game()
    }
    /// The match the session drives.
    pub fn bout(&self) -> &Bout<G> {
        &self.bout
    }
    /// Gives the bout back (the machines in it).
    pub fn into_bout(self) -> Bout<G> {
        self.bout
    }
    /// The results of this session (since the last reset).
    pub fn stats(&self) -> &Stats {
        self.bout.score()
    }
    /// Lets `player` move for the machine from now on (see [`Session::has_stand_in`]).
    pub fn set_stand_in(&mut self, player: Against<G>) -> Result<(), BoutError> {
        self.bout.set_stand_in(player)
    }
    /// Whether a player moves for the machine: it then neither draws nor learns.
    pub fn has_stand_in(&self) -> bool {
        self.bout.has_stand_in()
    }
    /// Makes `rival` (a machine for the other side) the opponent: learner against learner, both
    /// learning from every game. It stays with the session when the opponent is switched away and
    /// back.
    pub fn set_rival_machine(&mut self, rival: Machine<G>) {
        self.rival_recent.clear();
        // A rival machine can always be had once given.
        let _ = self.bout.set_rival(rival);
    }
    /// Whether the machine can only lose: its opponent is the perfect player, and perfect play
    /// wins the game for the other side.
    pub fn can_only_lose(&self) -> bool {
        self.bout.can_only_lose()
    }
    /// The rival machine, if the session has one.
    pub fn rival_machine(&self) -> Option<&Machine<G>> {
        self.bout.rival()
    }

    /// Counts the beads left and the boxes emptied (a walk over every box).
    pub fn count_totals(&mut self) {
        let m = self.bout.learner();
        self.totals = (m.beads_left(), m.boxes_emptied());
    }
    pub fn machine(&self) -> &Machine<G> {
        self.bout.learner()
    }
    /// The opponent, as asked for (it plays from the next game when changed during one).
    pub fn opponent(&self) -> Opponent {
        self.bout.asked_opponent()
    }
    /// The opponent playing the game under way.
    pub fn playing_opponent(&self) -> Opponent {
        self.bout.opponent()
    }
    pub fn tie_break(&self) -> TieBreak {
        self.bout.options().tie_break
    }
    /// Whether a game is under way (not between games).
    pub fn in_game(&self) -> bool {
        self.bout.in_game()
    }
    pub fn limit_reached(&self) -> bool {
        if let Some(s) = &self.script {
            return s.error.is_some() || (s.steps.is_empty() && !self.in_game());
        }
        self.limit.is_some_and(|l| self.stats().games >= l)
    }

    /// Plays `steps` again from now on, ply by ply, instead of the session's own moves (a
    /// lesson's games, each move as its log wrote it); the session ends with the record.
    pub fn follow(&mut self, steps: Vec<Recorded>) {
        self.abandon();
        self.script = Some(Script {
            steps: steps.into(),
            at: 0,
            error: None,
        });
    }

    /// The games of the record followed not yet finished (0 without one).
    pub fn record_left(&self) -> u64 {
        let Some(s) = &self.script else {
            return 0;
        };
        (s.steps.iter())
            .filter(|r| matches!(r, Recorded::Game { .. }))
            .count() as u64
    }

    /// Why the record followed stopped before its end (a move its machine could not make).
    pub fn record_error(&self) -> Option<&str> {
        self.script.as_ref()?.error.as_deref()
    }

    /// The next ply of the record followed: the teacher's resets done on the way, a game begun
    /// when none is under way, and the game's result checked against the record's at its end.
    fn recorded_ply(&mut self) -> bool {
        loop {
            let Some(script) = &mut self.script else {
                return false;
            };
            match script.steps.front() {
                _ if script.error.is_some() => return false,
                None => return false,
                Some(Recorded::Reset) if !self.bout.in_game() => {
                    script.steps.pop_front();
                    self.reset();
                }
                Some(_) => break,
            }
        }
        if !self.begin() {
            return false;
        }
        let played = self.next_recorded();
        let script = self.script.as_mut().expect("a record is followed");
        match played {
            Ok(p) => {
                script.at += 1;
                let ended = p.ended.as_ref().map(|r| r.result);
                let Some(Recorded::Game { plies, result, .. }) = script.steps.front() else {
                    return false;
                };
                let whole = script.at == plies.len();
                if let Some(r) = ended {
                    if r != *result || !whole {
                        script.error = Some(format!(
                            "the record's game ended {r:?} after {} of its {} plies, where the record says {result:?}",
                            script.at,
                            plies.len()
                        ));
                    }
                    script.steps.pop_front();
                    script.at = 0;
                }
                self.show(p);
                true
            }
            Err(e) => {
                script.error = Some(e);
                false
            }
        }
    }

    /// Plays the record's next ply on the bout.
    fn next_recorded(&mut self) -> Result<Ply<G::Move>, String> {
        let script = self.script.as_ref().ok_or("no record")?;
        let Some(Recorded::Game { number, plies, .. }) = script.steps.front() else {
            return Err("no game".into());
        };
        let (number, at) = (*number, script.at);
        let place = |e: String| format!("game {number} of the record, ply {}: {e}", at + 1);
        let text = plies
            .get(at)
            .ok_or_else(|| place("the record's game goes on past its last ply".into()))?;
        let pos = self.bout.position().ok_or("no game under way")?;
        let mv = match text {
            Some(t) => Some(
                self.game()
                    .parse_move(pos, t)
                    .map_err(|e| place(e.to_string()))?,
            ),
            None => None,
        };
        self.bout.recorded_ply(mv).map_err(place)
    }

    /// Changes the opponent from the next game on; one that cannot be had (the perfect player on
    /// a game it cannot solve) is not taken: the session keeps the one it has.
    pub fn set_opponent(&mut self, kind: Opponent) {
        let _ = self.bout.set_opponent(kind);
    }

    /// Refills every box, reseeds, and forgets the games played.
    pub fn reset(&mut self) {
        self.games_before_reset += self.machine().games_played;
        self.bout.reset();
        // A fresh machine: every game from now on is unsaved.
        self.saved_games = 0;
        self.game = None;
        self.curve = Curve::default();
        self.first_box = FirstBox::default();
        self.first_box.sample(self.bout.learner());
        self.opened = None;
        self.reinforced = None;
        self.recent.clear();
        self.count_totals();
    }

    /// Drops the game under way, unfinished: the machine does not learn from it.
    pub fn abandon(&mut self) {
        self.bout.abandon();
        self.game = None;
    }

    /// Starts a new game if none is under way (and the session's limit allows one).
    pub fn begin(&mut self) -> bool {
        if !self.in_game() {
            if self.limit_reached() {
                return false;
            }
            self.bout.begin();
            let pos = self.game().start();
            self.game = Some(GameRecord {
                number: self.machine().games_played + 1,
                positions: vec![pos],
                moves: Vec::new(),
                played: Vec::new(),
                result: None,
                resigned: false,
                why: None,
            });
        }
        true
    }

    /// The legal moves of the person to move, in the order `human_move` takes them, or `None`
    /// when it is not a person's turn.
    pub fn human_options(&self) -> Option<Vec<G::Move>> {
        self.bout.person_options()
    }

    /// Plays one ply (starting a new game if none is under way); a game that ends is reinforced
    /// and recorded. Returns whether anything happened (not at the session's game limit, nor a
    /// person's turn).
    pub fn ply(&mut self) -> bool {
        if self.script.is_some() {
            return self.recorded_ply();
        }
        if !self.begin() {
            return false;
        }
        let ply = self.bout.ply();
        self.shown(ply)
    }

    /// The person's move: option `pick` of [`Session::human_options`].
    pub fn human_move(&mut self, pick: usize) -> bool {
        let Some(mv) = self.human_options().and_then(|o| o.get(pick).copied()) else {
            return false;
        };
        let ply = self.bout.person_move(mv);
        self.shown(ply)
    }

    /// Records a ply for the screen, if one was played; whether one was.
    fn shown(&mut self, ply: Option<Ply<G::Move>>) -> bool {
        ply.map(|p| self.show(p)).is_some()
    }

    /// Records what a ply did, for the screen.
    fn show(&mut self, p: Ply<G::Move>) {
        let game_no = self.game.as_ref().map_or(0, |r| r.number);
        if let Some(d) = p.drawn {
            self.seq += 1;
            let image = self.image_of(d.box_index);
            self.opened = Some(Opened {
                game: game_no,
                box_index: d.box_index,
                arrow: d.arrow,
                image,
                seq: self.seq,
            });
            self.recent.retain(|&x| x != d.box_index);
            self.recent.push_front(d.box_index);
            self.recent.truncate(64);
            if let (Some(rec), Some(a)) = (&mut self.game, d.arrow) {
                rec.played.push((d.box_index, a));
            }
            if d.arrow.is_none()
                && let Some(rec) = &mut self.game
            {
                rec.resigned = true;
            }
        }
        if let Some(b) = p.rival_box {
            self.rival_recent.retain(|&x| x != b);
            self.rival_recent.push_front(b);
            self.rival_recent.truncate(64);
        }
        if let (Some(mv), Some(rec), Some(pos)) = (p.mv, &mut self.game, self.bout.position()) {
            rec.moves.push((p.side, mv));
            rec.positions.push(pos.clone());
        } else if let (Some(mv), Some(rec)) = (p.mv, &mut self.game) {
            // The move ended the game: the position after it is the game's last.
            let last = rec.position().clone();
            rec.moves.push((p.side, mv));
            rec.positions.push(self.bout.game().play(&last, mv));
        }
        if let Some(r) = p.ended {
            self.seq += 1;
            if let Some(g) = &mut self.game {
                g.result = Some(r.result);
                g.why = (!r.why.is_empty()).then(|| r.why.clone());
                // A moving average that follows the games as the machine learns.
                self.mean_plies += (g.moves.len() as f64 - self.mean_plies) * 0.2;
            }
            self.curve.push(r.game, r.result);
            self.first_box.sample(self.bout.learner());
            self.reinforced = Some(Reinforced {
                of: r,
                seq: self.seq,
            });
        }
    }

    /// The symmetry that takes the board (before the ply just played) to box `b`'s diagram,
    /// when they differ.
    fn image_of(&self, b: usize) -> Option<crate::game::Sym> {
        let g = self.game();
        let pos = self.game.as_ref()?.position();
        let boxed = self.machine().boxes.position(b);
        (boxed != *pos)
            .then(|| {
                (1..g.symmetry_count())
                    .map(|i| crate::game::Sym(i as u8))
                    .find(|&s| g.transform_position(s, pos) == boxed)
            })
            .flatten()
    }

    /// Plays the rest of the current game, if one is under way (a person's turn stops it).
    pub fn finish_game(&mut self) {
        while self.in_game() {
            if !self.ply() {
                break;
            }
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
    /// results), stopping early when `keep_going` says so (asked after every batch, of at most 256 games). The machine
    /// changes exactly as under `matchbox train` with the same settings.
    pub fn flat_out(&mut self, max: u64, mut keep_going: impl FnMut() -> bool) -> u64 {
        self.finish_game();
        if self.script.is_some() {
            // A record's games are played ply by ply, as the record gives them.
            let mut n = 0;
            while n < max && (n == 0 || keep_going()) && self.recorded_game() {
                n += 1;
            }
            return n;
        }
        let max = match self.limit {
            Some(l) => max.min(l.saturating_sub(self.stats().games)),
            None => max,
        };
        // The session's last game is played move by move (the same draws), so that the screen
        // shows it and its box when the session stops.
        let last_of_session = self
            .limit
            .is_some_and(|l| self.stats().games + max >= l && max > 0);
        let mut n = 0;
        // `keep_going` is asked after every batch (of at most 256 games).
        while n < max && (n == 0 || keep_going()) {
            if last_of_session && n + 1 == max {
                self.recorded_game();
                n += 1;
                break;
            }
            // Batches grow with the games played (1 game, 2, … 256), so the first box is
            // sampled as often as its curve wants.
            let batch = (max - n).min((self.machine().games_played / 16).clamp(1, 256));
            let batch = if last_of_session {
                batch.min(max - n - 1)
            } else {
                batch
            };
            let curve = &mut self.curve;
            let played = self
                .bout
                .train_each(batch, |number, r| curve.push(number, r));
            n += played;
            self.first_box.sample(self.bout.learner());
            if played < batch {
                break;
            }
        }
        n
    }
}
