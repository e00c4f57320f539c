//! Barto, Sutton and Anderson's adaptive search element and adaptive critic element (ASE/ACE,
//! "Neuronlike adaptive elements that can solve difficult learning control problems", 1983),
//! over the same 162 boxes as BOXES: one input a box, 1 in the box the cart-pole is in.
//!
//! The search element pushes right where `w[b] + noise ≥ 0` (noise Gaussian, σ 0.01), else
//! left; its eligibility `e` keeps a fading trace of the pushes each box chose. The critic
//! predicts failure by `v[b]` and turns the bare failure signal (−1 at failure, 0 otherwise)
//! into a step-by-step reinforcement `r̂ = r + γ·p(t) − p(t−1)` (the prediction after a failure
//! being 0); its trace `x̄` fades the boxes recently visited. Every step, `w += α·r̂·e` and
//! `v += β·r̂·x̄`. The constants are the paper's: α 1000, β 0.5, δ 0.9 (the search trace's
//! decay), γ 0.95, λ 0.8 (the critic trace's decay), σ 0.01. The order of the updates within a
//! step (traces, then weights, then decay; the traces cleared when a trial ends) is that of
//! Sutton's `pole.c`, which simulates this learner with a logistic choice in place of the noise.

use super::{Learner, Push};
use crate::rng::{Rng, rng_from_seed};

/// ASE/ACE's constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub alpha: f64,
    pub beta: f64,
    pub delta: f64,
    pub gamma: f64,
    pub lambda: f64,
    pub sigma: f64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            alpha: 1000.0,
            beta: 0.5,
            delta: 0.9,
            gamma: 0.95,
            lambda: 0.8,
            sigma: 0.01,
        }
    }
}

/// The two elements' weights and traces, a box each.
#[derive(Clone, Debug)]
pub struct Ase {
    pub settings: Settings,
    /// The search element's weights: a box's leaning to the right.
    pub w: Vec<f64>,
    /// The critic's weights: a box's prediction of failure (≤ 0).
    pub v: Vec<f64>,
    e: Vec<f64>,
    xbar: Vec<f64>,
    /// The boxes whose traces are not zero this trial (the only ones a step can change).
    touched: Vec<usize>,
    is_touched: Vec<bool>,
    rng: Rng,
}

impl Ase {
    pub fn new(settings: Settings, seed: u64) -> Ase {
        let zeros = vec![0.0; super::boxes::BOXES];
        Ase {
            settings,
            w: zeros.clone(),
            v: zeros.clone(),
            e: zeros.clone(),
            xbar: zeros,
            touched: Vec::new(),
            is_touched: vec![false; super::boxes::BOXES],
            rng: rng_from_seed(seed),
        }
    }

    /// A draw of the Gaussian noise (Box and Muller's method, from two uniform draws).
    fn noise(&mut self) -> f64 {
        use rand::Rng as _;
        let unit = |u: u64| ((u >> 11) as f64 + 0.5) * (1.0 / (1u64 << 53) as f64);
        let (u1, u2) = (unit(self.rng.next_u64()), unit(self.rng.next_u64()));
        self.settings.sigma * (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
    }
}

impl Learner for Ase {
    fn push(&mut self, b: usize, _: usize) -> Push {
        let push = match self.w[b] + self.noise() >= 0.0 {
            true => Push::Right,
            false => Push::Left,
        };
        let y = if push == Push::Right { 1.0 } else { -1.0 };
        if !self.is_touched[b] {
            self.is_touched[b] = true;
            self.touched.push(b);
        }
        self.e[b] += (1.0 - self.settings.delta) * y;
        self.xbar[b] += 1.0 - self.settings.lambda;
        push
    }

    fn after(&mut self, b: usize, next: Option<usize>) {
        let Settings {
            alpha,
            beta,
            delta,
            gamma,
            lambda,
            ..
        } = self.settings;
        let (r, p) = match next {
            Some(n) => (0.0, self.v[n]),
            None => (-1.0, 0.0),
        };
        let rhat = r + gamma * p - self.v[b];
        for &i in &self.touched {
            self.w[i] += alpha * rhat * self.e[i];
            self.v[i] += beta * rhat * self.xbar[i];
            self.e[i] *= delta;
            self.xbar[i] *= lambda;
        }
    }

    fn end_trial(&mut self, _: usize) {
        for &i in &self.touched {
            (self.e[i], self.xbar[i], self.is_touched[i]) = (0.0, 0.0, false);
        }
        self.touched.clear();
    }

    fn leaning(&self, b: usize) -> f64 {
        // The chance of a push right, 2·P − 1: w against the noise's spread.
        if self.w[b] == 0.0 {
            return 0.0;
        }
        let z = self.w[b] / (self.settings.sigma * std::f64::consts::SQRT_2);
        erf_approx(z)
    }
}

/// The error function, to within 1.5e-7 (Abramowitz and Stegun 7.1.26): enough to colour a box.
fn erf_approx(z: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * z.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let e = 1.0 - poly * (-z * z).exp();
    if z < 0.0 { -e } else { e }
}
