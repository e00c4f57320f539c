//! The learning curve: wins − losses, and the loss rate over the last games.

use super::*;
use crate::view::app::Snapshot;
use crate::view::board::BoardView;
use crate::view::charts::{ChartCache, ChartKey, fixed_point};

pub use crate::view::charts::LOG_AFTER;

/// `10^d` in a few characters: 1, 10, 100, 1k, 10k, 100k, 1M, … 100bn, 1tn, ….
fn decade(d: u32) -> String {
    const UNITS: [&str; 5] = ["", "k", "M", "bn", "tn"];
    match UNITS.get(d as usize / 3) {
        Some(unit) => format!("{}{unit}", 10u64.pow(d % 3)),
        None => format!("1e{d}"),
    }
}

/// The axis of games for `games` played on a plot `width` columns wide: where a game goes on it,
/// its bounds and labels, and whether it is logarithmic.
struct GameAxis {
    log: bool,
    max: f64,
    labels: Vec<String>,
}

impl GameAxis {
    fn new(games: u64, width: usize) -> GameAxis {
        if games <= LOG_AFTER {
            let n = games.max(10);
            let label = first_fit(
                &[
                    format!("{} games ", group(n)),
                    format!("{} games ", short_count(n)),
                    format!("{} ", short_count(n)),
                ],
                width / 2,
            );
            return GameAxis {
                log: false,
                max: n as f64,
                labels: vec!["0".into(), label],
            };
        }
        // Whole decades, each labelled where they fit: 1, 10, 100, 1k, …
        let decades = (games as f64).log10().ceil().max(3.0) as u32;
        let all: Vec<String> = (0..=decades).map(decade).collect();
        let spaced = all.iter().map(|l| l.chars().count() + 1).max().unwrap_or(1);
        // The last label a space from the panel's border.
        let last = format!("{} ", all[decades as usize]);
        let labels = if spaced * all.len() < width {
            let mut all = all;
            all[decades as usize] = last;
            all
        } else {
            vec!["1".into(), last]
        };
        GameAxis {
            log: true,
            max: decades as f64,
            labels,
        }
    }

    /// Where game `g` goes on the axis.
    fn x(&self, g: f64) -> f64 {
        match self.log {
            true => g.max(1.0).log10(),
            false => g,
        }
    }

    /// A panel's title, saying where the axis is logarithmic, to fit `width`.
    fn title(&self, what: &str, width: u16) -> String {
        let mut options = match self.log {
            true => vec![
                format!(" {what} · games on a log scale "),
                format!(" {what} · log scale "),
                format!(" {what} "),
            ],
            false => vec![format!(" {what} ")],
        };
        // Narrower, the name before its colon alone ("Learning").
        if let Some((name, _)) = what.split_once(':') {
            options.push(format!(" {name} "));
        }
        first_fit(&options, width.saturating_sub(2) as usize)
    }

    fn axis(&self) -> Axis<'static> {
        Axis::default()
            .bounds([0.0, self.max])
            .labels(self.labels.iter().map(|l| Span::styled(l.clone(), DIM)))
            .style(DIM)
    }
}

/// The points a plot `width` columns wide can show: one every eighth of a column at most along
/// the axis (braille has two dots a column), the last kept. A curve of thousands of points draws
/// as fast as one of a few hundred.
fn thin(points: impl Iterator<Item = (f64, f64)>, span: f64, width: usize) -> Vec<(f64, f64)> {
    let step = span / (8 * width.max(1)) as f64;
    let mut out: Vec<(f64, f64)> = Vec::new();
    let mut last = None;
    for p in points {
        if out.last().is_none_or(|q| p.0 - q.0 >= step) {
            out.push(p);
            last = None;
        } else {
            last = Some(p);
        }
    }
    out.extend(last);
    out
}

/// Draws `chart` into `area`, or copies the drawing `cache` keeps where it still stands for
/// `key` after `games` games ([`crate::view::charts`]).
fn cached_chart(
    f: &mut Frame,
    draw: impl FnOnce(&mut Frame),
    key: ChartKey,
    games: u64,
    cache: Option<&ChartCache>,
) {
    match cache {
        Some(c) if c.reuse(f.buffer_mut(), &key, games) => {}
        Some(c) => {
            draw(f);
            c.keep(f.buffer_mut(), key, games);
        }
        None => draw(f),
    }
}

/// Michie's learning curve and the rolling loss rate of a snapshot.
pub fn curve_panel<G: BoardView>(
    f: &mut Frame,
    area: Rect,
    s: &Snapshot<G>,
    cache: Option<&ChartCache>,
) {
    let (curve, games) = (&s.curve, s.games_played);
    let inner = panel(String::new()).inner(area);
    let title =
        GameAxis::new(games, inner.width as usize).title("Learning: wins − losses", area.width);
    f.render_widget(panel(title), area);
    if inner.height < 4 {
        return;
    }
    let [chart_area, label_area, spark_area] = Layout::vertical([
        Constraint::Length(inner.height.saturating_sub(2)),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(inner);
    let key = ChartKey {
        area: chart_area,
        seed: s.seed,
        fixed_point: fixed_point(&curve.points).copied(),
    };
    let draw = |f: &mut Frame| {
        let (lo, hi) = curve
            .points
            .iter()
            .fold((0f64, 1f64), |(lo, hi), &(_, y)| (lo.min(y), hi.max(y)));
        let (y_lo, y_hi) = (signed_rate(lo), signed_rate(hi));
        let y_width = y_lo.chars().count().max(y_hi.chars().count());
        let plot_width = (chart_area.width as usize).saturating_sub(y_width + 1);
        let axis = GameAxis::new(games, plot_width);
        let points: Vec<(f64, f64)> = (curve.points.iter())
            .map(|&(g, y)| (axis.x(g), y))
            .collect();
        let data = Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Style::new().fg(Color::Cyan))
            .data(&points);
        let zero = [(0.0, 0.0), (axis.max, 0.0)];
        let axis_line = Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(DIM)
            .data(&zero);
        let chart = Chart::new(vec![axis_line, data])
            .x_axis(axis.axis())
            .y_axis(
                Axis::default()
                    .bounds([lo, hi])
                    .labels([Span::styled(y_lo, DIM), Span::styled(y_hi, DIM)])
                    .style(DIM),
            );
        f.render_widget(chart, chart_area);
    };
    cached_chart(f, draw, key, games, cache);
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

/// The first box's beads, arrow by arrow, as the games went (each arrow in its bead's colour):
/// how the machine comes to prefer its first move.
pub fn first_box_panel<G: BoardView>(
    f: &mut Frame,
    area: Rect,
    fb: &crate::view::app::FirstBoxSnap,
    s: &Snapshot<G>,
    cache: Option<&ChartCache>,
) {
    let games = s.games_played;
    let inner = panel(String::new()).inner(area);
    let title =
        GameAxis::new(games, inner.width as usize).title("First box: beads by move", area.width);
    f.render_widget(panel(title), area);
    if inner.height < 3 || fb.samples.is_empty() {
        return;
    }
    // The legend under the chart, a line of each arrow's colour and words.
    let [chart_area, legend_area] =
        Layout::vertical([Constraint::Min(2), Constraint::Length(1)]).areas(inner);
    let key = ChartKey {
        area: chart_area,
        seed: s.seed,
        fixed_point: fixed_point(&fb.samples)
            .map(|(g, b)| (*g as f64, b.iter().sum::<u32>() as f64)),
    };
    let draw = |f: &mut Frame| {
        let most = (fb.samples.iter())
            .flat_map(|(_, b)| b.iter().copied())
            .max()
            .unwrap_or(1)
            .max(1);
        let y_hi = group(most as u64);
        let plot_width = (inner.width as usize).saturating_sub(y_hi.chars().count() + 1);
        let axis = GameAxis::new(games, plot_width);
        let series: Vec<Vec<(f64, f64)>> = (0..fb.arrows.len())
            .map(|k| {
                let points = (fb.samples.iter())
                    .map(|(g, b)| (axis.x(*g as f64), b.get(k).copied().unwrap_or(0) as f64));
                thin(points, axis.max, plot_width)
            })
            .collect();
        let sets: Vec<Dataset> = (fb.arrows.iter().zip(&series))
            .map(|((words, colour), data)| {
                Dataset::default()
                    .name(words.clone())
                    .marker(Marker::Braille)
                    .graph_type(GraphType::Line)
                    .style(Style::new().fg(*colour))
                    .data(data)
            })
            .collect();
        let chart = Chart::new(sets)
            .x_axis(axis.axis())
            .y_axis(
                Axis::default()
                    .bounds([0.0, most as f64])
                    .labels([Span::styled("0", DIM), Span::styled(y_hi, DIM)])
                    .style(DIM),
            )
            .legend_position(None);
        f.render_widget(chart, chart_area);
    };
    cached_chart(f, draw, key, games, cache);
    // As many arrows as fit, a column from the border; "…" for the rest.
    let room = (legend_area.width as usize).saturating_sub(2);
    let (mut spans, mut used) = (Vec::new(), 0);
    for (k, (words, colour)) in fb.arrows.iter().enumerate() {
        let more = if k + 1 < fb.arrows.len() { 2 } else { 0 };
        if used + 3 + words.chars().count() + more > room {
            spans.push(Span::styled(" …", DIM));
            break;
        }
        used += 3 + words.chars().count();
        spans.push(Span::styled(" ━ ", BOLD.fg(*colour)));
        spans.push(Span::styled(words.clone(), Style::new().fg(*colour)));
    }
    f.render_widget(Paragraph::new(Line::from(spans)), legend_area);
}
