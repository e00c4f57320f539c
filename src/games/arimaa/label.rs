//! Mini-Arimaa on a printed label: the 4×4 board with its pieces as letters, each arrow from the
//! first step's square to the turn's last destination.

use super::mini::MiniArimaa;
use crate::game::Side;
use crate::labels::LabelView;

impl LabelView for MiniArimaa {
    fn grid(&self) -> (usize, usize) {
        (
            self.rules().height() as usize,
            self.rules().width() as usize,
        )
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
        let rules = self.rules();
        let rank = rules.height() as usize - 1 - row;
        let sq = (rank * rules.width() as usize + col) as u8;
        match pos.board.at(sq) {
            Some((side, kind)) => {
                let (fill, text) = match side {
                    Side::First => ("white", "black"),
                    Side::Second => ("black", "white"),
                };
                let letter = super::Rules::piece_letter(side, kind).to_ascii_uppercase();
                format!(
                    r#"<circle cx="{x:.2}" cy="{y:.2}" r="{r:.2}" fill="{fill}" stroke="black" stroke-width="0.35"/><text x="{x:.2}" y="{ty:.2}" font-size="{fs:.2}" text-anchor="middle" fill="{text}">{letter}</text>"#,
                    r = s * 0.32,
                    ty = y + s * 0.15,
                    fs = s * 0.42
                )
            }
            None if rules.traps() & (1 << sq) != 0 => format!(
                r#"<text x="{x:.2}" y="{ty:.2}" font-size="{fs:.2}" text-anchor="middle" fill="grey">×</text>"#,
                ty = y + s * 0.15,
                fs = s * 0.4
            ),
            None => String::new(),
        }
    }
    fn move_cells(&self, mv: Self::Move) -> ((usize, usize), (usize, usize)) {
        let rules = self.rules();
        let (w, h) = (rules.width() as usize, rules.height() as usize);
        let steps = mv.steps();
        let cell = |sq: u8| (h - 1 - sq as usize / w, sq as usize % w);
        let from = steps.first().map_or(0, |s| s.from);
        let to = steps
            .last()
            .and_then(|s| rules.step_to(s.from, s.dir))
            .unwrap_or(from);
        (cell(from), cell(to))
    }
}
