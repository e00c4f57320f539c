//! Michie's 1963 odds learner: its reinforcement on hand-worked examples (the paper's own), the
//! sliding origin after a known sequence, and whole runs that are reproducible and learn.

use matchbox::game::Side;
use matchbox::games::tictactoe::TicTacToe;
use matchbox::learn::engine::{Enumerated, Table};
use matchbox::learn::odds::{
    OddsLearner, OddsMove, OddsRule, SlidingOrigin, loss_chance, odds_experiment,
};
use matchbox::learn::{BoxSet, Forced, GameResult, SymmetryMode};

fn menace_boxes(side: Side) -> BoxSet<TicTacToe> {
    BoxSet::build_with(&TicTacToe, side, SymmetryMode::Full, Forced::Skip)
}

fn rule(a: f64, b: f64, decay: Option<f64>) -> OddsRule {
    OddsRule { a, b, decay }
}

/// The first box (the opening position): its base is 0 and it has three arrows (corner, edge,
/// centre).
fn opening(arrow: u32, ply: u32) -> OddsMove {
    OddsMove {
        base: 0,
        arrow,
        arrows: 3,
        ply,
    }
}

#[test]
fn the_multiplier_is_a_times_b_to_the_n_minus_8() {
    let r = rule(2.0, 0.5, None);
    // The opening move of a nine-move play stands eight moves from the end: M = A.
    assert_eq!(r.multiplier(8), 2.0);
    // The last move of a play: M = A·B^(−8) = 2·256.
    assert_eq!(r.multiplier(0), 512.0);
    assert_eq!(r.multiplier(3), 2.0 * 32.0);
    // A loss multiplies by the reciprocal, a draw by one (the origin at 0).
    assert_eq!(r.factor(8, GameResult::Loss, 0.0), 0.5);
    assert_eq!(r.factor(8, GameResult::Draw, 0.0), 1.0);
    // With the origin at μ: won M^(1−μ), drawn M^(−μ), lost M^(−1−μ).
    assert!((r.factor(8, GameResult::Win, 0.5) - 2f64.powf(0.5)).abs() < 1e-15);
    assert!((r.factor(8, GameResult::Draw, 0.5) - 2f64.powf(-0.5)).abs() < 1e-15);
    assert!((r.factor(8, GameResult::Loss, -0.25) - 2f64.powf(-0.75)).abs() < 1e-15);
}

#[test]
fn a_win_multiplies_the_odds_of_the_move_as_in_the_paper() {
    // Three opening moves at equal odds (1:2 each). A nine-move play won: the opening move's
    // odds ×A. With A = 3: odds 3:2, so chances 3/5, 1/5, 1/5.
    let boxes = menace_boxes(Side::First);
    let mut l = OddsLearner::new(&boxes, rule(3.0, 0.9, None));
    assert_eq!(l.chances(0, 3), vec![1.0 / 3.0; 3]);
    l.reinforce(&[opening(0, 1)], 9, GameResult::Win);
    let c = l.chances(0, 3);
    assert!((c[0] - 0.6).abs() < 1e-15 && (c[1] - 0.2).abs() < 1e-15);
    // The paper's own example: chances 2/5 and 3/5 of two moves, the first multiplied by 2 →
    // 4/7 and 3/7. Here: the second arrow lost (odds ÷3 = 1/3 against 3 and 1): weights 3, 1/3,
    // 1 → chances 9/13, 1/13, 3/13.
    l.reinforce(&[opening(1, 1)], 9, GameResult::Loss);
    let c = l.chances(0, 3);
    assert!((c[0] - 9.0 / 13.0).abs() < 1e-15, "{c:?}");
    assert!((c[1] - 1.0 / 13.0).abs() < 1e-15, "{c:?}");
    // A draw with the origin at 0 changes nothing.
    l.reinforce(&[opening(2, 1)], 9, GameResult::Draw);
    assert_eq!(l.chances(0, 3), c);
}

#[test]
fn a_short_play_reinforces_its_opening_more() {
    // "In a short play, Nought's opening move might be the fifth from the end, and be relatively
    // strongly reinforced." Won in five plies: n = 4, M = A·B^(−4).
    let boxes = menace_boxes(Side::First);
    let r = rule(1.5, 0.8, None);
    let mut long = OddsLearner::new(&boxes, r);
    let mut short = OddsLearner::new(&boxes, r);
    long.reinforce(&[opening(0, 1)], 9, GameResult::Win);
    short.reinforce(&[opening(0, 1)], 5, GameResult::Win);
    let odds = |c: Vec<f64>| c[0] / (1.0 - c[0]);
    assert!((odds(long.chances(0, 3)) - 1.5 / 2.0).abs() < 1e-12);
    assert!((odds(short.chances(0, 3)) - 1.5 * 0.8f64.powi(-4) / 2.0).abs() < 1e-12);
}

#[test]
fn the_sliding_origin_after_a_known_sequence() {
    // D = 1/2; plays won, lost, drawn. After the win μ = 1; after the loss the weights are D for
    // the loss and D² for the win: (−1/2 + 1/4)/(3/4) = −1/3; after the draw
    // (0·1/2 − 1/4 + 1/8)/(7/8) = −1/7.
    let mut o = SlidingOrigin::default();
    assert_eq!(o.mu(), 0.0);
    o.record(0.5, GameResult::Win);
    assert!((o.mu() - 1.0).abs() < 1e-15);
    o.record(0.5, GameResult::Loss);
    assert!((o.mu() + 1.0 / 3.0).abs() < 1e-15);
    o.record(0.5, GameResult::Draw);
    assert!((o.mu() + 1.0 / 7.0).abs() < 1e-15);
    // A learner with a decay moves its origin after each play, and a draw then counts: after the
    // win (μ = 1) a drawn play multiplies by M^(−1).
    let boxes = menace_boxes(Side::First);
    let mut l = OddsLearner::new(&boxes, rule(2.0, 1.0, Some(0.5)));
    l.reinforce(&[], 9, GameResult::Win);
    assert!((l.origin.mu() - 1.0).abs() < 1e-15);
    l.reinforce(&[opening(0, 1)], 9, GameResult::Draw);
    let c = l.chances(0, 3);
    assert!(
        (c[0] / (1.0 - c[0]) - 0.25).abs() < 1e-15,
        "odds 1:2 halved: {c:?}"
    );
}

#[test]
fn a_box_keeps_its_proportions_through_huge_multipliers() {
    let boxes = menace_boxes(Side::First);
    let mut l = OddsLearner::new(&boxes, rule(1e30, 1.0, None));
    for _ in 0..50 {
        l.reinforce(&[opening(1, 1)], 9, GameResult::Win);
    }
    let c = l.chances(0, 3);
    assert!(c.iter().all(|x| x.is_finite()));
    assert!((c[1] - 1.0).abs() < 1e-12, "{c:?}");
    // Odds of 10^1500 to 1 are no f64's, but their logarithm is: 51 losses bring it back to
    // 1:10^30 against each of the others.
    for _ in 0..51 {
        l.reinforce(&[opening(1, 1)], 9, GameResult::Loss);
    }
    let c = l.chances(0, 3);
    assert!((c[1] - 1e-30 / 2.0).abs() < 1e-40, "{c:?}");
    assert!((c[0] - 0.5).abs() < 1e-12, "{c:?}");
}

#[test]
fn nought_learning_against_a_random_cross_loses_less_and_runs_are_reproducible() {
    let en = Enumerated::new(TicTacToe);
    let boxes = menace_boxes(Side::First);
    let table = Table::against_random(&en, &boxes);
    let fresh = OddsLearner::new(&boxes, rule(1.5, 0.9, None));
    let at_start = loss_chance(&table, &fresh);
    // Equal odds on the moves that differ (three openings: corner, edge, centre), not on the
    // squares: the opener loses about 26.7 % of plays at first, not random play's 28.8 %.
    assert!((at_start - 0.26687).abs() < 1e-4, "{at_start}");
    let r = rule(1.5, 0.9, None);
    let a = odds_experiment(&table, &boxes, r, None, 7, 40, 300);
    let b = odds_experiment(&table, &boxes, r, None, 7, 40, 300);
    assert_eq!(a, b);
    assert!(a.rate(GameResult::Loss, 250, 300) < a.rate(GameResult::Loss, 0, 50) / 2.0);
    assert!(a.final_loss.iter().all(|&p| p < at_start));
}

#[test]
fn both_sides_learning_play_on_a_table_of_two_box_sets() {
    let en = Enumerated::new(TicTacToe);
    let nought = menace_boxes(Side::First);
    let cross = menace_boxes(Side::Second);
    let table = Table::against_machine(&en, &nought, &cross);
    let r = rule(1.5, 0.9, None);
    let x = odds_experiment(&table, &nought, r, Some((&cross, r)), 3, 20, 400);
    assert_eq!(x.runs, 20);
    // Both learning, play tends to draws.
    assert!(x.rate(GameResult::Draw, 300, 400) > x.rate(GameResult::Draw, 0, 100));
}

#[test]
fn experiment_odds_runs_michies_learner_from_the_command_line() {
    let args = [
        "experiment",
        "tictactoe",
        "--odds",
        "2,0.9",
        "--opponent",
        "random",
        "--runs",
        "20",
        "--games",
        "200",
        "--seed",
        "5",
        "--json",
    ];
    let a = crate::common::json(&args);
    assert_eq!(
        a,
        crate::common::json(&args),
        "the same seed, the same runs"
    );
    assert_eq!(a["runs"], 20);
    assert_eq!(a["rule"]["a"], 2.0);
    let blocks = a["blocks"].as_array().unwrap();
    assert_eq!(blocks.len(), 10);
    let lost = |b: &serde_json::Value| b["lost"].as_f64().unwrap();
    assert!(lost(&blocks[9]) < lost(&blocks[0]), "it learns: {a}");
    // The library's experiment with the same settings gives the same figures.
    let en = Enumerated::new(TicTacToe);
    let boxes = menace_boxes(Side::First);
    let table = Table::against_random(&en, &boxes);
    let x = odds_experiment(&table, &boxes, rule(2.0, 0.9, None), None, 5, 20, 200);
    assert!((lost(&blocks[0]) - x.rate(GameResult::Loss, 0, 20)).abs() < 1e-12);
}

#[test]
fn experiment_odds_refuses_what_it_cannot_be() {
    for (args, says) in [
        (vec!["--odds", "2"], "give A,B or A,B,D"),
        (
            vec!["--odds", "2,0.9,1"],
            "the decay D must lie between 0 and 1",
        ),
        (vec!["--odds=-1,0.9"], "A and B must be positive"),
        (
            vec!["--odds", "2,0.9", "--opponent", "mcts"],
            "the opponent is perfect, random or matchbox",
        ),
        (
            vec!["--odds", "2,0.9", "--compare", "beads=1,2"],
            "cannot be used with",
        ),
    ] {
        let mut all = vec!["experiment", "tictactoe", "--runs", "2", "--games", "2"];
        all.extend(args);
        let err = crate::common::refused(&all);
        assert!(err.contains(says), "{all:?}: {err}");
    }
}
