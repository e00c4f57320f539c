//! Printable matchbox labels: SVG sheets with one label per box (the position, one arrow per move in
//! its bead colour with a letter code, the beads to put in, the box number and move), cut marks,
//! and the bead shopping list. Pure: it returns SVG text.

use std::fmt::Write;

use crate::game::Game;
use crate::game::hexapawn::{Cell as HexCell, Hexapawn};
use crate::game::tictactoe::{self, TicTacToe};
use crate::learn::{BoxSet, StageBeads};

/// Bead colours for print: the Okabe–Ito palette (apart for colour-blind readers), each with a
/// letter code so the labels also work in greyscale.
pub const BEADS: [(&str, &str, char); 8] = [
    ("orange", "#E69F00", 'A'),
    ("sky blue", "#56B4E9", 'B'),
    ("green", "#009E73", 'C'),
    ("yellow", "#F0E442", 'D'),
    ("blue", "#0072B2", 'E'),
    ("vermilion", "#D55E00", 'F'),
    ("purple", "#CC79A7", 'G'),
    ("grey", "#999999", 'H'),
];

fn bead(i: usize) -> (&'static str, &'static str, char) {
    BEADS[i % BEADS.len()]
}

/// Paper sizes, in millimetres.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Paper {
    A4,
    Letter,
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
}

impl LabelView for Hexapawn {
    fn grid(&self) -> (usize, usize) {
        (self.size().rows() as usize, self.size().cols() as usize)
    }
    fn piece(
        &self,
        pos: &Self::Position,
        row: usize,
        col: usize,
        x: f64,
        y: f64,
        s: f64,
    ) -> String {
        let rank = self.size().rows() as usize - 1 - row;
        let r = s * 0.3;
        match self.piece_at(pos, HexCell::at(self, rank, col)) {
            'W' => format!(
                r#"<circle cx="{x:.2}" cy="{y:.2}" r="{r:.2}" fill="white" stroke="black" stroke-width="0.35"/>"#
            ),
            'B' => format!(r#"<circle cx="{x:.2}" cy="{y:.2}" r="{r:.2}" fill="black"/>"#),
            _ => String::new(),
        }
    }
    fn move_cells(&self, mv: Self::Move) -> ((usize, usize), (usize, usize)) {
        let rows = self.size().rows() as usize;
        let (ff, fr) = self.file_rank(mv.from);
        let (tf, tr) = self.file_rank(mv.to);
        ((rows - 1 - fr, ff), (rows - 1 - tr, tf))
    }
}

impl LabelView for TicTacToe {
    fn grid(&self) -> (usize, usize) {
        (3, 3)
    }
    fn piece(
        &self,
        pos: &Self::Position,
        row: usize,
        col: usize,
        x: f64,
        y: f64,
        s: f64,
    ) -> String {
        let cell = tictactoe::Cell::new(2 - row, col).expect("on the board");
        let r = s * 0.3;
        match pos.mark(cell) {
            'X' => format!(
                r#"<path d="M{:.2} {:.2}L{:.2} {:.2}M{:.2} {:.2}L{:.2} {:.2}" stroke="black" stroke-width="0.5"/>"#,
                x - r,
                y - r,
                x + r,
                y + r,
                x - r,
                y + r,
                x + r,
                y - r
            ),
            'O' => format!(
                r#"<circle cx="{x:.2}" cy="{y:.2}" r="{r:.2}" fill="none" stroke="black" stroke-width="0.5"/>"#
            ),
            _ => String::new(),
        }
    }
    fn move_cells(&self, mv: Self::Move) -> ((usize, usize), (usize, usize)) {
        let i = mv.0.index();
        let cell = (2 - i / 3, i % 3);
        (cell, cell)
    }
}

/// Beads of each colour the whole machine needs: (colour name, letter, count), for every colour used.
pub fn bead_list<G: Game>(set: &BoxSet<G>, initial: &StageBeads) -> Vec<(&'static str, char, u64)> {
    let mut counts: Vec<u64> = Vec::new();
    for b in set.boxes() {
        let n = initial.for_stage(b.stage as usize).get() as u64;
        for i in 0..b.arrows.len() {
            let c = i % BEADS.len();
            if counts.len() <= c {
                counts.resize(c + 1, 0);
            }
            counts[c] += n;
        }
    }
    counts
        .iter()
        .enumerate()
        .map(|(i, &n)| (bead(i).0, bead(i).2, n))
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
    initial: &StageBeads,
    at: Place,
) -> String {
    let Place { x, y, w, h } = at;
    let mbox = set.get(b);
    let n = initial.for_stage(mbox.stage as usize).get();
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
    let (rows, cols) = game.grid();
    let side = ((h - 9.0) / rows as f64).min((w * 0.55) / cols as f64);
    let (bx, by) = (x + 2.5, y + 7.0);
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
            s.push_str(&game.piece(&mbox.position, r, c, px, py, side));
        }
    }
    // One arrow per box arrow, in its bead colour, with its letter.
    let centre =
        |(r, c): (usize, usize)| (bx + (c as f64 + 0.5) * side, by + (r as f64 + 0.5) * side);
    for (i, &mv) in mbox.arrows.iter().enumerate() {
        let (_, hex, code) = bead(i);
        let (from, to) = game.move_cells(mv);
        let (x1, y1) = centre(from);
        let (x2, y2) = centre(to);
        let _ = write!(
            s,
            r#"<g class="arrow" data-move="{}">"#,
            esc(&game.format_move(mv))
        );
        if from == to {
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
            if from == to { x2 } else { (x1 + x2) / 2.0 },
            (if from == to { y2 } else { (y1 + y2) / 2.0 }) + side * 0.1,
            side * 0.3
        );
    }
    // The key: colour, letter, move, beads to put in.
    let kx = bx + cols as f64 * side + 3.0;
    let line = ((h - 9.0) / mbox.arrows.len().max(4) as f64).min(4.2);
    for (i, &mv) in mbox.arrows.iter().enumerate() {
        let (_, hex, code) = bead(i);
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
pub fn sheets<G: LabelView>(
    game: &G,
    set: &BoxSet<G>,
    initial: &StageBeads,
    title: &str,
    layout: Layout,
) -> Vec<String> {
    let (pw, ph) = layout.paper.size_mm();
    let (w, h) = layout.label;
    let cols = (((pw - 2.0 * MARGIN + GAP) / (w + GAP)).floor() as usize).max(1);
    let rows_full = (((ph - 2.0 * MARGIN + GAP) / (h + GAP)).floor() as usize).max(1);
    let rows_first = (((ph - 2.0 * MARGIN - HEADER + GAP) / (h + GAP)).floor() as usize).max(1);
    let mut pages = Vec::new();
    let mut next = 0;
    while next < set.len() || pages.is_empty() {
        let first = pages.is_empty();
        let rows = if first { rows_first } else { rows_full };
        let top = MARGIN + if first { HEADER } else { 0.0 };
        let mut s = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{pw}mm" height="{ph}mm" viewBox="0 0 {pw} {ph}"><rect width="{pw}" height="{ph}" fill="white"/>"#
        );
        if first {
            let _ = write!(
                s,
                r#"<text x="{MARGIN}" y="{:.2}" font-family="DejaVu Sans, sans-serif" font-size="5" font-weight="bold">{}</text>"#,
                MARGIN + 6.0,
                esc(title)
            );
            let list = bead_list(set, initial);
            let total: u64 = list.iter().map(|b| b.2).sum();
            let _ = write!(
                s,
                r#"<text x="{MARGIN}" y="{:.2}" font-family="DejaVu Sans, sans-serif" font-size="3.5">{} boxes, {} arrows. Beads to buy ({total} in all):</text>"#,
                MARGIN + 14.0,
                set.len(),
                set.arrow_count()
            );
            for (i, (name, code, n)) in list.iter().enumerate() {
                let (cx, cy) = (
                    MARGIN + (i % 4) as f64 * 46.0,
                    MARGIN + 21.0 + (i / 4) as f64 * 6.0,
                );
                let _ = write!(
                    s,
                    r#"<g class="bead-count" data-count="{n}"><circle cx="{:.2}" cy="{:.2}" r="1.8" fill="{}" stroke="black" stroke-width="0.2"/><text x="{:.2}" y="{:.2}" font-family="DejaVu Sans, sans-serif" font-size="3.5">{code} {name}: {n}</text></g>"#,
                    cx + 2.0,
                    cy - 1.2,
                    bead(i).1,
                    cx + 5.0,
                    cy
                );
            }
        }
        for slot in 0..cols * rows {
            if next >= set.len() {
                break;
            }
            let (c, r) = (slot % cols, slot / cols);
            let x = MARGIN + c as f64 * (w + GAP);
            let y = top + r as f64 * (h + GAP);
            s.push_str(&label(game, set, next, initial, Place { x, y, w, h }));
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
