//! A match as data: who learns, whom it plays, on which engine. Every front end (the command
//! line, the terminal's screens, the browser page, the class server) maps its own inputs to a
//! [`MatchSpec`], and [`MatchSpec::build`] is the one place a [`Bout`] is made from settings: the
//! engine, the rival, table or positions and "too big to solve" are decided there, once.

use std::sync::Arc;

use super::against::{Against, BoutError, table_engine};
use super::bout::{Bout, BoutOptions, Preparing};
use super::engine::Enumerated;
use super::{Engine, GameDefaults, Machine, MachineSpec, rival_for};
use crate::game::Game;
use crate::players::Opponent;
use crate::solve::TieBreak;

/// Where a machine comes from: made fresh from settings, or as a file held it.
#[derive(Clone)]
pub enum Source<G: Game> {
    Fresh(MachineSpec),
    Loaded(Machine<G>),
}

impl<G: GameDefaults> Source<G> {
    /// The side the machine plays (a fresh one's from its settings and the game's defaults).
    pub fn side(&self, game: &G) -> crate::game::Side {
        match self {
            Source::Fresh(spec) => spec.set_choice(game).0,
            Source::Loaded(m) => m.boxes.side(),
        }
    }
    /// Whether its boxes are made as positions come up.
    pub fn is_lazy(&self) -> bool {
        match self {
            Source::Fresh(spec) => spec.lazy,
            Source::Loaded(m) => m.boxes.is_lazy(),
        }
    }
}

impl<G: Game> PartialEq for Source<G> {
    /// Fresh machines compare by their settings; loaded ones are never equal (a file's machine
    /// is compared by its beads elsewhere).
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Source::Fresh(a), Source::Fresh(b)) => a == b,
            _ => false,
        }
    }
}

/// Whom the learner plays.
#[derive(Clone)]
pub enum Rival<G: Game> {
    /// The perfect player, the random player, a tree search or a person.
    Player(Opponent),
    /// A second machine for the other side, which learns too: fresh with the game's defaults
    /// (its seed drawn from the learner's), or loaded.
    Machine(Option<Machine<G>>),
}

impl<G: Game> PartialEq for Rival<G> {
    /// Players compare by kind, fresh rival machines are equal, loaded ones never.
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Rival::Player(a), Rival::Player(b)) => a == b,
            (Rival::Machine(None), Rival::Machine(None)) => true,
            _ => false,
        }
    }
}

impl<G: Game> Rival<G> {
    /// The opponent's kind, as the screens and reports name it.
    pub fn kind(&self) -> Opponent {
        match self {
            Rival::Player(k) => *k,
            Rival::Machine(_) => Opponent::Matchbox,
        }
    }
}

/// A match, not yet built: see the module documentation.
#[derive(Clone)]
pub struct MatchSpec<G: Game> {
    pub learner: Source<G>,
    pub opponent: Rival<G>,
    pub engine: Engine,
    pub tie_break: TieBreak,
    /// The game already enumerated, to share between matches (not built again); `None`: the
    /// match enumerates it where its engine needs it.
    pub graph: Option<Arc<Enumerated<G>>>,
}

impl<G: Game> PartialEq for MatchSpec<G> {
    fn eq(&self, other: &Self) -> bool {
        self.learner == other.learner
            && self.opponent == other.opponent
            && self.engine == other.engine
            && self.tie_break == other.tie_break
    }
}

impl<G: Game> std::fmt::Debug for MatchSpec<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let learner = match &self.learner {
            Source::Fresh(spec) => format!("{spec:?}"),
            Source::Loaded(m) => format!("a loaded machine of {} games", m.games_played),
        };
        let opponent = match &self.opponent {
            Rival::Player(k) => k.to_string(),
            Rival::Machine(None) => "a fresh rival machine".into(),
            Rival::Machine(Some(_)) => "a loaded rival machine".into(),
        };
        (f.debug_struct("MatchSpec"))
            .field("learner", &learner)
            .field("opponent", &opponent)
            .field("engine", &self.engine)
            .field("tie_break", &self.tie_break)
            .finish()
    }
}

impl<G: GameDefaults> MatchSpec<G> {
    /// A fresh learner with `machine`'s settings against `opponent` (a fresh rival machine for
    /// [`Opponent::Matchbox`]), on the automatic engine.
    pub fn fresh(machine: MachineSpec, opponent: Opponent) -> MatchSpec<G> {
        MatchSpec {
            learner: Source::Fresh(machine),
            opponent: match opponent {
                Opponent::Matchbox => Rival::Machine(None),
                k => Rival::Player(k),
            },
            engine: Engine::Auto,
            tie_break: TieBreak::default(),
            graph: None,
        }
    }

    /// Whether the match would run whole games on a compiled table (for a front end that warns
    /// before a big enumeration): the rule [`Bout`] applies, asked before anything is built.
    pub fn uses_table(&self, game: &G) -> bool {
        let lazy = self.learner.is_lazy();
        let searches = matches!(
            self.opponent,
            Rival::Player(Opponent::Mcts(_) | Opponent::Human)
        );
        !searches && table_engine(game, self.engine, lazy)
    }

    /// The match, built: the learner made or taken, the rival made where it is fresh, and the
    /// game enumerated, solved and compiled as the engine and the opponent need (`progress`
    /// hears each step of a big game).
    pub fn build(
        self,
        game: G,
        progress: &mut dyn FnMut(Preparing),
    ) -> Result<Bout<G>, super::MatchError> {
        let learner = match self.learner {
            Source::Fresh(spec) => spec.build(&game)?,
            Source::Loaded(m) => m,
        };
        let against = match self.opponent {
            Rival::Player(Opponent::Human) => Against::Person,
            Rival::Player(k) => Against::of(k)?,
            Rival::Machine(Some(m)) => Against::Rival(m),
            Rival::Machine(None) => Against::Rival(rival_for(&game, &learner)),
        };
        let options = BoutOptions {
            engine: self.engine,
            tie_break: self.tie_break,
        };
        Ok(match self.graph {
            Some(graph) => Bout::on_graph(graph, learner, against, options, progress)?,
            None => Bout::new(game, learner, against, options, progress)?,
        })
    }
}

/// Why a match cannot be built: its learner's settings, or the match itself.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    #[error(transparent)]
    Learner(#[from] super::LearnError),
    #[error(transparent)]
    Bout(#[from] BoutError),
}
