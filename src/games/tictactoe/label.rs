//! Noughts and crosses on a printed label.

use super::{Cell, TicTacToe};
use crate::labels::LabelView;

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
        let cell = Cell::new(2 - row, col).expect("on the board");
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
