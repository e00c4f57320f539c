//! Round trips that can fail: whatever a parser accepts, printed and parsed again, is the same
//! value (`parse(format(x)) == x`); and every value the program prints (positions and moves met
//! in play, every setting's variants) parses back to itself.

use matchbox::game::{Game, Side};
use matchbox::games::GameKind;
use matchbox::games::arimaa::MiniArimaa;
use matchbox::games::havannah::{Base, Havannah};
use matchbox::games::hexapawn::{Hexapawn, Size};
use matchbox::games::tictactoe::TicTacToe;
use matchbox::learn::{Engine, Preset, Reinforcement, StageBeads, SymmetryMode};
use matchbox::players::Opponent;
use matchbox::rng::{rng_from_seed, uniform_below};
use matchbox::solve::TieBreak;
use matchbox::view::app::Speed;
use proptest::prelude::*;

/// Text close to the settings' and sizes' notations.
fn setting_like() -> impl Strategy<Value = String> {
    let alphabet = &[
        'a', 'b', 'c', 'd', 'e', 'f', 'g', 'i', 'l', 'm', 'n', 'o', 'p', 'r', 's', 't', 'u', 'w',
        'x', 'y', 'z', ':', ',', '/', '+', '-', '.', ' ', '0', '1', '2', '3', '4', '8', '9', 'x',
        'K', 'M', 'G', 'B', 'é',
    ][..];
    prop::collection::vec(prop::sample::select(alphabet), 0..16)
        .prop_map(|c| c.into_iter().collect())
}

/// `parse(format(x)) == x` for whatever `text` parses to.
pub(crate) fn round_trips<T>(text: &str) -> Result<(), TestCaseError>
where
    T: std::str::FromStr + std::fmt::Display + PartialEq + std::fmt::Debug,
{
    if let Ok(x) = text.parse::<T>() {
        let shown = x.to_string();
        let again = shown.parse::<T>();
        prop_assert!(
            again.as_ref().is_ok_and(|y| *y == x),
            "{text:?} → {x:?} → {shown:?} → {:?}",
            again.ok()
        );
    }
    Ok(())
}

/// Positions and moves met in a random game of `game`, each printed and parsed back.
fn positions_and_moves<G: Game>(game: &G, seed: u64) -> Result<(), TestCaseError> {
    let mut rng = rng_from_seed(seed);
    let mut pos = game.start();
    for _ in 0..60 {
        let side = game.to_move(&pos);
        let text = game.format_position(&pos);
        let back = game.parse_position(&text, side);
        prop_assert!(
            back.is_ok(),
            "{}: {text} does not parse: {:?}",
            game.name(),
            back.err()
        );
        prop_assert_eq!(game.format_position(&back.unwrap()), text.clone());
        prop_assert_eq!(game.parse_side(game.side_name(side)), Some(side));
        if game.outcome(&pos).is_some() {
            break;
        }
        let moves = game.moves(&pos);
        if moves.is_empty() {
            break;
        }
        for &mv in &moves {
            let shown = game.format_move(mv);
            let back = game.parse_move(&pos, &shown);
            prop_assert!(
                back.as_ref().is_ok_and(|m| *m == mv),
                "{}: {text}: {shown} → {:?}",
                game.name(),
                back.err()
            );
        }
        pos = game.play(
            &pos,
            moves[uniform_below(&mut rng, moves.len() as u32) as usize],
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn settings_print_as_they_parse(t in setting_like()) {
        round_trips::<Reinforcement>(&t)?;
        round_trips::<StageBeads>(&t)?;
        round_trips::<SymmetryMode>(&t)?;
        round_trips::<Preset>(&t)?;
        round_trips::<Engine>(&t)?;
        round_trips::<Opponent>(&t)?;
        round_trips::<TieBreak>(&t)?;
        round_trips::<Speed>(&t)?;
        round_trips::<Size>(&t)?;
    }

    #[test]
    fn games_and_sizes_print_as_they_parse(name in prop::sample::select(&["hexapawn", "octopawn", "tictactoe", "havannah", "arimaa", "her", "menace"][..]), size in setting_like()) {
        if let Ok(kind) = GameKind::parse(name, Some(&size)) {
            let again = GameKind::parse(kind.name(), kind.size().as_deref());
            prop_assert_eq!(again.ok(), Some(kind), "{} --size {}", name, size);
        }
    }

    #[test]
    fn positions_and_moves_met_in_play_print_as_they_parse(seed in any::<u64>()) {
        positions_and_moves(&Hexapawn::new(Size::GARDNER), seed)?;
        positions_and_moves(&Hexapawn::new(Size::new(4, 5).unwrap()), seed)?;
        positions_and_moves(&TicTacToe, seed)?;
        positions_and_moves(&Havannah::new(Base::new(3).unwrap()), seed)?;
        positions_and_moves(&MiniArimaa::new(), seed)?;
    }
}

#[test]
fn every_variant_of_every_setting_prints_as_it_parses() {
    let texts = [
        "full", "gardner", "none", "michie", "scroggs", "class", "auto", "table", "lazy",
        "perfect", "random", "mcts", "mcts:50", "matchbox", "fastest", "step", "slow", "1", "10",
        "100", "flat-out", "4,3,2,1", "8", "+3/+1/-1", "-1:last", "3x3", "8x8", "2x5",
    ];
    let mut parsed = 0;
    for t in texts {
        for ok in [
            t.parse::<SymmetryMode>().is_ok(),
            t.parse::<Preset>().is_ok(),
            t.parse::<Engine>().is_ok(),
            t.parse::<Opponent>().is_ok(),
            t.parse::<TieBreak>().is_ok(),
            t.parse::<Speed>().is_ok(),
            t.parse::<StageBeads>().is_ok(),
            t.parse::<Reinforcement>().is_ok(),
            t.parse::<Size>().is_ok(),
        ] {
            parsed += usize::from(ok);
        }
        let run = |f: fn(&str) -> Result<(), TestCaseError>| f(t).unwrap();
        run(round_trips::<SymmetryMode>);
        run(round_trips::<Preset>);
        run(round_trips::<Engine>);
        run(round_trips::<Opponent>);
        run(round_trips::<TieBreak>);
        run(round_trips::<Speed>);
        run(round_trips::<StageBeads>);
        run(round_trips::<Reinforcement>);
        run(round_trips::<Size>);
    }
    // The list above is real notation: most of it parses as something.
    assert!(parsed >= 25, "{parsed}");
    let _ = Side::First;
}
