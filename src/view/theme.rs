//! Themes: the screens are drawn once, in the dark theme's colours, and a theme then restyles the
//! finished frame. So every panel and every game's board follow the theme without knowing of it.
//!
//! - `dark` (the default): light text on the terminal's own (dark) background.
//! - `light`: dark text on a white background that matchbox paints itself, so it reads the same on
//!   a light terminal, a dark one and a projector. Bead colours stay the bead colours (they are the
//!   beads in the boxes); as text on white they are darkened until they read.

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};

/// A screen theme.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    #[default]
    Dark,
    Light,
}

/// The title bar's background in the dark theme.
pub const TITLE_BG: Color = Color::Rgb(30, 30, 46);

/// The white the light theme paints.
const PAPER: (u8, u8, u8) = (255, 255, 255);

impl Theme {
    /// The theme by name: `dark` or `light`.
    pub fn parse(name: &str) -> Option<Theme> {
        match name.to_ascii_lowercase().as_str() {
            "dark" => Some(Theme::Dark),
            "light" => Some(Theme::Light),
            _ => None,
        }
    }

    /// Restyles a frame drawn in the dark theme's colours.
    pub fn apply(self, buf: &mut Buffer) {
        if self == Theme::Dark {
            return;
        }
        for cell in buf.content.iter_mut() {
            let bg = match cell.bg {
                Color::Reset => Color::Rgb(PAPER.0, PAPER.1, PAPER.2),
                TITLE_BG => Color::Rgb(222, 226, 240),
                other => other,
            };
            cell.bg = bg;
            // Only text on a light background changes: on a bead or a dark heat-map cell the
            // dark theme's text already reads.
            if luminance(rgb(bg, false)) > 0.4 {
                cell.fg = on_paper(cell.fg, bg);
            }
        }
    }

    /// Reverse video written out as explicit colours, for a renderer that does not draw it (the
    /// browser page drew a reversed cell of default colours as white on white). Call after
    /// [`Theme::apply`].
    pub fn explicit_reverse(self, buf: &mut Buffer) {
        for cell in buf.content.iter_mut() {
            if cell.modifier.contains(Modifier::REVERSED) {
                let ((fr, fg, fb), (br, bg, bb)) = self.shown(cell.fg, cell.bg, cell.modifier);
                cell.fg = Color::Rgb(fr, fg, fb);
                cell.bg = Color::Rgb(br, bg, bb);
                cell.modifier.remove(Modifier::REVERSED);
            }
        }
    }

    /// What the terminal shows for a cell: its foreground and background as RGB (the terminal's
    /// own colours taken as xterm's defaults, reverse video applied).
    pub fn shown(self, fg: Color, bg: Color, modifier: Modifier) -> ((u8, u8, u8), (u8, u8, u8)) {
        let (f, b) = (rgb(fg, true), rgb(bg, false));
        if modifier.contains(Modifier::REVERSED) {
            (b, f)
        } else {
            (f, b)
        }
    }
}

/// A text colour that reads on the light background `bg`.
fn on_paper(fg: Color, bg: Color) -> Color {
    let dark = match fg {
        Color::Reset | Color::White | Color::Gray | Color::LightYellow => Color::Rgb(20, 20, 20),
        Color::DarkGray => Color::Rgb(95, 95, 95),
        Color::Yellow => Color::Rgb(140, 90, 0),
        Color::Cyan | Color::LightCyan => Color::Rgb(0, 95, 150),
        Color::Green | Color::LightGreen => Color::Rgb(0, 120, 50),
        Color::Red | Color::LightRed => Color::Rgb(190, 20, 20),
        Color::Blue | Color::LightBlue => Color::Rgb(0, 70, 170),
        Color::Magenta | Color::LightMagenta => Color::Rgb(150, 0, 120),
        other => other,
    };
    // Darken what is still too pale (a yellow bead's colour as text) until it reads.
    let back = rgb(bg, false);
    let (mut r, mut g, mut b) = rgb(dark, true);
    for _ in 0..12 {
        if contrast((r, g, b), back) >= 4.5 {
            break;
        }
        (r, g, b) = (
            (r as f32 * 0.85) as u8,
            (g as f32 * 0.85) as u8,
            (b as f32 * 0.85) as u8,
        );
    }
    match dark {
        Color::Rgb(..) | Color::Reset | Color::White => Color::Rgb(r, g, b),
        other if contrast(rgb(other, true), back) >= 4.5 => other,
        _ => Color::Rgb(r, g, b),
    }
}

/// A colour as RGB, named colours as xterm draws them; `Reset` is the terminal's default
/// foreground (light grey) or background (black).
pub fn rgb(c: Color, foreground: bool) -> (u8, u8, u8) {
    match c {
        Color::Rgb(r, g, b) => (r, g, b),
        Color::Reset if foreground => (229, 229, 229),
        Color::Reset | Color::Black => (0, 0, 0),
        Color::Red => (205, 0, 0),
        Color::Green => (0, 205, 0),
        Color::Yellow => (205, 205, 0),
        Color::Blue => (0, 0, 238),
        Color::Magenta => (205, 0, 205),
        Color::Cyan => (0, 205, 205),
        Color::Gray => (229, 229, 229),
        Color::DarkGray => (127, 127, 127),
        Color::LightRed => (255, 0, 0),
        Color::LightGreen => (0, 255, 0),
        Color::LightYellow => (255, 255, 0),
        Color::LightBlue => (92, 92, 255),
        Color::LightMagenta => (255, 0, 255),
        Color::LightCyan => (0, 255, 255),
        Color::White => (255, 255, 255),
        Color::Indexed(_) => (229, 229, 229),
    }
}

/// Relative luminance (WCAG).
pub fn luminance((r, g, b): (u8, u8, u8)) -> f32 {
    let lin = |c: u8| {
        let c = c as f32 / 255.0;
        if c <= 0.03928 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
}

/// Contrast ratio of two colours (WCAG): 1 to 21.
pub fn contrast(a: (u8, u8, u8), b: (u8, u8, u8)) -> f32 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn light_text_turns_dark_on_paper() {
        let paper = Color::Rgb(255, 255, 255);
        for c in [
            Color::White,
            Color::Yellow,
            Color::DarkGray,
            Color::Rgb(240, 228, 66),
        ] {
            let f = on_paper(c, paper);
            assert!(
                contrast(rgb(f, true), PAPER) >= 4.5,
                "{c:?} became {f:?}, still pale"
            );
        }
    }

    #[test]
    fn contrast_of_black_on_white_is_21() {
        assert!((contrast((0, 0, 0), (255, 255, 255)) - 21.0).abs() < 0.01);
    }
}
