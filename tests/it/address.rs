//! The browser page's address: its settings parsed from the decoded pairs, and the match they
//! ask for equal to the command line's for the same settings.

use matchbox::cli::setup::watch_spec;
use matchbox::front::address::{Screen, Settings};
use matchbox::game::Game;
use matchbox::games::GameKind;
use matchbox::games::hexapawn::{Hexapawn, Size};
use matchbox::games::tictactoe::TicTacToe;
use matchbox::learn::{GameDefaults, MatchSpec, Source};
use matchbox::view::app::Speed;

fn pairs(query: &str) -> Vec<(String, String)> {
    (query.split('&'))
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (k.to_string(), v.to_string())
        })
        .collect()
}

fn page<G: GameDefaults>(game: &G, query: &str) -> MatchSpec<G> {
    let s = Settings::from_pairs(&pairs(query)).unwrap();
    s.match_spec(game).unwrap()
}

#[test]
fn equal_settings_on_the_command_line_and_the_page_make_equal_matches() {
    let cases: [(&str, &[&str]); 4] = [
        (
            "game=tictactoe&seed=5",
            &["watch", "tictactoe", "--seed", "5"],
        ),
        (
            "game=tictactoe&seed=7&preset=michie&opponent=random&side=o",
            &[
                "watch",
                "tictactoe",
                "--seed",
                "7",
                "--preset",
                "michie",
                "--opponent",
                "random",
                "--side",
                "o",
            ],
        ),
        (
            "game=tictactoe&seed=9&beads=3,2,1&reinforcement=2,1,-1:last&symmetry=none&opponent=matchbox",
            &[
                "watch",
                "tictactoe",
                "--seed",
                "9",
                "--beads",
                "3,2,1",
                "--reinforcement",
                "2,1,-1:last",
                "--symmetry",
                "none",
                "--opponent",
                "matchbox",
            ],
        ),
        ("game=menace&seed=2", &["watch", "menace", "--seed", "2"]),
    ];
    for (query, argv) in cases {
        let cli = watch_spec(&TicTacToe, argv).unwrap();
        assert_eq!(page(&TicTacToe, query), cli, "{query} against {argv:?}");
    }
    let her = Hexapawn::new(Size::GARDNER);
    for (query, argv) in [
        ("game=him&seed=4", ["watch", "him", "--seed", "4"]),
        ("game=her&seed=4", ["watch", "her", "--seed", "4"]),
    ] {
        let cli = watch_spec(&her, &argv).unwrap();
        assert_eq!(page(&her, query), cli, "{query} against {argv:?}");
    }
    // And different settings make different matches.
    let a = page(&TicTacToe, "game=tictactoe&seed=5");
    assert_ne!(a, page(&TicTacToe, "game=tictactoe&seed=6"));
    assert_ne!(a, page(&TicTacToe, "game=tictactoe&seed=5&opponent=random"));
}

#[test]
fn him_on_the_page_is_white_as_on_the_command_line() {
    let her = Hexapawn::new(Size::GARDNER);
    let side = |query: &str| match page(&her, query).learner {
        Source::Fresh(spec) => her.side_name(spec.set_choice(&her).0),
        Source::Loaded(_) => unreachable!(),
    };
    assert_eq!(side("game=him&seed=1"), "white");
    assert_eq!(side("game=her&seed=1"), "black");
    assert_eq!(side("game=hexapawn&seed=1"), "black");
    // On the play screen `as` is the person's side; the machine takes the other.
    assert_eq!(side("game=hexapawn&screen=play&as=black&seed=1"), "white");
    assert_eq!(side("game=him&screen=play&as=black&seed=1"), "white");
    // `side` is the machine's side on both screens.
    assert_eq!(side("game=hexapawn&screen=play&side=white&seed=1"), "white");
    let both = Settings::from_pairs(&pairs("screen=play&side=white&as=white")).unwrap();
    let err = both.match_spec(&her).err().unwrap();
    assert!(
        err.starts_with("as: you and the machine cannot both play"),
        "{err}"
    );
}

#[test]
fn the_address_is_read_key_by_key_and_bad_values_name_their_key() {
    let s =
        Settings::from_pairs(&pairs("game=havannah&size=3&speed=flat-out&screen=play")).unwrap();
    assert_eq!(s.kind, GameKind::parse("havannah", Some("3")).unwrap());
    assert_eq!(s.speed, Speed::FlatOut);
    assert_eq!(s.screen, Screen::Play);
    for (query, key) in [
        ("game=chess", "game: "),
        ("speed=fast", "speed: "),
        ("seed=-1", "seed: "),
        ("preset=festival", "preset: "),
        ("screen=both", "screen: "),
        ("opponent=god", "opponent: "),
    ] {
        let err = Settings::from_pairs(&pairs(query)).err().unwrap();
        assert!(err.starts_with(key), "{query}: {err}");
    }
    // Every speed by its name, as the command line takes it.
    for speed in ["step", "slow", "1", "10", "100", "flat-out"] {
        let s: Speed = speed.parse().unwrap();
        assert_eq!(s.name(), speed);
    }
}

/// `watch` and `train` decide a match alike: the tree search cannot be compiled into a table,
/// and both say so with the same words (once `watch` quietly ran on positions instead).
#[test]
fn watch_and_train_refuse_a_search_on_the_table_alike() {
    let her = Hexapawn::new(Size::GARDNER);
    let argv = [
        "watch",
        "hexapawn",
        "--engine",
        "table",
        "--opponent",
        "mcts",
    ];
    let spec = watch_spec(&her, &argv).unwrap();
    let Err(err) = spec.build(her.clone(), &mut |_| {}) else {
        panic!("watch built a search on the table");
    };
    let train = crate::common::refused(&[
        "train",
        "hexapawn",
        "--engine",
        "table",
        "--opponent",
        "mcts",
        "--games",
        "1",
    ]);
    assert!(train.contains(&err.to_string()), "{train} against {err}");
    assert!(train.contains("--engine lazy or auto"), "{train}");
    // And the same options on positions play the same games.
    let argv = ["watch", "hexapawn", "--opponent", "mcts:20", "--seed", "3"];
    assert!(
        watch_spec(&her, &argv)
            .unwrap()
            .build(her, &mut |_| {})
            .is_ok()
    );
}

/// The operator's screen from the address: the person is the visitor, the bead colours and the
/// first-box rule as the command line's `operate` takes them; a bad value refused naming its key.
#[test]
fn the_operators_screen_takes_its_colours_and_first_box_rule() {
    use matchbox::learn::real::operate::FirstBox;
    use matchbox::palette::BeadColours;
    let q = "game=tictactoe&screen=operate&colours=by-cell&first_box=resign&seed=3";
    let s = Settings::from_pairs(&pairs(q)).unwrap();
    assert_eq!(s.screen, Screen::Operate);
    assert_eq!(
        (s.colours, s.first_box),
        (BeadColours::ByCell, FirstBox::Resign)
    );
    let spec = s.match_spec(&TicTacToe).unwrap();
    let human = matchbox::learn::Rival::Player(matchbox::players::Opponent::Human);
    assert!(spec.opponent == human, "the visitor is a person");
    let plain = Settings::from_pairs(&pairs("screen=operate")).unwrap();
    assert_eq!(
        (plain.colours, plain.first_box),
        (BeadColours::ByArrow, FirstBox::Revive)
    );
    for (q, said) in [
        (
            "screen=operat",
            "screen: `operat`: use watch, play or operate",
        ),
        ("colours=red", "colours: `red`: use by-arrow or by-cell"),
        ("first_box=keep", "first_box: `keep`: use revive or resign"),
    ] {
        assert_eq!(Settings::from_pairs(&pairs(q)).unwrap_err(), said);
    }
}
