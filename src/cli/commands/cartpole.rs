//! `replay cartpole` and `playout cartpole`: the cart-pole of BOXES from the command line — a
//! record of pushes played from rest, every step's state and the step it failed at; random pushes,
//! how long the pole stays up. The cart-pole is not a board game: it is named here, before the
//! games' registry is asked.

use super::*;
use crate::cartpole::learner::{Kind, Learner, Run, lengths_of};
use crate::cartpole::{Physics, Push};
use crate::cli::{GameArgs, PlayoutArgs, ReplayArgs};

/// The cart-pole's physics the command asks for, and its name for a report.
pub(super) fn physics_of(game: &GameArgs) -> (Physics, &'static str) {
    match game.friction {
        true => (
            Physics::BARTO_1983,
            "Barto, Sutton and Anderson 1983: with friction",
        ),
        false => (Physics::POLE_C, "pole.c and CartPole-v1: no friction"),
    }
}

/// A run of `learner` (seeded `seed`) on the cart-pole the command asks for: its physics, and
/// from rest or from random states, a trial ending at `limit` steps.
pub(super) fn run_for<L: Learner + ?Sized>(
    game: &GameArgs,
    learner: Box<L>,
    seed: u64,
    limit: usize,
) -> Run<L> {
    let run = Run::new(learner, physics_of(game).0, limit);
    match game.random_start {
        true => run.random_starts(seed),
        false => run,
    }
}

/// The board games' options of `l` that the cart-pole has no use for, and whether each was given.
pub(super) fn board_options(l: &crate::cli::LearnArgs) -> Vec<(&'static str, bool)> {
    vec![
        ("--opponent", l.opponent.is_some()),
        ("--preset", l.machine.preset.is_some()),
        ("--reinforcement", l.machine.reinforcement.is_some()),
        ("--beads", l.machine.beads.is_some()),
        ("--size", l.game.size.is_some()),
        ("--symmetry", l.set.symmetry.is_some()),
        ("--swap", l.game.swap),
        ("--handicap", l.game.handicap.is_some()),
    ]
}

/// Refuses the first option `given` of those the cart-pole's `command` does not take, saying
/// what it `takes`.
pub(super) fn refuse_given(given: &[(&str, bool)], command: &str, takes: &str) -> Result<()> {
    match given.iter().find(|g| g.1) {
        Some((name, _)) => bail!("{name}: not for the cart-pole (`{command}` takes {takes})"),
        None => Ok(()),
    }
}

/// Whether the command names the cart-pole.
pub(super) fn is_cartpole(game: &GameArgs) -> bool {
    game.game == crate::games::CARTPOLE.name
}

/// Every step of a record of pushes.
#[derive(serde::Serialize)]
pub(super) struct PushesReport {
    steps: Vec<Step>,
    /// The step (from 1) the trial failed at, if it did.
    failed_at: Option<usize>,
}

#[derive(serde::Serialize)]
struct Step {
    step: usize,
    push: &'static str,
    x: f64,
    x_dot: f64,
    theta: f64,
    theta_dot: f64,
    /// `pole.c`'s box of the state (from 0; none once failed).
    #[serde(rename = "box")]
    box_index: Option<usize>,
}

impl std::fmt::Display for PushesReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "step push  x (m)     ẋ (m/s)   θ (°)     θ̇ (°/s)   box")?;
        for s in &self.steps {
            let boxed = s.box_index.map_or("-".into(), |b| b.to_string());
            writeln!(
                f,
                "{:>4} {:<4} {:>+8.4} {:>+9.4} {:>+8.3} {:>+9.3}   {boxed}",
                s.step,
                s.push,
                s.x,
                s.x_dot,
                s.theta.to_degrees(),
                s.theta_dot.to_degrees()
            )?;
        }
        match self.failed_at {
            Some(n) => writeln!(f, "the pole fell (or the cart left the track) at step {n}"),
            None => writeln!(f, "still up after {} steps", self.steps.len()),
        }
    }
}

/// `replay cartpole --moves "R R L …"`: the pushes played from rest.
pub(super) fn replay(a: &ReplayArgs) -> Result<PushesReport> {
    if a.game.random_start {
        bail!("--random-start: a record of pushes is played from rest");
    }
    let text =
        crate::cli::record_text(a.moves.as_deref(), a.moves_file.as_deref())?.unwrap_or_default();
    let mut pushes = Vec::new();
    for (i, w) in text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .enumerate()
    {
        let p = Push::parse(w)
            .with_context(|| format!("push {} `{}`: L or R", i + 1, crate::text::quote(w)))?;
        pushes.push(p);
    }
    let (states, failed_at) = physics_of(&a.game).0.run(&pushes);
    let steps = (states.iter().zip(&pushes).enumerate())
        .map(|(i, (s, p))| Step {
            step: i + 1,
            push: if *p == Push::Left { "L" } else { "R" },
            x: s.x,
            x_dot: s.x_dot,
            theta: s.theta,
            theta_dot: s.theta_dot,
            box_index: crate::cartpole::box_of(s),
        })
        .collect();
    Ok(PushesReport { steps, failed_at })
}

/// Random pushes from rest, trial after trial.
#[derive(serde::Serialize)]
pub(super) struct PlayoutReport {
    trials: u64,
    seed: u64,
    mean_steps: f64,
    /// The mean's 95 % interval (normal: ±1.96 standard errors).
    interval: (f64, f64),
    longest: usize,
}

impl std::fmt::Display for PlayoutReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "random pushes, {} trials from rest (seed {}): the pole stays up {:.2} steps on average (95 % interval {:.2}–{:.2}), {} at the longest",
            crate::text::group(self.trials),
            self.seed,
            self.mean_steps,
            self.interval.0,
            self.interval.1,
            self.longest
        )
    }
}

/// `playout cartpole --games N`: N trials of random pushes, each until the pole falls (at most
/// 10,000 steps).
pub(super) fn playout(a: &PlayoutArgs) -> Result<PlayoutReport> {
    let seed = a.seed.unwrap_or(1);
    let (mut sum, mut sq, mut longest) = (0.0, 0.0, 0);
    let run = run_for(&a.game, Kind::Random.learner(seed), seed, 10_000);
    for n in lengths_of(run, a.games.max(1) as usize) {
        (sum, sq, longest) = (sum + n as f64, sq + (n * n) as f64, longest.max(n));
    }
    let t = a.games.max(1) as f64;
    let mean = sum / t;
    let sd = ((sq / t - mean * mean).max(0.0) * t / (t - 1.0).max(1.0)).sqrt();
    let half = 1.96 * sd / t.sqrt();
    Ok(PlayoutReport {
        trials: a.games.max(1),
        seed,
        mean_steps: mean,
        interval: (mean - half, mean + half),
        longest,
    })
}
