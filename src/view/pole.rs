//! The cart-pole's live screen, held and driven without a terminal or a clock: a learner at work
//! ([`Run`]), the speed, the trials so far; keys become actions from the key table
//! ([`super::key::Mode::Pole`]), time passes as a number of seconds given by the front end.

use crate::cartpole::Physics;
use crate::cartpole::learner::{Kind, Learner, Run, Stepped};
use crate::view::key::Action;

/// How fast the pole is shown: pushes a second (the simulation's real time is 50: a push every
/// 0.02 s), or as fast as the computer goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PoleSpeed {
    Times(u32),
    FlatOut,
}

/// The speeds, slowest first: real time, ×4, ×20, ×100, flat out.
pub const SPEEDS: [PoleSpeed; 5] = [
    PoleSpeed::Times(1),
    PoleSpeed::Times(4),
    PoleSpeed::Times(20),
    PoleSpeed::Times(100),
    PoleSpeed::FlatOut,
];

/// The simulation's pushes a second in real time.
pub const REAL_TIME: f64 = 50.0;

impl PoleSpeed {
    pub fn label(self) -> String {
        match self {
            PoleSpeed::Times(1) => "real time".into(),
            PoleSpeed::Times(n) => format!("×{n}"),
            PoleSpeed::FlatOut => "flat out".into(),
        }
    }
}

/// A trial's length kept for the curve: the last this many.
const KEPT: usize = 2_000;

/// The screen's state.
pub struct PoleApp {
    pub kind: Kind,
    pub seed: u64,
    pub run: Run<dyn Learner + Send>,
    /// The BOXES machine loaded, to start again from on `r` (a fresh one where none).
    pub start: Option<crate::cartpole::boxes::Machine>,
    /// Trials start from random states rather than rest (see [`PoleApp::restart`]).
    pub random_start: bool,
    pub speed: usize,
    pub paused: bool,
    /// The lengths of the trials so far (the last [`KEPT`]), and how many there were in all.
    pub lengths: Vec<usize>,
    pub trials: u64,
    pub longest: usize,
    /// The first trial to reach the limit, if any has.
    pub balanced_at: Option<u64>,
    /// Pushes owed by the time passed (a fraction of one carried to the next frame).
    owed: f64,
    pub show_help: bool,
    /// Dark, or light for a projector in a bright room.
    pub theme: crate::view::theme::Theme,
    pub quit: bool,
    /// Asked to save (the front end writes the file and says how it went).
    pub to_save: bool,
    pub message: Option<String>,
}

impl PoleApp {
    /// A screen for a fresh learner of `kind` (or the BOXES machine `start`), from rest.
    pub fn new(kind: Kind, seed: u64, start: Option<crate::cartpole::boxes::Machine>) -> PoleApp {
        PoleApp::with_physics(kind, seed, start, Physics::POLE_C)
    }

    /// As [`PoleApp::new`], on the cart-pole `physics` (the 1983 paper's friction).
    pub fn with_physics(
        kind: Kind,
        seed: u64,
        start: Option<crate::cartpole::boxes::Machine>,
        physics: Physics,
    ) -> PoleApp {
        let run = Self::fresh_run(kind, seed, &start, physics);
        PoleApp {
            kind,
            seed,
            run,
            start,
            random_start: false,
            speed: 0,
            paused: false,
            lengths: Vec::new(),
            trials: 0,
            longest: 0,
            balanced_at: None,
            owed: 0.0,
            show_help: false,
            theme: crate::view::theme::Theme::Dark,
            quit: false,
            to_save: false,
            message: None,
        }
    }

    fn fresh_run(
        kind: Kind,
        seed: u64,
        start: &Option<crate::cartpole::boxes::Machine>,
        physics: Physics,
    ) -> Run<dyn Learner + Send> {
        let learner: Box<dyn Learner + Send> = match start {
            Some(m) => Box::new(m.clone()),
            None => kind.learner(seed),
        };
        Run::new(learner, physics, 10_000)
    }

    /// A fresh run of the learner from its start, its trials from random states where
    /// [`PoleApp::random_start`] says so (drawn from the seed).
    pub fn restart(&mut self) {
        let mut run = Self::fresh_run(self.kind, self.seed, &self.start, self.run.physics);
        if self.random_start {
            run = run.random_starts(self.seed);
        }
        self.run = run;
    }

    pub fn speed(&self) -> PoleSpeed {
        SPEEDS[self.speed]
    }

    /// What a key asks for.
    pub fn update(&mut self, action: Action) {
        // A message stays until the next key.
        self.message = None;
        if self.show_help && !matches!(action, Action::Quit | Action::Interrupt) {
            self.show_help = false;
            return;
        }
        match action {
            Action::Quit | Action::Interrupt | Action::Back => self.quit = true,
            Action::TogglePause => self.paused = !self.paused,
            Action::Step => {
                self.paused = true;
                self.push();
            }
            Action::Faster => self.speed = (self.speed + 1).min(SPEEDS.len() - 1),
            Action::Slower => self.speed = self.speed.saturating_sub(1),
            Action::Reset => {
                let physics = self.run.physics;
                let fresh = PoleApp::with_physics(self.kind, self.seed, self.start.take(), physics);
                *self = PoleApp {
                    speed: self.speed,
                    random_start: self.random_start,
                    theme: self.theme,
                    message: Some("started again: a fresh learner, the same seed".into()),
                    ..fresh
                };
                self.restart();
            }
            Action::Save => self.to_save = true,
            Action::ToggleHelp => self.show_help = true,
            _ => {}
        }
    }

    /// One push, and the trial's end if it was the last.
    pub fn push(&mut self) {
        if let Stepped::Ended { length, .. } = self.run.step() {
            self.trials += 1;
            self.longest = self.longest.max(length);
            if length >= self.run.limit && self.balanced_at.is_none() {
                self.balanced_at = Some(self.trials);
            }
            if self.lengths.len() == KEPT {
                self.lengths.remove(0);
            }
            self.lengths.push(length);
        }
    }

    /// `seconds` have passed: the pushes the speed owes for them (none while paused or flat
    /// out, where the front end pushes as many as its frame has time for).
    pub fn pass(&mut self, seconds: f64) -> u64 {
        let PoleSpeed::Times(n) = self.speed() else {
            return 0;
        };
        if self.paused {
            self.owed = 0.0;
            return 0;
        }
        self.owed += seconds.clamp(0.0, 1.0) * REAL_TIME * n as f64;
        let due = self.owed.floor();
        self.owed -= due;
        (0..due as u64).for_each(|_| self.push());
        due as u64
    }
}
