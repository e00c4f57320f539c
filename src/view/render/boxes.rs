//! The box panel: the box opened last (or browsed), its arrows and beads, and what the last game changed.

use super::*;

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
    let browsed =
        browse.filter(|&b| snap.boxes.try_get(b).is_some() && snap.beads.contains_key(&b));
    let Some(b) = browsed.or(snap.opened.map(|o| o.box_index)) else {
        let p = Paragraph::new(vec![Line::raw(""), Line::styled(" no box opened yet", DIM)])
            .block(panel(" Matchbox ".into()));
        f.render_widget(p, area);
        return;
    };
    // The machine's last opening, when it is this box.
    let live = snap.opened.filter(|o| o.box_index == b);
    let mbox = snap.boxes.get(b);
    let beads = &snap.beads[&b];
    let changes: Vec<(usize, i64)> = match live {
        Some(opened) => snap
            .reinforced
            .as_ref()
            .filter(|r| r.game == opened.game)
            .map(|r| {
                r.changes
                    .iter()
                    .filter(|c| c.0 == b)
                    .map(|&(_, a, d)| (a, d))
                    .collect()
            })
            .unwrap_or_default(),
        None => Vec::new(),
    };
    let drawn_arrow = live.and_then(|o| o.arrow);
    let playing = anim < 1.0;
    let arrows: Vec<(G::Move, Color, u32)> = mbox
        .arrows
        .iter()
        .enumerate()
        .map(|(i, &m)| {
            (
                m,
                snap.arrow_colour(game, b, i),
                beads.get(i).copied().unwrap_or(0),
            )
        })
        .collect();
    let diagram = game.box_lines(&mbox.position, &arrows);
    let mut right: Vec<Line> = Vec::new();
    for (i, &mv) in mbox.arrows.iter().enumerate() {
        let colour = snap.arrow_colour(game, b, i);
        let n = beads.get(i).copied().unwrap_or(0);
        let drawn = drawn_arrow == Some(i);
        let delta = changes.iter().find(|c| c.0 == i).map_or(0, |c| c.1);
        let name = format!("{:<6}", game.format_move(mv));
        let mut spans = vec![
            Span::styled(if drawn { "▶" } else { " " }, BOLD.fg(colour)),
            Span::styled(
                name,
                if drawn {
                    BOLD.fg(Color::Black).bg(colour)
                } else {
                    Style::new().fg(colour)
                },
            ),
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
        right.push(Line::from(spans));
    }
    let total: u32 = beads.iter().sum();
    let dw = game.board_size().0 as usize + 2;
    let room = (area.width as usize).saturating_sub(dw + 4);
    if live.is_some_and(|o| o.arrow.is_none()) {
        let text = first_fit(&[" empty: resigned".into(), " resigned".into()], room);
        right.push(Line::styled(text, BOLD.fg(Color::Red)));
    } else if total == 0 {
        right.push(Line::styled(" empty ✗", BOLD.fg(Color::Red)));
    }
    let rows = diagram.len().max(right.len());
    let mut lines = Vec::with_capacity(rows);
    for r in 0..rows {
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
        lines.push(Line::from(spans));
    }
    // Text leaves a space before the border.
    let width = area.width.saturating_sub(4) as usize;
    let height = area.height.saturating_sub(2) as usize;
    if let Some(sym) = live.and_then(|o| o.image) {
        // The box is a symmetric image of the board: its move and the board's side by side.
        let word = game.image_word(sym);
        let text = match drawn_arrow {
            Some(a) => {
                let here = mbox.arrows[a];
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
        for chunk in wrap(&text, width) {
            lines.push(Line::styled(format!(" {chunk}"), DIM));
        }
    }
    // Each arrow's chance of being drawn: always in the browser, and for the live box where the
    // panel has room for all of them after the last game's bead changes.
    let chance_lines = |room: usize| -> Vec<Line<'static>> {
        let n = mbox.arrows.len();
        let show = if n <= room { n } else { room.saturating_sub(1) };
        let mut out = Vec::new();
        for (i, &mv) in mbox.arrows.iter().enumerate().take(show) {
            let k = beads.get(i).copied().unwrap_or(0);
            let pct = if total == 0 {
                0.0
            } else {
                100.0 * k as f64 / total as f64
            };
            let name = game.format_move(mv);
            let options = [
                format!(
                    "{name}: {k} of {total} {} = {pct:.0} %",
                    if total == 1 { "bead" } else { "beads" }
                ),
                format!("{name}: {k} of {total} = {pct:.0} %"),
                format!("{name}: {k}/{total} = {pct:.0}%"),
                format!("{name} {pct:.0}%"),
            ];
            out.push(Line::styled(
                format!(" {}", first_fit(&options, width)),
                Style::new().fg(snap.arrow_colour(game, b, i)),
            ));
        }
        if show < n {
            out.push(Line::styled(format!(" … {} more arrows", n - show), DIM));
        }
        out
    };
    if browsed.is_some() && live.is_none() {
        lines.push(Line::raw(""));
        if total == 0 {
            // No chances to give: an empty box makes the machine resign.
            for chunk in wrap("no beads: the machine resigns here", width) {
                lines.push(Line::styled(format!(" {chunk}"), BOLD.fg(Color::Red)));
            }
        } else {
            let room = height.saturating_sub(lines.len());
            lines.extend(chance_lines(room));
        }
    } else {
        if let Some(r) = snap.reinforced.as_ref().filter(|_| live.is_some()) {
            lines.push(Line::raw(""));
            lines.extend(reinforcement_lines(game, snap, r));
        }
        let room = height.saturating_sub(lines.len() + 1);
        if total > 0 && mbox.arrows.len() <= room {
            lines.push(Line::raw(""));
            lines.extend(chance_lines(room));
        }
    }
    let lost_here = !changes.is_empty() && changes.iter().any(|c| c.1 < 0);
    let number = group(b as u64 + 1);
    let of = group(snap.boxes.len() as u64);
    let move_no = mbox.move_number();
    let titles = if browsed.is_some() {
        [
            format!(" Box {number} of {of} · move {move_no} "),
            format!(" Box {number}/{of} · move {move_no} "),
            format!(" Box {number} "),
        ]
    } else {
        [
            format!(" Box {number} · move {move_no} "),
            format!(" Box {number} · m{move_no} "),
            format!(" Box {number} "),
        ]
    };
    let mut block = panel(first_fit(&titles, area.width.saturating_sub(2) as usize));
    if lost_here && playing && !animated {
        block = block.border_style(BOLD.fg(Color::Red));
    }
    f.render_widget(Paragraph::new(lines).block(block), area);
}

/// What the last game did to the beads, in words.
pub(super) fn reinforcement_lines<G: BoardView>(
    game: &G,
    snap: &Snapshot<G>,
    r: &crate::view::session::Reinforced,
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
    for &(b, a, d) in r.changes.iter().take(3) {
        let mv = game.format_move(snap.boxes.get(b).arrows[a]);
        let beads = if d.abs() == 1 { "bead" } else { "beads" };
        lines.push(Line::styled(
            format!(" {d:+} {beads}, box {} {mv}", b + 1),
            Style::new().fg(colour),
        ));
    }
    if r.changes.len() > 3 {
        lines.push(Line::styled(
            format!(" and {} more", r.changes.len() - 3),
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
