//! `film cartpole`: the cart-pole's screen as a film (GIF, animated PNG, or the last frame as
//! text), drawn without a terminal from a seed, so the same seed gives the same file.

use super::film::{MAX_FRAMES, Sink, apng_after_count, screen_size, sink_for};
use super::*;
use crate::cli::FilmArgs;
use crate::view::app::Speed;
use crate::view::pole::PoleApp;

/// What was filmed.
#[derive(serde::Serialize)]
pub(super) struct PoleFilmReport {
    out: String,
    learner: &'static str,
    seed: u64,
    trials: u64,
    frames: usize,
    seconds: f64,
    bytes: usize,
}

impl std::fmt::Display for PoleFilmReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{}: {} trials of {} (seed {}), {} frames ({:.1} s), {}",
            self.out,
            self.trials,
            self.learner,
            self.seed,
            self.frames,
            self.seconds,
            crate::text::bytes(self.bytes as u64)
        )
    }
}

/// The screen's speed for the film's `--speed`: slow is real time, 1 ×4, 10 ×20, 100 ×100,
/// flat-out 2,000 pushes a frame.
fn pole_speed(speed: Speed) -> Result<usize> {
    Ok(match speed {
        Speed::Step => {
            bail!("--speed step: a film plays by itself; give slow, 1, 10, 100 or flat-out")
        }
        Speed::Slow => 0,
        Speed::Games1 => 1,
        Speed::Games10 => 2,
        Speed::Games100 => 3,
        Speed::FlatOut => 4,
    })
}

pub(super) fn film(a: &FilmArgs) -> Result<PoleFilmReport> {
    let (cols, rows) = screen_size(&a.screen)?;
    if !(1..=50).contains(&a.fps) {
        bail!("--fps {}: from 1 to 50 frames a second", a.fps);
    }
    if a.whole || a.lesson.is_some() {
        bail!("--whole and --lesson film a board game's machine, not the cart-pole");
    }
    let trials = a.watch.learn.games.unwrap_or(20) as u64;
    if trials == 0 {
        bail!("--games 0: a film needs at least one trial");
    }
    super::cartpole::refuse_given(
        &super::cartpole::board_options(&a.watch.learn),
        "film cartpole",
        "--learner, --seed, --games (trials), --speed, --friction, --random-start, --boxes, --theme, --screen, --fps, --cell, --out",
    )?;
    let speed = pole_speed(a.watch.speed)?;
    let kind = super::cartpole_train::one_learner(a.watch.learn.set.side.as_deref(), "film")?;
    let start = a
        .watch
        .learn
        .machine
        .boxes
        .as_ref()
        .map(|p| store::load_boxes(p))
        .transpose()?;
    let seed = match &start {
        Some(m) => m.seed,
        None => a.watch.learn.machine.seed.unwrap_or_else(rand::random),
    };
    store::check_writable(&a.out)?;
    store::check_not_a_machine("--out", &a.out)?;
    let fonts = chart::fonts::fonts().context("the film's font is not built in")?;
    let (mut sink, w, h) = sink_for(a, cols, rows, &fonts)?;
    let fresh = || {
        let physics = super::cartpole::physics_of(&a.watch.learn.game).0;
        let mut app = PoleApp::with_physics(kind, seed, start.clone(), physics);
        app.random_start = a.watch.learn.game.random_start;
        app.theme = a.watch.theme.into();
        app.restart();
        app.speed = speed;
        app
    };
    let mut frames = shoot(&mut fresh(), trials, a.fps, (cols, rows), &mut sink)?;
    if let Some(apng) = apng_after_count(&sink, a, &fonts, (w, h))? {
        sink = apng;
        frames = shoot(&mut fresh(), trials, a.fps, (cols, rows), &mut sink)?;
    }
    let frames_made = sink.frames();
    let bytes = sink.finish()?;
    store::save_atomic_bytes(&a.out, &bytes)?;
    Ok(PoleFilmReport {
        out: a.out.display().to_string(),
        learner: kind.name(),
        seed,
        trials: frames.1,
        frames: frames_made,
        seconds: frames.0 as f64 / a.fps as f64,
        bytes: bytes.len(),
    })
}

/// Plays `app` frame by frame until `trials` trials have ended (or the frame cap), each frame
/// drawn into `sink`; then two seconds on the last. The frames shot and the trials ended.
fn shoot(
    app: &mut PoleApp,
    trials: u64,
    fps: u32,
    (cols, rows): (u16, u16),
    sink: &mut Sink,
) -> Result<(u64, u64)> {
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(cols, rows))?;
    let delay = (100 / fps).max(1) as u16;
    let mut frame = 0;
    while app.trials < trials && frame < MAX_FRAMES {
        if app.speed() == crate::view::pole::PoleSpeed::FlatOut {
            for _ in 0..2_000 {
                app.push();
                if app.trials >= trials {
                    break;
                }
            }
        } else {
            app.pass(1.0 / fps as f64);
        }
        terminal.draw(|f| crate::view::render::pole(f, app, crate::view::key::Front::Page))?;
        sink.push(terminal.backend().buffer(), delay)?;
        frame += 1;
    }
    sink.push(terminal.backend().buffer(), 200)?;
    Ok((frame, app.trials.min(trials)))
}
