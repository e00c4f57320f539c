//! `experiment`: many independently seeded learners, their results averaged (and variants
//! compared with the same seeds).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::*;
use crate::cli::Shard;
use crate::cli::progress::Work;
use crate::cli::settings::RunSettings;
use crate::learn::engine::Runs;

/// The variants of `--compare KEY=V1,V2`: each value applied to a copy of the options.
pub(super) fn variants(
    base: &LearnArgs,
    compare: Option<&str>,
) -> Result<Vec<(String, LearnArgs)>> {
    let Some(spec) = compare else {
        return Ok(vec![(String::new(), base.clone())]);
    };
    let (key, values) = spec.split_once('=').with_context(|| {
        format!("--compare `{spec}`: use KEY=V1,V2, e.g. symmetry=full,gardner")
    })?;
    let mut out = Vec::new();
    for v in values.split(',').map(str::trim).filter(|v| !v.is_empty()) {
        let mut a = base.clone();
        let bad = |e: String| anyhow::anyhow!("--compare {key}: `{v}`: {e}");
        match key.trim() {
            "symmetry" => {
                a.set.symmetry = Some(v.parse::<SymmetryMode>().map_err(|e| bad(e.to_string()))?);
            }
            "reinforcement" => {
                a.machine.reinforcement =
                    Some(v.parse().map_err(|e: LearnError| bad(e.to_string()))?);
            }
            "preset" => {
                a.machine.preset = Some(v.parse::<Preset>().map_err(|e| bad(e.to_string()))?);
                a.machine.beads = None;
                a.machine.reinforcement = None;
            }
            "beads" => {
                a.machine.beads = Some(v.parse().map_err(|e: LearnError| bad(e.to_string()))?)
            }
            "opponent" => a.opponent = Some(v.parse().map_err(bad)?),
            other => bail!(
                "--compare: cannot compare `{other}` (use symmetry, reinforcement, preset, beads or opponent)"
            ),
        }
        out.push((format!("{key} {v}"), a));
    }
    if out.len() < 2 {
        bail!("--compare {key}: give at least two values, e.g. {key}=a,b");
    }
    Ok(out)
}

/// A run's label without the settings that `--compare` varies (they are in the legend).
pub(super) fn compared_label(label: &str, compare: Option<&str>) -> String {
    let Some(key) = compare
        .and_then(|c| c.split_once('='))
        .map(|(k, _)| k.trim())
    else {
        return label.to_string();
    };
    let varied: &[&str] = match key {
        "preset" => &["reinforcement", "beads"],
        "symmetry" => &["symmetry"],
        "reinforcement" => &["reinforcement"],
        "beads" => &["beads"],
        _ => &[],
    };
    label
        .split(" · ")
        .enumerate()
        .filter_map(|(i, part)| {
            if i == 0 && key == "opponent" {
                // `HER (black) v perfect player` → `HER (black)`
                return Some(part.split(" v ").next().unwrap_or(part).to_string());
            }
            (!varied.iter().any(|v| part.contains(v))).then(|| part.to_string())
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The most game indices an experiment's chart takes (its rows are held in memory); the CSV
/// streams any number.
pub(super) const MAX_CHART_GAMES: usize = 1_000_000;

/// The most games per run of an experiment: its statistics are kept per game index (about 40
/// bytes per game index for each thread).
pub(super) const MAX_EXPERIMENT_GAMES: usize = 10_000_000;

/// Rates averaged over the first and the last games.
#[derive(Serialize)]
struct Summary {
    loss_rate_first_20: f64,
    loss_rate_last_20: f64,
    loss_rate_last_20_first_box_kept: f64,
    win_rate_last_20: f64,
    draw_rate_last_20: f64,
}

/// One variant's results.
#[derive(Serialize)]
pub(super) struct VariantReport {
    settings: RunSettings,
    runs: usize,
    games: usize,
    mean_losses: f64,
    loss_rate: Vec<f64>,
    draw_rate: Vec<f64>,
    win_rate: Vec<f64>,
    first_box_empty: f64,
    mean_last_loss: f64,
    last_loss_histogram: Vec<u32>,
    clean_last_20: f64,
    loss_rate_first_box_kept: Vec<f64>,
    /// Every game of every run, by how it ended.
    ended: crate::learn::engine::Ends,
    summary: Summary,
    #[serde(skip_serializing_if = "Option::is_none")]
    variant: Option<String>,
    /// The exact curve beside the simulated one, where it is within reach.
    #[serde(skip_serializing_if = "Option::is_none")]
    exact: Option<ExactReport>,
}

/// The exact curve and how many games' simulated rates hold it within their 95 % intervals.
#[derive(Serialize)]
struct ExactReport {
    #[serde(flatten)]
    rates: ExactRates,
    /// Games whose simulated rate of loss holds the exact chance within its 95 % interval.
    agreeing: usize,
}

impl VariantReport {
    fn of(name: &str, settings: RunSettings, result: &ExperimentResult, runs: usize) -> Self {
        let games = result.losses_by_game.len();
        // A mean of shares carries the sum's rounding (0.33699999999999997): ten decimals
        // say it as the shares do (0.337).
        let window = |rates: &[f64], from, to| {
            (ExperimentResult::mean_over(rates, from, to) * 1e10).round() / 1e10
        };
        let last = games.saturating_sub(19).max(1);
        let (loss_rate, kept) = (result.loss_rate(), result.loss_rate_first_box_kept());
        VariantReport {
            settings,
            runs,
            games,
            mean_losses: result.mean_losses(),
            summary: Summary {
                loss_rate_first_20: window(&loss_rate, 1, 20),
                loss_rate_last_20: window(&loss_rate, last, games),
                loss_rate_last_20_first_box_kept: window(&kept, last, games),
                win_rate_last_20: window(&result.win_rate(), last, games),
                draw_rate_last_20: window(&result.draw_rate(), last, games),
            },
            loss_rate,
            draw_rate: result.draw_rate(),
            win_rate: result.win_rate(),
            first_box_empty: result.first_box_empty_share(),
            mean_last_loss: result.mean_last_loss(),
            last_loss_histogram: result.last_loss.clone(),
            clean_last_20: result.share_clean_last(20),
            loss_rate_first_box_kept: kept,
            ended: result.ended.clone(),
            variant: (!name.is_empty()).then(|| name.to_string()),
            exact: None,
        }
    }

    /// The text of one variant; `table`: with the loss rate at chosen games.
    fn write(&self, f: &mut fmt::Formatter<'_>, table: bool) -> fmt::Result {
        let (games, last) = (self.games, self.games.saturating_sub(19).max(1));
        let who = self
            .variant
            .as_ref()
            .map(|n| format!(" [{n}]"))
            .unwrap_or_default();
        writeln!(
            f,
            "\n{} runs × {games} games{who}: {:.3} losses per run on average",
            self.runs, self.mean_losses
        )?;
        if table {
            writeln!(f, "share of runs that lost game g:")?;
            for g in [1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 500, 1000] {
                if g <= games {
                    writeln!(f, "  game {g:>5}: {:.4}", self.loss_rate[g - 1])?;
                }
            }
        }
        let s = &self.summary;
        writeln!(
            f,
            "games 1-{}: lost {:.4}; games {last}-{games}: lost {:.4}, drawn {:.4}, won {:.4}",
            games.min(20),
            s.loss_rate_first_20,
            s.loss_rate_last_20,
            s.draw_rate_last_20,
            s.win_rate_last_20,
        )?;
        writeln!(
            f,
            "last loss at game {:.1} on average; {:.4} of runs lost none of their last 20 games",
            self.mean_last_loss, self.clean_last_20
        )?;
        writeln!(
            f,
            "first box empty at the end (resigns every game): {:.4} of runs; games {last}-{games} lost by the others: {:.4}",
            self.first_box_empty, s.loss_rate_last_20_first_box_kept
        )?;
        if let Some(x) = &self.exact {
            let all = |m: Option<f64>| m.map_or("infinite".to_string(), |m| format!("{m:.4}"));
            let here: f64 = x.rates.loss_rate.iter().sum();
            writeln!(
                f,
                "exact ({} bead states): {here:.4} losses per run in these games, {} in all; last loss at game {} on average in all; the simulated rate holds the exact chance within its 95 % interval at {} of {games} games",
                crate::text::group(x.rates.bead_states as u64),
                all(x.rates.mean_losses_in_all),
                all(x.rates.mean_last_loss_in_all),
                x.agreeing,
            )?;
        }
        writeln!(f, "{}", super::ended_text(&self.ended))
    }
}

/// One experiment, or several compared.
#[derive(Serialize)]
#[serde(untagged)]
enum Body {
    Single(Box<VariantReport>),
    Compared {
        runs: usize,
        games: usize,
        variants: Vec<VariantReport>,
    },
}

/// What `experiment` found, and the files it wrote.
#[derive(Serialize)]
pub(super) struct ExperimentReport {
    #[serde(flatten)]
    body: Body,
    #[serde(skip)]
    written: Vec<(&'static str, String)>,
}

impl fmt::Display for ExperimentReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.body {
            Body::Single(v) => v.write(f, true)?,
            Body::Compared { variants, .. } => {
                for v in variants {
                    v.write(f, false)?;
                }
            }
        }
        for (what, path) in &self.written {
            writeln!(f, "{what} written to {path}")?;
        }
        Ok(())
    }
}

/// Refuses experiments that cannot be run: no runs, no games, more games than statistics hold.
fn check_size(a: &ExperimentArgs, games: usize) -> Result<()> {
    if a.runs == 0 {
        bail!("--runs 0: an experiment needs at least one run");
    }
    if games == 0 {
        bail!("--games 0: an experiment needs at least one game per run");
    }
    if games > MAX_EXPERIMENT_GAMES {
        bail!(
            "--games {}: an experiment keeps statistics for every game index, up to {} games per run; for one long run use `train`",
            crate::text::group(games as u64),
            crate::text::group(MAX_EXPERIMENT_GAMES as u64)
        );
    }
    if a.output.plot.is_some() && games > MAX_CHART_GAMES {
        bail!(
            "--plot: an experiment's chart takes up to {} games per run; write --csv instead",
            crate::text::group(MAX_CHART_GAMES as u64)
        );
    }
    Ok(())
}

/// Memory past which an experiment says what it will take before it starts.
const MEMORY_TO_SAY: u64 = 300_000_000;

/// What an experiment of `games` games a run holds in memory, said where it passes
/// [`MEMORY_TO_SAY`]: per game index, each thread's sums (about 40 bytes), the result and its
/// report (about 90 bytes for each variant compared), and the JSON built from them (about 110
/// more); the measurement behind these is in `docs/performance.md`.
fn memory_note(games: usize, variants: usize, json: bool) -> Option<String> {
    let per_game =
        40 * crate::par::threads() as u64 + variants as u64 * (90 + 110 * u64::from(json));
    let bytes = games as u64 * per_game;
    (bytes > MEMORY_TO_SAY).then(|| {
        format!(
            "this experiment keeps about {} in memory: statistics for each of its {} game indices (fewer --games take less)",
            crate::text::bytes(bytes),
            crate::text::group(games as u64)
        )
    })
}

/// Says how long the experiment will take, from one short run on this thread: refused past a
/// year, said on stderr past two minutes.
fn forecast<G: FullGame>(s: &Setup<G>, runs: usize, games: usize) -> Result<()> {
    let probe_games = games.min(10_000);
    // A first short run fills what the runs share (the perfect player's values, met as they
    // come): timed cold, one run would speak for many minutes that the runs never take.
    s.experiment(1, probe_games.min(2_000), &|| {});
    let started = std::time::Instant::now();
    s.experiment(1, probe_games, &|| {});
    let per_game = started.elapsed().as_secs_f64() / probe_games as f64;
    let threads = crate::par::threads() as f64;
    let total = runs as f64 * games as f64 * per_game / threads;
    if total > crate::text::YEAR {
        bail!(
            "this experiment would take about {}; ask for fewer runs or games",
            crate::text::duration_text(total)
        );
    }
    if total > 120.0 && !std::io::stderr().is_terminal() {
        // Where a bar is drawn, it says how long is left.
        eprintln!(
            "about {} to go ({} runs × {} games on {} threads; Ctrl-C stops)",
            crate::text::duration_text(total),
            crate::text::group(runs as u64),
            crate::text::group(games as u64),
            threads
        );
    }
    Ok(())
}

/// One variant's runs, summed: what a report is made from, and what a part of a sharded
/// experiment holds.
#[derive(Serialize, serde::Deserialize)]
pub(super) struct VariantRuns {
    pub name: String,
    pub label: String,
    /// The header of settings the text output starts with (empty in parts written before it).
    #[serde(default)]
    pub header: String,
    pub settings: RunSettings,
    pub result: ExperimentResult,
    /// The exact curve of the machine's first games, where one is within reach.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exact: Option<ExactRates>,
}

/// The most bead states an experiment walks for its exact curve (HER against the perfect player
/// has 8,192, HIM against the random player 57,600; HER against the random player's 524,288
/// would take longer than most experiments).
const EXACT_STATES: usize = 60_000;
/// The memory those bead states may take.
const EXACT_BYTES: u64 = 64 << 20;

/// What the exact chain says of an experiment's games ([`crate::learn::exact`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(super) struct ExactRates {
    /// The bead states the machine can reach.
    pub bead_states: usize,
    /// The chance that game n is lost (index n − 1).
    pub loss_rate: Vec<f64>,
    /// The mean number of losses in all (`None`: infinite).
    pub mean_losses_in_all: Option<f64>,
    /// The mean game of the last loss over all games (`None`: infinite).
    pub mean_last_loss_in_all: Option<f64>,
}

impl ExactRates {
    /// The exact curve of `s`'s machine over `games` games, when its beads never grow and its
    /// opponent is the perfect or the random player on the table engine.
    pub fn of<G: FullGame>(s: &Setup<G>, games: usize) -> Option<ExactRates> {
        let c = s.bout.exact_curve(games, EXACT_STATES, EXACT_BYTES).ok()?;
        Some(ExactRates {
            bead_states: c.states,
            loss_rate: (1..=games).map(|n| c.lost(n)).collect(),
            // Ten decimals, as a summary's means: 10.5, not 10.500000000000007.
            mean_losses_in_all: c.mean_losses.map(|m| (m * 1e10).round() / 1e10),
            mean_last_loss_in_all: c.mean_last_loss.map(|m| (m * 1e10).round() / 1e10),
        })
    }

    /// The games whose simulated rate of loss (k of n runs) holds the exact chance within its
    /// 95 % interval.
    fn agreeing(&self, result: &ExperimentResult) -> usize {
        let n = result.runs as u64;
        (self.loss_rate.iter().zip(&result.losses_by_game))
            .filter(|&(&p, &k)| {
                let (lo, hi) = chart::data::wilson(k as u64, n);
                // The interval is printed to 4 places; a chance on its edge is within.
                lo - 1e-12 <= p && p <= hi + 1e-12
            })
            .count()
    }
}

/// What a part file says it is.
pub(super) const PART_OF: &str = "matchbox experiment";
pub(super) const PART_VERSION: u32 = 1;

/// One slice of an experiment: its shard, the experiment's size and options, and each variant's
/// sums over the slice's runs.
#[derive(Serialize, serde::Deserialize)]
pub(super) struct Part {
    pub part_of: String,
    pub version: u32,
    pub shard: Shard,
    /// The whole experiment's runs (this part holds its slice of them).
    pub runs: usize,
    pub games: usize,
    pub compare: Option<String>,
    pub variants: Vec<VariantRuns>,
}

impl Part {
    pub fn new(
        shard: Shard,
        runs: usize,
        games: usize,
        compare: Option<String>,
        variants: Vec<VariantRuns>,
    ) -> Part {
        Part {
            part_of: PART_OF.to_string(),
            version: PART_VERSION,
            shard,
            runs,
            games,
            compare,
            variants,
        }
    }
}

/// What `experiment` prints: the report, or with `--shard` the part for `merge`.
#[derive(Serialize)]
#[serde(untagged)]
pub(super) enum Outcome {
    Report(ExperimentReport),
    Part(Box<Part>),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Report(r) => r.fmt(f),
            // A part is a file for `merge`: JSON either way.
            Outcome::Part(p) => {
                writeln!(f, "{}", serde_json::to_string(p).map_err(|_| fmt::Error)?)
            }
        }
    }
}

/// The runs this invocation plays: all of them, or with `--shard` its slice.
fn runs_of(a: &ExperimentArgs) -> Result<Runs> {
    let Some(shard) = a.shard else {
        return Ok(Runs::all(a.runs));
    };
    if a.learn.machine.seed.is_none() && a.learn.machine.boxes.is_none() {
        bail!("--shard: give --seed, the same for every part (run i is seeded from it and i)");
    }
    Runs::shard(a.runs, shard.k, shard.n)
        .with_context(|| format!("--shard {}/{}: K from 1 to N", shard.k, shard.n))
}

pub(super) fn experiment<G: FullGame>(game: G, a: &ExperimentArgs, out: Out) -> Result<Outcome> {
    let mut read: Vec<(&str, &std::path::Path)> = Vec::new();
    if let Some(b) = &a.learn.machine.boxes {
        read.push(("--boxes", b.as_path()));
    }
    if let Some(f) = a.learn.opponent.as_ref().and_then(|o| o.file.as_deref()) {
        read.push(("--opponent", f));
    }
    super::outputs::check_outputs_reading(&a.output, &[], &read)?;
    super::outputs::check_chart(&a.output, "experiment", false)?;
    let games = a.learn.games.unwrap_or(50);
    check_size(a, games)?;
    let runs = runs_of(a)?;
    if let Some(crate::players::Opponent::Mcts(n)) = a.learn.opponent.as_ref().map(|o| o.kind) {
        let all = (runs.len() as u64).saturating_mul(games as u64);
        crate::cli::progress::search_forecast(&game, n, all)?;
    }
    // A part's JSON is all that goes to stdout.
    let out = if a.shard.is_some() {
        Out::new(true)
    } else {
        out
    };
    let variants = variants(&a.learn, a.compare.as_deref())?;
    if let Some(note) = memory_note(games, variants.len(), out.is_json()) {
        eprintln!("{note}");
    }
    let work = Work::with_bar((runs.len() * variants.len()) as u64, "runs");
    let tick = || work.tick();
    let mut done = Vec::new();
    for (name, args) in &variants {
        let s = Setup::new(game.clone(), args)?;
        let title = match name.is_empty() {
            true => "experiment".to_string(),
            false => format!("experiment ({name})"),
        };
        let header = s.header(
            &title,
            &[
                ("runs", format!("{} (run i seeded from seed and i)", a.runs)),
                ("games", format!("{games} per run")),
            ],
        );
        out.preamble(&header);
        forecast(&s, runs.len(), games)?;
        done.push(VariantRuns {
            name: name.clone(),
            header: header.to_string(),
            label: compared_label(&s.label(), a.compare.as_deref()),
            settings: s.settings(),
            result: s.experiment(runs, games, &tick),
            exact: ExactRates::of(&s, games),
        });
    }
    work.finish();
    if let Some(shard) = a.shard {
        return Ok(Outcome::Part(Box::new(Part::new(
            shard,
            a.runs,
            games,
            a.compare.clone(),
            done,
        ))));
    }
    report(a.runs, games, a.compare.is_some(), &done, &a.output).map(Outcome::Report)
}

/// The report of an experiment's variants, with its table and chart written where asked.
pub(super) fn report(
    runs: usize,
    games: usize,
    compared: bool,
    done: &[VariantRuns],
    output: &ChartArgs,
) -> Result<ExperimentReport> {
    let mut csv = super::outputs::Table::create(output.csv.as_ref())?;
    let mut rows = Vec::new();
    let mut reports = Vec::new();
    for v in done {
        let exact = v.exact.as_ref().map(|x| x.loss_rate.as_slice());
        for row in chart::data::index_rows(&v.name, &v.label, &v.result, exact) {
            if let Some(w) = &mut csv {
                w.row(&row)?;
            }
            if output.plot.is_some() {
                rows.push(row);
            }
        }
        let mut report = VariantReport::of(&v.name, v.settings.clone(), &v.result, runs);
        report.exact = v.exact.as_ref().map(|x| ExactReport {
            agreeing: x.agreeing(&v.result),
            rates: x.clone(),
        });
        reports.push(report);
    }
    if let Some(table) = csv {
        table.commit()?;
    }
    if let Some(path) = &output.plot {
        let kind = output.chart.unwrap_or(ChartKind::LossRate);
        let spec = chart::data::chart(kind, &Rows::Index(rows))?;
        let bytes = chart::exporter_for(path)?.export(&spec)?;
        store::save_atomic_bytes(path, &bytes)?;
    }
    let written = super::outputs::written(output);
    let body = match compared {
        false => Body::Single(Box::new(reports.remove(0))),
        true => Body::Compared {
            runs,
            games,
            variants: reports,
        },
    };
    Ok(ExperimentReport { body, written })
}

#[cfg(test)]
mod tests {
    use super::memory_note;

    #[test]
    fn a_big_experiment_says_its_memory_first() {
        assert_eq!(memory_note(50, 1, true), None);
        assert_eq!(memory_note(100_000, 1, false), None);
        let note = memory_note(10_000_000, 1, true).expect("10,000,000 games take gigabytes");
        assert!(note.contains("GB in memory"), "{note}");
        assert!(note.contains("10,000,000 game indices"), "{note}");
        // Each variant compared holds its own report.
        assert!(memory_note(2_000_000, 1, true).is_some());
        assert!(memory_note(1_000_000, 3, true).is_some());
    }
}
