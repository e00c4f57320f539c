//! Matchbox learning: boxes, beads, reinforcement schemes, and the machine that holds them.

pub mod boxes;
pub mod engine;

use std::fmt;
use std::str::FromStr;

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use boxes::{BoxSet, MatchBox};

/// The random number generator every learner and player uses: portable, seedable, fast.
pub type Rng = Xoshiro256PlusPlus;
/// Its name, as saved with every run and box file.
pub const RNG_NAME: &str = "xoshiro256++";

/// A generator seeded from `seed` (SplitMix64 expansion, as `rand_xoshiro` does it).
pub fn rng_from_seed(seed: u64) -> Rng {
    Rng::seed_from_u64(seed)
}

/// A number drawn uniformly from `0..n` (`n > 0`), exactly: Lemire's multiply-and-reject method
/// ("Fast random integer generation in an interval", 2019). One 64-bit draw almost always; the
/// rejection branch is taken with probability below n / 2^64.
#[inline(always)]
pub fn uniform_below(rng: &mut Rng, n: u32) -> u32 {
    use rand::Rng as _;
    debug_assert!(n > 0);
    let n = n as u64;
    let mut m = (rng.next_u64() as u128) * (n as u128);
    if (m as u64) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u64) < threshold {
            m = (rng.next_u64() as u128) * (n as u128);
        }
    }
    (m >> 64) as u32
}

/// The seed of run `run` of an experiment seeded with `seed`: a SplitMix64 mix of the two, so
/// neighbouring runs get unrelated streams and the result does not depend on scheduling.
pub fn derive_seed(seed: u64, run: u64) -> u64 {
    let mut z = seed ^ run.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[derive(Debug, Error, PartialEq, Eq, Clone)]
pub enum LearnError {
    #[error(
        "bad reinforcement `{0}`: use gardner, michie, or WIN,DRAW,LOSS[:all|:last] such as 3,1,-1:all"
    )]
    BadReinforcement(String),
    #[error("bad bead counts `{0}`: use a count per arrow for each stage, e.g. 1 or 4,3,2,1")]
    BadStageBeads(String),
}

/// How mirror-image positions are merged into one matchbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
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

/// Historical settings: initial beads and reinforcement together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Preset {
    /// Gardner's HER: 1 bead per arrow; punish only (−1 on the last move of a lost game).
    Gardner,
    /// Michie's MENACE: 4/3/2/1 beads per arrow at the machine's 1st/2nd/3rd/4th move; +3 win,
    /// +1 draw, −1 loss on every move played.
    Michie,
    /// M. Scroggs' online MENACE: 8/4/2/1 beads; +3/+1/−1 on every move played.
    Scroggs,
}

impl Preset {
    pub fn beads(self) -> StageBeads {
        StageBeads(match self {
            Preset::Gardner => vec![1],
            Preset::Michie => vec![4, 3, 2, 1],
            Preset::Scroggs => vec![8, 4, 2, 1],
        })
    }
    pub fn reinforcement(self) -> Reinforcement {
        match self {
            Preset::Gardner => Reinforcement::GARDNER,
            Preset::Michie | Preset::Scroggs => Reinforcement::MICHIE,
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Preset::Gardner => "gardner",
            Preset::Michie => "michie",
            Preset::Scroggs => "scroggs",
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
    /// Adds a (possibly negative) change, never going below zero.
    pub fn apply(self, delta: i32) -> Beads {
        Beads(self.0.saturating_add_signed(delta))
    }
}

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
        Ok(StageBeads(counts))
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
        let counts: Result<Vec<u32>, _> = s.split([',', '/']).map(|p| p.trim().parse()).collect();
        counts
            .ok()
            .filter(|c| !c.is_empty())
            .map(StageBeads)
            .ok_or_else(|| LearnError::BadStageBeads(s.to_string()))
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
            _ => {}
        }
        let bad = || LearnError::BadReinforcement(s.to_string());
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
