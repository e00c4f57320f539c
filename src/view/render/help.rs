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
            "1 … 9, +".into(),
            "beads on a board's cell (heat map); + 10 or more".into(),
        ),
        (
            "red bars".into(),
            "share of games lost, over the last 50".into(),
        ),
    ]
}

/// The key table and the legend over the screen.
pub fn help(f: &mut Frame, mode: Mode, front: Front, pieces: &str) {
    let keys = key_table(mode, front);
    let legend = legend_lines(pieces);
    let area = f.area();
    let w = 76.min(area.width);
    let h = (keys.len() as u16 + legend.len() as u16 + 5).min(area.height);
    let r = Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    );
    let mut lines: Vec<Line> = keys
        .iter()
        .map(|(k, what)| {
            Line::from(vec![
                Span::styled(format!(" {k:<10} "), BOLD.fg(Color::Cyan)),
                Span::raw(*what),
            ])
        })
        .collect();
    // The blank line between keys and symbols, where the screen has the row for it.
    if keys.len() + legend.len() + 5 <= area.height as usize {
        lines.push(Line::raw(""));
    }
    lines.extend(legend.into_iter().map(|(k, what)| {
        Line::from(vec![
            Span::styled(format!(" {k:<10} "), BOLD),
            Span::styled(what, DIM),
        ])
    }));
    lines.push(Line::styled(" any key closes this help", DIM));
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines)
            .block(panel(" Keys and symbols ".into()).border_style(Style::new().fg(Color::Cyan))),
        r,
    );
}
