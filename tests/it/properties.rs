//! Property tests: canonical forms, symmetric moves, and YAML round trips.

use std::path::Path;
use std::sync::Arc;

use matchbox::game::{Game, Side, Sym};
use matchbox::games::hexapawn::{Hexapawn, Position, Size};
use matchbox::learn::Machine;
use matchbox::learn::{Beads, BoxSet, Reinforcement, Scope, StageBeads, SymmetryMode};
use matchbox::rng::rng_from_seed;
use matchbox::store;
use proptest::prelude::*;

/// A position reached by `plies` random moves from the start of a random board.
fn random_position() -> impl Strategy<Value = (Hexapawn, Position)> {
    (2u8..=6, 2u8..=6, 0usize..30, any::<u64>()).prop_map(|(r, c, plies, seed)| {
        let game = Hexapawn::new(Size::new(r, c).unwrap());
        let mut pos = game.start();
        let mut x = seed;
        for _ in 0..plies {
            let moves = game.moves(&pos);
            if moves.is_empty() {
                break;
            }
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pos = game.play(&pos, moves[(x >> 33) as usize % moves.len()]);
        }
        (game, pos)
    })
}

proptest! {
    #[test]
    fn canonical_form_is_idempotent_and_shared_by_every_image((game, pos) in random_position()) {
        let (canon, sym) = game.canonical(&pos);
        prop_assert_eq!(game.transform_position(sym, &pos), canon);
        prop_assert_eq!(game.canonical(&canon), (canon, Sym::IDENTITY));
        for s in 0..game.symmetry_count() {
            let image = game.transform_position(Sym(s as u8), &pos);
            prop_assert_eq!(game.canonical(&image).0, canon);
            // Transforms are invertible.
            let back = game.transform_position(game.inverse(Sym(s as u8)), &image);
            prop_assert_eq!(back, pos);
        }
    }

    #[test]
    fn moves_chosen_on_the_canonical_board_are_legal_on_the_real_board((game, pos) in random_position()) {
        let (canon, sym) = game.canonical(&pos);
        let back = game.inverse(sym);
        let real_moves = game.moves(&pos);
        prop_assert_eq!(real_moves.len(), game.moves(&canon).len());
        for m in game.moves(&canon) {
            let real = game.transform_move(back, m);
            prop_assert!(real_moves.contains(&real));
            // Playing it on the real board gives the image of playing it on the canonical one.
            prop_assert_eq!(
                game.transform_position(sym, &game.play(&pos, real)),
                game.play(&canon, m)
            );
        }
        // Merged arrows cover every move up to symmetry.
        let distinct = game.distinct_moves(&canon);
        let stab = game.stabilizer(&canon);
        for m in game.moves(&canon) {
            prop_assert!(stab.iter().any(|&s| distinct.contains(&game.transform_move(s, m))));
        }
    }

    #[test]
    fn positions_survive_text_round_trips((game, pos) in random_position()) {
        let text = game.format_position(&pos);
        if game.outcome(&pos).is_none() {
            prop_assert_eq!(game.parse_position(&text, game.to_move(&pos)).unwrap(), pos);
        }
        for m in game.moves(&pos) {
            prop_assert_eq!(game.parse_move(&pos, &game.format_move(m)).unwrap(), m);
        }
    }

    #[test]
    fn yaml_save_then_load_is_the_identity(
        which in 0usize..4,
        beads in proptest::collection::vec(0u32..40, 64),
        games in 0u64..1_000_000,
        seed in any::<u64>(),
        advance in 0usize..5,
        win in -5i32..6, draw in -5i32..6, loss in -5i32..6, last in any::<bool>(),
        stages in proptest::collection::vec(0u32..9, 1..4),
    ) {
        let (size, side, mode) = [
            (Size::GARDNER, Side::Second, SymmetryMode::Gardner),
            (Size::GARDNER, Side::Second, SymmetryMode::Full),
            (Size::GARDNER, Side::First, SymmetryMode::None),
            (Size::OCTOPAWN, Side::First, SymmetryMode::Full),
        ][which];
        let game = Hexapawn::new(size);
        let set = Arc::new(BoxSet::build(&game, side, mode));
        let scope = if last { Scope::LastMove } else { Scope::AllMoves };
        let r = Reinforcement { win, draw, loss, scope };
        let mut m = Machine::new(set, StageBeads::new(stages).unwrap(), r, seed);
        for b in 0..m.boxes.len() {
            let n = m.boxes.get(b).arrows.len();
            let counts: Vec<Beads> = (0..n).map(|i| Beads(beads[(b * 7 + i) % beads.len()])).collect();
            m.set_beads(b, &counts).unwrap();
        }
        m.games_played = games;
        for _ in 0..advance {
            m.draw(0);
        }
        let text = store::to_yaml(&game, &m, Some(size.to_string()));
        let back = store::from_yaml(&game, Path::new("p.yaml"), &text).unwrap();
        prop_assert_eq!(back.boxes.len(), m.boxes.len());
        for b in 0..m.boxes.len() {
            prop_assert_eq!(back.beads_in(b), m.beads_in(b));
        }
        prop_assert_eq!(back.games_played, m.games_played);
        prop_assert_eq!(back.seed, m.seed);
        prop_assert_eq!(&back.rng, &m.rng);
        prop_assert_eq!(back.reinforcement, m.reinforcement);
        prop_assert_eq!(&back.initial, &m.initial);
        prop_assert_eq!(store::to_yaml(&game, &back, Some(size.to_string())), text);
        if advance == 0 {
            prop_assert_eq!(back.rng, rng_from_seed(seed));
        }
    }
}

/// A noughts-and-crosses position after `plies` random moves.
fn random_ttt() -> impl Strategy<Value = matchbox::games::tictactoe::Position> {
    (0usize..9, any::<u64>()).prop_map(|(plies, seed)| {
        let game = matchbox::games::tictactoe::TicTacToe;
        let mut pos = game.start();
        let mut rng = rng_from_seed(seed);
        for _ in 0..plies {
            let moves = game.moves(&pos);
            if moves.is_empty() {
                break;
            }
            let i = matchbox::rng::uniform_below(&mut rng, moves.len() as u32) as usize;
            pos = game.play(&pos, moves[i]);
        }
        pos
    })
}

proptest! {
    #[test]
    fn tictactoe_canonical_forms_and_moves(pos in random_ttt()) {
        let game = matchbox::games::tictactoe::TicTacToe;
        let (canon, sym) = game.canonical(&pos);
        prop_assert_eq!(game.canonical(&canon), (canon, Sym::IDENTITY));
        for s in 0..8u8 {
            prop_assert_eq!(game.canonical(&game.transform_position(Sym(s), &pos)).0, canon);
        }
        let back = game.inverse(sym);
        for m in game.moves(&canon) {
            let real = game.transform_move(back, m);
            prop_assert!(game.moves(&pos).contains(&real));
            prop_assert_eq!(game.transform_position(sym, &game.play(&pos, real)), game.play(&canon, m));
        }
        if game.outcome(&pos).is_none() {
            prop_assert_eq!(game.parse_position(&game.format_position(&pos), game.to_move(&pos)).unwrap(), pos);
        }
    }
}
