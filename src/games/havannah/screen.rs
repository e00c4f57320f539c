//! Havannah on the terminal: the board as a hexagon, and a box's beads as a heat map over its
//! empty cells.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use super::{Cell, Havannah, Position};
use crate::game::Game;
use crate::view::board::BoardView;

impl Havannah {
    /// The board, one line per row, each cell drawn by `cell`.
    fn hex_lines(&self, cell: impl Fn(Cell, char) -> (String, Style)) -> Vec<Line<'static>> {
        let n = self.base().get() as usize;
        let dim = Style::new().fg(Color::DarkGray);
        (0..2 * n - 1)
            .map(|y| {
                let first = y.saturating_sub(n - 1);
                let last = (y + n - 1).min(2 * n - 2);
                let indent = 2 * first + n - 1 - y;
                let mut spans = vec![Span::styled(
                    format!("{} {}", (b'a' + y as u8) as char, " ".repeat(indent)),
                    dim,
                )];
                for x in first..=last {
                    let c = self.cell_at(x, y).expect("a row's cells are on the board");
                    let (text, style) = cell(c, ' ');
                    spans.push(Span::styled(text, style));
                    if x < last {
                        spans.push(Span::raw(" "));
                    }
                }
                spans.push(Span::styled(format!("  {}", first + 1), dim));
                Line::from(spans)
            })
            .collect()
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
        self.hex_lines(|c, _| {
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
        self.hex_lines(|c, _| match arrows.iter().find(|a| a.0 == c) {
            Some(&(_, _, n)) => crate::view::board::heat_cell(n, most),
            None => self.stone(pos, c),
        })
    }

    fn board_size(&self) -> (u16, u16) {
        let n = self.base().get() as u16;
        // Letter and space, indent plus cells (4n − 3 columns), a gap and the column number.
        (2 + 4 * n - 3 + 4, 2 * n - 1)
    }

    fn square_at(&self, col: u16, row: u16) -> Option<String> {
        let n = self.base().get() as u16;
        let y = row;
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

    fn legend(&self) -> &'static str {
        let _ = self.name();
        "W white, B black; numbers: beads"
    }
}
