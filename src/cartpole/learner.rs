//! Whatever learns to push the cart — BOXES, Barto, Sutton and Anderson's ASE/ACE, or a random
//! pusher — behind one trait, and the one place a trial is played step by step: [`Run`], which
//! the experiment, the watch screen and the benchmarks all drive.

pub use super::Learner;
use super::{Physics, Push, State, box_of, random_push};
use crate::rng::{Rng, rng_from_seed};

/// The learners there are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Michie and Chambers' BOXES (1968).
    Boxes,
    /// Barto, Sutton and Anderson's adaptive search and critic elements (1983).
    Ase,
    /// Pushes left or right at random: the yardstick.
    Random,
}

impl Kind {
    pub const ALL: [Kind; 3] = [Kind::Boxes, Kind::Ase, Kind::Random];

    /// Its short name, as the command line and files write it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Boxes => "boxes",
            Kind::Ase => "ase",
            Kind::Random => "random",
        }
    }

    /// Its name for a chart or a class.
    pub fn title(self) -> &'static str {
        match self {
            Kind::Boxes => "BOXES (Michie & Chambers 1968)",
            Kind::Ase => "ASE/ACE (Barto, Sutton & Anderson 1983)",
            Kind::Random => "random pushes",
        }
    }

    /// Its short name for a narrow screen.
    pub fn short(self) -> &'static str {
        match self {
            Kind::Boxes => "BOXES",
            Kind::Ase => "ASE/ACE",
            Kind::Random => "random pushes",
        }
    }

    /// A fresh learner of this kind, seeded.
    pub fn learner(self, seed: u64) -> Box<dyn Learner + Send> {
        match self {
            Kind::Boxes => Box::new(super::boxes::Machine::new(Default::default(), seed)),
            Kind::Ase => Box::new(super::ase::Ase::new(Default::default(), seed)),
            Kind::Random => Box::new(Random(rng_from_seed(seed))),
        }
    }
}

/// Pushes at random, learning nothing.
pub struct Random(Rng);

impl Learner for Random {
    fn push(&mut self, _: usize, _: usize) -> Push {
        random_push(&mut self.0)
    }
    fn after(&mut self, _: usize, _: Option<usize>) {}
    fn end_trial(&mut self, _: usize) {}
    fn leaning(&self, _: usize) -> f64 {
        0.0
    }
}

/// What a step of a run did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stepped {
    /// The trial goes on.
    Going,
    /// The trial ended after this many steps: the pole fell or the cart left the track
    /// (`failed`), or it reached the limit.
    Ended { length: usize, failed: bool },
}

/// A learner at work, trial after trial from rest, stepped one push at a time.
pub struct Run<L: Learner + ?Sized> {
    pub physics: Physics,
    /// The longest a trial may last (steps): reaching it counts as balanced.
    pub limit: usize,
    state: State,
    /// Steps so far in this trial.
    pub steps: usize,
    /// Trials ended so far.
    pub trials: u64,
    /// The last push, for a screen to draw.
    pub last_push: Option<Push>,
    pub learner: Box<L>,
    /// Where trials start: from rest (`None`), or each from a state drawn by this generator.
    starts: Option<Rng>,
    /// The box of `state` (`None` once failed), found once a step.
    here: Option<usize>,
}

/// The state a random start draws: each measure uniform over the middle band of `pole.c`'s
/// partition (the cart within ±0.8 m moving under 0.5 m/s, the pole within ±6° turning under
/// 50°/s): a state from which a good controller can still save the pole.
pub fn random_state(rng: &mut Rng) -> State {
    use rand::Rng as _;
    let mut draw = |half: f64| {
        let unit = (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
        (unit * 2.0 - 1.0) * half
    };
    State {
        x: draw(0.8),
        x_dot: draw(0.5),
        theta: draw(6f64.to_radians()),
        theta_dot: draw(50f64.to_radians()),
    }
}

impl<L: Learner + ?Sized> Run<L> {
    pub fn new(learner: Box<L>, physics: Physics, limit: usize) -> Run<L> {
        Run {
            physics,
            limit: limit.max(1),
            state: State::default(),
            steps: 0,
            trials: 0,
            last_push: None,
            learner,
            starts: None,
            here: box_of(&State::default()),
        }
    }

    /// The same run with every trial starting from a random state ([`random_state`]) drawn from
    /// `seed`, rather than from rest.
    pub fn random_starts(mut self, seed: u64) -> Run<L> {
        let mut rng = rng_from_seed(crate::rng::derive_seed(seed, u64::MAX));
        self.state = random_state(&mut rng);
        self.here = box_of(&self.state);
        self.starts = Some(rng);
        self
    }

    /// Where the cart and the pole are now.
    pub fn state(&self) -> State {
        self.state
    }

    /// The box the cart-pole is in now.
    pub fn current_box(&self) -> Option<usize> {
        self.here
    }

    /// One push and what it led to.
    pub fn step(&mut self) -> Stepped {
        let Some(b) = self.here else {
            return self.end(true);
        };
        let push = self.learner.push(b, self.steps);
        self.last_push = Some(push);
        self.state = self.physics.step(self.state, push);
        self.steps += 1;
        let failed = self.physics.failed(&self.state);
        let next = if failed { None } else { box_of(&self.state) };
        self.here = next;
        self.learner.after(b, next);
        match (next, self.steps >= self.limit) {
            (None, _) => self.end(true),
            (Some(_), true) => self.end(false),
            _ => Stepped::Going,
        }
    }

    fn end(&mut self, failed: bool) -> Stepped {
        let length = self.steps;
        self.learner.end_trial(length);
        self.trials += 1;
        self.state = match &mut self.starts {
            Some(rng) => random_state(rng),
            None => State::default(),
        };
        self.here = box_of(&self.state);
        self.steps = 0;
        Stepped::Ended { length, failed }
    }

    /// Plays the rest of this trial: its length.
    pub fn trial(&mut self) -> usize {
        loop {
            if let Stepped::Ended { length, .. } = self.step() {
                return length;
            }
        }
    }
}

/// The lengths of `trials` trials of a fresh learner of `kind` seeded `seed`, from rest.
pub fn lengths(kind: Kind, seed: u64, physics: Physics, limit: usize, trials: usize) -> Vec<usize> {
    lengths_of(Run::new(kind.learner(seed), physics, limit), trials)
}

/// The lengths of the next `trials` trials of `run`.
pub fn lengths_of<L: Learner + ?Sized>(mut run: Run<L>, trials: usize) -> Vec<usize> {
    (0..trials).map(|_| run.trial()).collect()
}

/// The quartiles of some numbers (nearest rank): the lower quartile, the median, the upper.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Quartiles {
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
}

impl Quartiles {
    /// Of `values`, sorted here; `None` where there are none.
    pub fn of(mut values: Vec<f64>) -> Option<Quartiles> {
        values.sort_by(f64::total_cmp);
        let at = |p: f64| {
            let rank = ((p * values.len() as f64).ceil() as usize).max(1);
            values.get(rank - 1).copied()
        };
        Some(Quartiles {
            q1: at(0.25)?,
            median: at(0.5)?,
            q3: at(0.75)?,
        })
    }
}

/// What many runs of one learner did.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Summary {
    pub learner: Kind,
    pub runs: usize,
    /// The runs that had a trial reach the limit.
    pub balanced: usize,
    /// The trials up to and including the first that reached the limit: its quartiles over the
    /// runs, a run that never did counting as more than any (`None`: more than the trials played).
    pub to_balance: [Option<usize>; 3],
    /// The median's 95 % interval, from the order statistics (no assumption on the shape of
    /// the distribution): the ranks n/2 ∓ 1.96·√n/2.
    pub median_interval: [Option<usize>; 2],
    /// Each trial's length (steps): its quartiles over the runs, trial by trial.
    pub curve: Vec<Quartiles>,
}

impl Summary {
    /// Of the trials' lengths of each run (`lengths[run][trial]`), a trial of `limit` steps
    /// counting as balanced.
    pub fn of(learner: Kind, lengths: &[Vec<usize>], limit: usize) -> Summary {
        let firsts: Vec<Option<usize>> = (lengths.iter())
            .map(|l| l.iter().position(|&n| n >= limit).map(|i| i + 1))
            .collect();
        let mut sorted: Vec<usize> = firsts.iter().map(|f| f.unwrap_or(usize::MAX)).collect();
        sorted.sort();
        let at = |p: f64| {
            let rank = ((p * sorted.len() as f64).ceil() as usize).max(1);
            sorted.get(rank - 1).copied().filter(|&n| n != usize::MAX)
        };
        let n = sorted.len() as f64;
        let spread = 1.96 * n.sqrt() / 2.0;
        let rank = |r: f64| {
            let r = (r.round().max(1.0) as usize).min(sorted.len().max(1));
            sorted.get(r - 1).copied().filter(|&v| v != usize::MAX)
        };
        let median_interval = [rank(n / 2.0 - spread), rank(n / 2.0 + spread + 1.0)];
        let trials = lengths.iter().map(Vec::len).max().unwrap_or(0);
        let curve = (0..trials)
            .filter_map(|t| {
                Quartiles::of(
                    lengths
                        .iter()
                        .filter_map(|l| Some(*l.get(t)? as f64))
                        .collect(),
                )
            })
            .collect();
        Summary {
            learner,
            runs: lengths.len(),
            balanced: firsts.iter().flatten().count(),
            to_balance: [at(0.25), at(0.5), at(0.75)],
            median_interval,
            curve,
        }
    }
}
