//! The perfect player: a best move by exact values, from any source of values (a solved graph, or a
//! solver on demand with its transposition table kept across moves and games).

use super::{Player, Turn, draw_from};
use crate::game::Game;
use crate::solve::{SolveError, TieBreak, Value, Values, best_indexes};

/// Plays uniformly among the moves that keep the best value under its tie-break.
#[derive(Clone)]
pub struct PerfectPlayer<V> {
    values: V,
    tie_break: TieBreak,
}

impl<V> PerfectPlayer<V> {
    pub fn new(values: V, tie_break: TieBreak) -> Self {
        PerfectPlayer { values, tie_break }
    }
    pub fn tie_break(&self) -> TieBreak {
        self.tie_break
    }
}

impl<V> PerfectPlayer<V> {
    /// The value for the mover of each legal move of `pos`, in legal-move order.
    pub fn move_values<G: Game>(
        &mut self,
        game: &G,
        pos: &G::Position,
    ) -> Result<Vec<(G::Move, Value)>, SolveError>
    where
        V: Values<G>,
    {
        let side = game.to_move(pos);
        let moves = game.moves(pos);
        let children: Vec<G::Position> = moves.iter().map(|&mv| game.play(pos, mv)).collect();
        let values = self.values.child_values(
            game,
            crate::solve::Children {
                parent: pos,
                moves: &moves,
                positions: &children,
            },
        )?;
        Ok(moves
            .into_iter()
            .zip(children.iter().zip(values))
            .map(|(mv, (child, v))| (mv, v.seen_from(game.to_move(child) == side)))
            .collect())
    }

    /// The moves it may play in `pos`, in legal-move order.
    pub fn best_moves<G: Game>(
        &mut self,
        game: &G,
        pos: &G::Position,
    ) -> Result<Vec<G::Move>, SolveError>
    where
        V: Values<G>,
    {
        let values = self.move_values(game, pos)?;
        let vals: Vec<Value> = values.iter().map(|&(_, v)| v).collect();
        Ok(best_indexes(&vals, self.tie_break)
            .into_iter()
            .map(|i| values[i].0)
            .collect())
    }
}

impl<G: Game, V: Values<G>> Player<G> for PerfectPlayer<V> {
    /// A best move; a position its values cannot solve (too big) gets a uniformly random move.
    fn choose(&mut self, game: &G, pos: &G::Position, turn: Turn<'_, G>) -> Option<G::Move> {
        let moves = match self.best_moves(game, pos) {
            Ok(m) if !m.is_empty() => m,
            _ => game.moves(pos),
        };
        (!moves.is_empty()).then(|| draw_from(&moves, turn.rng))
    }
    fn uniform_options(&mut self, game: &G, pos: &G::Position) -> Option<Vec<G::Move>> {
        self.best_moves(game, pos).ok()
    }
}
