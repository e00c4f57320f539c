//! A command's charts and tables: checked before any work, written atomically after it.

use super::*;

/// Checks every output of a command before any work is done: each can be written, and no two
/// name the same file. `others` are the command's other outputs, as (option, path).
pub(super) fn check_outputs(output: &ChartArgs, others: &[(&str, Option<&PathBuf>)]) -> Result<()> {
    check_outputs_reading(output, others, &[])
}

/// As [`check_outputs`], and no output names a file the command reads (`inputs`): the one rule
/// every command that reads and writes files follows.
pub(super) fn check_outputs_reading(
    output: &ChartArgs,
    others: &[(&str, Option<&PathBuf>)],
    inputs: &[(&str, &std::path::Path)],
) -> Result<()> {
    let mut all: Vec<(&str, &std::path::Path)> = vec![];
    for (name, path) in [
        ("--csv", output.csv.as_ref()),
        ("--plot", output.plot.as_ref()),
    ]
    .into_iter()
    .chain(others.iter().copied())
    {
        if let Some(p) = path {
            store::check_writable(p)?;
            all.push((name, p.as_path()));
        }
    }
    store::check_distinct(&all)?;
    store::check_not_read(&all, inputs)?;
    for (name, p) in &all {
        if matches!(*name, "--csv" | "--plot") {
            store::check_not_a_machine(name, p)?;
        }
    }
    if let Some(p) = &output.plot {
        chart::exporter_for(p)?;
    }
    Ok(())
}

/// The chart and the table written, as (what, path), for a report to list.
pub(super) fn written(output: &ChartArgs) -> Vec<(&'static str, String)> {
    [("chart", &output.plot), ("table", &output.csv)]
        .into_iter()
        .filter_map(|(what, p)| Some((what, p.as_ref()?.display().to_string())))
        .collect()
}

/// Refuses a chart the command cannot draw, before any work: `train` draws one run's charts,
/// `experiment` those of many runs.
pub(super) fn check_chart(output: &ChartArgs, command: &str, one_run: bool) -> Result<()> {
    let Some(kind) = output.chart else {
        return Ok(());
    };
    let fits: Vec<&str> = ChartKind::ALL
        .iter()
        .filter(|k| k.of_one_run() == one_run)
        .map(|k| k.arg())
        .collect();
    if kind.of_one_run() != one_run {
        bail!(
            "--chart {}: {command} draws {} (the {} chart is {})",
            kind.arg(),
            fits.join(", "),
            kind.name(),
            if one_run {
                "of many runs: use experiment"
            } else {
                "of one run: use train"
            }
        );
    }
    if output.plot.is_none() {
        bail!(
            "--chart {}: give --plot FILE.png or FILE.svg to draw it to",
            kind.arg()
        );
    }
    Ok(())
}

/// Finishes a CSV table being written atomically (`csv` of `path`, if one was asked for).
/// A command's `--csv` table: rows written as they come to a temporary file, which replaces the
/// target at [`Table::commit`]; every failure (a full disk) names the file.
pub(super) struct Table {
    path: PathBuf,
    w: csv::Writer<store::AtomicWriter>,
}

impl Table {
    /// The table `path` names, if any.
    pub(super) fn create(path: Option<&PathBuf>) -> Result<Option<Table>> {
        let Some(path) = path else {
            return Ok(None);
        };
        let w = csv::Writer::from_writer(store::AtomicWriter::create(path)?);
        Ok(Some(Table {
            path: path.clone(),
            w,
        }))
    }

    pub(super) fn row<T: serde::Serialize>(&mut self, row: &T) -> Result<()> {
        self.w.serialize(row).map_err(|e| self.failed(e))
    }

    pub(super) fn commit(self) -> Result<()> {
        let Table { path, w } = self;
        let file = w
            .into_inner()
            .map_err(|e| anyhow::anyhow!("{}: {}", quoted(&path), e.error()))?;
        file.commit()?;
        Ok(())
    }

    fn failed(&self, e: impl std::fmt::Display) -> anyhow::Error {
        anyhow::anyhow!("{}: {e}", quoted(&self.path))
    }
}

/// A path as an error names it (control and bidirectional characters escaped).
fn quoted(path: &std::path::Path) -> String {
    crate::text::quote(&path.display().to_string())
}
