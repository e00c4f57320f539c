//! Hexapawn on the terminal.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use super::{Cell, Hexapawn, Position};
use crate::view::board::BoardView;

impl BoardView for Hexapawn {
    fn board_lines(&self, pos: &Position, marks: &[(Self::Move, Color)]) -> Vec<Line<'static>> {
        let (rows, cols) = (self.size().rows() as usize, self.size().cols() as usize);
        let mut lines = Vec::with_capacity(rows + 1);
        for r in (0..rows).rev() {
            let mut spans = vec![Span::styled(
                format!("{} ", r + 1),
                Style::new().fg(Color::DarkGray),
            )];
            for f in 0..cols {
                let cell = Cell::at(self, r, f);
                let piece = self.piece_at(pos, cell);
                let mut style = match piece {
                    'W' => Style::new().fg(Color::White).add_modifier(Modifier::BOLD),
                    'B' => Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
                    _ => Style::new().fg(Color::DarkGray),
                };
                // A pawn on its far rank has won: in reverse video.
                if (piece == 'W' && r + 1 == rows) || (piece == 'B' && r == 0) {
                    style = style.add_modifier(Modifier::REVERSED);
                }
                for &(mv, colour) in marks {
                    if mv.to == cell {
                        style = style.bg(colour).fg(Color::Black);
                    } else if mv.from == cell {
                        style = style.fg(colour).add_modifier(Modifier::UNDERLINED);
                    }
                }
                let symbol = match piece {
                    '.' => '·',
                    p => p,
                };
                spans.push(Span::styled(symbol.to_string(), style));
                if f + 1 < cols {
                    spans.push(Span::raw(" "));
                }
            }
            lines.push(Line::from(spans));
        }
        let files: Vec<String> = (0..cols)
            .map(|f| ((b'a' + f as u8) as char).to_string())
            .collect();
        lines.push(Line::styled(
            format!("  {}", files.join(" ")),
            Style::new().fg(Color::DarkGray),
        ));
        lines
    }

    fn board_size(&self) -> (u16, u16) {
        let (rows, cols) = (self.size().rows() as u16, self.size().cols() as u16);
        (2 + 2 * cols - 1, rows + 1)
    }

    fn square_at(&self, col: u16, row: u16) -> Option<String> {
        let rows = self.size().rows() as u16;
        let rank = rows.checked_sub(row + 1)?;
        let prefix = format!("{} ", rank + 1).len() as u16;
        let file = crate::view::board::file_at(col, prefix, self.size().cols() as u16)?;
        Some(self.cell_name(Cell::at(self, rank as usize, file as usize)))
    }

    fn move_ends(&self, mv: Self::Move) -> Option<(Option<String>, String)> {
        Some((Some(self.cell_name(mv.from)), self.cell_name(mv.to)))
    }

    fn image_word(&self, _sym: crate::game::Sym) -> String {
        "mirrored".into()
    }

    fn turn_words(&self, sym: crate::game::Sym) -> String {
        match sym.index() {
            0 => "as drawn".into(),
            _ => "mirrored left to right".into(),
        }
    }

    fn legend(&self) -> &'static str {
        "W white pawn, B black pawn"
    }
}
