//! Solved values against the published results: 3×3 is a second-player win
//! (1. b2 axb2 2. cxb2 c2 3. a2 c1#), 4×4 (octopawn) a first-player win.

use matchbox::game::graph::GameGraph;
use matchbox::game::{Game, Side};
use matchbox::games::hexapawn::Hexapawn;
use matchbox::solve::{Solution, TieBreak, Value};

fn solved(size: &str) -> (Hexapawn, GameGraph<Hexapawn>, Solution) {
    let game = Hexapawn::new(size.parse().unwrap());
    let graph = GameGraph::build(&game);
    let solution = Solution::solve(&graph).expect("no cycles");
    (game, graph, solution)
}

#[test]
fn hexapawn_3x3_is_a_second_player_win_along_the_published_line() {
    let (game, graph, solution) = solved("3x3");
    assert_eq!(graph.len(), 135);
    assert_eq!(solution.winner(&graph, 0), Some(Side::Second));
    assert_eq!(solution.value(0), Value::Loss(6));
    // Every White opening loses.
    assert!(
        solution
            .move_values(&graph, 0)
            .iter()
            .all(|v| v.class() == -1)
    );
    // The published line: each Black move keeps the win, and it ends with Black on rank 1.
    let line = ["b1-b2", "a3xb2", "c1xb2", "c3-c2", "a1-a2", "c2-c1"];
    let mut n = 0;
    for (i, text) in line.iter().enumerate() {
        let mv = game.parse_move(graph.position(n), text).unwrap();
        let idx = graph.moves(n).iter().position(|&m| m == mv).unwrap();
        if i % 2 == 1 {
            let best = solution.best_moves(&graph, n, TieBreak::Random);
            assert!(best.contains(&idx), "{text} is a winning move for Black");
        }
        n = graph.children(n)[idx];
    }
    assert_eq!(
        game.outcome(graph.position(n)).unwrap().winner,
        Some(Side::Second)
    );
    // The solver's own principal variation is that line.
    let pv: Vec<String> = solution
        .principal_variation(&graph, 0)
        .into_iter()
        .map(|m| game.format_move(m))
        .collect();
    assert_eq!(pv, line);
}

#[test]
fn octopawn_is_a_first_player_win() {
    let (game, graph, solution) = solved("4x4");
    assert_eq!(solution.winner(&graph, 0), Some(Side::First));
    let winning: Vec<String> = solution
        .best_moves(&graph, 0, TieBreak::Random)
        .into_iter()
        .map(|i| game.format_move(graph.moves(0)[i]))
        .collect();
    assert_eq!(winning, ["a1-a2", "d1-d2"]);
}

#[test]
fn values_are_consistent_with_the_rules() {
    // For every node: a terminal node is lost for the side to move (Hexapawn has no draws); a
    // node is won exactly when some move leads to a position lost for the opponent.
    for size in ["3x3", "3x4", "4x3", "4x4"] {
        let (_, graph, solution) = solved(size);
        for n in 0..graph.len() as u32 {
            let v = solution.value(n);
            if graph.is_terminal(n) {
                assert_eq!(v, Value::Loss(0), "{size} node {n}");
                continue;
            }
            let child_lost = graph
                .children(n)
                .iter()
                .any(|&c| matches!(solution.value(c), Value::Loss(_)));
            assert_eq!(matches!(v, Value::Win(_)), child_lost, "{size} node {n}");
            assert_ne!(v, Value::Draw);
        }
    }
}

#[test]
fn the_fastest_tie_break_wins_quickest_and_loses_slowest() {
    let (_, graph, solution) = solved("3x3");
    // White is lost at the start: the slowest loss is b1-b2 (6 plies), the others lose in 4.
    let slow = solution.best_moves(&graph, 0, TieBreak::Fastest);
    assert_eq!(slow.len(), 1);
    assert_eq!(solution.move_values(&graph, 0)[slow[0]], Value::Loss(6));
    assert_eq!(solution.best_moves(&graph, 0, TieBreak::Random).len(), 3);
}

/// The issue asks for every size up to 5×5 and 4×6 (3.2 and 5.9 million positions).
#[test]
fn larger_boards_solve() {
    for (size, positions, winner) in [
        ("5x5", 3_210_411, Side::First),
        ("4x6", 5_901_150, Side::Second),
    ] {
        let (_, graph, solution) = solved(size);
        assert_eq!(graph.len(), positions, "{size}");
        assert_eq!(solution.winner(&graph, 0), Some(winner), "{size}");
    }
}

/// Havannah's own solver counts distances exactly (`--tie-break fastest`, `solve`'s line): on
/// base 2, plain, with the swap rule and with handicaps, it agrees with the whole solved graph on every position;
/// on base 3 it agrees with a plain negamax (no pruning at all) on positions from random games.
#[test]
fn havannah_distances_agree_with_the_graph_and_a_plain_search() {
    use matchbox::games::havannah::solve::HavannahSolver;
    use matchbox::games::havannah::{Base, Havannah, Position, Variant};
    use matchbox::rng::{rng_from_seed, uniform_below};
    for (swap, handicap) in [(false, 0), (true, 0), (false, 2), (false, 3)] {
        let game = Havannah::with(Variant::new(Base::new(2).unwrap(), swap, handicap).unwrap());
        let graph = GameGraph::build(&game);
        let solution = Solution::solve(&graph).expect("no cycles");
        let mut solver = HavannahSolver::with_distances(&game, 1 << 20).unwrap();
        for n in 0..graph.len() {
            let pos = graph.position(n as _);
            assert_eq!(
                solver.distance(pos).unwrap(),
                solution.value(n as _),
                "base 2 (swap {swap}, handicap {handicap}) {}",
                game.format_position(pos)
            );
        }
    }
    // The reference: every move, the best value; a table only so that it ends soon.
    fn plain(
        g: &Havannah,
        pos: &Position,
        seen: &mut std::collections::HashMap<Position, Value>,
    ) -> Value {
        if let Some(o) = g.outcome(pos) {
            return Value::of_finished(o.winner, g.to_move(pos));
        }
        if let Some(&v) = seen.get(pos) {
            return v;
        }
        let v = g
            .moves(pos)
            .into_iter()
            .map(|m| {
                let child = g.play(pos, m);
                plain(g, &child, seen).seen_from(g.to_move(&child) == g.to_move(pos))
            })
            .max_by_key(|v| v.rank())
            .unwrap();
        seen.insert(*pos, v);
        v
    }
    let game = Havannah::new(Base::new(3).unwrap());
    let mut solver = HavannahSolver::with_distances(&game, 1 << 24).unwrap();
    let mut rng = rng_from_seed(9);
    let mut seen = std::collections::HashMap::new();
    for (stones, positions) in [(10, 40), (7, 12)] {
        let mut checked = 0;
        while checked < positions {
            // Random stones, then the position is small enough to search whole.
            let mut pos = game.start();
            for _ in 0..stones {
                let moves = game.moves(&pos);
                pos = game.play(
                    &pos,
                    moves[uniform_below(&mut rng, moves.len() as u32) as usize],
                );
                if game.outcome(&pos).is_some() {
                    break;
                }
            }
            if game.outcome(&pos).is_some() {
                continue;
            }
            let expected = plain(&game, &pos, &mut seen);
            assert_eq!(
                solver.distance(&pos).unwrap(),
                expected,
                "{}",
                game.format_position(&pos)
            );
            checked += 1;
        }
    }
}

/// The base-3 solver asked for a position's children at once (keys first, lookups back to back,
/// then searches) gives what it gives asked one at a time, on positions of random games, with
/// and without the swap rule, half of the children already in its table and half not.
#[test]
fn havannah_values_at_once_are_the_values_one_by_one() {
    use matchbox::games::havannah::solve::HavannahSolver;
    use matchbox::games::havannah::{Base, Havannah, Variant};
    use matchbox::rng::{rng_from_seed, uniform_below};
    use matchbox::solve::Values;
    for swap in [false, true] {
        let game = Havannah::with(Variant::new(Base::new(3).unwrap(), swap, 0).unwrap());
        let mut rng = rng_from_seed(21);
        let (mut batch, mut single) = (
            HavannahSolver::new(&game, 1 << 24).unwrap(),
            HavannahSolver::new(&game, 1 << 24).unwrap(),
        );
        let mut compared = 0;
        for _ in 0..20 {
            let mut pos = game.start();
            while game.outcome(&pos).is_none() {
                let moves = game.moves(&pos);
                let children: Vec<_> = moves.iter().map(|&m| game.play(&pos, m)).collect();
                // Half of them known to the batch solver beforehand.
                for c in children.iter().step_by(2) {
                    batch.value(&game, c).unwrap();
                }
                let at_once = batch.values(&game, &children).unwrap();
                let one_by_one: Vec<Value> = children
                    .iter()
                    .map(|c| single.value(&game, c).unwrap())
                    .collect();
                assert_eq!(at_once, one_by_one, "{}", game.format_position(&pos));
                compared += children.len();
                pos = children[uniform_below(&mut rng, children.len() as u32) as usize];
            }
        }
        assert!(compared > 1000, "{compared} children compared");
    }
}
