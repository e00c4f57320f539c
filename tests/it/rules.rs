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

mod havannah {
    //! Havannah: the board, the three structures and their edge cases, the fast detector against
    //! a slow reference written here, symmetry, and the solved value of base 2.

    use std::collections::VecDeque;

    use matchbox::game::{Game, Side, Sym};
    use matchbox::games::havannah::{Base, Cell, Havannah, Position, Structures};
    use matchbox::rng::{rng_from_seed, uniform_below};

    fn board(n: u8) -> Havannah {
        Havannah::new(Base::new(n).unwrap())
    }

    fn cell(g: &Havannah, name: &str) -> Cell {
        g.parse_cell(name)
            .unwrap_or_else(|| panic!("{name} is on the board"))
    }

    /// Plays White's `white` cells and Black's `black` cells alternately (White first; the
    /// shorter list is padded with the given filler cells) and returns the final position.
    fn play(g: &Havannah, white: &[&str], black: &[&str]) -> Position {
        let mut pos = g.start();
        for i in 0..white.len().max(black.len()) {
            for (side, list) in [(Side::First, white), (Side::Second, black)] {
                if let Some(name) = list.get(i) {
                    assert_eq!(g.to_move(&pos), side);
                    assert!(g.outcome(&pos).is_none(), "over before {name}");
                    pos = g.play(&pos, cell(g, name));
                }
            }
        }
        pos
    }

    fn structures(pos: &Position) -> Vec<&'static str> {
        pos.structures().names()
    }

    #[test]
    fn boards_have_their_cells_corners_and_sides() {
        for n in 2..=10u8 {
            let g = board(n);
            let n = n as usize;
            assert_eq!(g.cells().len(), 3 * n * (n - 1) + 1);
            let corners: u32 = g.corners().iter().map(|c| c.count()).sum();
            assert_eq!(corners, 6);
            for side in g.sides() {
                assert_eq!(side.count() as usize, n - 2, "base {n}");
            }
        }
        let g = board(4);
        let names: Vec<String> = g
            .corners()
            .iter()
            .map(|c| {
                let i = c.iter().next().unwrap();
                let corner = g.cells().iter().find(|x| x.index() == i).unwrap();
                g.format_move(*corner)
            })
            .collect();
        assert_eq!(names, ["a1", "a4", "d7", "g7", "g4", "d1"]);
        // Neighbours of d4, the centre of base 4: (x±1, y), (x, y±1), (x+1, y+1), (x−1, y−1).
        let mut around: Vec<String> = g
            .neighbours(cell(&g, "d4"))
            .map(|c| g.format_move(c))
            .collect();
        around.sort();
        assert_eq!(around, ["c3", "c4", "d3", "d5", "e4", "e5"]);
        assert!(g.parse_cell("a5").is_none() && g.parse_cell("h1").is_none());
    }

    #[test]
    fn rings() {
        let g = board(4);
        // Around an empty cell (d4).
        let ring = ["c3", "c4", "d5", "e5", "e4", "d3"];
        let far = ["a1", "a2", "a3", "g7", "g6"];
        let pos = play(&g, &ring, &far);
        assert_eq!(structures(&pos), ["ring"]);
        assert_eq!(g.outcome(&pos).unwrap().winner, Some(Side::First));
        // Around an enemy stone.
        let pos = play(&g, &ring, &["d4", "a1", "a2", "a3", "g7"]);
        assert_eq!(structures(&pos), ["ring"]);
        // Around an own stone: the filled hexagon, whichever stone comes last.
        let pos = play(
            &g,
            &["d4", "c3", "c4", "d5", "e5", "e4", "d3"],
            &far.iter().chain(&["g5"]).copied().collect::<Vec<_>>(),
        );
        assert_eq!(structures(&pos), ["ring"]);
        // (With the centre last the six around it would already have made a ring.)
        let pos = play(&g, &["c3", "c4", "d5", "e5", "e4", "d3"], &far);
        assert_eq!(structures(&pos), ["ring"]);
        // Five of the six are no ring yet.
        let pos = play(&g, &ring[..5], &far[..4]);
        assert!(g.outcome(&pos).is_none());
        // A 6-stone triangle encloses nothing.
        let pos = play(&g, &["d4", "d5", "d6", "e5", "e6", "f6"], &far);
        assert!(structures(&pos).is_empty(), "{}", g.format_position(&pos));
        assert!(g.outcome(&pos).is_none());
        // A ring through a corner (a1), around b2.
        let pos = play(
            &g,
            &["a1", "a2", "b3", "c3", "c2", "b1"],
            &["g7", "g6", "g5", "f7", "e7"],
        );
        assert!(structures(&pos).contains(&"ring"), "{:?}", structures(&pos));
    }

    #[test]
    fn bridges_and_forks() {
        let g = board(4);
        // a1 to a4 along row a: a bridge.
        let pos = play(&g, &["a1", "a2", "a3", "a4"], &["g7", "g6", "g5"]);
        assert_eq!(structures(&pos), ["bridge"]);
        // Three sides (row a's inner cells, column 1's, and the far side): a fork.
        let g5 = board(5);
        // a3 on side y = 0, i7 on side y = 8, d1 on side x = 0.
        let fork = [
            "a3", "b3", "c3", "d3", "e3", "f4", "g5", "h6", "i7", "d2", "d1",
        ];
        let far = ["i9", "i8", "h9", "h8", "g9", "g8", "f9", "f8", "d8", "c7"];
        let pos = play(&g5, &fork, &far);
        assert!(structures(&pos).contains(&"fork"), "{:?}", structures(&pos));
        // Two sides and a corner are no fork.
        // a2 on side y = 0, c1 on side x = 0, d1 a corner.
        let pos = play(
            &g,
            &["a2", "b2", "c2", "c1", "d1"],
            &["g7", "g6", "g5", "f7"],
        );
        assert!(structures(&pos).is_empty(), "{:?}", structures(&pos));
        assert!(g.outcome(&pos).is_none());
    }

    /// The slow reference: the last stone's group by breadth-first search; a bridge or fork by
    /// counting the corners and sides it touches; a ring when some cell, any cell, cannot reach the
    /// board's edge through cells outside the group.
    fn reference(g: &Havannah, pos: &Position, last: Cell, side: Side) -> Structures {
        let own = pos.stones(side);
        let mut group = vec![false; 512];
        let mut queue = VecDeque::from([last]);
        group[last.index()] = true;
        while let Some(c) = queue.pop_front() {
            for nb in g.neighbours(c) {
                if own.has(nb.index()) && !group[nb.index()] {
                    group[nb.index()] = true;
                    queue.push_back(nb);
                }
            }
        }
        let in_group = |c: usize| group[c];
        let touches = |sets: [matchbox::games::havannah::Bits; 6]| {
            sets.iter().filter(|s| s.iter().any(in_group)).count()
        };
        let enclosed = |x: Cell| {
            let mut seen = vec![false; 512];
            let mut queue = VecDeque::from([x]);
            seen[x.index()] = true;
            while let Some(c) = queue.pop_front() {
                if g.edge().has(c.index()) {
                    return false;
                }
                for nb in g.neighbours(c) {
                    if !in_group(nb.index()) && !seen[nb.index()] {
                        seen[nb.index()] = true;
                        queue.push_back(nb);
                    }
                }
            }
            true
        };
        let mut found = Structures::default();
        if g.cells().iter().any(|&x| enclosed(x)) {
            found = found | Structures::RING;
        }
        if touches(g.corners()) >= 2 {
            found = found | Structures::BRIDGE;
        }
        if touches(g.sides()) >= 3 {
            found = found | Structures::FORK;
        }
        found
    }

    #[test]
    fn the_fast_detector_agrees_with_the_slow_reference_over_random_games() {
        let mut rng = rng_from_seed(2012);
        let mut endings = [0usize; 4];
        let mut several = 0;
        for n in 3..=10u8 {
            let g = board(n);
            let games = if n <= 5 { 400 } else { 40 };
            for _ in 0..games {
                let mut pos = g.start();
                while g.outcome(&pos).is_none() {
                    let moves = g.moves(&pos);
                    let mv = moves[uniform_below(&mut rng, moves.len() as u32) as usize];
                    let side = g.to_move(&pos);
                    pos = g.play(&pos, mv);
                    assert_eq!(
                        pos.structures(),
                        reference(&g, &pos, mv, side),
                        "base {n}: {} after {}",
                        g.format_position(&pos),
                        g.format_move(mv)
                    );
                }
                match g.outcome(&pos).unwrap().winner {
                    None => endings[3] += 1,
                    Some(_) => {
                        several += usize::from(pos.structures().names().len() > 1);
                        for (k, s) in [Structures::RING, Structures::BRIDGE, Structures::FORK]
                            .into_iter()
                            .enumerate()
                        {
                            endings[k] += usize::from(pos.structures().contains(s));
                        }
                    }
                }
            }
        }
        // Random games end every way, some with several structures at once, some drawn.
        assert!(endings[..3].iter().all(|&e| e > 0), "{endings:?}");
        assert!(several > 0);
        assert!(endings[3] > 0, "no drawn game: {endings:?}");
    }

    #[test]
    fn positions_round_trip_and_symmetries_act_on_them() {
        // Bases 2 to 4 take the one-word path (symmetries a byte at a time; 32-bit tables on
        // bases 2 and 3), base 5 the six-word one; all agree with trying every image.
        for base in [2, 3, 4, 5] {
            symmetries_act_on(&board(base), 200);
        }
    }

    /// The forced move found without listing the moves is the one legal move, if there is one.
    #[test]
    fn the_only_move_is_the_last_empty_cell() {
        let mut rng = rng_from_seed(3);
        let mut forced = 0;
        for base in [2, 3] {
            let g = board(base);
            for _ in 0..300 {
                let mut pos = g.start();
                loop {
                    let moves = g.moves(&pos);
                    let only = match moves[..] {
                        [m] => Some(m),
                        _ => None,
                    };
                    assert_eq!(g.only_move(&pos), only);
                    forced += usize::from(only.is_some());
                    if moves.is_empty() {
                        break;
                    }
                    pos = g.play(
                        &pos,
                        moves[uniform_below(&mut rng, moves.len() as u32) as usize],
                    );
                }
            }
        }
        assert!(forced > 0, "no position with one empty cell met");
    }

    fn symmetries_act_on(g: &Havannah, games: usize) {
        let mut rng = rng_from_seed(7);
        let mut legal_order = Vec::new();
        for _ in 0..games {
            let mut pos = g.start();
            let plies = uniform_below(&mut rng, 20);
            for _ in 0..plies {
                if g.outcome(&pos).is_some() {
                    break;
                }
                let moves = g.moves(&pos);
                pos = g.play(
                    &pos,
                    moves[uniform_below(&mut rng, moves.len() as u32) as usize],
                );
            }
            let text = g.format_position(&pos);
            assert_eq!(
                g.parse_position(&text, g.to_move(&pos)).unwrap(),
                pos,
                "{text}"
            );
            let (canon, s) = g.canonical(&pos);
            assert_eq!((canon, s), matchbox::game::least_image(g, &pos));
            // Legal moves come in increasing order (remembered options rely on it).
            g.legal_moves(&pos, &mut legal_order);
            assert!(legal_order.is_sorted());
            legal_order.clear();
            assert_eq!(g.canonical(&canon).0, canon);
            assert_eq!(g.transform_position(s, &pos), canon);
            for k in 0..12u8 {
                let sym = Sym(k);
                let image = g.transform_position(sym, &pos);
                for side in [Side::First, Side::Second] {
                    for &c in g.cells() {
                        let moved = g.transform_move(sym, c);
                        assert_eq!(
                            pos.stones(side).has(c.index()),
                            image.stones(side).has(moved.index())
                        );
                    }
                }
                assert_eq!(g.canonical(&image).0, canon);
                assert_eq!(g.transform_position(g.inverse(sym), &image), pos);
                let mut moved: Vec<Cell> = g
                    .moves(&pos)
                    .into_iter()
                    .map(|m| g.transform_move(sym, m))
                    .collect();
                moved.sort();
                let mut legal = g.moves(&image);
                legal.sort();
                assert_eq!(moved, legal);
            }
        }
        assert!(g.parse_position("W../", Side::First).is_err());
    }
}

mod havannah_playouts {
    use matchbox::game::Game;
    use matchbox::games::havannah::playout::Playouts;
    use matchbox::games::havannah::{Base, Havannah};
    use matchbox::rng::rng_from_seed;

    /// The fast engine's games, replayed move by move through the rules, end the same way.
    #[test]
    fn the_playout_engine_agrees_with_the_rules() {
        for n in [2u8, 3, 4, 6, 9] {
            let g = Havannah::new(Base::new(n).unwrap());
            let mut engine = Playouts::new(&g);
            let mut rng = rng_from_seed(n as u64);
            for _ in 0..300 {
                let end = engine.play(&mut rng);
                let mut pos = g.start();
                for &mv in engine.moves(end.plies) {
                    assert!(g.outcome(&pos).is_none());
                    pos = g.play(&pos, mv);
                }
                let outcome = g.outcome(&pos).expect("the game is over");
                assert_eq!(outcome.winner, end.winner, "base {n}");
                assert_eq!(pos.structures(), end.structures, "base {n}");
            }
            // From a position in mid-game, too.
            for k in 0..100u32 {
                let mut pos = g.start();
                for _ in 0..(k % 7) * 2 {
                    let moves = g.moves(&pos);
                    let mv =
                        moves[matchbox::rng::uniform_below(&mut rng, moves.len() as u32) as usize];
                    pos = g.play(&pos, mv);
                    if g.outcome(&pos).is_some() {
                        break;
                    }
                }
                if g.outcome(&pos).is_some() {
                    continue;
                }
                let end = engine.play_from(&pos, &mut rng);
                let start_plies = engine.moves(0).len();
                let _ = start_plies;
                let placed = (pos.stones(matchbox::game::Side::First).count()
                    + pos.stones(matchbox::game::Side::Second).count())
                    as usize;
                let moves: Vec<_> = engine.moves(placed as u32 + end.plies)[placed..].to_vec();
                let mut cur = pos;
                for mv in moves {
                    assert!(g.outcome(&cur).is_none());
                    cur = g.play(&cur, mv);
                }
                let outcome = g.outcome(&cur).expect("over");
                assert_eq!(
                    outcome.winner,
                    end.winner,
                    "base {n} from {}",
                    g.format_position(&pos)
                );
                assert_eq!(cur.structures(), end.structures);
            }
        }
    }

    /// A digest of `games` random games of base `n` from seed `n`: every move, the winner and
    /// the structures of each.
    fn digest(n: u8, games: usize) -> u64 {
        let g = Havannah::new(Base::new(n).unwrap());
        let mut engine = Playouts::new(&g);
        let mut rng = rng_from_seed(n as u64);
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        let mut eat = |x: u64| {
            h ^= x;
            h = h.wrapping_mul(0x100_0000_01b3);
        };
        for _ in 0..games {
            let end = engine.play(&mut rng);
            eat(end.plies as u64);
            eat(end.winner.map_or(2, |w| w as u64));
            for b in format!("{:?}", end.structures).bytes() {
                eat(b as u64);
            }
            for &mv in engine.moves(end.plies) {
                eat(mv.index() as u64);
            }
        }
        h
    }

    /// The engine plays the very games it played before its ring test became a look at the new
    /// stone's neighbours (the digests were printed by the flood-fill engine).
    #[test]
    fn the_same_games_as_the_flood_fill_engine() {
        let got: Vec<(u8, u64)> = [3u8, 4, 5, 8, 10]
            .iter()
            .map(|&n| (n, digest(n, 2000)))
            .collect();
        assert_eq!(got, EXPECTED);
    }

    const EXPECTED: &[(u8, u64)] = &[
        (3, 12761449759450061881),
        (4, 2360688760777106697),
        (5, 9774790988487931062),
        (8, 11719451813265707433),
        (10, 6158621606104841155),
    ];

    /// UCT at 1,000 simulations a move beats the random player in at least 95 % of games on
    /// base 4, playing either colour (seeded, so the figure is the same every run).
    #[test]
    fn mcts_beats_the_random_player() {
        use matchbox::game::Side;
        use matchbox::players::{MctsPlayer, Player, RandomPlayer, Turn};
        let g = Havannah::new(Base::new(4).unwrap());
        let mut rng = rng_from_seed(4);
        let mut mcts = MctsPlayer::new(1000);
        let games = 40;
        let mut won = 0;
        for i in 0..games {
            let mcts_side = if i % 2 == 0 {
                Side::First
            } else {
                Side::Second
            };
            let mut pos = g.start();
            let mut history = vec![pos];
            while g.outcome(&pos).is_none() {
                let turn = Turn {
                    ply: history.len() as u32 - 1,
                    history: &history,
                    rng: &mut rng,
                };
                let mv = if g.to_move(&pos) == mcts_side {
                    mcts.choose(&g, &pos, turn)
                } else {
                    RandomPlayer.choose(&g, &pos, turn)
                }
                .unwrap();
                pos = g.play(&pos, mv);
                history.push(pos);
            }
            won += usize::from(g.outcome(&pos).unwrap().winner == Some(mcts_side));
        }
        assert!(won * 100 >= games * 95, "MCTS won {won} of {games}");
    }
}
