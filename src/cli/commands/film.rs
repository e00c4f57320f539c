//! `film`: the watch screen without a terminal, as an animated GIF for slides. The machine
//! learns as on `watch` (the same speeds, on a clock of the film's own), the same widgets draw
//! each frame into ratatui's buffer, and the embedded font draws the buffer as pixels. The same
//! seed gives the same file.

use std::fmt;

use serde::Serialize;

use super::screens::watch_session;
use super::*;
use crate::cli::FilmArgs;
use crate::film::{GifFilm, Raster};
use crate::view::app::Snapshot;
use crate::view::app::WatchApp;
use crate::view::drive::{self, Control};

/// The most frames a film holds (ten minutes at 25 frames a second).
pub(super) const MAX_FRAMES: u64 = 15_000;

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
    /// `gif`, `apng`, or `text` (the last frame; its size in cells).
    format: &'static str,
    seed: u64,
    /// The games asked for, and whether the film stopped at its frame cap before they were all
    /// played.
    games_asked: u64,
    cut_at_frame_cap: bool,
}

impl fmt::Display for FilmReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "film written to {}: {} games in {:.1} s, {} frames of {}×{} {}, {} (seed {})",
            crate::text::quote_long(&self.out),
            self.games,
            self.seconds,
            self.frames,
            self.width,
            self.height,
            match self.format {
                "text" => "cells (the last frame as text)",
                _ => "pixels",
            },
            crate::text::bytes(self.bytes as u64),
            self.seed
        )?;
        if self.cut_at_frame_cap {
            writeln!(
                f,
                "the film stopped at its cap of {} frames after {} of the {} games asked: a faster --speed, fewer --games or a lower --fps films them all",
                crate::text::group(MAX_FRAMES),
                crate::text::group(self.games),
                crate::text::group(self.games_asked)
            )?;
        }
        Ok(())
    }
}

/// The screen's size, `COLSxROWS`.
pub(super) fn screen_size(text: &str) -> Result<(u16, u16)> {
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

/// Where the frames go: a GIF, an APNG (written as the frames come; its frames counted by a
/// first pass, as an APNG says its count before its first frame), the count of that pass, or
/// the last frame as text.
pub(super) enum Sink<'f> {
    Gif(Box<(Raster<'f>, GifFilm)>),
    Apng(Box<ApngSink<'f>>),
    Count(Same),
    Text { last: String, frames: usize },
}

/// Consecutive equal screens, merged into one frame while its delay fits an APNG's 16 bits.
#[derive(Default)]
pub(super) struct Same {
    screen: Option<ratatui::buffer::Buffer>,
    delay: u32,
    frames: usize,
}

impl Same {
    /// Takes a screen: `Some` (the screen and delay of the frame it ends) when it starts a new
    /// frame.
    fn take(
        &mut self,
        buf: &ratatui::buffer::Buffer,
        delay: u16,
    ) -> Option<(ratatui::buffer::Buffer, u16)> {
        if self.screen.as_ref() == Some(buf) && self.delay + delay as u32 <= u16::MAX as u32 {
            self.delay += delay as u32;
            return None;
        }
        self.frames += 1;
        let done = self.screen.replace(buf.clone());
        let d = std::mem::replace(&mut self.delay, delay as u32);
        done.map(|b| (b, d as u16))
    }
}

/// An APNG being written: its raster, the film, and the frame being lengthened.
pub(super) struct ApngSink<'f> {
    raster: Raster<'f>,
    film: crate::film::ApngFilm,
    same: Same,
}

impl Sink<'_> {
    pub(super) fn push(&mut self, buf: &ratatui::buffer::Buffer, delay: u16) -> Result<()> {
        match self {
            Sink::Gif(film) => {
                let image = film.0.draw(buf);
                film.1.push(&image, delay)?
            }
            Sink::Apng(s) => {
                if let Some((done, d)) = s.same.take(buf, delay) {
                    s.film.push(&s.raster.draw(&done), d)?;
                }
            }
            Sink::Count(same) => {
                same.take(buf, delay);
            }
            Sink::Text { last, frames } => {
                *last = crate::view::render::buffer_text(buf);
                *frames += 1;
            }
        }
        Ok(())
    }
    pub(super) fn frames(&self) -> usize {
        match self {
            Sink::Gif(film) => film.1.frames() + 1,
            Sink::Apng(s) => s.same.frames,
            Sink::Count(same) => same.frames,
            Sink::Text { frames, .. } => *frames,
        }
    }
    /// The film's bytes.
    pub(super) fn finish(self) -> Result<Vec<u8>> {
        Ok(match self {
            Sink::Gif(film) => film.1.finish()?,
            Sink::Apng(mut s) => {
                if let (Some(last), d) = (s.same.screen.take(), s.same.delay) {
                    s.film.push(&s.raster.draw(&last), d as u16)?;
                }
                s.film.finish()?
            }
            Sink::Count(_) => Vec::new(),
            Sink::Text { last, .. } => last.into_bytes(),
        })
    }
}

/// An APNG says its number of frames first: where `sink` only counted a first take's frames,
/// the sink to write the second (the same frames, from the same seed) as they come.
pub(super) fn apng_after_count<'f>(
    sink: &Sink<'f>,
    a: &FilmArgs,
    fonts: &'f chart::fonts::Fonts,
    (w, h): (usize, usize),
) -> Result<Option<Sink<'f>>> {
    let Sink::Count(same) = sink else {
        return Ok(None);
    };
    let film = crate::film::ApngFilm::new(w, h, same.frames as u32)?;
    Ok(Some(Sink::Apng(Box::new(ApngSink {
        raster: raster_for(a, fonts)?,
        film,
        same: Same::default(),
    }))))
}

/// The film's sink for `out` (.gif, or .txt for the last frame as text), and its size in pixels
/// (in cells for text).
pub(super) fn sink_for<'f>(
    a: &FilmArgs,
    cols: u16,
    rows: u16,
    fonts: &'f chart::fonts::Fonts,
) -> Result<(Sink<'f>, usize, usize)> {
    let name = a.out.to_string_lossy().to_ascii_lowercase();
    if name.ends_with(".txt") {
        let text = Sink::Text {
            last: String::new(),
            frames: 0,
        };
        return Ok((text, cols as usize, rows as usize));
    }
    let gif = name.ends_with(".gif");
    if !gif && !name.ends_with(".png") {
        bail!(
            "--out {}: a film is written as GIF (a name ending in .gif) or animated PNG (.png), or its last frame as text (.txt)",
            a.out.display()
        );
    }
    let raster = raster_for(a, fonts)?;
    let (w, h) = (cols as usize * raster.cell_w, rows as usize * raster.cell_h);
    if !gif {
        return Ok((Sink::Count(Same::default()), w, h));
    }
    Ok((Sink::Gif(Box::new((raster, GifFilm::new(w, h)?))), w, h))
}

fn raster_for<'f>(a: &FilmArgs, fonts: &'f chart::fonts::Fonts) -> Result<Raster<'f>> {
    Raster::new(
        fonts.regular,
        fonts.bold,
        a.cell as usize,
        a.watch.theme.into(),
    )
    .context("the embedded font could not be read")
}

/// One take of the film: the session from its seed (or the lesson's record), the watch screen,
/// and the screen it is drawn on. The same arguments make the same take, frame for frame.
struct Take<G: FullGame> {
    session: crate::view::session::Session<G>,
    app: WatchApp<G>,
    control: Control,
    terminal: ratatui::Terminal<ratatui::backend::TestBackend>,
    /// The games the take plays, and where a lesson's record stops early, why.
    asked: u64,
    stops: Option<String>,
}

fn take<G: FullGame>(
    game: G,
    a: &FilmArgs,
    (cols, rows): (u16, u16),
    stage: &std::sync::Mutex<String>,
) -> Result<Take<G>> {
    let (titles, mut session, asked, stops) = match &a.lesson {
        Some(log) => lesson_session(&game, log, a.watch.learn.games)?,
        None => {
            let (titles, _, mut session) = watch_session(&game, &a.watch.learn, stage)?;
            let asked = a.watch.learn.games.unwrap_or(40) as u64;
            session.limit = Some(asked);
            (titles, session, asked, None)
        }
    };
    session.colours = a.watch.bead_colours.into();
    let speed = a.watch.speed;
    let mut app = WatchApp::new(
        game,
        titles,
        Snapshot::of(&session),
        speed,
        "film".into(),
        session.opponent(),
    );
    app.theme = a.watch.theme.into();
    let control = Control {
        speed,
        paused: false,
        browse: None,
        whole: a.whole.then_some(0),
        may_replace: false,
    };
    app.browser.screen = (cols, rows);
    app.browser.whole = a.whole.then(Default::default);
    let terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(cols, rows))?;
    Ok(Take {
        session,
        app,
        control,
        terminal,
        asked,
        stops,
    })
}

/// A class lesson to film again: the machine its log began with (the log replayed and checked
/// first), following each game the lesson finished, in order (the first `games` of them).
/// Returns the titles ("against the class"), the session, its games, and where the record
/// stops early, why.
#[allow(clippy::type_complexity)]
fn lesson_session<G: FullGame>(
    game: &G,
    log: &std::path::Path,
    games: Option<usize>,
) -> Result<(
    crate::view::app::Titles,
    crate::view::session::Session<G>,
    u64,
    Option<String>,
)> {
    use crate::learn::lesson::Recorded;
    let (began, _, events) = super::lesson_log::read(game, log)?;
    let (mut steps, stops) = crate::learn::lesson::recorded(&events);
    if let Some(n) = games {
        let mut seen = 0;
        steps.retain(|s| match s {
            Recorded::Game { .. } => {
                seen += 1;
                seen <= n
            }
            Recorded::Reset => seen < n,
        });
    }
    let count = (steps.iter())
        .filter(|s| matches!(s, Recorded::Game { .. }))
        .count() as u64;
    if count == 0 {
        bail!(
            "{}: the lesson finished no game: there is nothing to film",
            crate::text::quote_long(&log.display().to_string())
        );
    }
    let mut spec =
        crate::learn::MatchSpec::fresh(Default::default(), crate::players::Opponent::Human);
    spec.learner = crate::learn::Source::Loaded(began);
    let mut session = crate::view::session::Session::of(spec.build(game.clone(), &mut |_| {})?);
    session.follow(steps);
    let mut titles = crate::view::app::Titles::of_session(&session);
    titles.against = Some("the class".into());
    Ok((titles, session, count, stops))
}

impl<G: FullGame> Take<G> {
    /// Shoots the take into `sink`; returns the frames drawn. Work seen to take more than two
    /// minutes shows its bar and time left (or says them once where no bar can be drawn), as
    /// `train` does; work of more than a year is refused.
    fn shoot(&mut self, fps: u32, sink: &mut Sink) -> Result<u64> {
        let first = self.session.machine().games_played;
        let mut work = crate::cli::progress::Work::new(self.asked, "games");
        let frames = shoot(
            &mut self.session,
            &mut self.app,
            &self.control,
            fps,
            |buf, delay, played| {
                work.at(played.saturating_sub(first))?;
                sink.push(buf, delay)
            },
            &mut self.terminal,
        );
        work.finish();
        frames
    }
}

pub(super) fn film<G: FullGame>(game: G, a: &FilmArgs) -> Result<FilmReport> {
    let out = &a.out;
    let (cols, rows) = screen_size(&a.screen)?;
    if !(1..=50).contains(&a.fps) {
        bail!("--fps {}: from 1 to 50 frames a second", a.fps);
    }
    if a.watch.learn.games == Some(0) {
        bail!("--games 0: a film needs at least one game");
    }
    if a.watch.speed == crate::view::app::Speed::Step {
        bail!("--speed step: a film plays by itself; give slow, 1, 10, 100 or flat-out");
    }
    // The output checked before the sink opens it: never the machine it films, never a machine.
    store::check_writable(out)?;
    store::check_not_a_machine("--out", out)?;
    if let Some(input) = &a.watch.learn.machine.boxes {
        store::check_not_read(&[("--out", out.as_path())], &[("--boxes", input.as_path())])?;
    }
    if let Some(log) = &a.lesson {
        store::check_not_read(&[("--out", out.as_path())], &[("--lesson", log.as_path())])?;
    }
    let fonts = chart::fonts::fonts().context("the film's font is not built in")?;
    let (mut sink, w, h) = sink_for(a, cols, rows, &fonts)?;
    let stage = std::sync::Mutex::new(String::new());
    let mut shot = take(game.clone(), a, (cols, rows), &stage)?;
    say_cap(a, shot.asked);
    // A strong searcher's games are forecast before any is played, as `train` forecasts them.
    if let Some(crate::players::Opponent::Mcts(n)) = a.watch.learn.opponent.as_ref().map(|o| o.kind)
    {
        crate::cli::progress::search_forecast(&game, n, shot.asked)?;
    }
    if let Some(why) = &shot.stops {
        eprintln!("note: {why}");
    }
    let mut frame = shot.shoot(a.fps, &mut sink)?;
    if let Some(apng) = apng_after_count(&sink, a, &fonts, (w, h))? {
        sink = apng;
        shot = take(game, a, (cols, rows), &stage)?;
        frame = shot.shoot(a.fps, &mut sink)?;
    }
    let session = &shot.session;
    if let (Some(log), Some(e)) = (&a.lesson, session.record_error()) {
        bail!(
            "{}: the lesson's games could not be filmed: {e}",
            crate::text::quote_long(&log.display().to_string())
        );
    }
    let seed = session.machine().seed;
    let frames = sink.frames();
    let format = match &sink {
        Sink::Text { .. } => "text",
        Sink::Apng(..) | Sink::Count(_) => "apng",
        Sink::Gif(_) => "gif",
    };
    let bytes = sink.finish()?;
    store::save_atomic_bytes(out, &bytes)?;
    let games = match a.lesson {
        // The lesson's games filmed (the machine may have played others before the lesson).
        Some(_) => shot.asked - session.record_left(),
        None => session.machine().games_played,
    };
    Ok(FilmReport {
        out: out.display().to_string(),
        games,
        frames,
        seconds: frame as f64 / a.fps as f64,
        bytes: bytes.len(),
        width: w,
        height: h,
        format,
        seed,
        games_asked: shot.asked,
        cut_at_frame_cap: frame >= MAX_FRAMES && games < shot.asked,
    })
}

/// Says, before the film is shot, when its frame cap will stop it before its games are played.
fn say_cap(a: &FilmArgs, games: u64) {
    if let Some(per_s) = games_per_second(a.watch.speed) {
        let cap_s = MAX_FRAMES as f64 / a.fps as f64;
        if games as f64 / per_s > cap_s {
            eprintln!(
                "note: a film holds at most {} frames ({:.0} s at {} frames a second); at {} games a second that is about {} of the {} games",
                crate::text::group(MAX_FRAMES),
                cap_s,
                a.fps,
                per_s,
                crate::text::group((cap_s * per_s) as u64),
                crate::text::group(games)
            );
        }
    }
}

/// The games a second a speed plays at, where it is a fixed rate.
fn games_per_second(speed: crate::view::app::Speed) -> Option<f64> {
    use crate::view::app::Speed;
    match speed {
        Speed::Games1 => Some(1.0),
        Speed::Games10 => Some(10.0),
        Speed::Games100 => Some(100.0),
        _ => None,
    }
}

/// Plays the session on the film's clock, drawing each frame into `terminal` and handing it to
/// `push`; returns how many frames were drawn.
fn shoot<G: FullGame>(
    session: &mut crate::view::session::Session<G>,
    app: &mut WatchApp<G>,
    control: &Control,
    fps: u32,
    mut push: impl FnMut(&ratatui::buffer::Buffer, u16, u64) -> Result<()>,
    terminal: &mut ratatui::Terminal<ratatui::backend::TestBackend>,
) -> Result<u64> {
    let frame_ms = 1000.0 / fps as f64;
    let delay = (100 / fps) as u16;
    let speed = control.speed;
    let (mut due, mut anim, mut hold) = (0.0, (0u64, 0.0), 0u64);
    let mut rate = (0.0, 0u64);
    let mut frame = 0u64;
    while frame < MAX_FRAMES {
        let t = frame as f64 * frame_ms;
        let mut batches = 0;
        drive::work(session, control, t, &mut due, || {
            batches += 1;
            batches < 4
        });
        app.snapshot = Snapshot::browsing(session, None, control.whole);
        app.fps = fps as f64;
        // After the last game the reading keeps the speed the games were played at.
        if t - rate.0 >= 1000.0 && !(session.limit_reached() && app.snapshot.games_played == rate.1)
        {
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
        terminal.draw(|f| crate::view::render::watch(f, app))?;
        push(
            terminal.backend().buffer(),
            delay,
            app.snapshot.games_played,
        )?;
        frame += 1;
        // Two seconds on the last game's end, then the film stops.
        if session.limit_reached() && !session.in_game() {
            hold += 1;
            if hold > 2 * fps as u64 {
                break;
            }
        }
    }
    Ok(frame)
}
