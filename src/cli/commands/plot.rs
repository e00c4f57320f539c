//! `plot`: a chart drawn from a CSV file that `train` or `experiment` wrote.

use std::fmt;

use serde::Serialize;

use super::*;

pub(super) fn plot(a: &PlotArgs) -> Result<Written> {
    chart::exporter_for(&a.out)?;
    store::check_writable(&a.out)?;
    store::check_not_a_machine("--out", &a.out)?;
    store::check_distinct(&[
        ("the CSV file", a.csv.as_path()),
        ("--out", a.out.as_path()),
    ])?;
    // Read as it streams in (a table of millions of games is never whole in memory as text).
    let input = std::io::BufReader::new(store::open(&a.csv)?);
    let rows = chart::data::read_csv(input).with_context(|| format!("{}", a.csv.display()))?;
    let empty = match &rows {
        Rows::Games(r) => r.is_empty(),
        Rows::Index(r) => r.is_empty(),
    };
    if empty {
        bail!(
            "{}: no rows under the header: nothing to draw",
            a.csv.display()
        );
    }
    // A run's games are thinned for the chart exactly as `train --plot` thins them.
    let rows = match rows {
        Rows::Games(all) => {
            let mut sampled = chart::data::GameSampler::new();
            all.into_iter().for_each(|row| sampled.push(row));
            Rows::Games(sampled.finish())
        }
        index => index,
    };
    let default = match rows {
        Rows::Games(_) => ChartKind::Score,
        Rows::Index(_) => ChartKind::LossRate,
    };
    let spec = chart::data::chart(a.chart.unwrap_or(default), &rows)
        .with_context(|| format!("{}", a.csv.display()))?;
    let bytes = chart::exporter_for(&a.out)?.export(&spec)?;
    store::save_atomic_bytes(&a.out, &bytes)?;
    Ok(Written {
        chart: a.out.display().to_string(),
    })
}

/// The chart `plot` wrote.
#[derive(Serialize)]
pub(super) struct Written {
    chart: String,
}

impl fmt::Display for Written {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "chart written to {}", self.chart)
    }
}
