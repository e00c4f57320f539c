//! The learning curve: wins − losses, and the loss rate over the last games.

use super::*;

/// Michie's learning curve and the rolling loss rate.
pub fn curve_panel(f: &mut Frame, area: Rect, curve: &Curve, games: u64) {
    let block = panel(" Learning: wins − losses ".into());
    let inner = block.inner(area);
    f.render_widget(block, area);
    if inner.height < 4 {
        return;
    }
    let [chart_area, label_area, spark_area] = Layout::vertical([
        Constraint::Min(2),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(inner);
    let x_max = (games.max(10)) as f64;
    let (lo, hi) = curve
        .points
        .iter()
        .fold((0f64, 1f64), |(lo, hi), &(_, y)| (lo.min(y), hi.max(y)));
    let data = Dataset::default()
        .marker(Marker::Braille)
        .graph_type(GraphType::Line)
        .style(Style::new().fg(Color::Cyan))
        .data(&curve.points);
    let zero = [(0.0, 0.0), (x_max, 0.0)];
    let axis_line = Dataset::default()
        .marker(Marker::Braille)
        .graph_type(GraphType::Line)
        .style(DIM)
        .data(&zero);
    let (y_lo, y_hi) = (signed_rate(lo), signed_rate(hi));
    // The chart gives its last x label half the plot's width (the plot starts after the y labels
    // and the axis): write the games in full where they fit, shorter where not.
    let y_width = y_lo.chars().count().max(y_hi.chars().count());
    let plot_width = (chart_area.width as usize).saturating_sub(y_width + 1);
    let n = x_max as u64;
    let x_label = first_fit(
        &[
            format!("{} games ", group(n)),
            format!("{} games ", short_count(n)),
            format!("{} ", short_count(n)),
        ],
        plot_width / 2,
    );
    let chart = Chart::new(vec![axis_line, data])
        .x_axis(
            Axis::default()
                .bounds([0.0, x_max])
                .labels([Span::styled("0", DIM), Span::styled(x_label, DIM)])
                .style(DIM),
        )
        .y_axis(
            Axis::default()
                .bounds([lo, hi])
                .labels([Span::styled(y_lo, DIM), Span::styled(y_hi, DIM)])
                .style(DIM),
        );
    f.render_widget(chart, chart_area);
    f.render_widget(
        Paragraph::new(loss_rate_line(curve, label_area.width)),
        label_area,
    );
    let w = spark_area.width as usize;
    let values: Vec<u64> = curve
        .loss_rate
        .iter()
        .rev()
        .take(w)
        .rev()
        .map(|&(_, r)| (r * 100.0).round() as u64)
        .collect();
    f.render_widget(
        Sparkline::default()
            .data(&values)
            .max(100)
            .style(Style::new().fg(Color::Red)),
        spark_area,
    );
}

/// The loss rate over the last games, in words that fit `width`; none before a game.
fn loss_rate_line(curve: &Curve, width: u16) -> Line<'static> {
    // No rate before a game: the window is the games played, up to its length.
    let n = curve.window_games();
    let pct = match n {
        0 => "no game yet".to_string(),
        _ => format!("{:.0}%", curve.rolling_loss_rate() * 100.0),
    };
    let room = (width as usize).saturating_sub(pct.chars().count() + 1);
    let words = first_fit(
        &[
            match n {
                0 => " lost: ".to_string(),
                1 => " lost, last game: ".to_string(),
                n => format!(" lost, last {n} games: "),
            },
            format!(" lost of last {n}: "),
            " lost: ".to_string(),
        ],
        room,
    );
    Line::from(vec![
        Span::styled(words, DIM),
        Span::styled(pct, BOLD.fg(Color::Red)),
    ])
}
