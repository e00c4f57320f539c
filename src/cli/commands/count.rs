//! `count`: how many matchboxes, arrows and beads each learner of a game needs, and how big
//! the pile would be.

use std::fmt;

use serde::Serialize;

use super::boxes::{own_count, own_count_beads};
use super::*;

/// An ordinary matchbox, outside: 53 × 36 × 14 mm.
pub(super) const MATCHBOX_LITRES: f64 = 0.053 * 0.036 * 0.014 * 1000.0;

pub(super) fn pile(boxes: f64) -> (String, f64) {
    let litres = boxes * MATCHBOX_LITRES;
    let side_m = (litres / 1000.0).cbrt();
    let volume = if litres < 1000.0 {
        format!("{litres:.1} litres")
    } else if litres < 1e12 {
        format!("{:.1} m³", litres / 1000.0)
    } else {
        format!("{:.2e} m³", litres / 1000.0)
    };
    (volume, side_m)
}

/// One learner's count: its boxes, arrows and beads, and the pile they make.
#[derive(Serialize)]
struct CountRow {
    side: &'static str,
    symmetry: String,
    /// A whole number where counted, an estimate (a float) where sampled.
    #[serde(serialize_with = "whole_where_counted")]
    boxes: f64,
    arrows: Option<u64>,
    beads: Option<u64>,
    method: String,
    volume: String,
    volume_litres: f64,
    cube_side_m: f64,
    /// Boxes where every move loses at once (counted where the boxes are listed).
    #[serde(skip_serializing_if = "Option::is_none")]
    lost_at_once: Option<u64>,
}

/// A count as JSON: an integer when it is one (a box count enumerated), else the float.
fn whole_where_counted<S: serde::Serializer>(n: &f64, s: S) -> Result<S::Ok, S::Error> {
    if n.fract() == 0.0 && *n >= 0.0 && *n < 9.0e15 {
        s.serialize_u64(*n as u64)
    } else {
        s.serialize_f64(*n)
    }
}

impl CountRow {
    fn new(
        side: &'static str,
        mode: SymmetryMode,
        boxes: f64,
        totals: Option<(u64, u64)>,
        method: String,
    ) -> CountRow {
        let (volume, cube) = pile(boxes);
        CountRow {
            side,
            symmetry: mode.to_string(),
            boxes,
            arrows: totals.map(|t| t.0),
            beads: totals.map(|t| t.1),
            method,
            volume,
            volume_litres: boxes * MATCHBOX_LITRES,
            cube_side_m: cube,
            lost_at_once: None,
        }
    }
}

/// How many matchboxes each learner of a game needs.
#[derive(Serialize)]
pub(super) struct CountReport {
    game: &'static str,
    size: String,
    initial_beads: String,
    matchbox_mm: [u32; 3],
    counts: Vec<CountRow>,
}

impl fmt::Display for CountReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} {}: matchboxes of 53 × 36 × 14 mm; beads per arrow: {}",
            self.game, self.size, self.initial_beads
        )?;
        writeln!(
            f,
            "  {:<7} {:<9} {:>12} {:>11} {:>11}  {:<16} {:>10}  how",
            "side", "symmetry", "boxes", "arrows", "beads", "pile", "cube side"
        )?;
        for r in &self.counts {
            let cube = r.cube_side_m;
            let cube = if cube < 1.0 {
                format!("{:.0} cm", cube * 100.0)
            } else if cube < 1000.0 {
                format!("{cube:.1} m")
            } else {
                format!("{:.1} km", cube / 1000.0)
            };
            let n = if r.boxes < 1e12 {
                crate::text::group(r.boxes as u64)
            } else {
                format!("{:.2e}", r.boxes)
            };
            let opt = |x: &Option<u64>| x.map_or("–".to_string(), crate::text::group);
            writeln!(
                f,
                "  {:<7} {:<9} {:>12} {:>11} {:>11}  {:<16} {:>10}  {}",
                r.side,
                r.symmetry,
                n,
                opt(&r.arrows),
                opt(&r.beads),
                r.volume,
                cube,
                r.method
            )?;
        }
        for r in &self.counts {
            if let Some(n @ 1..) = r.lost_at_once {
                writeln!(
                    f,
                    "  {} {}: in {} of the {} boxes every move loses at once; {} without them",
                    r.side,
                    r.symmetry,
                    crate::text::group(n),
                    crate::text::group(r.boxes as u64),
                    crate::text::group(r.boxes as u64 - n),
                )?;
            }
        }
        Ok(())
    }
}

/// The counts of a side on a board too big to enumerate: the game's own exact count, or the
/// bound on its positions (shared by the symmetries for full symmetry).
fn counted_rows<G: FullGame>(
    game: &G,
    side: Side,
    bound: (f64, &str),
    beads: &StageBeads,
    quiet: bool,
) -> Vec<CountRow> {
    let mut rows = Vec::new();
    let (b, method) = bound;
    let shared = format!(
        "estimate: the bound shared by the {} symmetries",
        game.symmetry_count()
    );
    for (mode, factor, note) in [
        (SymmetryMode::None, 1.0, method.to_string()),
        (
            SymmetryMode::Full,
            1.0 / game.symmetry_count() as f64,
            shared,
        ),
    ] {
        let name = game.side_name(side);
        match own_count(game, side, mode, game.default_forced(), quiet) {
            Some(counts) => rows.push(CountRow::new(
                name,
                mode,
                counts.total_boxes() as f64,
                Some((counts.total_arrows(), own_count_beads(&counts, beads))),
                "exact: every reachable position counted, move by move".to_string(),
            )),
            None => rows.push(CountRow::new(name, mode, b * factor, None, note)),
        }
    }
    rows
}

pub(super) fn count<G: FullGame>(game: G, a: &CountArgs, out: Out) -> Result<CountReport> {
    let preset = game.default_preset();
    let beads = a.beads.clone().unwrap_or_else(|| preset.beads());
    let mut rows = Vec::new();
    for side in [Side::First, Side::Second] {
        match game.position_bound(side) {
            // Every board that `boxes` and `solve` can list is counted exactly.
            Some((b, method)) if !crate::cli::setup::enumerable(&game) => {
                rows.extend(counted_rows(
                    &game,
                    side,
                    (b, method),
                    &beads,
                    out.is_json(),
                ));
            }
            _ => {
                for &mode in game.symmetry_modes() {
                    let set = crate::cli::setup::enumerate_boxes(
                        &game,
                        side,
                        mode,
                        game.default_forced(),
                    );
                    let beads_total: u64 = (0..set.len())
                        .map(|b| {
                            beads.for_stage(set.stage(b) as usize).get() as u64
                                * set.arrows(b).len() as u64
                        })
                        .sum();
                    let mut row = CountRow::new(
                        game.side_name(side),
                        mode,
                        set.len() as f64,
                        Some((set.arrow_count() as u64, beads_total)),
                        "exact: every reachable position enumerated".to_string(),
                    );
                    row.lost_at_once = Some(set.lost_at_once(&game) as u64);
                    rows.push(row);
                }
            }
        }
    }
    Ok(CountReport {
        game: game.name(),
        size: game.variant(),
        initial_beads: beads.to_string(),
        matchbox_mm: [53, 36, 14],
        counts: rows,
    })
}
