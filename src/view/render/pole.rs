//! The cart-pole's screen: the cart and the pole drawn in braille, the 162 boxes as a map (each
//! box's push as an arrow, its leaning as colour, the box the cart-pole is in lit), the trials'
//! lengths on a log scale, and the key bar from the key table.

use ratatui::widgets::canvas::{Canvas, Line as CanvasLine, Rectangle};

use super::*;
use crate::view::pole::PoleApp;

/// The smallest terminal the screen fits in with its panels side by side.
pub const POLE_MIN: (u16, u16) = (80, 24);
/// The smallest with its panels one above the other (a phone held upright).
pub const POLE_TALL: (u16, u16) = (38, 42);

/// BOXES' blue and ASE's orange, as the charts draw a push left and right.
const LEFT: (u8, u8, u8) = (0, 114, 178);
const RIGHT: (u8, u8, u8) = (213, 94, 0);
const DARK: (u8, u8, u8) = (40, 40, 52);

/// The colour of a leaning from −1 (left) to 1 (right): the push's colour, strong where the box
/// is sure, faint where it is not.
fn leaning_colour(l: f64) -> Color {
    let (to, t) = if l < 0.0 { (LEFT, -l) } else { (RIGHT, l) };
    // A box's values differ by a few per cent once it has some experience: strong from 25 %.
    let t = 0.3 + 0.7 * (4.0 * t).clamp(0.0, 1.0);
    let mix = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * t).round() as u8;
    Color::Rgb(mix(DARK.0, to.0), mix(DARK.1, to.1), mix(DARK.2, to.2))
}

/// Draws the screen, in the app's theme.
pub fn pole(f: &mut Frame, app: &PoleApp, front: Front) {
    draw_pole(f, app, front);
    app.theme.apply(f.buffer_mut());
}

fn draw_pole(f: &mut Frame, app: &PoleApp, front: Front) {
    let area = f.area();
    let wide = area.width >= POLE_MIN.0 && area.height >= POLE_MIN.1;
    let tall = area.width >= POLE_TALL.0 && area.height >= POLE_TALL.1;
    if !wide && !tall {
        let text = format!(
            "the cart-pole's screen needs {}×{}, or {}×{} held upright (this one is {}×{}): make it larger, or q to quit",
            POLE_MIN.0, POLE_MIN.1, POLE_TALL.0, POLE_TALL.1, area.width, area.height
        );
        f.render_widget(
            Paragraph::new(text).wrap(ratatui::widgets::Wrap { trim: true }),
            area,
        );
        return;
    }
    let [title, body, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(if wide { 1 } else { 2 }),
    ])
    .areas(area);
    // Side by side on a wide screen; one above the other on a narrow one (a phone upright).
    let (cart, status, curve, right) = if wide {
        // The map takes a third of a big screen (its cells grow), 38 columns at the least.
        let map = (body.width / 3).max(38);
        let [left, right] =
            Layout::horizontal([Constraint::Min(40), Constraint::Length(map)]).areas(body);
        let [cart, status, curve] = Layout::vertical([
            Constraint::Percentage(55),
            Constraint::Length(2),
            Constraint::Min(6),
        ])
        .areas(left);
        (cart, status, curve, right)
    } else {
        let [cart, status, map, curve] = Layout::vertical([
            Constraint::Length(9),
            Constraint::Length(2),
            Constraint::Length(22),
            Constraint::Min(6),
        ])
        .areas(body);
        (cart, status, curve, map)
    };
    title_bar(f, app, title);
    cart_panel(f, app, cart);
    status_lines(f, app, status);
    curve_panel_of(f, app, curve);
    box_map(f, app, right);
    let bar = fitting_bar(Mode::Pole, front, &BarFor::watch(), keys.width);
    match &app.message {
        Some(m) => f.render_widget(Paragraph::new(format!(" {m}")).style(BOLD), keys),
        None => f.render_widget(
            Paragraph::new(bar)
                .style(DIM)
                .wrap(ratatui::widgets::Wrap { trim: true }),
            keys,
        ),
    }
    if app.show_help {
        help_overlay(f, front);
    }
}

fn title_bar(f: &mut Frame, app: &PoleApp, area: Rect) {
    let speed = match app.paused {
        true => "paused".to_string(),
        false => app.speed().label(),
    };
    let long = format!(
        " {} balancing a pole · seed {} · {speed}",
        app.kind.title(),
        app.seed
    );
    let text = match long.chars().count() <= area.width as usize {
        true => long,
        false => format!(" {} · seed {} · {speed}", app.kind.short(), app.seed),
    };
    f.render_widget(
        Paragraph::new(text).style(Style::new().bg(TITLE_BG).fg(Color::White).bold()),
        area,
    );
}

/// The track, the cart and the pole, to scale (braille dots are square: the height in metres
/// follows the width).
fn cart_panel(f: &mut Frame, app: &PoleApp, area: Rect) {
    let s = app.run.state();
    let title = format!(
        " x {:+.2} m  ẋ {:+.2} m/s  θ {:+.1}°  ω {:+.0}°/s ",
        s.x,
        s.x_dot,
        s.theta.to_degrees(),
        s.theta_dot.to_degrees()
    );
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .title(title);
    let inner = block.inner(area);
    let x_span = 5.4;
    let y_span = x_span * (inner.height as f64 * 4.0) / (inner.width.max(1) as f64 * 2.0);
    let pole_len = 2.0 * app.run.physics.half_length;
    let (tip_x, tip_y) = (
        s.x + pole_len * s.theta.sin(),
        0.16 + pole_len * s.theta.cos(),
    );
    let push = app.run.last_push;
    let canvas = Canvas::default()
        .block(block)
        .marker(Marker::Braille)
        .x_bounds([-x_span / 2.0, x_span / 2.0])
        .y_bounds([-0.15, -0.15 + y_span])
        .paint(move |ctx| {
            let grey = Color::Rgb(150, 150, 160);
            ctx.draw(&CanvasLine::new(-2.4, 0.0, 2.4, 0.0, grey));
            for end in [-2.4, 2.4] {
                ctx.draw(&CanvasLine::new(end, 0.0, end, 0.3, Color::Red));
            }
            ctx.draw(&Rectangle::new(s.x - 0.25, 0.02, 0.5, 0.14, Color::White));
            // The pole, two dots thick.
            for dx in [0.0, 0.04] {
                ctx.draw(&CanvasLine::new(
                    s.x + dx,
                    0.16,
                    tip_x + dx,
                    tip_y,
                    Color::Yellow,
                ));
            }
            if let Some(p) = push {
                let (arrow, colour) = match p {
                    crate::cartpole::Push::Left => ("◀", leaning_colour(-1.0)),
                    crate::cartpole::Push::Right => ("▶", leaning_colour(1.0)),
                };
                let side = if arrow == "◀" { 0.4 } else { -0.4 };
                ctx.print(
                    s.x + side,
                    0.09,
                    Span::styled(arrow, Style::new().fg(colour)),
                );
            }
        });
    f.render_widget(canvas, area);
}

fn status_lines(f: &mut Frame, app: &PoleApp, area: Rect) {
    let steps = app.run.steps;
    let balanced = match app.balanced_at {
        Some(t) => format!("balanced 10,000 steps first at trial {t}"),
        None => "not yet balanced for 10,000 steps".into(),
    };
    let lines = vec![
        Line::from(format!(
            " trial {} · {} steps so far ({:.1} s) · longest {}",
            app.trials + 1,
            group(steps as u64),
            steps as f64 * app.run.physics.tau,
            group(app.longest as u64)
        )),
        Line::styled(format!(" {balanced}"), DIM),
    ];
    f.render_widget(Paragraph::new(lines), area);
}

/// The trials' lengths, on a log scale: the last as many as the panel is wide (two a column).
fn curve_panel_of(f: &mut Frame, app: &PoleApp, area: Rect) {
    let shown = (area.width as usize).saturating_sub(10) * 2;
    let from = app.lengths.len().saturating_sub(shown.max(10));
    let first = app.trials as usize - app.lengths.len() + from;
    let points: Vec<(f64, f64)> = (app.lengths[from..].iter().enumerate())
        .map(|(i, &n)| ((first + i + 1) as f64, (n.max(1) as f64).log10()))
        .collect();
    let x0 = (first + 1) as f64;
    let x1 = (x0 + shown.max(10) as f64).max(x0 + 1.0);
    let data = Dataset::default()
        .marker(Marker::Braille)
        .graph_type(GraphType::Line)
        .style(Style::new().fg(Color::Cyan))
        .data(&points);
    let chart = Chart::new(vec![data])
        .block(
            Block::bordered()
                .border_type(BorderType::Rounded)
                .title(" steps a trial (log scale) "),
        )
        .x_axis(
            Axis::default()
                .bounds([x0, x1])
                .labels([format!("{}", first + 1), format!("trial {}", x1 as u64)]),
        )
        .y_axis(
            Axis::default()
                .bounds([0.0, 4.0])
                .labels(["1", "10", "100", "1k", "10k"]),
        );
    f.render_widget(chart, area);
}

/// The 162 boxes: a row for each band of the pole's angle within each of its angular velocity,
/// a column for each of the cart's velocity within each of its position. The cells grow with the
/// panel (on a projector, coloured squares).
fn box_map(f: &mut Frame, app: &PoleApp, area: Rect) {
    let here = app.run.current_box();
    let inner = (area.width.saturating_sub(2), area.height.saturating_sub(2));
    let cw = (((inner.0.saturating_sub(16) / 3).saturating_sub(1)) / 3).clamp(2, 6) as usize;
    let high = inner.1 >= 2 + 36 + 2 && cw >= 3;
    let group = 3 * cw + 1;
    let head = |words: [&str; 3], each: usize| -> String {
        words.iter().map(|w| format!("{w:^each$}")).collect()
    };
    let xs = head(["left", "mid", "right"], group);
    let xds: String = (0..3).map(|_| head(["←", "·", "→"], cw) + " ").collect();
    let mut lines = vec![
        Line::styled(format!("              x {xs}"), DIM),
        Line::styled(format!("              ẋ {xds}"), DIM),
    ];
    let thetas = ["< -6°", "-6…-1°", "-1…0°", "0…1°", "1…6°", "> 6°"];
    let dots = ["ω ←", "ω ·", "ω →"];
    for (td, dot) in dots.iter().enumerate() {
        for (th, name) in thetas.iter().enumerate() {
            for half in 0..if high { 2 } else { 1 } {
                let label = match (th, half) {
                    (0, 0) => format!(" {dot:<5}{name:>7}  "),
                    (_, 0) => format!(" {:<5}{name:>7}  ", ""),
                    _ => " ".repeat(15),
                };
                let mut spans = vec![Span::styled(label, DIM)];
                for x in 0..3 {
                    for xd in 0..3 {
                        let b = x + 3 * xd + 9 * th + 54 * td;
                        spans.push(box_cell(app, b, here == Some(b), cw, half == 0));
                        spans.push(Span::raw(" "));
                    }
                    spans.push(Span::raw(" "));
                }
                lines.push(Line::from(spans));
            }
        }
    }
    let block = Block::bordered()
        .border_type(BorderType::Rounded)
        .title(" the 162 boxes: ◀ push left, ▶ right ");
    f.render_widget(Paragraph::new(lines).block(block), area);
}

/// One box's cell, `cw` wide with the space after it: its push as an arrow coloured by how sure it is (on a coloured
/// square where the cell is wide enough); lit where the cart-pole is. `arrow`: the cell's row
/// that carries the arrow (a tall cell's second row is its colour only).
fn box_cell(app: &PoleApp, b: usize, lit: bool, cw: usize, arrow: bool) -> Span<'static> {
    let l = app.run.learner.leaning(b);
    let glyph = match l {
        _ if !arrow => " ",
        l if l < 0.0 => "◀",
        l if l > 0.0 => "▶",
        _ => "·",
    };
    let lit_style = Style::new()
        .fg(Color::Black)
        .bg(Color::White)
        .add_modifier(Modifier::BOLD);
    let text = format!("{glyph:^w$}", w = cw - 1);
    match (lit, cw >= 3) {
        (true, _) => Span::styled(text, lit_style),
        (false, true) => Span::styled(text, Style::new().fg(Color::White).bg(leaning_colour(l))),
        (false, false) => Span::styled(text, Style::new().fg(leaning_colour(l))),
    }
}

fn help_overlay(f: &mut Frame, front: Front) {
    keys_overlay(
        f,
        Mode::Pole,
        front,
        &[
            "◀ ▶ a box's push; its colour how sure it is (faint: barely); lit: the box the cart-pole is in",
            "x, ẋ: the cart's place and speed; θ: the pole's lean; ω: how fast it turns",
        ],
    );
}
