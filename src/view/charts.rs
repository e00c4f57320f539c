//! The charts of the watch screen (the plots; their panels' words and the loss rate's line are
//! drawn every frame) drawn again only when they would look different. At flat out
//! the games grow every frame, but a chart moves by less than a braille dot for most of those
//! frames; drawing it (and, in a browser, changing the page's cells) costs more than the games. So
//! the last drawing is kept and copied into the next frames until the games played have grown
//! enough to move the picture by half a dot, or anything else it shows has changed.

use std::cell::RefCell;

use ratatui::buffer::{Buffer, Cell};
use ratatui::layout::Rect;

/// Above this many games the curves' axis of games is logarithmic: the first games, where the
/// learning is, keep their room.
pub const LOG_AFTER: u64 = 1000;

/// What a drawing of a chart stands for.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartKey {
    pub area: Rect,
    /// The run: its seed, and a point of its series that no later game changes (the 200th, or
    /// the last while there are fewer).
    pub seed: u64,
    pub fixed_point: Option<(f64, f64)>,
}

/// The watch screen's two charts as last drawn.
#[derive(Clone, Debug, Default)]
pub struct Charts {
    pub curve: ChartCache,
    pub first_box: ChartCache,
}

/// The point of a series that fixes which run it is: the 200th, or the last while there are
/// fewer (the first 200 games each have a point, and later games add points only after them).
pub fn fixed_point<T>(points: &[T]) -> Option<&T> {
    points.get(200).or(points.last())
}

/// The last drawing of a chart, with what it stands for.
#[derive(Debug, Default)]
pub struct ChartCache(RefCell<Option<Drawn>>);

#[derive(Debug)]
struct Drawn {
    key: ChartKey,
    games: u64,
    cells: Vec<Cell>,
}

/// A copy starts with nothing drawn.
impl Clone for ChartCache {
    fn clone(&self) -> Self {
        ChartCache::default()
    }
}

impl ChartCache {
    /// Copies the last drawing into `buf` if it still stands for `key` after `games` games;
    /// whether it did.
    pub fn reuse(&self, buf: &mut Buffer, key: &ChartKey, games: u64) -> bool {
        let drawn = self.0.borrow();
        let Some(d) = drawn.as_ref() else {
            return false;
        };
        if d.key != *key || !still(d.games, games, key.area.width) {
            return false;
        }
        for (p, cell) in key.area.positions().zip(&d.cells) {
            if let Some(c) = buf.cell_mut(p) {
                *c = cell.clone();
            }
        }
        true
    }

    /// Keeps the drawing now in `buf` over `key.area`, made after `games` games.
    pub fn keep(&self, buf: &Buffer, key: ChartKey, games: u64) {
        let cells = (key.area.positions())
            .map(|p| buf.cell(p).cloned().unwrap_or_default())
            .collect();
        *self.0.borrow_mut() = Some(Drawn { key, games, cells });
    }
}

/// Whether charts drawn after `drawn` games, `width` columns wide, still stand after `games`: the
/// axis of games the same kind, and the picture moved by less than half a dot (two dots a
/// column). On the linear axis the picture shrinks by `drawn / games`; on the logarithmic one by
/// `ln drawn / ln games`.
pub fn still(drawn: u64, games: u64, width: u16) -> bool {
    if games < drawn || (drawn <= LOG_AFTER) != (games <= LOG_AFTER) {
        return false;
    }
    let half_dots = 4.0 * f64::from(width.max(1));
    let (d, g) = (drawn.max(1) as f64, games as f64);
    if games <= LOG_AFTER {
        (g - d) * half_dots < d
    } else {
        (g / d).ln() * half_dots < d.ln()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chart_stands_until_it_would_move_half_a_dot() {
        // 60 columns: 240 half dots. Early on every game moves it.
        assert!(!still(10, 11, 60));
        assert!(still(10, 10, 60));
        assert!(!still(500, 503, 60));
        assert!(still(500, 502, 60));
        // Crossing to the log axis redraws; so does a reset.
        assert!(!still(1000, 1001, 60));
        assert!(!still(5000, 10, 60));
        // At a million games, about 5.9 % more.
        assert!(still(1_000_000, 1_050_000, 60));
        assert!(!still(1_000_000, 1_070_000, 60));
        // A narrower chart stands longer.
        assert!(still(1_000_000, 1_070_000, 30));
    }

    #[test]
    fn a_drawing_is_copied_back_only_for_the_same_key() {
        let area = Rect::new(1, 1, 3, 2);
        let key = ChartKey {
            area,
            seed: 7,
            fixed_point: Some((200.0, 12.0)),
        };
        let mut buf = Buffer::empty(Rect::new(0, 0, 5, 4));
        buf.set_string(1, 1, "abc", ratatui::style::Style::default());
        let cache = ChartCache::default();
        cache.keep(&buf, key.clone(), 2000);
        let mut other = Buffer::empty(Rect::new(0, 0, 5, 4));
        assert!(cache.reuse(&mut other, &key, 2010));
        assert_eq!(other.cell((2, 1)).map(Cell::symbol), Some("b"));
        assert_eq!(other.cell((0, 0)).map(Cell::symbol), Some(" "));
        let moved = ChartKey {
            seed: 8,
            ..key.clone()
        };
        assert!(!cache.reuse(&mut other, &moved, 2010));
        assert!(!cache.reuse(&mut other, &key, 100_000));
        assert!(!cache.clone().reuse(&mut other, &key, 2010));
    }
}
