//! TODO

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

pub(super) fn count<G: FullGame>(game: G, a: &CountArgs) -> Result<()> {
    let preset = game.default_preset();
    let beads = a.beads.clone().unwrap_or_else(|| preset.beads());
    let mut rows = Vec::new();
    for side in [Side::First, Side::Second] {
        let bound = game.position_bound(side);
        match bound {
            // Every board that `boxes` and `solve` can list is counted exactly.
            Some((b, method)) if !crate::cli::setup::enumerable(&game) => {
                for (mode, factor, note) in [
                    (SymmetryMode::None, 1.0, method.to_string()),
                    (
                        SymmetryMode::Full,
                        1.0 / game.symmetry_count() as f64,
                        format!(
                            "estimate: the bound shared by the {} symmetries",
                            game.symmetry_count()
                        ),
                    ),
                ] {
                    let forced = game.default_forced();
                    if let Some(counts) = own_count(&game, side, mode, forced, a.json) {
                        let beads_total = own_count_beads(&counts, &beads);
                        rows.push((
                            side,
                            mode,
                            counts.total_boxes() as f64,
                            Some(counts.total_arrows()),
                            Some(beads_total),
                            "exact: every reachable position counted, move by move".to_string(),
                        ));
                        continue;
                    }
                    let boxes = b * factor;
                    rows.push((side, mode, boxes, None, None, note));
                }
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
                    rows.push((
                        side,
                        mode,
                        set.len() as f64,
                        Some(set.arrow_count() as u64),
                        Some(beads_total),
                        "exact: every reachable position enumerated".to_string(),
                    ));
                }
            }
        }
    }
    if a.json {
        let list: Vec<Value> = rows
            .iter()
            .map(|(side, mode, boxes, arrows, bead_total, method)| {
                let (volume, cube) = pile(*boxes);
                json!({
                    "side": game.side_name(*side),
                    "symmetry": mode.to_string(),
                    "boxes": boxes,
                    "arrows": arrows,
                    "beads": bead_total,
                    "method": method,
                    "volume": volume,
                    "volume_litres": boxes * MATCHBOX_LITRES,
                    "cube_side_m": cube,
                })
            })
            .collect();
        print_json(&json!({
            "game": game.name(),
            "size": game.variant(),
            "initial_beads": beads.to_string(),
            "matchbox_mm": [53, 36, 14],
            "counts": list,
        }));
        return Ok(());
    }
    println!(
        "{} {}: matchboxes of 53 × 36 × 14 mm; beads per arrow: {}",
        game.name(),
        game.variant(),
        beads
    );
    println!(
        "  {:<7} {:<9} {:>12} {:>11} {:>11}  {:<16} {:>10}  how",
        "side", "symmetry", "boxes", "arrows", "beads", "pile", "cube side"
    );
    for (side, mode, boxes, arrows, bead_total, method) in &rows {
        let (volume, cube) = pile(*boxes);
        let cube = if cube < 1.0 {
            format!("{:.0} cm", cube * 100.0)
        } else if cube < 1000.0 {
            format!("{cube:.1} m")
        } else {
            format!("{:.1} km", cube / 1000.0)
        };
        let n = if *boxes < 1e12 {
            crate::text::group(*boxes as u64)
        } else {
            format!("{boxes:.2e}")
        };
        let opt = |x: &Option<u64>| x.map_or("–".to_string(), crate::text::group);
        println!(
            "  {:<7} {:<9} {:>12} {:>11} {:>11}  {:<16} {:>10}  {method}",
            game.side_name(*side),
            mode.to_string(),
            n,
            opt(arrows),
            opt(bead_total),
            volume,
            cube
        );
    }
    Ok(())
}
