//! TODO

use super::*;

/// After `done` of `total` units of work begun at `started`: refuses work that would take more
/// than a year, and says once on stderr how long work of more than two minutes will take.
/// Returns whether it said so.
pub(super) fn estimate(
    started: std::time::Instant,
    done: usize,
    total: usize,
    warned: bool,
) -> Result<bool> {
    let elapsed = started.elapsed().as_secs_f64();
    if done == 0 || elapsed < 0.05 {
        return Ok(false);
    }
    let left = elapsed / done as f64 * (total - done) as f64;
    const YEAR: f64 = 365.25 * 86400.0;
    if left > YEAR {
        bail!(
            "this would take about {:.0} years at {} games a second; ask for fewer games",
            left / YEAR,
            crate::text::group((done as f64 / elapsed) as u64)
        );
    }
    if left > 120.0 && !warned {
        eprintln!(
            "about {} to go at {} games a second (Ctrl-C stops without saving)",
            crate::text::duration_text(left),
            crate::text::group((done as f64 / elapsed) as u64)
        );
        return Ok(true);
    }
    Ok(false)
}

/// A progress bar on stderr when it is a terminal; nothing otherwise.
pub(super) fn progress(runs: usize) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(runs as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {human_pos}/{human_len} runs · {rate} · {eta} left")
            .map(|s| {
                s.with_key(
                    "rate",
                    |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{:.0} runs/s", state.per_sec());
                    },
                )
            })
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    Some(bar)
}
