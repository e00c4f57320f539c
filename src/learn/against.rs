//! Whom a learner plays, as a match asks for it, and why a match cannot be set up.

use thiserror::Error;

use super::Engine;
use super::Machine;
use crate::game::Game;
use crate::players::Opponent;
use crate::solve::SolveError;

/// A setting that gets round an error, as data: the core names it and each front end words it
/// (`--opponent mcts or random` on the command line, `opponent=mcts or random` on the page).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The setting's name, as the command line and the page's address both name it.
    pub key: &'static str,
    /// The values that would do, best first.
    pub values: &'static [&'static str],
}

impl Hint {
    /// As the command line says it: `--opponent mcts or random`.
    pub fn as_flag(&self) -> String {
        format!("--{} {}", self.key, self.values.join(" or "))
    }
    /// As the page's address says it: `opponent=mcts or random`.
    pub fn as_param(&self) -> String {
        format!("{}={}", self.key, self.values.join(" or "))
    }
    /// The hint an error carries, if it is a match's (looked for down its sources).
    pub fn of(err: &(dyn std::error::Error + 'static)) -> Option<Hint> {
        let mut at = Some(err);
        while let Some(e) = at {
            if let Some(h) = e.downcast_ref::<BoutError>().and_then(BoutError::hint) {
                return Some(h);
            }
            if let Some(super::MatchError::Bout(b)) = e.downcast_ref::<super::MatchError>() {
                return b.hint();
            }
            let learner = match e.downcast_ref::<super::MatchError>() {
                Some(super::MatchError::Learner(l)) => Some(l),
                _ => e.downcast_ref::<super::LearnError>(),
            };
            if let Some(super::LearnError::TableTooBig { .. }) = learner {
                return Some(Hint {
                    key: "engine",
                    values: &["lazy"],
                });
            }
            at = e.source();
        }
        None
    }
}

/// Why a bout cannot be set up. The message names no option: what would get round it is its
/// [`BoutError::hint`], which each front end words its own way.
#[derive(Debug, Error)]
pub enum BoutError {
    #[error("the perfect player cannot solve {game} {variant}: it is too big")]
    PerfectTooBig { game: &'static str, variant: String },
    #[error("the perfect player cannot solve {game} {variant}: {err}")]
    Unsolvable {
        game: &'static str,
        variant: String,
        err: SolveError,
    },
    #[error("the {0} opponent searches from positions and cannot be compiled into a table")]
    SearchOnTable(Opponent),
    #[error(
        "{game}'s positions can repeat, and games are cut at {limit} plies: it runs on the position engine"
    )]
    RepeatsOnTable { game: &'static str, limit: u32 },
    #[error("a lazy machine (only the boxes it made) cannot run on the table")]
    LazyOnTable,
    #[error(
        "{game} {variant} is too big to enumerate here; `matchbox count {game}` estimates how many boxes it needs"
    )]
    TooBigForTable { game: &'static str, variant: String },
    #[error("there is no rival machine to play")]
    NoRival,
}

impl BoutError {
    /// The setting that gets round it, if one does.
    pub fn hint(&self) -> Option<Hint> {
        let (key, values): (_, &'static [&'static str]) = match self {
            BoutError::PerfectTooBig { .. } => ("opponent", &["mcts", "random"]),
            BoutError::Unsolvable { .. } => ("opponent", &["random"]),
            BoutError::SearchOnTable(_)
            | BoutError::RepeatsOnTable { .. }
            | BoutError::LazyOnTable => ("engine", &["lazy", "auto"]),
            BoutError::NoRival => ("opponent", &["matchbox"]),
            BoutError::TooBigForTable { .. } => return None,
        };
        Some(Hint { key, values })
    }
}

/// Whether whole games of `game` may run on a compiled table on `engine`, for a learner whose
/// boxes are lazy or not, given an opponent that can be compiled: the one rule.
pub(super) fn table_engine<G: Game>(game: &G, engine: Engine, lazy: bool) -> bool {
    engine != Engine::Lazy && !lazy && game.ply_limit().is_none() && crate::game::enumerable(game)
}

/// Who the learner plays, as asked for.
pub enum Against<G: Game> {
    Perfect,
    Random,
    /// The tree search with this many simulations a move.
    Mcts(u32),
    /// A person, whose moves come from outside ([`Bout::person_move`]).
    Person,
    /// A second machine for the other side, which learns from every game too.
    Rival(Machine<G>),
}

impl<G: Game> Against<G> {
    /// The opponent of `kind` (a rival machine must be given as [`Against::Rival`]).
    pub fn of(kind: Opponent) -> Result<Against<G>, BoutError> {
        Ok(match kind {
            Opponent::Perfect => Against::Perfect,
            Opponent::Random => Against::Random,
            Opponent::Mcts(n) => Against::Mcts(n),
            Opponent::Human => Against::Person,
            Opponent::Matchbox => return Err(BoutError::NoRival),
        })
    }
}
