//! The cart and pole that Michie and Chambers' BOXES (1968) learned to balance, simulated as
//! Barto, Sutton and Anderson (1983) and Sutton's `pole.c` simulate it (Gymnasium's CartPole-v1 is
//! the same physics): a cart of 1.0 kg on a track, a pole of 0.1 kg and half-length 0.5 m hinged
//! on it, a push of ±10 N each step, Euler steps of 0.02 s; the trial fails when the cart leaves
//! ±2.4 m or the pole leans past ±12°. Pure: a step is a function of the state and the push.

pub mod ase;
pub mod boxes;
pub mod learner;

use crate::rng::{Rng, uniform_below};

/// The one machine here that plays no board game: the cart-pole that Michie and Chambers'
/// BOXES balances (this module). It has no `GameKind` and no game `Entry`; its names, its help line and the
/// commands that take it are written here once, and the games' registry (`crate::games`) lists
/// them beside the games' for every name list, parse and message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoBoard {
    /// The name in files and on the command line.
    pub name: &'static str,
    /// Other names accepted for it.
    pub aliases: &'static [&'static str],
    /// What it is, for help texts (the commands that take it are added).
    pub about: &'static str,
    /// Its name in a list for people.
    pub title: &'static str,
    /// The commands that take it; the others are for board games.
    pub commands: &'static [&'static str],
}

/// The cart-pole of BOXES.
pub const CARTPOLE: NoBoard = NoBoard {
    name: "cartpole",
    aliases: &["cart-pole"],
    about: "the pole Michie and Chambers' BOXES (1968) balances, not a board game",
    title: "the cart-pole (BOXES)",
    commands: &[
        "watch",
        "train",
        "experiment",
        "boxes",
        "replay",
        "playout",
        "film",
    ],
};

impl NoBoard {
    /// Whether `typed` (any case, spaces trimmed) is its name or an alias.
    pub fn is_named(&self, typed: &str) -> bool {
        let typed = typed.trim().to_ascii_lowercase();
        typed == self.name || self.aliases.contains(&typed.as_str())
    }
    /// The commands that take it, for people: "watch, train, … and film".
    pub fn command_list(&self) -> String {
        match self.commands {
            [] => String::new(),
            [one] => format!("`{one}`"),
            [rest @ .., last] => {
                let rest: Vec<String> = rest.iter().map(|c| format!("`{c}`")).collect();
                format!("{} and `{last}`", rest.join(", "))
            }
        }
    }
    /// Why a command for board games refuses it.
    pub fn refusal(&self) -> String {
        format!(
            "{} is not a board game, and this command is for board games (it takes {})",
            self.title,
            self.command_list()
        )
    }
}

/// Where the cart and the pole are, and how fast they move: the cart's position (m) and
/// velocity (m/s), the pole's angle from upright (rad, positive leaning right) and its angular
/// velocity (rad/s).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct State {
    pub x: f64,
    pub x_dot: f64,
    pub theta: f64,
    pub theta_dot: f64,
}

/// A push on the cart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Push {
    #[serde(rename = "L")]
    Left,
    #[serde(rename = "R")]
    Right,
}

impl Push {
    /// `L` or `R`, as a record of pushes writes it.
    pub fn parse(text: &str) -> Option<Push> {
        match text.trim() {
            "L" | "l" => Some(Push::Left),
            "R" | "r" => Some(Push::Right),
            _ => None,
        }
    }
}

/// The cart-pole's constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Physics {
    pub gravity: f64,
    pub mass_cart: f64,
    pub mass_pole: f64,
    /// Half the pole's length (m).
    pub half_length: f64,
    /// The push's force (N).
    pub force: f64,
    /// The time of a step (s).
    pub tau: f64,
    /// Friction of the cart on the track and of the pole at its hinge (1983: 0.0005 and
    /// 0.000002; none in `pole.c` and CartPole-v1).
    pub cart_friction: f64,
    pub pole_friction: f64,
    /// Where the trial fails: the track's half-length (m) and the pole's angle (rad).
    pub x_limit: f64,
    pub theta_limit: f64,
}

/// Twelve degrees in radians, as `pole.c` writes it.
pub const TWELVE_DEGREES: f64 = 0.2094384;

impl Physics {
    /// `pole.c`'s and CartPole-v1's constants: no friction.
    pub const POLE_C: Physics = Physics {
        gravity: 9.8,
        mass_cart: 1.0,
        mass_pole: 0.1,
        half_length: 0.5,
        force: 10.0,
        tau: 0.02,
        cart_friction: 0.0,
        pole_friction: 0.0,
        x_limit: 2.4,
        theta_limit: 12.0 * 2.0 * std::f64::consts::PI / 360.0,
    };

    /// Barto, Sutton and Anderson's (1983) constants, with their friction.
    pub const BARTO_1983: Physics = Physics {
        cart_friction: 0.0005,
        pole_friction: 0.000002,
        ..Physics::POLE_C
    };

    /// The state a step after `s` with the push `push` (Euler's method, as the references).
    pub fn step(&self, s: State, push: Push) -> State {
        let force = match push {
            Push::Right => self.force,
            Push::Left => -self.force,
        };
        let total = self.mass_cart + self.mass_pole;
        let pole_moment = self.mass_pole * self.half_length;
        let (sin, cos) = s.theta.sin_cos();
        let slide = self.cart_friction * s.x_dot.signum() * f64::from(s.x_dot != 0.0);
        let temp = (force + pole_moment * s.theta_dot * s.theta_dot * sin - slide) / total;
        let hinge = self.pole_friction * s.theta_dot / pole_moment;
        let theta_acc = (self.gravity * sin - cos * temp - hinge)
            / (self.half_length * (4.0 / 3.0 - self.mass_pole * cos * cos / total));
        let x_acc = temp - pole_moment * theta_acc * cos / total;
        State {
            x: s.x + self.tau * s.x_dot,
            x_dot: s.x_dot + self.tau * x_acc,
            theta: s.theta + self.tau * s.theta_dot,
            theta_dot: s.theta_dot + self.tau * theta_acc,
        }
    }

    /// Whether the trial has failed at `s`: the cart off the track or the pole past its limit.
    pub fn failed(&self, s: &State) -> bool {
        s.x < -self.x_limit
            || s.x > self.x_limit
            || s.theta < -self.theta_limit
            || s.theta > self.theta_limit
    }

    /// Plays `pushes` from rest: every state after each push, and the step (from 1) at which the
    /// trial failed, if it did (the pushes after it are not played).
    pub fn run(&self, pushes: &[Push]) -> (Vec<State>, Option<usize>) {
        let mut s = State::default();
        let mut states = Vec::with_capacity(pushes.len());
        for (i, &p) in pushes.iter().enumerate() {
            s = self.step(s, p);
            states.push(s);
            if self.failed(&s) {
                return (states, Some(i + 1));
            }
        }
        (states, None)
    }
}

/// `pole.c`'s angles, as it writes them.
const ONE_DEGREE: f64 = 0.0174532;
const SIX_DEGREES: f64 = 0.1047192;
const FIFTY_DEGREES: f64 = 0.87266;

/// The box of `s` among `pole.c`'s 162 (3 positions × 3 velocities × 6 angles × 3 angular
/// velocities, counted from 0 as `get_box` counts them), or `None` where the trial has failed.
/// Position ±0.8 m, velocity ±0.5 m/s, angle 0, ±1°, ±6°, angular velocity ±50°/s.
pub fn box_of(s: &State) -> Option<usize> {
    if s.x < -2.4 || s.x > 2.4 || s.theta < -TWELVE_DEGREES || s.theta > TWELVE_DEGREES {
        return None;
    }
    let band = |v: f64, cuts: &[f64]| cuts.iter().take_while(|&&c| v >= c).count();
    let x = band(s.x, &[-0.8, 0.8]);
    let x_dot = band(s.x_dot, &[-0.5, 0.5]);
    let theta = band(
        s.theta,
        &[-SIX_DEGREES, -ONE_DEGREE, 0.0, ONE_DEGREE, SIX_DEGREES],
    );
    let theta_dot = band(s.theta_dot, &[-FIFTY_DEGREES, FIFTY_DEGREES]);
    Some(x + 3 * x_dot + 9 * theta + 54 * theta_dot)
}

/// A learner of the cart-pole: it chooses a push in a box and learns from what followed.
pub trait Learner {
    /// The push in box `b` at step `step` of the trial (from 0).
    fn push(&mut self, b: usize, step: usize) -> Push;
    /// What followed the push chosen in box `b`: the box of the state it led to, or `None`
    /// where the trial failed there.
    fn after(&mut self, b: usize, next: Option<usize>);
    /// The trial is over after `length` steps (failed, or stopped at the limit).
    fn end_trial(&mut self, length: usize);
    /// Each box's leaning: how much more it favours pushing right than left, from −1 (always
    /// left) to 1 (always right); 0 where it has no preference yet.
    fn leaning(&self, b: usize) -> f64;
    /// The BOXES machine it is, if it is one (the only learner saved to a file).
    fn as_boxes(&self) -> Option<&boxes::Machine> {
        None
    }
}

/// Left or right, evenly.
pub(crate) fn random_push(rng: &mut Rng) -> Push {
    match uniform_below(rng, 2) {
        0 => Push::Left,
        _ => Push::Right,
    }
}
