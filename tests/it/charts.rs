//! Charts and tables: the CSV schemas, PNG files that decode at the projector size, SVG files that
//! parse and carry their title, and `plot` remaking a chart from a saved CSV.

use std::process::Command;

use resvg::tiny_skia::Pixmap;
use resvg::usvg;

use crate::common::stdout as run;

fn header(path: &std::path::Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .next()
        .unwrap()
        .split(',')
        .map(String::from)
        .collect()
}

#[test]
fn train_csv_has_one_row_per_game() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("her.csv");
    let out = run(&[
        "train",
        "hexapawn",
        "--games",
        "40",
        "--seed",
        "2",
        "--json",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(
        header(&csv),
        [
            "run",
            "game",
            "result",
            "cumulative_score",
            "beads_left",
            "boxes_emptied",
            "beads_by_move",
            "move_numbers",
            "first_box",
            "first_box_moves",
            "perfect_play",
            "label"
        ]
    );
    let mut r = csv::Reader::from_path(&csv).unwrap();
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 40);
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    let mut score = 0i64;
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row[1].parse::<usize>().unwrap(), i + 1);
        let letter = json["results"].as_str().unwrap().as_bytes()[i];
        let word = match letter {
            b'W' => "win",
            b'D' => "draw",
            _ => "loss",
        };
        assert_eq!(&row[2], word);
        score += match &row[2] {
            "win" => 1,
            "loss" => -1,
            _ => 0,
        };
        assert_eq!(row[3].parse::<i64>().unwrap(), score);
        let by_move: u64 = row[6].split('/').map(|x| x.parse::<u64>().unwrap()).sum();
        assert_eq!(
            by_move,
            row[4].parse::<u64>().unwrap(),
            "beads by move add up"
        );
        assert_eq!(&row[7], "2/4/6", "HER's moves");
        assert_eq!(row[8].split('/').count(), 3, "box 1's three arrows");
        assert_eq!(row[9].split('/').count(), 3, "box 1's three moves");
        assert_eq!(&row[10], "1", "HER wins under perfect play");
    }
    assert_eq!(
        rows[39][4].parse::<u64>().unwrap(),
        json["beads_left"].as_u64().unwrap()
    );
    assert!(
        rows[0][11].contains(" · gardner symmetry · "),
        "{}",
        &rows[0][11]
    );
    // A machine without symmetry is labelled in words ("no symmetry", not "none symmetry").
    let none = dir.path().join("none.csv");
    run(&[
        "train",
        "hexapawn",
        "--symmetry",
        "none",
        "--games",
        "3",
        "--csv",
        none.to_str().unwrap(),
    ]);
    let mut r = csv::Reader::from_path(&none).unwrap();
    let first = r.records().next().unwrap().unwrap();
    assert!(first[11].contains(" · no symmetry · "), "{}", &first[11]);
}

#[test]
fn experiment_csv_has_one_row_per_game_index_and_variant() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("sym.csv");
    run(&[
        "experiment",
        "hexapawn",
        "--runs",
        "300",
        "--games",
        "30",
        "--seed",
        "4",
        "--compare",
        "symmetry=full,gardner,none",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(
        header(&csv),
        [
            "variant",
            "game",
            "runs",
            "loss_rate",
            "loss_rate_low",
            "loss_rate_high",
            "draw_rate",
            "win_rate",
            "mean_cumulative_losses",
            "cumulative_losses_low",
            "cumulative_losses_high",
            "runs_with_last_loss_here",
            "label",
            "exact_loss_rate"
        ]
    );
    let mut r = csv::Reader::from_path(&csv).unwrap();
    let rows: Vec<csv::StringRecord> = r.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 90);
    for row in &rows {
        let f = |i: usize| row[i].parse::<f64>().unwrap();
        assert!(f(4) <= f(3) && f(3) <= f(5), "the band holds the rate");
        assert!(
            (f(3) + f(6) + f(7) - 1.0).abs() < 1e-9,
            "lost + drawn + won = 1"
        );
        assert!(f(9) <= f(8) && f(8) <= f(10));
    }
    let variants: std::collections::BTreeSet<&str> = rows.iter().map(|r| &r[0]).collect();
    assert_eq!(
        variants.into_iter().collect::<Vec<_>>(),
        ["symmetry full", "symmetry gardner", "symmetry none"]
    );
}

#[test]
fn png_charts_decode_at_projector_size() {
    let dir = tempfile::tempdir().unwrap();
    for (args, file) in [
        (
            vec!["train", "hexapawn", "--games", "60", "--seed", "1"],
            "score.png",
        ),
        (
            vec![
                "experiment",
                "hexapawn",
                "--runs",
                "200",
                "--games",
                "40",
                "--seed",
                "1",
            ],
            "loss.png",
        ),
    ] {
        let path = dir.path().join(file);
        let mut a = args.clone();
        a.extend(["--plot", path.to_str().unwrap()]);
        run(&a);
        let bytes = std::fs::read(&path).unwrap();
        let image = Pixmap::decode_png(&bytes).unwrap();
        assert_eq!((image.width(), image.height()), (1600, 900), "{file}");
        // Not blank: the chart has dark text and coloured lines on white.
        let dark = image
            .pixels()
            .iter()
            .filter(|p| p.red() < 80 && p.green() < 80 && p.blue() < 80)
            .count();
        assert!(dark > 2000, "{file}: {dark} dark pixels");
    }
}

#[test]
fn svg_charts_parse_and_carry_their_title() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("cmp.svg");
    run(&[
        "experiment",
        "hexapawn",
        "--runs",
        "200",
        "--games",
        "40",
        "--seed",
        "1",
        "--compare",
        "reinforcement=gardner,michie",
        "--chart",
        "cumulative-losses",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&svg).unwrap();
    usvg::Tree::from_str(&text, &usvg::Options::default()).expect("valid SVG");
    assert!(text.contains("HER (black) v perfect player, hexapawn 3x3: cumulative losses"));
    assert!(text.contains("200 runs"));
    assert!(text.contains("reinforcement gardner") && text.contains("reinforcement michie"));
}

#[test]
fn plot_remakes_charts_from_csv() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("exp.csv");
    let direct = dir.path().join("direct.svg");
    run(&[
        "experiment",
        "tictactoe",
        "--runs",
        "200",
        "--games",
        "50",
        "--seed",
        "1",
        "--csv",
        csv.to_str().unwrap(),
        "--plot",
        direct.to_str().unwrap(),
        "--chart",
        "last-loss",
    ]);
    let again = dir.path().join("again.svg");
    run(&[
        "plot",
        csv.to_str().unwrap(),
        "--chart",
        "last-loss",
        "--out",
        again.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read_to_string(&direct).unwrap(),
        std::fs::read_to_string(&again).unwrap(),
        "the same chart from the saved table"
    );
    // A train CSV cannot make an experiment chart, and says so.
    let tcsv = dir.path().join("train.csv");
    run(&[
        "train",
        "tictactoe",
        "--games",
        "30",
        "--seed",
        "1",
        "--csv",
        tcsv.to_str().unwrap(),
    ]);
    let out = Command::new(env!("CARGO_BIN_EXE_matchbox"))
        .args([
            "plot",
            tcsv.to_str().unwrap(),
            "--chart",
            "loss-rate",
            "--out",
        ])
        .arg(dir.path().join("x.png"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs many runs"));
    // Values no run writes are refused with the line and column, never drawn (an infinite
    // share once hung the axis for ever).
    let text = std::fs::read_to_string(&csv).unwrap();
    let tampered = |file: &str, text: String, chart: &str| {
        let path = dir.path().join(file);
        std::fs::write(&path, text).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_matchbox"))
            .args(["plot", path.to_str().unwrap(), "--chart", chart, "--out"])
            .arg(dir.path().join("x.png"))
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(err.lines().count(), 1, "{err}");
        err
    };
    for (value, why) in [
        ("inf", "inf is not a share"),
        ("NaN", "NaN is not a share"),
        ("1.5", "1.5 is not a share"),
    ] {
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        let mut fields: Vec<String> = lines[3].split(',').map(String::from).collect();
        fields[3] = value.into();
        lines[3] = fields.join(",");
        let err = tampered("bad.csv", lines.join("\n"), "loss-rate");
        assert!(
            err.contains("bad.csv: line 4, column loss_rate: ") && err.contains(why),
            "{err}"
        );
    }
    let ttext = std::fs::read_to_string(&tcsv).unwrap();
    let mut lines: Vec<String> = ttext.lines().map(String::from).collect();
    let mut fields: Vec<String> = lines[1].split(',').map(String::from).collect();
    fields[6] = "inf/1".into(); // beads_by_move
    lines[1] = fields.join(",");
    let err = tampered("bad-train.csv", lines.join("\n"), "beads");
    assert!(
        err.contains("column beads_by_move: `inf` is not a bead count"),
        "{err}"
    );
}

#[test]
fn a_chart_of_infinite_values_is_refused() {
    use matchbox::chart::{ChartSpec, Kind, Series, svg};
    let spec = |y: f64| ChartSpec {
        title: "t".into(),
        subtitle: String::new(),
        x_label: "x".into(),
        y_label: "y".into(),
        y2_label: None,
        kind: Kind::Lines,
        series: vec![Series::line("line", vec![(0.0, 0.0), (1.0, y)])],
    };
    assert!(svg(&spec(1.0)).is_ok());
    for y in [f64::INFINITY, f64::NEG_INFINITY, f64::NAN] {
        let err = svg(&spec(y)).unwrap_err().to_string();
        assert!(err.contains("not a finite number"), "{err}");
    }
}

#[test]
fn no_progress_bar_when_stderr_is_not_a_terminal() {
    let out = Command::new(env!("CARGO_BIN_EXE_matchbox"))
        .args([
            "experiment",
            "hexapawn",
            "--runs",
            "2000",
            "--seed",
            "1",
            "--json",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The beads chart names each move as the boxes do ("move 2" for HER's first), draws the boxes
/// emptied on a right-hand axis of their own, and Scroggs' chart follows each arrow of box 1 in its
/// bead colour. A table written before those columns were kept still draws.
#[test]
fn beads_and_first_box_charts() {
    use matchbox::chart::data::{ChartKind, chart, read_csv};
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("her.csv");
    run(&[
        "train",
        "hexapawn",
        "--games",
        "60",
        "--seed",
        "3",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    let rows = read_csv(std::fs::File::open(&csv).unwrap()).unwrap();
    let beads = chart(ChartKind::Beads, &rows).unwrap();
    let names: Vec<&str> = beads.series.iter().map(|s| s.name.as_str()).collect();
    assert!(names.contains(&"beads in the boxes of move 2"), "{names:?}");
    assert!(names.contains(&"beads in the boxes of move 6"), "{names:?}");
    let emptied = beads
        .series
        .iter()
        .find(|s| s.name.starts_with("boxes emptied"))
        .unwrap();
    assert!(emptied.secondary);
    assert!(beads.series.iter().filter(|s| s.secondary).count() == 1);
    assert_eq!(beads.y2_label.as_deref(), Some("boxes emptied"));
    let svg = matchbox::chart::svg(&beads).unwrap();
    assert!(svg.contains("boxes emptied"));
    let first = chart(ChartKind::FirstBox, &rows).unwrap();
    // HER's first box: three arrows, one bead each at the start.
    let arrows: Vec<_> = first
        .series
        .iter()
        .filter(|s| s.name.starts_with("arrow "))
        .collect();
    assert_eq!(arrows.len(), 3);
    for (k, s) in arrows.iter().enumerate() {
        assert_eq!(s.colour, Some(matchbox::palette::arrow(k)));
        // Gardner's reinforcement only takes beads: from one each, never more.
        assert!(s.points.iter().all(|p| p.1 <= 1.0));
    }
    let total = first.series.iter().find(|s| s.reference).unwrap();
    for (i, p) in total.points.iter().enumerate() {
        let sum: f64 = arrows.iter().map(|s| s.points[i].1).sum();
        assert_eq!(p.1, sum);
    }
    // An older table, without the new columns: the legend falls back to the machine's moves.
    let text = std::fs::read_to_string(&csv).unwrap();
    let old: String = text
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.splitn(11, ',').collect();
            [&f[..7], &f[9..]].concat().join(",")
        })
        .collect::<Vec<_>>()
        .join("\n");
    let rows = read_csv(old.as_bytes()).unwrap();
    let beads = chart(ChartKind::Beads, &rows).unwrap();
    assert!(
        beads
            .series
            .iter()
            .any(|s| s.name == "beads, machine's move 1")
    );
}

/// Each text of the kinds this program writes (bold, centred with kerning, anchored at its end
/// and lowered by `ex`, hung from its top by `em`, rotated), with where its ink fell (left, top,
/// right, bottom, then the ink's area in pixels) when usvg's own text engine drew it. The PNG and
/// PDF are now made with the text turned into outlines by `chart::outline`; this is the check
/// that the outlines stand where usvg's text stood.
const TEXTS: [(&str, [u32; 5]); 5] = [
    (
        r##"<text x="20" y="60" font-family="DejaVu Sans, sans-serif" font-size="36" font-weight="bold">Box 12</text>"##,
        [23, 33, 154, 60, 1497],
    ),
    (
        r##"<text x="200" y="120" font-size="24" text-anchor="middle" fill="#555555">HER learns ×—… AVA</text>"##,
        [72, 102, 329, 119, 1043],
    ),
    (
        r##"<text x="380" y="170" dy="0.5ex" text-anchor="end" font-family="sans-serif" font-size="20.967741935483872" opacity="1" fill="#000000">1,000 &amp; 2</text>"##,
        [279, 160, 377, 177, 408],
    ),
    (
        r##"<text x="20" y="200" dy="0.76em" text-anchor="start" font-family="sans-serif" font-size="35.48" opacity="1" fill="#000000" font-weight="bold">Games · 64</text>"##,
        [22, 201, 240, 227, 2261],
    ),
    (
        r##"<text x="30" y="300" dy="0.76em" text-anchor="middle" font-family="sans-serif" font-size="24.19" opacity="1" fill="#000000" transform="rotate(270, 30, 300)">share lost</text>"##,
        [30, 242, 48, 357, 571],
    ),
];

#[test]
fn text_outlines_stand_where_the_text_engine_drew_them() {
    for (text, [left, top, right, bottom, area]) in TEXTS {
        let svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400">{text}</svg>"#
        );
        let image = Pixmap::decode_png(&matchbox::chart::svg_to_png(&svg).unwrap()).unwrap();
        let (mut x0, mut y0, mut x1, mut y1, mut ink) = (u32::MAX, u32::MAX, 0, 0, 0u64);
        for y in 0..400 {
            for x in 0..400 {
                let a = image.pixel(x, y).unwrap().alpha();
                if a > 127 {
                    (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
                }
                ink += u64::from(a);
            }
        }
        let near = |a: u32, b: u32| a.abs_diff(b) <= 1;
        assert!(
            near(x0, left) && near(y0, top) && near(x1, right) && near(y1, bottom),
            "{text}: ink at {:?}, the text engine's at {:?}",
            (x0, y0, x1, y1),
            (left, top, right, bottom)
        );
        let ink = (ink / 255) as f64;
        assert!(
            (ink / f64::from(area) - 1.0).abs() < 0.03,
            "{text}: {ink} px of ink, not {area}"
        );
    }
}

#[test]
fn text_with_markup_is_refused_by_name() {
    let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text x="1" y="1">a<tspan>b</tspan></text></svg>"#;
    let e = matchbox::chart::svg_to_png(svg).unwrap_err().to_string();
    assert!(e.contains("markup inside a <text>"), "{e}");
}

/// The page's learning curve is the command line's: the same title (the machine, its opponent),
/// settings and perfect-play line as `train --csv` then `plot` for the same games.
#[test]
fn the_pages_learning_curve_is_the_command_lines() {
    use matchbox::chart::data::{self, ChartKind};
    use matchbox::game::Side;
    use matchbox::games::hexapawn::{Hexapawn, Size};
    use matchbox::learn::engine::Enumerated;
    use matchbox::learn::{BoxSet, Machine, Reinforcement, StageBeads, SymmetryMode};
    use matchbox::players::Opponent;
    use matchbox::solve::TieBreak;
    use matchbox::view::session::Session;
    use std::sync::Arc;

    let game = Hexapawn::new(Size::GARDNER);
    let boxes = Arc::new(BoxSet::build(&game, Side::Second, SymmetryMode::Gardner));
    let m = Machine::new(boxes, StageBeads::uniform(1), Reinforcement::GARDNER, 5);
    let arena = Arc::new(Enumerated::new(game));
    let mut s = Session::new(arena, m, Opponent::Perfect, TieBreak::Random).unwrap();
    assert_eq!(s.flat_out(40, || true), 40);
    let page = data::learning_curve(
        &s.bout().label(None),
        s.curve.points.clone(),
        s.bout().perfect_play(),
    );

    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("her.csv");
    run(&[
        "train",
        "hexapawn",
        "--games",
        "40",
        "--seed",
        "5",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    let rows = data::read_csv(std::fs::File::open(&csv).unwrap()).unwrap();
    let cli = data::chart(ChartKind::Score, &rows).unwrap();
    assert_eq!(page.title, cli.title);
    assert!(
        page.title
            .starts_with("HER (black) v perfect player, hexapawn 3x3"),
        "{}",
        page.title
    );
    assert_eq!(page.subtitle, cli.subtitle);
    let line = |c: &matchbox::chart::ChartSpec| {
        c.series
            .iter()
            .find(|x| x.name == "perfect play")
            .map(|x| x.points.clone())
    };
    // Black wins Gardner's hexapawn under perfect play: a line of slope +1.
    assert_eq!(line(&page), Some(vec![(0.0, 0.0), (40.0, 40.0)]));
    assert_eq!(line(&page), line(&cli));
    assert_eq!(page.series[0].points.last(), cli.series[0].points.last());
}
