//! The learner: seeded runs are reproducible, reinforcement does what each scheme says, HER
//! converges against the perfect player, and experiments do not depend on the thread count.

use std::collections::HashSet;
use std::sync::Arc;

use matchbox::game::graph::NodeId;
use matchbox::game::{Game, Side, Sym};
use matchbox::games::hexapawn::{Hexapawn, Size};
use matchbox::learn::Machine;
use matchbox::learn::engine::{Enumerated, GameState, Step, Table, Trainer};
use matchbox::learn::{Beads, BoxSet, GameResult, Reinforcement, Scope, StageBeads, SymmetryMode};
use matchbox::solve::{Solution, TieBreak, Value};

struct World {
    arena: Enumerated<Hexapawn>,
    solution: Solution,
    boxes: Arc<BoxSet<Hexapawn>>,
    table: Table,
}

fn world(size: Size, side: Side, mode: SymmetryMode, perfect: bool) -> World {
    let game = Hexapawn::new(size);
    let boxes = Arc::new(BoxSet::build(&game, side, mode));
    let arena = Enumerated::new(game);
    let solution = Solution::solve(&arena.graph).expect("no cycles");
    let table = if perfect {
        Table::against_perfect(&arena, &boxes, TieBreak::Random).unwrap()
    } else {
        Table::against_random(&arena, &boxes)
    };
    World {
        arena,
        solution,
        boxes,
        table,
    }
}

fn her() -> World {
    world(Size::GARDNER, Side::Second, SymmetryMode::Gardner, true)
}

fn machine(w: &World, r: Reinforcement, seed: u64) -> Machine<Hexapawn> {
    Machine::new(Arc::clone(&w.boxes), StageBeads::uniform(1), r, seed)
}

fn all_beads(m: &Machine<Hexapawn>) -> Vec<Vec<Beads>> {
    (0..m.boxes.len()).map(|b| m.beads_in(b)).collect()
}

#[test]
fn a_seeded_run_is_bit_identical_on_rerun() {
    let w = her();
    let t = Trainer::new(&w.arena, &w.table);
    let run = || {
        let mut m = machine(&w, Reinforcement::GARDNER, 42);
        let results = t.train(&mut m, 300);
        (results, all_beads(&m), m.rng.clone())
    };
    let (r1, b1, g1) = run();
    let (r2, b2, g2) = run();
    assert_eq!(r1, r2);
    assert_eq!(b1, b2);
    assert_eq!(g1, g2);
    // A different seed gives a different run (so the test above can fail).
    let mut other = machine(&w, Reinforcement::GARDNER, 43);
    assert_ne!(t.train(&mut other, 300), r1);
}

#[test]
fn step_by_step_play_matches_whole_games() {
    let w = her();
    let t = Trainer::new(&w.arena, &w.table);
    let mut fast = machine(&w, Reinforcement::GARDNER, 7);
    let mut slow = machine(&w, Reinforcement::GARDNER, 7);
    let mut st = GameState::new();
    for _ in 0..200 {
        let expected = t.play_game(&mut fast, &mut st);
        let mut s2 = GameState::new();
        let result = loop {
            if let Some(r) = t.step(&mut slow, &mut s2).result() {
                break r;
            }
        };
        t.finish(&mut slow, &s2, result);
        assert_eq!(result, expected);
    }
    assert_eq!(all_beads(&fast), all_beads(&slow));
}

/// Plays one game step by step, returning the (box, arrow) pairs the learner played.
fn play_recorded(
    t: &Trainer<Hexapawn>,
    m: &mut Machine<Hexapawn>,
) -> (Vec<(usize, usize)>, GameResult, bool) {
    let mut st = GameState::new();
    let mut played = Vec::new();
    loop {
        let step = t.step(m, &mut st);
        match step {
            Step::Learner { box_index, arrow } => played.push((box_index, arrow)),
            Step::Opponent => {}
            Step::Resigned { .. } | Step::Over(_) => {
                let r = step.result().unwrap();
                t.finish(m, &st, r);
                return (played, r, matches!(step, Step::Resigned { .. }));
            }
        }
    }
}

#[test]
fn gardner_takes_one_bead_from_the_last_move_of_a_lost_game_only() {
    let w = her();
    let t = Trainer::new(&w.arena, &w.table);
    let mut m = machine(&w, Reinforcement::GARDNER, 3);
    let mut losses_seen = 0;
    for _ in 0..100 {
        let before = all_beads(&m);
        let (played, result, _) = play_recorded(&t, &mut m);
        let after = all_beads(&m);
        let mut expected = before.clone();
        if result == GameResult::Loss
            && let Some(&(b, a)) = played.last()
        {
            losses_seen += 1;
            assert!(before[b][a].get() > 0, "a bead that was drawn existed");
            expected[b][a] = Beads(before[b][a].get() - 1);
        }
        assert_eq!(after, expected);
    }
    assert!(losses_seen > 3);
}

#[test]
fn michie_rewards_every_move_played() {
    let w = world(Size::GARDNER, Side::Second, SymmetryMode::Full, false);
    let t = Trainer::new(&w.arena, &w.table);
    let mut m = machine(&w, Reinforcement::MICHIE, 5);
    let mut seen = HashSet::new();
    for _ in 0..300 {
        let before = all_beads(&m);
        let (played, result, _) = play_recorded(&t, &mut m);
        seen.insert(result);
        let mut expected = before.clone();
        let delta = match result {
            GameResult::Win => 3,
            GameResult::Draw => 1,
            GameResult::Loss => -1,
        };
        for &(b, a) in &played {
            expected[b][a] = expected[b][a].apply(delta);
        }
        assert_eq!(all_beads(&m), expected);
        for b in 0..m.boxes.len() {
            let sum: u32 = m.beads_in(b).iter().map(|x| x.get()).sum();
            assert_eq!(
                m.box_total(b),
                sum,
                "box totals stay in step with the beads"
            );
        }
    }
    assert!(seen.contains(&GameResult::Win) && seen.contains(&GameResult::Loss));
}

#[test]
fn resigning_loses_and_punishes_the_move_before() {
    let w = her();
    let t = Trainer::new(&w.arena, &w.table);
    let mut m = machine(&w, Reinforcement::GARDNER, 11);
    // Empty every box at move 4: the learner plays move 2, then resigns.
    for b in 0..m.boxes.len() {
        if m.boxes.get(b).move_number() == 4 {
            let n = m.boxes.get(b).arrows.len();
            m.set_beads(b, &vec![Beads(0); n]).unwrap();
        }
    }
    let mut resigned = 0;
    for _ in 0..20 {
        let before = m.beads_left();
        let (played, result, did_resign) = play_recorded(&t, &mut m);
        if did_resign {
            resigned += 1;
            assert_eq!(result, GameResult::Loss);
            assert!(played.len() <= 1, "at most one move before the empty boxes");
            // The move before the resignation loses its bead; resigning at once punishes nothing.
            assert_eq!(m.beads_left(), before - played.len() as u64);
        }
    }
    assert!(resigned > 0);
    // Empty first boxes: the machine resigns at once and has nothing to punish.
    let mut m = machine(&w, Reinforcement::GARDNER, 11);
    for b in 0..m.boxes.len() {
        let n = m.boxes.get(b).arrows.len();
        m.set_beads(b, &vec![Beads(0); n]).unwrap();
    }
    let (played, result, did_resign) = play_recorded(&t, &mut m);
    assert!(did_resign && played.is_empty() && result == GameResult::Loss);
    assert_eq!(m.beads_left(), 0);
}

#[test]
fn custom_reinforcement_on_the_last_move() {
    let r: Reinforcement = "2,0,-3:last".parse().unwrap();
    assert_eq!(
        r,
        Reinforcement {
            win: 2,
            draw: 0,
            loss: -3,
            scope: Scope::LastMove
        }
    );
    assert_eq!(r.to_string(), "2,0,-3:last");
    assert_eq!(
        "0,0,-1:last".parse::<Reinforcement>().unwrap(),
        Reinforcement::GARDNER
    );
    assert_eq!(
        "3,1,-1".parse::<Reinforcement>().unwrap(),
        Reinforcement::MICHIE
    );
    for bad in ["", "3,1", "a,b,c", "3,1,-1:some", "gardener"] {
        assert!(bad.parse::<Reinforcement>().is_err(), "{bad}");
    }
    let w = world(Size::GARDNER, Side::Second, SymmetryMode::Full, false);
    let t = Trainer::new(&w.arena, &w.table);
    let mut m = machine(&w, r, 9);
    for _ in 0..100 {
        let before = all_beads(&m);
        let (played, result, _) = play_recorded(&t, &mut m);
        let mut expected = before;
        if let Some(&(b, a)) = played.last() {
            expected[b][a] = expected[b][a].apply(r.delta(result));
        }
        assert_eq!(all_beads(&m), expected);
    }
}

#[test]
fn initial_beads_are_set_per_stage() {
    let game = Hexapawn::new(Size::GARDNER);
    let boxes = Arc::new(BoxSet::build(&game, Side::Second, SymmetryMode::Gardner));
    let m = Machine::new(boxes, "4,3,2".parse().unwrap(), Reinforcement::MICHIE, 1);
    for b in 0..m.boxes.len() {
        let expected = match m.boxes.get(b).move_number() {
            2 => 4,
            4 => 3,
            _ => 2,
        };
        assert!(m.beads_in(b).iter().all(|x| x.get() == expected));
    }
}

/// True when every bead the learner can still draw, in every box it can still reach (opponent
/// playing anything), is a winning move according to the solver.
fn only_winning_beads_left(w: &World, m: &Machine<Hexapawn>) -> bool {
    let (game, graph) = (&w.arena.game, &w.arena.graph);
    let mut stack: Vec<(NodeId, Sym, u32)> = vec![(0, Sym::IDENTITY, 0)];
    let mut seen = HashSet::new();
    while let Some((n, frame, plies)) = stack.pop() {
        if !seen.insert((n, frame)) || graph.is_terminal(n) {
            continue;
        }
        let pos = graph.position(n);
        let next: Vec<NodeId> = if graph.to_move(n) == m.boxes.side() {
            let (view, sym) = m.boxes.mode().box_view(game, pos, frame);
            let b = m.boxes.find(&view).expect("a box");
            let beads = m.beads_in(b);
            let mut kids = Vec::new();
            for (i, &arrow) in m.boxes.get(b).arrows.iter().enumerate() {
                if beads[i].get() == 0 {
                    continue;
                }
                let real = game.transform_move(game.inverse(sym), arrow);
                let c = graph.child_by_move(n, real).unwrap();
                if !matches!(w.solution.value(c), Value::Loss(_)) {
                    return false;
                }
                kids.push(c);
            }
            kids
        } else {
            graph.children(n).to_vec()
        };
        for c in next {
            let f = m
                .boxes
                .mode()
                .frame_after(game, plies + 1, graph.position(c), frame);
            stack.push((c, f, plies + 1));
        }
    }
    true
}

#[test]
fn her_converges_and_never_loses_once_only_winning_beads_remain() {
    let w = her();
    let t = Trainer::new(&w.arena, &w.table);
    let fresh = machine(&w, Reinforcement::GARDNER, 0);
    assert!(!only_winning_beads_left(&w, &fresh), "a fresh HER can lose");
    let mut st = GameState::new();
    // Rare lines (White walking into a box HER seldom sees) can keep a losing bead for hundreds
    // of games, though HER's last loss usually comes much earlier.
    let games = 3000;
    let mut last_losses = Vec::new();
    for seed in 0..100 {
        let mut m = fresh.clone();
        m.reseed(seed);
        let mut perfect_from = None;
        let mut last_loss = 0;
        for g in 1..=games {
            if perfect_from.is_none() && only_winning_beads_left(&w, &m) {
                perfect_from = Some(g);
            }
            let r = t.play_game(&mut m, &mut st);
            if r == GameResult::Loss {
                last_loss = g;
                assert!(
                    perfect_from.is_none(),
                    "seed {seed}: lost game {g} after only winning beads remained at game {perfect_from:?}"
                );
            }
        }
        assert!(
            perfect_from.is_some(),
            "seed {seed}: HER did not converge in {games} games; last loss {last_loss}"
        );
        last_losses.push(last_loss);
    }
    last_losses.sort();
    let median = last_losses[last_losses.len() / 2];
    eprintln!("HER's last loss: median game {median}, all: {last_losses:?}");
    // Measured: median 90, latest 318 (seeds 0..100). Gardner's own HER lost 11 of 50 games.
    assert!(median < 150, "median game of the last loss {median}");
}

#[test]
fn experiments_do_not_depend_on_the_thread_count() {
    let w = her();
    let t = Trainer::new(&w.arena, &w.table);
    let template = machine(&w, Reinforcement::GARDNER, 0);
    let on = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| t.experiment(&template, 99, 500, 60).losses_by_game)
    };
    let one = on(1);
    assert_eq!(one, on(2));
    assert_eq!(one, on(3));
    assert!(
        one[0] > 0 && one[0] > one[59],
        "losses fall as HER learns: {one:?}"
    );
}

/// The running totals a per-game table uses agree with a scan of every box, game after game, on a
/// lazy machine that makes boxes as it goes and on an enumerated one.
#[test]
fn tally_keeps_the_same_totals_as_a_scan_of_every_box() {
    use matchbox::games::havannah::{Base, Havannah};
    use matchbox::learn::{BeadTotals, Forced, Preset, lazy};
    use matchbox::players::RandomPlayer;
    let game = Havannah::new(Base::new(3).unwrap());
    for (set, preset) in [
        (
            BoxSet::lazy(&game, Side::First, SymmetryMode::Full, Forced::Skip),
            Preset::Michie,
        ),
        (
            BoxSet::build_with(
                &Havannah::new(Base::new(2).unwrap()),
                Side::First,
                SymmetryMode::Full,
                Forced::Skip,
            ),
            Preset::Gardner,
        ),
    ] {
        let lazy_set = set.is_lazy();
        let g = if lazy_set {
            game.clone()
        } else {
            Havannah::new(Base::new(2).unwrap())
        };
        let mut m = Machine::new(Arc::new(set), preset.beads(), preset.reinforcement(), 9);
        let mut tally = BeadTotals::new(&m);
        let mut scratch = lazy::Scratch::default();
        for _ in 0..200 {
            lazy::play_game(&g, &mut m, &mut RandomPlayer, &mut scratch);
            let played: Vec<u32> = scratch.learner_played().iter().map(|p| p.0).collect();
            tally.update(&m, &played);
            assert_eq!(tally.beads_left, m.beads_left());
            assert_eq!(tally.boxes_emptied, m.boxes_emptied() as u64);
            let mut by_stage = vec![0u64; tally.beads_by_stage.len()];
            for b in 0..m.boxes.len() {
                by_stage[m.boxes.get(b).stage as usize] += m.box_total(b) as u64;
            }
            assert_eq!(tally.beads_by_stage, by_stage);
        }
    }
}

/// The fast loop takes the tables of learners reinforced on their last move and gives the general
/// loop's sums.
#[test]
fn the_fast_loop_plays_the_general_loops_games() {
    use matchbox::games::tictactoe::TicTacToe;
    use matchbox::learn::engine::Runs;
    /// Whether the fast loop's experiments agree with the general loop's; the number of runs
    /// whose first box ended empty (whose losses the kept-box counts leave out).
    fn same<G: matchbox::game::Game>(
        game: G,
        side: Side,
        mode: SymmetryMode,
        r: Reinforcement,
    ) -> usize {
        let boxes = Arc::new(BoxSet::build(&game, side, mode));
        let en = Enumerated::new(game);
        let table = Table::against_perfect(&en, &boxes, TieBreak::Random).unwrap();
        let m = Machine::new(boxes, StageBeads::uniform(2), r, 7);
        let t = Trainer::new(&en, &table);
        // The fast loop is for learners reinforced on their last move (HER's way).
        assert_eq!(t.has_fast_loop(&m), r.scope == Scope::LastMove);
        // Fewer runs than lanes, a piece and a run (pieces hold 64), pieces not from run 0.
        let mut stuck = 0;
        for (first, end) in [(3, 40), (0, 1), (5, 7), (0, 3), (0, 65), (10, 140)] {
            let runs = Runs { first, end };
            let fast = t.experiment_with(&m, 7, runs, 30, &|| {});
            assert_eq!(fast, t.general_experiment(&m, 7, runs, 30, &|| {}));
            assert_eq!(fast.runs as u64, end - first);
            stuck += fast.first_box_empty;
        }
        stuck
    }
    let her = Hexapawn::new(Size::GARDNER);
    let (full, none) = (SymmetryMode::Full, SymmetryMode::None);
    let mut stuck = same(her.clone(), Side::Second, full, Reinforcement::GARDNER);
    stuck += same(her, Side::First, none, Reinforcement::MICHIE);
    stuck += same(TicTacToe, Side::First, full, Reinforcement::MICHIE);
    stuck += same(TicTacToe, Side::Second, none, Reinforcement::GARDNER);
    // Some runs end with their first box empty: the counts that leave their losses out are
    // compared too.
    assert!(stuck > 0, "no run's first box ended empty");
}

/// `train`'s long runs (`Trainer::train_into`) take the fast loop for learners reinforced on their
/// last move and play the general loop's games: the same results, ends, beads, generator and
/// last game's draws.
#[test]
fn long_runs_on_the_fast_loop_play_the_general_loops_games() {
    use matchbox::games::tictactoe::TicTacToe;
    use matchbox::learn::engine::Ends;
    fn same<G: matchbox::game::Game>(
        game: G,
        side: Side,
        random: bool,
        r: Reinforcement,
        beads: u32,
    ) {
        let boxes = Arc::new(BoxSet::build(&game, side, SymmetryMode::Full));
        let en = Enumerated::new(game);
        let table = if random {
            Table::against_random(&en, &boxes)
        } else {
            Table::against_perfect(&en, &boxes, TieBreak::Random).unwrap()
        };
        let t = Trainer::new(&en, &table);
        // No games, fewer than the table has states (the general loop), then more.
        for games in [0u64, 1, 3, 40_000] {
            let mut fast = Machine::new(Arc::clone(&boxes), StageBeads::uniform(beads), r, 11);
            let mut general = fast.clone();
            let (mut st_fast, mut st_general) = (GameState::new(), GameState::new());
            let (mut results, mut ends) = (Vec::new(), Ends::default());
            t.train_into(&mut fast, &mut st_fast, games, &mut results, &mut ends);
            // The general loop, a call a game.
            let (mut played, mut general_ends) = (Vec::new(), Ends::default());
            let mut each = |_, r| played.push(r);
            t.train_each(
                &mut general,
                &mut st_general,
                games,
                &mut each,
                &mut general_ends,
            );
            assert_eq!(results, played, "{games} games");
            assert_eq!(ends, general_ends);
            assert_eq!(ends.total(), games, "every game's end counted");
            assert_eq!(fast.games_played, general.games_played);
            assert_eq!(fast.rng, general.rng, "the generator after {games} games");
            for b in 0..boxes.len() {
                assert_eq!(
                    fast.beads_in(b),
                    general.beads_in(b),
                    "box {b} after {games} games"
                );
                assert_eq!(fast.box_total(b), general.box_total(b), "box {b}");
            }
            assert_eq!(st_fast.played, st_general.played, "the last game's draws");
            assert_eq!(st_fast.end, st_general.end);
        }
    }
    let her = Hexapawn::new(Size::GARDNER);
    // HER as Gardner built it; one bead a move, so boxes empty and the machine resigns.
    same(her.clone(), Side::Second, false, Reinforcement::GARDNER, 3);
    same(her.clone(), Side::Second, false, Reinforcement::GARDNER, 1);
    let reward = Reinforcement {
        win: 2,
        draw: 1,
        loss: -1,
        scope: Scope::LastMove,
    };
    same(her, Side::First, true, reward, 1);
    same(TicTacToe, Side::First, false, reward, 2);
    same(TicTacToe, Side::Second, true, Reinforcement::GARDNER, 1);
}
