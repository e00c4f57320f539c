//! Hexapawn rules and notation, as data: positions, their legal moves and their outcomes.

use matchbox::game::{Game, GameError, Side};
use matchbox::games::hexapawn::{Hexapawn, Reason, Size};

fn game(size: &str) -> Hexapawn {
    Hexapawn::new(size.parse().unwrap())
}

fn moves(g: &Hexapawn, pos: &str, side: Side) -> Vec<String> {
    let p = g.parse_position(pos, side).unwrap();
    let mut m: Vec<String> = g.moves(&p).into_iter().map(|m| g.format_move(m)).collect();
    m.sort();
    m
}

#[test]
fn legal_moves_by_position() {
    // (size, position, side to move, legal moves sorted)
    let cases: &[(&str, &str, Side, &[&str])] = &[
        (
            "3x3",
            "BBB/.../WWW",
            Side::First,
            &["a1-a2", "b1-b2", "c1-c2"],
        ),
        (
            "3x3",
            "BBB/.W./W.W",
            Side::Second,
            &["a3-a2", "a3xb2", "c3-c2", "c3xb2"],
        ),
        // A blocked pawn has no straight move; captures are diagonal only.
        ("3x3", "B.B/WBW/.W.", Side::Second, &[]),
        (
            "3x3",
            ".BB/.B./W.W",
            Side::First,
            &["a1-a2", "a1xb2", "c1-c2", "c1xb2"],
        ),
        (
            "4x4",
            "BBBB/..../..../WWWW",
            Side::First,
            &["a1-a2", "b1-b2", "c1-c2", "d1-d2"],
        ),
        // On two ranks White captures onto the far rank at once.
        (
            "2x3",
            "BBB/WWW",
            Side::First,
            &["a1xb2", "b1xa2", "b1xc2", "c1xb2"],
        ),
        ("3x2", "BB/../WW", Side::Second, &["a3-a2", "b3-b2"]),
    ];
    for (size, pos, side, expected) in cases {
        let g = game(size);
        assert_eq!(moves(&g, pos, *side), *expected, "{size} {pos} {side}");
    }
}

#[test]
fn outcomes_by_position() {
    type Case = (&'static str, &'static str, Side, Option<(Side, Reason)>);
    let cases: &[Case] = &[
        ("3x3", "BBB/.../WWW", Side::First, None),
        // White reached rank 3.
        (
            "3x3",
            "BWB/.../W.W",
            Side::Second,
            Some((Side::First, Reason::FarRank)),
        ),
        // Black reached rank 1.
        (
            "3x3",
            ".B./.../WBW",
            Side::First,
            Some((Side::Second, Reason::FarRank)),
        ),
        // Black captured the last White pawn.
        (
            "3x3",
            "B../.B./...",
            Side::First,
            Some((Side::Second, Reason::AllCaptured)),
        ),
        // Black to move has no move.
        (
            "3x3",
            "B.B/WBW/.W.",
            Side::Second,
            Some((Side::First, Reason::NoMove)),
        ),
        // Two pawns facing each other on a 2-rank board, White to move: blocked, White loses.
        (
            "2x2",
            "B./W.",
            Side::First,
            Some((Side::Second, Reason::NoMove)),
        ),
    ];
    for (size, pos, side, expected) in cases {
        let g = game(size);
        let p = g.parse_position(pos, *side).unwrap();
        let got = g.outcome(&p).map(|o| (o.winner.unwrap(), o.reason));
        assert_eq!(got, *expected, "{size} {pos}");
        assert_eq!(g.moves(&p).is_empty(), expected.is_some(), "{size} {pos}");
    }
}

#[test]
fn playing_a_line_of_moves() {
    let g = game("3x3");
    let mut p = g.start();
    for (mv, after) in [
        ("b1-b2", "BBB/.W./W.W"),
        ("a3xb2", ".BB/.B./W.W"),
        ("c1xb2", ".BB/.W./W.."),
        ("c3-c2", ".B./.WB/W.."),
        ("a1-a2", ".B./WWB/..."),
        ("c2-c1", ".B./WW./..B"),
    ] {
        let m = g.parse_move(&p, mv).unwrap();
        assert_eq!(g.format_move(m), mv);
        p = g.play(&p, m);
        assert_eq!(g.format_position(&p), after);
    }
    let o = g.outcome(&p).unwrap();
    assert_eq!(o.winner, Some(Side::Second));
    assert_eq!(o.reason, Reason::FarRank);
}

#[test]
fn move_parsing_accepts_variants_and_rejects_illegal_moves() {
    let g = game("3x3");
    let p = g.start();
    for text in ["b1-b2", " b1b2 ", "B1-B2", "b1:b2"] {
        assert_eq!(
            g.format_move(g.parse_move(&p, text).unwrap()),
            "b1-b2",
            "{text}"
        );
    }
    let err = g.parse_move(&p, "b1-b3").unwrap_err();
    assert_eq!(
        err,
        GameError::IllegalMove {
            mv: "b1-b3".into(),
            legal: "a1-a2, b1-b2, c1-c2".into()
        }
    );
    assert!(err.to_string().contains("not a legal move"));
    for junk in ["", "b", "z1-z2", "b9-b2", "hello"] {
        assert!(
            matches!(g.parse_move(&p, junk), Err(GameError::BadMoveSyntax { .. })),
            "{junk:?}"
        );
    }
}

#[test]
fn position_parsing_rejects_bad_diagrams() {
    let g = game("3x3");
    for (text, side, why) in [
        ("BBB/.../WW", Side::First, "rank 1 has 2 squares"),
        ("BBB/WWW", Side::First, "2 ranks"),
        ("BBB/.X./WWW", Side::First, "`X` is not a square"),
        ("BWB/.../W.W", Side::First, "already stands on the far rank"),
        (
            "BBB/.../...",
            Side::Second,
            "white has no pawns, yet it made the last move",
        ),
    ] {
        let err = g.parse_position(text, side).unwrap_err().to_string();
        assert!(err.contains(why), "{text}: {err}");
    }
    let p = g.parse_position("BBB/.W./W.W", Side::Second).unwrap();
    assert_eq!(g.format_position(&p), "BBB/.W./W.W");
    assert_eq!(g.diagram(&p), ["3 B B B", "2 . W .", "1 W . W", "  a b c"]);
}

#[test]
fn sizes_are_validated() {
    assert_eq!("4x4".parse::<Size>().unwrap(), Size::OCTOPAWN);
    assert_eq!("8X8".parse::<Size>().unwrap().to_string(), "8x8");
    for bad in ["1x3", "3x9", "9x9", "3", "axb", "3x3x3", ""] {
        assert!(bad.parse::<Size>().is_err(), "{bad}");
    }
}

#[test]
fn sides_have_game_names_and_generic_names() {
    let g = game("3x3");
    assert_eq!(g.parse_side("white"), Some(Side::First));
    assert_eq!(g.parse_side("Black"), Some(Side::Second));
    assert_eq!(g.parse_side("first"), Some(Side::First));
    assert_eq!(g.parse_side("second"), Some(Side::Second));
    assert_eq!(g.parse_side("x"), None);
}
