//! The operator's screen: the step now in words (the box to open, how the board is turned from
//! its label, each bead colour's square, drawn in its colour), what the last command answered or
//! its mistake, the line being typed and the key bar.

use super::*;
use crate::view::operate::OperateApp;

/// The colour of a bead line ("  A orange ×3 (…) → b2 on the board"): its letter's palette
/// colour, where the line starts with one.
fn bead_colour(line: &str) -> Option<Color> {
    let letter = line.strip_prefix("  ")?.split(' ').next()?;
    let c = (0..64).find(|&c| crate::palette::letter(c) == letter)?;
    let rest = line.strip_prefix("  ")?.strip_prefix(letter)?;
    let named = rest.trim_start().starts_with(crate::palette::arrow(c).name);
    let (r, g, b) = crate::palette::arrow(c).rgb;
    named.then_some(Color::Rgb(r, g, b))
}

/// Draws the screen: `lines` is what the operator does now ([`crate::view::operate::turn_lines`]).
pub fn operate(f: &mut Frame, app: &OperateApp, lines: &[String], front: Front) {
    let area = f.area();
    let [title, body, said, prompt, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(3),
        Constraint::Length((app.answer.len() as u16 + u16::from(app.error.is_some())).min(8)),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    f.render_widget(
        Paragraph::new(" matchbox operate: the real machine, step by step")
            .style(Style::new().bg(TITLE_BG).fg(Color::White).bold()),
        title,
    );
    let shown: Vec<Line> = (lines.iter())
        .map(|l| match bead_colour(l) {
            Some(c) => Line::from(vec![
                Span::styled("  ● ", Style::new().fg(c).bold()),
                Span::raw(l.trim_start().to_string()),
            ]),
            None if l.starts_with("the machine's move") || l.starts_with("the visitor's move") => {
                Line::styled(l.clone(), BOLD)
            }
            None => Line::raw(l.clone()),
        })
        .collect();
    // The step's last lines matter most: a long end of game keeps its bottom in view.
    let overflow = (shown.len() as u16).saturating_sub(body.height);
    f.render_widget(
        Paragraph::new(shown)
            .wrap(ratatui::widgets::Wrap { trim: false })
            .scroll((overflow, 0)),
        body,
    );
    let mut answer: Vec<Line> = app.answer.iter().map(|l| Line::raw(l.clone())).collect();
    if let Some(e) = &app.error {
        answer.push(Line::styled(
            format!("✗ {e}"),
            Style::new().fg(Color::Red).bold(),
        ));
    }
    f.render_widget(Paragraph::new(answer), said);
    let input = Line::from(vec![
        Span::styled("> ", BOLD.fg(Color::Cyan)),
        Span::raw(app.input.clone()),
        Span::styled("█", Style::new().fg(Color::Cyan)),
    ]);
    f.render_widget(Paragraph::new(input), prompt);
    let bar = fitting_bar(Mode::Operate, front, &BarFor::watch(), keys.width);
    f.render_widget(Paragraph::new(bar).style(DIM), keys);
    if app.show_help {
        keys_overlay(f, Mode::Operate, front, &crate::view::operate::COMMANDS);
    }
}
