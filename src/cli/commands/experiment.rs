//! TODO

use super::*;

/// The variants of `--compare KEY=V1,V2`: each value applied to a copy of the options.
pub(super) fn variants(
    base: &LearnArgs,
    compare: Option<&str>,
) -> Result<Vec<(String, LearnArgs)>> {
    let Some(spec) = compare else {
        return Ok(vec![(String::new(), base.clone())]);
    };
    let (key, values) = spec.split_once('=').with_context(|| {
        format!("--compare `{spec}`: use KEY=V1,V2, e.g. symmetry=full,gardner")
    })?;
    let mut out = Vec::new();
    for v in values.split(',').map(str::trim).filter(|v| !v.is_empty()) {
        let mut a = base.clone();
        let bad = |e: String| anyhow::anyhow!("--compare {key}: `{v}`: {e}");
        match key.trim() {
            "symmetry" => {
                a.set.symmetry = Some(v.parse::<SymmetryMode>().map_err(|e| bad(e.to_string()))?);
            }
            "reinforcement" => {
                a.machine.reinforcement =
                    Some(v.parse().map_err(|e: LearnError| bad(e.to_string()))?);
            }
            "preset" => {
                a.machine.preset = Some(v.parse::<Preset>().map_err(|e| bad(e.to_string()))?);
                a.machine.beads = None;
                a.machine.reinforcement = None;
            }
            "beads" => {
                a.machine.beads = Some(v.parse().map_err(|e: LearnError| bad(e.to_string()))?)
            }
            "opponent" => a.opponent = Some(v.parse().map_err(bad)?),
            other => bail!(
                "--compare: cannot compare `{other}` (use symmetry, reinforcement, preset, beads or opponent)"
            ),
        }
        out.push((format!("{key} {v}"), a));
    }
    if out.len() < 2 {
        bail!("--compare {key}: give at least two values, e.g. {key}=a,b");
    }
    Ok(out)
}

/// A run's label without the settings that `--compare` varies (they are in the legend).
pub(super) fn compared_label(label: &str, compare: Option<&str>) -> String {
    let Some(key) = compare
        .and_then(|c| c.split_once('='))
        .map(|(k, _)| k.trim())
    else {
        return label.to_string();
    };
    let varied: &[&str] = match key {
        "preset" => &["reinforcement", "beads"],
        "symmetry" => &["symmetry"],
        "reinforcement" => &["reinforcement"],
        "beads" => &["beads"],
        _ => &[],
    };
    label
        .split(" · ")
        .enumerate()
        .filter_map(|(i, part)| {
            if i == 0 && key == "opponent" {
                // `HER (black) v perfect player` → `HER (black)`
                return Some(part.split(" v ").next().unwrap_or(part).to_string());
            }
            (!varied.iter().any(|v| part.contains(v))).then(|| part.to_string())
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The most game indices an experiment's chart takes (its rows are held in memory); the CSV
/// streams any number.
pub(super) const MAX_CHART_GAMES: usize = 1_000_000;

/// The most games per run of an experiment: its statistics are kept per game index (about 40
/// bytes per game index for each thread).
pub(super) const MAX_EXPERIMENT_GAMES: usize = 10_000_000;

pub(super) fn experiment<G: FullGame>(game: G, a: &ExperimentArgs) -> Result<()> {
    check_outputs(&a.output, &[])?;
    let games = a.learn.games.unwrap_or(50);
    if a.runs == 0 {
        bail!("--runs 0: an experiment needs at least one run");
    }
    if games == 0 {
        bail!("--games 0: an experiment needs at least one game per run");
    }
    if games > MAX_EXPERIMENT_GAMES {
        bail!(
            "--games {}: an experiment keeps statistics for every game index, up to {} games per run; for one long run use `train`",
            crate::text::group(games as u64),
            crate::text::group(MAX_EXPERIMENT_GAMES as u64)
        );
    }
    let variants = variants(&a.learn, a.compare.as_deref())?;
    let bar = progress(a.runs * variants.len());
    let tick = || {
        if let Some(b) = &bar {
            b.inc(1);
        }
    };
    if a.output.plot.is_some() && games > MAX_CHART_GAMES {
        bail!(
            "--plot: an experiment's chart takes up to {} games per run; write --csv instead",
            crate::text::group(MAX_CHART_GAMES as u64)
        );
    }
    let mut rows = Vec::new();
    let mut csv = match &a.output.csv {
        Some(path) => Some(csv::Writer::from_writer(store::AtomicWriter::create(path)?)),
        None => None,
    };
    let mut reports = Vec::new();
    for (name, args) in &variants {
        let s = Setup::new(game.clone(), args)?;
        if !a.learn.json {
            let title = if name.is_empty() {
                "experiment".to_string()
            } else {
                format!("experiment ({name})")
            };
            print!(
                "{}",
                s.header(
                    &title,
                    &[
                        ("runs", format!("{} (run i seeded from seed and i)", a.runs)),
                        ("games", format!("{games} per run")),
                    ]
                )
            );
        }
        // One short run on this thread says how long the whole will take.
        let probe_games = games.min(10_000);
        let started = std::time::Instant::now();
        s.experiment(1, probe_games, &|| {});
        let per_game = started.elapsed().as_secs_f64() / probe_games as f64;
        let threads = rayon::current_num_threads() as f64;
        let total = a.runs as f64 * games as f64 * per_game / threads;
        const YEAR: f64 = 365.25 * 86400.0;
        if total > YEAR {
            bail!(
                "this experiment would take about {:.0} years; ask for fewer runs or games",
                total / YEAR
            );
        }
        if total > 120.0 {
            eprintln!(
                "about {} to go ({} runs × {} games on {} threads; Ctrl-C stops)",
                crate::text::duration_text(total),
                crate::text::group(a.runs as u64),
                crate::text::group(games as u64),
                threads
            );
        }
        let result = s.experiment(a.runs, games, &tick);
        let label = compared_label(&s.label(), a.compare.as_deref());
        for row in chart::data::index_rows(name, &label, &result) {
            if let Some(w) = &mut csv {
                w.serialize(&row)?;
            }
            if a.output.plot.is_some() {
                rows.push(row);
            }
        }
        reports.push((name.clone(), s.settings_json(), result));
    }
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if let (Some(w), Some(path)) = (csv, &a.output.csv) {
        w.into_inner()
            .map_err(|e| anyhow::anyhow!("{}: {}", path.display(), e.error()))?
            .commit()?;
    }
    if let Some(path) = &a.output.plot {
        let kind = a.output.chart.unwrap_or(ChartKind::LossRate);
        let spec = chart::data::chart(kind, &Rows::Index(rows))?;
        let bytes = chart::exporter_for(path)?.export(&spec)?;
        store::save_atomic_bytes(path, &bytes)?;
    }
    let window =
        |rates: &[f64], from: usize, to: usize| ExperimentResult::mean_over(rates, from, to);
    let last = games.saturating_sub(19).max(1);
    let report_json = |settings: &Value, result: &ExperimentResult| {
        let loss_rate = result.loss_rate();
        let kept = result.loss_rate_first_box_kept();
        json!({
            "settings": settings,
            "runs": a.runs,
            "games": games,
            "mean_losses": result.mean_losses(),
            "loss_rate": loss_rate,
            "draw_rate": result.draw_rate(),
            "win_rate": result.win_rate(),
            "first_box_empty": result.first_box_empty_share(),
            "mean_last_loss": result.mean_last_loss(),
            "last_loss_histogram": result.last_loss,
            "clean_last_20": result.share_clean_last(20),
            "loss_rate_first_box_kept": kept,
            "summary": {
                "loss_rate_first_20": window(&loss_rate, 1, 20),
                "loss_rate_last_20": window(&loss_rate, last, games),
                "loss_rate_last_20_first_box_kept": window(&kept, last, games),
                "win_rate_last_20": window(&result.win_rate(), last, games),
                "draw_rate_last_20": window(&result.draw_rate(), last, games),
            },
        })
    };
    if a.learn.json {
        if a.compare.is_none() {
            let (_, settings, result) = &reports[0];
            print_json(&report_json(settings, result));
        } else {
            let list: Vec<Value> = reports
                .iter()
                .map(|(name, settings, result)| {
                    let mut v = report_json(settings, result);
                    v["variant"] = json!(name);
                    v
                })
                .collect();
            print_json(&json!({ "runs": a.runs, "games": games, "variants": list }));
        }
        return Ok(());
    }
    for (name, _, result) in &reports {
        let loss_rate = result.loss_rate();
        let kept = result.loss_rate_first_box_kept();
        let who = if name.is_empty() {
            String::new()
        } else {
            format!(" [{name}]")
        };
        println!(
            "\n{} runs × {games} games{who}: {:.3} losses per run on average",
            a.runs,
            result.mean_losses()
        );
        if a.compare.is_none() {
            println!("share of runs that lost game g:");
            for g in [1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 500, 1000] {
                if g <= games {
                    println!("  game {g:>5}: {:.4}", loss_rate[g - 1]);
                }
            }
        }
        println!(
            "games 1-{}: lost {:.4}; games {last}-{games}: lost {:.4}, drawn {:.4}, won {:.4}",
            games.min(20),
            window(&loss_rate, 1, 20),
            window(&loss_rate, last, games),
            window(&result.draw_rate(), last, games),
            window(&result.win_rate(), last, games),
        );
        println!(
            "last loss at game {:.1} on average; {:.4} of runs lost none of their last 20 games",
            result.mean_last_loss(),
            result.share_clean_last(20)
        );
        println!(
            "first box empty at the end (resigns every game): {:.4} of runs; games {last}-{games} lost by the others: {:.4}",
            result.first_box_empty_share(),
            window(&kept, last, games)
        );
    }
    for (what, path) in [("chart", &a.output.plot), ("table", &a.output.csv)] {
        if let Some(p) = path {
            println!("{what} written to {}", p.display());
        }
    }
    Ok(())
}
