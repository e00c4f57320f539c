//! Drawing: pure functions from screen state to a frame.

mod board;
mod boxes;
mod curve;
mod help;
mod machine;
mod operate;
mod play;
mod pole;
mod score;
mod watch;
mod whole;

pub use board::board_panel;
pub use boxes::box_panel;
pub use curve::{LOG_AFTER, curve_panel, first_box_panel};
pub use help::{help, keys_overlay, legend_lines};
pub use machine::{MachineView, machine_panel};
pub use operate::{operate, operate_click, operate_room};
pub use play::{play, play_click};
pub use pole::{POLE_MIN, POLE_TALL, pole};
pub use score::{score_panel, score_rows};
pub use watch::{watch, watch_click};

use ratatui::Frame;
use ratatui::layout::{Alignment, Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Axis, Block, BorderType, Chart, Clear, Dataset, GraphType, Paragraph, Sparkline, Wrap,
};

use std::collections::HashMap;

use super::board::BoardView;
use super::theme::TITLE_BG;
use crate::learn::GameResult;
use crate::palette::BeadColours;
use crate::players::Opponent;
use crate::text::signed_rate;
pub use crate::text::{group, rate, short_count};
use crate::view::app::{SnapBoxes, Snapshot, WatchApp};
use crate::view::key::{BarFor, Front, Mode, key_bars, key_table};
use crate::view::session::Curve;

/// Which screen is drawn: under the board, `watch` shows the open box (a diagram as tall as the
/// board), `play` the score (eight rows).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScreenKind {
    Watch,
    Play,
}

/// Rows of the panel under the board: at the least, and with room for all it shows.
pub(super) fn under_board_rows(kind: ScreenKind, board_rows: u16) -> (u16, u16) {
    match kind {
        ScreenKind::Watch => (board_rows + 3, board_rows + 7),
        ScreenKind::Play => (8, 8),
    }
}

/// The smallest terminal a screen fits in (taller for big boards). The board's panel is the
/// board, its moves and the game's state; on a short terminal it keeps only the board and the
/// state, and the panel under it what fits.
pub fn min_size<G: BoardView>(game: &G, kind: ScreenKind) -> (u16, u16) {
    let (w, h) = game.board_size();
    let (under, _) = under_board_rows(kind, h);
    // The board's column holds the board, indented, between borders; beside it the machine (24
    // columns) and the score (28).
    (80.max(w + 3 + MIDDLE + RIGHT), 24.max(2 + h + 3 + under))
}

/// Widths of the middle column (the machine, or the moves to choose from) and the least of the
/// right one (the score, or the box).
pub(super) const MIDDLE: u16 = 24;
pub(super) const RIGHT: u16 = 28;

pub(super) const DIM: Style = Style::new().fg(Color::DarkGray);
pub(super) const BOLD: Style = Style::new().add_modifier(Modifier::BOLD);

pub(super) fn panel(title: String) -> Block<'static> {
    Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(DIM)
        .title(Span::styled(title, BOLD))
}

/// "enlarge the terminal" instead of a broken layout.
pub fn too_small(f: &mut Frame, need: (u16, u16)) {
    let area = f.area();
    let text = vec![
        Line::styled(
            format!("enlarge the terminal to at least {}×{}", need.0, need.1),
            BOLD.fg(Color::Yellow),
        ),
        Line::styled(
            format!("(it is {}×{}; q quits)", area.width, area.height),
            DIM,
        ),
    ];
    // A narrow pane (a split in tmux, a phone's terminal) wraps the words rather than cut them:
    // centred on the rows they take unwrapped-by-width, with every row below free for more.
    let rows = (text.iter())
        .map(|l| (l.width() as u16).div_ceil(area.width.max(1)).max(1))
        .sum::<u16>();
    let y = area.height.saturating_sub(rows) / 2;
    let r = Rect::new(area.x, area.y + y, area.width, area.height - y);
    let words = Paragraph::new(text).alignment(Alignment::Center);
    f.render_widget(words.wrap(Wrap { trim: true }), r);
}

/// The screen while a big machine is built: what, the step under way, the time so far.
pub fn preparing(f: &mut Frame, what: &str, stage: &str, secs: u64, tick: usize) {
    const SPIN: [char; 4] = ['◐', '◓', '◑', '◒'];
    let area = f.area();
    let lines = vec![
        Line::styled(format!("{} preparing {what}", SPIN[tick % 4]), BOLD),
        Line::raw(""),
        Line::styled(format!("{stage} … {secs} s"), Style::new().fg(Color::Cyan)),
        Line::raw(""),
        Line::styled("q stops", DIM),
    ];
    let y = area.height.saturating_sub(5) / 2;
    let r = Rect::new(area.x, area.y + y, area.width, area.height.min(5));
    f.render_widget(Paragraph::new(lines).alignment(Alignment::Center), r);
}

pub(super) fn result_word(r: GameResult) -> &'static str {
    match r {
        GameResult::Win => "won",
        GameResult::Draw => "drew",
        GameResult::Loss => "lost",
    }
}

pub(super) fn indent(lines: Vec<Line<'static>>) -> Vec<Line<'static>> {
    lines
        .into_iter()
        .map(|mut l| {
            l.spans.insert(0, Span::raw(" "));
            l
        })
        .collect()
}

/// Dots for a bead count, at most `max` of them (then a number).
pub(super) fn dots(n: u32, max: usize) -> String {
    if n as usize <= max {
        "●".repeat(n as usize)
    } else {
        format!("●×{n}")
    }
}

/// The areas both screens share: title line, three columns (the first split into the board and
/// what goes under it), key line. `None` (with the "enlarge" message drawn) when the terminal is too
/// small.
pub(super) struct Screen {
    title: Rect,
    board: Rect,
    under_board: Rect,
    middle: Rect,
    right: Rect,
    keys: Rect,
}

pub(super) fn screen<G: BoardView>(f: &mut Frame, game: &G, kind: ScreenKind) -> Option<Screen> {
    let layout = layout(f.area(), game, kind);
    if layout.is_none() {
        too_small(f, min_size(game, kind));
    }
    layout
}

/// Where each panel of a screen of `area` goes (`None`: the area is too small for it).
pub(super) fn layout<G: BoardView>(area: Rect, game: &G, kind: ScreenKind) -> Option<Screen> {
    let need = min_size(game, kind);
    if area.width < need.0 || area.height < need.1 {
        return tall_layout(area, game, kind);
    }
    let [title, body, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(area);
    let (bw, bh) = game.board_size();
    // The board and box column widens with the terminal (a box's chances need the room).
    let left = (bw + 20)
        .max(31)
        .max(area.width * 3 / 10)
        .min(area.width - MIDDLE - RIGHT);
    let [a, middle, right] = Layout::horizontal([
        Constraint::Length(left),
        Constraint::Length(MIDDLE),
        Constraint::Min(RIGHT),
    ])
    .areas(body);
    // The board's panel in full (its moves too) where the panel under it still has room for
    // all it shows; else only the board and the game's state.
    let (_, under_full) = under_board_rows(kind, bh);
    let board_rows = if a.height >= bh + 5 + under_full {
        bh + 5
    } else {
        bh + 3
    };
    let [board, under_board] =
        Layout::vertical([Constraint::Length(board_rows), Constraint::Min(0)]).areas(a);
    Some(Screen {
        title,
        board,
        under_board,
        middle,
        right,
        keys,
    })
}

/// The panels one above the other, for a screen narrower than the columns need but tall (a
/// phone held upright): title, board, what goes under it, the middle panel, the right one, keys.
fn tall_layout<G: BoardView>(area: Rect, game: &G, kind: ScreenKind) -> Option<Screen> {
    let need = tall_min_size(game, kind);
    if area.width < need.0 || area.height < need.1 {
        return None;
    }
    let (_, bh) = game.board_size();
    let (_, under) = under_board_rows(kind, bh);
    let rest = area.height - 2 - (bh + 5) - under;
    // Watching, the machine's panel takes what its boxes need at most; the score and the curve
    // under it the rest.
    let middle = match kind {
        ScreenKind::Watch => (rest * 2 / 5).min(TALL_PANEL),
        ScreenKind::Play => rest * 2 / 5,
    };
    let [title, board, under_board, middle, right, keys] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(bh + 5),
        Constraint::Length(under),
        Constraint::Length(middle),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(area);
    Some(Screen {
        title,
        board,
        under_board,
        middle,
        right,
        keys,
    })
}

/// The least a screen of panels one above the other needs: the widest of the board and the
/// side panels, the board's panel in full, the panel under it, and room for the other two.
pub fn tall_min_size<G: BoardView>(game: &G, kind: ScreenKind) -> (u16, u16) {
    let (w, h) = game.board_size();
    let (_, under) = under_board_rows(kind, h);
    ((w + 4).max(RIGHT + 12), 2 + h + 5 + under + 2 * TALL_PANEL)
}

/// The least rows of each of the two lower panels of a tall screen.
const TALL_PANEL: u16 = 10;

/// As many of the parts as fit in `width`, in order.
pub(super) fn fit(parts: &[String], width: usize) -> String {
    let mut out = String::new();
    for p in parts {
        if out.chars().count() + p.chars().count() > width {
            if out.is_empty() {
                // Not even the first part fits: as much of it as does, cut with an ellipsis.
                out = p.chars().take(width.saturating_sub(1)).collect();
                out.push('…');
            }
            break;
        }
        out.push_str(p);
    }
    out
}

/// Splits text into lines of at most `width` characters at spaces.
pub(super) fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut out = vec![String::new()];
    for word in text.split(' ') {
        let last = out.last_mut().expect("never empty");
        if !last.is_empty() && last.chars().count() + 1 + word.chars().count() > width.max(8) {
            out.push(word.to_string());
        } else {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(word);
        }
    }
    out
}

/// Which of `len` list entries to show in `rows` rows so that entry `cursor` is in view: the
/// range `start..end`, with a row kept for "↑ more" when `start > 0` and one for "↓ more" when
/// `end < len`.
pub(super) fn list_window(len: usize, cursor: usize, rows: usize) -> (usize, usize) {
    if len <= rows {
        return (0, len);
    }
    let cursor = cursor.min(len.saturating_sub(1));
    // Room for the entries when both marks are shown; at least the cursor's entry.
    let shown = rows.saturating_sub(2).max(1);
    let mut start = cursor.saturating_sub(shown / 2);
    if start == 1 {
        // "↑ 1 more" takes the row the first entry would: show it instead.
        start = 0;
    }
    if start == 0 {
        // No "↑" mark: one row more for entries.
        let end = (rows.saturating_sub(1)).max(cursor + 1).min(len);
        return (0, end);
    }
    let end = (start + shown).min(len);
    if end == len {
        // No "↓" mark: the window ends at the last entry, one row more above.
        let start = len
            .saturating_sub(rows.saturating_sub(1).max(1))
            .min(cursor);
        return (start, len);
    }
    (start, end)
}

/// The first text that fits in `width` characters (else the last, cut).
pub(super) fn first_fit(options: &[String], width: usize) -> String {
    options
        .iter()
        .find(|o| o.chars().count() <= width)
        .cloned()
        .unwrap_or_else(|| {
            options
                .last()
                .map(|o| o.chars().take(width).collect())
                .unwrap_or_default()
        })
}

/// A drawn screen as text: each row's symbols, trailing spaces trimmed, a line a row.
pub fn buffer_text(buf: &ratatui::buffer::Buffer) -> String {
    let (w, h) = (buf.area.width, buf.area.height);
    let mut out = String::new();
    for y in 0..h {
        let row: String = (0..w).map(|x| buf[(x, y)].symbol()).collect();
        out.push_str(row.trim_end());
        out.push('\n');
    }
    out
}

/// A screen as HTML for a page to show (the operator's screen on a room's projector): one
/// `<div>` a row, each run of cells of one style a `<span>` with its colours (the theme's RGB of
/// a terminal's colours) and boldness; the text escaped.
pub fn buffer_html(buf: &ratatui::buffer::Buffer) -> String {
    use std::fmt::Write;
    let hex = |(r, g, b): (u8, u8, u8)| format!("#{r:02x}{g:02x}{b:02x}");
    let mut out = String::new();
    for y in 0..buf.area.height {
        out.push_str("<div>");
        let mut x = 0;
        while x < buf.area.width {
            let first = &buf[(x, y)];
            let (fg, bg, bold) = (first.fg, first.bg, first.modifier.contains(Modifier::BOLD));
            let mut text = String::new();
            while x < buf.area.width {
                let c = &buf[(x, y)];
                let same = c.fg == fg && c.bg == bg;
                if !same || c.modifier.contains(Modifier::BOLD) != bold {
                    break;
                }
                for ch in c.symbol().chars() {
                    match ch {
                        '<' => text.push_str("&lt;"),
                        '>' => text.push_str("&gt;"),
                        '&' => text.push_str("&amp;"),
                        ch => text.push(ch),
                    }
                }
                x += 1;
            }
            let fg = hex(super::theme::rgb(fg, true));
            let bg = hex(super::theme::rgb(bg, false));
            let weight = if bold { ";font-weight:bold" } else { "" };
            let _ = write!(
                out,
                "<span style=\"color:{fg};background:{bg}{weight}\">{text}</span>"
            );
        }
        out.push_str("</div>");
    }
    out
}

/// The widest of a screen's key bars that fits `width` columns (the narrowest where none does).
pub(super) fn fitting_bar(mode: Mode, front: Front, at: &BarFor, width: u16) -> String {
    let bars = key_bars(mode, front, at);
    (bars.iter())
        .find(|b| b.chars().count() <= width as usize)
        .or(bars.last())
        .cloned()
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::{fit, list_window, rate, short_count};

    #[test]
    fn counts_and_rates_are_written_short_in_the_unit_they_round_to() {
        let counts = [
            (9_999, "9,999"),
            (10_000, "10.0k"),
            (999_949, "999.9k"),
            (999_999, "1.0M"),
            (158_098_684, "158.1M"),
            (4_200_000_000, "4.2G"),
        ];
        for (n, text) in counts {
            assert_eq!(short_count(n), text, "{n}");
        }
        let rates = [
            (3.25, "3.2"),
            (12.4, "12"),
            (999.6, "1.0k"),
            (31_912_345.0, "31.9M"),
        ];
        for (r, text) in rates {
            assert_eq!(rate(r), text, "{r}");
        }
    }

    #[test]
    fn a_long_list_keeps_its_cursor_in_view_with_marks_that_fit() {
        for len in 0..40 {
            for rows in 3..25 {
                for cursor in 0..len.max(1) {
                    let (start, end) = list_window(len, cursor, rows);
                    let used = (end - start) + usize::from(start > 0) + usize::from(end < len);
                    assert!(used <= rows, "{len} {rows} {cursor}: {start}..{end}");
                    if len > 0 {
                        assert!((start..end).contains(&cursor), "{len} {rows} {cursor}");
                    }
                    if len <= rows {
                        assert_eq!((start, end), (0, len));
                    }
                    // No row wasted: the window fills the rows it has.
                    assert!(
                        used >= rows.min(len),
                        "{len} {rows} {cursor}: {start}..{end}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_title_keeps_the_parts_that_fit_and_cuts_only_a_first_part_too_long() {
        let parts = ["abc".to_string(), " · de".to_string(), " · fgh".to_string()];
        assert_eq!(fit(&parts, 100), "abc · de · fgh");
        assert_eq!(fit(&parts, 9), "abc · de");
        assert_eq!(fit(&parts, 3), "abc");
        assert_eq!(fit(&parts, 2), "a…");
    }
}
