//! The erased game (`AnyGame`, which the screens, `class`, `operate` and the page hold) says and
//! does exactly what the typed game does, for every game of the registry and a larger size of
//! each: along random games, every position's moves, images, packing, words, board, box and label
//! drawings, and every move's notation, squares and result. A method a game overrides and
//! `AnyGame` forgets to forward would fail here.

use matchbox::game::{Game, Side, Sym};
use matchbox::games::GameKind;
use matchbox::games::any::{AnyGame, AnyPosition, Member};
use matchbox::games::havannah::{Base, Variant};
use matchbox::games::hexapawn::Size;
use matchbox::labels::LabelView;
use matchbox::learn::GameDefaults;
use matchbox::view::board::BoardView;
use ratatui::style::Color;

/// A small seeded generator (the test's own: the choices need not match any other's).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = (self.0.wrapping_mul(6364136223846793005)).wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// What the game says of itself, whatever the position.
fn same_game<G: Member>(g: &G, any: &AnyGame) {
    assert_eq!(any.name(), g.name());
    assert_eq!(any.variant(), g.variant());
    for side in [Side::First, Side::Second] {
        assert_eq!(any.side_name(side), g.side_name(side));
        assert_eq!(any.default_symmetry(side), g.default_symmetry(side));
        assert_eq!(any.position_bound(side), g.position_bound(side));
        for &mode in g.symmetry_modes() {
            assert_eq!(any.nickname(side, mode), g.nickname(side, mode));
        }
    }
    assert_eq!(any.symmetry_modes(), g.symmetry_modes());
    assert_eq!(any.default_side(), g.default_side());
    assert_eq!(
        format!("{:?}", any.default_preset()),
        format!("{:?}", g.default_preset())
    );
    assert_eq!(any.default_forced(), g.default_forced());
    assert_eq!(any.size_key(), g.size_key());
    assert_eq!(any.symmetry_count(), g.symmetry_count());
    assert_eq!(any.ply_limit(), g.ply_limit());
    assert_eq!(
        any.small_enough_to_enumerate(),
        g.small_enough_to_enumerate()
    );
    assert_eq!(any.structure_kinds(), g.structure_kinds());
    assert_eq!(any.has_own_solver(), g.has_own_solver());
    assert_eq!(any.board_size(), g.board_size());
    assert_eq!(any.tile_size(), g.tile_size());
    assert_eq!(any.legend(), g.legend());
    assert_eq!(any.grid(), g.grid());
    for i in 0..g.symmetry_count() {
        let sym = Sym(i as u8);
        assert_eq!(any.inverse(sym), g.inverse(sym));
        assert_eq!(any.image_word(sym), g.image_word(sym));
        assert_eq!(any.turn_words(sym), g.turn_words(sym));
    }
    let (w, h) = g.board_size();
    for row in 0..h {
        for col in 0..w {
            assert_eq!(any.square_at(col, row), g.square_at(col, row));
        }
    }
    for side in [
        "first", "second", "white", "black", "x", "o", "gold", "nonsense",
    ] {
        assert_eq!(any.parse_side(side), g.parse_side(side));
    }
}

/// Everything said and drawn of one position, and of each of its moves.
fn same_position<G: Member>(g: &G, any: &AnyGame, p: &G::Position) {
    let ap = g.any_position(p.clone());
    let wrap = |ms: Vec<G::Move>| ms.into_iter().map(|m| g.any_move(m)).collect::<Vec<_>>();
    let text = g.format_position(p);
    assert_eq!(any.format_position(&ap), text);
    let parsed = g.parse_position(&text, g.to_move(p)).ok();
    let parsed = parsed.map(|q| g.any_position(q));
    assert_eq!(
        any.parse_position(&text, g.to_move(p)).ok(),
        parsed,
        "{text}"
    );
    assert_eq!(any.to_move(&ap), g.to_move(p));
    assert_eq!(any.moves(&ap), wrap(g.moves(p)), "{text}");
    assert_eq!(any.distinct_moves(&ap), wrap(g.distinct_moves(p)));
    assert_eq!(any.only_move(&ap), g.only_move(p).map(|m| g.any_move(m)));
    assert_eq!(any.stabilizer(&ap), g.stabilizer(p));
    let (image, sym) = g.canonical(p);
    assert_eq!(any.canonical(&ap), (g.any_position(image), sym));
    assert_eq!(any.pack(&ap), g.pack(p));
    assert_eq!(any.pack_canonical(&ap), g.pack_canonical(p));
    assert_eq!(any.plies_played(&ap), g.plies_played(p));
    if let Some(key) = g.pack(p) {
        assert_eq!(any.unpack(key), g.unpack(key).map(|q| g.any_position(q)));
    }
    assert_eq!(any.diagram(&ap), g.diagram(p));
    assert_eq!(any.structures(&ap), g.structures(p));
    let typed = g.outcome(p);
    let erased = any.outcome(&ap);
    assert_eq!(erased.map(|o| o.winner), typed.map(|o| o.winner));
    assert_eq!(
        erased.map(|o| o.reason.to_string()),
        typed.map(|o| o.reason.to_string())
    );
    if let (Some(t), Some(e)) = (typed, erased) {
        assert_eq!(any.end_words(&ap, &e), g.end_words(p, &t));
    }
    for i in 0..g.symmetry_count() {
        let sym = Sym(i as u8);
        let turned = g.transform_position(sym, p);
        assert_eq!(any.transform_position(sym, &ap), g.any_position(turned));
    }
    same_drawings(g, any, p, &ap);
    for m in g.moves(p) {
        same_move(g, any, p, &ap, m);
    }
}

/// The board, a box, a tile and a label of the position, with its moves marked.
fn same_drawings<G: Member>(g: &G, any: &AnyGame, p: &G::Position, ap: &AnyPosition) {
    let moves = g.moves(p);
    let colours = [Color::Red, Color::Green, Color::Blue, Color::Yellow];
    let marks: Vec<_> = (moves.iter().enumerate())
        .map(|(i, &m)| (m, colours[i % 4]))
        .collect();
    let any_marks: Vec<_> = marks.iter().map(|&(m, c)| (g.any_move(m), c)).collect();
    assert_eq!(any.board_lines(ap, &any_marks), g.board_lines(p, &marks));
    let arrows: Vec<_> = (marks.iter().enumerate())
        .map(|(i, &(m, c))| (m, c, i as u32))
        .collect();
    let any_arrows: Vec<_> = arrows
        .iter()
        .map(|&(m, c, n)| (g.any_move(m), c, n))
        .collect();
    assert_eq!(any.box_lines(ap, &any_arrows), g.box_lines(p, &arrows));
    assert_eq!(
        any.tile_lines(ap, &any_arrows, Some(0)),
        g.tile_lines(p, &arrows, Some(0))
    );
    let numbers: Vec<usize> = (0..moves.len()).collect();
    let any_moves: Vec<_> = moves.iter().map(|&m| g.any_move(m)).collect();
    let area = (0.0, 0.0, 60.0, 50.0);
    assert_eq!(
        any.draw_board(ap, &any_moves, &numbers, area),
        g.draw_board(p, &moves, &numbers, area)
    );
    let (rows, cols) = g.grid();
    for row in 0..rows {
        for col in 0..cols {
            let piece = g.piece(p, row, col, 5.0, 5.0, 10.0);
            assert_eq!(any.piece(ap, row, col, 5.0, 5.0, 10.0), piece);
        }
    }
}

/// A move's notation, squares, images and result.
fn same_move<G: Member>(g: &G, any: &AnyGame, p: &G::Position, ap: &AnyPosition, m: G::Move) {
    let am = g.any_move(m);
    assert_eq!(any.format_move(am), g.format_move(m));
    let written = g.format_move_at(p, m);
    assert_eq!(any.format_move_at(ap, am), written);
    assert_eq!(any.parse_move(ap, &written).ok(), Some(am), "{written}");
    assert_eq!(any.move_words(am), g.move_words(m));
    assert_eq!(any.move_bit(am), g.move_bit(m));
    if let Some(bit) = g.move_bit(m) {
        assert_eq!(any.bit_move(bit), g.bit_move(bit).map(|b| g.any_move(b)));
    }
    assert_eq!(any.move_cell(am), g.move_cell(m));
    assert_eq!(any.move_ends(am), g.move_ends(m));
    assert_eq!(any.move_cells(am), g.move_cells(m));
    for i in 0..g.symmetry_count() {
        let sym = Sym(i as u8);
        assert_eq!(
            any.transform_move(sym, am),
            g.any_move(g.transform_move(sym, m))
        );
    }
    assert_eq!(any.play(ap, am), g.any_position(g.play(p, m)));
}

/// Random games of `g`, erased and typed side by side.
fn agree<G: Member>(g: &G, kind: GameKind, games: usize, seed: u64) {
    let any = AnyGame::new(kind);
    same_game(g, &any);
    let mut rng = Lcg(seed);
    for _ in 0..games {
        let mut p = g.start();
        for _ply in 0..200 {
            same_position(g, &any, &p);
            let moves = g.moves(&p);
            if g.outcome(&p).is_some() || moves.is_empty() {
                break;
            }
            p = g.play(&p, moves[rng.below(moves.len())]);
        }
    }
}

#[test]
fn the_erased_game_says_and_does_what_the_typed_game_does() {
    let mut kinds: Vec<GameKind> = GameKind::ALL.to_vec();
    kinds.push(GameKind::Hexapawn(Size::OCTOPAWN));
    kinds.push(GameKind::Havannah(Variant::plain(Base::new(3).unwrap())));
    // The swap rule: a move with no square.
    kinds.push(GameKind::Havannah(
        Variant::new(Base::new(2).unwrap(), true, 0).unwrap(),
    ));
    for kind in kinds {
        let games = match kind {
            GameKind::Havannah(_) | GameKind::MiniArimaa => 3,
            _ => 20,
        };
        matchbox::with_game!(kind, |g| agree(&g, kind, games, 7));
    }
}

/// A machine's every box holds a position: the erased one takes no more room than the small
/// games' own need (Hexapawn's 24 bytes and the game's tag), not the largest game's (104).
#[test]
fn an_erased_position_is_as_small_as_the_small_games_own() {
    use matchbox::games::hexapawn::Hexapawn;
    let hexapawn = std::mem::size_of::<<Hexapawn as Game>::Position>();
    let erased = std::mem::size_of::<AnyPosition>();
    assert!(erased <= hexapawn + 8, "{erased} bytes for {hexapawn}");
}
