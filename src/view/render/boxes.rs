//! The box panel: the box opened last (or browsed), its arrows and beads, and what the last game changed.

use super::*;

/// The box a panel shows, and what the machine did with it last.
struct Shown<'a, G: BoardView> {
    game: &'a G,
    snap: &'a Snapshot<G>,
    b: usize,
    mbox: &'a crate::learn::MatchBox<G>,
    beads: &'a [u32],
    total: u32,
    /// The machine's last opening, when it is this box.
    live: Option<crate::view::session::Opened>,
    /// The last game's bead changes in this box: (arrow, change).
    changes: Vec<(usize, i64)>,
}

impl<G: BoardView> Shown<'_, G> {
    fn drawn(&self) -> Option<usize> {
        self.live.and_then(|o| o.arrow)
    }

    /// One arrow: its move, its beads as dots, the drawn one marked, beads added in green, the
    /// confiscated bead sliding out in red.
    fn arrow_line(&self, i: usize, mv: G::Move, anim: f32, animated: bool) -> Line<'static> {
        let colour = self.snap.arrow_colour(self.game, self.b, i);
        let n = self.beads.get(i).copied().unwrap_or(0);
        let drawn = self.drawn() == Some(i);
        let delta = self.changes.iter().find(|c| c.0 == i).map_or(0, |c| c.1);
        let playing = anim < 1.0;
        let name_style = match drawn {
            true => BOLD.fg(Color::Black).bg(colour),
            false => Style::new().fg(colour),
        };
        let mut spans = vec![
            Span::styled(if drawn { "▶" } else { " " }, BOLD.fg(colour)),
            Span::styled(format!("{:<6}", self.game.format_move(mv)), name_style),
            Span::raw(" "),
        ];
        if delta > 0 && playing {
            let keep = n.saturating_sub(delta as u32);
            spans.push(Span::styled(dots(keep, 8), Style::new().fg(colour)));
            spans.push(Span::styled(dots(delta as u32, 8), BOLD.fg(Color::Green)));
            spans.push(Span::styled(format!(" +{delta}"), BOLD.fg(Color::Green)));
        } else {
            spans.push(Span::styled(dots(n, 10), Style::new().fg(colour)));
            if n == 0 {
                spans.push(Span::styled("–", DIM));
            }
        }
        if delta < 0 && playing {
            // The confiscated bead slides out of the box.
            let gap = if animated { (anim * 4.0) as usize } else { 1 };
            spans.push(Span::raw(" ".repeat(1 + gap)));
            spans.push(Span::styled(
                dots((-delta) as u32, 3),
                BOLD.fg(Color::Red).add_modifier(Modifier::CROSSED_OUT),
            ));
            spans.push(Span::styled(format!(" {delta}"), BOLD.fg(Color::Red)));
        }
        Line::from(spans)
    }

    /// The diagram with the arrows beside it.
    fn diagram_lines(&self, area: Rect, anim: f32, animated: bool) -> Vec<Line<'static>> {
        let arrows: Vec<(G::Move, Color, u32)> = (self.mbox.arrows.iter().enumerate())
            .map(|(i, &m)| {
                let colour = self.snap.arrow_colour(self.game, self.b, i);
                (m, colour, self.beads.get(i).copied().unwrap_or(0))
            })
            .collect();
        let diagram = self.game.box_lines(&self.mbox.position, &arrows);
        let mut right: Vec<Line> = (self.mbox.arrows.iter().enumerate())
            .map(|(i, &mv)| self.arrow_line(i, mv, anim, animated))
            .collect();
        let dw = self.game.board_size().0 as usize + 2;
        let room = (area.width as usize).saturating_sub(dw + 4);
        if self.live.is_some_and(|o| o.arrow.is_none()) {
            let text = first_fit(&[" empty: resigned".into(), " resigned".into()], room);
            right.push(Line::styled(text, BOLD.fg(Color::Red)));
        } else if self.total == 0 {
            right.push(Line::styled(" empty ✗", BOLD.fg(Color::Red)));
        }
        (0..diagram.len().max(right.len()))
            .map(|r| {
                let mut spans = vec![Span::raw(" ")];
                match diagram.get(r) {
                    Some(l) => {
                        let w: usize = l.spans.iter().map(|s| s.content.chars().count()).sum();
                        spans.extend(l.spans.iter().cloned());
                        spans.push(Span::raw(" ".repeat(dw.saturating_sub(w))));
                    }
                    None => spans.push(Span::raw(" ".repeat(dw))),
                }
                if let Some(l) = right.get(r) {
                    spans.extend(l.spans.iter().cloned());
                }
                Line::from(spans)
            })
            .collect()
    }

    /// When the box is a symmetric image of the board: its move and the board's side by side.
    fn image_lines(&self, width: usize) -> Vec<Line<'static>> {
        let Some(sym) = self.live.and_then(|o| o.image) else {
            return Vec::new();
        };
        let (game, word) = (self.game, self.game.image_word(sym));
        let text = match self.drawn() {
            Some(a) => {
                let here = self.mbox.arrows[a];
                let there = game.transform_move(game.inverse(sym), here);
                if there == here {
                    // A move on the mirror's axis: the same on both.
                    format!(
                        "▶{} here and on the board (the board {word} to match)",
                        game.format_move(here)
                    )
                } else {
                    format!(
                        "▶{} here = {} on the board ({word})",
                        game.format_move(here),
                        game.format_move(there)
                    )
                }
            }
            None => format!("(the board {word} to match)"),
        };
        (wrap(&text, width).into_iter())
            .map(|chunk| Line::styled(format!(" {chunk}"), DIM))
            .collect()
    }

    /// Each arrow's chance of being drawn, in at most `room` lines.
    fn chance_lines(&self, room: usize, width: usize) -> Vec<Line<'static>> {
        let (n, total) = (self.mbox.arrows.len(), self.total);
        let show = if n <= room { n } else { room.saturating_sub(1) };
        let mut out = Vec::new();
        for (i, &mv) in self.mbox.arrows.iter().enumerate().take(show) {
            let k = self.beads.get(i).copied().unwrap_or(0);
            let pct = match total {
                0 => 0.0,
                _ => 100.0 * k as f64 / total as f64,
            };
            let name = self.game.format_move(mv);
            let beads_word = if total == 1 { "bead" } else { "beads" };
            let options = [
                format!("{name}: {k} of {total} {beads_word} = {pct:.0} %"),
                format!("{name}: {k} of {total} = {pct:.0} %"),
                format!("{name}: {k}/{total} = {pct:.0}%"),
                format!("{name} {pct:.0}%"),
            ];
            out.push(Line::styled(
                format!(" {}", first_fit(&options, width)),
                Style::new().fg(self.snap.arrow_colour(self.game, self.b, i)),
            ));
        }
        if show < n {
            out.push(Line::styled(format!(" … {} more arrows", n - show), DIM));
        }
        out
    }

    /// The panel's title: the box's number (of how many, in the browser) and move.
    fn title(&self, browsing: bool, width: u16) -> String {
        let number = group(self.b as u64 + 1);
        let of = group(self.snap.boxes.len() as u64);
        let move_no = self.mbox.move_number();
        let titles = match browsing {
            true => [
                format!(" Box {number} of {of} · move {move_no} "),
                format!(" Box {number}/{of} · move {move_no} "),
                format!(" Box {number} "),
            ],
            false => [
                format!(" Box {number} · move {move_no} "),
                format!(" Box {number} · m{move_no} "),
                format!(" Box {number} "),
            ],
        };
        first_fit(&titles, width.saturating_sub(2) as usize)
    }
}

/// The bead changes the last game made in box `b`, when the machine opened it in that game.
fn changes_in<G: BoardView>(
    snap: &Snapshot<G>,
    b: usize,
    live: Option<crate::view::session::Opened>,
) -> Vec<(usize, i64)> {
    let Some(opened) = live else {
        return Vec::new();
    };
    let of_game = snap.reinforced.as_ref().filter(|r| r.game == opened.game);
    of_game.map_or_else(Vec::new, |r| {
        (r.changes.iter().filter(|c| c.0 == b))
            .map(|&(_, a, d)| (a, d))
            .collect()
    })
}

/// The box the machine opened last (or the box the browser shows): its diagram with coloured
/// arrows, and the beads inside, the drawn one marked; a confiscated bead leaves the box, added
/// beads appear, an empty box is marked. A browsed box lists each arrow's chance.
pub fn box_panel<G: BoardView>(
    f: &mut Frame,
    area: Rect,
    game: &G,
    snap: &Snapshot<G>,
    anim: f32,
    animated: bool,
    browse: Option<usize>,
) {
    // Only a box the snapshot holds (the screen may be a step ahead of the trainer's snapshot:
    // a box browsed to, or opened, since it was taken).
    let held = |b: &usize| snap.boxes.try_get(*b).is_some() && snap.beads.contains_key(b);
    let browsed = browse.filter(held);
    let opened = snap.opened.map(|o| o.box_index).filter(held);
    let (Some(b), Some(mbox)) = (
        browsed.or(opened),
        browsed.or(opened).and_then(|b| snap.boxes.try_get(b)),
    ) else {
        let p = Paragraph::new(vec![Line::raw(""), Line::styled(" no box opened yet", DIM)])
            .block(panel(" Matchbox ".into()));
        f.render_widget(p, area);
        return;
    };
    let live = snap.opened.filter(|o| o.box_index == b);
    let Some(beads) = snap.beads.get(&b) else {
        return;
    };
    let shown = Shown {
        game,
        snap,
        b,
        mbox,
        beads,
        total: beads.iter().sum(),
        live,
        changes: changes_in(snap, b, live),
    };
    let mut lines = shown.diagram_lines(area, anim, animated);
    // Text leaves a space before the border.
    let width = area.width.saturating_sub(4) as usize;
    let height = area.height.saturating_sub(2) as usize;
    lines.extend(shown.image_lines(width));
    // Each arrow's chance of being drawn: always in the browser, and for the live box where the
    // panel has room for all of them after the last game's bead changes.
    if browsed.is_some() && live.is_none() {
        lines.push(Line::raw(""));
        if shown.total == 0 {
            // No chances to give: an empty box makes the machine resign.
            for chunk in wrap("no beads: the machine resigns here", width) {
                lines.push(Line::styled(format!(" {chunk}"), BOLD.fg(Color::Red)));
            }
        } else {
            let room = height.saturating_sub(lines.len());
            lines.extend(shown.chance_lines(room, width));
        }
    } else {
        if let Some(r) = snap.reinforced.as_ref().filter(|_| live.is_some()) {
            lines.push(Line::raw(""));
            let room = height.saturating_sub(lines.len());
            lines.extend(reinforcement_lines(game, snap, r, room));
        }
        let room = height.saturating_sub(lines.len() + 1);
        if shown.total > 0 && shown.mbox.arrows.len() <= room {
            lines.push(Line::raw(""));
            lines.extend(shown.chance_lines(room, width));
        }
    }
    let lost_here = shown.changes.iter().any(|c| c.1 < 0);
    let mut block = panel(shown.title(browsed.is_some(), area.width));
    if lost_here && anim < 1.0 && !animated {
        block = block.border_style(BOLD.fg(Color::Red));
    }
    f.render_widget(Paragraph::new(lines).block(block), area);
}

/// What the last game did to the beads, in words: every change where `room` lines hold them,
/// else the first ones and how many more (three at least).
pub(super) fn reinforcement_lines<G: BoardView>(
    game: &G,
    snap: &Snapshot<G>,
    r: &crate::view::session::Reinforced,
    room: usize,
) -> Vec<Line<'static>> {
    let (word, colour) = match r.result {
        GameResult::Win => ("won", Color::Green),
        GameResult::Draw => ("drawn", Color::Yellow),
        GameResult::Loss => ("lost", Color::Red),
    };
    let mut lines = vec![Line::styled(
        format!(" game {} {word}:", group(r.game)),
        BOLD.fg(colour),
    )];
    if r.changes.is_empty() {
        lines.push(Line::styled(" no bead changes", DIM));
    }
    let emptied = r.emptied.len().min(2);
    let fits = room.saturating_sub(1 + emptied);
    let shown = match r.changes.len() <= fits {
        true => r.changes.len(),
        false => fits.saturating_sub(1).max(3),
    };
    for &(b, a, d) in r.changes.iter().take(shown) {
        let Some(&arrow) = snap.boxes.try_get(b).and_then(|m| m.arrows.get(a)) else {
            continue;
        };
        let mv = game.format_move(arrow);
        let beads = if d.abs() == 1 { "bead" } else { "beads" };
        lines.push(Line::styled(
            format!(" {d:+} {beads}, box {} {mv}", b + 1),
            Style::new().fg(colour),
        ));
    }
    if r.changes.len() > shown {
        lines.push(Line::styled(
            format!(" and {} more", r.changes.len() - shown),
            DIM,
        ));
    }
    for &b in r.emptied.iter().take(2) {
        lines.push(Line::styled(
            format!(" box {} is now empty", b + 1),
            BOLD.fg(Color::Red),
        ));
    }
    lines
}
