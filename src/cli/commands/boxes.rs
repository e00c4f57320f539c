//! TODO

use super::*;

/// The most boxes `boxes --labels` labels: 5,000 labels fill about 280 pages.
pub(super) const MAX_LABELS: usize = 5_000;

pub(super) fn boxes<G: FullGame>(game: G, a: &BoxesArgs) -> Result<()> {
    // A trained machine from a file: its boxes with the beads they hold now.
    let trained = match &a.boxes {
        Some(path) => {
            let given = [
                (a.beads.is_some(), "--beads"),
                (a.preset.is_some(), "--preset"),
                (a.set.side.is_some(), "--side"),
                (a.set.symmetry.is_some(), "--symmetry"),
                (
                    a.set.include_forced || a.set.skip_forced,
                    "--include-forced",
                ),
            ];
            if let Some((_, option)) = given.iter().find(|g| g.0) {
                bail!(
                    "{}: --boxes lists the file's machine as it is; {option} is for a new machine",
                    path.display()
                );
            }
            Some(store::from_yaml(&game, path, &store::read(path)?)?)
        }
        None => None,
    };
    if trained.is_none()
        && a.count
        && a.labels.is_none()
        && !a.bead_list
        && !crate::cli::setup::enumerable(&game)
    {
        let (side, mode, forced) = crate::cli::setup::set_choice(&game, &SetOptions::from(&a.set))?;
        if let Some(counts) = own_count(&game, side, mode, forced, a.json) {
            return print_own_count(&game, side, mode, a, &counts);
        }
    }
    let (set, initial) = match &trained {
        Some(m) => (Arc::clone(&m.boxes), m.initial.clone()),
        None => (
            Arc::new(box_set_choice(&game, &SetOptions::from(&a.set))?),
            a.beads
                .clone()
                .unwrap_or_else(|| a.preset.unwrap_or_else(|| game.default_preset()).beads()),
        ),
    };
    let colours: crate::palette::BeadColours = a.bead_colours.into();
    let beads = match &trained {
        Some(m) => {
            labels::LabelBeads::counts(|b| m.beads_in(b).iter().map(|n| n.get()).collect(), colours)
        }
        None => labels::LabelBeads::initial(&set, &initial, colours),
    };
    let (side, mode) = (set.side(), set.mode());
    let total_beads: u64 = (0..set.len())
        .map(|b| beads.of(b).iter().map(|&n| n as u64).sum::<u64>())
        .sum();
    let by_move: serde_json::Map<String, Value> = set
        .by_move()
        .into_iter()
        .map(|(m, n)| (m.to_string(), json!(n)))
        .collect();
    let bead_list = labels::bead_list(&game, &set, &beads);
    let what = match &trained {
        Some(m) => format!("beads after {} games", crate::text::group(m.games_played)),
        None => format!("beads {initial}"),
    };
    if let Some(path) = &a.labels {
        // Every page is held, and then the whole PDF: a machine of tens of thousands of boxes
        // would take minutes and gigabytes for a pile no class builds.
        if set.len() > MAX_LABELS {
            bail!(
                "{} {}: {} boxes are too many to label (labels are made for machines of up to {} boxes; octopawn's 2,943 fill 164 pages); `boxes --count` gives the numbers",
                game.name(),
                game.variant(),
                crate::text::group(set.len() as u64),
                crate::text::group(MAX_LABELS as u64)
            );
        }
        let title = format!(
            "{}{} {} · {} · {} · {what}{}",
            game.nickname(side, mode)
                .map(|n| format!("{n}: "))
                .unwrap_or_default(),
            game.name(),
            game.variant(),
            game.side_name(side),
            mode.words(),
            match colours {
                crate::palette::BeadColours::ByCell => " · a colour per cell",
                crate::palette::BeadColours::ByArrow => "",
            }
        );
        let layout = labels::Layout {
            paper: a.paper,
            label: a.label_size,
        };
        let pages = labels::sheets(&game, &set, &beads, &title, layout);
        let stem = path.with_extension("");
        let pdf_path = stem.with_extension("pdf");
        let files: Vec<PathBuf> = (1..=pages.len())
            .map(|i| PathBuf::from(format!("{}-{i}.svg", stem.display())))
            .collect();
        for file in files.iter().chain([&pdf_path]) {
            store::check_writable(file)?;
        }
        let pdf = labels::pdf::pages_to_pdf(&pages)?;
        for (file, page) in files.iter().zip(&pages) {
            store::save_atomic(file, page)?;
        }
        store::save_atomic_bytes(&pdf_path, &pdf)?;
        let stale = remove_stale_pages(&stem, pages.len());
        if !a.json {
            println!(
                "labels: {} pages written to {} … {}, and all of them to {} (one file to print)",
                pages.len(),
                files[0].display(),
                files[files.len() - 1].display(),
                pdf_path.display()
            );
            if stale > 0 {
                println!(
                    "  removed {} from an earlier run with more pages ({}-{}.svg on)",
                    crate::text::count(stale as u64, "stale page", "stale pages"),
                    stem.display(),
                    pages.len() + 1
                );
            }
        }
    }
    if a.json {
        let mut v = json!({
            "bead_list": bead_list.iter().map(|(name, code, n)| json!({"colour": name, "code": code.to_string(), "beads": n})).collect::<Vec<_>>(),
            "game": game.name(),
            "size": game.variant(),
            "side": game.side_name(side),
            "symmetry": mode.to_string(),
            "boxes": set.len(),
            "arrows": set.arrow_count(),
            "beads": total_beads,
            "initial_beads": initial.to_string(),
            "bead_colours": colours.to_string(),
            "by_move": by_move,
        });
        if let Some(m) = &trained {
            v["games_played"] = json!(m.games_played);
        }
        if !a.count {
            v["box_list"] = set
                .iter()
                .enumerate()
                .map(|(i, b)| {
                    json!({
                        "box": i + 1,
                        "move": b.move_number(),
                        "position": game.format_position(&b.position),
                        "arrows": b.arrows.iter().map(|&m| game.format_move(m)).collect::<Vec<_>>(),
                        "beads": beads.of(i),
                    })
                })
                .collect();
        }
        print_json(&v);
        return Ok(());
    }
    let name = game
        .nickname(side, mode)
        .map(|n| format!("{n}: "))
        .unwrap_or_default();
    let per_move: Vec<String> = set
        .by_move()
        .iter()
        .map(|(m, n)| format!("move {m}: {}", crate::text::group(*n as u64)))
        .collect();
    let amount = match &trained {
        Some(m) => format!(
            "{} beads after {} games",
            crate::text::group(total_beads),
            crate::text::group(m.games_played)
        ),
        None => format!(
            "{} beads at {initial} per arrow",
            crate::text::group(total_beads)
        ),
    };
    println!(
        "{name}{} {}, learner {}, symmetry {}: {} boxes, {} arrows, {amount} ({})",
        game.name(),
        game.variant(),
        game.side_name(side),
        mode,
        crate::text::group(set.len() as u64),
        crate::text::group(set.arrow_count() as u64),
        per_move.join(", ")
    );
    if a.bead_list {
        println!("beads to buy:");
        for (name, code, n) in &bead_list {
            println!("  {code} {name:<10} {}", crate::text::group(*n));
        }
    }
    if a.count || a.bead_list || a.labels.is_some() {
        return Ok(());
    }
    let cards: Vec<Vec<String>> = set
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let mut card = vec![format!("Box {} · move {}", i + 1, b.move_number())];
            card.extend(game.diagram(&b.position));
            let counts = beads.of(i);
            card.extend(b.arrows.iter().enumerate().map(|(k, &m)| {
                let (colour, _, letter) = labels::bead(beads.colour(&game, k, m));
                format!(
                    "  {letter} {} ×{} ({colour})",
                    game.format_move(m),
                    counts.get(k).copied().unwrap_or(0)
                )
            }));
            card
        })
        .collect();
    print!("{}", lay_out(&cards, 4));
    Ok(())
}

/// The game's own exact count of a learner's boxes, with the move numbers on stderr as it goes
/// (unless quiet).
pub(super) fn own_count<G: FullGame>(
    game: &G,
    side: Side,
    mode: SymmetryMode,
    forced: Forced,
    quiet: bool,
) -> Option<BoxCounts> {
    let bar = (!quiet).then(|| {
        let bar = ProgressBar::new_spinner();
        bar.set_message(format!(
            "counting {} {} boxes move by move",
            game.name(),
            game.variant()
        ));
        bar
    });
    let counts = game.own_count(side, mode, forced, &|m| {
        if let Some(bar) = &bar {
            bar.set_message(format!("counting boxes: move {m}"));
            bar.tick();
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    counts
}

/// The beads a counted machine starts with: the learner's moves come every other ply, so its
/// stage at move m is (m − its first move) / 2.
pub(super) fn own_count_beads(counts: &BoxCounts, initial: &StageBeads) -> u64 {
    let first = *counts.boxes.keys().next().unwrap_or(&0);
    counts
        .arrows
        .iter()
        .map(|(&m, &n)| initial.for_stage(((m - first) / 2) as usize).get() as u64 * n)
        .sum()
}

/// `boxes --count` from a game's own count (no box list: the boxes are not made).
pub(super) fn print_own_count<G: FullGame>(
    game: &G,
    side: Side,
    mode: SymmetryMode,
    a: &BoxesArgs,
    counts: &BoxCounts,
) -> Result<()> {
    let initial = a
        .beads
        .clone()
        .unwrap_or_else(|| a.preset.unwrap_or_else(|| game.default_preset()).beads());
    let beads = own_count_beads(counts, &initial);
    if a.json {
        let by_move: serde_json::Map<String, Value> = counts
            .boxes
            .iter()
            .map(|(m, n)| (m.to_string(), json!(n)))
            .collect();
        print_json(&json!({
            "game": game.name(),
            "size": game.variant(),
            "side": game.side_name(side),
            "symmetry": mode.to_string(),
            "boxes": counts.total_boxes(),
            "arrows": counts.total_arrows(),
            "beads": beads,
            "initial_beads": initial.to_string(),
            "by_move": by_move,
        }));
        return Ok(());
    }
    let per_move: Vec<String> = counts
        .boxes
        .iter()
        .map(|(m, n)| format!("move {m}: {}", crate::text::group(*n)))
        .collect();
    println!(
        "{} {}, learner {}, symmetry {}: {} boxes, {} arrows, {} beads at {} per arrow ({})",
        game.name(),
        game.variant(),
        game.side_name(side),
        mode,
        crate::text::group(counts.total_boxes()),
        crate::text::group(counts.total_arrows()),
        crate::text::group(beads),
        initial,
        per_move.join(", ")
    );
    Ok(())
}

/// Text cards side by side, `per_row` to a row.
pub(super) fn lay_out(cards: &[Vec<String>], per_row: usize) -> String {
    let width = cards
        .iter()
        .flatten()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        + 4;
    let mut out = String::new();
    for row in cards.chunks(per_row) {
        out.push('\n');
        let height = row.iter().map(Vec::len).max().unwrap_or(0);
        for line in 0..height {
            let mut text = String::new();
            for card in row {
                let cell = card.get(line).map(String::as_str).unwrap_or("");
                text.push_str(&format!("{cell:<width$}"));
            }
            out.push_str(text.trim_end());
            out.push('\n');
        }
    }
    out
}

/// Removes the pages `STEM-(N+1).svg`, `STEM-(N+2).svg`, … that an earlier run with more pages
/// left (SVG files only, as long as they follow on), so the folder holds this machine's labels
/// and no others. Returns how many were removed.
pub(super) fn remove_stale_pages(stem: &std::path::Path, pages: usize) -> usize {
    let mut removed = 0;
    for k in pages + 1.. {
        let page = PathBuf::from(format!("{}-{k}.svg", stem.display()));
        let is_svg = || -> std::io::Result<bool> {
            use std::io::Read;
            if !std::fs::metadata(&page)?.is_file() {
                return Ok(false);
            }
            let mut head = [0u8; 5];
            std::fs::File::open(&page)?.read_exact(&mut head)?;
            Ok(&head == b"<svg " || &head == b"<?xml")
        };
        let is_svg = is_svg().unwrap_or(false);
        if !is_svg || std::fs::remove_file(&page).is_err() {
            break;
        }
        removed += 1;
    }
    removed
}
