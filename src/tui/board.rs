//! How each game draws its board on the terminal. The rest of the screen is shared, so a new game
//! plugs in by implementing [`BoardView`].

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use crate::cli::setup::GameSetup;
use crate::game::hexapawn::{Cell, Hexapawn, Position};
use crate::game::tictactoe::{self, TicTacToe};

/// Bead colours, after Gardner's coloured beads: the Okabe–Ito palette, which stays apart for
/// colour-blind eyes, then a few more. Arrow `i` of a box has colour `i`.
pub const BEAD_COLOURS: [Color; 10] = [
    Color::Rgb(230, 159, 0),   // orange
    Color::Rgb(86, 180, 233),  // sky blue
    Color::Rgb(0, 158, 115),   // bluish green
    Color::Rgb(240, 228, 66),  // yellow
    Color::Rgb(204, 121, 167), // reddish purple
    Color::Rgb(213, 94, 0),    // vermilion
    Color::Rgb(0, 114, 178),   // blue
    Color::Rgb(170, 170, 170), // grey
    Color::Rgb(255, 255, 255), // white
    Color::Rgb(150, 90, 40),   // brown
];

/// The colour of arrow `i`.
pub fn bead_colour(i: usize) -> Color {
    BEAD_COLOURS[i % BEAD_COLOURS.len()]
}

/// A game's board on the terminal.
pub trait BoardView: GameSetup {
    /// The board, with coordinates. Each mark colours the squares of a move: its destination
    /// filled, its origin underlined.
    fn board_lines(
        &self,
        pos: &Self::Position,
        marks: &[(Self::Move, Color)],
    ) -> Vec<Line<'static>>;
    /// A box's diagram, given each arrow with its colour and beads. By default the board with the
    /// arrows marked; a game may draw the beads on the board instead.
    fn box_lines(
        &self,
        pos: &Self::Position,
        arrows: &[(Self::Move, Color, u32)],
    ) -> Vec<Line<'static>> {
        let marks: Vec<(Self::Move, Color)> = arrows.iter().map(|&(m, c, _)| (m, c)).collect();
        self.board_lines(pos, &marks)
    }
    /// Columns and rows [`BoardView::board_lines`] takes.
    fn board_size(&self) -> (u16, u16);
    /// What the pieces are, for the legend.
    fn legend(&self) -> &'static str;
}

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

    fn legend(&self) -> &'static str {
        "W white pawn, B black pawn"
    }
}

impl TicTacToe {
    fn lines_with(
        &self,
        pos: &tictactoe::Position,
        cell_style: impl Fn(tictactoe::Cell, char) -> (String, Style),
    ) -> Vec<Line<'static>> {
        let mut lines = Vec::with_capacity(4);
        for r in (0..3).rev() {
            let mut spans = vec![Span::styled(
                format!("{} ", r + 1),
                Style::new().fg(Color::DarkGray),
            )];
            for f in 0..3 {
                let cell = tictactoe::Cell::new(r, f).expect("on the board");
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
    fn board_lines(
        &self,
        pos: &tictactoe::Position,
        marks: &[(tictactoe::Move, Color)],
    ) -> Vec<Line<'static>> {
        self.lines_with(pos, |cell, mark| {
            let (text, mut style) = mark_style(mark);
            if let Some(&(_, colour)) = marks.iter().find(|(m, _)| m.0 == cell) {
                style = style.bg(colour).fg(Color::Black);
            }
            (text, style)
        })
    }

    /// MENACE's beads as a heat map over the empty cells: each arrow's cell shows its bead count,
    /// brighter for more beads.
    fn box_lines(
        &self,
        pos: &tictactoe::Position,
        arrows: &[(tictactoe::Move, Color, u32)],
    ) -> Vec<Line<'static>> {
        let most = arrows.iter().map(|a| a.2).max().unwrap_or(0).max(1);
        self.lines_with(pos, |cell, mark| {
            match arrows.iter().find(|a| a.0.0 == cell) {
                Some(&(_, _, n)) => {
                    let heat = (n as f32 / most as f32 * 4.0).ceil() as usize;
                    let bg = [
                        Color::Rgb(40, 40, 40),
                        Color::Rgb(90, 30, 30),
                        Color::Rgb(160, 50, 20),
                        Color::Rgb(220, 110, 0),
                        Color::Rgb(250, 200, 40),
                    ][heat.min(4)];
                    let text = if n > 9 {
                        "+".to_string()
                    } else {
                        n.to_string()
                    };
                    (
                        text,
                        Style::new()
                            .bg(bg)
                            .fg(Color::White)
                            .add_modifier(Modifier::BOLD),
                    )
                }
                None => mark_style(mark),
            }
        })
    }

    fn board_size(&self) -> (u16, u16) {
        (7, 4)
    }

    fn legend(&self) -> &'static str {
        "X crosses, O noughts; numbers: beads"
    }
}
