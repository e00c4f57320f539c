//! `results`: every published figure matchbox checks, computed afresh into one table
//! (`docs/results.md` is this command's output): the counts, the solved values, Michie's 287 and
//! 2:1, HER's exact learning curve, Michie's 1963 learner and the sweep he announced, and the
//! figures quoted today. Rows marked slow take minutes; `--quick` leaves them out, and the test
//! checks that every quick row stands in the repository's table as the command makes it.

mod history;
mod learning;

use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Serialize;

use crate::chart::{self, ChartSpec};
use crate::cli::ResultsArgs;

/// One published claim and matchbox's figure for it.
#[derive(Clone, Debug, Serialize)]
pub(super) struct Row {
    pub claim: String,
    pub source: String,
    pub published: String,
    pub matchbox: String,
    /// The 95 % interval of a simulated figure (exact figures have none).
    pub interval: Option<String>,
    /// The command that shows it, with its seed where it has one.
    pub command: String,
    pub slow: bool,
}

impl Row {
    pub fn exact(claim: &str, source: &str, published: &str, ours: String, command: &str) -> Row {
        Row {
            claim: claim.into(),
            source: source.into(),
            published: published.into(),
            matchbox: ours,
            interval: None,
            command: command.into(),
            slow: false,
        }
    }
    pub fn slow(mut self) -> Row {
        self.slow = true;
        self
    }
    pub fn within(mut self, interval: String) -> Row {
        self.interval = Some(interval);
        self
    }
    /// The row as a line of the Markdown table.
    pub fn markdown(&self) -> String {
        let cell = |s: &str| s.replace('|', "\\|");
        format!(
            "| {} | {} | {} | {} | {} | `{}`{} |",
            cell(&self.claim),
            cell(&self.source),
            cell(&self.published),
            cell(&self.matchbox),
            self.interval.as_deref().map_or("exact".into(), cell),
            cell(&self.command),
            if self.slow { " (slow)" } else { "" }
        )
    }
}

/// A section of the results: a heading, a paragraph, its rows, and optionally a table of its
/// own (the sweep) and charts.
#[derive(Clone, Debug, Serialize)]
pub(super) struct Section {
    pub title: String,
    pub text: String,
    pub rows: Vec<Row>,
    pub extra: Vec<String>,
    #[serde(skip)]
    pub charts: Vec<(String, ChartSpec)>,
}

/// Everything the command computed.
#[derive(Serialize)]
pub(crate) struct ResultsReport {
    quick: bool,
    sections: Vec<Section>,
    #[serde(skip)]
    written: Vec<PathBuf>,
}

pub(crate) const HEADER: &str = "# Every published figure, regenerated";

impl ResultsReport {
    /// The whole page, as `docs/results.md` holds it.
    pub fn markdown(&self) -> String {
        let mut s = format!(
            "{HEADER}\n\nMade by `matchbox results --out docs/results.md` (about a minute on \
             two cores; `--quick` leaves out the rows marked slow, which `cargo test` does when \
             it checks every other row of this page). Each row: the claim, where it was \
             published, the published figure, matchbox's, the 95 % interval of a simulated \
             figure (Wilson's for a proportion, the normal one for a mean), and the command that \
             shows it with its seed. Exact figures are computed, not simulated.\n"
        );
        for sec in &self.sections {
            s.push_str(&format!("\n## {}\n\n{}\n\n", sec.title, sec.text));
            if !sec.rows.is_empty() {
                s.push_str("| claim | source | published | matchbox | 95 % interval | command |\n");
                s.push_str("|---|---|---|---|---|---|\n");
                for r in &sec.rows {
                    s.push_str(&r.markdown());
                    s.push('\n');
                }
            }
            for e in &sec.extra {
                s.push('\n');
                s.push_str(e);
                s.push('\n');
            }
            for (file, spec) in &sec.charts {
                s.push_str(&format!("\n![{}](results/{file})\n", spec.title));
            }
        }
        s
    }
}

impl fmt::Display for ResultsReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.written.is_empty() {
            return f.write_str(&self.markdown());
        }
        for p in &self.written {
            writeln!(f, "wrote {}", crate::text::quote(&p.display().to_string()))?;
        }
        Ok(())
    }
}

pub(crate) fn results(a: &ResultsArgs) -> Result<ResultsReport> {
    if let Some(out) = &a.out {
        crate::store::check_not_a_machine("--out", out)?;
        check_replaceable(out)?;
    }
    let mut sections = history::sections();
    sections.extend(learning::sections(a.quick));
    let mut report = ResultsReport {
        quick: a.quick,
        sections,
        written: Vec::new(),
    };
    if let Some(out) = &a.out {
        let dir = out.parent().unwrap_or(Path::new(".")).join("results");
        for sec in &report.sections {
            for (file, spec) in &sec.charts {
                std::fs::create_dir_all(&dir)
                    .with_context(|| format!("cannot make the folder {}", dir.display()))?;
                let path = dir.join(file);
                crate::store::save_atomic_bytes(&path, &chart::png(spec)?)?;
                report.written.push(path);
            }
        }
        crate::store::save_atomic(out, &report.markdown())?;
        report.written.push(out.clone());
    }
    Ok(report)
}

/// The page may be replaced only if it is one this command wrote (or does not exist yet).
fn check_replaceable(out: &Path) -> Result<()> {
    match std::fs::read_to_string(out) {
        Ok(text) if !text.starts_with(HEADER) => anyhow::bail!(
            "{} exists and is not a page `matchbox results` wrote; it is left as it is",
            crate::text::quote(&out.display().to_string())
        ),
        _ => Ok(()),
    }
}

/// A proportion k of n with its Wilson interval, as percentages.
pub(super) fn percent_within(k: u64, n: u64) -> (String, String) {
    let (lo, hi) = crate::chart::data::wilson(k, n);
    (
        format!("{:.2} %", 100.0 * k as f64 / n as f64),
        format!("{:.2}–{:.2} %", 100.0 * lo, 100.0 * hi),
    )
}

/// A mean with its normal 95 % interval, from a sum and a sum of squares over n.
pub(super) fn mean_within(sum: f64, sum_sq: f64, n: f64, digits: usize) -> (String, String) {
    let mean = sum / n;
    let var = (sum_sq / n - mean * mean).max(0.0);
    let half = 1.959_963_984_540_054 * (var / n).sqrt();
    (
        format!("{mean:.digits$}"),
        format!("{:.digits$}–{:.digits$}", mean - half, mean + half),
    )
}
