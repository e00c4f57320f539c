//! The board panel: the game move by move.

use super::*;

/// The game in progress (or the last one): board, moves, who is to move or how it ended.
pub fn board_panel<G: BoardView>(
    f: &mut Frame,
    area: Rect,
    game: &G,
    snap: &Snapshot<G>,
    machine: &str,
    extra: &[(G::Move, Color)],
) {
    let Some(rec) = &snap.game else {
        let p = Paragraph::new(vec![Line::raw(""), Line::styled(" no game yet", DIM)])
            .block(panel(" Board ".into()));
        f.render_widget(p, area);
        return;
    };
    let mut marks: Vec<(G::Move, Color)> = extra.to_vec();
    if let Some(&(side, mv)) = rec.moves.last() {
        // The machine's last move in its bead colour, the rival's in grey.
        let colour = match snap.opened {
            Some(o) if side == snap.boxes.side() && o.game == rec.number => o
                .arrow
                .map_or(Color::Gray, |k| snap.arrow_colour(game, o.box_index, k)),
            _ => Color::Gray,
        };
        marks.push((mv, colour));
    }
    let mut lines = game.board_lines(rec.position(), &marks);
    // On a short terminal the panel holds the board and the state only.
    let full = area.height as usize >= lines.len() + 5;
    let blank_at = lines.len();
    if full {
        lines.push(Line::raw(""));
    }
    let texts: Vec<String> = (rec.moves.iter().zip(&rec.positions))
        .map(|(&(_, m), before)| game.format_move_at(before, m))
        .collect();
    let width = area.width.saturating_sub(5) as usize;
    let mut shown = texts.join(" ");
    while shown.chars().count() > width {
        match shown.find(' ') {
            Some(i) => shown = format!("…{}", &shown[i + 1..].trim_start_matches('…')),
            None => break,
        }
    }
    if full {
        lines.push(Line::raw(format!(" {shown}")));
    }
    let status = status_line(rec, machine, area.width);
    let said = status.to_string();
    lines.push(status);
    // Why the game ended, on a line of its own where the status line had no room for it.
    // A resignation's line says what the status line does not: "its box 1 is empty".
    let why = rec.why.as_deref().map(|w| match rec.resigned {
        true => w.split_once(": ").map_or(w, |(_, rest)| rest),
        false => w,
    });
    if let Some(why) = why.filter(|w| !said.contains(*w))
        && (full || lines.len() + 2 < area.height as usize)
    {
        if lines.len() + 2 >= area.height as usize {
            // The line between the board and the moves makes the room.
            lines.remove(blank_at);
        }
        // Wrapped over the rows left (cut only where they run out).
        let room = area.width.saturating_sub(5) as usize;
        let mut rows = (area.height as usize)
            .saturating_sub(2 + lines.len())
            .max(1);
        let mut wrapped = wrap(why, room);
        if wrapped.len() > rows && full {
            // The reason rather than the list of moves (the board shows where they led).
            let moves_at = lines.len() - 2;
            lines.remove(moves_at);
            rows += 1;
        }
        if wrapped.len() > rows {
            wrapped.truncate(rows);
            let last = &mut wrapped[rows - 1];
            let kept: String = last.chars().take(room.saturating_sub(1)).collect();
            *last = format!("{kept}…");
        }
        for text in wrapped {
            lines.push(Line::styled(format!(" {text}"), DIM));
        }
    }
    let title = format!(" Game {} ", group(rec.number));
    f.render_widget(Paragraph::new(indent(lines)).block(panel(title)), area);
}

/// The game's state under the board: its move, or how it ended and (where it fits) why.
fn status_line<G: crate::game::Game>(
    rec: &crate::view::session::GameRecord<G>,
    machine: &str,
    panel_width: u16,
) -> Line<'static> {
    match rec.result {
        Some(r) => {
            let how = if rec.resigned { " (resigned)" } else { "" };
            let colour = match r {
                GameResult::Win => Color::Green,
                GameResult::Draw => Color::Yellow,
                GameResult::Loss => Color::Red,
            };
            let word = result_word(r);
            let width = panel_width.saturating_sub(4) as usize;
            // At the start of the line: "The machine (gold) won".
            let machine = crate::game::capitalised(machine);
            let mut options = Vec::new();
            if let Some(why) = &rec.why {
                match rec.resigned {
                    true => options.push(format!(" {why}")),
                    false => options.extend([
                        format!(" {machine} {word}: {why}"),
                        format!(" {word}: {why}"),
                    ]),
                }
            }
            options.extend([
                format!(" {machine} {word}{how}"),
                format!(
                    " {machine} {}",
                    if rec.resigned { "resigned" } else { word }
                ),
                format!(" {}", if rec.resigned { "resigned" } else { word }),
            ]);
            Line::styled(first_fit(&options, width), BOLD.fg(colour))
        }
        None => Line::styled(format!(" move {}", rec.moves.len() + 1), DIM),
    }
}
