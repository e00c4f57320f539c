//! The command line's one progress mechanism, on indicatif (stderr, only where it is a
//! terminal): the steps of preparing a big game ([`Steps`]), a bar with its ETA over a count of
//! work ([`Work`]), and the check before long work that it will end in a reasonable time.

use std::io::IsTerminal;
use std::time::Instant;

use anyhow::{Result, bail};
use indicatif::{ProgressBar, ProgressState, ProgressStyle};

/// Whether progress can be drawn: stderr is a terminal.
fn drawn() -> bool {
    std::io::stderr().is_terminal()
}

/// The steps of preparing a big game: a headline first, then each step with a spinner (and its
/// own count, such as the positions found so far), and its time as it ends. Nothing at all for
/// small games (well under a second).
pub(crate) struct Steps {
    shown: bool,
    spinner: Option<ProgressBar>,
    current: Option<(String, Instant)>,
    /// Whether each step's time is said when it ends.
    timed: bool,
}

impl Steps {
    pub fn new(shown: bool, headline: impl std::fmt::Display) -> Steps {
        if shown {
            eprintln!("{headline}");
        }
        Steps {
            shown,
            spinner: None,
            current: None,
            timed: true,
        }
    }
    /// One step shown as a spinner only (no headline, no time said at its end): a count that
    /// says how far it has come.
    pub fn spinner(shown: bool, what: impl Into<String>) -> Steps {
        let mut s = Steps {
            shown: shown && drawn(),
            spinner: None,
            current: None,
            timed: false,
        };
        s.next(what);
        s
    }
    /// Ends the step under way (if any) and starts `what`.
    pub fn next(&mut self, what: impl Into<String>) {
        self.end();
        if !self.shown {
            return;
        }
        let what = what.into();
        if drawn() {
            let spinner = ProgressBar::new_spinner();
            spinner.set_style(
                ProgressStyle::with_template("  {spinner} {msg} · {elapsed}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            spinner.set_message(what.clone());
            spinner.enable_steady_tick(std::time::Duration::from_millis(200));
            self.spinner = Some(spinner);
        } else {
            eprintln!("  {what} …");
        }
        self.current = Some((what, Instant::now()));
    }
    /// Says how far the step under way has come (`detail`, beside its name).
    pub fn detail(&self, detail: impl std::fmt::Display) {
        if let (Some(s), Some((what, _))) = (&self.spinner, &self.current) {
            s.set_message(format!("{what}: {detail}"));
        }
    }
    /// Ends the step under way, saying how long it took.
    pub fn end(&mut self) {
        if let Some(s) = self.spinner.take() {
            s.finish_and_clear();
        }
        if let Some((what, started)) = self.current.take()
            && self.timed
        {
            eprintln!(
                "  {what}: {}",
                crate::text::duration_text(started.elapsed().as_secs_f64())
            );
        }
    }
}

impl Drop for Steps {
    fn drop(&mut self) {
        if let Some(s) = self.spinner.take() {
            s.finish_and_clear();
        }
    }
}

/// A count of work (`unit`: games, runs) with a bar and its ETA on stderr once the work is seen
/// to take more than two minutes; work that would take more than a year is refused.
pub(crate) struct Work {
    total: u64,
    unit: &'static str,
    /// The start of the window the rate is measured over, and the units done then: a second
    /// or more of the latest work, so that a slow start (a first game, a cold cache) does not
    /// stand for the whole.
    window: (Instant, u64),
    bar: Option<ProgressBar>,
    /// Whether the two-minute estimate has been said (where no bar can be drawn).
    said: bool,
    /// Windows in a row whose rate leaves more than two minutes of work.
    long: u8,
}

impl Work {
    pub fn new(total: u64, unit: &'static str) -> Work {
        Work {
            total,
            unit,
            window: (Instant::now(), 0),
            bar: None,
            said: false,
            long: 0,
        }
    }

    /// Whether the work is long enough to show its bar or say its time, with `left` seconds to
    /// go at the latest window's rate: when two windows in a row say more than two minutes. A
    /// first window alone is no measure: a learner's first second against a cold solver runs
    /// ten times slower than the rest (a million base-3 Havannah games were forecast at 4
    /// minutes and took 12 s).
    fn long_enough(&mut self, left: f64) -> bool {
        self.long = if left > 120.0 {
            self.long.saturating_add(1)
        } else {
            0
        };
        self.long >= 2
    }

    /// A bar from the start (an experiment: its runs), where one can be drawn.
    pub fn with_bar(total: u64, unit: &'static str) -> Work {
        let mut w = Work::new(total, unit);
        w.show();
        w
    }

    fn show(&mut self) {
        if !drawn() || self.bar.is_some() {
            return;
        }
        let bar = ProgressBar::new(self.total);
        let unit = self.unit;
        let style = ProgressStyle::with_template(
            "{bar:40} {human_pos}/{human_len} {unit} · {rate} · {eta} left",
        )
        .map(|s| {
            s.with_key(
                "unit",
                move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{unit}");
                },
            )
            .with_key(
                "rate",
                move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{} {unit}/s", crate::text::rate(state.per_sec()));
                },
            )
        })
        .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        self.bar = Some(bar);
    }

    /// One more unit done (from any thread, for a bar shown from the start).
    pub fn tick(&self) {
        if let Some(b) = &self.bar {
            b.inc(1);
        }
    }

    /// `done` units done in all: refuses work that would take more than a year, and shows the
    /// bar (or says once how long it will take) when more than two minutes are left.
    pub fn at(&mut self, done: u64) -> Result<()> {
        if let Some(b) = &self.bar {
            b.set_position(done);
        }
        let (since, done_then) = self.window;
        let elapsed = since.elapsed().as_secs_f64();
        if elapsed < 1.0 || done <= done_then {
            return Ok(());
        }
        self.window = (Instant::now(), done);
        let per_sec = (done - done_then) as f64 / elapsed;
        let left = (self.total.saturating_sub(done)) as f64 / per_sec;
        if left > crate::text::YEAR {
            bail!(
                "this would take about {} at {} {} a second; ask for fewer {}",
                crate::text::duration_text(left),
                crate::text::group(per_sec as u64),
                self.unit,
                self.unit
            );
        }
        if self.long_enough(left) && self.bar.is_none() && !self.said {
            self.said = true;
            if drawn() {
                self.show();
            } else {
                eprintln!(
                    "about {} to go at {} {} a second (Ctrl-C stops without saving)",
                    crate::text::duration_text(left),
                    crate::text::group(per_sec as u64),
                    self.unit
                );
            }
        }
        Ok(())
    }

    /// The work is done: the bar goes.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

/// Before games against a tree search of `simulations` a move: one short search timed on the
/// opening position, the length of a game guessed from one random game, and the whole said
/// (past two minutes) or refused (past a year), before the first move is searched.
pub fn search_forecast<G: crate::game::Game>(game: &G, simulations: u32, games: u64) -> Result<()> {
    use crate::players::mcts::MctsPlayer;
    const PROBE: u32 = 2_000;
    if simulations <= PROBE {
        return Ok(());
    }
    let mut rng = crate::rng::rng_from_seed(1);
    let start = game.start();
    let timer = Instant::now();
    let _ = MctsPlayer::new(PROBE).search(game, &start, &mut rng);
    let per_move = timer.elapsed().as_secs_f64() * simulations as f64 / PROBE as f64;
    // The search's moves in a game: half the plies of a random one.
    let mut pos = start;
    let mut plies = 0u64;
    while game.outcome(&pos).is_none() {
        let moves = game.moves(&pos);
        let Some(&mv) = moves.get(crate::rng::uniform_below(&mut rng, moves.len() as u32) as usize)
        else {
            break;
        };
        pos = game.play(&pos, mv);
        plies += 1;
    }
    let per_game = per_move * (plies as f64 / 2.0).max(1.0);
    let total = per_game * games as f64;
    let said = format!(
        "the tree search's {} simulations take about {} a move here (timed on the opening), so about {} a game",
        crate::text::group(simulations as u64),
        crate::text::duration_text(per_move.max(0.1)),
        crate::text::duration_text(per_game)
    );
    if total > crate::text::YEAR {
        bail!(
            "{said}: {} games would take about {}; ask for fewer simulations (mcts:{}) or games",
            crate::text::group(games),
            crate::text::duration_text(total),
            PROBE * 5
        );
    }
    if total > 120.0 {
        eprintln!(
            "{said}: {} in all (Ctrl-C stops)",
            crate::text::duration_text(total)
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Work;

    /// A slow first window alone says nothing; two long windows in a row do, and a short one
    /// between them starts the count again.
    #[test]
    fn the_time_is_said_after_two_long_windows() {
        let mut w = Work::new(1_000_000, "games");
        assert!(!w.long_enough(240.0));
        assert!(!w.long_enough(24.0));
        assert!(!w.long_enough(240.0));
        assert!(w.long_enough(200.0));
        assert!(w.long_enough(150.0));
    }
}
