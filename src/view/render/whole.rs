//! The whole-machine view: every box as a tile, grouped by move, a page at a time; the box opened
//! last and the bead drawn from it marked, empty boxes crossed.

use super::*;
use crate::view::app::Browser;
use crate::view::whole::{self, Group, Page, Row};

/// What the view draws from: the machine's snapshot, the browser's page, the machine's name.
pub(super) struct WholeView<'a, G: BoardView> {
    pub game: &'a G,
    pub snap: &'a Snapshot<G>,
    pub browser: &'a Browser,
    pub machine: &'a str,
    pub front: crate::view::key::Front,
    pub mode: crate::view::key::Mode,
}

impl<G: BoardView> WholeView<'_, G> {
    /// The lines of box `b`'s tile, each `w` columns wide, and the number under it.
    fn tile(&self, b: usize, (w, h): (u16, u16)) -> Vec<Line<'static>> {
        let (w, h) = (w as usize, h as usize);
        let (Some(mbox), Some(beads)) = (self.snap.boxes.try_get(b), self.snap.beads.get(&b))
        else {
            return vec![Line::raw(" ".repeat(w)); h + 1];
        };
        let arrows: Vec<(G::Move, Color, u32)> = (mbox.arrows.iter().enumerate())
            .map(|(k, &m)| {
                let colour = self.snap.arrow_colour(self.game, b, k);
                (m, colour, beads.get(k).copied().unwrap_or(0))
            })
            .collect();
        let live = self.snap.opened.filter(|o| o.box_index == b);
        let drawn = live.and_then(|o| o.arrow);
        let mut lines = self.game.tile_lines(&mbox.position, &arrows, drawn);
        lines.resize(h, Line::raw(""));
        let empty = beads.iter().all(|&n| n == 0);
        let (number, style) = match () {
            _ if live.is_some() => (
                format!("▶{}", b + 1),
                BOLD.fg(Color::Black).bg(Color::Yellow),
            ),
            _ if self.browser.shown == Some(b) => (format!("{}", b + 1), BOLD.fg(Color::Cyan)),
            _ if empty => (format!("✗{}", b + 1), BOLD.fg(Color::Red)),
            _ => (format!("{}", b + 1), DIM),
        };
        lines.push(Line::styled(format!("{number:^w$}"), style));
        lines.into_iter().map(|l| padded(l, w)).collect()
    }

    /// A group's heading: its move, how many boxes and which.
    fn heading(&self, group: &Group, continued: bool) -> Line<'static> {
        let (first, last) = (group.boxes.start + 1, group.boxes.end);
        let n = group.boxes.len();
        let which = match n {
            1 => format!("box {first}"),
            _ => format!(
                "{} boxes, {}–{}",
                group_count(n),
                group_count(first),
                group_count(last)
            ),
        };
        let text = match group.move_number {
            Some(m) => format!("move {m} · {which}"),
            None => format!("{which}, in the order first visited"),
        };
        let more = if continued { " (continued)" } else { "" };
        Line::styled(format!("{text}{more}"), BOLD.fg(Color::Cyan))
    }

    fn lines(&self, page: &Page, width: usize) -> Vec<Line<'static>> {
        let size = self.game.tile_size();
        let mut out = Vec::new();
        for row in &page.rows {
            match row {
                Row::Heading { group, continued } => {
                    out.push(self.heading(&self.snap.groups[*group], *continued))
                }
                Row::Tiles(boxes) => {
                    let tiles: Vec<Vec<Line>> = boxes.clone().map(|b| self.tile(b, size)).collect();
                    for r in 0..page.tile_rows as usize {
                        let mut spans = Vec::new();
                        // A dim rule between tiles, none under their numbers.
                        let gap = match r + 1 < page.tile_rows as usize {
                            true => Span::styled("│", DIM),
                            false => Span::raw(" "),
                        };
                        for t in &tiles {
                            spans.extend(t[r].spans.iter().cloned());
                            spans.push(gap.clone());
                        }
                        out.push(padded(Line::from(spans), width));
                    }
                }
            }
        }
        out
    }

    /// The line over the page: the machine, which boxes, what is marked.
    fn title(&self, page: &Page, width: usize) -> Line<'static> {
        let total = self.snap.boxes.len();
        let first = self.browser.whole_first().unwrap_or(0);
        let which = match (first, page.end) {
            (0, end) if end >= total => format!("all {} boxes", group_count(total)),
            (f, e) => format!(
                "boxes {}–{} of {}",
                group_count(f + 1),
                group_count(e),
                group_count(total)
            ),
        };
        let marked = match self.snap.opened {
            Some(o) => format!(" · ▶{} opened last, its bead drawn in red", o.box_index + 1),
            None => String::new(),
        };
        let empty = format!(" · ✗ {} empty", group_count(self.snap.boxes_emptied));
        let text = fit(
            &[
                format!(" Every box of {}: {which}", self.machine),
                marked,
                empty,
            ],
            width,
        );
        Line::styled(text, BOLD)
    }
}

fn group_count(n: usize) -> String {
    group(n as u64)
}

/// `line` cut or padded with spaces to `w` columns.
fn padded(line: Line<'static>, w: usize) -> Line<'static> {
    let mut spans = Vec::new();
    let mut used = 0;
    for s in line.spans {
        let n = s.content.chars().count();
        if used + n > w {
            let cut: String = s.content.chars().take(w - used).collect();
            used = w;
            spans.push(Span::styled(cut, s.style));
            break;
        }
        used += n;
        spans.push(s);
    }
    spans.push(Span::raw(" ".repeat(w - used)));
    Line::from(spans)
}

/// The page the view shows on a screen of `area`, drawn in `body` (all but the title and the key
/// line).
pub(super) fn whole_machine<G: BoardView>(f: &mut Frame, body: Rect, v: &WholeView<'_, G>) {
    let screen = (f.area().width, f.area().height);
    let Some(page) = whole::page_of(v.game, &v.snap.groups, v.browser.whole.as_ref(), screen)
    else {
        return;
    };
    let [head, rest] = Layout::vertical([Constraint::Length(1), Constraint::Min(0)]).areas(body);
    f.render_widget(Paragraph::new(v.title(&page, head.width as usize)), head);
    let inner = Rect::new(
        rest.x + 1,
        rest.y,
        rest.width.saturating_sub(2),
        rest.height,
    );
    f.render_widget(Paragraph::new(v.lines(&page, inner.width as usize)), inner);
}

/// The whole screen while the view is open: `title` over it, the key line (or `message`) under.
pub(super) fn whole_screen<G: BoardView>(
    f: &mut Frame,
    title: Paragraph<'static>,
    v: &WholeView<'_, G>,
    message: Option<&str>,
) {
    let [top, body, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(f.area());
    f.render_widget(title, top);
    whole_machine(f, body, v);
    let bar = match (message, v.browser.key_lines(v.mode, v.front)) {
        (Some(m), _) => Line::styled(format!(" {m}"), BOLD.fg(Color::Yellow)),
        (None, k) => Line::styled(
            first_fit(&k.unwrap_or_default(), keys.width as usize),
            BOLD.fg(Color::Cyan),
        ),
    };
    f.render_widget(Paragraph::new(bar), keys);
}

/// The box whose tile is at column `col`, row `row` of a screen of `area` showing the view.
pub(super) fn whole_click<G: BoardView>(
    game: &G,
    snap: &Snapshot<G>,
    browser: &Browser,
    area: Rect,
    col: u16,
    row: u16,
) -> Option<usize> {
    let page = whole::page_of(
        game,
        &snap.groups,
        browser.whole.as_ref(),
        (area.width, area.height),
    )?;
    // The title and the page's heading above the page, a column free at the left.
    let (x, y) = (col.checked_sub(area.x + 1)?, row.checked_sub(area.y + 2)?);
    page.box_at(x, y)
}
