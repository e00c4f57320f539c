//! TODO

use super::*;

pub(super) fn solve<G: FullGame>(game: G, a: &SolveArgs) -> Result<()> {
    if a.position.is_some() || (!crate::cli::setup::enumerable(&game) && game.has_own_solver()) {
        return solve_from_position(game, a);
    }
    crate::cli::setup::check_enumerable(&game)?;
    let graph = crate::cli::setup::build_graph(&game);
    // A graph with cycles (mini-Arimaa) is solved by retrograde analysis.
    let solution = Solution::solve_any(&graph);
    let side_name = |s| game.side_name(s);
    let winner = solution.winner(&graph, 0);
    let value = solution.value(0);
    let first_moves: Vec<(String, String)> = graph
        .moves(0)
        .iter()
        .zip(solution.move_values(&graph, 0))
        .map(|(&m, v)| (game.format_move(m), v.to_string()))
        .collect();
    let best: Vec<String> = solution
        .best_moves(&graph, 0, TieBreak::Random)
        .into_iter()
        .map(|i| game.format_move(graph.moves(0)[i]))
        .collect();
    let line: Vec<String> = solution
        .principal_variation(&graph, 0)
        .into_iter()
        .map(|m| game.format_move(m))
        .collect();
    let numbered = line
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" ")))
        .collect::<Vec<_>>()
        .join(" ");
    let winner_name = winner.map(side_name).unwrap_or("draw");
    if a.json {
        print_json(&json!({
            "game": game.name(),
            "size": game.variant(),
            "winner": winner_name,
            "winner_role": winner.map(|s| s.to_string()).unwrap_or_else(|| "draw".into()),
            "best_moves": best,
            "first_moves": first_moves.iter().map(|(m, v)| json!({"move": m, "value": v})).collect::<Vec<_>>(),
            "plies": line.len(),
            "principal_variation": line,
            "positions": graph.len(),
        }));
        return Ok(());
    }
    let mover = side_name(graph.to_move(0));
    println!(
        "{} {}: {} positions reachable.",
        game.name(),
        game.variant(),
        crate::text::group(graph.len() as u64)
    );
    match winner {
        Some(w) => println!(
            "Under perfect play {} ({} player) wins in {} {}.",
            side_name(w),
            w,
            line.len(),
            if line.len() == 1 { "ply" } else { "plies" }
        ),
        None => println!("Under perfect play the game is a draw."),
    }
    println!("Value of the start for {mover}: {value}.");
    println!("First moves for {mover}:");
    for (m, v) in &first_moves {
        let mark = if best.contains(m) { "  (best)" } else { "" };
        println!("  {m:<8} {v}{mark}");
    }
    println!("Principal variation: {numbered}");
    Ok(())
}

/// `solve` from a position, with the game's own solver or a memoised negamax: the winner, each
/// move's value, and a line of best moves (win, draw or loss only when the solver does not count
/// distances).
pub(super) fn solve_from_position<G: FullGame>(game: G, a: &SolveArgs) -> Result<()> {
    let pos = match &a.position {
        None => game.start(),
        Some(text) => {
            let sides = match &a.side {
                Some(s) => vec![parse_side(&game, s)?],
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
            parsed?
        }
    };
    if !game.has_own_solver() {
        crate::cli::setup::check_enumerable(&game)?;
    }
    let started = std::time::Instant::now();
    // Distances too, for the line of best moves: the quickest win against the slowest loss.
    let (values, _) = crate::learn::perfect_values(&game, TieBreak::Fastest)?;
    let mut perfect = crate::players::PerfectPlayer::new(values.clone(), TieBreak::Random);
    let mut fastest = crate::players::PerfectPlayer::new(values, TieBreak::Fastest);
    let side_name = |s| game.side_name(s);
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
    let value = match game.outcome(&pos) {
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
    let secs = started.elapsed().as_secs_f64();
    let winner_name = winner.map(side_name).unwrap_or("draw");
    if a.json {
        print_json(&json!({
            "game": game.name(),
            "size": game.size_key(),
            "position": game.format_position(&pos),
            "to_move": side_name(mover),
            "winner": winner_name,
            "best_moves": best.iter().map(|&m| game.format_move(m)).collect::<Vec<_>>(),
            "first_moves": first_moves.iter().map(|&(m, v)| json!({"move": game.format_move(m), "value": v.to_string()})).collect::<Vec<_>>(),
            "plies": line.len(),
            "principal_variation": line,
            "seconds": secs,
        }));
        return Ok(());
    }
    println!(
        "{} {}: {} to move in {}",
        game.name(),
        game.variant(),
        side_name(mover),
        game.format_position(&pos)
    );
    if let Some(o) = game.outcome(&pos) {
        // Nothing to solve: say how it ended.
        match o.winner {
            Some(w) => println!("The game is over: {} has won.", side_name(w)),
            None => println!("The game is over: a draw."),
        }
        return Ok(());
    }
    match winner {
        Some(w) => match value {
            crate::solve::Value::Win(d) | crate::solve::Value::Loss(d) if d > 0 => println!(
                "Under perfect play {} wins in {}.",
                side_name(w),
                crate::text::count(d as u64, "ply", "plies")
            ),
            _ => println!("Under perfect play {} wins.", side_name(w)),
        },
        None => println!("Under perfect play the game is a draw."),
    }
    println!("Moves for {}:", side_name(mover));
    for &(m, v) in &first_moves {
        let mark = if best.contains(&m) { "  (best)" } else { "" };
        println!("  {:<6} {v}{mark}", game.format_move(m));
    }
    println!("A line of best moves: {}", line.join(" "));
    println!("Solved in {secs:.1} s.");
    Ok(())
}
