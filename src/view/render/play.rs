//! The play screen: a person against the machine.

use super::score::{emptied_values, kv, kv_fit};
use super::*;
use crate::view::app::Action;
use crate::view::play::PlayApp;

/// The play screen, in the app's theme.
pub fn play<G: BoardView>(f: &mut Frame, app: &PlayApp<G>) {
    draw_play(f, app);
    app.theme.apply(f.buffer_mut());
}

/// The play screen's title: who plays whom at what.
fn play_title<G: BoardView>(app: &PlayApp<G>, width: u16) -> Paragraph<'static> {
    let game = app.session.game();
    let (you, machine) = (game.side_name(app.human), &app.titles.machine);
    let head = first_fit(
        &[
            format!(
                " matchbox play · you ({you}) against {machine} · {}",
                app.titles.game
            ),
            format!(" you ({you}) against {machine} · {}", app.titles.game),
            format!(" you ({you}) against {machine}"),
            format!(" you against {machine}"),
        ],
        width as usize,
    );
    let left = fit(
        &[
            head,
            format!(" · {}", app.titles.symmetry),
            format!(" · seed {}", app.snapshot.seed),
        ],
        width as usize,
    );
    Paragraph::new(Line::styled(left, BOLD)).style(Style::new().bg(TITLE_BG))
}

pub(super) fn draw_play<G: BoardView>(f: &mut Frame, app: &PlayApp<G>) {
    let game = app.session.game();
    let area = f.area();
    if app.browser.whole.is_some() {
        let view = super::whole::WholeView {
            game,
            snap: &app.snapshot,
            browser: &app.browser,
            machine: &app.titles.machine,
            front: app.front,
            mode: Mode::Play,
        };
        super::whole::whole_screen(
            f,
            play_title(app, area.width),
            &view,
            app.message.as_deref(),
        );
        if app.show_help {
            help(f, Mode::Play, app.front, game.legend());
        }
        return;
    }
    let Some(Screen {
        title,
        board: board_area,
        under_board: score_area,
        middle: b,
        right: c,
        keys,
    }) = screen(f, game, ScreenKind::Play)
    else {
        return;
    };
    let s = &app.snapshot;
    f.render_widget(play_title(app, area.width), title);
    let options = app.options();
    let selected: Vec<(G::Move, Color)> = options
        .get(app.cursor)
        .filter(|_| app.input.is_empty())
        .map(|&m| vec![(m, Color::Cyan)])
        .unwrap_or_default();
    board_panel(f, board_area, game, s, &app.titles.machine, &selected);
    let moves = move_lines(app, &options, b);
    f.render_widget(Paragraph::new(moves).block(panel(" Your move ".into())), b);
    let machine_plays = !app.session.has_stand_in();
    if machine_plays {
        box_panel(f, c, game, s, 1.0, false, app.browser.shown);
    } else {
        stand_in_panel(f, c, app);
    }
    score(f, score_area, app, machine_plays);
    f.render_widget(
        Paragraph::new(key_bar(app, machine_plays, area.width)),
        keys,
    );
    if app.show_help {
        help(f, Mode::Play, app.front, app.session.game().legend());
    }
}

/// The person's moves, as many as fit around the cursor (a big board has more than rows), with
/// the line being typed and the last message under them, always in view.
fn move_lines<G: BoardView>(app: &PlayApp<G>, options: &[G::Move], b: Rect) -> Vec<Line<'static>> {
    let game = app.session.game();
    let mut lines: Vec<Line> = Vec::new();
    if options.is_empty() && !app.session.in_game() {
        lines.push(Line::styled(" game over", DIM));
        lines.push(Line::styled(" Enter: next game", DIM));
    } else if options.is_empty() {
        lines.push(Line::styled(" (not your turn)", DIM));
    }
    let mut below = vec![
        Line::raw(""),
        Line::from(vec![
            Span::styled(" type: ", DIM),
            Span::styled(format!("{}▏", app.input), BOLD),
        ]),
    ];
    if let Some(m) = &app.message {
        below.push(Line::raw(""));
        for chunk in wrap(m, b.width.saturating_sub(3) as usize) {
            below.push(Line::styled(format!(" {chunk}"), BOLD.fg(Color::Yellow)));
        }
    }
    let room = (b.height.saturating_sub(2) as usize).saturating_sub(lines.len() + below.len());
    let (start, end) = list_window(options.len(), app.cursor, room);
    debug_assert_eq!((lines.len(), start, end), move_rows(app, options, b));
    if start > 0 {
        lines.push(Line::styled(format!("   ↑ {} more", start), DIM));
    }
    for (i, &m) in options.iter().enumerate().take(end).skip(start) {
        let here = i == app.cursor && app.input.is_empty();
        let style = if here {
            BOLD.fg(Color::Cyan)
        } else {
            Style::new()
        };
        let mark = if here { "▶" } else { " " };
        lines.push(Line::styled(
            format!(" {mark} {}", game.format_move(m)),
            style,
        ));
    }
    if end < options.len() {
        lines.push(Line::styled(
            format!("   ↓ {} more", options.len() - end),
            DIM,
        ));
    }
    lines.extend(below);
    lines
}

/// Where the moves sit in the "Your move" panel `b`: the row of the first line of the list (in
/// the panel's inside), and the first and last moves shown.
fn move_rows<G: BoardView>(
    app: &PlayApp<G>,
    options: &[G::Move],
    b: Rect,
) -> (usize, usize, usize) {
    let above = match (options.is_empty(), app.session.in_game()) {
        (true, false) => 2,
        (true, true) => 1,
        _ => 0,
    };
    let message = app
        .message
        .as_ref()
        .map_or(0, |m| 1 + wrap(m, b.width.saturating_sub(3) as usize).len());
    let room = (b.height.saturating_sub(2) as usize).saturating_sub(above + 2 + message);
    let (start, end) = list_window(options.len(), app.cursor, room);
    (above, start, end)
}

/// What a click (or a tap) at column `col`, row `row` of a play screen of `area` does: a square
/// of the board is tapped, or a move of the list is chosen and played.
pub fn play_click<G: BoardView>(
    app: &PlayApp<G>,
    area: Rect,
    col: u16,
    row: u16,
) -> Option<Action> {
    if app.browser.whole.is_some() {
        let game = app.session.game();
        let b = super::whole::whole_click(game, &app.snapshot, &app.browser, area, col, row);
        return b.map(Action::BrowseTo);
    }
    let screen = layout(area, app.session.game(), ScreenKind::Play)?;
    // The board's drawing starts inside its border, after the panel's one-column indent.
    let board = screen.board;
    let on_board = col >= board.x + 2 && col + 1 < board.x + board.width;
    if on_board && row > board.y && row + 1 < board.y + board.height {
        return Some(Action::Square(col - board.x - 2, row - board.y - 1));
    }
    let b = screen.middle;
    let inside = col > b.x && col + 1 < b.x + b.width && row > b.y && row + 1 < b.y + b.height;
    if !inside {
        return None;
    }
    let options = app.options();
    let (above, start, end) = move_rows(app, &options, b);
    let marks = usize::from(start > 0);
    let line = (row - b.y - 1) as usize;
    let i = line.checked_sub(above + marks)? + start;
    (i < end).then_some(Action::Choose(i))
}

/// Where the box panel would be when a player stands in for the machine: no boxes to show.
fn stand_in_panel<G: BoardView>(f: &mut Frame, c: Rect, app: &PlayApp<G>) {
    let text = format!(
        "{}: a player that needs no matchboxes, so there are no boxes or beads to show.",
        crate::game::capitalised(&app.titles.machine)
    );
    let lines: Vec<Line> = std::iter::once(Line::raw(""))
        .chain(
            wrap(&text, c.width.saturating_sub(4) as usize)
                .into_iter()
                .map(|chunk| Line::styled(format!(" {chunk}"), DIM)),
        )
        .collect();
    f.render_widget(Paragraph::new(lines).block(panel(" Opponent ".into())), c);
}

/// The score of the person against the machine.
fn score<G: BoardView>(f: &mut Frame, area: Rect, app: &PlayApp<G>, machine_plays: bool) {
    let s = &app.snapshot;
    let (st, from) = (&s.stats, &app.score_from);
    let mut score = vec![
        kv("games", group(st.games.saturating_sub(from.games))),
        kv("you won", group(st.losses.saturating_sub(from.losses))),
        kv("it won", group(st.wins.saturating_sub(from.wins))),
        kv("drawn", group(st.draws.saturating_sub(from.draws))),
    ];
    if machine_plays {
        score.push(kv("its beads", group(s.beads_left)));
        score.push(kv_fit(
            "emptied",
            &emptied_values(s.boxes_emptied, s.boxes.len()),
            area.width,
        ));
    }
    // The panel's title, shorter where the name does not fit: "You v the machine (silver)",
    // "You v the machine", "Score".
    let name = &app.titles.machine;
    let short = name.split(" (").next().unwrap_or(name);
    let title = first_fit(
        &[
            format!(" You v {name} "),
            format!(" You v {short} "),
            " Score ".to_string(),
        ],
        area.width.saturating_sub(2) as usize,
    );
    f.render_widget(Paragraph::new(score).block(panel(title)), area);
}

/// The keys, from the key table, with an example move of this game (the first one offered, or
/// the game's first).
fn key_bar<G: BoardView>(app: &PlayApp<G>, machine_plays: bool, width: u16) -> Line<'static> {
    let game = app.session.game();
    let example = app
        .options()
        .first()
        .copied()
        .or_else(|| game.moves(&game.start()).first().copied())
        .map(|m| game.format_move(m))
        .unwrap_or_default();
    if let Some(k) = app.browser.key_lines(Mode::Play, app.front) {
        return Line::styled(first_fit(&k, width as usize), BOLD.fg(Color::Cyan));
    }
    let at = BarFor {
        machine_plays,
        from_watch: app.watch.is_some(),
        example,
        ..BarFor::default()
    };
    let bars = key_bars(Mode::Play, app.front, &at);
    Line::styled(first_fit(&bars, width as usize), DIM)
}
