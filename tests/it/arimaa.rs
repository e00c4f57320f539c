//! Arimaa's rules: the turns of positions against the official figures and the pyrimaa reference.

use matchbox::game::Side;
use matchbox::games::arimaa::Rules;

const START: &str = "[rrrrrrrrdhcemchd                                DHCMECHDRRRRRRRR]";

#[test]
fn the_standard_start_has_3353_distinct_turns() {
    let rules = Rules::standard();
    let board = rules.parse_short(START).unwrap();
    let list = rules.turns(&board, Side::First);
    assert_eq!(list.turns.len(), 3353);
    assert_eq!(list.by_min_steps, vec![8, 70, 462, 2813]);
    assert_eq!(rules.short_form(&board), START);
}

/// Forty positions from random games of the full game, with pushes, pulls, frozen pieces and
/// traps: the distinct turns and their count by fewest steps, as the pyrimaa reference generator
/// (AEI) finds them (tests/data/arimaa-pyrimaa.py wrote the file).
#[test]
fn turns_agree_with_the_pyrimaa_reference_on_random_middle_games() {
    let rules = Rules::standard();
    let data = include_str!("../data/arimaa-pyrimaa.txt");
    let mut checked = 0;
    for line in data.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        let side = if fields[0] == "gold" {
            Side::First
        } else {
            Side::Second
        };
        let turns: usize = fields[1].parse().unwrap();
        let by_min: Vec<usize> = fields[2].split(' ').map(|n| n.parse().unwrap()).collect();
        let board = rules.parse_short(fields[3]).unwrap();
        let list = rules.turns(&board, side);
        assert_eq!(list.turns.len(), turns, "{line}");
        assert_eq!(list.by_min_steps, by_min, "{line}");
        // Walked without a list, the same results in the same order, and a walk stops when
        // asked to.
        let mut walked = Vec::new();
        let (first, by) = rules.each_turn(&board, side, |b| {
            walked.push(*b);
            true
        });
        let listed: Vec<Board> = list.turns.iter().map(|(b, _)| *b).collect();
        assert_eq!(walked, listed, "{line}");
        assert_eq!((first, by), (list.first_steps, by_min), "{line}");
        let mut seen = 0;
        rules.each_turn(&board, side, |_| {
            seen += 1;
            seen < 5
        });
        assert_eq!(seen, 5);
        checked += 1;
    }
    assert_eq!(checked, 40);
}

use matchbox::games::arimaa::{Board, EndReason, GameLine, Step};

/// A board from placements (`Ed4 rc5`), on the full 8×8 board.
fn board(rules: &Rules, pieces: &str) -> Board {
    let mut b = Board::default();
    for p in pieces.split_whitespace() {
        let (side, kind, sq) = rules.parse_placement(p).unwrap();
        b.put(sq, side, kind);
    }
    b
}

/// The steps of a turn written as tokens (capture tokens left out).
fn steps(rules: &Rules, text: &str) -> Vec<Step> {
    text.split_whitespace()
        .filter_map(|t| rules.parse_step(t).unwrap().map(|(_, _, s)| s))
        .collect()
}

/// Whether a turn is legal and, if so, the board it makes and its notation with captures.
fn turn(rules: &Rules, b: &Board, side: Side, text: &str) -> Option<(Board, String)> {
    let s = steps(rules, text);
    let after = rules.follow(b, side, &s).ok()?;
    // Every legal turn is among the generated turns, and the other way round.
    assert!(
        rules.turns(b, side).turns.iter().any(|(r, _)| *r == after),
        "{text}: followed but not generated"
    );
    Some((after, rules.format_steps(b, &s)))
}

#[test]
fn a_pull_completes_after_the_puller_is_captured_on_a_trap() {
    let r = Rules::standard();
    let b = board(&r, "Dc4 Ra1 cc5 ra8");
    let (after, text) = turn(&r, &b, Side::First, "Dc4s cc5s").unwrap();
    assert_eq!(text, "Dc4s Dc3x cc5s");
    assert_eq!(after, board(&r, "Ra1 cc4 ra8"));
    // A stronger piece cannot be pulled.
    let b = board(&r, "Dc4 Ra1 hc5 ra8");
    assert!(turn(&r, &b, Side::First, "Dc4s hc5s").is_none());
}

#[test]
fn a_push_into_a_trap_captures_and_the_pusher_takes_the_square() {
    let r = Rules::standard();
    let b = board(&r, "Ed4 Ra1 dc4 ra8");
    let (after, text) = turn(&r, &b, Side::First, "dc4s Ed4w").unwrap();
    assert_eq!(text, "dc4s dc3x Ed4w");
    assert_eq!(after, board(&r, "Ec4 Ra1 ra8"));
    // A push must be finished: the victim's step alone is not a turn.
    assert!(turn(&r, &b, Side::First, "dc4s").is_none());
    // And it cannot begin on the last step.
    assert!(turn(&r, &b, Side::First, "Ra1n Ra2n Ra3n dc4n").is_none());
}

#[test]
fn a_push_that_takes_away_a_trap_s_last_guard_captures_the_piece_on_it() {
    let r = Rules::standard();
    let b = board(&r, "Ee4 Ra1 df4 rf3 ra8");
    let (after, text) = turn(&r, &b, Side::First, "df4e Ee4e").unwrap();
    assert_eq!(text, "df4e rf3x Ee4e");
    assert_eq!(after, board(&r, "Ef4 Ra1 dg4 ra8"));
}

#[test]
fn a_piece_alone_on_a_trap_captures_itself() {
    let r = Rules::standard();
    let b = board(&r, "Hc2 Ra1 ra8");
    let (after, text) = turn(&r, &b, Side::First, "Hc2n").unwrap();
    assert_eq!(text, "Hc2n Hc3x");
    assert_eq!(after, board(&r, "Ra1 ra8"));
    // With a friend beside the trap it stays.
    let b = board(&r, "Hc2 Db3 Ra1 ra8");
    let (after, _) = turn(&r, &b, Side::First, "Hc2n").unwrap();
    assert_eq!(after, board(&r, "Hc3 Db3 Ra1 ra8"));
}

#[test]
fn frozen_pieces_cannot_step_until_a_friend_comes() {
    let r = Rules::standard();
    let b = board(&r, "Rd4 Ra1 cd5 ra8");
    assert!(r.frozen(&b, r.parse_square("d4").unwrap(), Side::First, 0));
    assert!(turn(&r, &b, Side::First, "Rd4e").is_none());
    // A friend steps beside it, and it moves on the same turn.
    let b = board(&r, "Rd4 Dc3 Ra1 cd5 ra8");
    assert!(turn(&r, &b, Side::First, "Rd4e").is_none());
    assert!(turn(&r, &b, Side::First, "Dc3n Rd4e").is_some());
    // Rabbits never step back; other pieces do.
    let b = board(&r, "Rd4 Ra1 ra8");
    assert!(turn(&r, &b, Side::First, "Rd4s").is_none());
    assert!(turn(&r, &b, Side::First, "Rd4n").is_some());
}

#[test]
fn an_enemy_rabbit_pushed_onto_its_goal_and_pulled_off_again_does_not_win() {
    let r = Rules::standard();
    let b = board(&r, "Eb2 Rh1 ra2 rh8");
    let mut line = GameLine::new(b, Side::First);
    line.play(&r, &["ra2s", "Eb2w", "Ea2n", "ra1n"]).unwrap();
    assert_eq!(line.end, None);
    // Left on its goal, the rabbit wins for Silver at the end of Gold's turn.
    let mut line = GameLine::new(b, Side::First);
    line.play(&r, &["ra2s", "Eb2w"]).unwrap();
    assert_eq!(line.end, Some((Side::Second, EndReason::Goal)));
}

#[test]
fn goal_elimination_and_immobilization_end_the_game() {
    let r = Rules::standard();
    // A Gold rabbit reaches rank 8.
    let mut line = GameLine::new(board(&r, "Ra7 rh8"), Side::First);
    line.play(&r, &["Ra7n"]).unwrap();
    assert_eq!(line.end, Some((Side::First, EndReason::Goal)));
    // Gold captures Silver's last rabbit.
    let mut line = GameLine::new(board(&r, "Ed4 Ra1 rc4 dh8"), Side::First);
    line.play(&r, &["rc4s", "Ed4w"]).unwrap();
    assert_eq!(line.end, Some((Side::First, EndReason::Elimination)));
    // Silver's only piece, a rabbit on h8, is boxed in by Gold: Silver cannot move.
    let mut line = GameLine::new(board(&r, "Mg8 Hh6 Ra1 rh8"), Side::First);
    line.play(&r, &["Hh6n"]).unwrap();
    assert_eq!(line.end, Some((Side::First, EndReason::Immobilization)));
    // And the other way round: Gold's rabbit on a1 boxed in by Silver.
    let mut line = GameLine::new(board(&r, "Ra1 mb1 ha3 rh8"), Side::Second);
    line.play(&r, &["ha3s"]).unwrap();
    assert_eq!(line.end, Some((Side::Second, EndReason::Immobilization)));
}

#[test]
fn a_turn_that_makes_a_position_the_third_time_is_illegal() {
    let r = Rules::standard();
    let start = r.parse_short(START).unwrap();
    let mut line = GameLine::new(start, Side::First);
    for t in ["Ee2n", "ed7s", "Ee3s", "ed6n", "Ee2n", "ed7s", "Ee3s"] {
        line.play(&r, &[t]).unwrap();
    }
    let err = line.play(&r, &["ed6n"]).unwrap_err();
    assert!(err.contains("third time"), "{err}");
    // The position may still be changed any other way.
    line.play(&r, &["ed6w"]).unwrap();
}

#[test]
fn the_full_game_starts_with_two_setups() {
    let r = Rules::standard();
    let mut line = GameLine::from_setup();
    let gold = "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Da2 Hb2 Cc2 Md2 Ee2 Cf2 Hg2 Dh2";
    let silver = "ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 da7 hb7 cc7 ed7 me7 cf7 hg7 dh7";
    let tokens = |s: &'static str| s.split(' ').collect::<Vec<_>>();
    assert!(line.play(&r, &tokens("Ra1 Rb1")).is_err());
    line.play(&r, &tokens(gold)).unwrap();
    line.play(&r, &tokens(silver)).unwrap();
    assert_eq!(r.short_form(&line.board), START);
    assert_eq!(line.to_move, Side::First);
}

/// Mini-Arimaa by retrograde analysis (its positions repeat): Gold wins in 17 plies.
#[test]
fn mini_arimaa_is_a_first_player_win() {
    use matchbox::game::Game;
    use matchbox::game::graph::GameGraph;
    use matchbox::games::arimaa::MiniArimaa;
    use matchbox::solve::{Solution, Value};
    let game = MiniArimaa::new();
    let graph = GameGraph::build(&game);
    assert_eq!(graph.len(), 54_134);
    let solution = Solution::retrograde(&graph);
    assert_eq!(solution.value(0), Value::Win(17));
    // The perfect line ends in a Gold win within the learning games' limit.
    let line = solution.principal_variation(&graph, 0);
    assert_eq!(line.len(), 17);
    let mut pos = game.start();
    for mv in line {
        pos = game.play(&pos, mv);
    }
    assert_eq!(game.outcome(&pos).unwrap().winner, Some(Side::First));
}

/// On mini-Arimaa's board the traps b2 and c3 share two neighbours (b3, c2): one step away can
/// leave both unguarded, and both pieces are captured.
#[test]
fn one_step_can_capture_on_two_traps_of_a_small_board() {
    let game = matchbox::games::arimaa::MiniArimaa::new();
    let r = game.rules();
    let mut b = Board::default();
    for p in ["Rb2", "Rc3", "Dc2", "rd4"] {
        let (side, kind, sq) = r.parse_placement(p).unwrap();
        b.put(sq, side, kind);
    }
    let s = steps(r, "Dc2s");
    let after = r.follow(&b, Side::First, &s).unwrap();
    assert_eq!(r.format_steps(&b, &s), "Dc2s Rb2x Rc3x");
    assert_eq!(after.side(Side::First).count_ones(), 1);
}

/// A mini-Arimaa turn as a record writes it keeps its capture tokens (`rc3x`), and reads back
/// as the same turn.
#[test]
fn mini_arimaa_move_lists_keep_their_capture_tokens() {
    use matchbox::game::Game;
    use matchbox::games::arimaa::MiniArimaa;
    use matchbox::rng::{rng_from_seed, uniform_below};
    let game = MiniArimaa::new();
    let mut rng = rng_from_seed(3);
    let mut captures = 0;
    for _ in 0..200 {
        let mut pos = game.start();
        for _ in 0..60 {
            if game.outcome(&pos).is_some() {
                break;
            }
            let moves = game.moves(&pos);
            let mv = moves[uniform_below(&mut rng, moves.len() as u32) as usize];
            let text = game.format_move_at(&pos, mv);
            assert_eq!(game.parse_move(&pos, &text), Ok(mv), "{text}");
            let count = |p: &matchbox::games::arimaa::mini::Position| {
                game.format_position(p)
                    .chars()
                    .filter(|c| c.is_alphabetic())
                    .count()
            };
            let next = game.play(&pos, mv);
            let tokens = text.split(' ').filter(|t| t.ends_with('x')).count();
            assert_eq!(tokens, count(&pos) - count(&next), "{text}");
            captures += tokens;
            pos = next;
        }
    }
    assert!(captures > 10, "captures met: {captures}");
}

/// A fragment of a game record, with its move numbers, is taken by `moves` as by `replay`: the
/// turns are numbered from the first move number written (or from --turn).
#[test]
fn a_record_fragment_numbers_its_turns_from_its_first_move_number() {
    let turns = |extra: &[&str]| {
        let mut a = vec!["moves", "arimaa", "--moves", "50g Ee2n 50s ed7s", "--json"];
        a.extend(extra);
        crate::common::json(&a)["turns"].as_u64().unwrap()
    };
    assert!(turns(&[]) > 0);
    assert_eq!(turns(&["--turn", "50"]), turns(&[]));
    let err = crate::common::refused(&[
        "moves",
        "arimaa",
        "--turn",
        "3",
        "--moves",
        "50g Ee2n 50s ed7s",
    ]);
    assert!(
        err.contains("turn 3g") && err.contains("`50g` stands before"),
        "{err}"
    );
    let err = crate::common::refused(&["moves", "arimaa", "--moves", "50g Ee2n 51s ed7s"]);
    assert!(err.contains("`51s` stands before turn 50s"), "{err}");
    let err = crate::common::refused(&["replay", "arimaa", "--moves", "7g Ra1"]);
    assert!(
        err.contains("turn 7g"),
        "replay numbers from the record too: {err}"
    );
}
