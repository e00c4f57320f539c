//! Havannah on the terminal: the board as a hexagon, and a box's beads as a heat map over its
//! empty cells.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use super::{Cell, Havannah, Position};
use crate::game::Game;
use crate::view::board::BoardView;

impl Havannah {
    /// The board, one line per row, each cell drawn by `cell`. With `labels`, each row's letter
    /// on its left and each column's number where its diagonal starts: over the top row for the
    /// first `n`, at the end of the row above for the rest (dim, a space from the cells).
    fn hex_lines(
        &self,
        labels: bool,
        cell: impl Fn(Cell, char) -> (String, Style),
    ) -> Vec<Line<'static>> {
        let n = self.base().get() as usize;
        let dim = Style::new().fg(Color::DarkGray);
        let prefix = if labels { 2 } else { 0 };
        let mut lines = Vec::with_capacity(2 * n);
        if labels {
            // Column x's cells lean left going down: its number sits up and right of row a.
            let numbers: Vec<String> = (1..=n).map(|x| format!("{x:<2}")).collect();
            lines.push(Line::styled(
                format!("{}{}", " ".repeat(prefix + n), numbers.concat().trim_end()),
                dim,
            ));
        }
        for y in 0..2 * n - 1 {
            let first = y.saturating_sub(n - 1);
            let last = (y + n - 1).min(2 * n - 2);
            let indent = 2 * first + n - 1 - y;
            let letter = match labels {
                true => format!("{} ", (b'a' + y as u8) as char),
                false => String::new(),
            };
            let mut spans = vec![Span::styled(format!("{letter}{}", " ".repeat(indent)), dim)];
            for x in first..=last {
                let c = self.cell_at(x, y).expect("a row's cells are on the board");
                let (text, style) = cell(c, ' ');
                spans.push(Span::styled(text, style));
                if x < last {
                    spans.push(Span::raw(" "));
                }
            }
            if labels && y + 1 < n {
                // The column that starts in the next row, a step up and right of its first cell.
                spans.push(Span::styled(format!(" {}", y + n + 1), dim));
            }
            lines.push(Line::from(spans));
        }
        lines
    }

    fn stone(&self, pos: &Position, c: Cell) -> (String, Style) {
        use crate::game::Side;
        if pos.stones(Side::First).has(c.index()) {
            (
                "W".into(),
                Style::new().fg(Color::White).add_modifier(Modifier::BOLD),
            )
        } else if pos.stones(Side::Second).has(c.index()) {
            (
                "B".into(),
                Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
            )
        } else {
            ("·".into(), Style::new().fg(Color::DarkGray))
        }
    }
}

impl Havannah {
    /// The winner's stones that form the winning structure (its groups with a ring, bridge or
    /// fork), for a finished game; empty otherwise.
    fn winning_stones(&self, pos: &Position) -> super::Bits {
        let mut marked = super::Bits::default();
        let Some(winner) = self.outcome(pos).and_then(|o| o.winner) else {
            return marked;
        };
        let own = pos.stones(winner);
        let mut seen = super::Bits::default();
        for i in own.iter() {
            if seen.has(i) {
                continue;
            }
            let group = self.fill(super::Bits::single(i), own);
            for j in group.iter() {
                seen.set(j);
            }
            if self.has_structure(group) {
                for j in group.iter() {
                    marked.set(j);
                }
            }
        }
        marked
    }
}

impl BoardView for Havannah {
    fn board_lines(&self, pos: &Position, marks: &[(Cell, Color)]) -> Vec<Line<'static>> {
        let winning = self.winning_stones(pos);
        self.hex_lines(true, |c, _| {
            let (text, mut style) = self.stone(pos, c);
            if winning.has(c.index()) {
                // The winning structure, in reverse video.
                style = style.add_modifier(Modifier::REVERSED);
            }
            if let Some(&(_, colour)) = marks.iter().find(|(m, _)| *m == c) {
                style = style.bg(colour).fg(Color::Black);
            }
            (text, style)
        })
    }

    /// The beads of each arrow as a heat map over the empty cells (`+` for 10 or more).
    fn box_lines(&self, pos: &Position, arrows: &[(Cell, Color, u32)]) -> Vec<Line<'static>> {
        let most = arrows.iter().map(|a| a.2).max().unwrap_or(0).max(1);
        self.hex_lines(true, |c, _| match arrows.iter().find(|a| a.0 == c) {
            Some(&(_, _, n)) => crate::view::board::heat_cell(n, most),
            None => self.stone(pos, c),
        })
    }

    /// The hexagon with no coordinates, each arrow's beads in its cell (`+` for 10 or more), the
    /// drawn one on red.
    fn tile_lines(
        &self,
        pos: &Position,
        arrows: &[(Cell, Color, u32)],
        drawn: Option<usize>,
    ) -> Vec<Line<'static>> {
        let most: u32 = arrows.iter().map(|a| a.2).sum::<u32>().max(1);
        self.hex_lines(false, |c, _| match arrows.iter().position(|a| a.0 == c) {
            Some(i) if drawn == Some(i) => {
                let (text, _) = crate::view::board::heat_cell(arrows[i].2, most);
                (text, Style::new().bg(Color::Red).fg(Color::White))
            }
            Some(i) => crate::view::board::heat_cell(arrows[i].2, most),
            None => self.stone(pos, c),
        })
    }

    fn tile_size(&self) -> (u16, u16) {
        let n = self.base().get() as u16;
        (4 * n - 3, 2 * n - 1)
    }

    fn board_size(&self) -> (u16, u16) {
        let n = self.base().get() as u16;
        // The letter and a space, then row b's cells ending at 4n − 4; the number of the last
        // column after them; the numbers' line over the rows.
        let last = 2 * n - 1;
        (4 * n - 1 + last.to_string().len() as u16, 2 * n)
    }

    fn square_at(&self, col: u16, row: u16) -> Option<String> {
        let n = self.base().get() as u16;
        // The numbers' line is no square's.
        let y = row.checked_sub(1)?;
        if y >= 2 * n - 1 {
            return None;
        }
        let first = y.saturating_sub(n - 1);
        let last = (y + n - 1).min(2 * n - 2);
        let indent = 2 * first + n - 1 - y;
        let x = first + crate::view::board::file_at(col, 2 + indent, last - first + 1)?;
        self.cell_at(x as usize, y as usize)
            .map(|c| self.cell_name(c))
    }

    fn move_ends(&self, mv: Cell) -> Option<(Option<String>, String)> {
        (!mv.is_swap()).then(|| (None, self.cell_name(mv)))
    }

    fn image_word(&self, sym: crate::game::Sym) -> String {
        crate::view::board::turn_or_mirror(sym, 6, 60)
    }

    /// How an operator at a real box turns its label to the board: as the default says it, the
    /// label as drawn where the board is its drawing.
    fn turn_words(&self, sym: crate::game::Sym) -> String {
        match crate::game::Game::inverse(self, sym).index() {
            0 => "as drawn".into(),
            _ => self.image_word(crate::game::Game::inverse(self, sym)),
        }
    }

    fn legend(&self) -> &'static str {
        let _ = self.name();
        "W white, B black; numbers: beads"
    }
}
