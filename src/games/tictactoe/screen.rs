//! Noughts and crosses on the terminal: the board, and MENACE's beads as a heat map.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use super::{Cell, Move, Position, TicTacToe};
use crate::game::Game;
use crate::view::board::BoardView;

impl TicTacToe {
    fn lines_with(
        &self,
        pos: &Position,
        cell_style: impl Fn(Cell, char) -> (String, Style),
    ) -> Vec<Line<'static>> {
        let mut lines = Vec::with_capacity(4);
        for r in (0..3).rev() {
            let mut spans = vec![Span::styled(
                format!("{} ", r + 1),
                Style::new().fg(Color::DarkGray),
            )];
            for f in 0..3 {
                let cell = Cell::new(r, f).expect("on the board");
                let (text, style) = cell_style(cell, pos.mark(cell));
                spans.push(Span::styled(text, style));
                if f < 2 {
                    spans.push(Span::raw(" "));
                }
            }
            lines.push(Line::from(spans));
        }
        lines.push(Line::styled("  a b c", Style::new().fg(Color::DarkGray)));
        lines
    }
}

fn mark_style(mark: char) -> (String, Style) {
    match mark {
        'X' => (
            "X".into(),
            Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
        ),
        'O' => (
            "O".into(),
            Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
        ),
        _ => ("·".into(), Style::new().fg(Color::DarkGray)),
    }
}

impl BoardView for TicTacToe {
    fn board_lines(&self, pos: &Position, marks: &[(Move, Color)]) -> Vec<Line<'static>> {
        // The winner's three in a row, in reverse video.
        let line = (self.outcome(pos).and_then(|o| o.winner))
            .map_or(0, |w| super::rules::winning_line(pos, w));
        self.lines_with(pos, |cell, mark| {
            let (text, mut style) = mark_style(mark);
            if line & (1 << cell.index()) != 0 {
                style = style.add_modifier(Modifier::REVERSED);
            }
            if let Some(&(_, colour)) = marks.iter().find(|(m, _)| m.0 == cell) {
                style = style.bg(colour).fg(Color::Black);
            }
            (text, style)
        })
    }

    /// MENACE's beads as a heat map over the empty cells: each arrow's cell shows its bead count,
    /// brighter for more beads.
    fn box_lines(&self, pos: &Position, arrows: &[(Move, Color, u32)]) -> Vec<Line<'static>> {
        let most = arrows.iter().map(|a| a.2).max().unwrap_or(0).max(1);
        self.lines_with(pos, |cell, mark| {
            match arrows.iter().find(|a| a.0.0 == cell) {
                Some(&(_, _, n)) => crate::view::board::heat_cell(n, most),
                None => mark_style(mark),
            }
        })
    }

    fn board_size(&self) -> (u16, u16) {
        (7, 4)
    }

    /// Three rows of cells two columns wide, no coordinates: the marks, and each arrow's beads
    /// in its cell (as Scroggs draws MENACE's boxes), the drawn one on red.
    fn tile_lines(
        &self,
        pos: &Position,
        arrows: &[(Move, Color, u32)],
        drawn: Option<usize>,
    ) -> Vec<Line<'static>> {
        let most: u32 = arrows.iter().map(|a| a.2).sum::<u32>().max(1);
        let mut lines = self.lines_with(pos, |cell, mark| {
            match arrows.iter().position(|a| a.0.0 == cell) {
                Some(i) => crate::view::board::tile_cell(arrows[i].2, most, drawn == Some(i)),
                None => {
                    let (text, style) = mark_style(mark);
                    (format!(" {text}"), style)
                }
            }
        });
        // No coordinates: the files' line goes, and each row's rank.
        lines.pop();
        for l in &mut lines {
            l.spans.remove(0);
        }
        lines
    }

    fn tile_size(&self) -> (u16, u16) {
        (8, 3)
    }

    fn square_at(&self, col: u16, row: u16) -> Option<String> {
        let rank = 2u16.checked_sub(row)?;
        let file = crate::view::board::file_at(col, 2, 3)?;
        Cell::new(rank as usize, file as usize).map(|c| self.cell_name(c))
    }

    fn move_ends(&self, mv: Move) -> Option<(Option<String>, String)> {
        Some((None, self.cell_name(mv.0)))
    }

    fn image_word(&self, sym: crate::game::Sym) -> String {
        crate::view::board::turn_or_mirror(sym, 4, 90)
    }

    fn turn_words(&self, sym: crate::game::Sym) -> String {
        // The symmetry back from the drawing to the board: mirrored left to right first (4 to
        // 7), then turned a quarter anticlockwise `k % 4` times (a1 to c1, as the rules' PERM).
        // A mirror then a turn is a mirror about another line: said as that one.
        let k = crate::game::Game::inverse(self, sym).index();
        let words = [
            "as drawn",
            "turned 90° anticlockwise",
            "turned 180°",
            "turned 90° clockwise",
            "mirrored left to right",
            "mirrored across the a3–c1 diagonal",
            "mirrored top to bottom",
            "mirrored across the a1–c3 diagonal",
        ];
        words[k % 8].into()
    }

    fn legend(&self) -> &'static str {
        "X crosses, O noughts; numbers: beads"
    }
}
