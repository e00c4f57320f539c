//! BOXES (Michie and Chambers 1968): each of the cart-pole's boxes learns, from how long the pole
//! stayed up after it was used, whether to push left or right. A box keeps, for each push, its
//! life (the steps the trial lasted after each time the box chose that push, summed) and its
//! usage (how many times it chose it), both aged by `dk` after every trial; the whole machine
//! keeps its merit (the trials' lengths, aged the same way, over their count). A box's value of a
//! push is `(life + k · target) / (usage + k)`, where `target = c0 + c1 · merit`: a push little
//! tried is judged near the target, one tried often by its own record. Each box pushes the way
//! of the higher value (a tie, and a box never used, at random).
//!
//! The constants: `dk` 0.99, `k` 20, `c0` 0, `c1` 1, as the public implementations of BOXES
//! (Sammut's account of Michie and Chambers' algorithm) use them; the 1968 paper's own values are
//! yet to be checked against it.

use super::{Learner, Push, random_push};
use crate::rng::{Rng, rng_from_seed};

/// BOXES' constants.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The ageing of every record after a trial.
    pub dk: f64,
    /// The weight of the target in a box's value.
    pub k: f64,
    pub c0: f64,
    pub c1: f64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            dk: 0.99,
            k: 20.0,
            c0: 0.0,
            c1: 1.0,
        }
    }
}

/// One box's record of each push: life and usage.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    pub left_life: f64,
    pub left_usage: f64,
    pub right_life: f64,
    pub right_usage: f64,
}

/// The BOXES machine: a record and a push for each of `pole.c`'s 162 boxes.
#[derive(Clone, Debug)]
pub struct Machine {
    pub settings: Settings,
    /// The seed it was made with.
    pub seed: u64,
    pub records: Vec<Record>,
    pub pushes: Vec<Push>,
    pub global_life: f64,
    pub global_usage: f64,
    pub trials: u64,
    /// This trial's entries into boxes: (the box, the step it was entered at, its push).
    entries: Vec<(usize, usize, Push)>,
    rng: Rng,
}

/// The boxes of `pole.c`'s partition.
pub const BOXES: usize = 162;

impl Machine {
    /// A fresh machine: every box's push drawn at random from `seed`.
    pub fn new(settings: Settings, seed: u64) -> Machine {
        let mut rng = rng_from_seed(seed);
        let pushes = (0..BOXES).map(|_| random_push(&mut rng)).collect();
        Machine {
            settings,
            seed,
            records: vec![Record::default(); BOXES],
            pushes,
            global_life: 0.0,
            global_usage: 0.0,
            trials: 0,
            entries: Vec::new(),
            rng,
        }
    }

    /// A machine as saved: its boxes' records and pushes, its merit's life and usage, its
    /// trials, and its generator where it was left.
    pub fn from_parts(
        settings: Settings,
        seed: u64,
        boxes: Vec<(Push, Record)>,
        merit: (f64, f64),
        trials: u64,
        rng: Rng,
    ) -> Machine {
        let (pushes, records) = boxes.into_iter().unzip();
        Machine {
            settings,
            seed,
            records,
            pushes,
            global_life: merit.0,
            global_usage: merit.1,
            trials,
            entries: Vec::new(),
            rng,
        }
    }

    /// Its generator, where it is now (saved, so a machine loaded goes on as it would have).
    pub fn rng(&self) -> &Rng {
        &self.rng
    }

    /// The machine's merit: its trials' lengths, aged, over their count (0 before any).
    pub fn merit(&self) -> f64 {
        match self.global_usage > 0.0 {
            true => self.global_life / self.global_usage,
            false => 0.0,
        }
    }

    /// Ages every record and adds the trial's, then sets each box's push by its values.
    fn learn(&mut self, entries: &[(usize, usize, Push)], length: usize) {
        let Settings { dk, k, c0, c1 } = self.settings;
        for r in &mut self.records {
            *r = Record {
                left_life: r.left_life * dk,
                left_usage: r.left_usage * dk,
                right_life: r.right_life * dk,
                right_usage: r.right_usage * dk,
            };
        }
        for &(b, at, push) in entries {
            let r = &mut self.records[b];
            let life = (length - at) as f64;
            match push {
                Push::Left => {
                    (r.left_life, r.left_usage) = (r.left_life + life, r.left_usage + 1.0)
                }
                Push::Right => {
                    (r.right_life, r.right_usage) = (r.right_life + life, r.right_usage + 1.0)
                }
            }
        }
        self.global_life = self.global_life * dk + length as f64;
        self.global_usage = self.global_usage * dk + 1.0;
        self.trials += 1;
        let target = c0 + c1 * self.merit();
        for b in 0..BOXES {
            let r = self.records[b];
            let left = (r.left_life + k * target) / (r.left_usage + k);
            let right = (r.right_life + k * target) / (r.right_usage + k);
            self.pushes[b] = match left.partial_cmp(&right) {
                Some(std::cmp::Ordering::Greater) => Push::Left,
                Some(std::cmp::Ordering::Less) => Push::Right,
                _ => random_push(&mut self.rng),
            };
        }
    }
}

impl Learner for Machine {
    fn push(&mut self, b: usize, step: usize) -> Push {
        let push = self.pushes[b];
        if self.entries.last().is_none_or(|e| e.0 != b) {
            self.entries.push((b, step, push));
        }
        push
    }

    fn after(&mut self, _: usize, _: Option<usize>) {}

    fn end_trial(&mut self, length: usize) {
        let entries = std::mem::take(&mut self.entries);
        self.learn(&entries, length);
        self.entries = entries;
        self.entries.clear();
    }

    fn as_boxes(&self) -> Option<&Machine> {
        Some(self)
    }

    fn leaning(&self, b: usize) -> f64 {
        let r = self.records[b];
        let (Settings { k, c0, c1, .. }, merit) = (self.settings, self.merit());
        let target = c0 + c1 * merit;
        let left = (r.left_life + k * target) / (r.left_usage + k);
        let right = (r.right_life + k * target) / (r.right_usage + k);
        let sure = match left + right > 0.0 {
            true => (right - left) / (right + left),
            false => 0.0,
        };
        // No preference yet: the box still pushes its way (drawn at random), barely.
        match (sure, self.pushes[b]) {
            (0.0, Push::Left) => -1e-9,
            (0.0, Push::Right) => 1e-9,
            _ => sure,
        }
    }
}
