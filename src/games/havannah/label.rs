//! Havannah on a printed label: the board as a hexagon of hexagonal cells, stones as discs, each
//! arrow a coloured, lettered disc on its cell.

use std::fmt::Write;

use super::{Cell, Havannah, Position};
use crate::game::{Game, Side};
use crate::labels::{LabelView, arrow_svg};

impl Havannah {
    /// Centre of a cell on a label whose cells are `d` apart, from the board's top-left corner.
    fn label_centre(&self, c: Cell, d: f64) -> (f64, f64) {
        let (x, y) = self.xy(c);
        self.centre_at(x as f64, y as f64, d)
    }

    /// Centre of the place column `x`, row `y` would have (off the board too: where its
    /// coordinates are written).
    fn centre_at(&self, x: f64, y: f64, d: f64) -> (f64, f64) {
        let n = self.base().get() as f64;
        let col = 2.0 * x - y + n - 1.0;
        ((col + 1.0) * d / 2.0, (y + 0.6) * d * 0.866)
    }

    /// The coordinates around the hexagon: each row's letter at its left, each column's number
    /// where its diagonal starts (over the top row, then along the upper right edge).
    fn coordinates_svg(&self, (ox, oy): (f64, f64), d: f64) -> String {
        let n = self.base().get() as usize;
        let text = |(cx, cy): (f64, f64), t: String| {
            format!(
                r##"<text x="{:.2}" y="{:.2}" font-family="DejaVu Sans, sans-serif" font-size="{:.2}" font-weight="bold" fill="#555555" text-anchor="middle">{t}</text>"##,
                ox + cx,
                oy + cy + d * 0.12,
                (d * 0.36).min(2.6)
            )
        };
        let mut s = String::new();
        for y in 0..2 * n - 1 {
            let first = y.saturating_sub(n - 1) as f64;
            let letter = ((b'a' + y as u8) as char).to_string();
            s.push_str(&text(self.centre_at(first - 0.75, y as f64, d), letter));
        }
        for x in 0..2 * n - 1 {
            // Column x starts in row max(0, x − (n − 1)): its number a step up and right.
            let start = x.saturating_sub(n - 1) as f64;
            s.push_str(&text(
                self.centre_at(x as f64, start - 1.0, d),
                (x + 1).to_string(),
            ));
        }
        s
    }
}

impl LabelView for Havannah {
    fn grid(&self) -> (usize, usize) {
        let rows = 2 * self.base().get() as usize - 1;
        (rows, rows)
    }
    /// Stones are drawn by [`LabelView::draw_board`]; nothing here.
    fn piece(
        &self,
        _pos: &Position,
        _row: usize,
        _col: usize,
        _x: f64,
        _y: f64,
        _s: f64,
    ) -> String {
        String::new()
    }
    fn move_cells(&self, mv: Cell) -> ((usize, usize), (usize, usize)) {
        let (x, y) = self.xy(mv);
        ((y, x), (y, x))
    }

    fn draw_board(
        &self,
        pos: &Position,
        arrows: &[Cell],
        colours: &[usize],
        (bx, by, max_w, max_h): (f64, f64, f64, f64),
    ) -> (String, f64) {
        let rows = 2.0 * self.base().get() as f64 - 1.0;
        // Room for the coordinates: letters at the left, numbers over the top.
        let d = (max_w / (rows + 0.8)).min(max_h / (rows * 0.866 + 1.0));
        let (bx, by) = (bx + 0.8 * d, by + 0.7 * d);
        let r = d / 3f64.sqrt();
        let mut s = self.coordinates_svg((bx, by), d);
        for &c in self.cells() {
            let (cx, cy) = self.label_centre(c, d);
            let (cx, cy) = (bx + cx, by + cy);
            let corners: Vec<String> = (0..6)
                .map(|k| {
                    let a = std::f64::consts::PI / 3.0 * k as f64 + std::f64::consts::PI / 6.0;
                    format!("{:.2},{:.2}", cx + r * a.cos(), cy + r * a.sin())
                })
                .collect();
            let _ = write!(
                s,
                r##"<polygon points="{}" fill="#f2f2f2" stroke="#555555" stroke-width="0.15"/>"##,
                corners.join(" ")
            );
            let stone = |side: Side| pos.stones(side).has(c.index());
            if !stone(Side::First) && !stone(Side::Second) && !arrows.contains(&c) {
                // An empty cell shows its name, so the key's moves can be found on the board.
                let _ = write!(
                    s,
                    r##"<text x="{cx:.2}" y="{:.2}" font-family="DejaVu Sans, sans-serif" font-size="{:.2}" fill="#888888" text-anchor="middle">{}</text>"##,
                    cy + d * 0.1,
                    (d * 0.3).min(2.0),
                    self.format_move(c)
                );
            }
            if stone(Side::First) {
                let _ = write!(
                    s,
                    r#"<circle cx="{cx:.2}" cy="{cy:.2}" r="{:.2}" fill="white" stroke="black" stroke-width="0.3"/>"#,
                    d * 0.32
                );
            } else if stone(Side::Second) {
                let _ = write!(
                    s,
                    r#"<circle cx="{cx:.2}" cy="{cy:.2}" r="{:.2}" fill="black"/>"#,
                    d * 0.32
                );
            }
        }
        // The swap move has no cell: it is in the label's key only.
        for (i, &mv) in arrows.iter().enumerate().filter(|(_, m)| !m.is_swap()) {
            let (cx, cy) = self.label_centre(mv, d);
            let at = (bx + cx, by + cy);
            let colour = colours.get(i).copied().unwrap_or(i);
            s.push_str(&arrow_svg(&self.format_move(mv), colour, at, at, d));
        }
        (s, (rows + 0.8) * d)
    }
}
