//! The machine panel: every box as a bar of beads, a page at a time.

use super::*;

/// A bar for a bead count.
pub(super) fn bar(n: u32) -> char {
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
pub(super) fn learner_view<G: BoardView>(snap: &Snapshot<G>) -> MachineView<'_, G> {
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

/// One box of the machine panel: its number, then a bar per arrow (the first ones, then "…",
/// in a column narrower than the box), or ✗ for an empty box.
fn box_entry<G: BoardView>(
    game: &G,
    v: &MachineView<'_, G>,
    b: usize,
    (num_w, arrows): (usize, usize),
    opened: Option<usize>,
) -> Vec<Span<'static>> {
    let none = Vec::new();
    // A box the snapshot does not hold yet (the screen a step ahead of it) is drawn empty.
    let beads = v.beads.get(&b).unwrap_or(&none);
    let empty = beads.iter().all(|&n| n == 0);
    // Explicit colours, not reverse video: the page's renderer drew reverse video on paper as
    // white on white. The same black on yellow as the whole machine's live box.
    let num_style = if Some(b) == opened {
        BOLD.fg(Color::Black).bg(Color::Yellow)
    } else if empty {
        Style::new().fg(Color::Red)
    } else {
        DIM
    };
    let mut spans = vec![
        Span::styled(format!("{:>num_w$}", b + 1), num_style),
        Span::raw(" "),
    ];
    if empty {
        spans.push(Span::styled(
            format!("{:<arrows$}", "✗"),
            BOLD.fg(Color::Red),
        ));
    } else {
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
    spans
}

/// The line under a page of boxes: which boxes it shows, and how many are empty.
fn page_line(shown: &[usize], emptied: usize, browsing: bool, width: usize) -> Line<'static> {
    let emptied = group(emptied as u64);
    let (first, last) = (
        shown.iter().min().map_or(0, |&b| b + 1),
        shown.iter().max().map_or(0, |&b| b + 1),
    );
    let (gf, gl) = (group(first as u64), group(last as u64));
    let options = match browsing {
        true => [
            format!("boxes {gf}–{gl} · {emptied} empty"),
            format!("boxes {gf}–{gl}"),
            format!("{first}–{last}"),
        ],
        false => [
            format!("{} latest shown · {emptied} empty", shown.len()),
            format!("{} latest · {emptied} empty", shown.len()),
            format!("{} latest", shown.len()),
        ],
    };
    Line::styled(format!(" {}", first_fit(&options, width)), DIM)
}

/// How the machine panel lays out its boxes: column-major, `cols` entries of `entry` characters
/// a row, `rows` rows, the boxes of this page in `shown`.
pub(super) struct Grid {
    num_w: usize,
    arrows: usize,
    entry: usize,
    cols: usize,
    rows: usize,
    all: bool,
    shown: Vec<usize>,
}

impl Grid {
    pub(super) fn of<G: BoardView>(
        v: &MachineView<'_, G>,
        area: Rect,
        browse: Option<usize>,
    ) -> Grid {
        let total = v.boxes.len();
        let inner_w = area.width.saturating_sub(2) as usize;
        let inner_h = area.height.saturating_sub(2) as usize;
        let arrows = (v.shown.iter())
            .filter_map(|&b| v.boxes.try_get(b).map(|m| m.arrows.len()))
            .max()
            .unwrap_or(1)
            .min(10);
        let num_w = total.to_string().len();
        let entry = num_w + 2 + arrows + 1;
        let cols = (inner_w / entry).max(1);
        let all = v.shown.len() == total;
        let rows_avail = if all {
            inner_h
        } else {
            inner_h.saturating_sub(1)
        };
        let fits = (cols * rows_avail).max(1);
        // The browsed box is always among those drawn: the page of boxes around it.
        let skip = match browse.and_then(|b| v.shown.iter().position(|&x| x == b)) {
            Some(i) => (i / fits) * fits,
            None => 0,
        };
        let shown: Vec<usize> = v.shown.iter().copied().skip(skip).take(fits).collect();
        let rows = shown.len().div_ceil(cols);
        Grid {
            num_w,
            arrows,
            entry,
            cols,
            rows,
            all,
            shown,
        }
    }

    /// The box drawn at column `x`, row `y` of the panel drawn in `area`, if any.
    pub(super) fn box_at(&self, area: Rect, x: u16, y: u16) -> Option<usize> {
        let (ix, iy) = (
            x.checked_sub(area.x + 2)? as usize,
            y.checked_sub(area.y + 1)? as usize,
        );
        if x + 1 >= area.x + area.width || iy >= self.rows {
            return None;
        }
        let col = ix / self.entry;
        (col < self.cols).then(|| self.shown.get(col * self.rows + iy).copied())?
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
    let browse = browse.filter(|b| v.shown.contains(b));
    let g = Grid::of(v, area, browse);
    let (num_w, arrows, cols, rows, all) = (g.num_w, g.arrows, g.cols, g.rows, g.all);
    let shown = &g.shown;
    let opened = browse.or(v.highlight);
    let mut lines: Vec<Line> = (0..rows)
        .map(|r| {
            let mut spans = vec![Span::raw(" ")];
            // Column-major, so boxes read down the columns in order.
            for b in (0..cols).filter_map(|c| shown.get(c * rows + r)) {
                spans.extend(box_entry(game, v, *b, (num_w, arrows), opened));
            }
            Line::from(spans)
        })
        .collect();
    if !(all && shown.len() == total) {
        let width = inner_w.saturating_sub(1);
        lines.push(page_line(shown, v.emptied, browse.is_some(), width));
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
