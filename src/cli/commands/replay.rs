//! TODO

use super::*;

pub(super) fn replay<G: FullGame>(game: G, a: &ReplayArgs) -> Result<()> {
    let mut pos = game.start();
    let mut played = Vec::new();
    for (i, text) in a
        .moves
        .split([' ', ',', '\t'])
        .filter(|t| !t.is_empty())
        .enumerate()
    {
        let number = i + 1;
        if game.outcome(&pos).is_some() {
            return Err(BadRecord(format!(
                "move {number} `{}`: the game is already over",
                crate::text::quote(text)
            ))
            .into());
        }
        let mv = game
            .parse_move(&pos, text)
            .map_err(|e| BadRecord(format!("move {number} `{}`: {e}", crate::text::quote(text))))?;
        played.push(game.format_move(mv));
        pos = game.play(&pos, mv);
    }
    let outcome = game.outcome(&pos);
    let winner = match outcome {
        None => "none",
        Some(o) => o.winner.map_or("draw", |w| game.side_name(w)),
    };
    let structures = game.structures(&pos);
    if a.json {
        print_json(&json!({
            "game": game.name(),
            "size": game.size_key(),
            "ply": played.len(),
            "winner": winner,
            "reason": outcome.map(|o| o.reason.to_string()),
            "structures": structures,
            "position": game.format_position(&pos),
            "moves": played,
        }));
        return Ok(());
    }
    for line in game.diagram(&pos) {
        println!("{line}");
    }
    let plies = played.len();
    let ply_word = if plies == 1 { "ply" } else { "plies" };
    match outcome {
        None => println!(
            "{plies} {ply_word}; not over: {} to move",
            game.side_name(game.to_move(&pos))
        ),
        Some(o) => match o.winner {
            Some(w) => println!(
                "{plies} {ply_word}; {} wins: {}",
                game.side_name(w),
                o.reason
            ),
            None => println!("{plies} {ply_word}; drawn: {}", o.reason),
        },
    }
    println!("position: {}", game.format_position(&pos));
    Ok(())
}
