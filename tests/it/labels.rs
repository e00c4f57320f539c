//! Printable labels: every SVG page parses, there is one label per box and one arrow per box arrow,
//! the bead shopping list adds up, and the counts agree with `boxes --count`.

use std::process::Command;

use matchbox::game::Side;
use matchbox::games::hexapawn::Hexapawn;
use matchbox::games::tictactoe::TicTacToe;
use matchbox::labels::{self, Layout, Paper};
use matchbox::learn::{BoxSet, Forced, Preset, StageBeads, SymmetryMode};
use matchbox::palette::BeadColours;
use resvg::usvg;

fn check<G: labels::LabelView>(
    game: &G,
    set: &BoxSet<G>,
    beads: &StageBeads,
    layout: Layout,
) -> usize {
    let fill = labels::LabelBeads::initial(set, beads, BeadColours::ByArrow);
    let pages = labels::sheets(game, set, &fill, "test", layout);
    let (mut boxes, mut arrows, mut listed) = (0, 0, 0u64);
    for page in &pages {
        usvg::Tree::from_str(page, &usvg::Options::default()).expect("each page is valid SVG");
        boxes += page.matches(r#"<g class="label""#).count();
        arrows += page.matches(r#"<g class="arrow""#).count();
        for part in page.split(r#"class="bead-count" data-count=""#).skip(1) {
            listed += part.split('"').next().unwrap().parse::<u64>().unwrap();
        }
    }
    assert_eq!(boxes, set.len(), "one label per box");
    assert_eq!(arrows, set.arrow_count(), "one arrow per box arrow");
    let needed: u64 = set
        .iter()
        .map(|b| beads.for_stage(b.stage as usize).get() as u64 * b.arrows.len() as u64)
        .sum();
    assert_eq!(
        listed, needed,
        "the shopping list on the first sheet is the sum over boxes"
    );
    let list: u64 = labels::bead_list(game, set, &fill)
        .iter()
        .map(|b| b.2)
        .sum();
    assert_eq!(list, needed);
    pages.len()
}

#[test]
fn her_and_menace_labels() {
    let hex = Hexapawn::new("3x3".parse().unwrap());
    let a4 = Layout::default();
    for (mode, boxes) in [(SymmetryMode::Gardner, 24), (SymmetryMode::Full, 19)] {
        let set = BoxSet::build(&hex, Side::Second, mode);
        assert_eq!(set.len(), boxes);
        assert_eq!(check(&hex, &set, &StageBeads::uniform(1), a4), 2);
    }
    let him = BoxSet::build(&hex, Side::First, SymmetryMode::Full);
    check(&hex, &him, &StageBeads::uniform(1), a4);
    let octo = Hexapawn::new("4x4".parse().unwrap());
    let set = BoxSet::build(&octo, Side::Second, SymmetryMode::Full);
    check(
        &octo,
        &set,
        &StageBeads::uniform(1),
        Layout {
            paper: Paper::Letter,
            label: (60.0, 45.0),
        },
    );
    let menace = BoxSet::build_with(&TicTacToe, Side::First, SymmetryMode::Full, Forced::Skip);
    assert_eq!(menace.len(), 304);
    let pages = check(&TicTacToe, &menace, &Preset::Michie.beads(), a4);
    assert!(pages > 15);
    // Bigger labels, fewer per page.
    let big = Layout {
        paper: Paper::A4,
        label: (90.0, 60.0),
    };
    assert!(check(&TicTacToe, &menace, &Preset::Michie.beads(), big) > pages);
}

#[test]
fn labels_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("her.svg");
    let out = Command::new(env!("CARGO_BIN_EXE_matchbox"))
        .args([
            "boxes",
            "hexapawn",
            "--labels",
            file.to_str().unwrap(),
            "--bead-list",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["boxes"], 24);
    let total: u64 = v["bead_list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["beads"].as_u64().unwrap())
        .sum();
    assert_eq!(total, v["beads"].as_u64().unwrap());
    for page in ["her-1.svg", "her-2.svg"] {
        let text = std::fs::read_to_string(dir.path().join(page)).unwrap();
        assert!(text.contains(r#"width="210mm""#), "A4 by default");
        // Each label's board has its coordinates, since the key says `b3xa2`.
        for coordinate in [">a</text>", ">c</text>", ">1</text>", ">3</text>"] {
            assert!(text.contains(coordinate), "{page}: {coordinate}");
        }
    }
    assert!(!dir.path().join("her-3.svg").exists());
    // And the same sheets in one PDF, a page per sheet, A4.
    let pdf = std::fs::read(dir.path().join("her.pdf")).unwrap();
    let pages = pdf_pages(&pdf);
    assert_eq!(pages.len(), 2);
    for media_box in pages {
        assert!((media_box[2] - 595.3).abs() < 0.5 && (media_box[3] - 841.9).abs() < 0.5);
    }
    let bad = Command::new(env!("CARGO_BIN_EXE_matchbox"))
        .args([
            "boxes",
            "hexapawn",
            "--labels",
            "x.svg",
            "--label-size",
            "5x5",
        ])
        .output()
        .unwrap();
    assert!(!bad.status.success());
}

#[test]
fn shipped_label_sheets_are_current() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let hex = Hexapawn::new("3x3".parse().unwrap());
    let set = BoxSet::build(&hex, Side::Second, SymmetryMode::Gardner);
    let one = StageBeads::uniform(1);
    let pages = labels::sheets(
        &hex,
        &set,
        &labels::LabelBeads::initial(&set, &one, BeadColours::ByArrow),
        "HER: hexapawn 3x3 · black · gardner symmetry · beads 1",
        Layout::default(),
    );
    for (i, page) in pages.iter().enumerate() {
        let path = root.join(format!("boxes/labels/her-gardner-{}.svg", i + 1));
        assert_eq!(
            &std::fs::read_to_string(path).unwrap(),
            page,
            "page {} is stale",
            i + 1
        );
    }
}

use crate::common::json;

#[test]
fn count_agrees_with_boxes_and_estimates_what_cannot_be_enumerated() {
    for (game, side_names) in [("hexapawn", ["white", "black"]), ("tictactoe", ["x", "o"])] {
        let v = json(&["count", game, "--json"]);
        let counts = v["counts"].as_array().unwrap();
        assert!(!counts.is_empty());
        for row in counts {
            let side = row["side"].as_str().unwrap();
            assert!(side_names.contains(&side));
            let mode = row["symmetry"].as_str().unwrap();
            let b = json(&[
                "boxes",
                game,
                "--side",
                side,
                "--symmetry",
                mode,
                "--count",
                "--json",
            ]);
            assert_eq!(
                row["boxes"].as_f64().unwrap(),
                b["boxes"].as_f64().unwrap(),
                "{game} {side} {mode}"
            );
            assert_eq!(row["arrows"], b["arrows"]);
            assert_eq!(row["beads"], b["beads"]);
            assert!(row["method"].as_str().unwrap().starts_with("exact"));
            let litres = row["volume_litres"].as_f64().unwrap();
            let boxes = row["boxes"].as_f64().unwrap();
            assert!((litres - boxes * 0.053 * 0.036 * 0.014 * 1000.0).abs() < 1e-9);
            let side_m = row["cube_side_m"].as_f64().unwrap();
            assert!((side_m.powi(3) * 1000.0 - litres).abs() < 1e-6 * litres.max(1.0));
        }
    }
    // Every board `boxes` enumerates is counted exactly, as `boxes` lists it; among them boards
    // whose bound is large but whose reachable positions are few (3x7: a bound of about 10^8,
    // 67,546 boxes without symmetry).
    for size in ["3x4", "4x3", "4x4", "3x5", "5x3", "4x5", "3x7"] {
        let v = json(&["count", "hexapawn", "--size", size, "--json"]);
        for row in v["counts"].as_array().unwrap() {
            assert!(
                row["method"].as_str().unwrap().starts_with("exact"),
                "{row}"
            );
            let b = json(&[
                "boxes",
                "hexapawn",
                "--size",
                size,
                "--side",
                row["side"].as_str().unwrap(),
                "--symmetry",
                row["symmetry"].as_str().unwrap(),
                "--count",
                "--json",
            ]);
            assert_eq!(
                row["boxes"].as_f64().unwrap(),
                b["boxes"].as_f64().unwrap(),
                "{size} {row}"
            );
            assert_eq!(row["arrows"], b["arrows"], "{size}");
        }
    }
    // A chessboard is far beyond enumeration: an upper bound, named as such.
    let v = json(&["count", "hexapawn", "--size", "8x8", "--json"]);
    let none = v["counts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["symmetry"] == "none")
        .unwrap();
    assert!(none["method"].as_str().unwrap().starts_with("upper bound"));
    assert!(none["boxes"].as_f64().unwrap() > 1e15);
    assert!(none["arrows"].is_null());
}

/// The base-2 Havannah machine a class can build: 19 boxes, each a hexagon with its arrows as
/// coloured, lettered cells; the shipped sheets are the current ones.
#[test]
fn havannah_base_2_labels() {
    use matchbox::games::havannah::{Base, Havannah};
    let game = Havannah::new(Base::new(2).unwrap());
    let set = BoxSet::build_with(&game, Side::First, SymmetryMode::Full, Forced::Skip);
    assert_eq!(set.len(), 19);
    let beads = Preset::Gardner.beads();
    let pages = check(&game, &set, &beads, Layout::default());
    assert_eq!(pages, 2);
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let shipped: Vec<String> = (1..=2)
        .map(|i| {
            std::fs::read_to_string(root.join(format!("boxes/labels/havannah-2-{i}.svg"))).unwrap()
        })
        .collect();
    let labels: usize = shipped
        .iter()
        .map(|p| p.matches(r#"<g class="label""#).count())
        .sum();
    assert_eq!(labels, 19);
    assert!(shipped[0].contains("<polygon"), "hexagonal cells");
}

/// Checks a PDF's structure as a reader would find it (the trailer's `startxref` points at the
/// cross-reference table, every entry of which points at its own object) and returns each
/// page's media box.
fn pdf_pages(pdf: &[u8]) -> Vec<[f64; 4]> {
    assert!(pdf.starts_with(b"%PDF-"), "a PDF header");
    // Byte offsets: the streams are binary, so search bytes, not text.
    let find = |needle: &[u8], from: usize| {
        pdf[from..]
            .windows(needle.len())
            .position(|w| w == needle)
            .map(|i| i + from)
    };
    let rfind = |needle: &[u8]| pdf.windows(needle.len()).rposition(|w| w == needle);
    let line_at = |at: usize| {
        let end = find(b"\n", at).unwrap_or(pdf.len());
        String::from_utf8_lossy(&pdf[at..end]).trim().to_string()
    };
    let tail = rfind(b"startxref").expect("startxref");
    let after = find(b"\n", tail).unwrap() + 1;
    let at: usize = line_at(after).parse().unwrap();
    assert!(
        pdf[at..].starts_with(b"xref"),
        "startxref points at the table"
    );
    let mut line = find(b"\n", at).unwrap() + 1;
    let header: Vec<usize> = line_at(line)
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    let (first, count) = (header[0], header[1]);
    let mut pages = Vec::new();
    for i in 0..count {
        line = find(b"\n", line).unwrap() + 1;
        let entry = line_at(line);
        let fields: Vec<&str> = entry.split_whitespace().collect();
        if fields[2] != "n" {
            continue;
        }
        let offset: usize = fields[0].parse().unwrap();
        let object = first + i;
        let head = format!("{object} 0 obj");
        assert!(
            pdf[offset..].starts_with(head.as_bytes()),
            "object {object} is where the table says"
        );
        // A page object: `/Type /Page` (not `/Pages`), with its media box.
        let end = find(b"endobj", offset).expect("endobj");
        let body = String::from_utf8_lossy(&pdf[offset..end]).to_string();
        if body.contains("/Type /Page") && !body.contains("/Type /Pages") {
            let mb = &body[body.find("/MediaBox [").expect("a media box") + 11..];
            let numbers: Vec<f64> = mb[..mb.find(']').unwrap()]
                .split_whitespace()
                .map(|n| n.parse().unwrap())
                .collect();
            pages.push([numbers[0], numbers[1], numbers[2], numbers[3]]);
        }
    }
    pages
}

/// Gardner's "boxes after training": a saved machine listed and labelled with the beads its boxes
/// hold now.
#[test]
fn a_trained_machine_is_listed_and_labelled_with_its_beads() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("her.yaml");
    crate::common::stdout(&[
        "train",
        "hexapawn",
        "--games",
        "60",
        "--seed",
        "8",
        "--save",
        saved.to_str().unwrap(),
    ]);
    let game = Hexapawn::new("3x3".parse().unwrap());
    let text = std::fs::read_to_string(&saved).unwrap();
    let machine = matchbox::store::from_yaml(&game, &saved, &text).unwrap();
    let v = json(&[
        "boxes",
        "hexapawn",
        "--boxes",
        saved.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(v["games_played"], 60);
    assert_eq!(v["beads"].as_u64().unwrap(), machine.beads_left());
    let listed = v["box_list"].as_array().unwrap();
    assert_eq!(listed.len(), 24);
    let mut changed = 0;
    for (b, entry) in listed.iter().enumerate() {
        let beads: Vec<u32> = machine.beads_in(b).iter().map(|n| n.get()).collect();
        let shown: Vec<u32> = entry["beads"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap() as u32)
            .collect();
        assert_eq!(shown, beads, "box {}", b + 1);
        changed += beads.iter().any(|&n| n != 1) as usize;
    }
    assert!(changed > 0, "training changed some boxes");
    // The labels carry the same counts: `×0` where a bead was taken.
    let labels = dir.path().join("trained.svg");
    crate::common::stdout(&[
        "boxes",
        "hexapawn",
        "--boxes",
        saved.to_str().unwrap(),
        "--labels",
        labels.to_str().unwrap(),
    ]);
    let page = std::fs::read_to_string(dir.path().join("trained-1.svg")).unwrap();
    assert!(page.contains("after 60 games"));
    let zeros: usize = (0..24)
        .map(|b| machine.beads_in(b).iter().filter(|n| n.get() == 0).count())
        .sum();
    let page2 = std::fs::read_to_string(dir.path().join("trained-2.svg")).unwrap();
    assert_eq!(
        page.matches(" ×0<").count() + page2.matches(" ×0<").count(),
        zeros
    );
    // Options for a new machine make no sense with a file.
    let out = Command::new(env!("CARGO_BIN_EXE_matchbox"))
        .args([
            "boxes",
            "hexapawn",
            "--boxes",
            saved.to_str().unwrap(),
            "--beads",
            "3",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--beads is for a new machine"));
}

/// Michie's scheme: a colour per square, the same in every box; noughts and crosses needs nine.
#[test]
fn beads_coloured_by_cell_follow_the_square() {
    let set = BoxSet::build_with(&TicTacToe, Side::First, SymmetryMode::Full, Forced::Skip);
    let beads = Preset::Michie.beads();
    let fill = labels::LabelBeads::initial(&set, &beads, BeadColours::ByCell);
    use matchbox::game::Game;
    let mut colour_of_cell = std::collections::HashMap::new();
    for mbox in set.iter() {
        for (k, &mv) in mbox.arrows.iter().enumerate() {
            let c = fill.colour(&TicTacToe, k, mv);
            let cell = TicTacToe.move_cell(mv).unwrap();
            assert_eq!(*colour_of_cell.entry(cell).or_insert(c), c);
        }
    }
    assert_eq!(colour_of_cell.len(), 9);
    let list = labels::bead_list(&TicTacToe, &set, &fill);
    assert_eq!(list.len(), 9, "nine colours of beads");
    let total: u64 = list.iter().map(|b| b.2).sum();
    assert_eq!(total, 1720, "Michie's 4/3/2/1 beads over 304 boxes");
    // By arrow, the same beads in other colours.
    let by_arrow = labels::LabelBeads::initial(&set, &beads, BeadColours::ByArrow);
    let list = labels::bead_list(&TicTacToe, &set, &by_arrow);
    assert_eq!(list.iter().map(|b| b.2).sum::<u64>(), 1720);
}

/// Every Havannah row and column is named around the hexagon, on the label and on the screen:
/// the rows' letters at the left, the columns' numbers over the top row and down the upper
/// right edge, none in a cell.
#[test]
fn havannah_boards_name_every_row_and_column() {
    use matchbox::games::havannah::{Base, Havannah};
    use matchbox::view::board::BoardView;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("h.svg");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_matchbox"))
        .args(["boxes", "havannah", "--size", "2", "--labels"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(status.status.success());
    let svg = std::fs::read_to_string(dir.path().join("h-1.svg")).unwrap();
    let coordinate =
        |t: &str| format!(r##"font-weight="bold" fill="#555555" text-anchor="middle">{t}</text>"##);
    // Each of the page's boxes names rows a–c and columns 1–3, once each.
    let boxes = svg.matches(&coordinate("a")).count();
    assert!(boxes > 1, "{boxes}");
    for t in ["a", "b", "c", "1", "2", "3"] {
        assert_eq!(svg.matches(&coordinate(t)).count(), boxes, "{t}");
    }
    assert_eq!(svg.matches(&coordinate("4")).count(), 0);
    assert_eq!(svg.matches(&coordinate("d")).count(), 0);
    // On the screen: the numbers over row a, 4 and 5 where their diagonals start.
    let game = Havannah::new(Base::new(3).unwrap());
    let text: Vec<String> = (game
        .board_lines(&matchbox::game::Game::start(&game), &[])
        .iter())
    .map(|l| l.to_string())
    .collect();
    assert_eq!(text[0].trim(), "1 2 3");
    assert!(
        text[1].starts_with("a ") && text[1].ends_with(" 4"),
        "{text:?}"
    );
    assert!(
        text[2].starts_with("b ") && text[2].ends_with(" 5"),
        "{text:?}"
    );
    assert!(
        text[3].starts_with("c ") && text[3].ends_with('·'),
        "{text:?}"
    );
    // Column 1 runs down and left from its number: a1, b1, c1 one column left each row.
    let col = |row: &str, i: usize| {
        row.char_indices()
            .filter(|(_, c)| *c == '·')
            .nth(i)
            .unwrap()
            .0
    };
    let one = text[0].find('1').unwrap();
    assert_eq!(
        (col(&text[1], 0), col(&text[2], 0), col(&text[3], 0)),
        (one - 1, one - 2, one - 3)
    );
    // Clicks still land on the right cells: the numbers' line is no cell.
    assert_eq!(game.square_at(one as u16, 0), None);
    assert_eq!(game.square_at((one - 1) as u16, 1).as_deref(), Some("a1"));
}

/// `--labels` given a folder (or a name ending in a slash) is refused before any label is made,
/// naming it and a file name to give instead: its pages would have gone beside the folder,
/// named after it (`dir-1.svg`, `dir.pdf`). The same for the cart-pole's labels.
#[test]
fn labels_refuse_a_folder() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("class");
    std::fs::create_dir(&folder).unwrap();
    let f = folder.to_str().unwrap();
    let slash = format!("{}/", dir.path().join("new").display());
    for (game, name) in [("her", f), ("cartpole", f), ("menace", slash.as_str())] {
        let e = crate::common::refused(&["boxes", game, "--labels", name]);
        assert!(
            e.contains("is a directory: --labels takes a file's name") && e.contains("labels.svg"),
            "{game} {name}: {e}"
        );
    }
    // Nothing was written, beside the folder or in it.
    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["class"]);
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 0);
}
