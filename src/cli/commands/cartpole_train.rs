//! `train cartpole`, `watch cartpole` and `boxes cartpole`: one learner of the cart-pole, trial
//! after trial from rest, in a report or live on the screen — a BOXES
//! machine saved and loaded (`--save`, `--boxes`) as the board games' machines are, its trials
//! charted (steps a trial, log scale) and tabled.

use super::*;
use crate::cartpole::boxes::{Machine, Settings};
use crate::cartpole::learner::{Kind, Learner, Run};
use crate::chart::{ChartSpec, Kind as ChartLines, Series};
use crate::cli::TrainArgs;

/// A trial must reach this many steps to count as balanced.
const LIMIT: usize = 10_000;

/// What the trials did.
#[derive(serde::Serialize)]
pub(super) struct CartTrainReport {
    learner: Kind,
    physics: &'static str,
    seed: u64,
    /// Trials the machine had played before this run (a machine loaded with `--boxes`).
    before: u64,
    /// Each trial's length (steps) in this run.
    lengths: Vec<usize>,
    /// The first trial (from 1, in this run) to reach the limit.
    first_balanced: Option<usize>,
    limit: usize,
    written: Vec<(&'static str, String)>,
}

impl std::fmt::Display for CartTrainReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.lengths.len();
        let tail = &self.lengths[n.saturating_sub(10)..];
        let mean = tail.iter().sum::<usize>() as f64 / tail.len().max(1) as f64;
        writeln!(
            f,
            "{} (seed {}; {}): {} trials{}; the last {} lasted {:.0} steps on average, the longest {}",
            self.learner.title(),
            self.seed,
            self.physics,
            n,
            match self.before {
                0 => String::new(),
                b => format!(" after the {b} it had played"),
            },
            tail.len(),
            mean,
            self.lengths.iter().max().unwrap_or(&0)
        )?;
        match self.first_balanced {
            Some(t) => writeln!(f, "balanced ({} steps) first at trial {t}", self.limit)?,
            None => writeln!(f, "not yet balanced for {} steps", self.limit)?,
        }
        for (what, path) in &self.written {
            writeln!(f, "wrote the {what} to {path}")?;
        }
        Ok(())
    }
}

/// One row of `--csv`.
#[derive(serde::Serialize)]
struct TrialRow {
    trial: u64,
    steps: usize,
}

/// The one learner `--learner` names (BOXES where it names none).
pub(super) fn one_learner(named: Option<&str>, command: &str) -> Result<Kind> {
    let Some(named) = named else {
        return Ok(Kind::Boxes);
    };
    match super::cartpole_experiment::learners(Some(named))?[..] {
        [one] => Ok(one),
        _ => {
            bail!("--learner: `{command}` takes one learner (`experiment cartpole` races several)")
        }
    }
}

fn check(a: &TrainArgs, kind: Kind) -> Result<()> {
    let l = &a.learn;
    let mut given = super::cartpole::board_options(l);
    given.extend([
        ("--record", a.record.is_some()),
        ("--save-opponent", a.save_opponent.is_some()),
        ("--chart", a.output.chart.is_some()),
    ]);
    super::cartpole::refuse_given(
        &given,
        "train cartpole",
        "--learner, --games (trials), --seed, --friction, --random-start, --boxes, --save, --plot, --csv",
    )?;
    let trials = l.games.unwrap_or(100) as u64;
    if trials > super::cartpole_experiment::MAX_LENGTHS {
        bail!(
            "--games {trials}: at most {} trials a run (each one's length is kept for the report)",
            crate::text::group(super::cartpole_experiment::MAX_LENGTHS)
        );
    }
    let saves = l.machine.boxes.is_some() || a.save.is_some();
    if kind != Kind::Boxes && saves {
        bail!(
            "--boxes and --save keep a BOXES machine: --learner {} has no matchboxes to save",
            kind.name()
        );
    }
    let mut others = vec![("--save", a.save.as_ref())];
    others.retain(|o| o.1.is_some());
    super::outputs::check_outputs(&a.output, &others)?;
    if let Some(save) = &a.save {
        let resumed = l.machine.boxes.as_ref() == Some(save);
        if save.exists() && !resumed && !a.force {
            bail!(
                "--save {}: exists; give --force to replace it",
                crate::text::quote(&save.display().to_string())
            );
        }
    }
    Ok(())
}

/// `train cartpole`.
pub(super) fn train(a: &TrainArgs) -> Result<CartTrainReport> {
    let kind = one_learner(a.learn.set.side.as_deref(), "train")?;
    check(a, kind)?;
    let physics_name = super::cartpole::physics_of(&a.learn.game).1;
    let trials = a.learn.games.unwrap_or(100);
    let (lengths, seed, before) = match kind {
        Kind::Boxes => {
            let machine = match &a.learn.machine.boxes {
                Some(path) => store::load_boxes(path)?,
                None => Machine::new(
                    Settings::default(),
                    a.learn.machine.seed.unwrap_or_else(rand::random),
                ),
            };
            let (seed, before) = (machine.seed, machine.trials);
            // Random starts drawn from the seed and the trials played before.
            let starts = crate::rng::derive_seed(seed, before);
            let mut run = super::cartpole::run_for(&a.learn.game, Box::new(machine), starts, LIMIT);
            let lengths = play(&mut run, trials);
            if let Some(path) = &a.save {
                store::save_boxes(path, &run.learner)?;
            }
            (lengths, seed, before)
        }
        _ => {
            let seed = a.learn.machine.seed.unwrap_or_else(rand::random);
            (
                play(
                    &mut super::cartpole::run_for(&a.learn.game, kind.learner(seed), seed, LIMIT),
                    trials,
                ),
                seed,
                0,
            )
        }
    };
    write_outputs(a, kind, &lengths, before)?;
    let mut written = super::outputs::written(&a.output);
    if let Some(p) = &a.save {
        written.push(("machine", p.display().to_string()));
    }
    Ok(CartTrainReport {
        learner: kind,
        physics: physics_name,
        seed,
        before,
        first_balanced: lengths.iter().position(|&n| n >= LIMIT).map(|i| i + 1),
        lengths,
        limit: LIMIT,
        written,
    })
}

fn play<L: Learner + ?Sized>(run: &mut Run<L>, trials: usize) -> Vec<usize> {
    (0..trials).map(|_| run.trial()).collect()
}

fn write_outputs(a: &TrainArgs, kind: Kind, lengths: &[usize], before: u64) -> Result<()> {
    let trial = |i: usize| before + i as u64 + 1;
    if let Some(mut table) = super::outputs::Table::create(a.output.csv.as_ref())? {
        for (i, &steps) in lengths.iter().enumerate() {
            table.row(&TrialRow {
                trial: trial(i),
                steps,
            })?;
        }
        table.commit()?;
    }
    if let Some(path) = &a.output.plot {
        let points = (lengths.iter().enumerate())
            .map(|(i, &n)| (trial(i) as f64, n as f64))
            .collect();
        let spec = ChartSpec {
            title: format!("{} learning to balance a pole", kind.title()),
            subtitle: format!(
                "steps the pole stayed up, trial by trial; {} counts as balanced",
                crate::text::group(LIMIT as u64)
            ),
            x_label: "trial".into(),
            y_label: "steps the pole stayed up".into(),
            y2_label: None,
            kind: ChartLines::LogLines,
            series: vec![Series::line(kind.name(), points)],
        };
        let bytes = chart::exporter_for(path)?.export(&spec)?;
        store::save_atomic_bytes(path, &bytes)?;
    }
    Ok(())
}

/// `watch cartpole`: a learner balancing the pole, live (`--learner`, `--seed`, `--boxes` to
/// start from a saved BOXES machine; `s` saves it to `--save`, by default
/// `cartpole-boxes.yaml`).
pub(super) fn watch(a: &crate::cli::WatchArgs) -> Result<()> {
    let mut given = super::cartpole::board_options(&a.learn);
    given.push(("--games", a.learn.games.is_some()));
    super::cartpole::refuse_given(
        &given,
        "watch cartpole",
        "--learner, --seed, --friction, --random-start, --boxes, --save, --force, --theme",
    )?;
    let kind = one_learner(a.learn.set.side.as_deref(), "watch")?;
    let loaded = a.learn.machine.boxes.as_ref();
    if kind != Kind::Boxes && (loaded.is_some() || a.save.is_some()) {
        bail!(
            "--boxes and --save keep a BOXES machine: --learner {} has no matchboxes to save",
            kind.name()
        );
    }
    let start = loaded.map(|p| store::load_boxes(p)).transpose()?;
    let seed = match &start {
        Some(m) => m.seed,
        None => a.learn.machine.seed.unwrap_or_else(rand::random),
    };
    let path = a
        .save
        .clone()
        .unwrap_or_else(|| "cartpole-boxes.yaml".into());
    store::check_writable(&path)?;
    crate::tui::check_terminal("watch")?;
    let mut may_replace = a.force || loaded == Some(&path) || !path.exists();
    let (physics, _) = super::cartpole::physics_of(&a.learn.game);
    let mut app = crate::view::pole::PoleApp::with_physics(kind, seed, start, physics);
    app.random_start = a.learn.game.random_start;
    app.theme = a.theme.into();
    app.restart();
    crate::tui::watch_pole(&mut app, |app| {
        let shown = crate::text::quote(&path.display().to_string());
        let Some(m) = app.run.learner.as_boxes() else {
            return format!("{} has no matchboxes to save", app.kind.name());
        };
        if !may_replace && path.exists() {
            return format!(
                "{shown} exists: not replaced (watch with --force to let s replace it)"
            );
        }
        match store::save_boxes(&path, m) {
            Ok(()) => {
                may_replace = true;
                format!("saved to {shown}")
            }
            Err(e) => format!("not saved: {e}"),
        }
    })
}

/// `boxes cartpole`: the 162 boxes, each's ranges in words (and, of a machine loaded with
/// `--boxes`, its push and counters); `--labels FILE`: their labels to print.
#[derive(serde::Serialize)]
pub(super) struct PoleBoxesReport {
    boxes: Vec<PoleBox>,
    #[serde(skip_serializing_if = "Option::is_none")]
    trials: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    labels: Option<super::boxes::LabelsWritten>,
}

#[derive(serde::Serialize)]
struct PoleBox {
    #[serde(rename = "box")]
    index: usize,
    ranges: [&'static str; 4],
    #[serde(skip_serializing_if = "Option::is_none")]
    push: Option<crate::cartpole::Push>,
    #[serde(skip_serializing_if = "Option::is_none")]
    record: Option<crate::cartpole::boxes::Record>,
}

impl std::fmt::Display for PoleBoxesReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(l) = &self.labels {
            return write!(f, "{l}");
        }
        writeln!(
            f,
            "the cart-pole's {} boxes (pole.c's partition):",
            self.boxes.len()
        )?;
        for b in &self.boxes {
            let push = match (b.push, b.record) {
                (Some(p), Some(r)) => format!(
                    "  push {} · left life {:.1} uses {:.1} · right life {:.1} uses {:.1}",
                    if p == crate::cartpole::Push::Left {
                        "◀"
                    } else {
                        "▶"
                    },
                    r.left_life,
                    r.left_usage,
                    r.right_life,
                    r.right_usage
                ),
                _ => String::new(),
            };
            writeln!(f, "{:>4}  {}{push}", b.index, b.ranges.join(" · "))?;
        }
        Ok(())
    }
}

pub(super) fn boxes(a: &crate::cli::BoxesArgs) -> Result<PoleBoxesReport> {
    let given = [
        ("--preset", a.preset.is_some()),
        ("--beads", a.beads.is_some()),
        ("--count", a.count),
        ("--bead-list", a.bead_list),
        ("--size", a.game.size.is_some()),
        ("--side", a.set.side.is_some()),
        ("--symmetry", a.set.symmetry.is_some()),
    ];
    super::cartpole::refuse_given(
        &given,
        "boxes cartpole",
        "--boxes, --labels, --paper, --label-size",
    )?;
    let machine = a.boxes.as_ref().map(|p| store::load_boxes(p)).transpose()?;
    let boxes = (0..crate::cartpole::boxes::BOXES)
        .map(|b| PoleBox {
            index: b,
            ranges: crate::labels::pole::ranges(b),
            push: machine.as_ref().map(|m| m.pushes[b]),
            record: machine.as_ref().map(|m| m.records[b]),
        })
        .collect();
    let labels = match &a.labels {
        Some(path) => {
            let layout = crate::labels::Layout {
                paper: a.paper,
                label: a.label_size,
            };
            let pages = crate::labels::pole::pole_sheets(machine.as_ref(), layout);
            let title = crate::labels::pole::pole_title(machine.as_ref());
            Some(super::boxes::write_pages(&pages, &title, path)?)
        }
        None => None,
    };
    Ok(PoleBoxesReport {
        boxes,
        trials: machine.map(|m| m.trials),
        labels,
    })
}
