//! `experiment cartpole`: BOXES and the learners that came after it on the same 162 boxes, many
//! seeded runs each, side by side — the trials each needed to keep the pole up for the limit,
//! and the learning curve with its band ("matchboxes, then neurons").

use super::*;
use crate::cartpole::learner::{Kind, Summary, lengths_of};
use crate::chart::{ChartSpec, Kind as ChartLines, Series};
use crate::cli::ExperimentArgs;
use rayon::prelude::*;

/// The learners' results.
#[derive(serde::Serialize)]
pub(super) struct CartExperimentReport {
    seed: u64,
    runs: usize,
    trials: usize,
    /// A trial stopped here counts as balanced.
    limit: usize,
    physics: &'static str,
    /// Trials start from rest, or each from a random state.
    random_start: bool,
    learners: Vec<Summary>,
    /// The files written, as (what, path).
    written: Vec<(&'static str, String)>,
}

impl std::fmt::Display for CartExperimentReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "the cart-pole ({}; trials from {}), {} runs of {} trials each (run i seeded from {} and i); balanced: a trial of {} steps",
            self.physics,
            if self.random_start {
                "random states"
            } else {
                "rest"
            },
            crate::text::group(self.runs as u64),
            self.trials,
            self.seed,
            crate::text::group(self.limit as u64)
        )?;
        for s in &self.learners {
            let n = |v: Option<usize>| v.map_or(format!(">{}", self.trials), |v| v.to_string());
            let [q1, m, q3] = s.to_balance;
            let last = s.curve.last().map_or(0.0, |q| q.median);
            writeln!(
                f,
                "  {:<40} balanced in {:>5} of {} runs; trials to the first: median {} (95 % interval {}–{}), quartiles {}–{}; last trial's median {} steps",
                s.learner.title(),
                s.balanced,
                s.runs,
                n(m),
                n(s.median_interval[0]),
                n(s.median_interval[1]),
                n(q1),
                n(q3),
                crate::text::group(last as u64)
            )?;
        }
        for (what, path) in &self.written {
            writeln!(f, "wrote the {what} to {path}")?;
        }
        Ok(())
    }
}

/// One row of `--csv`: a learner's trial, the quartiles of its length over the runs.
#[derive(serde::Serialize)]
struct CurveRow {
    learner: &'static str,
    trial: usize,
    q1: f64,
    median: f64,
    q3: f64,
}

/// The most trials' lengths an experiment keeps (8 bytes each: 400 MB).
pub(super) const MAX_LENGTHS: u64 = 50_000_000;

/// Refuses what the cart-pole's experiment does not take.
fn check(a: &ExperimentArgs) -> Result<()> {
    let mut given = super::cartpole::board_options(&a.learn);
    given.extend([
        ("--compare", a.compare.is_some()),
        ("--odds", a.odds.is_some()),
        ("--shard", a.shard.is_some()),
        ("--boxes", a.learn.machine.boxes.is_some()),
        ("--chart", a.output.chart.is_some()),
    ]);
    super::cartpole::refuse_given(
        &given,
        "experiment cartpole",
        "--learner, --runs, --games (trials a run), --steps, --seed, --friction, --random-start, --plot, --csv",
    )?;
    if a.runs == 0 {
        bail!("--runs 0: give at least one run");
    }
    // Every trial's length is kept for the quartiles: 8 bytes each.
    let trials = a.learn.games.unwrap_or(100);
    let learners = a
        .learn
        .set
        .side
        .as_deref()
        .map_or(3, |l| l.split(',').count());
    if (a.runs as u128) * (trials as u128) * (learners as u128) > MAX_LENGTHS as u128 {
        bail!(
            "--runs {} × --games {trials} × {learners} learners: more than {} trials' lengths to keep ({} of memory); run fewer",
            a.runs,
            crate::text::group(MAX_LENGTHS),
            crate::text::bytes(8 * MAX_LENGTHS)
        );
    }
    Ok(())
}

/// The learners `--learner` names (all three where it names none).
pub(super) fn learners(named: Option<&str>) -> Result<Vec<Kind>> {
    let Some(list) = named else {
        return Ok(Kind::ALL.to_vec());
    };
    let names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
    let mut kinds = Vec::new();
    for word in list.split(',').map(str::trim) {
        let kind = (Kind::ALL.into_iter())
            .find(|k| k.name().eq_ignore_ascii_case(word))
            .with_context(|| {
                format!(
                    "--learner `{}`: the cart-pole's learners are {}",
                    crate::text::quote(word),
                    names.join(", ")
                )
            })?;
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    Ok(kinds)
}

/// `experiment cartpole`: every learner asked for, `--runs` runs of `--games` trials each.
pub(super) fn experiment(a: &ExperimentArgs) -> Result<CartExperimentReport> {
    check(a)?;
    super::outputs::check_outputs(&a.output, &[])?;
    let seed = a.learn.machine.seed.unwrap_or_else(rand::random);
    let trials = a.learn.games.unwrap_or(100).max(1);
    let limit = a.steps.unwrap_or(10_000) as usize;
    let kinds = learners(a.learn.set.side.as_deref())?;
    let (game, physics_name) = (&a.learn.game, super::cartpole::physics_of(&a.learn.game).1);
    let learners: Vec<Summary> = (kinds.iter())
        .map(|&kind| {
            let runs: Vec<Vec<usize>> = (0..a.runs as u64)
                .into_par_iter()
                .map(|run| {
                    let seed = crate::rng::derive_seed(seed, run);
                    let run = super::cartpole::run_for(game, kind.learner(seed), seed, limit);
                    lengths_of(run, trials)
                })
                .collect();
            Summary::of(kind, &runs, limit)
        })
        .collect();
    write_outputs(a, &learners, limit)?;
    let written = super::outputs::written(&a.output);
    Ok(CartExperimentReport {
        seed,
        runs: a.runs,
        trials,
        limit,
        physics: physics_name,
        random_start: a.learn.game.random_start,
        learners,
        written,
    })
}

/// The table and the chart, each written whole or not at all.
fn write_outputs(a: &ExperimentArgs, learners: &[Summary], limit: usize) -> Result<()> {
    if let Some(mut table) = super::outputs::Table::create(a.output.csv.as_ref())? {
        for s in learners {
            for (i, q) in s.curve.iter().enumerate() {
                table.row(&CurveRow {
                    learner: s.learner.name(),
                    trial: i + 1,
                    q1: q.q1,
                    median: q.median,
                    q3: q.q3,
                })?;
            }
        }
        table.commit()?;
    }
    if let Some(path) = &a.output.plot {
        let bytes = chart::exporter_for(path)?.export(&curves_chart(learners, a.runs, limit))?;
        store::save_atomic_bytes(path, &bytes)?;
    }
    Ok(())
}

/// The learners' curves, medians with their middle half as a band, steps on a log scale.
pub(super) fn curves_chart(learners: &[Summary], runs: usize, limit: usize) -> ChartSpec {
    let series = (learners.iter())
        .map(|s| {
            let at = |i: usize| (i + 1) as f64;
            let mut line = Series::line(
                s.learner.title(),
                s.curve
                    .iter()
                    .enumerate()
                    .map(|(i, q)| (at(i), q.median))
                    .collect(),
            );
            line.band = Some(
                (s.curve.iter().enumerate())
                    .map(|(i, q)| (at(i), q.q1, q.q3))
                    .collect(),
            );
            line
        })
        .collect();
    ChartSpec {
        title: "Balancing a pole: matchboxes, then neurons".into(),
        subtitle: format!(
            "median of {} runs each, the band their middle half; {} steps counts as balanced",
            crate::text::group(runs as u64),
            crate::text::group(limit as u64)
        ),
        x_label: "trial".into(),
        y_label: "steps the pole stayed up".into(),
        y2_label: None,
        kind: ChartLines::LogLines,
        series,
    }
}
