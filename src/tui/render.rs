//! Drawing: pure functions from screen state to a frame.

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Axis, Block, BorderType, Chart, Clear, Dataset, GraphType, Paragraph, Sparkline,
};

use super::app::{Mode, Snapshot, WatchApp, key_table};
use super::board::{BoardView, bead_colour};
use super::session::Curve;
use crate::learn::GameResult;
use crate::players::Opponent;
pub use crate::text::group;

/// The smallest terminal the screens fit in (taller for big boards).
pub fn min_size<G: BoardView>(game: &G) -> (u16, u16) {
    let (_, h) = game.board_size();
    (80, 24.max(2 * h + 14))
}

const DIM: Style = Style::new().fg(Color::DarkGray);
const BOLD: Style = Style::new().add_modifier(Modifier::BOLD);

fn panel(title: String) -> Block<'static> {
    Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(DIM)
        .title(Span::styled(title, BOLD))
}

/// "enlarge the terminal" instead of a broken layout.
pub fn too_small(f: &mut Frame, need: (u16, u16)) {
    let area = f.area();
    let text = vec![
        Line::styled(
            format!("enlarge the terminal to at least {}×{}", need.0, need.1),
            BOLD.fg(Color::Yellow),
        ),
        Line::styled(
            format!("(it is {}×{}; q quits)", area.width, area.height),
            DIM,
        ),
    ];
    let y = area.height.saturating_sub(2) / 2;
    let r = Rect::new(area.x, area.y + y, area.width, area.height.min(2));
    f.render_widget(Paragraph::new(text).alignment(Alignment::Center), r);
}

/// The key table over the screen.
pub fn help(f: &mut Frame, mode: Mode) {
    let keys = key_table(mode);
    let area = f.area();
    let w = 64.min(area.width);
    let h = (keys.len() as u16 + 4).min(area.height);
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
    lines.push(Line::styled(" any key closes this help", DIM));
    f.render_widget(Clear, r);
    f.render_widget(
        Paragraph::new(lines)
            .block(panel(" Keys ".into()).border_style(Style::new().fg(Color::Cyan))),
        r,
    );
}

fn result_word(r: GameResult) -> &'static str {
    match r {
        GameResult::Win => "won",
        GameResult::Draw => "drew",
        GameResult::Loss => "lost",
    }
}

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
            Some(o) if side == snap.boxes.side() && o.game == rec.number => {
                o.arrow.map_or(Color::Gray, bead_colour)
            }
            _ => Color::Gray,
        };
        marks.push((mv, colour));
    }
    let mut lines = game.board_lines(rec.position(), &marks);
    lines.push(Line::raw(""));
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
    lines.push(Line::raw(format!(" {shown}")));
    let status = match rec.result {
        Some(r) => {
            let how = if rec.resigned { " (resigned)" } else { "" };
            let colour = match r {
                GameResult::Win => Color::Green,
                GameResult::Draw => Color::Yellow,
                GameResult::Loss => Color::Red,
            };
            Line::styled(
                format!(" {machine} {}{how}", result_word(r)),
                BOLD.fg(colour),
            )
        }
        None => Line::styled(format!(" move {}", rec.moves.len() + 1), DIM),
    };
    lines.push(status);
    let title = format!(" Game {} ", group(rec.number));
    f.render_widget(Paragraph::new(indent(lines)).block(panel(title)), area);
}

fn indent(lines: Vec<Line<'static>>) -> Vec<Line<'static>> {
    lines
        .into_iter()
        .map(|mut l| {
            l.spans.insert(0, Span::raw(" "));
            l
        })
        .collect()
}

/// Dots for a bead count, at most `max` of them (then a number).
fn dots(n: u32, max: usize) -> String {
    if n as usize <= max {
        "●".repeat(n as usize)
    } else {
        format!("●×{n}")
    }
}

/// The box the machine opened last: its diagram with coloured arrows, and the beads inside, the
/// drawn one marked; a confiscated bead leaves the box, added beads appear, an empty box is marked.
pub fn box_panel<G: BoardView>(
    f: &mut Frame,
    area: Rect,
    game: &G,
    snap: &Snapshot<G>,
    anim: f32,
    animated: bool,
) {
    let Some(opened) = snap.opened else {
        let p = Paragraph::new(vec![Line::raw(""), Line::styled(" no box opened yet", DIM)])
            .block(panel(" Matchbox ".into()));
        f.render_widget(p, area);
        return;
    };
    let b = opened.box_index;
    let mbox = snap.boxes.get(b);
    let beads = &snap.beads[&b];
    let changes: Vec<(usize, i64)> = snap
        .reinforced
        .as_ref()
        .filter(|r| r.game == opened.game)
        .map(|r| {
            r.changes
                .iter()
                .filter(|c| c.0 == b)
                .map(|&(_, a, d)| (a, d))
                .collect()
        })
        .unwrap_or_default();
    let playing = anim < 1.0;
    let arrows: Vec<(G::Move, Color, u32)> = mbox
        .arrows
        .iter()
        .enumerate()
        .map(|(i, &m)| (m, bead_colour(i), beads.get(i).copied().unwrap_or(0)))
        .collect();
    let diagram = game.box_lines(&mbox.position, &arrows);
    let mut right: Vec<Line> = Vec::new();
    for (i, &mv) in mbox.arrows.iter().enumerate() {
        let colour = bead_colour(i);
        let n = beads.get(i).copied().unwrap_or(0);
        let drawn = opened.arrow == Some(i);
        let delta = changes.iter().find(|c| c.0 == i).map_or(0, |c| c.1);
        let name = format!("{:<6}", game.format_move(mv));
        let mut spans = vec![
            Span::styled(if drawn { "▶" } else { " " }, BOLD.fg(colour)),
            Span::styled(
                name,
                if drawn {
                    BOLD.fg(Color::Black).bg(colour)
                } else {
                    Style::new().fg(colour)
                },
            ),
            Span::raw(" "),
        ];
        if delta > 0 && playing {
            let keep = n.saturating_sub(delta as u32);
            spans.push(Span::styled(dots(keep, 8), Style::new().fg(colour)));
            spans.push(Span::styled(dots(delta as u32, 8), BOLD.fg(Color::Green)));
            spans.push(Span::styled(format!(" +{delta}"), BOLD.fg(Color::Green)));
        } else {
            spans.push(Span::styled(dots(n, 10), Style::new().fg(colour)));
            if n == 0 {
                spans.push(Span::styled("–", DIM));
            }
        }
        if delta < 0 && playing {
            // The confiscated bead slides out of the box.
            let gap = if animated { (anim * 4.0) as usize } else { 1 };
            spans.push(Span::raw(" ".repeat(1 + gap)));
            spans.push(Span::styled(
                dots((-delta) as u32, 3),
                BOLD.fg(Color::Red).add_modifier(Modifier::CROSSED_OUT),
            ));
            spans.push(Span::styled(format!(" {delta}"), BOLD.fg(Color::Red)));
        }
        right.push(Line::from(spans));
    }
    let total: u32 = beads.iter().sum();
    if opened.arrow.is_none() {
        right.push(Line::styled(" empty: resigned", BOLD.fg(Color::Red)));
    } else if total == 0 {
        right.push(Line::styled(" now empty ✗", BOLD.fg(Color::Red)));
    }
    let rows = diagram.len().max(right.len());
    let dw = game.board_size().0 as usize + 2;
    let mut lines = Vec::with_capacity(rows);
    for r in 0..rows {
        let mut spans = vec![Span::raw(" ")];
        match diagram.get(r) {
            Some(l) => {
                let w: usize = l.spans.iter().map(|s| s.content.chars().count()).sum();
                spans.extend(l.spans.iter().cloned());
                spans.push(Span::raw(" ".repeat(dw.saturating_sub(w))));
            }
            None => spans.push(Span::raw(" ".repeat(dw))),
        }
        if let Some(l) = right.get(r) {
            spans.extend(l.spans.iter().cloned());
        }
        lines.push(Line::from(spans));
    }
    if opened.mirrored {
        lines.push(Line::styled(" (board turned to match)", DIM));
    }
    if let Some(r) = &snap.reinforced {
        lines.push(Line::raw(""));
        lines.extend(reinforcement_lines(game, snap, r));
    }
    let lost_here = !changes.is_empty() && changes.iter().any(|c| c.1 < 0);
    let mut block = panel(format!(" Box {} · move {} ", b + 1, mbox.move_number()));
    if lost_here && playing && !animated {
        block = block.border_style(BOLD.fg(Color::Red));
    }
    f.render_widget(Paragraph::new(lines).block(block), area);
}

/// What the last game did to the beads, in words.
fn reinforcement_lines<G: BoardView>(
    game: &G,
    snap: &Snapshot<G>,
    r: &super::session::Reinforced,
) -> Vec<Line<'static>> {
    let (word, colour) = match r.result {
        GameResult::Win => ("won", Color::Green),
        GameResult::Draw => ("drawn", Color::Yellow),
        GameResult::Loss => ("lost", Color::Red),
    };
    let mut lines = vec![Line::styled(
        format!(" game {} {word}:", group(r.game)),
        BOLD.fg(colour),
    )];
    if r.changes.is_empty() {
        lines.push(Line::styled(" no bead changes", DIM));
    }
    for &(b, a, d) in r.changes.iter().take(3) {
        let mv = game.format_move(snap.boxes.get(b).arrows[a]);
        let beads = if d.abs() == 1 { "bead" } else { "beads" };
        lines.push(Line::styled(
            format!(" {d:+} {beads}, box {} {mv}", b + 1),
            Style::new().fg(colour),
        ));
    }
    if r.changes.len() > 3 {
        lines.push(Line::styled(
            format!(" and {} more", r.changes.len() - 3),
            DIM,
        ));
    }
    for &b in r.emptied.iter().take(2) {
        lines.push(Line::styled(
            format!(" box {} is now empty", b + 1),
            BOLD.fg(Color::Red),
        ));
    }
    lines
}

/// A bar for a bead count.
fn bar(n: u32) -> char {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    if n == 0 {
        '·'
    } else {
        BARS[(n as usize).min(8) - 1]
    }
}

/// The whole machine: each box with its bead counts as small bars.
pub fn machine_panel<G: BoardView>(f: &mut Frame, area: Rect, snap: &Snapshot<G>) {
    let total = snap.boxes.len();
    let inner_w = area.width.saturating_sub(2) as usize;
    let inner_h = area.height.saturating_sub(2) as usize;
    let arrows = snap
        .shown
        .iter()
        .map(|&b| snap.boxes.get(b).arrows.len())
        .max()
        .unwrap_or(1)
        .min(10);
    let num_w = total.to_string().len();
    let entry_w = num_w + 2 + arrows + 1;
    let cols = (inner_w / entry_w).max(1);
    let all = snap.shown.len() == total;
    let rows_avail = if all {
        inner_h
    } else {
        inner_h.saturating_sub(1)
    };
    let fits = cols * rows_avail;
    let shown: Vec<usize> = snap.shown.iter().copied().take(fits).collect();
    let opened = snap.opened.map(|o| o.box_index);
    let rows = shown.len().div_ceil(cols);
    let mut lines = Vec::new();
    for r in 0..rows {
        let mut spans = vec![Span::raw(" ")];
        for c in 0..cols {
            // Column-major, so boxes read down the columns in order.
            let Some(&b) = shown.get(c * rows + r) else {
                continue;
            };
            let beads = &snap.beads[&b];
            let empty = beads.iter().all(|&n| n == 0);
            let num_style = if Some(b) == opened {
                BOLD.add_modifier(Modifier::REVERSED)
            } else if empty {
                Style::new().fg(Color::Red)
            } else {
                DIM
            };
            spans.push(Span::styled(format!("{:>num_w$}", b + 1), num_style));
            spans.push(Span::raw(" "));
            if empty {
                spans.push(Span::styled(
                    format!("{:<arrows$}", "✗"),
                    BOLD.fg(Color::Red),
                ));
            } else {
                for (i, &n) in beads.iter().enumerate() {
                    spans.push(Span::styled(
                        bar(n).to_string(),
                        Style::new().fg(bead_colour(i)),
                    ));
                }
                spans.push(Span::raw(" ".repeat(arrows.saturating_sub(beads.len()))));
            }
            spans.push(Span::raw("  "));
        }
        lines.push(Line::from(spans));
    }
    if !all {
        lines.push(Line::styled(
            format!(
                " {} of {total} shown · {} empty",
                shown.len(),
                snap.boxes_emptied
            ),
            DIM,
        ));
    }
    let title = format!(" Machine: {total} boxes ");
    f.render_widget(Paragraph::new(lines).block(panel(title)), area);
}

fn kv(k: &str, v: String) -> Line<'static> {
    Line::from(vec![
        Span::styled(format!(" {k:<10} "), DIM),
        Span::styled(v, BOLD),
    ])
}

/// Games per second for people: 12, 1.2k, 3.4M.
pub fn rate(r: f64) -> String {
    if r >= 1e6 {
        format!("{:.1}M", r / 1e6)
    } else if r >= 1e3 {
        format!("{:.1}k", r / 1e3)
    } else if r >= 10.0 {
        format!("{r:.0}")
    } else {
        format!("{r:.1}")
    }
}

fn signed_rate(v: f64) -> String {
    let size = if v.abs() < 1e3 {
        format!("{:.0}", v.abs())
    } else {
        rate(v.abs())
    };
    if v < 0.0 { format!("-{size}") } else { size }
}

/// The scoreboard.
pub fn score_panel<G: BoardView>(f: &mut Frame, area: Rect, app: &WatchApp<G>) {
    let s = &app.snapshot;
    let st = &s.stats;
    let streak = match st.streak {
        Some((r, n)) => format!(
            "{} {}",
            group(n),
            match r {
                GameResult::Win => "won",
                GameResult::Draw => "drawn",
                GameResult::Loss => "lost",
            }
        ),
        None => "–".into(),
    };
    let lines = vec![
        kv("games", group(s.games_played)),
        kv(
            "W/D/L",
            format!(
                "{}/{}/{}",
                group(st.wins),
                group(st.draws),
                group(st.losses)
            ),
        ),
        kv("streak", streak),
        kv(
            "last loss",
            st.last_loss
                .map_or("none yet".into(), |g| format!("game {}", group(g))),
        ),
        kv(
            "emptied",
            format!(
                "{} of {} boxes",
                group(s.boxes_emptied as u64),
                group(s.boxes.len() as u64)
            ),
        ),
        kv("beads", format!("{} left", group(s.beads_left))),
        kv("speed", format!("{} games/s", rate(app.games_per_sec))),
        kv("screen", format!("{:.0} frames/s", app.fps)),
    ];
    f.render_widget(Paragraph::new(lines).block(panel(" Score ".into())), area);
}

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
    let chart = Chart::new(vec![axis_line, data])
        .x_axis(
            Axis::default()
                .bounds([0.0, x_max])
                .labels([
                    Span::styled("0", DIM),
                    Span::styled(format!("{x_max:.0} games"), DIM),
                ])
                .style(DIM),
        )
        .y_axis(
            Axis::default()
                .bounds([lo, hi])
                .labels([
                    Span::styled(signed_rate(lo), DIM),
                    Span::styled(signed_rate(hi), DIM),
                ])
                .style(DIM),
        );
    f.render_widget(chart, chart_area);
    f.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(format!(" lost, last {} games: ", Curve::WINDOW), DIM),
            Span::styled(
                format!("{:.0}%", curve.rolling_loss_rate() * 100.0),
                BOLD.fg(Color::Red),
            ),
        ])),
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

/// The areas both screens share: title line, three columns (the first split into the board and
/// what goes under it), key line. `None` (with the "enlarge" message drawn) when the terminal is too
/// small.
struct Screen {
    title: Rect,
    board: Rect,
    under_board: Rect,
    middle: Rect,
    right: Rect,
    keys: Rect,
}

fn screen<G: BoardView>(f: &mut Frame, game: &G) -> Option<Screen> {
    let need = min_size(game);
    let area = f.area();
    if area.width < need.0 || area.height < need.1 {
        too_small(f, need);
        return None;
    }
    let [title, body, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(area);
    let (bw, bh) = game.board_size();
    let [a, middle, right] = Layout::horizontal([
        Constraint::Length((bw + 20).max(28)),
        Constraint::Length(24),
        Constraint::Min(28),
    ])
    .areas(body);
    let [board, under_board] =
        Layout::vertical([Constraint::Length(bh + 5), Constraint::Min(0)]).areas(a);
    Some(Screen {
        title,
        board,
        under_board,
        middle,
        right,
        keys,
    })
}

/// The watch screen.
pub fn watch<G: BoardView>(f: &mut Frame, app: &WatchApp<G>) {
    let Some(Screen {
        title,
        board: board_area,
        under_board: box_area,
        middle: b,
        right: c,
        keys,
    }) = screen(f, &app.game)
    else {
        return;
    };
    let area = f.area();
    let s = &app.snapshot;
    let opponent = match s.rival {
        Opponent::Human => "you".into(),
        k => format!("the {k} player"),
    };
    let state = if s.limit_reached {
        "done".to_string()
    } else if app.paused {
        "paused".to_string()
    } else {
        app.speed.label().to_string()
    };
    let left = fit(
        &[
            format!(
                " {} learns {} against {opponent}",
                app.titles.machine, app.titles.game
            ),
            format!(" · {}", app.titles.symmetry),
            format!(" · {} reinforcement", s.reinforcement),
            format!(" · seed {}", s.seed),
        ],
        (area.width as usize).saturating_sub(state.chars().count() + 3),
    );
    let right = format!("[{state}] ");
    let pad = (area.width as usize).saturating_sub(left.chars().count() + right.chars().count());
    f.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(left, BOLD),
            Span::raw(" ".repeat(pad)),
            Span::styled(right, BOLD.fg(Color::Yellow)),
        ]))
        .style(Style::new().bg(Color::Rgb(30, 30, 46))),
        title,
    );
    board_panel(f, board_area, &app.game, s, &app.titles.machine, &[]);
    box_panel(f, box_area, &app.game, s, app.anim, app.speed.animated());
    machine_panel(f, b, s);
    let [score_area, curve_area] =
        Layout::vertical([Constraint::Length(11), Constraint::Min(0)]).areas(c);
    score_panel(f, score_area, app);
    curve_panel(f, curve_area, &s.curve, s.games_played);
    let bar = match &app.message {
        Some(m) => Line::styled(format!(" {m}"), BOLD.fg(Color::Yellow)),
        None => Line::styled(
            " space pause  n step  +/- speed  o opponent  r reset  s save  ? help  q quit",
            DIM,
        ),
    };
    f.render_widget(Paragraph::new(bar), keys);
    if app.show_help {
        help(f, Mode::Watch);
    }
}

/// As many of the parts as fit in `width`, in order.
fn fit(parts: &[String], width: usize) -> String {
    let mut out = String::new();
    for p in parts {
        if out.chars().count() + p.chars().count() > width {
            break;
        }
        out.push_str(p);
    }
    out
}

/// The play screen.
pub fn play<G: BoardView>(f: &mut Frame, app: &super::play::PlayApp<G>) {
    let game = app.session.game();
    let Some(Screen {
        title,
        board: board_area,
        under_board: score_area,
        middle: b,
        right: c,
        keys,
    }) = screen(f, game)
    else {
        return;
    };
    let area = f.area();
    let s = &app.snapshot;
    let left = fit(
        &[
            format!(
                " matchbox play · you ({}) against {} · {}",
                game.side_name(app.human),
                app.titles.machine,
                app.titles.game
            ),
            format!(" · {}", app.titles.symmetry),
            format!(" · seed {}", s.seed),
        ],
        area.width as usize,
    );
    f.render_widget(
        Paragraph::new(Line::styled(left, BOLD)).style(Style::new().bg(Color::Rgb(30, 30, 46))),
        title,
    );
    let options = app.options();
    let selected: Vec<(G::Move, Color)> = options
        .get(app.cursor)
        .filter(|_| app.input.is_empty())
        .map(|&m| vec![(m, Color::Cyan)])
        .unwrap_or_default();
    board_panel(f, board_area, game, s, &app.titles.machine, &selected);
    // Your moves.
    let mut lines: Vec<Line> = Vec::new();
    if options.is_empty() {
        lines.push(Line::styled(" (not your turn)", DIM));
    }
    for (i, &m) in options.iter().enumerate() {
        let here = i == app.cursor && app.input.is_empty();
        lines.push(Line::styled(
            format!(" {} {}", if here { "▶" } else { " " }, game.format_move(m)),
            if here {
                BOLD.fg(Color::Cyan)
            } else {
                Style::new()
            },
        ));
    }
    lines.push(Line::raw(""));
    lines.push(Line::from(vec![
        Span::styled(" type: ", DIM),
        Span::styled(format!("{}▏", app.input), BOLD),
    ]));
    if let Some(m) = &app.message {
        lines.push(Line::raw(""));
        for chunk in wrap(m, b.width.saturating_sub(3) as usize) {
            lines.push(Line::styled(format!(" {chunk}"), BOLD.fg(Color::Yellow)));
        }
    }
    f.render_widget(Paragraph::new(lines).block(panel(" Your move ".into())), b);
    box_panel(f, c, game, s, 1.0, false);
    let st = &s.stats;
    let score = vec![
        kv("games", st.games.to_string()),
        kv("you won", st.losses.to_string()),
        kv("it won", st.wins.to_string()),
        kv("drawn", st.draws.to_string()),
        kv("its beads", s.beads_left.to_string()),
        kv(
            "emptied",
            format!(
                "{} of {} boxes",
                group(s.boxes_emptied as u64),
                group(s.boxes.len() as u64)
            ),
        ),
    ];
    f.render_widget(
        Paragraph::new(score).block(panel(format!(" You v {} ", app.titles.machine))),
        score_area,
    );
    // The example is a move of this game (the first one offered, or the game's first move).
    let game = app.session.game();
    let example = app
        .options()
        .first()
        .copied()
        .or_else(|| game.moves(&game.start()).first().copied())
        .map(|m| game.format_move(m))
        .unwrap_or_default();
    f.render_widget(
        Paragraph::new(Line::styled(
            format!(" ↑↓ choose · Enter play · or type a move like {example} · ? help · q quit"),
            DIM,
        )),
        keys,
    );
    if app.show_help {
        help(f, Mode::Play);
    }
}

/// Splits text into lines of at most `width` characters at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut out = vec![String::new()];
    for word in text.split(' ') {
        let last = out.last_mut().expect("never empty");
        if !last.is_empty() && last.chars().count() + 1 + word.chars().count() > width.max(8) {
            out.push(word.to_string());
        } else {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(word);
        }
    }
    out
}
