//! The help overlay: every key and a legend of every symbol.

use super::*;

/// What the screens' symbols mean, for the help; `pieces` is the game's own legend.
pub fn legend_lines(pieces: &str) -> Vec<(String, String)> {
    vec![
        ("board".into(), pieces.to_string()),
        (
            "▁▂▃…█".into(),
            "an arrow's beads in the machine panel: 1, 2, 3 … 8 or more".into(),
        ),
        (
            "·  ✗".into(),
            "an arrow with no beads; a box with none".into(),
        ),
        ("● ●×12".into(), "beads in the box; 12 beads".into()),
        (
            "▶".into(),
            "the arrow drawn (the bead the machine took)".into(),
        ),
        (
            "0 … 9, +".into(),
            "beads on a board's cell (heat map); + 10 or more".into(),
        ),
        (
            "red bars".into(),
            "share of games lost, over the last 50".into(),
        ),
    ]
}

/// The key table and the legend over the screen; on a narrow screen (a phone) each entry's
/// words wrap under themselves rather than run off the overlay's edge.
pub fn help(f: &mut Frame, mode: Mode, front: Front, pieces: &str) {
    let keys = key_table(mode, front);
    let legend = legend_lines(pieces);
    let area = f.area();
    let w = 76.min(area.width);
    // The words' room: the overlay less its borders and the key's column of 12.
    let room = (w as usize).saturating_sub(2 + 12).max(8);
    let entry = |k: &str, what: &str, key: Style, words: Style| -> Vec<Line<'static>> {
        wrap(what, room)
            .into_iter()
            .enumerate()
            .map(|(i, part)| {
                let head = if i == 0 {
                    format!(" {k:<10} ")
                } else {
                    " ".repeat(12)
                };
                Line::from(vec![Span::styled(head, key), Span::styled(part, words)])
            })
            .collect()
    };
    let key_lines: Vec<Line> = keys
        .iter()
        .flat_map(|(k, what)| entry(k, what, BOLD.fg(Color::Cyan), Style::new()))
        .collect();
    let legend_lines: Vec<Line> = legend
        .iter()
        .flat_map(|(k, what)| entry(k, what, BOLD, DIM))
        .collect();
    let needed = key_lines.len() + legend_lines.len() + 5;
    let h = (needed as u16).min(area.height);
    let r = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    let mut lines = key_lines;
    // The blank line between keys and symbols, where the screen has the row for it.
    if needed <= area.height as usize {
        lines.push(Line::raw(""));
    }
    lines.extend(legend_lines);
    // `q` quits from the help in a terminal; a page has no quit key.
    let closes = match front {
        Front::Terminal => " any other key closes this help (q quits)",
        Front::Page => " any key closes this help",
    };
    lines.push(Line::styled(closes, DIM));
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines)
            .block(panel(" Keys and symbols ".into()).border_style(Style::new().fg(Color::Cyan))),
        r,
    );
}

/// The key table of a screen that has no board legend (the cart-pole's, the operator's) over the
/// screen, then `notes` (what its symbols or words mean), each wrapped to the overlay.
pub fn keys_overlay(f: &mut Frame, mode: Mode, front: Front, notes: &[&str]) {
    let keys = key_table(mode, front);
    let mut lines: Vec<Line> = (keys.iter())
        .map(|(k, what)| {
            Line::from(vec![
                Span::styled(format!(" {k:<10} "), BOLD.fg(Color::Cyan)),
                Span::raw(what.to_string()),
            ])
        })
        .collect();
    lines.push(Line::raw(""));
    lines.extend(notes.iter().map(|n| Line::styled(format!(" {n}"), DIM)));
    lines.push(Line::styled(" any other key closes this help", DIM));
    let area = f.area();
    let w = 78.min(area.width);
    let room = (w as usize).saturating_sub(2).max(1);
    let rows: usize = (lines.iter())
        .map(|l| l.width().max(1).div_ceil(room))
        .sum();
    let h = (rows as u16 + 2).min(area.height);
    let r = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    f.render_widget(Clear, r);
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .title(" keys ");
    f.render_widget(
        Paragraph::new(lines)
            .wrap(ratatui::widgets::Wrap { trim: false })
            .block(block),
        r,
    );
}
