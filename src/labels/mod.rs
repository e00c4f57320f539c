//! Printable matchbox labels: SVG sheets with one label per box (the position, one arrow per move in
//! its bead colour with a letter code, the beads to put in, the box number and move), cut marks,
//! and the bead shopping list. Pure: it returns SVG text.

use std::fmt::Write;

use crate::game::Game;
use crate::learn::{BoxSet, StageBeads};
use crate::palette::{self, BeadColours};

/// The most boxes labelled at once, on the command line, the page and the class's projector alike:
/// 5,000 labels fill about 280 pages (every page is held, then the whole PDF; a bigger machine is
/// a pile no class builds).
pub const MAX_LABELS: usize = 5_000;

/// Why a machine of `boxes` boxes is not labelled, if it is not.
pub fn too_many(boxes: usize) -> Option<String> {
    (boxes > MAX_LABELS).then(|| {
        format!(
            "{} boxes are too many to label (up to {})",
            crate::text::group(boxes as u64),
            crate::text::group(MAX_LABELS as u64)
        )
    })
}

pub mod pdf;
pub mod pole;

/// The bead of arrow `i` for print: colour name, `#RRGGBB` and letter code (from
/// [`crate::palette`], the same as on the screen).
pub fn bead(i: usize) -> (&'static str, String, String) {
    let c = palette::arrow(i);
    (c.name, c.hex(), palette::letter(i))
}

/// Paper sizes, in millimetres.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paper {
    A4,
    Letter,
}

impl std::str::FromStr for Paper {
    type Err = String;
    fn from_str(s: &str) -> Result<Paper, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "a4" => Ok(Paper::A4),
            "letter" => Ok(Paper::Letter),
            _ => Err(format!("`{s}` is not a paper size (use a4 or letter)")),
        }
    }
}

impl std::fmt::Display for Paper {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Paper::A4 => "a4",
            Paper::Letter => "letter",
        })
    }
}

impl Paper {
    pub fn size_mm(self) -> (f64, f64) {
        match self {
            Paper::A4 => (210.0, 297.0),
            Paper::Letter => (215.9, 279.4),
        }
    }
}

/// How to lay the labels out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    pub paper: Paper,
    /// Label width and height in millimetres (an ordinary matchbox top is about 50 × 35).
    pub label: (f64, f64),
}

impl Default for Layout {
    fn default() -> Self {
        Layout {
            paper: Paper::A4,
            label: (50.0, 35.0),
        }
    }
}

const MARGIN: f64 = 12.0;
const GAP: f64 = 6.0;
const HEADER: f64 = 42.0;

/// A game's board drawn on a label.
pub trait LabelView: Game {
    /// Rows and columns of the board.
    fn grid(&self) -> (usize, usize);
    /// SVG for the piece on (row from the top, column), centred at (x, y) in a cell of side `s`.
    fn piece(&self, pos: &Self::Position, row: usize, col: usize, x: f64, y: f64, s: f64)
    -> String;
    /// The cells of a move: (row, column) from, and to (equal when the move is a single cell).
    fn move_cells(&self, mv: Self::Move) -> ((usize, usize), (usize, usize));

    /// SVG of the board of a box with its arrows (arrow `i` in colour number `colours[i]`), drawn
    /// in the box `(x, y, max_w, max_h)` (mm);
    /// returns the SVG and the width used. By default a grid of square cells from [`grid`],
    /// [`piece`] and [`move_cells`]; a game whose board is not a square grid draws its own.
    ///
    /// [`grid`]: LabelView::grid
    /// [`piece`]: LabelView::piece
    /// [`move_cells`]: LabelView::move_cells
    fn draw_board(
        &self,
        pos: &Self::Position,
        arrows: &[Self::Move],
        colours: &[usize],
        (x, y, max_w, max_h): (f64, f64, f64, f64),
    ) -> (String, f64) {
        let mut s = String::new();
        let (rows, cols) = self.grid();
        // Room for the coordinates: rank numbers on the left, file letters underneath.
        const COORD: f64 = 2.4;
        let side = ((max_h - COORD) / rows as f64).min((max_w - COORD) / cols as f64);
        let (bx, by) = (x + COORD, y);
        let coord = |cx: f64, cy: f64, text: String| {
            format!(
                r##"<text x="{cx:.2}" y="{cy:.2}" font-family="DejaVu Sans, sans-serif" font-size="{:.2}" fill="#555555" text-anchor="middle">{text}</text>"##,
                (side * 0.3).min(2.0)
            )
        };
        for r in 0..rows {
            let cy = by + (r as f64 + 0.5) * side + (side * 0.1).min(0.7);
            s.push_str(&coord(x + COORD * 0.45, cy, (rows - r).to_string()));
        }
        for c in 0..cols {
            let letter = char::from(b'a' + (c as u8 % 26));
            let cx = bx + (c as f64 + 0.5) * side;
            s.push_str(&coord(
                cx,
                by + rows as f64 * side + COORD * 0.8,
                letter.to_string(),
            ));
        }
        for r in 0..rows {
            for c in 0..cols {
                let shade = if (r + c) % 2 == 0 {
                    "#f2f2f2"
                } else {
                    "#ffffff"
                };
                let _ = write!(
                    s,
                    r##"<rect x="{:.2}" y="{:.2}" width="{side:.2}" height="{side:.2}" fill="{shade}" stroke="#555555" stroke-width="0.2"/>"##,
                    bx + c as f64 * side,
                    by + r as f64 * side
                );
                let (px, py) = (bx + (c as f64 + 0.5) * side, by + (r as f64 + 0.5) * side);
                s.push_str(&self.piece(pos, r, c, px, py, side));
            }
        }
        // One arrow per box arrow, in its bead colour, with its letter.
        let centre =
            |(r, c): (usize, usize)| (bx + (c as f64 + 0.5) * side, by + (r as f64 + 0.5) * side);
        for (i, &mv) in arrows.iter().enumerate() {
            let (from, to) = self.move_cells(mv);
            s.push_str(&arrow_svg(
                &self.format_move(mv),
                colours.get(i).copied().unwrap_or(i),
                centre(from),
                centre(to),
                side,
            ));
        }
        (s, COORD + cols as f64 * side)
    }
}

/// One arrow of a box on a label: from one cell centre to another in bead colour number `i`, with
/// an arrowhead, or a coloured disc when the move is a single cell; its letter on top. `side` is
/// the size of a cell.
pub fn arrow_svg(
    name: &str,
    i: usize,
    (x1, y1): (f64, f64),
    (x2, y2): (f64, f64),
    side: f64,
) -> String {
    let (_, hex, code) = bead(i);
    let mut s = String::new();
    let _ = write!(s, r#"<g class="arrow" data-move="{}">"#, esc(name));
    let single = (x1 - x2).abs() < 1e-9 && (y1 - y2).abs() < 1e-9;
    if single {
        let _ = write!(
            s,
            r#"<circle cx="{x2:.2}" cy="{y2:.2}" r="{:.2}" fill="{hex}" stroke="black" stroke-width="0.2"/>"#,
            side * 0.28
        );
    } else {
        // Stop short of the target centre and draw an arrowhead there.
        let (dx, dy) = (x2 - x1, y2 - y1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-6);
        let (ux, uy) = (dx / len, dy / len);
        let (ex, ey) = (x2 - ux * side * 0.15, y2 - uy * side * 0.15);
        let head = side * 0.22;
        let (lx, ly) = (
            ex - ux * head - uy * head * 0.6,
            ey - uy * head + ux * head * 0.6,
        );
        let (rx, ry) = (
            ex - ux * head + uy * head * 0.6,
            ey - uy * head - ux * head * 0.6,
        );
        let _ = write!(
            s,
            r#"<path d="M{x1:.2} {y1:.2}L{ex:.2} {ey:.2}" stroke="{hex}" stroke-width="{:.2}" stroke-linecap="round"/><path d="M{ex:.2} {ey:.2}L{lx:.2} {ly:.2}L{rx:.2} {ry:.2}Z" fill="{hex}" stroke="black" stroke-width="0.15"/>"#,
            side * 0.1
        );
    }
    let _ = write!(
        s,
        r#"<text x="{:.2}" y="{:.2}" font-family="DejaVu Sans, sans-serif" font-size="{:.2}" font-weight="bold" text-anchor="middle">{code}</text></g>"#,
        if single { x2 } else { (x1 + x2) / 2.0 },
        (if single { y2 } else { (y1 + y2) / 2.0 }) + side * 0.1,
        side * 0.3
    );
    s
}

/// The beads labels ask for, box by box, and how they are coloured.
pub struct LabelBeads<'a> {
    of_box: Box<dyn Fn(usize) -> Vec<u32> + 'a>,
    pub colours: BeadColours,
}

impl<'a> LabelBeads<'a> {
    /// A new machine's: `initial` beads on each arrow, by the machine's move.
    pub fn initial<G: Game>(
        set: &'a BoxSet<G>,
        initial: &'a StageBeads,
        colours: BeadColours,
    ) -> Self {
        LabelBeads {
            of_box: Box::new(move |b| {
                let mbox = set.get(b);
                let n = initial.for_stage(mbox.stage as usize).get();
                vec![n; mbox.arrows.len()]
            }),
            colours,
        }
    }
    /// Given counts: `of_box(b)` holds the beads of each arrow of box `b` (a trained machine's).
    pub fn counts(of_box: impl Fn(usize) -> Vec<u32> + 'a, colours: BeadColours) -> Self {
        LabelBeads {
            of_box: Box::new(of_box),
            colours,
        }
    }
    /// The beads of each arrow of box `b`.
    pub fn of(&self, b: usize) -> Vec<u32> {
        (self.of_box)(b)
    }
    /// The colour number of arrow `k` of a box, whose move is `mv`.
    pub fn colour<G: Game>(&self, game: &G, k: usize, mv: G::Move) -> usize {
        self.colours.index(k, game.move_cell(mv))
    }
}

/// Beads of each colour the whole machine needs: (colour number, count), for every colour used.
pub fn bead_counts<G: Game>(game: &G, set: &BoxSet<G>, beads: &LabelBeads) -> Vec<(usize, u64)> {
    let mut counts: Vec<Option<u64>> = Vec::new();
    for (b, mbox) in set.iter().enumerate() {
        for (k, (&mv, n)) in mbox.arrows.iter().zip(beads.of(b)).enumerate() {
            let c = beads.colour(game, k, mv);
            if counts.len() <= c {
                counts.resize(c + 1, None);
            }
            *counts[c].get_or_insert(0) += n as u64;
        }
    }
    counts
        .iter()
        .enumerate()
        .filter_map(|(i, n)| n.map(|n| (i, n)))
        .collect()
}

/// The bead shopping list: (colour name, letter, count), for every colour used.
pub fn bead_list<G: Game>(
    game: &G,
    set: &BoxSet<G>,
    beads: &LabelBeads,
) -> Vec<(&'static str, String, u64)> {
    bead_counts(game, set, beads)
        .into_iter()
        .map(|(i, n)| (bead(i).0, bead(i).2, n))
        .collect()
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Where a label goes on the page: top-left corner and size, in millimetres.
#[derive(Clone, Copy)]
struct Place {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

/// One label.
fn label<G: LabelView>(
    game: &G,
    set: &BoxSet<G>,
    b: usize,
    beads: &LabelBeads,
    at: Place,
) -> String {
    let Place { x, y, w, h } = at;
    let mbox = set.get(b);
    let counts = beads.of(b);
    let colours: Vec<usize> = mbox
        .arrows
        .iter()
        .enumerate()
        .map(|(k, &mv)| beads.colour(game, k, mv))
        .collect();
    let mut s = String::new();
    let _ = write!(s, r#"<g class="label" data-box="{}">"#, b + 1);
    // Cut marks at the four corners, outside the label.
    for (cx, cy, dx, dy) in [
        (x, y, -1.0, -1.0),
        (x + w, y, 1.0, -1.0),
        (x, y + h, -1.0, 1.0),
        (x + w, y + h, 1.0, 1.0),
    ] {
        let _ = write!(
            s,
            r#"<path class="cut" d="M{:.2} {:.2}H{:.2}M{:.2} {:.2}V{:.2}" stroke="black" stroke-width="0.2"/>"#,
            cx + dx * 1.0,
            cy,
            cx + dx * 4.0,
            cx,
            cy + dy * 1.0,
            cy + dy * 4.0
        );
    }
    let _ = write!(
        s,
        r##"<rect x="{x:.2}" y="{y:.2}" width="{w:.2}" height="{h:.2}" fill="none" stroke="#bbbbbb" stroke-width="0.2" stroke-dasharray="1 1"/>"##
    );
    let _ = write!(
        s,
        r#"<text x="{:.2}" y="{:.2}" font-family="DejaVu Sans, sans-serif" font-size="3.6" font-weight="bold">Box {}</text><text x="{:.2}" y="{:.2}" font-family="DejaVu Sans, sans-serif" font-size="2.8" text-anchor="end">move {}</text>"#,
        x + 2.0,
        y + 4.5,
        b + 1,
        x + w - 2.0,
        y + 4.5,
        mbox.move_number()
    );
    // The board.
    let (by, bx) = (y + 7.0, x + 2.5);
    let (board, board_w) = game.draw_board(
        &mbox.position,
        &mbox.arrows,
        &colours,
        (bx, by, w * 0.55, h - 9.0),
    );
    s.push_str(&board);
    // The key: colour, letter, move, beads to put in.
    let kx = bx + board_w + 3.0;
    let line = ((h - 9.0) / mbox.arrows.len().max(4) as f64).min(4.2);
    for (i, &mv) in mbox.arrows.iter().enumerate() {
        let (_, hex, code) = bead(colours[i]);
        let n = counts.get(i).copied().unwrap_or(0);
        let ky = by + line * (i as f64 + 0.7);
        let _ = write!(
            s,
            r#"<circle cx="{:.2}" cy="{:.2}" r="{:.2}" fill="{hex}" stroke="black" stroke-width="0.15"/><text x="{:.2}" y="{:.2}" font-family="DejaVu Sans, sans-serif" font-size="{:.2}">{code} {} ×{n}</text>"#,
            kx + 1.2,
            ky - line * 0.25,
            line * 0.3,
            kx + 3.0,
            ky,
            line * 0.62,
            esc(&game.format_move(mv))
        );
    }
    s.push_str("</g>");
    s
}

/// The labels of a box set as SVG pages; page 1 starts with a title and the bead shopping list.
/// The title of a machine's label sheets: its name, the game, side and symmetry, and `what` (its
/// beads: `beads 1`, `beads after 40 games`).
pub fn sheet_title<G: crate::learn::GameDefaults>(
    game: &G,
    set: &BoxSet<G>,
    what: &str,
    colours: BeadColours,
) -> String {
    let (side, mode) = (set.side(), set.mode());
    format!(
        "{}{} {} · {} · {} · {what}{}",
        game.nickname(side, mode)
            .map(|n| format!("{n}: "))
            .unwrap_or_default(),
        game.name(),
        game.variant(),
        game.side_name(side),
        mode.words(),
        match colours {
            BeadColours::ByCell => " · a colour per cell",
            BeadColours::ByArrow => "",
        }
    )
}

/// The label sheets of machine `m` as SVG pages, and their title: blank labels to build it (each
/// box with the beads a new machine starts with) or, where `trained`, with the beads it holds now.
/// What the page and the class server offer for download.
/// What every label sheet matchbox draws carries near its start: the mark by which `boxes
/// --labels` knows a page of its own (and removes only those when a machine has fewer pages).
pub const SHEET_MARK: &str = "<desc>matchbox label sheet</desc>";

pub fn machine_sheets<G: LabelView + crate::learn::GameDefaults>(
    game: &G,
    m: &crate::learn::Machine<G>,
    trained: bool,
    colours: BeadColours,
) -> (Vec<String>, String) {
    let set = &m.boxes;
    let (beads, what) = match trained {
        true => (
            LabelBeads::counts(|b| m.beads_in(b).iter().map(|n| n.get()).collect(), colours),
            format!("beads after {} games", crate::text::group(m.games_played)),
        ),
        false => (
            LabelBeads::initial(set, &m.initial, colours),
            format!("beads {}", m.initial),
        ),
    };
    let title = sheet_title(game, set, &what, colours);
    (sheets(game, set, &beads, &title, Layout::default()), title)
}

/// About how many bytes the SVG pages of every box's label take: labels of up to 32 boxes
/// spread over the set are drawn, and their mean scaled to the set (the pages' other text is
/// small beside them). What [`sheets`] would make, known before it is made.
pub fn estimated_bytes<G: LabelView>(
    game: &G,
    set: &BoxSet<G>,
    beads: &LabelBeads,
    layout: Layout,
) -> u64 {
    if set.is_empty() {
        return 0;
    }
    let (w, h) = layout.label;
    let step = set.len().div_ceil(32);
    let sample: Vec<usize> = (0..set.len()).step_by(step).collect();
    let bytes: usize = sample
        .iter()
        .map(|&b| {
            label(
                game,
                set,
                b,
                beads,
                Place {
                    x: 0.0,
                    y: 0.0,
                    w,
                    h,
                },
            )
            .len()
        })
        .sum();
    (bytes as u64 * set.len() as u64) / sample.len() as u64
}

pub fn sheets<G: LabelView>(
    game: &G,
    set: &BoxSet<G>,
    beads: &LabelBeads,
    title: &str,
    layout: Layout,
) -> Vec<String> {
    let (pw, _) = layout.paper.size_mm();
    let mut header = title_svg(title, pw);
    let list = bead_counts(game, set, beads);
    let total: u64 = list.iter().map(|b| b.1).sum();
    let _ = write!(
        header,
        r#"<text x="{MARGIN}" y="{:.2}" font-family="DejaVu Sans, sans-serif" font-size="3.5">{} boxes, {} arrows. Beads to buy ({total} in all):</text>"#,
        MARGIN + 14.0,
        set.len(),
        set.arrow_count()
    );
    for (i, &(colour, n)) in list.iter().enumerate() {
        let (name, hex, code) = bead(colour);
        let (cx, cy) = (
            MARGIN + (i % 4) as f64 * 46.0,
            MARGIN + 21.0 + (i / 4) as f64 * 6.0,
        );
        let _ = write!(
            header,
            r#"<g class="bead-count" data-count="{n}"><circle cx="{:.2}" cy="{:.2}" r="1.8" fill="{}" stroke="black" stroke-width="0.2"/><text x="{:.2}" y="{:.2}" font-family="DejaVu Sans, sans-serif" font-size="3.5">{code} {name}: {n}</text></g>"#,
            cx + 2.0,
            cy - 1.2,
            hex,
            cx + 5.0,
            cy
        );
    }
    lay_out(layout, set.len(), &header, |b, place| {
        label(game, set, b, beads, place)
    })
}

/// A sheet's title in bold across the page's top, a long one shrunk to the page's width (bold
/// DejaVu is about 0.65 em a letter).
fn title_svg(title: &str, page_width: f64) -> String {
    let size = (5.0f64).min((page_width - 2.0 * MARGIN) / (0.65 * title.chars().count() as f64));
    format!(
        r#"<text x="{MARGIN}" y="{:.2}" font-family="DejaVu Sans, sans-serif" font-size="{}" font-weight="bold">{}</text>"#,
        MARGIN + 6.0,
        (size * 100.0).round() / 100.0,
        esc(title)
    )
}

/// `count` labels laid out on pages of `layout`, in rows and columns between the margins, the
/// first page under `header` (SVG, up to [`HEADER`] mm tall); each label drawn by `label` at its
/// place; every page numbered.
fn lay_out(
    layout: Layout,
    count: usize,
    header: &str,
    label: impl Fn(usize, Place) -> String,
) -> Vec<String> {
    let (pw, ph) = layout.paper.size_mm();
    let (w, h) = layout.label;
    let cols = (((pw - 2.0 * MARGIN + GAP) / (w + GAP)).floor() as usize).max(1);
    let rows_full = (((ph - 2.0 * MARGIN + GAP) / (h + GAP)).floor() as usize).max(1);
    let rows_first = (((ph - 2.0 * MARGIN - HEADER + GAP) / (h + GAP)).floor() as usize).max(1);
    let mut pages = Vec::new();
    let mut next = 0;
    while next < count || pages.is_empty() {
        let first = pages.is_empty();
        let rows = if first { rows_first } else { rows_full };
        let top = MARGIN + if first { HEADER } else { 0.0 };
        let mut s = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{pw}mm" height="{ph}mm" viewBox="0 0 {pw} {ph}">{SHEET_MARK}<rect width="{pw}" height="{ph}" fill="white"/>"#
        );
        if first {
            s.push_str(header);
        }
        for slot in 0..cols * rows {
            if next >= count {
                break;
            }
            let (c, r) = (slot % cols, slot / cols);
            let x = MARGIN + c as f64 * (w + GAP);
            let y = top + r as f64 * (h + GAP);
            s.push_str(&label(next, Place { x, y, w, h }));
            next += 1;
        }
        let _ = write!(
            s,
            r##"<text x="{:.2}" y="{:.2}" font-family="DejaVu Sans, sans-serif" font-size="2.5" fill="#777777" text-anchor="end">page {}</text></svg>"##,
            pw - MARGIN,
            ph - 4.0,
            pages.len() + 1
        );
        pages.push(s);
    }
    pages
}
