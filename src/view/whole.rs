//! The whole machine on one screen: every box as a small tile (its board with the beads in its
//! cells, or its arrows' beads beside it), grouped by move, as many as the screen holds; paging
//! for the rest. Where each tile goes is a pure function of the screen's size, the tile's size
//! and the machine's groups, shared by the drawing, the paging keys and the clicks.

use std::ops::Range;

use super::board::BoardView;

/// Machines with more boxes than this are paged by number only: grouping them by move would
/// read every box for every snapshot.
pub const GROUP_AT_MOST: usize = 1_000_000;

/// Boxes of consecutive numbers that share a move number (`None`: the boxes of a machine made on
/// first visit, numbered in the order they were made).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub move_number: Option<u16>,
    pub boxes: Range<usize>,
}

/// The groups of a machine whose box `i` has move number `move_of(i)`: runs of equal move
/// numbers when the boxes are in move order, else one group of all of them.
pub fn groups(total: usize, move_of: impl Fn(usize) -> u16) -> Vec<Group> {
    let mut out: Vec<Group> = Vec::new();
    if total > GROUP_AT_MOST {
        return vec![Group {
            move_number: None,
            boxes: 0..total,
        }];
    }
    for i in 0..total {
        let m = move_of(i);
        match out.last_mut() {
            Some(g) if g.move_number == Some(m) => g.boxes.end = i + 1,
            Some(g) if g.move_number.is_some_and(|last| last > m) => {
                // Not in move order (boxes made on first visit): no groups by move.
                return vec![Group {
                    move_number: None,
                    boxes: 0..total,
                }];
            }
            _ => out.push(Group {
                move_number: Some(m),
                boxes: i..i + 1,
            }),
        }
    }
    out
}

/// At most this many boxes are copied out for a page (more than any screen holds).
pub const PAGE_MAX: usize = 2048;

/// One row of a page: a group's heading, or a row of tiles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Row {
    /// The heading of group `group`; `continued` when the page starts within it.
    Heading {
        group: usize,
        continued: bool,
    },
    Tiles(Range<usize>),
}

/// The columns and rows a page's tiles get on a screen of `screen` cells: all but the title, the
/// page's heading and the key line, a column free at each side.
pub fn body(screen: (u16, u16)) -> (u16, u16) {
    (screen.0.saturating_sub(2), screen.1.saturating_sub(3))
}

/// The page the whole-machine view `whole` shows on a screen of `screen` cells, if it is open.
pub fn page_of<G: BoardView>(
    game: &G,
    groups: &[Group],
    whole: Option<&Whole>,
    screen: (u16, u16),
) -> Option<Page> {
    let w = whole?;
    let (width, height) = body(screen);
    Some(page(width, height, game.tile_size(), groups, w.first))
}

/// Where the tiles of a page go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Page {
    pub rows: Vec<Row>,
    /// The tiles of a row and their pitch (the tile's width and a column between).
    pub per_row: usize,
    pub pitch: u16,
    /// The lines a row of tiles takes: the tile and its number under it.
    pub tile_rows: u16,
    /// The first box after this page (the machine's size on the last page).
    pub end: usize,
}

/// The page of a screen area of `width`×`height` that starts at box `first`, for tiles of
/// `tile` (columns, rows) and the machine's `groups`. A page always holds at least one row of
/// tiles, however small the area.
pub fn page(width: u16, height: u16, tile: (u16, u16), groups: &[Group], first: usize) -> Page {
    let pitch = tile.0 + 1;
    let per_row = ((width + 1) / pitch).max(1) as usize;
    let tile_rows = tile.1 + 1;
    let mut rows = Vec::new();
    let mut used = 0u16;
    let mut at = first;
    let total = groups.last().map_or(0, |g| g.boxes.end);
    let mut g = groups.iter().position(|g| g.boxes.contains(&first));
    while let Some(gi) = g {
        let group = &groups[gi];
        // A heading only with a row of tiles under it.
        if used > 0 && used + 1 + tile_rows > height {
            break;
        }
        rows.push(Row::Heading {
            group: gi,
            continued: at > group.boxes.start,
        });
        used += 1;
        while at < group.boxes.end && (used + tile_rows <= height || rows.len() == 1) {
            let end = (at + per_row).min(group.boxes.end);
            rows.push(Row::Tiles(at..end));
            used += tile_rows;
            at = end;
        }
        if at < group.boxes.end {
            break;
        }
        g = (gi + 1 < groups.len()).then_some(gi + 1);
    }
    Page {
        rows,
        per_row,
        pitch,
        tile_rows,
        end: at.min(total).max(first.min(total)),
    }
}

impl Page {
    /// The box whose tile (or its number) is at column `x`, row `y` from the page's top left.
    pub fn box_at(&self, x: u16, y: u16) -> Option<usize> {
        let mut top = 0u16;
        for row in &self.rows {
            let h = match row {
                Row::Heading { .. } => 1,
                Row::Tiles(_) => self.tile_rows,
            };
            if y < top + h {
                let Row::Tiles(boxes) = row else {
                    return None;
                };
                let i = (x / self.pitch) as usize;
                // The column between tiles is no tile's.
                return (x % self.pitch + 1 < self.pitch && i < boxes.len())
                    .then(|| boxes.start + i);
            }
            top += h;
        }
        None
    }
}

/// The whole-machine view's place in the machine: the first box of the page shown, and the
/// pages before it (so `PgUp` goes back where `PgDn` came from).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Whole {
    pub first: usize,
    pub back: Vec<usize>,
}

impl Whole {
    /// The next page, when `end` (where this one ends) is not the machine's end.
    pub fn next(&mut self, end: usize, total: usize) -> bool {
        if end >= total || end <= self.first {
            return false;
        }
        self.back.push(self.first);
        self.first = end;
        true
    }
    /// The page before, if any.
    pub fn previous(&mut self) -> bool {
        match self.back.pop() {
            Some(b) => {
                self.first = b;
                true
            }
            None => false,
        }
    }
    /// The boxes a page from here may show, for the snapshot to copy out.
    pub fn window(&self, total: usize) -> Range<usize> {
        self.first.min(total)..(self.first + PAGE_MAX).min(total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn menace_groups() -> Vec<Group> {
        // MENACE's 304 boxes: 1 for move 1, 12 for move 3, 108 for move 5, 183 for move 7.
        let sizes = [(1, 1), (3, 12), (5, 108), (7, 183)];
        let mut start = 0;
        sizes
            .iter()
            .map(|&(m, n)| {
                let g = Group {
                    move_number: Some(m),
                    boxes: start..start + n,
                };
                start += n;
                g
            })
            .collect()
    }

    #[test]
    fn runs_of_move_numbers_are_the_groups() {
        let moves = [1, 3, 3, 5, 5, 5];
        let g = groups(6, |i| moves[i]);
        assert_eq!(g.len(), 3);
        assert_eq!(g[2].boxes, 3..6);
        // Out of order: one group.
        let lazy = [1, 3, 1, 5];
        assert_eq!(groups(4, |i| lazy[i])[0].move_number, None);
    }

    #[test]
    fn all_of_menace_fits_a_240x67_screen() {
        // Tiles of 8×3 and their numbers: 26 a row, 15 rows and 4 headings in 64 lines.
        let p = page(238, 64, (8, 3), &menace_groups(), 0);
        assert_eq!(p.end, 304);
        assert_eq!(p.per_row, 26);
        // The same boxes on an 80×24 screen take pages, each going on where the last ended.
        let mut whole = Whole::default();
        let mut seen = 0;
        loop {
            let p = page(78, 20, (8, 3), &menace_groups(), whole.first);
            let tiles: usize = (p.rows.iter())
                .map(|r| match r {
                    Row::Tiles(b) => b.len(),
                    Row::Heading { .. } => 0,
                })
                .sum();
            assert_eq!(tiles, p.end - whole.first);
            seen += tiles;
            if !whole.next(p.end, 304) {
                break;
            }
        }
        assert_eq!(seen, 304);
        assert!(whole.previous());
    }

    #[test]
    fn a_click_finds_the_tile_under_it() {
        let p = page(238, 64, (8, 3), &menace_groups(), 0);
        // Heading "move 1", box 1's tile, heading "move 3", boxes 2–13.
        assert_eq!(p.box_at(0, 0), None);
        assert_eq!(p.box_at(3, 1), Some(0));
        assert_eq!(p.box_at(8, 1), None, "the column between tiles");
        assert_eq!(p.box_at(9, 6), Some(2));
        assert_eq!(p.box_at(200, 1), None);
    }

    #[test]
    fn a_tiny_area_still_shows_a_row() {
        let p = page(5, 2, (8, 3), &menace_groups(), 13);
        assert!(p.end > 13);
    }
}
