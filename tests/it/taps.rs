//! Moves by click or tap on the board: every game's squares are found where its board draws
//! them, and a tap (or two: origin, then destination) plays the move a person means.

use std::sync::Arc;

use matchbox::game::Side;
use matchbox::games::arimaa::MiniArimaa;
use matchbox::games::havannah::{Base, Havannah};
use matchbox::games::hexapawn::{Hexapawn, Size};
use matchbox::games::tictactoe::TicTacToe;
use matchbox::learn::{BoxSet, Forced, Machine, Reinforcement, StageBeads, SymmetryMode};
use matchbox::players::Opponent;
use matchbox::solve::TieBreak;
use matchbox::view::app::Action;
use matchbox::view::board::BoardView;
use matchbox::view::play::PlayApp;
use matchbox::view::render;
use matchbox::view::session::Session;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Color;
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Widget};

/// Where the board of `lines` draws a cell with the background `colour`.
fn coloured_cells(lines: Vec<Line<'static>>, colour: Color) -> Vec<(u16, u16)> {
    let area = Rect::new(0, 0, 60, 24);
    let mut buf = Buffer::empty(area);
    Paragraph::new(lines).render(area, &mut buf);
    let mut found = Vec::new();
    for y in 0..area.height {
        for x in 0..area.width {
            if buf[(x, y)].bg == colour {
                found.push((x, y));
            }
        }
    }
    found
}

/// For every move of every position reached in a few games, the square its destination is
/// drawn on (marked in a colour of its own) is the square a tap there names.
fn squares_are_where_drawn<G: BoardView>(game: &G, seed: u64) {
    let mut rng = matchbox::rng::rng_from_seed(seed);
    for _ in 0..5 {
        let mut pos = game.start();
        while game.outcome(&pos).is_none() {
            let mut moves = Vec::new();
            game.legal_moves(&pos, &mut moves);
            for &mv in &moves {
                let Some((_, to)) = game.move_ends(mv) else {
                    continue;
                };
                let cells = coloured_cells(
                    game.board_lines(&pos, &[(mv, Color::Magenta)]),
                    Color::Magenta,
                );
                assert_eq!(
                    cells.len(),
                    1,
                    "{}: one square marked",
                    game.format_move(mv)
                );
                let (x, y) = cells[0];
                assert_eq!(
                    game.square_at(x, y).as_deref(),
                    Some(to.as_str()),
                    "{} drawn at column {x}, row {y}",
                    game.format_move(mv)
                );
            }
            // Labels and gaps are no squares.
            assert_eq!(game.square_at(0, 0), None);
            assert_eq!(game.square_at(200, 0), None);
            let mv = moves[matchbox::rng::uniform_below(&mut rng, moves.len() as u32) as usize];
            pos = game.play(&pos, mv);
        }
    }
}

#[test]
fn every_games_squares_are_where_its_board_draws_them() {
    squares_are_where_drawn(&Hexapawn::new(Size::GARDNER), 1);
    squares_are_where_drawn(&Hexapawn::new(Size::new(4, 5).unwrap()), 2);
    squares_are_where_drawn(&TicTacToe, 3);
    for base in 2..=5 {
        squares_are_where_drawn(&Havannah::new(Base::new(base).unwrap()), base as u64);
    }
    squares_are_where_drawn(&MiniArimaa::new(), 9);
}

/// A person (first to move) against a machine of one bead an arrow.
fn person_app<G: BoardView>(game: &G, machine_side: Side) -> PlayApp<G> {
    let set = BoxSet::lazy(game, machine_side, SymmetryMode::None, Forced::Skip);
    let m = Machine::new(
        Arc::new(set),
        StageBeads::uniform(1),
        Reinforcement::GARDNER,
        7,
    );
    let s = Session::from_positions(game.clone(), m, Opponent::Human, TieBreak::Random).unwrap();
    let titles = matchbox::view::app::Titles::of(game, s.machine());
    PlayApp::new(s, titles, machine_side.other(), None)
}

/// The screen position of the board square `name` on an 80×24 play screen, found by a click
/// at every place of the screen.
fn screen_place<G: BoardView>(app: &PlayApp<G>, name: &str) -> (u16, u16) {
    let area = Rect::new(0, 0, 80, 24);
    let game = app.session.game();
    for y in 0..24 {
        for x in 0..80 {
            if let Some(Action::Square(c, r)) = render::play_click(app, area, x, y)
                && game.square_at(c, r).as_deref() == Some(name)
            {
                return (x, y);
            }
        }
    }
    panic!("{name} is not on the screen");
}

fn tap<G: BoardView>(app: &mut PlayApp<G>, name: &str) {
    let (x, y) = screen_place(app, name);
    let action = render::play_click(app, Rect::new(0, 0, 80, 24), x, y).unwrap();
    app.update(action);
}

fn first_move<G: BoardView>(app: &PlayApp<G>) -> String {
    let moves = &app.session.game.as_ref().expect("a game").moves;
    app.session.game().format_move(moves[0].1)
}

#[test]
fn hexapawn_a_pawn_then_its_square() {
    let mut app = person_app(&Hexapawn::new(Size::GARDNER), Side::Second);
    // The square drawn on the screen, where the drawing has it.
    let (x, y) = screen_place(&app, "a1");
    let mut t = ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
    t.draw(|f| render::play(f, &app)).unwrap();
    assert_eq!(
        t.backend().buffer()[(x, y)].symbol(),
        "W",
        "a1 holds a white pawn"
    );
    tap(&mut app, "a1");
    assert_eq!(app.input, "a1", "the pawn is picked");
    assert!(app.session.game.as_ref().unwrap().moves.is_empty());
    // A square the pawn cannot reach: nothing is played.
    tap(&mut app, "c3");
    assert!(app.session.game.as_ref().unwrap().moves.is_empty());
    assert!(
        app.message.as_deref().unwrap().contains("c3"),
        "{:?}",
        app.message
    );
    tap(&mut app, "a1");
    tap(&mut app, "a2");
    assert_eq!(first_move(&app), "a1-a2");
    assert_eq!(
        app.session.game.as_ref().unwrap().moves.len(),
        2,
        "the machine answered"
    );
}

#[test]
fn hexapawn_a_square_only_one_pawn_reaches() {
    let mut app = person_app(&Hexapawn::new(Size::GARDNER), Side::Second);
    tap(&mut app, "b2");
    assert_eq!(first_move(&app), "b1-b2");
}

#[test]
fn noughts_and_crosses_and_havannah_by_one_tap() {
    let mut app = person_app(&TicTacToe, Side::Second);
    tap(&mut app, "b2");
    assert_eq!(first_move(&app), "b2");
    let mut app = person_app(&Havannah::new(Base::new(4).unwrap()), Side::Second);
    tap(&mut app, "d4");
    assert_eq!(first_move(&app), "d4");
}

#[test]
fn mini_arimaa_a_piece_then_where_it_ends() {
    let game = MiniArimaa::new();
    let mut app = person_app(&game, Side::Second);
    // Gold's rabbit on a1: two squares north is a turn of two steps, and only one fits.
    tap(&mut app, "a1");
    assert_eq!(app.input, "a1");
    tap(&mut app, "a3");
    assert_eq!(first_move(&app), "a1n,a2n");
}

/// A paste of thousands of characters into the prompt: the move keeps its first 24, says so, and
/// Ctrl-U clears it for the next move.
#[test]
fn a_long_paste_is_said_and_cleared() {
    let mut app = person_app(&Hexapawn::new(Size::GARDNER), Side::Second);
    for _ in 0..3000 {
        app.update(Action::Type('x'));
    }
    assert_eq!(app.input.len(), 24);
    assert!(
        app.message
            .as_deref()
            .unwrap()
            .contains("at most 24 characters")
    );
    app.update(Action::ClearInput);
    for c in "b2".chars() {
        app.update(Action::Type(c));
    }
    app.update(Action::Enter);
    assert_eq!(first_move(&app), "b1-b2");
}
