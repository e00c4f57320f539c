//! How each game draws its board on the terminal. The rest of the screen is shared, so a new game
//! plugs in by implementing [`BoardView`] in its own folder (`src/games/<game>/screen.rs`).

use ratatui::style::Color;
use ratatui::text::Line;

use crate::learn::GameDefaults;
use crate::palette;

/// The colour of arrow `i` on the screen: the bead colour of [`crate::palette`], the same as on
/// the printed labels.
pub fn bead_colour(i: usize) -> Color {
    let (r, g, b) = palette::arrow(i).rgb;
    Color::Rgb(r, g, b)
}

/// A game's board on the terminal.
pub trait BoardView: GameDefaults {
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
