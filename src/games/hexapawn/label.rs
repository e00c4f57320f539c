//! Hexapawn on a printed label.

use super::{Cell, Hexapawn};
use crate::labels::LabelView;

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
        match self.piece_at(pos, Cell::at(self, rank, col)) {
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
