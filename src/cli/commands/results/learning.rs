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
    // The simulated rate less the exact chance, in standard errors of a million runs.
    let gaps: Vec<(f64, f64)> = (0..games)
        .map(|g| {
            let p = c.lost(g + 1);
            let seen = sim.losses_by_game[g] as f64 / runs as f64;
            let sd = (p * (1.0 - p) / runs as f64).sqrt();
            let z = if sd == 0.0 { 0.0 } else { (seen - p) / sd };
            ((g + 1) as f64, z)
        })
        .collect();
    let worst = gaps.iter().map(|&(_, z)| z.abs()).fold(0.0, f64::max);
    let outside = gaps.iter().filter(|&&(_, z)| z.abs() > 1.96).count();
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
        Row::exact("HER's exact curve against simulation: losses in its first 60 games", "matchbox", "–", format!("exact {exact60:.4}; simulated {mean}; the largest gap over the 60 games {worst:.2} standard errors, {outside} of 60 games beyond 1.96 (about 3 expected by chance)"), &format!("matchbox experiment hexapawn --runs {runs} --games {games} --seed {SEED}")).within(ci).slow(),
    ];
    let mut s = section("HER's exact curve against a million runs", "The exact chance that each game is lost, drawn over the simulated rate's 95 % band from a million runs (the band is a thousandth wide: the lines lie on each other), and the gap between them game by game in standard errors.".into(), rows);
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
    s.charts.push(gap_chart(gaps, runs));
    s
}

/// The simulated rate less the exact chance, game by game, in standard errors, between the
/// lines at ±1.96 that 95 % of games should keep within.
fn gap_chart(gaps: Vec<(f64, f64)>, runs: usize) -> (String, ChartSpec) {
    let last = gaps.last().map_or(1.0, |&(x, _)| x);
    let bound = |y: f64| {
        let mut s = Series::line(format!("{y:+}"), vec![(1.0, y), (last, y)]);
        s.reference = true;
        s
    };
    let spec = ChartSpec {
        title: "HER against the perfect player: simulation less the exact chance".into(),
        subtitle: format!(
            "{} runs; each game's gap in standard errors, 95 % of games within ±1.96",
            crate::text::group(runs as u64)
        ),
        x_label: "game".into(),
        y_label: "gap (standard errors)".into(),
        y2_label: None,
        kind: Kind::Lines,
        series: vec![
            Series::line("simulated − exact", gaps),
            bound(1.96),
            bound(-1.96),
        ],
    };
    ("her-exact-gap.png".into(), spec)
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

/// The sweep he announced: which A, B and D learn, how fast, and which do not converge. A table
/// of every setting, and a chart for each sliding origin (none, D 0.5, D 0.9): the share of runs
/// converged against A, a line for each B with its 95 % band.
fn sweep() -> Section {
    let (runs, n) = (100u64, ODDS_GAMES);
    let mut lines = vec![
        "| A | B | D | lost, plays 1–200 | lost, last 200 plays | runs converged | median run's final loss chance |".to_string(),
        "|---|---|---|---|---|---|---|".to_string(),
    ];
    let mut charts = Vec::new();
    for decay in [None, Some(0.5), Some(0.9)] {
        let mut series: Vec<Series> = Vec::new();
        for b in [0.8, 0.9, 1.0] {
            let (mut points, mut band) = (Vec::new(), Vec::new());
            for a in [1.1, 1.25, 1.5, 2.0, 3.0] {
                let x = odds_run(Side::First, OddsRule { a, b, decay }, false, runs);
                let (early, _) = rate_cell(&x, GameResult::Loss, 0, 200);
                let (late, _) = rate_cell(&x, GameResult::Loss, n - 200, n);
                let converged = (x.share_below(0.01) * runs as f64).round() as u64;
                let (share, within) = percent_within(converged, runs);
                let median = x.final_loss[x.final_loss.len() / 2];
                let d = decay.map_or("–".into(), |d| d.to_string());
                lines.push(format!(
                    "| {a} | {b} | {d} | {early} | {late} | {share} ({within}) | {:.2} % |",
                    100.0 * median
                ));
                let (lo, hi) = crate::chart::data::wilson(converged, runs);
                points.push((a, 100.0 * converged as f64 / runs as f64));
                band.push((a, 100.0 * lo, 100.0 * hi));
            }
            let mut line = Series::line(format!("B {b}"), points);
            line.band = Some(band);
            series.push(line);
        }
        charts.push(sweep_chart(decay, runs, n, series));
    }
    let mut s = section(
        "The sweep Michie announced",
        format!(
            "Nought learning against a random Cross, {runs} runs of {n} plays for each setting (seed {SEED}); a run converged when its final machine loses under 1 % of plays (the share of runs converged with its 95 % interval: a hundred runs tell settings apart only when they differ by some twenty points). His Part II, which was to report this, we cannot find published."
        ),
        Vec::new(),
    );
    s.extra.push(lines.join("\n"));
    s.charts = charts;
    s
}

/// The sweep's chart for one sliding origin.
fn sweep_chart(
    decay: Option<f64>,
    runs: u64,
    n: usize,
    series: Vec<Series>,
) -> (String, ChartSpec) {
    let (file, origin) = match decay {
        None => (
            "michie-sweep.png".to_string(),
            "no sliding origin".to_string(),
        ),
        Some(d) => (
            format!("michie-sweep-d{d}.png"),
            format!("sliding origin, D {d}"),
        ),
    };
    let spec = ChartSpec {
        title: format!("Michie's learner, {origin}: runs that converge"),
        subtitle: format!(
            "Nought against a random Cross, {runs} runs of {n} plays each; 95 % bands"
        ),
        x_label: "A (the multiplier of a move eight from the end)".into(),
        y_label: "runs converged (%)".into(),
        y2_label: None,
        kind: Kind::Lines,
        series,
    };
    (file, spec)
}

/// A MENACE experiment against the perfect player.
fn menace_vs_perfect(
    beads: &[u32],
    r: Reinforcement,
    runs: usize,
    games: usize,
) -> ExperimentResult {
    menace_against(true, beads, r, runs, games)
}

/// A MENACE experiment against the perfect player (or the random one).
fn menace_against(
    perfect: bool,
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
    let table = if perfect {
        Table::against_perfect(&en, &boxes, TieBreak::Random).expect("noughts and crosses solves")
    } else {
        Table::against_random(&en, &boxes)
    };
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
    rows.extend(equilibrium_rows());
    rows.extend(punishment_rows(runs, games));
    section(
        "Figures quoted today",
        format!(
            "Against matchbox's perfect player (it picks at random among its best moves) unless a row names the random player; MENACE's rows {games} games a run. \"Resign for ever\": the machine's first box emptied, so it resigns every later game. Against the perfect player +1/+1/−1 and +3/+1/−1 are one machine (it never wins, and both pay a draw +1); the random player tells them apart. HER's rows ask the textbook's question of Gardner's machine: exactly for one bead an arrow, by simulation where its bead states are too many for the exact chain."
        ),
        rows,
    )
}

/// The textbook's "how long does it take to reach equilibrium where it avoids losing?" for HER
/// with one, two and three beads an arrow, punished only: exact where the chain is small enough
/// (one bead), simulated with intervals where it is not.
fn equilibrium_rows() -> Vec<Row> {
    let claim = |beads: u32| {
        format!(
            "\"how long does it take to reach equilibrium where it avoids losing?\" HER, {beads} bead(s) an arrow, punished only"
        )
    };
    let source = "Russell & Norvig, exercise";
    let mut rows = Vec::new();
    if let Ok(c) = her_curve(Some(TieBreak::Random), 1, 2000) {
        let text = format!(
            "exactly: mean game of the last loss {}, median {}, 99 % of machines by game {}",
            c.mean_last_loss
                .map_or("infinite".into(), |m| format!("{m:.2}")),
            quantile_or_beyond(c.last_loss_quantile(0.5), 2000),
            quantile_or_beyond(c.last_loss_quantile(0.99), 2000)
        );
        rows.push(Row::exact(&claim(1), source, "–", text, "matchbox results").slow());
    }
    let (runs, games) = (100_000usize, 3000usize);
    for beads in [2u32, 3] {
        let (en, table, m) = her_parts(Some(TieBreak::Random), beads);
        let x = Trainer::new(&en, &table).experiment(&m, SEED, runs, games);
        let (mean, ci) = last_loss_mean(&x);
        let late: u64 = x.losses_by_game[games - games / 10..]
            .iter()
            .map(|&k| k as u64)
            .sum();
        let text = format!(
            "simulated ({} bead states: too many for the exact chain): mean game of the last loss {mean}, median {}, 99 % of machines by game {}; {} losses in games {}–{games} of all runs",
            exact_reach(beads),
            median_last(&x),
            last_loss_quantile(&x, 0.99),
            crate::text::group(late),
            games - games / 10 + 1,
        );
        let cmd = format!(
            "matchbox experiment hexapawn --beads {beads} --runs {runs} --games {games} --seed {SEED}"
        );
        rows.push(
            Row::exact(&claim(beads), source, "–", text, &cmd)
                .within(ci)
                .slow(),
        );
    }
    rows
}

/// What the exact chain says of a machine with this many beads an arrow: its error.
fn exact_reach(beads: u32) -> String {
    match super::history::her_curve_within(Some(TieBreak::Random), beads, 1, 400_000) {
        Ok(c) => crate::text::group(c.states as u64),
        Err(_) => "over 400,000".into(),
    }
}

fn quantile_or_beyond(q: Option<usize>, games: usize) -> String {
    q.map_or(format!("beyond {games}"), |n| n.to_string())
}

/// The mean game of the last loss over runs (a run that never lost counts 0), with its interval.
fn last_loss_mean(x: &ExperimentResult) -> (String, String) {
    let (mut sum, mut sq) = (0.0, 0.0);
    for (g, &k) in x.last_loss.iter().enumerate() {
        sum += g as f64 * k as f64;
        sq += (g * g) as f64 * k as f64;
    }
    mean_within(sum, sq, x.runs as f64, 1)
}

/// The game by which a share `q` of runs had lost for the last time.
fn last_loss_quantile(x: &ExperimentResult, q: f64) -> String {
    let need = (q * x.runs as f64).ceil() as u64;
    let mut sum = 0u64;
    match x.last_loss.iter().position(|&k| {
        sum += k as u64;
        sum >= need
    }) {
        Some(g) => g.to_string(),
        None => format!("beyond {}", x.last_loss.len() - 1),
    }
}

/// Punishment against reward, as the textbook's exercise asks: MENACE 4/3/2/1 punished only,
/// +1/+1/−1 and +3/+1/−1, against the perfect player (which it cannot beat, so the two rewards
/// differ only in what a draw pays: both +1) and against the random one (where wins pay).
fn punishment_rows(runs: usize, games: usize) -> Vec<Row> {
    let rules = [
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
    ];
    let source = "Russell & Norvig, exercise";
    let mut rows = Vec::new();
    for (r, name) in rules {
        let cmd = |opponent: &str| {
            format!(
                "matchbox experiment tictactoe --beads 4,3,2,1 --reinforcement {r}{opponent} --runs {runs} --games {games} --seed {SEED}"
            )
        };
        let x = menace_against(true, &[4, 3, 2, 1], r, runs, games);
        let (res, ci) = percent_within(x.first_box_empty as u64, runs as u64);
        let text = format!(
            "median game of the last loss {}; {res} resign for ever",
            median_last(&x)
        );
        let claim = format!(
            "punishment against reward: MENACE 4/3/2/1, {name}, against the perfect player"
        );
        rows.push(
            Row::exact(&claim, source, "–", text, &cmd(""))
                .within(ci)
                .slow(),
        );
        let x = menace_against(false, &[4, 3, 2, 1], r, runs, games);
        let tail = games - games / 10;
        let lost: u64 = x.losses_by_game[tail..].iter().map(|&k| k as u64).sum();
        let won: u64 = x.wins_by_game[tail..].iter().map(|&k| k as u64).sum();
        let all = (runs * (games - tail)) as u64;
        let (lost_pc, ci) = percent_within(lost, all);
        let (won_pc, _) = percent_within(won, all);
        let (res, _) = percent_within(x.first_box_empty as u64, runs as u64);
        let text = format!(
            "games {}–{games}: lost {lost_pc}, won {won_pc}; {res} resign for ever",
            tail + 1
        );
        let claim =
            format!("punishment against reward: MENACE 4/3/2/1, {name}, against the random player");
        rows.push(
            Row::exact(&claim, source, "–", text, &cmd(" --opponent random"))
                .within(ci)
                .slow(),
        );
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ten runs: four never lost, three last lost at game 2, three at game 5.
    fn ten_runs() -> ExperimentResult {
        let mut x = ExperimentResult::empty(6);
        x.runs = 10;
        x.last_loss = vec![4, 0, 3, 0, 0, 3, 0];
        x
    }

    #[test]
    fn the_mean_game_of_the_last_loss_counts_a_run_that_never_lost_as_zero() {
        // (3·2 + 3·5) / 10 = 2.1; variance 0.3·4 + 0.3·25 − 2.1² = 4.29.
        let (mean, within) = last_loss_mean(&ten_runs());
        assert_eq!(mean, "2.1");
        let half = 1.959_963_984_540_054 * (4.29f64 / 10.0).sqrt();
        assert_eq!(within, format!("{:.1}–{:.1}", 2.1 - half, 2.1 + half));
    }

    #[test]
    fn quantiles_of_the_last_loss_are_the_games_by_which_that_share_had_ended() {
        let x = ten_runs();
        assert_eq!(last_loss_quantile(&x, 0.4), "0");
        assert_eq!(last_loss_quantile(&x, 0.5), "2");
        assert_eq!(last_loss_quantile(&x, 0.7), "2");
        assert_eq!(last_loss_quantile(&x, 0.71), "5");
        assert_eq!(median_last(&x), "2");
        let mut late = x.clone();
        late.last_loss = vec![0, 0, 0, 0, 0, 0, 10];
        assert_eq!(last_loss_quantile(&late, 0.99), "6");
        assert_eq!(median_last(&late), "beyond game 6");
    }
}
