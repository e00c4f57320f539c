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
    /// A box as a tile of the whole-machine view: as small as it reads, `drawn` the arrow whose
    /// bead was drawn last (marked red). By default the box's diagram and, under it, each arrow's
    /// beads in its colour.
    fn tile_lines(
        &self,
        pos: &Self::Position,
        arrows: &[(Self::Move, Color, u32)],
        drawn: Option<usize>,
    ) -> Vec<Line<'static>> {
        let mut lines = self.box_lines(pos, arrows);
        lines.push(count_line(arrows, drawn, self.tile_size().0 as usize));
        lines
    }
    /// Columns and rows [`BoardView::tile_lines`] takes.
    fn tile_size(&self) -> (u16, u16) {
        let (w, h) = self.board_size();
        (w.max(11), h + 1)
    }
    /// The name of the square drawn at column `col`, row `row` of [`BoardView::board_lines`]
    /// (`a1`, `d4`), if one is drawn there: where a click or a tap on the board lands.
    fn square_at(&self, col: u16, row: u16) -> Option<String>;
    /// The squares a move goes from (none for a stone or a mark placed) and to, by the names
    /// [`BoardView::square_at`] gives; `None` for a move with no square (Havannah's swap).
    fn move_ends(&self, mv: Self::Move) -> Option<(Option<String>, String)>;
    /// What the pieces are, for the legend.
    fn legend(&self) -> &'static str;
    /// How a box's diagram differs from the board when the symmetry `sym` takes one to the other:
    /// "mirrored", "turned 90°", ….
    fn image_word(&self, sym: crate::game::Sym) -> String {
        let _ = sym;
        "a symmetric image".into()
    }
    /// How the board is a box's drawing moved, where `sym` takes the board to the drawing, in
    /// words an operator at the real box follows: "turned 90° clockwise", "mirrored left to
    /// right". By default [`BoardView::image_word`] of the move back.
    fn turn_words(&self, sym: crate::game::Sym) -> String {
        self.image_word(self.inverse(sym))
    }
}

/// The words for a symmetry of a group of `turns` rotations followed by as many reflections
/// (index `k < turns`: turned `k` steps of `step` degrees; `k ≥ turns`: mirrored, then turned).
pub fn turn_or_mirror(sym: crate::game::Sym, turns: usize, step: u32) -> String {
    let k = sym.index();
    let (mirror, turn) = (k >= turns, (k % turns) as u32 * step);
    match (mirror, turn) {
        (false, 0) => "the same".into(),
        (false, t) => format!("turned {t}°"),
        (true, 0) => "mirrored".into(),
        (true, t) => format!("mirrored and turned {t}°"),
    }
}

/// One cell of a heat map of beads: the count (`+` for 10 or more) on a background from dark (few
/// beads) to bright (the most in the box), the digit dark on the bright shades so it always reads.
pub fn heat_cell(n: u32, most: u32) -> (String, ratatui::style::Style) {
    use ratatui::style::{Modifier, Style};
    const SHADES: [(Color, Color); 5] = [
        (Color::Rgb(40, 40, 40), Color::White),
        (Color::Rgb(90, 30, 30), Color::White),
        (Color::Rgb(160, 50, 20), Color::White),
        (Color::Rgb(220, 110, 0), Color::Black),
        (Color::Rgb(250, 200, 40), Color::Black),
    ];
    let heat = (n as f32 / most.max(1) as f32 * 4.0).ceil() as usize;
    let (bg, fg) = SHADES[heat.min(4)];
    let text = if n > 9 { "+".into() } else { n.to_string() };
    (
        text,
        Style::new().bg(bg).fg(fg).add_modifier(Modifier::BOLD),
    )
}

/// Each arrow's beads in its colour, a space between, the drawn one on red; cut to `width`.
pub fn count_line<M>(
    arrows: &[(M, Color, u32)],
    drawn: Option<usize>,
    width: usize,
) -> Line<'static> {
    use ratatui::style::{Modifier, Style};
    use ratatui::text::Span;
    let mut spans = Vec::new();
    let mut used = 0;
    for (i, &(_, colour, n)) in arrows.iter().enumerate() {
        let text = n.to_string();
        let gap = usize::from(i > 0);
        if used + gap + text.len() > width {
            break;
        }
        if gap > 0 {
            spans.push(Span::raw(" "));
        }
        used += gap + text.len();
        let style = match drawn == Some(i) {
            true => Style::new().bg(Color::Red).fg(Color::White),
            false => Style::new().fg(colour),
        };
        spans.push(Span::styled(text, style.add_modifier(Modifier::BOLD)));
    }
    Line::from(spans)
}

/// A heat cell two columns wide for a tile: the count right-aligned (`++` for 100 or more) on a
/// shade by its share of the box's `total` beads (a box of even chances stays dark, a box that
/// has learned lights up its move), the drawn bead's cell on red.
pub fn tile_cell(n: u32, total: u32, drawn: bool) -> (String, ratatui::style::Style) {
    use ratatui::style::{Modifier, Style};
    let (_, style) = heat_cell(n, total);
    let text = if n > 99 {
        "++".into()
    } else {
        format!("{n:>2}")
    };
    match drawn {
        true => (
            text,
            Style::new()
                .bg(Color::Red)
                .fg(Color::White)
                .add_modifier(Modifier::BOLD),
        ),
        false => (text, style),
    }
}

/// The square at column `col` of a row drawn as a label of `prefix` columns, then one character
/// a square with a space between: its file (from 0) among `files`.
pub fn file_at(col: u16, prefix: u16, files: u16) -> Option<u16> {
    let x = col.checked_sub(prefix)?;
    (x % 2 == 0 && x / 2 < files).then_some(x / 2)
}
