//! HER's exact learning curve: worked out over the machine's bead states, checked on a machine
//! small enough to do by hand and against simulated runs within their confidence intervals.

use std::sync::Arc;

use matchbox::game::Side;
use matchbox::games::hexapawn::{Hexapawn, Size};
use matchbox::learn::engine::{Enumerated, Table, Trainer};
use matchbox::learn::exact::{ExactError, exact_curve};
use matchbox::learn::{BoxSet, Machine, Reinforcement, StageBeads, SymmetryMode};
use matchbox::solve::TieBreak;

fn her_parts(perfect: bool) -> (Enumerated<Hexapawn>, Table, Machine<Hexapawn>) {
    let game = Hexapawn::new(Size::GARDNER);
    let boxes = Arc::new(BoxSet::build(&game, Side::Second, SymmetryMode::Gardner));
    let en = Enumerated::new(game);
    let table = if perfect {
        Table::against_perfect(&en, &boxes, TieBreak::Random).unwrap()
    } else {
        Table::against_random(&en, &boxes)
    };
    let m = Machine::new(boxes, StageBeads::uniform(1), Reinforcement::GARDNER, 1);
    (en, table, m)
}

#[test]
fn the_curve_of_a_machine_that_cannot_learn_more_is_flat() {
    // HER after a thousand games against the perfect player has learned: it never loses again,
    // so its exact curve is all wins and no loss is left to come.
    let (en, table, mut m) = her_parts(true);
    let t = Trainer::new(&en, &table);
    t.train(&mut m, 1000);
    let c = exact_curve(&table, &m, 20, 1_000_000).unwrap();
    assert_eq!(c.states, 1);
    assert!(
        c.games
            .iter()
            .all(|g| (g[0] - 1.0).abs() < 1e-12 && g[2] == 0.0)
    );
    assert_eq!(c.mean_losses, Some(0.0));
    assert_eq!(c.last_loss[0], 1.0);
}

#[test]
fn the_first_game_is_lost_with_the_probability_worked_by_hand() {
    // Game 1 from one bead an arrow: the chance of losing is a sum over the game tree that the
    // exact curve must reproduce from the same walk a simulation makes. Simulating the first game
    // many times independently (each run a fresh machine) gives the same number within its
    // interval; and probabilities add to one.
    let (en, table, m) = her_parts(true);
    let c = exact_curve(&table, &m, 60, 1_000_000).unwrap();
    for g in &c.games {
        assert!((g.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
    let lost: f64 = c.losses.iter().sum::<f64>() + c.losses_beyond;
    assert!(
        (lost - 1.0).abs() < 1e-12,
        "the loss counts add to one: {lost}"
    );
    assert!(
        c.loses_for_ever == 0.0,
        "HER always learns against the perfect player"
    );
    let runs = 40_000;
    let sim = Trainer::new(&en, &table).experiment(&m, 7, runs, 60);
    for n in [1usize, 2, 3, 5, 10, 20, 40] {
        let p = c.lost(n);
        let seen = sim.losses_by_game[n - 1] as f64 / runs as f64;
        let sigma = (p * (1.0 - p) / runs as f64).sqrt().max(1e-9);
        assert!(
            (seen - p).abs() < 5.0 * sigma + 1e-9,
            "game {n}: exact {p:.5}, simulated {seen:.5}"
        );
    }
    // The expected losses in the first 60 games, against the simulated mean.
    let mean: f64 = c.games.iter().map(|g| g[2]).sum();
    let sim_mean = sim.cumulative_losses[59] as f64 / runs as f64;
    let sim_sq = sim.cumulative_losses_sq[59] as f64 / runs as f64;
    let sd = ((sim_sq - sim_mean * sim_mean) / runs as f64).sqrt();
    assert!(
        (sim_mean - mean).abs() < 5.0 * sd,
        "mean losses: exact {mean}, simulated {sim_mean}"
    );
    // The last loss within the 60 games, game by game.
    let within = c.last_loss_within.as_ref().unwrap();
    assert!((within.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    for (n, &p) in within.iter().enumerate() {
        let seen = sim.last_loss[n] as f64 / runs as f64;
        let sigma = (p * (1.0 - p) / runs as f64).sqrt().max(1e-9);
        assert!(
            (seen - p).abs() < 5.0 * sigma + 1e-9,
            "last loss at game {n}: exact {p}, simulated {seen}"
        );
    }
}

#[test]
fn the_means_agree_with_the_distributions() {
    let (_, table, m) = her_parts(true);
    let c = exact_curve(&table, &m, 400, 1_000_000).unwrap();
    let mean_losses: f64 = c.losses.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
    assert!((mean_losses - c.mean_losses.unwrap()).abs() < 1e-9);
    // The sum of P(game n is lost) over the games computed approaches the mean from below; what
    // is left is the losses after game 400, rare by then.
    let lost_total: f64 = c.games.iter().map(|g| g[2]).sum();
    let left = c.mean_losses.unwrap() - lost_total;
    assert!((0.0..0.01).contains(&left), "losses after game 400: {left}");
    let mean_last: f64 = c
        .last_loss
        .iter()
        .enumerate()
        .map(|(n, p)| n as f64 * p)
        .sum();
    let left = c.mean_last_loss.unwrap() - mean_last;
    assert!(
        (0.0..1.0).contains(&left),
        "last losses after game 400 weigh {left}"
    );
    let p_after: f64 = 1.0 - c.last_loss.iter().sum::<f64>();
    assert!((-1e-12..1e-2).contains(&p_after));
}

#[test]
fn against_a_perfect_player_that_delays_its_loss_her_loses_three_games() {
    // The perfect player with the `fastest` tie-break: a lost White plays its slowest loss, so
    // HER meets few lines; it loses exactly three games on average and never loses for ever.
    let game = Hexapawn::new(Size::GARDNER);
    let boxes = Arc::new(BoxSet::build(&game, Side::Second, SymmetryMode::Gardner));
    let en = Enumerated::new(game);
    let table = Table::against_perfect(&en, &boxes, TieBreak::Fastest).unwrap();
    let m = Machine::new(boxes, StageBeads::uniform(1), Reinforcement::GARDNER, 1);
    let c = exact_curve(&table, &m, 100, 1_000_000).unwrap();
    assert!(
        (c.mean_losses.unwrap() - 3.0).abs() < 1e-12,
        "{:?}",
        c.mean_losses
    );
    assert_eq!(c.loses_for_ever, 0.0);
    assert!(c.last_loss[..=10].iter().sum::<f64>() > 0.99);
}

#[test]
fn a_rewarded_machine_has_no_exact_curve() {
    let (_, table, mut m) = her_parts(true);
    m.reinforcement = Reinforcement::MICHIE;
    assert_eq!(exact_curve(&table, &m, 10, 1000), Err(ExactError::Grows));
    m.reinforcement = Reinforcement::GARDNER;
    assert!(matches!(
        exact_curve(&table, &m, 10, 2),
        Err(ExactError::TooManyStates(2))
    ));
}

#[test]
fn experiment_reports_and_charts_the_exact_curve_beside_the_simulated_one() {
    use crate::common::{json, refused, stdout};
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).display().to_string();
    let (csv, svg) = (d("her.csv"), d("her.svg"));
    let args = [
        "experiment",
        "hexapawn",
        "--runs",
        "3000",
        "--games",
        "30",
        "--seed",
        "1",
        "--csv",
        &csv,
        "--plot",
        &svg,
        "--json",
    ];
    let report = json(&args);
    let exact = &report["exact"];
    assert_eq!(exact["bead_states"], 8192);
    assert_eq!(exact["mean_losses_in_all"], 10.5);
    let rates = exact["loss_rate"].as_array().unwrap();
    assert_eq!(rates.len(), 30);
    // The same numbers as the library's exact curve.
    let (_, table, m) = her_parts(true);
    let c = exact_curve(&table, &m, 30, 1_000_000).unwrap();
    for (n, r) in rates.iter().enumerate() {
        assert_eq!(r.as_f64().unwrap(), c.lost(n + 1), "game {}", n + 1);
    }
    // 3,000 runs: the simulated rate holds the exact chance at most games (about 95 %).
    let agreeing = exact["agreeing"].as_u64().unwrap();
    assert!((24..=30).contains(&agreeing), "{agreeing} of 30");
    // The table carries the exact chance, the chart draws it, and plot draws it again from the
    // table.
    let table_text = std::fs::read_to_string(&csv).unwrap();
    assert!(
        table_text
            .lines()
            .next()
            .unwrap()
            .ends_with(",exact_loss_rate")
    );
    assert!(
        table_text
            .lines()
            .nth(1)
            .unwrap()
            .ends_with(&rates[0].to_string())
    );
    let rows = matchbox::chart::data::read_csv(table_text.as_bytes()).unwrap();
    let spec =
        matchbox::chart::data::chart(matchbox::chart::data::ChartKind::LossRate, &rows).unwrap();
    let line = spec
        .series
        .iter()
        .find(|s| s.name == "exact")
        .expect("an exact line");
    assert!(
        line.reference,
        "drawn as a reference over the simulated band"
    );
    assert_eq!(line.points.len(), 30);
    assert_eq!(line.points[0], (1.0, c.lost(1)));
    assert!(
        spec.series.iter().any(|s| s.band.is_some()),
        "the band it is drawn over"
    );
    let chart = std::fs::read_to_string(&svg).unwrap();
    let replot = d("again.svg");
    stdout(&["plot", &csv, "--out", &replot]);
    assert_eq!(std::fs::read_to_string(&replot).unwrap(), chart);
    // A hand-edited chance out of 0..1 is refused, naming the column.
    let edited = d("edited.csv");
    let mut lines: Vec<String> = table_text.lines().map(String::from).collect();
    let at = lines[1].rfind(',').unwrap();
    lines[1].replace_range(at + 1.., "1.5");
    std::fs::write(&edited, lines.join("\n")).unwrap();
    let err = refused(&["plot", &edited, "--out", &d("x.svg")]);
    assert!(err.contains("exact_loss_rate"), "{err}");
    // The text report says it.
    let text = stdout(&args[..8]);
    assert!(
        text.contains("exact (8,192 bead states): ") && text.contains(" of 30 games"),
        "{text}"
    );
}

#[test]
fn no_exact_curve_where_the_beads_grow_or_the_opponent_is_a_machine() {
    use crate::common::json;
    // MENACE's default rewards wins and draws: its beads grow, so there is no exact curve.
    let grows = json(&[
        "experiment",
        "tictactoe",
        "--runs",
        "3",
        "--games",
        "3",
        "--json",
    ]);
    assert!(grows.get("exact").is_none());
    let rival = json(&[
        "experiment",
        "hexapawn",
        "--opponent",
        "matchbox",
        "--runs",
        "3",
        "--games",
        "3",
        "--json",
    ]);
    assert!(rival.get("exact").is_none());
    // Octopawn against the random player: a game tree too big to walk for every bead state is
    // refused before the walk (it once ran for minutes and filled gigabytes).
    let octopawn = json(&[
        "experiment",
        "octopawn",
        "--opponent",
        "random",
        "--runs",
        "2",
        "--games",
        "2",
        "--json",
    ]);
    assert!(octopawn.get("exact").is_none());
    // HER against the random player has 524,288 bead states: past what an experiment walks.
    let random = json(&[
        "experiment",
        "hexapawn",
        "--opponent",
        "random",
        "--runs",
        "3",
        "--games",
        "3",
        "--json",
    ]);
    assert!(random.get("exact").is_none());
}

#[test]
fn merged_parts_keep_the_exact_curve_and_refuse_a_changed_one() {
    use crate::common::{refused, stdout};
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).display().to_string();
    let base = [
        "experiment",
        "hexapawn",
        "--runs",
        "10",
        "--games",
        "5",
        "--seed",
        "2",
    ];
    let whole = stdout(&[&base[..], &["--json"]].concat());
    let mut paths = Vec::new();
    for k in 1..=2 {
        let shard = format!("{k}/2");
        let path = d(&format!("p{k}.json"));
        std::fs::write(&path, stdout(&[&base[..], &["--shard", &shard]].concat())).unwrap();
        paths.push(path);
    }
    assert_eq!(stdout(&["merge", &paths[0], &paths[1], "--json"]), whole);
    let text = std::fs::read_to_string(&paths[1]).unwrap();
    let edited = text.replacen("\"bead_states\":8192", "\"bead_states\":8193", 1);
    assert_ne!(edited, text);
    std::fs::write(&paths[1], edited).unwrap();
    let err = refused(&["merge", &paths[0], &paths[1]]);
    assert!(err.contains("exact curve"), "{err}");
}

#[test]
fn a_budget_of_bytes_refuses_a_chain_too_big_for_it() {
    use matchbox::learn::exact::{exact_curve_within, state_bytes};
    let (_, table, m) = her_parts(true);
    // HER against the perfect player: 8,192 bead states. With room for 8,000 it is refused for
    // its states, with room for all of them it is the curve of no budget at all.
    let per = state_bytes(&m);
    assert_eq!(
        exact_curve_within(&table, &m, 10, 1_000_000, 8_000 * per),
        Err(ExactError::TooManyStates(8_000))
    );
    let whole = exact_curve(&table, &m, 10, 1_000_000).unwrap();
    assert_eq!(
        exact_curve_within(&table, &m, 10, 1_000_000, 8_192 * per).unwrap(),
        whole
    );
    // A budget too small for one walk of the game tree is refused before walking.
    assert!(matches!(
        exact_curve_within(&table, &m, 10, 1_000_000, per / 60),
        Err(ExactError::TooManyGames(_))
    ));
}
