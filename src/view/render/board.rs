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
    if full {
        lines.push(Line::raw(""));
    }
    let texts: Vec<String> = rec
        .moves
        .iter()
        .map(|&(_, m)| game.format_move(m))
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
    let status = match rec.result {
        Some(r) => {
            let how = if rec.resigned { " (resigned)" } else { "" };
            let colour = match r {
                GameResult::Win => Color::Green,
                GameResult::Draw => Color::Yellow,
                GameResult::Loss => Color::Red,
            };
            let word = result_word(r);
            let width = area.width.saturating_sub(4) as usize;
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
    };
    lines.push(status);
    let title = format!(" Game {} ", group(rec.number));
    f.render_widget(Paragraph::new(indent(lines)).block(panel(title)), area);
}
