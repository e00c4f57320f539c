//! Matchbox learning: boxes, beads, reinforcement schemes, and the machine that holds them.

mod against;
pub mod bout;
pub mod boxes;
mod defaults;
pub mod ends;
pub mod engine;
pub mod exact;
pub mod experiment;
mod fast;
pub mod lazy;
pub mod lesson;
mod machine;
mod match_spec;
pub mod odds;
pub mod real;
mod score;
mod spec;
mod table;

use std::fmt;
use std::str::FromStr;

use crate::game::{Game, Sym};

use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use bout::{Against, Bout, BoutError, BoutOptions, Hint, Preparing};
pub use boxes::{BoxSet, MatchBox};
pub use defaults::{BoxCounts, GameDefaults, MachineName, ON_DEMAND_LIMIT, perfect_values};
pub use machine::{BeadTotals, Machine, MachineGame, MachineMove, first_box_empty};
pub use match_spec::{MatchError, MatchSpec, Rival, Source};
pub use score::{Score, result_letter};
pub use spec::{MachineSpec, rival_for};

#[derive(Debug, Error, PartialEq, Eq, Clone)]
pub enum LearnError {
    #[error(
        "bad reinforcement `{0}`: use gardner, michie, class, or WIN,DRAW,LOSS[:all|:last] such as 3,1,-1:all"
    )]
    BadReinforcement(String),
    #[error("bad bead counts `{0}`: use a count per arrow for each stage, e.g. 1 or 4,3,2,1")]
    BadStageBeads(String),
    #[error(
        "{0} beads per arrow is more than the most a fresh arrow may hold ({MAX_INITIAL_BEADS})"
    )]
    TooManyBeads(u64),
    #[error(
        "bead counts `{0}`: a box that starts with no beads resigns at once; give each move at least 1"
    )]
    NoBeads(String),
    #[error("{0} beads in one box is more than a box may hold ({MAX_BOX_BEADS})")]
    BoxTooFull(u64),
    #[error(
        "bead counts `{beads}` are {given}, but the learner makes at most {moves} moves in {game} {variant} (one count a move, the last repeated)"
    )]
    TooManyStages {
        beads: String,
        given: usize,
        moves: usize,
        game: &'static str,
        variant: String,
    },
    #[error("{found} bead counts for a box of {expected} arrows")]
    ArrowCount { expected: usize, found: usize },
    #[error(
        "the memory allowed the boxes is {max}, but a table machine makes every box at once, and {game} {variant}'s take {need} (a lazy machine makes its boxes as it meets them, within the limit)"
    )]
    TableTooBig {
        game: &'static str,
        variant: String,
        need: String,
        max: String,
    },
    #[error(
        "this opponent does not choose uniformly from a set of moves, so it cannot be compiled into a table; use the lazy engine"
    )]
    NotCompilable,
    #[error(transparent)]
    Solve(#[from] crate::solve::SolveError),
    #[error("`{text}` is not {what} (use {choices})")]
    NotAChoice {
        text: String,
        what: &'static str,
        choices: &'static str,
    },
}

/// How mirror-image positions are merged into one matchbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum SymmetryMode {
    /// Every symmetric image merged; in a symmetric position, symmetric moves are one arrow.
    Full,
    /// Gardner's 1962 HER: images merged only at the first move (which fixes the board's frame for
    /// the rest of the game) and, within that frame, symmetric moves of a symmetric position.
    Gardner,
    /// Every position its own box, every move its own arrow.
    None,
}

impl fmt::Display for SymmetryMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SymmetryMode::Full => "full",
            SymmetryMode::Gardner => "gardner",
            SymmetryMode::None => "none",
        })
    }
}

impl SymmetryMode {
    /// The mode in words for titles: "full symmetry", "gardner symmetry", "no symmetry".
    pub fn words(self) -> &'static str {
        match self {
            SymmetryMode::Full => "full symmetry",
            SymmetryMode::Gardner => "gardner symmetry",
            SymmetryMode::None => "no symmetry",
        }
    }
}

impl FromStr for SymmetryMode {
    type Err = LearnError;
    fn from_str(s: &str) -> Result<SymmetryMode, LearnError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "full" => Ok(SymmetryMode::Full),
            "gardner" => Ok(SymmetryMode::Gardner),
            "none" => Ok(SymmetryMode::None),
            _ => Err(LearnError::NotAChoice {
                text: crate::text::quote(s),
                what: "a symmetry mode",
                choices: "full, gardner or none",
            }),
        }
    }
}

impl TryFrom<String> for SymmetryMode {
    type Error = LearnError;
    fn try_from(s: String) -> Result<Self, LearnError> {
        s.parse()
    }
}
impl From<SymmetryMode> for String {
    fn from(m: SymmetryMode) -> String {
        m.to_string()
    }
}

impl SymmetryMode {
    /// The frame a learner sees the board in after `plies` plies of a game, given the frame it had
    /// and the real position now. Gardner's rule, written once: the first move fixes the frame
    /// (the board is turned so that the position after it is canonical) for the rest of the game.
    /// The other modes keep the identity frame (full symmetry canonicalises every position).
    pub fn frame_after<G: Game>(self, game: &G, plies: u32, real: &G::Position, frame: Sym) -> Sym {
        if self == SymmetryMode::Gardner && plies == 1 {
            game.canonical(real).1
        } else {
            frame
        }
    }

    /// The position a box is made for, seen from the real position in `frame`, and the symmetry
    /// that maps the real board onto it. An arrow `a` of the box is played on the real board as
    /// `game.transform_move(game.inverse(sym), a)`.
    pub fn box_view<G: Game>(self, game: &G, real: &G::Position, frame: Sym) -> (G::Position, Sym) {
        match self {
            SymmetryMode::None => (real.clone(), Sym::IDENTITY),
            SymmetryMode::Full => game.canonical(real),
            SymmetryMode::Gardner => (game.transform_position(frame, real), frame),
        }
    }

    /// The arrows of a box for `pos` (seen in the box's frame): every legal move, or with
    /// symmetric moves of a symmetric position merged.
    pub fn arrows<G: Game>(self, game: &G, pos: &G::Position) -> Vec<G::Move> {
        match self {
            SymmetryMode::None => game.moves(pos),
            _ => game.distinct_moves(pos),
        }
    }
}

/// Historical settings: initial beads and reinforcement together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// Gardner's HER: 1 bead per arrow; punish only (−1 on the last move of a lost game).
    Gardner,
    /// Michie's MENACE: 4/3/2/1 beads per arrow at the machine's 1st/2nd/3rd/4th move; +3 win,
    /// +1 draw, −1 loss on every move played.
    Michie,
    /// M. Scroggs' online MENACE: 8/4/2/1 beads; +3/+1/−1 on every move played.
    Scroggs,
    /// MENACE for a class (noughts and crosses' default): the 2017 festival MENACE's 8/3/2/1
    /// beads, +4 win, +3 draw, −1 loss on every move played. Against a perfect player a draw is
    /// the best there is, so it is paid nearly as a win: Michie's +3/+1/−1 drains the first box
    /// (60 % of machines resign for good by game 200), this one almost never does.
    Class,
}

impl Preset {
    pub fn beads(self) -> StageBeads {
        StageBeads(match self {
            Preset::Gardner => vec![1],
            Preset::Michie => vec![4, 3, 2, 1],
            Preset::Scroggs => vec![8, 4, 2, 1],
            Preset::Class => vec![8, 3, 2, 1],
        })
    }
    pub fn reinforcement(self) -> Reinforcement {
        match self {
            Preset::Gardner => Reinforcement::GARDNER,
            Preset::Michie | Preset::Scroggs => Reinforcement::MICHIE,
            Preset::Class => Reinforcement::CLASS,
        }
    }
}

impl FromStr for Preset {
    type Err = LearnError;
    fn from_str(s: &str) -> Result<Preset, LearnError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "gardner" => Ok(Preset::Gardner),
            "michie" => Ok(Preset::Michie),
            "scroggs" => Ok(Preset::Scroggs),
            "class" => Ok(Preset::Class),
            _ => Err(LearnError::NotAChoice {
                text: crate::text::quote(s),
                what: "a preset",
                choices: "gardner, michie, scroggs or class",
            }),
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Preset::Gardner => "gardner",
            Preset::Michie => "michie",
            Preset::Scroggs => "scroggs",
            Preset::Class => "class",
        })
    }
}

/// Whether a position where the learner has a single legal move gets a box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Forced {
    /// Every position gets a box (Gardner's HER has one-arrow boxes).
    Include,
    /// The single move is made without a box (Michie's MENACE has no box for the ninth move).
    Skip,
}

impl fmt::Display for Forced {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Forced::Include => "include",
            Forced::Skip => "skip",
        })
    }
}

/// A number of beads for one arrow.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[repr(transparent)]
#[serde(transparent)]
pub struct Beads(pub u32);

impl Beads {
    pub fn get(self) -> u32 {
        self.0
    }
    /// Adds a (possibly negative) change, never going below zero nor above [`MAX_BOX_BEADS`].
    pub fn apply(self, delta: i32) -> Beads {
        Beads(self.0.saturating_add_signed(delta).min(MAX_BOX_BEADS))
    }
}

/// The most beads one box may hold, all arrows together: a thousand million. Reinforcement stops
/// adding beads to a full box, a file whose box holds more is refused, and the running sums of a
/// draw can never overflow.
pub const MAX_BOX_BEADS: u32 = 1_000_000_000;
/// The most beads a fresh arrow may start with (so a fresh box of up to 1,000 arrows fits in
/// [`MAX_BOX_BEADS`]).
pub const MAX_INITIAL_BEADS: u32 = 1_000_000;

impl fmt::Display for Beads {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Initial beads per arrow, one count per stage (the learner's 1st, 2nd, … move); the last count
/// applies to any later stage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Vec<u32>", into = "Vec<u32>")]
pub struct StageBeads(Vec<u32>);

impl StageBeads {
    pub fn uniform(n: u32) -> StageBeads {
        StageBeads(vec![n])
    }
    pub fn new(counts: Vec<u32>) -> Result<StageBeads, LearnError> {
        if counts.is_empty() {
            return Err(LearnError::BadStageBeads(String::new()));
        }
        if let Some(&n) = counts.iter().find(|&&n| n > MAX_INITIAL_BEADS) {
            return Err(LearnError::TooManyBeads(n as u64));
        }
        Ok(StageBeads(counts))
    }
    /// The counts, one per stage.
    pub fn counts(&self) -> &[u32] {
        &self.0
    }
    pub fn for_stage(&self, stage: usize) -> Beads {
        Beads(self.0[stage.min(self.0.len() - 1)])
    }
}

impl TryFrom<Vec<u32>> for StageBeads {
    type Error = LearnError;
    fn try_from(v: Vec<u32>) -> Result<Self, LearnError> {
        StageBeads::new(v)
    }
}
impl From<StageBeads> for Vec<u32> {
    fn from(s: StageBeads) -> Vec<u32> {
        s.0
    }
}

impl FromStr for StageBeads {
    type Err = LearnError;
    fn from_str(s: &str) -> Result<StageBeads, LearnError> {
        let counts: Result<Vec<u64>, _> = s.split([',', '/']).map(|p| p.trim().parse()).collect();
        let counts = counts
            .ok()
            .filter(|c| !c.is_empty())
            .ok_or_else(|| LearnError::BadStageBeads(crate::text::quote(s)))?;
        if let Some(&n) = counts.iter().find(|&&n| n > MAX_INITIAL_BEADS as u64) {
            return Err(LearnError::TooManyBeads(n));
        }
        if counts.contains(&0) {
            return Err(LearnError::NoBeads(crate::text::quote(s)));
        }
        StageBeads::new(counts.into_iter().map(|n| n as u32).collect())
    }
}

impl fmt::Display for StageBeads {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self.0.iter().map(u32::to_string).collect();
        f.write_str(&parts.join(","))
    }
}

/// Which of the learner's moves a reinforcement applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Every move the learner played in the game.
    AllMoves,
    /// Only the learner's last move.
    LastMove,
}

/// Bead changes after a game, from the learner's side. Counts never go below zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Reinforcement {
    pub win: i32,
    pub draw: i32,
    pub loss: i32,
    pub scope: Scope,
}

impl Reinforcement {
    /// Gardner's HER: punish only, by taking away the bead of the last move of a lost game.
    pub const GARDNER: Reinforcement = Reinforcement {
        win: 0,
        draw: 0,
        loss: -1,
        scope: Scope::LastMove,
    };
    /// Michie's MENACE: +3 win, +1 draw, −1 loss, for every move played.
    pub const MICHIE: Reinforcement = Reinforcement {
        win: 3,
        draw: 1,
        loss: -1,
        scope: Scope::AllMoves,
    };

    /// The class preset's: +4 win, +3 draw, −1 loss, for every move played.
    pub const CLASS: Reinforcement = Reinforcement {
        win: 4,
        draw: 3,
        loss: -1,
        scope: Scope::AllMoves,
    };

    pub fn delta(&self, result: GameResult) -> i32 {
        match result {
            GameResult::Win => self.win,
            GameResult::Draw => self.draw,
            GameResult::Loss => self.loss,
        }
    }
    /// A sentence for headers and help.
    pub fn describe(&self) -> String {
        let scope = match self.scope {
            Scope::AllMoves => "every move played",
            Scope::LastMove => "the last move",
        };
        format!(
            "{self} (win {:+}, draw {:+}, loss {:+}, on {scope})",
            self.win, self.draw, self.loss
        )
    }
}

impl FromStr for Reinforcement {
    type Err = LearnError;
    fn from_str(s: &str) -> Result<Reinforcement, LearnError> {
        let t = s.trim().to_ascii_lowercase();
        match t.as_str() {
            "gardner" => return Ok(Reinforcement::GARDNER),
            "michie" => return Ok(Reinforcement::MICHIE),
            "class" => return Ok(Reinforcement::CLASS),
            _ => {}
        }
        let bad = || LearnError::BadReinforcement(crate::text::quote(s));
        let (nums, scope) = match t.split_once(':') {
            Some((n, "all")) => (n, Scope::AllMoves),
            Some((n, "last")) => (n, Scope::LastMove),
            Some(_) => return Err(bad()),
            None => (t.as_str(), Scope::AllMoves),
        };
        let v: Vec<i32> = nums
            .split(',')
            .map(|p| p.trim().parse().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        let [win, draw, loss] = v[..] else {
            return Err(bad());
        };
        Ok(Reinforcement {
            win,
            draw,
            loss,
            scope,
        })
    }
}

impl TryFrom<String> for Reinforcement {
    type Error = LearnError;
    fn try_from(s: String) -> Result<Self, LearnError> {
        s.parse()
    }
}
impl From<Reinforcement> for String {
    fn from(r: Reinforcement) -> String {
        r.to_string()
    }
}

impl fmt::Display for Reinforcement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Reinforcement::GARDNER {
            return f.write_str("gardner");
        }
        if *self == Reinforcement::MICHIE {
            return f.write_str("michie");
        }
        if *self == Reinforcement::CLASS {
            return f.write_str("class");
        }
        let scope = match self.scope {
            Scope::AllMoves => "all",
            Scope::LastMove => "last",
        };
        write!(f, "{},{},{}:{scope}", self.win, self.draw, self.loss)
    }
}

/// The result of one game, from the learner's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameResult {
    Win,
    Draw,
    Loss,
}

impl GameResult {
    /// The same game seen by the other player.
    pub fn for_opponent(self) -> GameResult {
        match self {
            GameResult::Win => GameResult::Loss,
            GameResult::Draw => GameResult::Draw,
            GameResult::Loss => GameResult::Win,
        }
    }

    /// Michie's score: +1 win, 0 draw, −1 loss.
    pub fn score(self) -> i32 {
        match self {
            GameResult::Win => 1,
            GameResult::Draw => 0,
            GameResult::Loss => -1,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameResult::Win => "win",
            GameResult::Draw => "draw",
            GameResult::Loss => "loss",
        })
    }
}

/// Which engine trains a machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Engine {
    /// The compiled table where the game's graph is small enough to enumerate, lazy otherwise.
    #[default]
    Auto,
    /// Every box enumerated up front and the game compiled into one table ([`engine`]).
    Table,
    /// Boxes made the first time a position comes up; the game played from positions ([`lazy`]).
    Lazy,
}

impl FromStr for Engine {
    type Err = LearnError;
    fn from_str(s: &str) -> Result<Engine, LearnError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(Engine::Auto),
            "table" => Ok(Engine::Table),
            "lazy" => Ok(Engine::Lazy),
            _ => Err(LearnError::NotAChoice {
                text: crate::text::quote(s),
                what: "an engine",
                choices: "auto, table or lazy",
            }),
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Engine::Auto => "auto",
            Engine::Table => "table",
            Engine::Lazy => "lazy",
        })
    }
}
