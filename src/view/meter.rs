//! The screens' meters, one for every front end: games a second (over the last 4 seconds, so a
//! slow speed reads sensibly; afresh when the speed changes), frames a second (over each second)
//! and the clock of the reinforcement's animation. Time comes in from the front end as seconds
//! (the terminal's monotonic clock, the page's `performance.now()`), so this holds no clock.

use std::collections::VecDeque;

use super::app::WatchApp;
use super::board::BoardView;

/// How far back the games-a-second reading looks, in seconds.
pub const WINDOW: f64 = 4.0;
/// How often the reading takes a sample, in seconds.
const SAMPLE: f64 = 0.25;

/// The meters of a watch screen.
#[derive(Clone, Debug, Default)]
pub struct Meter {
    /// (time, games played) every quarter second, over the window.
    samples: VecDeque<(f64, u64)>,
    frames: u32,
    frames_since: f64,
    /// The reinforcement being animated, and when its animation began.
    anim: (u64, f64),
}

impl Meter {
    /// A frame drawn at `t` seconds: the app's readings (`games_per_sec`, `fps`, `anim`) brought
    /// up to date. True when a reading changed (the page writes them out then).
    pub fn frame<G: BoardView>(&mut self, t: f64, app: &mut WatchApp<G>) -> bool {
        let played = app.snapshot.games_played;
        let mut changed = false;
        if std::mem::take(&mut app.speed_changed) || self.samples.is_empty() {
            // A new speed: the reading follows it at once, not a 4-second average.
            self.samples.clear();
            self.samples.push_back((t, played));
        }
        if self.samples.back().is_some_and(|s| t - s.0 >= SAMPLE) {
            self.samples.push_back((t, played));
            while self.samples.len() > 2 && t - self.samples[0].0 > WINDOW {
                self.samples.pop_front();
            }
            let (t0, g0) = self.samples[0];
            if t > t0 {
                app.games_per_sec = played.saturating_sub(g0) as f64 / (t - t0);
                changed = true;
            }
        }
        self.frames += 1;
        if self.frames_since == 0.0 {
            self.frames_since = t;
        } else if t - self.frames_since >= 1.0 {
            app.fps = self.frames as f64 / (t - self.frames_since);
            (self.frames, self.frames_since) = (0, t);
            changed = true;
        }
        // The last reinforcement's animation: 1.5 s at the speeds that animate, a flash at the
        // others.
        if let Some(r) = &app.snapshot.reinforced
            && r.seq != self.anim.0
        {
            self.anim = (r.seq, t);
        }
        let length = if app.speed.animated() { 1.5 } else { 0.25 };
        app.anim = ((t - self.anim.1) / length) as f32;
        changed
    }
}
