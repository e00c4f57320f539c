//! TODO

use super::*;

/// Checks every output of a command before any work is done: each can be written, and no two
/// name the same file. `others` are the command's other outputs, as (option, path).
pub(super) fn check_outputs(output: &ChartArgs, others: &[(&str, Option<&PathBuf>)]) -> Result<()> {
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
    if let Some(p) = &output.plot {
        chart::exporter_for(p)?;
    }
    Ok(())
}

/// Finishes a CSV table being written atomically (`csv` of `path`, if one was asked for).
pub(super) fn commit_csv(
    csv: Option<csv::Writer<store::AtomicWriter>>,
    path: Option<&std::path::Path>,
) -> Result<()> {
    if let (Some(w), Some(path)) = (csv, path) {
        w.into_inner()
            .map_err(|e| anyhow::anyhow!("{}: {}", path.display(), e.error()))?
            .commit()?;
    }
    Ok(())
}
