//! A screen's cells as pixels: each cell's background, its character in the embedded DejaVu font
//! (bold where the cell is bold), and the line and block characters the panels are built of drawn
//! as shapes, so that borders join from cell to cell.

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use ratatui::buffer::Buffer;
use ratatui::style::Modifier;

use crate::view::theme::Theme;

/// An RGB colour.
pub type Rgb = (u8, u8, u8);

/// Pixels, row after row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    pub width: usize,
    pub height: usize,
    pub pixels: Vec<Rgb>,
}

/// Draws screens of cells `cell_w` × `cell_h` pixels.
pub struct Raster<'f> {
    regular: FontRef<'f>,
    bold: FontRef<'f>,
    pub cell_w: usize,
    pub cell_h: usize,
    theme: Theme,
}

/// How much of a pixel a glyph covers, in four steps (so a frame holds few colours).
fn steps(coverage: f32) -> f32 {
    (coverage.clamp(0.0, 1.0) * 3.0).round() / 3.0
}

fn mix(bg: Rgb, fg: Rgb, a: f32) -> Rgb {
    let m = |b: u8, f: u8| (b as f32 + (f as f32 - b as f32) * a).round() as u8;
    (m(bg.0, fg.0), m(bg.1, fg.1), m(bg.2, fg.2))
}

impl<'f> Raster<'f> {
    /// A raster with cells of `cell_h` pixels (and a width of half that, as a terminal's).
    pub fn new(regular: &'f [u8], bold: &'f [u8], cell_h: usize, theme: Theme) -> Option<Self> {
        Some(Raster {
            regular: FontRef::try_from_slice(regular).ok()?,
            bold: FontRef::try_from_slice(bold).ok()?,
            cell_w: (cell_h / 2).max(4),
            cell_h: cell_h.max(8),
            theme,
        })
    }

    /// The screen `buf` as an image.
    pub fn draw(&self, buf: &Buffer) -> Image {
        let area = buf.area;
        let (w, h) = (
            area.width as usize * self.cell_w,
            area.height as usize * self.cell_h,
        );
        let mut img = Image {
            width: w,
            height: h,
            pixels: vec![(0, 0, 0); w * h],
        };
        for y in 0..area.height {
            for x in 0..area.width {
                let cell = &buf[(area.x + x, area.y + y)];
                let (mut fg, bg) = self.theme.shown(cell.fg, cell.bg, cell.modifier);
                if cell.modifier.contains(Modifier::DIM) {
                    fg = mix(bg, fg, 0.6);
                }
                let (px, py) = (x as usize * self.cell_w, y as usize * self.cell_h);
                self.fill(&mut img, px, py, self.cell_w, self.cell_h, bg);
                let ch = cell.symbol().chars().next().unwrap_or(' ');
                if ch != ' ' && !self.shape(&mut img, px, py, ch, fg) {
                    let bold = cell.modifier.contains(Modifier::BOLD);
                    self.glyph(&mut img, px, py, ch, fg, bg, bold);
                }
                if cell.modifier.contains(Modifier::UNDERLINED) {
                    self.fill(&mut img, px, py + self.cell_h - 2, self.cell_w, 1, fg);
                }
            }
        }
        img
    }

    fn fill(&self, img: &mut Image, x: usize, y: usize, w: usize, h: usize, c: Rgb) {
        for row in y..(y + h).min(img.height) {
            let start = row * img.width;
            for col in x..(x + w).min(img.width) {
                img.pixels[start + col] = c;
            }
        }
    }

    /// A character of the font, centred in its cell (squeezed where it is wider than a cell).
    #[allow(clippy::too_many_arguments)]
    fn glyph(&self, img: &mut Image, x: usize, y: usize, ch: char, fg: Rgb, bg: Rgb, bold: bool) {
        let font = if bold { &self.bold } else { &self.regular };
        let size = self.cell_h as f32 * 0.8;
        let scaled = font.as_scaled(PxScale::from(size));
        let id = font.glyph_id(ch);
        let advance = scaled.h_advance(id);
        let sx = if advance > self.cell_w as f32 {
            size * self.cell_w as f32 / advance
        } else {
            size
        };
        let scale = PxScale { x: sx, y: size };
        let left = (self.cell_w as f32 - advance.min(self.cell_w as f32)) / 2.0;
        let baseline = self.cell_h as f32 * 0.78;
        let glyph = id
            .with_scale_and_position(scale, ab_glyph::point(x as f32 + left, y as f32 + baseline));
        if let Some(outline) = font.outline_glyph(glyph) {
            let b = outline.px_bounds();
            outline.draw(|gx, gy, c| {
                let (px, py) = (b.min.x as i64 + gx as i64, b.min.y as i64 + gy as i64);
                let inside = px >= x as i64
                    && py >= y as i64
                    && (px as usize) < x + self.cell_w
                    && (py as usize) < y + self.cell_h;
                let a = steps(c);
                if inside && a > 0.0 {
                    let at = py as usize * img.width + px as usize;
                    img.pixels[at] = mix(bg, fg, a);
                }
            });
        }
    }

    /// Line, corner and block characters as shapes; `false` for any other character.
    fn shape(&self, img: &mut Image, x: usize, y: usize, ch: char, fg: Rgb) -> bool {
        let (w, h) = (self.cell_w, self.cell_h);
        let (cx, cy) = (x + w / 2, y + h / 2);
        let t = (h / 12).max(1);
        // (up, down, left, right) arms, and whether they are doubled or heavy.
        let arms = match ch {
            '─' | '━' | '═' => Some((false, false, true, true)),
            '│' | '┃' | '║' => Some((true, true, false, false)),
            '┌' | '╭' | '┏' | '╔' => Some((false, true, false, true)),
            '┐' | '╮' | '┓' | '╗' => Some((false, true, true, false)),
            '└' | '╰' | '┗' | '╚' => Some((true, false, false, true)),
            '┘' | '╯' | '┛' | '╝' => Some((true, false, true, false)),
            '├' | '┣' | '╠' => Some((true, true, false, true)),
            '┤' | '┫' | '╣' => Some((true, true, true, false)),
            '┬' | '┳' | '╦' => Some((false, true, true, true)),
            '┴' | '┻' | '╩' => Some((true, false, true, true)),
            '┼' | '╋' | '╬' => Some((true, true, true, true)),
            _ => None,
        };
        if let Some((up, down, left, right)) = arms {
            let t = if "━┃┏┓┗┛┣┫┳┻╋".contains(ch) {
                t * 2
            } else {
                t
            };
            if up {
                self.fill(img, cx - t / 2, y, t, h / 2 + t / 2 + 1, fg);
            }
            if down {
                self.fill(img, cx - t / 2, cy - t / 2, t, h - h / 2 + t / 2, fg);
            }
            if left {
                self.fill(img, x, cy - t / 2, w / 2 + t / 2 + 1, t, fg);
            }
            if right {
                self.fill(img, cx - t / 2, cy - t / 2, w - w / 2 + t / 2, t, fg);
            }
            return true;
        }
        match ch {
            '█' => self.fill(img, x, y, w, h, fg),
            '▀' => self.fill(img, x, y, w, h / 2, fg),
            '▌' => self.fill(img, x, y, w / 2, h, fg),
            '▐' => self.fill(img, x + w / 2, y, w - w / 2, h, fg),
            // Lower eighths: ▁ ▂ ▃ ▄ ▅ ▆ ▇.
            '▁'..='▇' => {
                let eighths = ch as usize - '▁' as usize + 1;
                let tall = h * eighths / 8;
                self.fill(img, x, y + h - tall, w, tall, fg);
            }
            // Braille: two columns of four dots.
            '\u{2801}'..='\u{28FF}' => {
                let bits = ch as u32 - 0x2800;
                let dots = [
                    (0, 0),
                    (0, 1),
                    (0, 2),
                    (1, 0),
                    (1, 1),
                    (1, 2),
                    (0, 3),
                    (1, 3),
                ];
                let (dw, dh) = ((w / 2).max(1), (h / 4).max(1));
                for (i, (col, row)) in dots.iter().enumerate() {
                    if bits & (1 << i) != 0 {
                        let size = dw.min(dh).max(2) - 1;
                        self.fill(img, x + col * dw, y + row * dh, size, size, fg);
                    }
                }
            }
            _ => return false,
        }
        true
    }
}
