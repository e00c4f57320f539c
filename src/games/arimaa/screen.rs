//! Arimaa on the terminal: piece letters (Gold upper case, Silver lower case), traps marked,
//! frozen pieces dimmed and underlined.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use super::mini::{MiniArimaa, Position};
use crate::view::board::BoardView;

impl MiniArimaa {
    /// Where a turn starts and ends: the first step's square, and where the piece that leaves it
    /// stands at the end of the turn.
    fn ends(&self, mv: <Self as crate::game::Game>::Move) -> Option<(u8, u8)> {
        let rules = self.rules();
        let steps = mv.steps();
        let from = steps.first()?.from;
        let mut at = from;
        for s in &steps {
            if s.from == at {
                at = rules.step_to(s.from, s.dir).unwrap_or(at);
            }
        }
        Some((from, at))
    }
}

impl BoardView for MiniArimaa {
    fn board_lines(&self, pos: &Position, marks: &[(Self::Move, Color)]) -> Vec<Line<'static>> {
        let rules = self.rules();
        let (w, h) = (rules.width(), rules.height());
        let mut lines = Vec::with_capacity(h as usize + 1);
        for r in (0..h).rev() {
            let mut spans = vec![Span::styled(
                format!("{} ", r + 1),
                Style::new().fg(Color::DarkGray),
            )];
            for f in 0..w {
                let sq = r * w + f;
                let trap = rules.traps() & (1 << sq) != 0;
                let (symbol, mut style) = match pos.board.at(sq) {
                    Some((side, kind)) => {
                        let colour = match side {
                            crate::game::Side::First => Color::Yellow,
                            crate::game::Side::Second => Color::Cyan,
                        };
                        let mut st = Style::new().fg(colour).add_modifier(Modifier::BOLD);
                        if rules.frozen(&pos.board, sq, side, kind) {
                            st = st
                                .remove_modifier(Modifier::BOLD)
                                .add_modifier(Modifier::DIM | Modifier::UNDERLINED);
                        }
                        (super::Rules::piece_letter(side, kind), st)
                    }
                    None if trap => ('x', Style::new().fg(Color::Red)),
                    None => ('·', Style::new().fg(Color::DarkGray)),
                };
                // A rabbit on its goal rank has won: in reverse video.
                if (symbol == 'R' && r + 1 == h) || (symbol == 'r' && r == 0) {
                    style = style.add_modifier(Modifier::REVERSED);
                }
                for &(mv, colour) in marks {
                    let ends = self.ends(mv);
                    if ends.map(|e| e.1) == Some(sq) {
                        style = style.bg(colour).fg(Color::Black);
                    } else if ends.is_some_and(|e| e.0 == sq) {
                        style = style.fg(colour).add_modifier(Modifier::UNDERLINED);
                    }
                }
                spans.push(Span::styled(symbol.to_string(), style));
                if f + 1 < w {
                    spans.push(Span::raw(" "));
                }
            }
            lines.push(Line::from(spans));
        }
        let files: Vec<String> = (0..w).map(|f| ((b'a' + f) as char).to_string()).collect();
        lines.push(Line::styled(
            format!("  {}", files.join(" ")),
            Style::new().fg(Color::DarkGray),
        ));
        lines
    }

    fn board_size(&self) -> (u16, u16) {
        let rules = self.rules();
        (2 + 2 * rules.width() as u16 - 1, rules.height() as u16 + 1)
    }

    fn square_at(&self, col: u16, row: u16) -> Option<String> {
        let rules = self.rules();
        let (w, h) = (rules.width() as u16, rules.height() as u16);
        let rank = h.checked_sub(row + 1)?;
        let file = crate::view::board::file_at(col, 2, w)?;
        Some(rules.square_name((rank * w + file) as u8))
    }

    fn move_ends(&self, mv: Self::Move) -> Option<(Option<String>, String)> {
        let rules = self.rules();
        let (from, to) = self.ends(mv)?;
        Some((Some(rules.square_name(from)), rules.square_name(to)))
    }

    fn legend(&self) -> &'static str {
        "D R gold dog, rabbit; d r silver; x trap; dim underlined: frozen"
    }
}
