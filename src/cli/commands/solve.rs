//! `solve`: exact game values under perfect play, from the whole graph or from a position.

use std::fmt;

use serde::Serialize;

use super::*;

/// A move and its value for the mover.
#[derive(Serialize)]
pub(super) struct MoveValue {
    #[serde(rename = "move")]
    mv: String,
    value: String,
}

/// The start of a game solved from its whole graph.
#[derive(Serialize)]
pub(super) struct GraphSolve {
    game: &'static str,
    size: String,
    winner: String,
    winner_role: String,
    best_moves: Vec<String>,
    first_moves: Vec<MoveValue>,
    plies: usize,
    principal_variation: Vec<String>,
    positions: usize,
    #[serde(skip)]
    to_move: &'static str,
    #[serde(skip)]
    value: String,
}

impl fmt::Display for GraphSolve {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mover = self.to_move;
        writeln!(
            f,
            "{} {}: {} positions reachable.",
            self.game,
            self.size,
            crate::text::group(self.positions as u64)
        )?;
        match self.winner_role.as_str() {
            "draw" => writeln!(f, "Under perfect play the game is a draw.")?,
            role => writeln!(
                f,
                "Under perfect play {} ({role} player) wins in {}.",
                self.winner,
                crate::text::count(self.plies as u64, "ply", "plies")
            )?,
        }
        writeln!(f, "Value of the start for {mover}: {}.", self.value)?;
        writeln!(f, "First moves for {mover}:")?;
        write_moves(f, &self.first_moves, &self.best_moves, 8)?;
        writeln!(
            f,
            "Principal variation: {}",
            numbered(&self.principal_variation)
        )
    }
}

/// Each move with its value, a best one marked, the moves in a column `width` wide.
fn write_moves(
    f: &mut fmt::Formatter<'_>,
    moves: &[MoveValue],
    best: &[String],
    width: usize,
) -> fmt::Result {
    for m in moves {
        let mark = match (best.contains(&m.mv), m.value.starts_with("loss")) {
            (false, _) => "",
            (true, false) => "  (best)",
            (true, true) => "  (best: resists longest)",
        };
        writeln!(f, "  {:<width$} {}{mark}", m.mv, m.value)?;
    }
    Ok(())
}

/// A line of moves with move numbers, as `replay` reads it: `1. b1-b2 a3xb2 2. c1xb2 …`.
fn numbered(line: &[String]) -> String {
    line.chunks(2)
        .enumerate()
        .map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" ")))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Either report of `solve`.
#[derive(Serialize)]
#[serde(untagged)]
pub(super) enum SolveReport {
    Graph(GraphSolve),
    Position(PositionSolve),
}

impl fmt::Display for SolveReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveReport::Graph(r) => r.fmt(f),
            SolveReport::Position(r) => r.fmt(f),
        }
    }
}

pub(super) fn solve<G: FullGame>(game: G, a: &SolveArgs) -> Result<SolveReport> {
    if a.side.is_some() && a.position.is_none() {
        bail!("--side is the side to move in --position: give --position too");
    }
    if a.position.is_some() || (!crate::cli::setup::enumerable(&game) && game.has_own_solver()) {
        return Ok(SolveReport::Position(solve_from_position(game, a)?));
    }
    crate::cli::setup::check_enumerable(&game)?;
    let graph = crate::cli::setup::build_graph(&game);
    // A graph with cycles (mini-Arimaa) is solved by retrograde analysis.
    let solution = Solution::solve_any(&graph);
    let winner = solution.winner(&graph, 0);
    let first_moves = graph
        .moves(0)
        .iter()
        .zip(solution.move_values(&graph, 0))
        .map(|(&m, v)| MoveValue {
            mv: game.format_move(m),
            value: v.to_string(),
        })
        .collect();
    // The best as a player who plays on: the fastest win, the longest resistance in a loss.
    let best_moves = solution
        .best_moves(&graph, 0, TieBreak::Fastest)
        .into_iter()
        .map(|i| game.format_move(graph.moves(0)[i]))
        .collect();
    let line: Vec<String> = solution
        .principal_variation(&graph, 0)
        .into_iter()
        .map(|m| game.format_move(m))
        .collect();
    Ok(SolveReport::Graph(GraphSolve {
        game: game.name(),
        size: game.variant(),
        winner: winner.map(|s| game.side_name(s)).unwrap_or("draw").into(),
        winner_role: winner.map_or_else(|| "draw".into(), |s| s.to_string()),
        best_moves,
        first_moves,
        plies: line.len(),
        principal_variation: line,
        positions: graph.len(),
        to_move: game.side_name(graph.to_move(0)),
        value: solution.value(0).to_string(),
    }))
}

/// A position solved by the game's own solver or a search on demand.
#[derive(Serialize)]
pub(super) struct PositionSolve {
    game: &'static str,
    size: Option<String>,
    position: String,
    to_move: &'static str,
    winner: &'static str,
    best_moves: Vec<String>,
    first_moves: Vec<MoveValue>,
    plies: usize,
    principal_variation: Vec<String>,
    seconds: f64,
    #[serde(skip)]
    variant: String,
    /// How the game ended, when the position is already over (the winner, or none for a draw).
    #[serde(skip)]
    over: Option<Option<&'static str>>,
    /// The distance to the win in plies, when the solver counts them.
    #[serde(skip)]
    distance: Option<u32>,
}

impl fmt::Display for PositionSolve {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} {}: {} to move in {}",
            self.game, self.variant, self.to_move, self.position
        )?;
        if let Some(winner) = self.over {
            // Nothing to solve: say how it ended.
            return match winner {
                Some(w) => writeln!(f, "The game is over: {w} has won."),
                None => writeln!(f, "The game is over: a draw."),
            };
        }
        match (self.winner, self.distance) {
            ("draw", _) => writeln!(f, "Under perfect play the game is a draw.")?,
            (w, Some(d)) => writeln!(
                f,
                "Under perfect play {w} wins in {}.",
                crate::text::count(d as u64, "ply", "plies")
            )?,
            (w, None) => writeln!(f, "Under perfect play {w} wins.")?,
        }
        writeln!(f, "Moves for {}:", self.to_move)?;
        write_moves(f, &self.first_moves, &self.best_moves, 6)?;
        writeln!(
            f,
            "A line of best moves: {}",
            self.principal_variation.join(" ")
        )?;
        writeln!(f, "Solved in {:.1} s.", self.seconds)
    }
}

/// The position `--position` gives (for the side `--side` names, or whichever side it parses
/// for), or the start.
fn position_of<G: FullGame>(game: &G, a: &SolveArgs) -> Result<G::Position> {
    let Some(text) = &a.position else {
        return Ok(game.start());
    };
    let sides = match &a.side {
        Some(s) => vec![parse_side(game, s)?],
        None => vec![Side::First, Side::Second],
    };
    let mut parsed = Err(anyhow::anyhow!("no side given"));
    for side in sides {
        parsed = game
            .parse_position(text, side)
            .with_context(|| "--position".to_string());
        if parsed.is_ok() {
            break;
        }
    }
    parsed
}

/// `solve` from a position, with the game's own solver or a memoised negamax: the winner, each
/// move's value, and a line of best moves (win, draw or loss only when the solver does not count
/// distances).
fn solve_from_position<G: FullGame>(game: G, a: &SolveArgs) -> Result<PositionSolve> {
    let pos = position_of(&game, a)?;
    if !game.has_own_solver() {
        crate::cli::setup::check_enumerable(&game)?;
    }
    let started = std::time::Instant::now();
    // Distances too, for the line of best moves: the quickest win against the slowest loss.
    let (values, _) = crate::learn::perfect_values(&game, TieBreak::Fastest)?;
    let mut perfect = crate::players::PerfectPlayer::new(values.clone(), TieBreak::Random);
    let mut fastest = crate::players::PerfectPlayer::new(values, TieBreak::Fastest);
    let mover = game.to_move(&pos);
    let first_moves = perfect.move_values(&game, &pos)?;
    let best = perfect.best_moves(&game, &pos)?;
    // A line of best moves: at each step the first of the quickest wins or slowest losses.
    let mut line = Vec::new();
    let mut cur = pos.clone();
    while game.outcome(&cur).is_none() {
        let Some(&mv) = fastest.best_moves(&game, &cur)?.first() else {
            break;
        };
        line.push(game.format_move(mv));
        cur = game.play(&cur, mv);
    }
    let outcome = game.outcome(&pos);
    let value = match outcome {
        Some(o) => crate::solve::Value::of_finished(o.winner, mover),
        None => first_moves
            .iter()
            .map(|&(_, v)| v)
            .max_by_key(|v| v.rank())
            .unwrap_or(crate::solve::Value::Draw),
    };
    let winner = match value.class() {
        1 => Some(mover),
        -1 => Some(mover.other()),
        _ => None,
    };
    let distance = match value {
        crate::solve::Value::Win(d) | crate::solve::Value::Loss(d) if d > 0 => Some(d as u32),
        _ => None,
    };
    Ok(PositionSolve {
        game: game.name(),
        size: game.size_key(),
        position: game.format_position(&pos),
        to_move: game.side_name(mover),
        winner: winner.map(|s| game.side_name(s)).unwrap_or("draw"),
        best_moves: best.iter().map(|&m| game.format_move(m)).collect(),
        first_moves: first_moves
            .iter()
            .map(|&(m, v)| MoveValue {
                mv: game.format_move(m),
                value: v.to_string(),
            })
            .collect(),
        plies: line.len(),
        principal_variation: line,
        seconds: started.elapsed().as_secs_f64(),
        variant: game.variant(),
        over: outcome.map(|o| o.winner.map(|w| game.side_name(w))),
        distance,
    })
}
