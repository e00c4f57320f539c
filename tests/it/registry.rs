//! The one registry: every game and historic machine named once, their sides decided once.

use matchbox::game::Game;
use matchbox::games::{self, GAMES, GameKind, alias_side, historic, page_choices, with_game};
use matchbox::learn::GameDefaults;

#[test]
fn every_entry_parses_to_its_own_kind() {
    assert_eq!(GameKind::ALL.len(), GAMES.len());
    for (entry, kind) in GAMES.iter().zip(GameKind::ALL) {
        let size = (kind == GameKind::MiniArimaa).then_some("4");
        assert_eq!(
            GameKind::parse(entry.name, size).unwrap(),
            kind,
            "{}",
            entry.name
        );
        assert_eq!(
            kind.name(),
            if entry.name == "octopawn" {
                "hexapawn"
            } else {
                entry.name
            }
        );
    }
}

#[test]
fn each_historic_machine_is_its_games_nickname_on_its_side() {
    for entry in GAMES {
        for h in entry.machines {
            assert!(entry.aliases.contains(&h.alias), "{} is an alias", h.alias);
            with_game!(entry.kind, |g| {
                let mode = g.default_symmetry(h.side);
                assert_eq!(g.nickname(h.side, mode), Some(h.nickname));
                assert_eq!(alias_side(h.alias), Some(g.side_name(h.side)));
                assert_eq!(
                    g.machine_name(h.side, mode).to_string(),
                    format!("{} ({})", h.nickname, g.side_name(h.side))
                );
            });
        }
        // The first machine is the game's default learner.
        if let Some(first) = entry.machines.first() {
            with_game!(entry.kind, |g| assert_eq!(g.default_side(), first.side));
        }
    }
    assert_eq!(alias_side("HIM"), Some("white"));
    assert_eq!(alias_side("her"), Some("black"));
    assert_eq!(alias_side("menace"), Some("x"));
    assert_eq!(alias_side("hexapawn"), None);
    assert_eq!(historic("Menace").unwrap().0.name, "tictactoe");
}

#[test]
fn a_machine_with_no_nickname_is_named_by_its_side() {
    with_game!(GameKind::parse("havannah", None).unwrap(), |g| {
        let side = g.default_side();
        let name = g.machine_name(side, g.default_symmetry(side)).to_string();
        assert_eq!(name, "the machine (white)");
    });
}

#[test]
fn the_pages_game_list_comes_from_the_registry() {
    let choices = page_choices();
    let values: Vec<&str> = choices.iter().map(|(v, _)| v.as_str()).collect();
    assert_eq!(
        values,
        [
            "hexapawn",
            "him",
            "octopawn",
            "tictactoe",
            "havannah",
            "havannah&size=3",
            "havannah&size=4",
            "arimaa&size=4"
        ]
    );
    // Every choice opens a game a learner plays.
    for (value, words) in &choices {
        let mut parts = value.split('&');
        let name = parts.next().unwrap();
        let size = parts.next().map(|kv| kv.trim_start_matches("size="));
        assert!(GameKind::parse(name, size).is_ok(), "{value} ({words})");
    }
    assert_eq!(choices[1].1, "Hexapawn (HIM)");
    assert!(games::game_help().contains("tictactoe (also"));
}

#[test]
fn a_matchs_error_carries_its_hint_as_data() {
    use matchbox::learn::{BoutError, Hint, MatchError};
    let e = MatchError::from(BoutError::PerfectTooBig {
        game: "havannah",
        variant: "6".into(),
    });
    assert!(!e.to_string().contains("--"), "{e}");
    let h = Hint::of(&e).unwrap();
    assert_eq!(h.as_flag(), "--opponent mcts or random");
    assert_eq!(h.as_param(), "opponent=mcts or random");
    assert_eq!(
        Hint::of(&BoutError::LazyOnTable).unwrap().as_flag(),
        "--engine lazy or auto"
    );
    assert_eq!(
        BoutError::TooBigForTable {
            game: "x",
            variant: String::new()
        }
        .hint(),
        None
    );
}

/// Nicknames come from the registry's machines of history, side by side: MENACE plays X (a
/// machine for O has no name), HER Black and HIM White on Gardner's board only.
#[test]
fn nicknames_are_the_registrys_by_side() {
    use matchbox::game::Side;
    use matchbox::games::hexapawn::{Hexapawn, Size};
    use matchbox::games::tictactoe::TicTacToe;
    use matchbox::learn::{GameDefaults, SymmetryMode};
    let full = SymmetryMode::Full;
    assert_eq!(TicTacToe.nickname(Side::First, full), Some("MENACE"));
    assert_eq!(TicTacToe.nickname(Side::Second, full), None);
    let her = Hexapawn::new(Size::GARDNER);
    assert_eq!(her.nickname(Side::Second, full), Some("HER"));
    assert_eq!(her.nickname(Side::First, full), Some("HIM"));
    assert_eq!(
        Hexapawn::new(Size::OCTOPAWN).nickname(Side::Second, full),
        None
    );
}
