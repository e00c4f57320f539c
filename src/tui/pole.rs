//! `watch cartpole` in a terminal: the cart-pole's screen ([`crate::view::pole`]) drawn 30 times
//! a second, its keys read between frames, its pushes made as the speed owes them (flat out: as
//! many as a frame has time for, so keys are still read at once).

use std::time::{Duration, Instant};

use anyhow::Result;

use super::{FPS, keys_until, suspend, with_terminal};
use crate::view::key::{Front, Mode};
use crate::view::pole::{PoleApp, PoleSpeed};
use crate::view::render;

/// Watches `app` until the person quits; `save` writes the machine when asked and says how it
/// went.
pub fn watch_pole(app: &mut PoleApp, mut save: impl FnMut(&PoleApp) -> String) -> Result<()> {
    with_terminal(|terminal| {
        let frame = Duration::from_secs(1) / FPS;
        let mut last = Instant::now();
        loop {
            let now = Instant::now();
            app.pass((now - last).as_secs_f64());
            last = now;
            if app.speed() == PoleSpeed::FlatOut && !app.paused {
                // Flat out: pushes in batches until most of the frame is spent.
                while now.elapsed() < frame * 3 / 4 {
                    (0..500).for_each(|_| app.push());
                }
            }
            suspend::if_asked(terminal)?;
            terminal.draw(|f| render::pole(f, app, Front::Terminal))?;
            let done = keys_until(now + frame, Mode::Pole, |action| {
                app.update(action);
                if std::mem::take(&mut app.to_save) {
                    app.message = Some(save(app));
                }
                app.quit
            })?;
            if done {
                return Ok(());
            }
        }
    })
}
