//! What charts show, as data: per-game records of one run, per-game-index statistics of many runs,
//! their CSV form, and the chart of each kind.

use std::io::{Read, Write};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::{ChartSpec, Kind, Series};
use crate::learn::GameResult;
use crate::learn::engine::ExperimentResult;

/// The chart kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChartKind {
    /// Michie's learning curve of one run: cumulative wins − losses
    Score,
    /// Share of runs that lost game g, with a 95 % band
    LossRate,
    /// Mean cumulative losses, with a 95 % band
    CumulativeLosses,
    /// Beads left (in all and per move) and boxes emptied
    Beads,
    /// Histogram of the game of the last loss across runs
    LastLoss,
    /// Scroggs' chart: beads in the first box over the games, in all and arrow by arrow
    FirstBox,
}

impl std::str::FromStr for ChartKind {
    type Err = String;
    fn from_str(s: &str) -> Result<ChartKind, String> {
        let typed = s.trim().to_ascii_lowercase();
        ChartKind::ALL
            .into_iter()
            .find(|k| k.arg() == typed)
            .ok_or_else(|| {
                let names: Vec<&str> = ChartKind::ALL.iter().map(|k| k.arg()).collect();
                format!(
                    "`{}` is not a chart (use {})",
                    crate::text::quote(s),
                    names.join(", ")
                )
            })
    }
}

impl ChartKind {
    /// Every chart, in the order the help lists them.
    pub const ALL: [ChartKind; 6] = [
        ChartKind::Score,
        ChartKind::Beads,
        ChartKind::FirstBox,
        ChartKind::LossRate,
        ChartKind::CumulativeLosses,
        ChartKind::LastLoss,
    ];

    /// The chart's name on the command line (`--chart first-box`).
    pub fn arg(self) -> &'static str {
        match self {
            ChartKind::Score => "score",
            ChartKind::LossRate => "loss-rate",
            ChartKind::CumulativeLosses => "cumulative-losses",
            ChartKind::Beads => "beads",
            ChartKind::LastLoss => "last-loss",
            ChartKind::FirstBox => "first-box",
        }
    }
}

impl ChartKind {
    pub fn name(self) -> &'static str {
        match self {
            ChartKind::Score => "learning curve",
            ChartKind::LossRate => "loss rate",
            ChartKind::CumulativeLosses => "cumulative losses",
            ChartKind::Beads => "beads left",
            ChartKind::LastLoss => "game of the last loss",
            ChartKind::FirstBox => "beads in the first box",
        }
    }
}

#[derive(Debug, Error)]
pub enum DataError {
    /// The table's own error, said once: where, which column, what.
    #[error("{0}")]
    Csv(String),
    #[error("line {line}, column {column}: {why}")]
    BadValue {
        line: usize,
        column: &'static str,
        why: String,
    },
    #[error("the {chart} chart needs {needs}; this file has {has}")]
    WrongData {
        chart: &'static str,
        needs: &'static str,
        has: &'static str,
    },
}

/// One game of a run, for `train --csv` (columns `run,game,result,cumulative_score,beads_left,
/// boxes_emptied,beads_by_move,move_numbers,first_box,perfect_play,label`; `beads_by_move` lists
/// the beads left in the boxes of each of the learner's moves, separated by `/`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    pub run: u32,
    pub game: u64,
    pub result: GameResult,
    pub cumulative_score: i64,
    pub beads_left: u64,
    pub boxes_emptied: u64,
    pub beads_by_move: String,
    /// The game's move numbers of the entries of `beads_by_move` (`2/4/6` for a second player),
    /// so that a chart names them as the boxes do; empty in files written before it was kept.
    #[serde(default)]
    pub move_numbers: String,
    /// The beads of each arrow of box 1 (`8/4/12`: arrows A, B, C), for Scroggs' chart of the
    /// first box; empty in files written before it was kept.
    #[serde(default)]
    pub first_box: String,
    /// The moves of box 1's arrows as a legend names them (`a1 corner/a2 edge/b2 centre`);
    /// empty in files written before they were kept.
    #[serde(default)]
    pub first_box_moves: String,
    /// The learner's result per game under perfect play against a perfect opponent (1, 0 or −1);
    /// empty when the opponent is not the perfect player.
    pub perfect_play: Option<i64>,
    pub label: String,
}

/// Statistics of one game index over many runs, for `experiment --csv` (one row per variant and
/// game: the share of runs that lost it with a 95 % Wilson interval, the shares drawn and won, the
/// mean cumulative losses with a 95 % interval, and how many runs had their last loss at it).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IndexRow {
    pub variant: String,
    pub game: u64,
    pub runs: u64,
    pub loss_rate: f64,
    pub loss_rate_low: f64,
    pub loss_rate_high: f64,
    pub draw_rate: f64,
    pub win_rate: f64,
    pub mean_cumulative_losses: f64,
    pub cumulative_losses_low: f64,
    pub cumulative_losses_high: f64,
    pub runs_with_last_loss_here: u64,
    pub label: String,
    /// The exact chance the game is lost, where the machine's exact curve is within reach
    /// ([`crate::learn::exact`]); empty otherwise, and in tables written before it.
    #[serde(default)]
    pub exact_loss_rate: Option<f64>,
}

/// The 95 % Wilson score interval of `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 0.0);
    }
    let (k, n, z) = (k as f64, n as f64, 1.959_963_984_540_054);
    let p = k / n;
    let d = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / d;
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / d;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The per-game rows of an experiment.
pub fn index_rows<'a>(
    variant: &'a str,
    label: &'a str,
    r: &'a ExperimentResult,
    exact: Option<&'a [f64]>,
) -> impl Iterator<Item = IndexRow> + 'a {
    let n = r.runs as u64;
    let nf = n.max(1) as f64;
    (0..r.losses_by_game.len()).map(move |g| {
        let losses = r.losses_by_game[g] as u64;
        let (lo, hi) = wilson(losses, n);
        let mean = r.cumulative_losses[g] as f64 / nf;
        let var = (r.cumulative_losses_sq[g] as f64 / nf - mean * mean).max(0.0);
        let half = 1.96 * (var / nf).sqrt();
        IndexRow {
            variant: variant.to_string(),
            game: g as u64 + 1,
            runs: n,
            loss_rate: losses as f64 / nf,
            loss_rate_low: lo,
            loss_rate_high: hi,
            draw_rate: r.draws_by_game[g] as f64 / nf,
            win_rate: r.wins_by_game[g] as f64 / nf,
            mean_cumulative_losses: mean,
            cumulative_losses_low: (mean - half).max(0.0),
            cumulative_losses_high: mean + half,
            runs_with_last_loss_here: r.last_loss[g + 1] as u64,
            exact_loss_rate: exact.and_then(|x| x.get(g).copied()),
            label: label.to_string(),
        }
    })
}

/// Writes rows as CSV with a header.
pub fn write_csv<T: Serialize>(out: impl Write, rows: &[T]) -> Result<(), DataError> {
    let mut w = csv::Writer::from_writer(out);
    let fail = |e: csv::Error| DataError::Csv(e.to_string());
    for r in rows {
        w.serialize(r).map_err(fail)?;
    }
    w.flush()
        .map_err(|e| DataError::Csv(format!("cannot write: {e}")))?;
    Ok(())
}

/// One run's games thinned to at most [`GameSampler::MAX_ROWS`] rows for a chart, whatever the
/// number of games: the first game, then every `k`-th (`k` doubling as the run grows), and the
/// last. Deterministic, so a chart drawn during `train` and one drawn later from the full CSV by
/// `plot` are the same.
#[derive(Clone, Debug, Default)]
pub struct GameSampler {
    every: u64,
    seen: u64,
    rows: Vec<GameRow>,
    last: Option<GameRow>,
}

impl GameSampler {
    pub const MAX_ROWS: usize = 4000;

    pub fn new() -> Self {
        GameSampler {
            every: 1,
            ..Default::default()
        }
    }

    /// Offers the next game's row.
    pub fn push(&mut self, row: GameRow) {
        let i = self.seen;
        self.seen += 1;
        if i == 0 || i.is_multiple_of(self.every) {
            self.rows.push(row);
            self.last = None;
            if self.rows.len() > Self::MAX_ROWS {
                self.every *= 2;
                let every = self.every;
                // Keep the first row and the rows whose index is a multiple of the new step.
                let mut index = 0u64;
                let step = every / 2;
                self.rows.retain(|_| {
                    let keep = index == 0 || (index * step).is_multiple_of(every);
                    index += 1;
                    keep
                });
            }
        } else {
            self.last = Some(row);
        }
    }

    /// The rows kept, the last game always among them.
    pub fn finish(mut self) -> Vec<GameRow> {
        self.rows.extend(self.last);
        self.rows
    }
}

/// Rows read back from a CSV written by `train` or `experiment`.
pub enum Rows {
    Games(Vec<GameRow>),
    Index(Vec<IndexRow>),
}

/// Reads a CSV written by `train --csv` or `experiment --csv`, telling them apart by their header.
pub fn read_csv(input: impl Read) -> Result<Rows, DataError> {
    let mut r = csv::Reader::from_reader(input);
    let headers = r.headers().map_err(|e| csv_error(e, None))?.clone();
    let games = headers.iter().any(|h| h == "cumulative_score");
    let rows = if games {
        Rows::Games(
            r.deserialize()
                .collect::<Result<_, _>>()
                .map_err(|e| csv_error(e, Some(&headers)))?,
        )
    } else {
        Rows::Index(
            r.deserialize()
                .collect::<Result<_, _>>()
                .map_err(|e| csv_error(e, Some(&headers)))?,
        )
    };
    check_values(&rows)?;
    Ok(rows)
}

/// A table error in one line: its line (the header is line 1), the column by name, and what is
/// wrong.
fn csv_error(e: csv::Error, headers: Option<&csv::StringRecord>) -> DataError {
    let line = e.position().map(|p| p.line());
    let at = |column: Option<String>| match (line, column) {
        (Some(l), Some(c)) => format!("line {l}, column {c}: "),
        (Some(l), None) => format!("line {l}: "),
        _ => String::new(),
    };
    let message = match e.kind() {
        // A column the header lacks is said of the header, not of the first row that needs it.
        csv::ErrorKind::Deserialize { err, .. }
            if let csv::DeserializeErrorKind::Message(m) = err.kind()
                && let Some(column) = m.strip_prefix("missing field ") =>
        {
            format!(
                "line 1 (the header): no column {}, which `train --csv` and `experiment --csv` write",
                crate::text::quote(column)
            )
        }
        csv::ErrorKind::Deserialize { err, .. } => {
            let column = err
                .field()
                .map(|f| match headers.and_then(|h| h.get(f as usize)) {
                    Some(name) => format!("`{}`", crate::text::quote(name)),
                    None => format!("{}", f + 1),
                });
            format!("{}{}", at(column), err.kind())
        }
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!(
            "{}{len} fields where the header has {expected_len}",
            at(None)
        ),
        csv::ErrorKind::Utf8 { .. } => format!("{}not UTF-8 text", at(None)),
        csv::ErrorKind::Io(io) => format!("cannot read: {io}"),
        _ => e.to_string(),
    };
    DataError::Csv(message)
}

/// Refuses values no run writes: a share outside 0–1, a count below 0, a number that is not
/// finite (`inf`, `NaN`), a bead count in a `/` list that is not a whole number. Lines count the
/// header as line 1.
fn check_values(rows: &Rows) -> Result<(), DataError> {
    let bad = |i: usize, column: &'static str, why: String| DataError::BadValue {
        line: i + 2,
        column,
        why,
    };
    match rows {
        Rows::Index(rows) => {
            for (i, r) in rows.iter().enumerate() {
                let shares = [
                    ("loss_rate", r.loss_rate),
                    ("loss_rate_low", r.loss_rate_low),
                    ("loss_rate_high", r.loss_rate_high),
                    ("draw_rate", r.draw_rate),
                    ("win_rate", r.win_rate),
                    ("exact_loss_rate", r.exact_loss_rate.unwrap_or(0.0)),
                ];
                for (column, v) in shares {
                    if !(0.0..=1.0).contains(&v) {
                        return Err(bad(i, column, format!("{v} is not a share from 0 to 1")));
                    }
                }
                let counts = [
                    ("mean_cumulative_losses", r.mean_cumulative_losses),
                    ("cumulative_losses_low", r.cumulative_losses_low),
                    ("cumulative_losses_high", r.cumulative_losses_high),
                ];
                for (column, v) in counts {
                    if !(v.is_finite() && v >= 0.0) {
                        return Err(bad(i, column, format!("{v} is not a number of losses")));
                    }
                }
            }
        }
        Rows::Games(rows) => {
            for (i, r) in rows.iter().enumerate() {
                for (column, list) in [
                    ("beads_by_move", &r.beads_by_move),
                    ("first_box", &r.first_box),
                ] {
                    if let Some(x) = list
                        .split('/')
                        .filter(|x| !x.is_empty())
                        .find(|x| x.parse::<u64>().is_err())
                    {
                        return Err(bad(
                            i,
                            column,
                            format!(
                                "`{}` is not a bead count (whole numbers separated by /)",
                                crate::text::quote(x)
                            ),
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

impl ChartKind {
    /// Whether the chart is of one run's games (`train`), not of many runs (`experiment`).
    pub fn of_one_run(self) -> bool {
        matches!(
            self,
            ChartKind::Score | ChartKind::Beads | ChartKind::FirstBox
        )
    }
}

/// The chart of `kind` for some rows.
pub fn chart(kind: ChartKind, rows: &Rows) -> Result<ChartSpec, DataError> {
    let wrong = |needs, has| DataError::WrongData {
        chart: kind.name(),
        needs,
        has,
    };
    match (kind, rows) {
        (ChartKind::Score | ChartKind::Beads | ChartKind::FirstBox, Rows::Games(g)) => {
            Ok(games_chart(kind, g))
        }
        (ChartKind::Score | ChartKind::Beads | ChartKind::FirstBox, Rows::Index(_)) => Err(wrong(
            "one run's games (train --csv)",
            "many runs (experiment --csv)",
        )),
        (_, Rows::Index(rows)) => {
            let mut spec = index_chart(kind, rows);
            if kind == ChartKind::LossRate {
                spec.series.extend(exact_lines(rows));
            }
            Ok(spec)
        }
        (_, Rows::Games(_)) => Err(wrong(
            "many runs (experiment --csv)",
            "one run's games (train --csv)",
        )),
    }
}

fn label_of<'a>(labels: impl IntoIterator<Item = &'a String>) -> String {
    labels.into_iter().next().cloned().unwrap_or_default()
}

/// Title and subtitle from a run's label (`who v whom · game · settings…`) and the chart's name.
fn titles(label: &str, chart: &str, runs: Option<u64>) -> (String, String) {
    let parts: Vec<&str> = label.split(" · ").collect();
    let title = match parts.as_slice() {
        [who, game, ..] => format!("{who}, {game}: {chart}"),
        [who] => format!("{who}: {chart}"),
        [] => chart.to_string(),
    };
    let mut rest: Vec<String> = parts.iter().skip(2).map(|s| s.to_string()).collect();
    if let Some(n) = runs {
        rest.push(format!("{} runs", crate::text::group(n)));
    }
    (title, rest.join(" · "))
}

/// The `k`-th of the `/`-separated numbers of a CSV field (0 where there is none).
fn nth_field(field: &str, k: usize) -> f64 {
    (field.split('/').nth(k))
        .and_then(|x| x.parse::<f64>().ok())
        .unwrap_or(0.0)
}

/// Scroggs' chart: the beads in the first box, in all and arrow by arrow, each arrow in its
/// bead colour and letter, as on the box's label.
fn first_box_series(rows: &[GameRow]) -> Vec<Series> {
    let arrows = rows.first().map_or(0, |r| {
        r.first_box.split('/').filter(|s| !s.is_empty()).count()
    });
    let mut series: Vec<Series> = (0..arrows)
        .map(|k| {
            let letter = crate::palette::letter(k);
            let name = match rows
                .first()
                .and_then(|r| r.first_box_moves.split('/').nth(k))
            {
                Some(mv) if !mv.is_empty() => format!("arrow {letter}: {mv}"),
                _ => format!("arrow {letter}"),
            };
            Series::line(
                name,
                rows.iter()
                    .map(|r| (r.game as f64, nth_field(&r.first_box, k)))
                    .collect(),
            )
            .in_colour(crate::palette::arrow(k))
        })
        .collect();
    let all = |r: &GameRow| (0..arrows).map(|k| nth_field(&r.first_box, k)).sum();
    series.push(Series {
        reference: true,
        ..Series::line(
            "all beads in box 1",
            rows.iter().map(|r| (r.game as f64, all(r))).collect(),
        )
    });
    series
}

/// Michie's learning curve, with the line of perfect play where the run knows it.
fn score_series(rows: &[GameRow]) -> Vec<Series> {
    let curve = std::iter::once((0.0, 0.0))
        .chain(
            rows.iter()
                .map(|r| (r.game as f64, r.cumulative_score as f64)),
        )
        .collect();
    let mut series = vec![Series::line("the machine", curve)];
    let perfect = rows.first().and_then(|r| r.perfect_play);
    if let (Some(p), Some(first), Some(last)) = (perfect, rows.first(), rows.last()) {
        let start = first.game as f64 - 1.0;
        let base = first.cumulative_score as f64 - first.result.score() as f64;
        series.push(perfect_line((start, base), last.game as f64, p));
    }
    series
}

/// The score perfect play would have from `start` to game `end`: `per_game` (1, 0 or −1) a game.
fn perfect_line(start: (f64, f64), end: f64, per_game: i64) -> Series {
    let (x, y) = start;
    Series {
        name: "perfect play".into(),
        points: vec![(x, y), (end, y + per_game as f64 * (end - x))],
        band: None,
        reference: true,
        secondary: false,
        colour: None,
    }
}

/// The learning curve chart of a run named by `label` (as `train --plot` draws it from the
/// run's rows): `curve` holds (games played, wins − losses) from the first game, `perfect` the
/// learner's score a game under perfect play where the opponent is the perfect player.
pub fn learning_curve(label: &str, curve: Vec<(f64, f64)>, perfect: Option<i64>) -> ChartSpec {
    let ends = (curve.first().copied(), curve.last().map(|p| p.0));
    let mut series = vec![Series::line("the machine", curve)];
    if let (Some(p), (Some(start), Some(end))) = (perfect, ends) {
        series.push(perfect_line(start, end, p));
    }
    let (title, subtitle) = titles(label, SCORE.1, None);
    ChartSpec {
        title,
        subtitle,
        x_label: "games played".into(),
        y_label: SCORE.0.into(),
        y2_label: None,
        kind: Kind::Lines,
        series,
    }
}

/// The learning curve's axis and chart names.
const SCORE: (&str, &str) = ("score: wins − losses (games)", "learning curve");

/// The beads left, by the machine's move where it has several, and the boxes emptied on an
/// axis of their own.
fn bead_series(rows: &[GameRow]) -> Vec<Series> {
    let mut series = vec![Series::line(
        "beads left",
        rows.iter()
            .map(|r| (r.game as f64, r.beads_left as f64))
            .collect(),
    )];
    let stages = rows.first().map_or(0, |r| {
        r.beads_by_move.split('/').filter(|s| !s.is_empty()).count()
    });
    // Named by the game's move numbers, as the boxes are ("move 2"), where the file says.
    let numbers: Vec<String> = rows.first().map_or(Vec::new(), |r| {
        (r.move_numbers.split('/'))
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect()
    });
    if stages > 1 {
        for s in 0..stages {
            let name = match numbers.get(s) {
                Some(n) => format!("beads in the boxes of move {n}"),
                None => format!("beads, machine's move {}", s + 1),
            };
            let points = rows
                .iter()
                .map(|r| (r.game as f64, nth_field(&r.beads_by_move, s)))
                .collect();
            series.push(Series::line(name, points));
        }
    }
    // A handful of boxes beside thousands of beads: on an axis of its own.
    series.push(
        Series::line(
            "boxes emptied (right-hand axis)",
            rows.iter()
                .map(|r| (r.game as f64, r.boxes_emptied as f64))
                .collect(),
        )
        .on_right_axis(),
    );
    series
}

fn games_chart(kind: ChartKind, rows: &[GameRow]) -> ChartSpec {
    let label = label_of(rows.iter().map(|r| &r.label));
    let (series, y_label, title, y2_label) = match kind {
        ChartKind::FirstBox => (
            first_box_series(rows),
            "beads",
            "beads in the first box",
            None,
        ),
        ChartKind::Score => (score_series(rows), SCORE.0, SCORE.1, None),
        _ => (
            bead_series(rows),
            "beads left",
            "beads left and boxes emptied",
            Some("boxes emptied".to_string()),
        ),
    };
    let (title, subtitle) = titles(&label, title, None);
    ChartSpec {
        title,
        subtitle,
        x_label: "games played".into(),
        y_label: y_label.into(),
        y2_label,
        kind: Kind::Lines,
        series,
    }
}

fn index_chart(kind: ChartKind, rows: &[IndexRow]) -> ChartSpec {
    let mut variants: Vec<&str> = Vec::new();
    for r in rows {
        if !variants.contains(&r.variant.as_str()) {
            variants.push(&r.variant);
        }
    }
    let label = label_of(rows.iter().map(|r| &r.label));
    fn of<'a>(rows: &'a [IndexRow], v: &'a str) -> impl Iterator<Item = &'a IndexRow> + 'a {
        rows.iter().filter(move |r| r.variant == v)
    }
    let name = |v: &str| {
        if v.is_empty() {
            "mean".to_string()
        } else {
            v.to_string()
        }
    };
    let (series, y_label, x_label, bars): (Vec<Series>, &str, &str, bool) = match kind {
        ChartKind::LossRate => (
            variants
                .iter()
                .map(|v| Series {
                    name: name(v),
                    points: of(rows, v).map(|r| (r.game as f64, r.loss_rate)).collect(),
                    band: Some(
                        of(rows, v)
                            .map(|r| (r.game as f64, r.loss_rate_low, r.loss_rate_high))
                            .collect(),
                    ),
                    reference: false,
                    secondary: false,
                    colour: None,
                })
                .collect(),
            "share of runs that lost the game",
            "game",
            false,
        ),
        ChartKind::CumulativeLosses => (
            variants
                .iter()
                .map(|v| Series {
                    name: name(v),
                    points: std::iter::once((0.0, 0.0))
                        .chain(of(rows, v).map(|r| (r.game as f64, r.mean_cumulative_losses)))
                        .collect(),
                    band: Some(
                        of(rows, v)
                            .map(|r| {
                                (
                                    r.game as f64,
                                    r.cumulative_losses_low,
                                    r.cumulative_losses_high,
                                )
                            })
                            .collect(),
                    ),
                    reference: false,
                    secondary: false,
                    colour: None,
                })
                .collect(),
            "losses so far (mean per run)",
            "games played",
            false,
        ),
        _ => (
            variants
                .iter()
                .map(|v| {
                    Series::line(
                        name(v),
                        of(rows, v)
                            .filter(|r| r.runs_with_last_loss_here > 0)
                            .map(|r| (r.game as f64, r.runs_with_last_loss_here as f64))
                            .collect(),
                    )
                })
                .collect(),
            "runs",
            "game of the last loss",
            variants.len() == 1,
        ),
    };
    let runs = rows.first().map_or(0, |r| r.runs);
    let (title, subtitle) = titles(&label, kind.name(), Some(runs));
    ChartSpec {
        title,
        subtitle,
        x_label: x_label.into(),
        y_label: y_label.into(),
        y2_label: None,
        kind: if bars { Kind::Bars } else { Kind::Lines },
        series,
    }
}

/// The exact chance each game is lost, drawn dashed over the simulated band: a line for each
/// variant whose rows carry it.
fn exact_lines(rows: &[IndexRow]) -> Vec<Series> {
    let mut variants: Vec<&str> = Vec::new();
    for r in rows {
        if !variants.contains(&r.variant.as_str()) {
            variants.push(&r.variant);
        }
    }
    (variants.iter())
        .filter_map(|&v| exact_series(rows.iter().filter(|r| r.variant == v).collect(), v))
        .collect()
}

fn exact_series(rows: Vec<&IndexRow>, variant: &str) -> Option<Series> {
    let points: Vec<(f64, f64)> = (rows.iter())
        .filter_map(|r| Some((r.game as f64, r.exact_loss_rate?)))
        .collect();
    if points.is_empty() {
        return None;
    }
    let name = match variant {
        "" => "exact".to_string(),
        v => format!("{v}, exact"),
    };
    let mut s = Series::line(name, points);
    s.reference = true;
    Some(s)
}
