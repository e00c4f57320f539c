//! Setting a bout up: checking the engine against the opponent, enumerating and solving the
//! game where it is needed, and compiling the table whole games run on.

use std::sync::Arc;

use crate::learn::engine::{Ends, Enumerated, GameState, RivalGame, Table};
use crate::learn::lazy::{MatchboxPlayer, Scratch};
use crate::learn::{Engine, GameDefaults, Machine, Score};
use crate::players::{Builtin, MctsPlayer, Opponent, RandomPlayer};
use crate::solve::{GraphValues, SharedValues, Solution, Values};

use crate::learn::against::table_engine;
use crate::learn::against::{Against, BoutError};

use super::*;

impl<G: GameDefaults> Bout<G> {
    /// A bout of `learner` against `opponent`. Big games are enumerated, solved and compiled
    /// here (minutes for Hexapawn 5×6): `progress` hears each step. Only a spec builds one
    /// ([`crate::learn::MatchSpec::build`]).
    pub(in crate::learn) fn new(
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
    pub(in crate::learn) fn on_graph(
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
    pub(super) fn check_engine(&self, opponent: &Against<G>) -> Result<(), BoutError> {
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
    pub(super) fn table_engine(&self) -> bool {
        table_engine(
            &self.game,
            self.options.engine,
            self.learner.boxes.is_lazy(),
        )
    }

    /// Whether whole games can run on a compiled table against the opposition now.
    pub(super) fn table_possible(&self) -> bool {
        let opposition = match &self.opposition {
            Opposition::Player(p) => !matches!(p, Builtin::Mcts(_)),
            Opposition::Person => false,
            Opposition::Rival(r) => !r.machine.boxes.is_lazy(),
        };
        opposition && self.table_engine()
    }

    /// The game's whole graph, built on first need.
    pub(super) fn enumerated(&mut self, progress: &mut dyn FnMut(Preparing)) -> Arc<Enumerated<G>> {
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
    pub(super) fn perfect_values(
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
            crate::learn::perfect_values(&self.game, self.options.tie_break).map_err(unsolvable)?
        };
        self.values = Some((values.clone(), start));
        Ok(values)
    }

    pub(super) fn opposition_for(
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
    pub(super) fn compile(&mut self, progress: &mut dyn FnMut(Preparing)) -> Result<(), BoutError> {
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
}
