//! One palette for the arrows of a matchbox, everywhere: the screen, the printed labels and the
//! charts. Arrow `k` of a box has the bead colour `arrow(k)` and the letter `letter(k)` wherever it
//! is shown, so a teacher who builds the boxes from the labels sees the same colours on the screen.
//!
//! The first eight colours are the Okabe–Ito palette, which stays apart for colour-blind eyes; two
//! more follow. After ten the colours repeat, but the letters do not (A … Z, then AA, AB, …), so a
//! label is never ambiguous, in colour or in greyscale.

/// A bead colour: its name (for the shopping list), its red, green and blue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Colour {
    pub name: &'static str,
    pub rgb: (u8, u8, u8),
}

impl Colour {
    /// `#RRGGBB`, for SVG.
    pub fn hex(self) -> String {
        let (r, g, b) = self.rgb;
        format!("#{r:02X}{g:02X}{b:02X}")
    }
}

const fn colour(name: &'static str, r: u8, g: u8, b: u8) -> Colour {
    Colour {
        name,
        rgb: (r, g, b),
    }
}

/// The bead colours, in arrow order.
pub const BEADS: [Colour; 10] = [
    colour("orange", 230, 159, 0),
    colour("sky blue", 86, 180, 233),
    colour("green", 0, 158, 115),
    colour("yellow", 240, 228, 66),
    colour("blue", 0, 114, 178),
    colour("vermilion", 213, 94, 0),
    colour("purple", 204, 121, 167),
    colour("grey", 153, 153, 153),
    colour("brown", 150, 90, 40),
    colour("pink", 255, 157, 167),
];

/// The bead colour of arrow `k` (from 0).
pub fn arrow(k: usize) -> Colour {
    BEADS[k % BEADS.len()]
}

/// The letter code of arrow `k` (from 0): A … Z, then AA, AB, ….
pub fn letter(k: usize) -> String {
    let mut k = k;
    let mut out = Vec::new();
    loop {
        out.push(b'A' + (k % 26) as u8);
        if k < 26 {
            break;
        }
        k = k / 26 - 1;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// Which bead colour an arrow gets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BeadColours {
    /// By the arrow's place in its box: the first arrow orange, the second sky blue, …
    #[default]
    ByArrow,
    /// By the cell the move goes to, the same colour for a cell in every box (Michie's MENACE:
    /// one colour per square). Moves that are not to one cell keep their arrow's colour.
    ByCell,
}

impl BeadColours {
    /// The colour number (for [`arrow`] and [`letter`]) of arrow `k` of a box, whose move goes
    /// to `cell`.
    pub fn index(self, k: usize, cell: Option<usize>) -> usize {
        match (self, cell) {
            (BeadColours::ByCell, Some(c)) => c,
            _ => k,
        }
    }
}

impl std::fmt::Display for BeadColours {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            BeadColours::ByArrow => "by-arrow",
            BeadColours::ByCell => "by-cell",
        })
    }
}

/// The colour of series `k` of a chart: the arrow colours, starting with the darkest, easiest to
/// read as a thin line on white.
pub fn series(k: usize) -> Colour {
    const ORDER: [usize; 7] = [4, 5, 2, 6, 0, 1, 7];
    BEADS[ORDER[k % ORDER.len()]]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_never_repeat() {
        let all: Vec<String> = (0..800).map(letter).collect();
        let set: std::collections::HashSet<&String> = all.iter().collect();
        assert_eq!(set.len(), all.len());
        assert_eq!(letter(0), "A");
        assert_eq!(letter(25), "Z");
        assert_eq!(letter(26), "AA");
        assert_eq!(letter(27), "AB");
    }
}
