//! Whom a learner plays, as a match asks for it, and why a match cannot be set up.

use thiserror::Error;

use super::Engine;
use super::Machine;
use crate::game::Game;
use crate::players::Opponent;
use crate::solve::SolveError;

/// Why a bout cannot be set up.
#[derive(Debug, Error)]
pub enum BoutError {
    #[error(
        "the perfect player cannot solve {game} {variant}: it is too big; use --opponent mcts or random"
    )]
    PerfectTooBig { game: &'static str, variant: String },
    #[error("the perfect player cannot solve {game} {variant}: {err}; use --opponent random")]
    Unsolvable {
        game: &'static str,
        variant: String,
        err: SolveError,
    },
    #[error(
        "--opponent {0} searches from positions and cannot be compiled into a table; use --engine lazy or auto"
    )]
    SearchOnTable(Opponent),
    #[error(
        "{game}'s positions can repeat, and games are cut at {limit} plies: it runs on the position engine; use --engine lazy or auto"
    )]
    RepeatsOnTable { game: &'static str, limit: u32 },
    #[error(
        "a lazy machine (only the boxes it made) cannot run on the table; use --engine lazy or auto"
    )]
    LazyOnTable,
    #[error(
        "{game} {variant} is too big to enumerate here; `matchbox count {game}` estimates how many boxes it needs"
    )]
    TooBigForTable { game: &'static str, variant: String },
    #[error("there is no rival machine to play: start with --opponent matchbox")]
    NoRival,
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
