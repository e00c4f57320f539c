//! `film`: the watch screen without a terminal, as an animated GIF for slides. The machine
//! learns as on `watch` (the same speeds, on a clock of the film's own), the same widgets draw
//! each frame into ratatui's buffer, and the embedded font draws the buffer as pixels. The same
//! seed gives the same file.

use std::fmt;

use serde::Serialize;

use super::screens::{speed_of, watch_session};
use super::*;
use crate::cli::FilmArgs;
use crate::film::{GifFilm, Raster};
use crate::view::app::Snapshot;
use crate::view::app::WatchApp;
use crate::view::drive::{self, Control};

/// The most frames a film holds (ten minutes at 25 frames a second).
const MAX_FRAMES: u64 = 15_000;

/// What `film` made.
#[derive(Serialize)]
pub(super) struct FilmReport {
    out: String,
    games: u64,
    frames: usize,
    seconds: f64,
    bytes: usize,
    width: usize,
    height: usize,
    seed: u64,
}

impl fmt::Display for FilmReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "film written to {}: {} games in {:.1} s, {} frames of {}×{} pixels, {} (seed {})",
            self.out,
            self.games,
            self.seconds,
            self.frames,
            self.width,
            self.height,
            crate::text::bytes(self.bytes as u64),
            self.seed
        )
    }
}

/// The screen's size, `COLSxROWS`.
fn screen_size(text: &str) -> Result<(u16, u16)> {
    let bad = || {
        anyhow::anyhow!(
            "--screen `{}`: give COLSxROWS, e.g. 100x30 (40x20 to 300x100)",
            crate::text::quote(text)
        )
    };
    let (c, r) = text.split_once(['x', '×']).ok_or_else(bad)?;
    let (c, r): (u16, u16) = (
        c.trim().parse().map_err(|_| bad())?,
        r.trim().parse().map_err(|_| bad())?,
    );
    if !(40..=300).contains(&c) || !(20..=100).contains(&r) {
        return Err(bad());
    }
    Ok((c, r))
}

pub(super) fn film<G: FullGame>(game: G, a: &FilmArgs) -> Result<FilmReport> {
    let out = &a.out;
    if !out.to_string_lossy().to_ascii_lowercase().ends_with(".gif") {
        bail!(
            "--out {}: a film is written as GIF (a name ending in .gif)",
            out.display()
        );
    }
    store::check_writable(out)?;
    let (cols, rows) = screen_size(&a.screen)?;
    if !(1..=50).contains(&a.fps) {
        bail!("--fps {}: from 1 to 50 frames a second", a.fps);
    }
    let fonts = chart::fonts::fonts().context("the film's font is not built in")?;
    let theme = a.watch.theme.into();
    let raster = Raster::new(fonts.regular, fonts.bold, a.cell as usize, theme)
        .context("the embedded font could not be read")?;
    let stage = std::sync::Mutex::new(String::new());
    let (titles, _, mut session) = watch_session(&game, &a.watch.learn, &stage)?;
    let games = a.watch.learn.games.unwrap_or(40) as u64;
    session.limit = Some(games);
    session.colours = a.watch.bead_colours.into();
    let speed = speed_of(a.watch.speed);
    let seed = session.machine().seed;
    let mut app = WatchApp::new(
        game,
        titles,
        Snapshot::of(&session),
        speed,
        "film".into(),
        session.opponent(),
    );
    app.theme = theme;
    let control = Control {
        speed,
        paused: false,
        browse: None,
        may_replace: false,
    };
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(cols, rows))?;
    let (w, h) = (cols as usize * raster.cell_w, rows as usize * raster.cell_h);
    let mut gif = GifFilm::new(w, h)?;
    let frame_ms = 1000.0 / a.fps as f64;
    let delay = (100 / a.fps) as u16;
    let (mut due, mut anim, mut hold) = (0.0, (0u64, 0.0), 0u64);
    let mut rate = (0.0, 0u64);
    let mut frame = 0u64;
    while frame < MAX_FRAMES {
        let t = frame as f64 * frame_ms;
        let mut batches = 0;
        drive::work(&mut session, &control, t, &mut due, || {
            batches += 1;
            batches < 4
        });
        app.snapshot = Snapshot::browsing(&session, None);
        app.fps = a.fps as f64;
        if t - rate.0 >= 1000.0 {
            let played = app.snapshot.games_played;
            app.games_per_sec = played.saturating_sub(rate.1) as f64 * 1000.0 / (t - rate.0);
            rate = (t, played);
        }
        if let Some(r) = &app.snapshot.reinforced
            && r.seq != anim.0
        {
            anim = (r.seq, t);
        }
        let length = if speed.animated() { 1500.0 } else { 250.0 };
        app.anim = ((t - anim.1) / length) as f32;
        terminal.draw(|f| crate::view::render::watch(f, &app))?;
        gif.push(&raster.draw(terminal.backend().buffer()), delay)?;
        frame += 1;
        // Two seconds on the last game's end, then the film stops.
        if session.limit_reached() && !session.in_game() {
            hold += 1;
            if hold > 2 * a.fps as u64 {
                break;
            }
        }
    }
    let frames = gif.frames();
    let bytes = gif.finish()?;
    store::save_atomic_bytes(out, &bytes)?;
    Ok(FilmReport {
        out: out.display().to_string(),
        games: session.machine().games_played,
        frames: frames + 1,
        seconds: frame as f64 * frame_ms / 1000.0,
        bytes: bytes.len(),
        width: w,
        height: h,
        seed,
    })
}
