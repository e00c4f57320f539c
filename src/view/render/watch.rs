//! The watch screen, laid out from its panels.

use super::machine::learner_view;
use super::*;

/// The watch screen, in the app's theme.
pub fn watch<G: BoardView>(f: &mut Frame, app: &WatchApp<G>) {
    draw_watch(f, app);
    app.theme.apply(f.buffer_mut());
}

pub(super) fn draw_watch<G: BoardView>(f: &mut Frame, app: &WatchApp<G>) {
    if app.browser.whole.is_some() {
        let view = super::whole::WholeView {
            game: &app.game,
            snap: &app.snapshot,
            browser: &app.browser,
            machine: &app.titles.machine,
            front: app.front,
            mode: Mode::Watch,
        };
        let title = title_bar(app, f.area().width);
        super::whole::whole_screen(f, title, &view, app.message.as_deref());
        if app.show_help {
            help(f, Mode::Watch, app.front, app.game.legend());
        }
        return;
    }
    let Some(Screen {
        title,
        board: board_area,
        under_board: box_area,
        middle: b,
        right: c,
        keys,
    }) = screen(f, &app.game, ScreenKind::Watch)
    else {
        return;
    };
    let s = &app.snapshot;
    f.render_widget(title_bar(app, f.area().width), title);
    board_panel(f, board_area, &app.game, s, &app.titles.machine, &[]);
    box_panel(
        f,
        box_area,
        &app.game,
        s,
        app.anim,
        app.speed.animated(),
        app.browser.shown,
    );
    machines(f, b, app);
    let (score_area, rest, beside) = score_and_curve(c, score_rows(&app.snapshot));
    score_panel(f, score_area, app);
    // The first box's chart under the curve where both have room (not in a narrow column).
    let charts = &app.charts;
    match &s.first_box {
        Some(fb) if rest.height >= 18 && !beside => {
            let [curve_area, first_area] =
                Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)])
                    .areas(rest);
            curve_panel(f, curve_area, s, Some(&charts.curve));
            first_box_panel(f, first_area, fb, s, Some(&charts.first_box));
        }
        _ => curve_panel(f, rest, s, Some(&charts.curve)),
    }
    let bar = match (&app.message, app.browser.key_lines(Mode::Watch, app.front)) {
        (Some(m), _) => Line::styled(format!(" {m}"), BOLD.fg(Color::Yellow)),
        (None, Some(k)) => {
            Line::styled(first_fit(&k, f.area().width as usize), BOLD.fg(Color::Cyan))
        }
        (None, None) => Line::styled(
            first_fit(
                &key_bars(Mode::Watch, app.front, &BarFor::watch()),
                f.area().width as usize,
            ),
            DIM,
        ),
    };
    f.render_widget(Paragraph::new(bar), keys);
    if app.show_help {
        help(f, Mode::Watch, app.front, app.game.legend());
    }
}

/// The title bar: who learns what against whom, the settings, and the speed in brackets.
fn title_bar<G: BoardView>(app: &WatchApp<G>, width: u16) -> Paragraph<'static> {
    let s = &app.snapshot;
    let mut opponent = match (s.opponent, &app.titles.rival) {
        _ if app.titles.against.is_some() => app.titles.against.clone().unwrap_or_default(),
        (Opponent::Human, _) => "you".into(),
        (Opponent::Matchbox, Some(name)) => format!("{name}, another machine"),
        (Opponent::Mcts(_), _) => "the tree search".into(),
        (k, _) => format!("the {k} player"),
    };
    let searching = match s.opponent {
        Opponent::Mcts(n) => format!(" · MCTS, {} simulations a move", group(n as u64)),
        _ => String::new(),
    };
    if app.opponent != s.opponent && s.opponent != Opponent::Human {
        // `o` applies from the next game: say so until it does.
        opponent = format!("{opponent} (next game: {})", app.opponent);
    }
    let state = if s.limit_reached {
        "done".to_string()
    } else if app.paused {
        "paused".to_string()
    } else {
        app.speed.label().to_string()
    };
    // A space at least between the title and the state in brackets.
    let room = (width as usize).saturating_sub(state.chars().count() + 4);
    // Who learns what against whom, in fewer words where the line is narrow (a phone).
    let machine = crate::game::capitalised(&app.titles.machine);
    let game = &app.titles.game;
    let name = game.split(' ').next().unwrap_or(game);
    let head = first_fit(
        &[
            format!(" {machine} learns {game} against {opponent}"),
            format!(" {machine} learns {game}"),
            format!(" {machine} learns {name}"),
            format!(" {machine}"),
        ],
        room,
    );
    let left = fit(
        &[
            head,
            searching,
            format!(" · {}", app.titles.symmetry),
            format!(" · {} reinforcement", s.reinforcement),
            format!(" · seed {}", s.seed),
        ],
        room,
    );
    let right = format!("[{state}] ");
    let pad = (width as usize).saturating_sub(left.chars().count() + right.chars().count());
    Paragraph::new(Line::from(vec![
        Span::styled(left, BOLD),
        Span::raw(" ".repeat(pad)),
        Span::styled(right, BOLD.fg(Color::Yellow)),
    ]))
    .style(Style::new().bg(TITLE_BG))
}

/// The machine panel; learner against learner, both machines, one above the other.
fn machines<G: BoardView>(f: &mut Frame, b: Rect, app: &WatchApp<G>) {
    let s = &app.snapshot;
    let Some(r) = &s.rival_machine else {
        machine_panel(f, b, &app.game, &learner_view(s), app.browser.shown);
        return;
    };
    let [top, bottom] =
        Layout::vertical([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(b);
    machine_panel(f, top, &app.game, &learner_view(s), app.browser.shown);
    let view = MachineView {
        boxes: &r.boxes,
        shown: &r.shown,
        beads: &r.beads,
        highlight: r
            .shown
            .first()
            .copied()
            .filter(|_| r.boxes.len() > r.shown.len()),
        emptied: r.boxes_emptied,
        colours: s.colours,
        title: app.titles.rival.clone().unwrap_or_else(|| "Rival".into()),
    };
    machine_panel(f, bottom, &app.game, &view, None);
}

/// The score panel of `rows` rows and the room for the learning curve, in the column `c`, and
/// whether they stand side by side: the score on top; beside the curve where under it the curve
/// would get too few rows to read and the column is wide enough for both (a phone held upright).
fn score_and_curve(c: Rect, rows: u16) -> (Rect, Rect, bool) {
    /// Rows a curve needs to read: its border, four rows of chart, its axis and labels, the
    /// loss rate and its spark line.
    const CURVE_ROWS: u16 = 10;
    /// Columns the score needs beside the curve, and the curve beside the score.
    const SCORE_COLS: u16 = 27;
    const CURVE_COLS: u16 = 19;
    if c.height < rows + CURVE_ROWS && c.width >= SCORE_COLS + CURVE_COLS {
        let [score, curve] =
            Layout::horizontal([Constraint::Length(SCORE_COLS), Constraint::Min(0)]).areas(c);
        return (score, curve, true);
    }
    let [score, curve] = Layout::vertical([Constraint::Length(rows), Constraint::Min(0)]).areas(c);
    (score, curve, false)
}

/// What a click (or a tap) at column `col`, row `row` of a watch screen of `area` does: a box of
/// the learner's machine panel opens in the box browser.
pub fn watch_click<G: BoardView>(
    app: &WatchApp<G>,
    area: Rect,
    col: u16,
    row: u16,
) -> Option<crate::view::app::Action> {
    if app.browser.whole.is_some() {
        let b = super::whole::whole_click(&app.game, &app.snapshot, &app.browser, area, col, row);
        return b.map(crate::view::app::Action::BrowseTo);
    }
    let screen = layout(area, &app.game, ScreenKind::Watch)?;
    let panel = match &app.snapshot.rival_machine {
        Some(_) => {
            let [top, _] =
                Layout::vertical([Constraint::Percentage(55), Constraint::Percentage(45)])
                    .areas(screen.middle);
            top
        }
        None => screen.middle,
    };
    let view = learner_view(&app.snapshot);
    let browse = app.browser.shown.filter(|b| view.shown.contains(b));
    let b = super::machine::Grid::of(&view, panel, browse).box_at(panel, col, row)?;
    Some(crate::view::app::Action::BrowseTo(b))
}
