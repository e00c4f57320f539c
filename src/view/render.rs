//! Drawing: pure functions from screen state to a frame.

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Axis, Block, BorderType, Chart, Clear, Dataset, GraphType, Paragraph, Sparkline,
};

use std::collections::HashMap;

use super::app::{Mode, SnapBoxes, Snapshot, WatchApp, key_table};
use super::board::BoardView;
use super::session::Curve;
use super::theme::TITLE_BG;
use crate::learn::GameResult;
use crate::palette::BeadColours;
use crate::players::Opponent;
use crate::text::signed_rate;
pub use crate::text::{group, rate, short_count};

/// Which screen is drawn: under the board, `watch` shows the open box (a diagram as tall as the
/// board), `play` the score (eight rows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScreenKind {
    Watch,
    Play,
}

/// Rows of the panel under the board: at the least, and with room for all it shows.
fn under_board_rows(kind: ScreenKind, board_rows: u16) -> (u16, u16) {
    match kind {
        ScreenKind::Watch => (board_rows + 3, board_rows + 7),
        ScreenKind::Play => (8, 8),
    }
}

/// The smallest terminal a screen fits in (taller for big boards). The board's panel is the
/// board, its moves and the game's state; on a short terminal it keeps only the board and the
/// state, and the panel under it what fits.
pub fn min_size<G: BoardView>(game: &G, kind: ScreenKind) -> (u16, u16) {
    let (w, h) = game.board_size();
    let (under, _) = under_board_rows(kind, h);
    // The board's column holds the board, indented, between borders; beside it the machine (24
    // columns) and the score (28).
    (80.max(w + 3 + MIDDLE + RIGHT), 24.max(2 + h + 3 + under))
}

/// Widths of the middle column (the machine, or the moves to choose from) and the least of the
/// right one (the score, or the box).
const MIDDLE: u16 = 24;
const RIGHT: u16 = 28;

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

/// The screen while a big machine is built: what, the step under way, the time so far.
pub fn preparing(f: &mut Frame, what: &str, stage: &str, secs: u64, tick: usize) {
    const SPIN: [char; 4] = ['◐', '◓', '◑', '◒'];
    let area = f.area();
    let lines = vec![
        Line::styled(format!("{} preparing {what}", SPIN[tick % 4]), BOLD),
        Line::raw(""),
        Line::styled(format!("{stage} … {secs} s"), Style::new().fg(Color::Cyan)),
        Line::raw(""),
        Line::styled("q stops", DIM),
    ];
    let y = area.height.saturating_sub(5) / 2;
    let r = Rect::new(area.x, area.y + y, area.width, area.height.min(5));
    f.render_widget(Paragraph::new(lines).alignment(Alignment::Center), r);
}

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
pub fn help(f: &mut Frame, mode: Mode, pieces: &str) {
    let keys = key_table(mode);
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
    lines.push(Line::raw(""));
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
            let options = [
                format!(" {machine} {word}{how}"),
                format!(
                    " {machine} {}",
                    if rec.resigned { "resigned" } else { word }
                ),
                format!(" {}", if rec.resigned { "resigned" } else { word }),
            ];
            Line::styled(first_fit(&options, width), BOLD.fg(colour))
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

/// The box the machine opened last (or the box the browser shows): its diagram with coloured
/// arrows, and the beads inside, the drawn one marked; a confiscated bead leaves the box, added
/// beads appear, an empty box is marked. A browsed box lists each arrow's chance.
pub fn box_panel<G: BoardView>(
    f: &mut Frame,
    area: Rect,
    game: &G,
    snap: &Snapshot<G>,
    anim: f32,
    animated: bool,
    browse: Option<usize>,
) {
    let browsed =
        browse.filter(|&b| snap.boxes.try_get(b).is_some() && snap.beads.contains_key(&b));
    let Some(b) = browsed.or(snap.opened.map(|o| o.box_index)) else {
        let p = Paragraph::new(vec![Line::raw(""), Line::styled(" no box opened yet", DIM)])
            .block(panel(" Matchbox ".into()));
        f.render_widget(p, area);
        return;
    };
    // The machine's last opening, when it is this box.
    let live = snap.opened.filter(|o| o.box_index == b);
    let mbox = snap.boxes.get(b);
    let beads = &snap.beads[&b];
    let changes: Vec<(usize, i64)> = match live {
        Some(opened) => snap
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
            .unwrap_or_default(),
        None => Vec::new(),
    };
    let drawn_arrow = live.and_then(|o| o.arrow);
    let playing = anim < 1.0;
    let arrows: Vec<(G::Move, Color, u32)> = mbox
        .arrows
        .iter()
        .enumerate()
        .map(|(i, &m)| {
            (
                m,
                snap.arrow_colour(game, b, i),
                beads.get(i).copied().unwrap_or(0),
            )
        })
        .collect();
    let diagram = game.box_lines(&mbox.position, &arrows);
    let mut right: Vec<Line> = Vec::new();
    for (i, &mv) in mbox.arrows.iter().enumerate() {
        let colour = snap.arrow_colour(game, b, i);
        let n = beads.get(i).copied().unwrap_or(0);
        let drawn = drawn_arrow == Some(i);
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
    let dw = game.board_size().0 as usize + 2;
    let room = (area.width as usize).saturating_sub(dw + 4);
    if live.is_some_and(|o| o.arrow.is_none()) {
        let text = first_fit(&[" empty: resigned".into(), " resigned".into()], room);
        right.push(Line::styled(text, BOLD.fg(Color::Red)));
    } else if total == 0 {
        right.push(Line::styled(" empty ✗", BOLD.fg(Color::Red)));
    }
    let rows = diagram.len().max(right.len());
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
    // Text leaves a space before the border.
    let width = area.width.saturating_sub(4) as usize;
    let height = area.height.saturating_sub(2) as usize;
    if let Some(sym) = live.and_then(|o| o.image) {
        // The box is a symmetric image of the board: its move and the board's side by side.
        let word = game.image_word(sym);
        let text = match drawn_arrow {
            Some(a) => {
                let here = mbox.arrows[a];
                let there = game.transform_move(game.inverse(sym), here);
                if there == here {
                    // A move on the mirror's axis: the same on both.
                    format!(
                        "▶{} here and on the board (the board {word} to match)",
                        game.format_move(here)
                    )
                } else {
                    format!(
                        "▶{} here = {} on the board ({word})",
                        game.format_move(here),
                        game.format_move(there)
                    )
                }
            }
            None => format!("(the board {word} to match)"),
        };
        for chunk in wrap(&text, width) {
            lines.push(Line::styled(format!(" {chunk}"), DIM));
        }
    }
    // Each arrow's chance of being drawn: always in the browser, and for the live box where the
    // panel has room for all of them after the last game's bead changes.
    let chance_lines = |room: usize| -> Vec<Line<'static>> {
        let n = mbox.arrows.len();
        let show = if n <= room { n } else { room.saturating_sub(1) };
        let mut out = Vec::new();
        for (i, &mv) in mbox.arrows.iter().enumerate().take(show) {
            let k = beads.get(i).copied().unwrap_or(0);
            let pct = if total == 0 {
                0.0
            } else {
                100.0 * k as f64 / total as f64
            };
            let name = game.format_move(mv);
            let options = [
                format!(
                    "{name}: {k} of {total} {} = {pct:.0} %",
                    if total == 1 { "bead" } else { "beads" }
                ),
                format!("{name}: {k} of {total} = {pct:.0} %"),
                format!("{name}: {k}/{total} = {pct:.0}%"),
                format!("{name} {pct:.0}%"),
            ];
            out.push(Line::styled(
                format!(" {}", first_fit(&options, width)),
                Style::new().fg(snap.arrow_colour(game, b, i)),
            ));
        }
        if show < n {
            out.push(Line::styled(format!(" … {} more arrows", n - show), DIM));
        }
        out
    };
    if browsed.is_some() && live.is_none() {
        lines.push(Line::raw(""));
        if total == 0 {
            // No chances to give: an empty box makes the machine resign.
            for chunk in wrap("no beads: the machine resigns here", width) {
                lines.push(Line::styled(format!(" {chunk}"), BOLD.fg(Color::Red)));
            }
        } else {
            let room = height.saturating_sub(lines.len());
            lines.extend(chance_lines(room));
        }
    } else {
        if let Some(r) = snap.reinforced.as_ref().filter(|_| live.is_some()) {
            lines.push(Line::raw(""));
            lines.extend(reinforcement_lines(game, snap, r));
        }
        let room = height.saturating_sub(lines.len() + 1);
        if total > 0 && mbox.arrows.len() <= room {
            lines.push(Line::raw(""));
            lines.extend(chance_lines(room));
        }
    }
    let lost_here = !changes.is_empty() && changes.iter().any(|c| c.1 < 0);
    let number = group(b as u64 + 1);
    let of = group(snap.boxes.len() as u64);
    let move_no = mbox.move_number();
    let titles = if browsed.is_some() {
        [
            format!(" Box {number} of {of} · move {move_no} "),
            format!(" Box {number}/{of} · move {move_no} "),
            format!(" Box {number} "),
        ]
    } else {
        [
            format!(" Box {number} · move {move_no} "),
            format!(" Box {number} · m{move_no} "),
            format!(" Box {number} "),
        ]
    };
    let mut block = panel(first_fit(&titles, area.width.saturating_sub(2) as usize));
    if lost_here && playing && !animated {
        block = block.border_style(BOLD.fg(Color::Red));
    }
    f.render_widget(Paragraph::new(lines).block(block), area);
}

/// The first text that fits in `width` characters (else the last, cut).
fn first_fit(options: &[String], width: usize) -> String {
    options
        .iter()
        .find(|o| o.chars().count() <= width)
        .cloned()
        .unwrap_or_else(|| {
            options
                .last()
                .map(|o| o.chars().take(width).collect())
                .unwrap_or_default()
        })
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
/// A machine's boxes as the machine panel draws them: the learner's, or its rival's.
pub struct MachineView<'a, G: BoardView> {
    pub boxes: &'a SnapBoxes<G>,
    pub shown: &'a [usize],
    pub beads: &'a HashMap<usize, Vec<u32>>,
    /// The box drawn highlighted (the one opened last).
    pub highlight: Option<usize>,
    pub emptied: usize,
    pub colours: BeadColours,
    pub title: String,
}

impl<G: BoardView> MachineView<'_, G> {
    fn colour(&self, game: &G, b: usize, k: usize) -> Color {
        self.boxes.arrow_colour(game, self.colours, b, k)
    }
}

/// The learner's machine panel.
fn learner_view<G: BoardView>(snap: &Snapshot<G>) -> MachineView<'_, G> {
    MachineView {
        boxes: &snap.boxes,
        shown: &snap.shown,
        beads: &snap.beads,
        highlight: snap.opened.map(|o| o.box_index),
        emptied: snap.boxes_emptied,
        colours: snap.colours,
        title: "Machine".into(),
    }
}

pub fn machine_panel<G: BoardView>(
    f: &mut Frame,
    area: Rect,
    game: &G,
    v: &MachineView<'_, G>,
    browse: Option<usize>,
) {
    let total = v.boxes.len();
    let inner_w = area.width.saturating_sub(2) as usize;
    let inner_h = area.height.saturating_sub(2) as usize;
    let arrows = v
        .shown
        .iter()
        .map(|&b| v.boxes.get(b).arrows.len())
        .max()
        .unwrap_or(1)
        .min(10);
    let num_w = total.to_string().len();
    let entry_w = num_w + 2 + arrows + 1;
    let cols = (inner_w / entry_w).max(1);
    let all = v.shown.len() == total;
    let rows_avail = if all {
        inner_h
    } else {
        inner_h.saturating_sub(1)
    };
    let fits = (cols * rows_avail).max(1);
    let browse = browse.filter(|b| v.shown.contains(b));
    // The browsed box is always among those drawn: the page of boxes around it.
    let skip = match browse.and_then(|b| v.shown.iter().position(|&x| x == b)) {
        Some(i) => (i / fits) * fits,
        None => 0,
    };
    let shown: Vec<usize> = v.shown.iter().copied().skip(skip).take(fits).collect();
    let opened = browse.or(v.highlight);
    let rows = shown.len().div_ceil(cols);
    let mut lines = Vec::new();
    for r in 0..rows {
        let mut spans = vec![Span::raw(" ")];
        for c in 0..cols {
            // Column-major, so boxes read down the columns in order.
            let Some(&b) = shown.get(c * rows + r) else {
                continue;
            };
            let beads = &v.beads[&b];
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
                // A box with more arrows than the column holds: the first ones, then "…".
                let cut = beads.len() > arrows;
                let drawn = if cut { arrows - 1 } else { beads.len() };
                for (i, &n) in beads.iter().enumerate().take(drawn) {
                    spans.push(Span::styled(
                        bar(n).to_string(),
                        Style::new().fg(v.colour(game, b, i)),
                    ));
                }
                if cut {
                    spans.push(Span::styled("…", DIM));
                }
                spans.push(Span::raw(" ".repeat(arrows.saturating_sub(beads.len()))));
            }
            spans.push(Span::raw("  "));
        }
        lines.push(Line::from(spans));
    }
    let all = all && shown.len() == total;
    if !all {
        let width = inner_w.saturating_sub(1);
        let emptied = group(v.emptied as u64);
        let (first, last) = (
            shown.iter().min().map_or(0, |&b| b + 1),
            shown.iter().max().map_or(0, |&b| b + 1),
        );
        let options = if browse.is_some() {
            [
                format!(
                    "boxes {}–{} · {emptied} empty",
                    group(first as u64),
                    group(last as u64)
                ),
                format!("boxes {}–{}", group(first as u64), group(last as u64)),
                format!("{}–{}", first, last),
            ]
        } else {
            [
                format!("{} latest shown · {emptied} empty", shown.len()),
                format!("{} latest · {emptied} empty", shown.len()),
                format!("{} latest", shown.len()),
            ]
        };
        lines.push(Line::styled(
            format!(" {}", first_fit(&options, width)),
            DIM,
        ));
    }
    let short = v.title.split(" (").next().unwrap_or_default();
    let titles = [
        format!(" {}: {} boxes ", v.title, group(total as u64)),
        format!(" {short}: {} boxes ", group(total as u64)),
        format!(" {} boxes ", group(total as u64)),
        format!(" {short} "),
    ];
    let title = first_fit(&titles, area.width.saturating_sub(2) as usize);
    f.render_widget(Paragraph::new(lines).block(panel(title)), area);
}

/// A key and the first of `values` that leaves a space before the border of a panel `width` wide.
fn kv_fit(k: &str, values: &[String], width: u16) -> Line<'static> {
    kv(
        k,
        first_fit(values, (width as usize).saturating_sub(2 + 12 + 1)),
    )
}

/// "3 of 304 boxes", or shorter where that does not fit.
fn emptied_values(emptied: usize, boxes: usize) -> [String; 3] {
    let (e, b) = (group(emptied as u64), group(boxes as u64));
    [
        format!("{e} of {b} boxes"),
        format!("{e} of {b}"),
        format!("{e}/{b}"),
    ]
}

fn kv(k: &str, v: String) -> Line<'static> {
    Line::from(vec![
        Span::styled(format!(" {k:<10} "), DIM),
        Span::styled(v, BOLD),
    ])
}

/// The scoreboard.
pub fn score_panel<G: BoardView>(f: &mut Frame, area: Rect, app: &WatchApp<G>) {
    let s = &app.snapshot;
    let st = &s.stats;
    let width = area.width;
    // Each value as written in full, then shorter where the panel is narrow (158,098,674 as 158.1M).
    let streak = match st.streak {
        Some((r, n)) => {
            let word = match r {
                GameResult::Win => "won",
                GameResult::Draw => "drawn",
                GameResult::Loss => "lost",
            };
            vec![
                format!("{} {word}", group(n)),
                format!("{} {word}", short_count(n)),
            ]
        }
        None => vec!["–".into()],
    };
    let mut lines = vec![
        kv_fit(
            "games",
            &[group(s.games_played), short_count(s.games_played)],
            width,
        ),
        kv_fit(
            "W/D/L",
            &[
                format!(
                    "{}/{}/{}",
                    group(st.wins),
                    group(st.draws),
                    group(st.losses)
                ),
                format!(
                    "{}/{}/{}",
                    short_count(st.wins),
                    short_count(st.draws),
                    short_count(st.losses)
                ),
            ],
            width,
        ),
        kv_fit("streak", &streak, width),
        kv_fit(
            "last loss",
            &st.last_loss.map_or(vec!["none yet".into()], |g| {
                vec![
                    format!("game {}", group(g)),
                    format!("game {}", short_count(g)),
                ]
            }),
            width,
        ),
        kv_fit(
            "emptied",
            &emptied_values(s.boxes_emptied, s.boxes.len()),
            width,
        ),
        kv_fit(
            "beads",
            &[
                format!("{} left", group(s.beads_left)),
                format!("{} left", short_count(s.beads_left)),
            ],
            width,
        ),
        kv("speed", format!("{} games/s", rate(app.games_per_sec))),
        kv("screen", format!("{:.0} frames/s", app.fps)),
    ];
    if s.can_only_lose {
        // Perfect play wins this board for the other side: no machine can do better than lose.
        lines.insert(
            3,
            Line::from(vec![
                Span::styled(format!(" {:<10} ", "outlook"), DIM),
                Span::styled(
                    first_fit(
                        &[
                            "can only lose: perfect play wins for the other side".into(),
                            "can only lose (perfect play)".into(),
                            "can only lose".into(),
                        ],
                        (area.width as usize).saturating_sub(2 + 12 + 1),
                    ),
                    BOLD.fg(Color::Red),
                ),
            ]),
        );
    }
    if let Some(r) = &s.rival_machine {
        // The rival machine's own count, beside the learner's.
        let name = app.titles.rival.as_deref().unwrap_or("rival");
        let short = name.split(" (").next().unwrap_or(name);
        lines.insert(
            5,
            kv_fit(
                &format!("{short} empt."),
                &emptied_values(r.boxes_emptied, r.boxes.len()),
                area.width,
            ),
        );
    }
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
        Paragraph::new({
            let pct = format!("{:.0}%", curve.rolling_loss_rate() * 100.0);
            let room = (label_area.width as usize).saturating_sub(pct.chars().count() + 1);
            let words = first_fit(
                &[
                    format!(" lost, last {} games: ", Curve::WINDOW),
                    format!(" lost of last {}: ", Curve::WINDOW),
                    " lost: ".to_string(),
                ],
                room,
            );
            Line::from(vec![
                Span::styled(words, DIM),
                Span::styled(pct, BOLD.fg(Color::Red)),
            ])
        }),
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

fn screen<G: BoardView>(f: &mut Frame, game: &G, kind: ScreenKind) -> Option<Screen> {
    let need = min_size(game, kind);
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
    // The board and box column widens with the terminal (a box's chances need the room).
    let left = (bw + 20)
        .max(28)
        .max(area.width * 3 / 10)
        .min(area.width - MIDDLE - RIGHT);
    let [a, middle, right] = Layout::horizontal([
        Constraint::Length(left),
        Constraint::Length(MIDDLE),
        Constraint::Min(RIGHT),
    ])
    .areas(body);
    // The board's panel in full (its moves too) where the panel under it still has room for
    // all it shows; else only the board and the game's state.
    let (_, under_full) = under_board_rows(kind, bh);
    let board_rows = if a.height >= bh + 5 + under_full {
        bh + 5
    } else {
        bh + 3
    };
    let [board, under_board] =
        Layout::vertical([Constraint::Length(board_rows), Constraint::Min(0)]).areas(a);
    Some(Screen {
        title,
        board,
        under_board,
        middle,
        right,
        keys,
    })
}

/// The watch screen, in the app's theme.
pub fn watch<G: BoardView>(f: &mut Frame, app: &WatchApp<G>) {
    draw_watch(f, app);
    app.theme.apply(f.buffer_mut());
}

fn draw_watch<G: BoardView>(f: &mut Frame, app: &WatchApp<G>) {
    let Some(Screen {
        title,
        board: board_area,
        under_board: box_area,
        middle: b,
        right: c,
        keys,
    }) = screen(f, &app.game, ScreenKind::Watch)
    else {
        return;
    };
    let area = f.area();
    let s = &app.snapshot;
    let mut opponent = match (s.rival, &app.titles.rival) {
        (Opponent::Human, _) => "you".into(),
        (Opponent::Matchbox, Some(name)) => format!("{name}, another machine"),
        (Opponent::Mcts(_), _) => "the tree search".into(),
        (k, _) => format!("the {k} player"),
    };
    let searching = match s.rival {
        Opponent::Mcts(n) => format!(" · MCTS, {} simulations a move", group(n as u64)),
        _ => String::new(),
    };
    if app.opponent != s.rival && s.rival != Opponent::Human {
        // `o` applies from the next game: say so until it does.
        opponent = format!("{opponent} (next game: {})", app.opponent);
    }
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
            searching,
            format!(" · {}", app.titles.symmetry),
            format!(" · {} reinforcement", s.reinforcement),
            format!(" · seed {}", s.seed),
        ],
        // A space at least between the title and the state in brackets.
        (area.width as usize).saturating_sub(state.chars().count() + 4),
    );
    let right = format!("[{state}] ");
    let pad = (area.width as usize).saturating_sub(left.chars().count() + right.chars().count());
    f.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(left, BOLD),
            Span::raw(" ".repeat(pad)),
            Span::styled(right, BOLD.fg(Color::Yellow)),
        ]))
        .style(Style::new().bg(TITLE_BG)),
        title,
    );
    board_panel(f, board_area, &app.game, s, &app.titles.machine, &[]);
    box_panel(
        f,
        box_area,
        &app.game,
        s,
        app.anim,
        app.speed.animated(),
        app.browser.shown,
    );
    match &s.rival_machine {
        Some(r) => {
            // Learner against learner: both machines, one above the other.
            let [top, bottom] =
                Layout::vertical([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(b);
            machine_panel(f, top, &app.game, &learner_view(s), app.browser.shown);
            let view = MachineView {
                boxes: &r.boxes,
                shown: &r.shown,
                beads: &r.beads,
                highlight: r
                    .shown
                    .first()
                    .copied()
                    .filter(|_| r.boxes.len() > r.shown.len()),
                emptied: r.boxes_emptied,
                colours: s.colours,
                title: app.titles.rival.clone().unwrap_or_else(|| "Rival".into()),
            };
            machine_panel(f, bottom, &app.game, &view, None);
        }
        None => machine_panel(f, b, &app.game, &learner_view(s), app.browser.shown),
    }
    let [score_area, curve_area] =
        Layout::vertical([Constraint::Length(11), Constraint::Min(0)]).areas(c);
    score_panel(f, score_area, app);
    curve_panel(f, curve_area, &s.curve, s.games_played);
    let bar = match (&app.message, app.browser.key_line()) {
        (Some(m), _) => Line::styled(format!(" {m}"), BOLD.fg(Color::Yellow)),
        (None, Some(k)) => Line::styled(k, BOLD.fg(Color::Cyan)),
        (None, None) => Line::styled(
            first_fit(
                &[
                    " space pause  n step  +/- speed  o opponent  [ ] boxes  r reset  s save  ? help  q quit".into(),
                    " space pause  n step  +/- speed  o opponent  r reset  s save  ? help  q quit".into(),
                ],
                area.width as usize,
            ),
            DIM,
        ),
    };
    f.render_widget(Paragraph::new(bar), keys);
    if app.show_help {
        help(f, Mode::Watch, app.game.legend());
    }
}

/// As many of the parts as fit in `width`, in order.
fn fit(parts: &[String], width: usize) -> String {
    let mut out = String::new();
    for p in parts {
        if out.chars().count() + p.chars().count() > width {
            if out.is_empty() {
                // Not even the first part fits: as much of it as does, cut with an ellipsis.
                out = p.chars().take(width.saturating_sub(1)).collect();
                out.push('…');
            }
            break;
        }
        out.push_str(p);
    }
    out
}

/// The play screen, in the app's theme.
pub fn play<G: BoardView>(f: &mut Frame, app: &super::play::PlayApp<G>) {
    draw_play(f, app);
    app.theme.apply(f.buffer_mut());
}

fn draw_play<G: BoardView>(f: &mut Frame, app: &super::play::PlayApp<G>) {
    let game = app.session.game();
    let Some(Screen {
        title,
        board: board_area,
        under_board: score_area,
        middle: b,
        right: c,
        keys,
    }) = screen(f, game, ScreenKind::Play)
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
        Paragraph::new(Line::styled(left, BOLD)).style(Style::new().bg(TITLE_BG)),
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
    if options.is_empty() && !app.session.in_game() {
        lines.push(Line::styled(" game over", DIM));
        lines.push(Line::styled(" Enter: next game", DIM));
    } else if options.is_empty() {
        lines.push(Line::styled(" (not your turn)", DIM));
    }
    // Under the list: the line being typed and the last message, always in view.
    let mut below = vec![
        Line::raw(""),
        Line::from(vec![
            Span::styled(" type: ", DIM),
            Span::styled(format!("{}▏", app.input), BOLD),
        ]),
    ];
    if let Some(m) = &app.message {
        below.push(Line::raw(""));
        for chunk in wrap(m, b.width.saturating_sub(3) as usize) {
            below.push(Line::styled(format!(" {chunk}"), BOLD.fg(Color::Yellow)));
        }
    }
    // The moves offered, as many as fit around the cursor (a big board has more than rows).
    let room = (b.height.saturating_sub(2) as usize).saturating_sub(lines.len() + below.len());
    let (start, end) = list_window(options.len(), app.cursor, room);
    if start > 0 {
        lines.push(Line::styled(format!("   ↑ {} more", start), DIM));
    }
    for (i, &m) in options.iter().enumerate().take(end).skip(start) {
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
    if end < options.len() {
        lines.push(Line::styled(
            format!("   ↓ {} more", options.len() - end),
            DIM,
        ));
    }
    lines.extend(below);
    f.render_widget(Paragraph::new(lines).block(panel(" Your move ".into())), b);
    let machine_plays = !app.session.has_stand_in();
    if machine_plays {
        box_panel(f, c, game, s, 1.0, false, app.browser.shown);
    } else {
        // A player stands in for the machine: no boxes to show.
        let text = format!(
            "{}: a player that needs no matchboxes, so there are no boxes or beads to show.",
            app.titles.machine
        );
        let lines: Vec<Line> = std::iter::once(Line::raw(""))
            .chain(
                wrap(&text, c.width.saturating_sub(4) as usize)
                    .into_iter()
                    .map(|chunk| Line::styled(format!(" {chunk}"), DIM)),
            )
            .collect();
        f.render_widget(Paragraph::new(lines).block(panel(" Opponent ".into())), c);
    }
    let st = &s.stats;
    let mut score = vec![
        kv("games", group(st.games)),
        kv("you won", group(st.losses)),
        kv("it won", group(st.wins)),
        kv("drawn", group(st.draws)),
    ];
    if machine_plays {
        score.push(kv("its beads", group(s.beads_left)));
        score.push(kv_fit(
            "emptied",
            &emptied_values(s.boxes_emptied, s.boxes.len()),
            score_area.width,
        ));
    }
    // The panel's title, shorter where the name does not fit: "You v the machine (silver)",
    // "You v the machine", "Score".
    let name = &app.titles.machine;
    let short = name.split(" (").next().unwrap_or(name);
    let title = first_fit(
        &[
            format!(" You v {name} "),
            format!(" You v {short} "),
            " Score ".to_string(),
        ],
        score_area.width.saturating_sub(2) as usize,
    );
    f.render_widget(Paragraph::new(score).block(panel(title)), score_area);
    // The example is a move of this game (the first one offered, or the game's first move).
    let game = app.session.game();
    let example = app
        .options()
        .first()
        .copied()
        .or_else(|| game.moves(&game.start()).first().copied())
        .map(|m| game.format_move(m))
        .unwrap_or_default();
    // The box browser is offered where the machine plays (a stand-in has no boxes to browse).
    let boxes = if machine_plays { " · [ ] boxes" } else { "" };
    let bar = match app.browser.key_line() {
        Some(k) => Line::styled(k, BOLD.fg(Color::Cyan)),
        None => Line::styled(
            first_fit(
                &[
                    format!(
                        " ↑↓ choose · Enter play · or type a move like {example}{boxes} · ? help · q quit"
                    ),
                    format!(
                        " ↑↓ choose · Enter play · or type a move like {example} · ? help · q quit"
                    ),
                    format!(" ↑↓ choose · Enter play · type {example} · ? help · q quit"),
                ],
                area.width as usize,
            ),
            DIM,
        ),
    };
    f.render_widget(Paragraph::new(bar), keys);
    if app.show_help {
        help(f, Mode::Play, app.session.game().legend());
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

/// Which of `len` list entries to show in `rows` rows so that entry `cursor` is in view: the
/// range `start..end`, with a row kept for "↑ more" when `start > 0` and one for "↓ more" when
/// `end < len`.
fn list_window(len: usize, cursor: usize, rows: usize) -> (usize, usize) {
    if len <= rows {
        return (0, len);
    }
    let cursor = cursor.min(len.saturating_sub(1));
    // Room for the entries when both marks are shown; at least the cursor's entry.
    let shown = rows.saturating_sub(2).max(1);
    let mut start = cursor.saturating_sub(shown / 2);
    if start == 1 {
        // "↑ 1 more" takes the row the first entry would: show it instead.
        start = 0;
    }
    if start == 0 {
        // No "↑" mark: one row more for entries.
        let end = (rows.saturating_sub(1)).max(cursor + 1).min(len);
        return (0, end);
    }
    let end = (start + shown).min(len);
    if end == len {
        // No "↓" mark: the window ends at the last entry, one row more above.
        let start = len
            .saturating_sub(rows.saturating_sub(1).max(1))
            .min(cursor);
        return (start, len);
    }
    (start, end)
}

#[cfg(test)]
mod tests {
    use super::{fit, list_window, rate, short_count};

    #[test]
    fn counts_and_rates_are_written_short_in_the_unit_they_round_to() {
        let counts = [
            (9_999, "9,999"),
            (10_000, "10.0k"),
            (999_949, "999.9k"),
            (999_999, "1.0M"),
            (158_098_684, "158.1M"),
            (4_200_000_000, "4.2G"),
        ];
        for (n, text) in counts {
            assert_eq!(short_count(n), text, "{n}");
        }
        let rates = [
            (3.25, "3.2"),
            (12.4, "12"),
            (999.6, "1.0k"),
            (31_912_345.0, "31.9M"),
        ];
        for (r, text) in rates {
            assert_eq!(rate(r), text, "{r}");
        }
    }

    #[test]
    fn a_long_list_keeps_its_cursor_in_view_with_marks_that_fit() {
        for len in 0..40 {
            for rows in 3..25 {
                for cursor in 0..len.max(1) {
                    let (start, end) = list_window(len, cursor, rows);
                    let used = (end - start) + usize::from(start > 0) + usize::from(end < len);
                    assert!(used <= rows, "{len} {rows} {cursor}: {start}..{end}");
                    if len > 0 {
                        assert!((start..end).contains(&cursor), "{len} {rows} {cursor}");
                    }
                    if len <= rows {
                        assert_eq!((start, end), (0, len));
                    }
                    // No row wasted: the window fills the rows it has.
                    assert!(
                        used >= rows.min(len),
                        "{len} {rows} {cursor}: {start}..{end}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_title_keeps_the_parts_that_fit_and_cuts_only_a_first_part_too_long() {
        let parts = ["abc".to_string(), " · de".to_string(), " · fgh".to_string()];
        assert_eq!(fit(&parts, 100), "abc · de · fgh");
        assert_eq!(fit(&parts, 9), "abc · de");
        assert_eq!(fit(&parts, 3), "abc");
        assert_eq!(fit(&parts, 2), "a…");
    }
}
