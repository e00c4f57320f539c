//! The slow rows: HER's exact curve against a million simulated runs, Michie's 1963 learner
//! (his three runs and the sweep of A, B and D he announced), and the figures quoted today
//! (menace.js, the 2017 festival MENACE, the textbook's exercise).

use std::sync::Arc;

use super::history::{her_curve, her_parts};
use super::{Row, Section, mean_within, percent_within};
use crate::chart::{ChartSpec, Kind, Series};
use crate::game::Side;
use crate::games::tictactoe::TicTacToe;
use crate::learn::engine::{Enumerated, ExperimentResult, Table, Trainer};
use crate::learn::odds::{OddsExperiment, OddsRule, odds_experiment};
use crate::learn::{
    BoxSet, Forced, GameResult, Machine, Reinforcement, Scope, StageBeads, SymmetryMode,
};
use crate::solve::TieBreak;

/// Our reading of Michie's trial run: Fig. 6's values are a chart the text does not give, so
/// these are ours, in his form, strong enough to be what he called "too strong".
pub(super) const TRIAL: OddsRule = OddsRule {
    a: 2.0,
    b: 0.9,
    decay: None,
};
const ODDS_RUNS: u64 = 200;
const ODDS_GAMES: usize = 2000;
const SEED: u64 = 1963;

pub(super) fn sections(quick: bool) -> Vec<Section> {
    if quick {
        return Vec::new();
    }
    vec![her_check(), michie(), sweep(), quoted()]
}

fn section(title: &str, text: String, rows: Vec<Row>) -> Section {
    Section {
        title: title.into(),
        text,
        rows,
        extra: Vec::new(),
        charts: Vec::new(),
    }
}

/// The exact curve against a million simulated HER runs of 60 games, and the chart of both.
fn her_check() -> Section {
    let games = 60;
    let runs = 1_000_000usize;
    let c = her_curve(Some(TieBreak::Random), 1, games).expect("HER's chain is small");
    let (en, table, m) = her_parts(Some(TieBreak::Random), 1);
    let sim = Trainer::new(&en, &table).experiment(&m, SEED, runs, games);
    let worst = (0..games)
        .map(|g| {
            let p = c.lost(g + 1);
            let seen = sim.losses_by_game[g] as f64 / runs as f64;
            let sd = (p * (1.0 - p) / runs as f64).sqrt();
            if sd == 0.0 {
                0.0
            } else {
                (seen - p).abs() / sd
            }
        })
        .fold(0.0, f64::max);
    let exact60: f64 = c.games.iter().map(|g| g[2]).sum();
    let (mean, ci) = mean_within(
        sim.cumulative_losses[games - 1] as f64,
        sim.cumulative_losses_sq[games - 1] as f64,
        runs as f64,
        4,
    );
    let random = match super::history::her_curve_within(None, 1, 1, 3_000_000) {
        Ok(r) => format!(
            "mean losses {:.4}, mean game of the last loss {:.4} ({} bead states)",
            r.mean_losses.unwrap_or(f64::INFINITY),
            r.mean_last_loss.unwrap_or(f64::INFINITY),
            crate::text::group(r.states as u64)
        ),
        Err(e) => e,
    };
    let rows = vec![
        Row::exact("HER against the random player, exactly", "–", "–", random, "matchbox results").slow(),
        Row::exact("HER's exact curve against simulation: losses in its first 60 games", "matchbox", "–", format!("exact {exact60:.4}; simulated {mean}; the largest gap over the 60 games {worst:.2} standard errors"), &format!("matchbox experiment hexapawn --runs {runs} --games {games} --seed {SEED}")).within(ci).slow(),
    ];
    let mut s = section("HER's exact curve against a million runs", "The exact chance that each game is lost, drawn over the simulated rate's 95 % band from a million runs.".into(), rows);
    let band = (0..games)
        .map(|g| {
            let (lo, hi) = crate::chart::data::wilson(sim.losses_by_game[g] as u64, runs as u64);
            ((g + 1) as f64, lo, hi)
        })
        .collect();
    let simulated: Vec<(f64, f64)> = (0..games)
        .map(|g| ((g + 1) as f64, sim.losses_by_game[g] as f64 / runs as f64))
        .collect();
    let mut sim_series = Series::line("simulated, 1,000,000 runs", simulated);
    sim_series.band = Some(band);
    let exact = Series::line(
        "exact",
        (1..=games).map(|n| (n as f64, c.lost(n))).collect(),
    );
    s.charts.push((
        "her-exact.png".into(),
        ChartSpec {
            title: "HER against the perfect player: the chance game n is lost".into(),
            subtitle: "Gardner's 24 boxes, one bead an arrow, a loss takes the last move's bead"
                .into(),
            x_label: "game".into(),
            y_label: "chance of a loss".into(),
            y2_label: None,
            kind: Kind::Lines,
            series: vec![sim_series, exact],
        },
    ));
    s
}

fn menace_table(side: Side, rival: bool) -> (BoxSet<TicTacToe>, Option<BoxSet<TicTacToe>>, Table) {
    let en = Enumerated::new(TicTacToe);
    let boxes = BoxSet::build_with(&TicTacToe, side, SymmetryMode::Full, Forced::Skip);
    if rival {
        let other = BoxSet::build_with(&TicTacToe, side.other(), SymmetryMode::Full, Forced::Skip);
        let table = Table::against_machine(&en, &boxes, &other);
        (boxes, Some(other), table)
    } else {
        let table = Table::against_random(&en, &boxes);
        (boxes, None, table)
    }
}

fn rate_cell(x: &OddsExperiment, r: GameResult, from: usize, to: usize) -> (String, String) {
    let k: u64 = x.by_game[from..to]
        .iter()
        .map(|g| g[r as usize] as u64)
        .sum();
    percent_within(k, x.runs * (to - from) as u64)
}

fn odds_run(side: Side, rule: OddsRule, both: bool, runs: u64) -> OddsExperiment {
    let (boxes, other, table) = menace_table(side, both);
    let rival = other.as_ref().map(|b| (b, rule));
    odds_experiment(&table, &boxes, rule, rival, SEED, runs, ODDS_GAMES)
}

fn michie() -> Section {
    let n = ODDS_GAMES;
    let cmd = |extra: &str| {
        format!(
            "matchbox experiment tictactoe --odds {},{} {extra} --runs {ODDS_RUNS} --games {n} --seed {SEED}",
            TRIAL.a, TRIAL.b
        )
    };
    let mut rows = Vec::new();
    for (side, who, claim) in [
        (
            Side::First,
            "Nought (the opener)",
            "did not converge to an infallible standard of play: the reinforcements were too strong",
        ),
        (Side::Second, "Cross", "essentially similar"),
    ] {
        let x = odds_run(side, TRIAL, false, ODDS_RUNS);
        let (early, _) = rate_cell(&x, GameResult::Loss, 0, 100);
        let (late, late_ci) = rate_cell(&x, GameResult::Loss, n - 100, n);
        let median = x.final_loss[x.final_loss.len() / 2];
        rows.push(Row::exact(&format!("{who} learning against a random player: {claim}"), "Michie 1963, Figs. 7–8", "no convergence", format!("plays lost: {early} in plays 1–100, {late} in plays {}–{n}; after {n} plays {:.0} % of runs lose under 1 % of plays, the median run {:.2} %", n - 99, 100.0 * x.share_below(0.01), 100.0 * median), &cmd(if side == Side::First { "--opponent random" } else { "--side o --opponent random" })).within(late_ci).slow());
    }
    let x = odds_run(Side::First, TRIAL, true, ODDS_RUNS);
    let (d1, _) = rate_cell(&x, GameResult::Draw, 0, 100);
    let (d4, d4_ci) = rate_cell(&x, GameResult::Draw, 300, 400);
    let (dn, _) = rate_cell(&x, GameResult::Draw, n - 100, n);
    rows.push(Row::exact("both sides learning: \"after a few hundred games the two sides were both producing near-expert play\"", "Michie 1963, Fig. 9", "near-expert after a few hundred", format!("drawn: {d1} of plays 1–100, {d4} of plays 301–400, {dn} of plays {}–{n}", n - 99), &cmd("--opponent matchbox")).within(d4_ci).slow());
    section(
        "Michie's 1963 learner",
        format!(
            "The computer learner of his paper (`src/learn/odds.rs`): each move's odds multiplied by Mₙ = A·B^(n−8) after a win, n the moves of the play after it, by the reciprocal after a loss, and (with the sliding origin, decay D) by Mₙ^(v−μ) for an outcome v against the decayed average μ of past outcomes. Its boxes are MENACE's (symmetry merged, equal odds on each distinct move at first). Fig. 6's values are not in the text; the runs here take A = {}, B = {} (the last move ×{:.2}, the opening of a nine-move play ×{}), no sliding origin. A run is counted as converged when its final machine loses under 1 % of plays against the random player (exactly, over every game it can play).",
            TRIAL.a,
            TRIAL.b,
            TRIAL.multiplier(0),
            TRIAL.a
        ),
        rows,
    )
}

/// The sweep he announced: which A, B and D learn, how fast, and which do not converge.
fn sweep() -> Section {
    let (runs, n) = (100u64, ODDS_GAMES);
    let mut lines = vec![
        "| A | B | D | lost, plays 1–200 | lost, last 200 plays | runs converged | median run's final loss chance |".to_string(),
        "|---|---|---|---|---|---|---|".to_string(),
    ];
    let mut series: Vec<Series> = Vec::new();
    for decay in [None, Some(0.5), Some(0.9)] {
        for b in [0.8, 0.9, 1.0] {
            let mut points = Vec::new();
            for a in [1.1, 1.25, 1.5, 2.0, 3.0] {
                let x = odds_run(Side::First, OddsRule { a, b, decay }, false, runs);
                let (early, _) = rate_cell(&x, GameResult::Loss, 0, 200);
                let (late, _) = rate_cell(&x, GameResult::Loss, n - 200, n);
                let share = x.share_below(0.01);
                let median = x.final_loss[x.final_loss.len() / 2];
                let d = decay.map_or("–".into(), |d| d.to_string());
                lines.push(format!(
                    "| {a} | {b} | {d} | {early} | {late} | {:.0} % | {:.2} % |",
                    100.0 * share,
                    100.0 * median
                ));
                points.push((a, 100.0 * share));
            }
            // B 0.9 lies between the other two (the table has it): six lines keep six colours.
            if b != 0.9 {
                let d = decay.map_or("no origin".into(), |d| format!("D {d}"));
                series.push(Series::line(format!("B {b}, {d}"), points));
            }
        }
    }
    let mut s = section(
        "The sweep Michie announced",
        format!(
            "Nought learning against a random Cross, {runs} runs of {n} plays for each setting (seed {SEED}); a run converged when its final machine loses under 1 % of plays. His Part II, which was to report this, we cannot find published."
        ),
        Vec::new(),
    );
    s.extra.push(lines.join("\n"));
    s.charts.push((
        "michie-sweep.png".into(),
        ChartSpec {
            title: "Michie's learner: runs that converge, by A, B and D".into(),
            subtitle: format!("Nought against a random Cross, {runs} runs of {n} plays each"),
            x_label: "A (the multiplier of a move eight from the end)".into(),
            y_label: "runs converged (%)".into(),
            y2_label: None,
            kind: Kind::Lines,
            series,
        },
    ));
    s
}

/// A MENACE experiment against the perfect player.
fn menace_vs_perfect(
    beads: &[u32],
    r: Reinforcement,
    runs: usize,
    games: usize,
) -> ExperimentResult {
    let en = Enumerated::new(TicTacToe);
    let boxes = Arc::new(BoxSet::build_with(
        &TicTacToe,
        Side::First,
        SymmetryMode::Full,
        Forced::Skip,
    ));
    let table =
        Table::against_perfect(&en, &boxes, TieBreak::Random).expect("noughts and crosses solves");
    let stage = StageBeads::new(beads.to_vec()).expect("small counts");
    let m = Machine::new(boxes, stage, r, SEED);
    Trainer::new(&en, &table).experiment(&m, SEED, runs, games)
}

/// The median game of the last loss among runs, within the games played: "beyond" the last game
/// when half the runs still lose then.
fn median_last(x: &ExperimentResult) -> String {
    match median_index(x) {
        n if n + 1 >= x.last_loss.len() => format!("beyond game {}", x.last_loss.len() - 1),
        n => n.to_string(),
    }
}

fn median_index(x: &ExperimentResult) -> usize {
    let half = x.runs as u64 / 2;
    let mut sum = 0u64;
    x.last_loss
        .iter()
        .position(|&k| {
            sum += k as u64;
            sum > half
        })
        .unwrap_or(x.last_loss.len())
}

fn quoted() -> Section {
    let (runs, games) = (10_000usize, 500usize);
    let scroggs = menace_vs_perfect(&[8, 4, 2, 1], Reinforcement::MICHIE, runs, games);
    let wins: u64 = scroggs.wins_by_game.iter().map(|&w| w as u64).sum();
    let resigned = percent_within(scroggs.first_box_empty as u64, runs as u64);
    let cmd = |b: &str, r: &str| {
        format!(
            "matchbox experiment tictactoe --beads {b} --reinforcement {r} --runs {runs} --games {games} --seed {SEED}"
        )
    };
    let mut rows = vec![
        Row::exact("menace.js against its perfect player \"takes around 80 games to learn\"", "M. Scroggs, 2020", "about 80 games", format!("median game of the last loss {} (8/4/2/1 beads, +3/+1/−1); {} of runs empty their first box and resign for ever", median_last(&scroggs), resigned.0), &cmd("8,4,2,1", "michie")).within(resigned.1).slow(),
        Row::exact("menace.js \"usually only gets ~40 wins\"", "menace.js, its PR #4", "about 40 wins", format!("{wins} wins in {} games: a perfect player cannot lose, so the figure must be against a weaker player", crate::text::group((runs * games) as u64)), &cmd("8,4,2,1", "michie")).slow(),
    ];
    for (b, name) in [
        (&[8, 3, 2, 1][..], "8/3/2/1"),
        (&[4, 3, 2, 1][..], "4/3/2/1"),
    ] {
        let x = menace_vs_perfect(b, Reinforcement::MICHIE, runs, games);
        let (res, ci) = percent_within(x.first_box_empty as u64, runs as u64);
        rows.push(Row::exact(&format!("the 2017 festival MENACE, {name} beads: \"learned more quickly than we had expected\""), "the festival's write-up, 2017", "quickly", format!("median game of the last loss {}; {res} of runs resign for ever", median_last(&x)), &cmd(&name.replace('/', ","), "michie")).within(ci).slow());
    }
    for beads in [1u32, 2, 3] {
        let text = match her_curve(Some(TieBreak::Random), beads, 2000) {
            Ok(c) => format!(
                "exactly: mean game of the last loss {}, median {}",
                c.mean_last_loss
                    .map_or("infinite".into(), |m| format!("{m:.2}")),
                c.last_loss_quantile(0.5)
                    .map_or("beyond 2000".into(), |n| n.to_string())
            ),
            Err(e) => e,
        };
        rows.push(Row::exact(&format!("\"how long does it take to reach equilibrium where it avoids losing?\" HER, {beads} bead(s) an arrow, punished only"), "Russell & Norvig, exercise", "–", text, "matchbox results").slow());
    }
    for (r, name) in [
        (
            Reinforcement {
                win: 0,
                draw: 0,
                loss: -1,
                scope: Scope::AllMoves,
            },
            "punish only",
        ),
        (
            Reinforcement {
                win: 1,
                draw: 1,
                loss: -1,
                scope: Scope::AllMoves,
            },
            "+1/+1/−1",
        ),
        (Reinforcement::MICHIE, "+3/+1/−1"),
    ] {
        let x = menace_vs_perfect(&[4, 3, 2, 1], r, 2000, games);
        let (res, ci) = percent_within(x.first_box_empty as u64, 2000);
        rows.push(
            Row::exact(
                &format!("punishment against reward: MENACE 4/3/2/1, {name}"),
                "Russell & Norvig, exercise",
                "–",
                format!(
                    "median game of the last loss {}; {res} resign for ever",
                    median_last(&x)
                ),
                &cmd("4,3,2,1", &r.to_string()),
            )
            .within(ci)
            .slow(),
        );
    }
    section(
        "Figures quoted today",
        format!(
            "Against matchbox's perfect player (it picks at random among its best moves), {games} games a run. \"Resign for ever\": the machine's first box emptied, so it resigns every later game."
        ),
        rows,
    )
}
