//! The operator's screen: the real board and the label of the box to open drawn side by side,
//! each bead's square in its colour; the step in words (each bead colour's line in its colour);
//! what the last command answered or its mistake; the commands to tap; the line being typed and
//! the key bar. A tap on the board plays the visitor's move, on a bead's line its colour, on a
//! box's line its audit, on a command the command ([`operate_click`]).

use super::*;
use crate::view::operate::{Click, OperateApp, Shown};

/// Where the screen's parts are.
struct Areas {
    title: Rect,
    board: Rect,
    label: Option<Rect>,
    body: Rect,
    said: Rect,
    commands: Rect,
    prompt: Rect,
    keys: Rect,
}

/// Columns and rows of a drawing.
fn drawing_size(lines: &[Line]) -> (u16, u16) {
    let w = lines.iter().map(|l| l.width()).max().unwrap_or(0) as u16;
    (w, lines.len() as u16)
}

fn areas(area: Rect, app: &OperateApp, shown: &Shown) -> Areas {
    let p = &shown.panels;
    let (bw, bh) = drawing_size(&p.board);
    let label = p.label.as_ref().map(|(_, l)| drawing_size(l));
    let (lw, lh) = label.unwrap_or((0, 0));
    // Side by side where both fit, else the label under the board (a narrow phone).
    let beside = (bw + 4).max(13) + (lw + 4).max(11) < area.width;
    let top = match (label, beside) {
        (Some(_), false) => bh + lh + 4,
        _ => bh.max(lh) + 2,
    };
    let said = app.answer.len() as u16 + u16::from(app.error.is_some());
    let [title, panels, body, said, commands, prompt, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(top),
        Constraint::Min(3),
        Constraint::Length(said.min(8)),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    // Wide enough for the titles (" the board ", " box 304 ").
    let (bw, lw) = ((bw + 4).max(13), (lw + 4).max(11));
    let board = Rect::new(panels.x, panels.y, bw.min(panels.width), bh + 2);
    let label = label.map(|_| match beside {
        true => Rect::new(board.right() + 1, panels.y, lw, lh + 2),
        false => Rect::new(panels.x, board.bottom(), lw.min(panels.width), lh + 2),
    });
    let label = label.map(|r| r.intersection(panels));
    Areas {
        title,
        board: board.intersection(panels),
        label,
        body,
        said,
        commands,
        prompt,
        keys,
    }
}

/// A row of the step's lines as wrapped: its text, the line it comes from, and whether it is
/// that line's first row.
type Row = (String, usize, bool);

/// The step's lines wrapped to `width`, as many as `rows` hold (see below which go).
fn body_rows(shown: &Shown, width: u16, rows: u16) -> Vec<Row> {
    let mut out = Vec::new();
    for (i, said) in shown.lines.iter().enumerate() {
        let l = &said.text;
        // A line's rows after its first go in two more (under a bead's words, past its dot).
        let indent = l.len() - l.trim_start().len();
        let room = (width as usize).saturating_sub(indent + 3);
        for (k, row) in wrap(l.trim_start(), room).into_iter().enumerate() {
            let pad = indent + if k > 0 { 2 } else { 0 };
            out.push((format!("{}{row}", " ".repeat(pad)), i, k == 0));
        }
    }
    // Too many for the rows: the first ones go, but never the step's own line (the box to open,
    // the visitor's move, the game's end); past that, the last ones.
    let step = (out.iter())
        .position(|(_, i, _)| shown.lines[*i].step)
        .unwrap_or(0);
    let overflow = out.len().saturating_sub(rows as usize).min(step);
    let mut shown_rows = out.split_off(overflow);
    shown_rows.truncate(rows as usize);
    shown_rows
}

/// The commands to tap, as one line: each with the columns it takes.
fn command_spans(shown: &Shown) -> Vec<(u16, u16, String)> {
    let mut x = 1;
    let mut out = Vec::new();
    for (label, line) in &shown.commands {
        let w = label.chars().count() as u16 + 2;
        out.push((x, x + w, line.clone()));
        x += w + 1;
    }
    out
}

/// Draws the screen of `shown` ([`crate::view::operate::shown`]).
pub fn operate(f: &mut Frame, app: &OperateApp, shown: &Shown, front: Front) {
    let a = areas(f.area(), app, shown);
    step(f, &a, shown);
    let mut answer: Vec<Line> = app.answer.iter().map(|l| Line::raw(l.clone())).collect();
    if let Some(e) = &app.error {
        let bad = Style::new().fg(Color::Red).bold();
        answer.push(Line::styled(format!("✗ {e}"), bad));
    }
    f.render_widget(Paragraph::new(answer), a.said);
    f.render_widget(Paragraph::new(commands_line(shown, front)), a.commands);
    let input = Line::from(vec![
        Span::styled("> ", BOLD.fg(Color::Cyan)),
        Span::raw(app.input.clone()),
        Span::styled("█", Style::new().fg(Color::Cyan)),
    ]);
    f.render_widget(Paragraph::new(input), a.prompt);
    let bar = fitting_bar(Mode::Operate, front, &BarFor::watch(), a.keys.width);
    f.render_widget(Paragraph::new(bar).style(DIM), a.keys);
    if app.show_help {
        keys_overlay(f, Mode::Operate, front, &crate::view::operate::COMMANDS);
    }
}

/// The screen for the room (a projector beside the boxes): the step only, nothing typed.
pub fn operate_room(f: &mut Frame, shown: &Shown) {
    let a = areas(f.area(), &OperateApp::default(), shown);
    let body = Rect {
        height: a.keys.bottom() - a.body.y,
        ..a.body
    };
    step(f, &Areas { body, ..a }, shown);
}

/// The step: the title, the board and the label, the step's lines.
fn step(f: &mut Frame, a: &Areas, shown: &Shown) {
    f.render_widget(
        Paragraph::new(match a.title.width {
            ..52 => " matchbox operate",
            _ => " matchbox operate: the real machine, step by step",
        })
        .style(Style::new().bg(TITLE_BG).fg(Color::White).bold()),
        a.title,
    );
    let p = &shown.panels;
    let board = Paragraph::new(p.board.clone()).block(panel(" the board ".into()));
    f.render_widget(board, a.board);
    letters(f, a.board, &p.board_letters);
    if let (Some(r), Some((n, drawing))) = (a.label, &p.label) {
        let label = Paragraph::new(drawing.clone()).block(panel(format!(" box {n} ")));
        f.render_widget(label, r);
        letters(f, r, &p.label_letters);
    }
    let rows: Vec<Line> = body_rows(shown, a.body.width, a.body.height)
        .into_iter()
        .map(|(text, i, first)| {
            let said = &shown.lines[i];
            match said.colour {
                Some(c) if first => {
                    let (r, g, b) = crate::palette::arrow(c).rgb;
                    Line::from(vec![
                        Span::styled("  ● ", Style::new().fg(Color::Rgb(r, g, b)).bold()),
                        Span::raw(text.trim_start().to_string()),
                    ])
                }
                _ if said.step => Line::styled(text, BOLD),
                _ => Line::raw(text),
            }
        })
        .collect();
    f.render_widget(Paragraph::new(rows), a.body);
}

/// The commands under the step: buttons to tap on the page, words to type on a terminal.
fn commands_line(shown: &Shown, front: Front) -> Line<'static> {
    if front == Front::Terminal {
        let typed: Vec<&str> = (shown.commands.iter())
            .map(|(_, line)| if line.is_empty() { "Enter" } else { line })
            .chain(["audit N"])
            .collect();
        return Line::styled(format!(" type: {}", typed.join(" · ")), DIM);
    }
    let button = Style::new().bg(Color::DarkGray).fg(Color::White);
    let mut spans = vec![Span::raw(" ")];
    for (label, _) in &shown.commands {
        spans.push(Span::styled(format!(" {label} "), button));
        spans.push(Span::raw(" "));
    }
    Line::from(spans)
}

/// Each bead's letter on its square of the drawing in `panel` (inside its border and margin).
fn letters(f: &mut Frame, panel: Rect, at: &[(u16, u16, String)]) {
    let buf = f.buffer_mut();
    for (col, row, letter) in at {
        let (x, y) = (panel.x + 2 + col, panel.y + 1 + row);
        if x + 1 < panel.right()
            && y + 1 < panel.bottom()
            && let Some(cell) = buf.cell_mut((x, y))
        {
            cell.set_symbol(letter).set_fg(Color::Black);
        }
    }
}

/// A bordered panel titled `title`, its drawing a column in from the border.
fn panel(title: String) -> Block<'static> {
    Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(DIM)
        .title(Span::styled(title, BOLD))
        .padding(ratatui::widgets::Padding::horizontal(1))
}

/// What a click or a tap at (`col`, `row`) of a screen of `area` does: a square of the board's
/// drawing, or the line of a bead, a box or a command.
pub fn operate_click(
    area: Rect,
    app: &OperateApp,
    shown: &Shown,
    col: u16,
    row: u16,
) -> Option<Click> {
    let a = areas(area, app, shown);
    let b = a.board;
    if col >= b.x + 2 && col + 2 < b.right() && row > b.y && row + 1 < b.bottom() {
        return Some(Click::Square(col - b.x - 2, row - b.y - 1));
    }
    if a.body.contains((col, row).into()) {
        let rows = body_rows(shown, a.body.width, a.body.height);
        let (_, i, _) = rows.get((row - a.body.y) as usize)?;
        return shown.lines[*i].tap.clone().map(Click::Line);
    }
    if row == a.commands.y {
        let x = col.checked_sub(a.commands.x)?;
        let spans = command_spans(shown);
        let (_, _, line) = spans.into_iter().find(|(s, e, _)| (*s..*e).contains(&x))?;
        return Some(Click::Line(line));
    }
    None
}
