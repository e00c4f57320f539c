//! `boxes`: a learner's matchboxes listed, counted, shopped for (beads) and labelled.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use super::*;
use crate::learn::{BoxSet, Machine};
use crate::text::group;

use crate::labels::MAX_LABELS;

/// The most bytes of label pages made (MENACE's 304 labels are 3.9 MB of PDF).
const MAX_LABEL_BYTES: u64 = 200_000_000;

/// One colour of the bead shopping list.
#[derive(Serialize)]
struct BeadLine {
    colour: &'static str,
    code: String,
    beads: u64,
}

/// One box in the JSON list.
#[derive(Serialize)]
struct BoxLine {
    #[serde(rename = "box")]
    number: usize,
    #[serde(rename = "move")]
    move_number: u16,
    position: String,
    arrows: Vec<String>,
    beads: Vec<u32>,
}

/// The label files `--labels` wrote.
#[derive(Serialize)]
pub(super) struct LabelsWritten {
    pages: usize,
    first: String,
    last: String,
    pdf: String,
    stale: usize,
    stem: String,
}

impl fmt::Display for LabelsWritten {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "labels: {} pages written to {} … {}, and all of them to {} (one file to print)",
            self.pages, self.first, self.last, self.pdf
        )?;
        if self.stale > 0 {
            writeln!(
                f,
                "  removed {} from an earlier run with more pages ({}-{}.svg on)",
                crate::text::count(self.stale as u64, "stale page", "stale pages"),
                self.stem,
                self.pages + 1
            )?;
        }
        Ok(())
    }
}

/// A learner's boxes: how many, by move, the beads, and (unless counted only) each box.
#[derive(Serialize)]
pub(super) struct BoxesReport {
    #[serde(skip_serializing_if = "Option::is_none")]
    bead_list: Option<Vec<BeadLine>>,
    game: &'static str,
    size: String,
    side: &'static str,
    symmetry: String,
    boxes: u64,
    arrows: u64,
    beads: u64,
    initial_beads: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    bead_colours: Option<String>,
    by_move: BTreeMap<String, u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    games_played: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    box_list: Option<Vec<BoxLine>>,
    #[serde(skip)]
    nickname: Option<&'static str>,
    #[serde(skip)]
    show_bead_list: bool,
    #[serde(skip)]
    cards: Option<Vec<Vec<String>>>,
    #[serde(skip)]
    labels: Option<LabelsWritten>,
}

impl fmt::Display for BoxesReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(l) = &self.labels {
            write!(f, "{l}")?;
        }
        let mut moves: Vec<(u16, u64)> = self
            .by_move
            .iter()
            .filter_map(|(m, &n)| Some((m.parse().ok()?, n)))
            .collect();
        moves.sort_unstable();
        let per_move: Vec<String> = moves
            .iter()
            .map(|(m, n)| format!("move {m}: {}", group(*n)))
            .collect();
        let amount = match self.games_played {
            Some(g) => format!("{} beads after {} games", group(self.beads), group(g)),
            None => format!(
                "{} beads at {} per arrow",
                group(self.beads),
                self.initial_beads
            ),
        };
        writeln!(
            f,
            "{}{} {}, learner {}, symmetry {}: {} boxes, {} arrows, {amount} ({})",
            self.nickname.map(|n| format!("{n}: ")).unwrap_or_default(),
            self.game,
            self.size,
            self.side,
            self.symmetry,
            group(self.boxes),
            group(self.arrows),
            per_move.join(", ")
        )?;
        if let (true, Some(list)) = (self.show_bead_list, &self.bead_list) {
            writeln!(f, "beads to buy:")?;
            for b in list {
                writeln!(f, "  {} {:<10} {}", b.code, b.colour, group(b.beads))?;
            }
        }
        if let Some(cards) = &self.cards {
            write!(f, "{}", lay_out(cards, 4))?;
        }
        Ok(())
    }
}

/// The machine `boxes --boxes FILE` lists, refusing the options of a new machine beside it.
fn trained_machine<G: FullGame>(game: &G, a: &BoxesArgs) -> Result<Option<Machine<G>>> {
    let Some(path) = &a.boxes else {
        return Ok(None);
    };
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
    Ok(Some(store::load_machine(game, path)?))
}

pub(super) fn boxes<G: FullGame>(game: G, a: &BoxesArgs, out: Out) -> Result<BoxesReport> {
    // A trained machine from a file: its boxes with the beads they hold now.
    let trained = trained_machine(&game, a)?;
    if trained.is_none()
        && a.count
        && a.labels.is_none()
        && !a.bead_list
        && !crate::cli::setup::enumerable(&game)
    {
        let (side, mode, forced) =
            crate::cli::setup::set_choice(&game, &SetOptions::for_game(&a.set, &a.game.game))?;
        if let Some(counts) = own_count(&game, side, mode, forced, out.is_json()) {
            return Ok(own_count_report(&game, side, mode, a, &counts));
        }
    }
    let (set, initial) = match &trained {
        Some(m) => (Arc::clone(&m.boxes), m.initial.clone()),
        None => (
            Arc::new(box_set_choice(
                &game,
                &SetOptions::for_game(&a.set, &a.game.game),
            )?),
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
    let what = match &trained {
        Some(m) => format!("beads after {} games", group(m.games_played)),
        None => format!("beads {initial}"),
    };
    let labels = match &a.labels {
        Some(path) => Some(write_labels(&game, &set, &beads, &what, a, path)?),
        None => None,
    };
    let listed = !(a.count || a.bead_list || a.labels.is_some());
    let bead_list = labels::bead_list(&game, &set, &beads)
        .into_iter()
        .map(|(colour, code, beads)| BeadLine {
            colour,
            code: code.to_string(),
            beads,
        })
        .collect();
    Ok(BoxesReport {
        bead_list: Some(bead_list),
        game: game.name(),
        size: game.variant(),
        side: game.side_name(side),
        symmetry: mode.to_string(),
        boxes: set.len() as u64,
        arrows: set.arrow_count() as u64,
        beads: total_beads,
        initial_beads: initial.to_string(),
        bead_colours: Some(colours.to_string()),
        by_move: set
            .by_move()
            .into_iter()
            .map(|(m, n)| (m.to_string(), n as u64))
            .collect(),
        games_played: trained.as_ref().map(|m| m.games_played),
        box_list: (!a.count).then(|| box_list(&game, &set, &beads)),
        nickname: game.nickname(side, mode),
        show_bead_list: a.bead_list,
        cards: listed.then(|| box_cards(&game, &set, &beads)),
        labels,
    })
}

/// Every box for the JSON list.
fn box_list<G: FullGame>(game: &G, set: &BoxSet<G>, beads: &labels::LabelBeads) -> Vec<BoxLine> {
    set.iter()
        .enumerate()
        .map(|(i, b)| BoxLine {
            number: i + 1,
            move_number: b.move_number(),
            position: game.format_position(&b.position),
            arrows: b.arrows.iter().map(|&m| game.format_move(m)).collect(),
            beads: beads.of(i),
        })
        .collect()
}

/// Every box as a text card: its diagram and each arrow with its bead.
fn box_cards<G: FullGame>(
    game: &G,
    set: &BoxSet<G>,
    beads: &labels::LabelBeads,
) -> Vec<Vec<String>> {
    set.iter()
        .enumerate()
        .map(|(i, b)| {
            let mut card = vec![format!("Box {} · move {}", i + 1, b.move_number())];
            card.extend(game.diagram(&b.position));
            let counts = beads.of(i);
            card.extend(b.arrows.iter().enumerate().map(|(k, &m)| {
                let (colour, _, letter) = labels::bead(beads.colour(game, k, m));
                format!(
                    "  {letter} {} ×{} ({colour})",
                    game.format_move(m),
                    counts.get(k).copied().unwrap_or(0)
                )
            }));
            card
        })
        .collect()
}

/// Writes the label pages (SVG) and the PDF of all of them, and removes stale pages.
fn write_labels<G: FullGame>(
    game: &G,
    set: &BoxSet<G>,
    beads: &labels::LabelBeads,
    what: &str,
    a: &BoxesArgs,
    path: &std::path::Path,
) -> Result<LabelsWritten> {
    // Every page is held, and then the whole PDF: a machine of tens of thousands of boxes
    // would take minutes and gigabytes for a pile no class builds.
    if set.len() > MAX_LABELS {
        bail!(
            "{} {}: {} boxes are too many to label (labels are made for machines of up to {} boxes; octopawn's 2,943 fill 164 pages); `boxes --count` gives the numbers",
            game.name(),
            game.variant(),
            group(set.len() as u64),
            group(MAX_LABELS as u64)
        );
    }
    let title = labels::sheet_title(game, set, what, beads.colours);
    let layout = labels::Layout {
        paper: a.paper,
        label: a.label_size,
    };
    // What the pages will take (they are all held, and the PDF made of them), said before
    // they are made: refused past a bound, announced when big.
    let bytes = labels::estimated_bytes(game, set, beads, layout);
    if bytes > MAX_LABEL_BYTES {
        bail!(
            "{} {}: the labels of {} boxes would take about {} of SVG pages and a PDF of twice that, more than the {} of pages labels are made up to; `boxes --count` gives the numbers",
            game.name(),
            game.variant(),
            group(set.len() as u64),
            crate::text::bytes(bytes),
            crate::text::bytes(MAX_LABEL_BYTES)
        );
    }
    let mut steps = crate::cli::progress::Steps::new(
        bytes > 20_000_000,
        format!(
            "labels of {} boxes: about {} of SVG pages, a PDF of about {} and {} of memory; this takes a while",
            group(set.len() as u64),
            crate::text::bytes(bytes),
            crate::text::bytes(2 * bytes),
            crate::text::bytes(11 * bytes)
        ),
    );
    steps.next("drawing the pages and the PDF");
    let pages = labels::sheets(game, set, beads, &title, layout);
    let written = write_pages(&pages, &title, path)?;
    steps.end();
    Ok(written)
}

/// Writes label pages (SVG, `FILE-1.svg` …) and the PDF of all of them beside, each atomically,
/// and removes the pages a longer set of labels left there.
pub(super) fn write_pages(
    pages: &[String],
    title: &str,
    path: &std::path::Path,
) -> Result<LabelsWritten> {
    let stem = path.with_extension("");
    let pdf_path = stem.with_extension("pdf");
    let files: Vec<PathBuf> = (1..=pages.len())
        .map(|i| PathBuf::from(format!("{}-{i}.svg", stem.display())))
        .collect();
    for file in files.iter().chain([&pdf_path]) {
        store::check_writable(file)?;
        store::check_not_a_machine("--labels", file)?;
    }
    let pdf = labels::pdf::pages_to_pdf(pages, title)?;
    for (file, page) in files.iter().zip(pages) {
        store::save_atomic(file, page)?;
    }
    store::save_atomic_bytes(&pdf_path, &pdf)?;
    let stale = remove_stale_pages(&stem, pages.len());
    Ok(LabelsWritten {
        pages: pages.len(),
        first: files[0].display().to_string(),
        last: files[files.len() - 1].display().to_string(),
        pdf: pdf_path.display().to_string(),
        stale,
        stem: stem.display().to_string(),
    })
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
    let what = format!(
        "counting {} {} boxes move by move",
        game.name(),
        game.variant()
    );
    let mut steps = crate::cli::progress::Steps::spinner(!quiet, what);
    let counts = game.own_count(side, mode, forced, &|m| steps.detail(format!("move {m}")));
    steps.end();
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
pub(super) fn own_count_report<G: FullGame>(
    game: &G,
    side: Side,
    mode: SymmetryMode,
    a: &BoxesArgs,
    counts: &BoxCounts,
) -> BoxesReport {
    let initial = a
        .beads
        .clone()
        .unwrap_or_else(|| a.preset.unwrap_or_else(|| game.default_preset()).beads());
    BoxesReport {
        bead_list: None,
        game: game.name(),
        size: game.variant(),
        side: game.side_name(side),
        symmetry: mode.to_string(),
        boxes: counts.total_boxes(),
        arrows: counts.total_arrows(),
        beads: own_count_beads(counts, &initial),
        initial_beads: initial.to_string(),
        bead_colours: None,
        by_move: counts
            .boxes
            .iter()
            .map(|(m, n)| (m.to_string(), *n))
            .collect(),
        games_played: None,
        box_list: None,
        nickname: None,
        show_bead_list: false,
        cards: None,
        labels: None,
    }
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
/// left (label sheets matchbox drew only, known by their mark, as long as they follow on), so
/// the folder holds this machine's labels and no others; a file of that name that matchbox did
/// not draw is left alone. Returns how many were removed.
pub(super) fn remove_stale_pages(stem: &std::path::Path, pages: usize) -> usize {
    let mut removed = 0;
    for k in pages + 1.. {
        let page = PathBuf::from(format!("{}-{k}.svg", stem.display()));
        let ours = || -> std::io::Result<bool> {
            use std::io::Read;
            if !std::fs::metadata(&page)?.is_file() {
                return Ok(false);
            }
            let mut head = Vec::new();
            std::fs::File::open(&page)?
                .take(1024)
                .read_to_end(&mut head)?;
            let mark = crate::labels::SHEET_MARK.as_bytes();
            Ok(head.starts_with(b"<svg ") && head.windows(mark.len()).any(|w| w == mark))
        };
        if !ours().unwrap_or(false) || std::fs::remove_file(&page).is_err() {
            break;
        }
        removed += 1;
    }
    removed
}
