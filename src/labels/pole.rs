//! The labels of a physical BOXES: one a box of the cart-pole's 162, each with the ranges it
//! stands for in words and a sketch, and its two counters (life and uses of each push) — blank
//! to fill in, or as a machine holds them now — so a class can *be* BOXES as it can be MENACE.

use std::fmt::Write;

use super::{HEADER, Layout, MARGIN, Place, esc, lay_out, title_svg};
use crate::cartpole::Push;
use crate::cartpole::boxes::{BOXES, Machine};

/// The ranges of each of the four measures, in `pole.c`'s order of bands.
const X: [&str; 3] = ["left of −0.8 m", "−0.8 to 0.8 m", "right of 0.8 m"];
const X_DOT: [&str; 3] = [
    "moving left, over 0.5 m/s",
    "under 0.5 m/s either way",
    "moving right, over 0.5 m/s",
];
const THETA: [&str; 6] = [
    "leaning left, over 6°",
    "leaning left, 1–6°",
    "leaning left, 0–1°",
    "leaning right, 0–1°",
    "leaning right, 1–6°",
    "leaning right, over 6°",
];
const OMEGA: [&str; 3] = [
    "falling left, over 50°/s",
    "turning under 50°/s",
    "falling right, over 50°/s",
];

/// A box's four bands: (position, velocity, angle, angular velocity), as `pole.c` numbers it.
pub fn bands(b: usize) -> (usize, usize, usize, usize) {
    (b % 3, b / 3 % 3, b / 9 % 6, b / 54)
}

/// The ranges of box `b` in words: the cart's place, its speed, the pole's lean, its turning.
pub fn ranges(b: usize) -> [&'static str; 4] {
    let (x, xd, th, om) = bands(b);
    [X[x], X_DOT[xd], THETA[th], OMEGA[om]]
}

/// The sheets' title.
pub fn pole_title(machine: Option<&Machine>) -> String {
    match machine {
        Some(m) => format!(
            "BOXES (Michie & Chambers 1968): the cart-pole's {BOXES} boxes after {} trials",
            crate::text::group(m.trials)
        ),
        None => {
            format!("BOXES (Michie & Chambers 1968): the cart-pole's {BOXES} boxes, to fill in")
        }
    }
}

/// The label sheets as SVG pages: blank counters, or those of `machine`.
pub fn pole_sheets(machine: Option<&Machine>, layout: Layout) -> Vec<String> {
    let (pw, _) = layout.paper.size_mm();
    let mut header = title_svg(&pole_title(machine), pw);
    let rules = [
        "A box says which way to push while the cart and the pole are in its four ranges.",
        "After each trial: every box's life and uses × 0.99; each box used adds, for the push it",
        "chose, the steps the pole then stayed up (life) and 1 (uses). Merit: the trials' steps,",
        "aged the same way, over their number. Each box then pushes the way whose (life + 20 ×",
        "merit) ÷ (uses + 20) is larger. A trial starts from rest and ends when the pole passes 12°",
        "or the cart 2.4 m.",
    ];
    for (i, line) in rules.iter().enumerate() {
        let _ = write!(
            header,
            r#"<text x="{MARGIN}" y="{:.2}" font-family="DejaVu Sans, sans-serif" font-size="3.2">{}</text>"#,
            MARGIN + 14.0 + i as f64 * 4.4,
            esc(line)
        );
    }
    debug_assert!(14.0 + rules.len() as f64 * 4.4 <= HEADER);
    lay_out(layout, BOXES, &header, |b, place| {
        pole_label(b, machine, place)
    })
}

/// One box's label.
fn pole_label(b: usize, machine: Option<&Machine>, p: Place) -> String {
    let Place { x, y, w, h } = p;
    let font = r#"font-family="DejaVu Sans, sans-serif""#;
    let mut s = format!(
        r##"<g class="label" data-box="{b}"><rect x="{x:.2}" y="{y:.2}" width="{w:.2}" height="{h:.2}" fill="none" stroke="#333333" stroke-width="0.3" stroke-dasharray="1.5,1"/>"##
    );
    let size = (h / 11.0).min(w / 20.0);
    let _ = write!(
        s,
        r#"<text x="{:.2}" y="{:.2}" {font} font-size="{:.2}" font-weight="bold">BOX {b}</text>"#,
        x + 1.5,
        y + size * 1.5,
        size * 1.3
    );
    for (i, line) in ranges(b).iter().enumerate() {
        let _ = write!(
            s,
            r#"<text x="{:.2}" y="{:.2}" {font} font-size="{:.2}">{}</text>"#,
            x + 1.5,
            y + size * (2.9 + 1.15 * i as f64),
            size * 0.8,
            esc(line)
        );
    }
    s.push_str(&sketch(b, (x + w * 0.68, y + 1.0, w * 0.3, size * 3.0)));
    s.push_str(&counters(
        b,
        machine,
        (x + 1.5, y + size * 7.4, w - 3.0, h - size * 7.4 - 1.5),
        size,
    ));
    s.push_str("</g>");
    s
}

/// The cart on its track at the box's place, the pole leaning its way (drawn three times
/// steeper, to be seen), in `(x, y, w, h)`.
fn sketch(b: usize, (x, y, w, h): (f64, f64, f64, f64)) -> String {
    let (xb, _, th, _) = bands(b);
    let lean = [-36.0f64, -15.0, -4.0, 4.0, 15.0, 36.0][th].to_radians();
    let ground = y + h;
    let cx = x + w * [0.18, 0.5, 0.82][xb];
    let len = h * 0.8;
    let (tx, ty) = (cx + len * lean.sin(), ground - 1.2 - len * lean.cos());
    format!(
        r##"<line x1="{x:.2}" y1="{ground:.2}" x2="{:.2}" y2="{ground:.2}" stroke="#777777" stroke-width="0.3"/><rect x="{:.2}" y="{:.2}" width="3" height="1.2" fill="#555555"/><line x1="{cx:.2}" y1="{:.2}" x2="{tx:.2}" y2="{ty:.2}" stroke="#d55e00" stroke-width="0.6"/>"##,
        x + w,
        cx - 1.5,
        ground - 1.2,
        ground - 1.2
    )
}

/// The two counters of each push, and the push: a machine's numbers, or blanks to fill in.
fn counters(
    b: usize,
    machine: Option<&Machine>,
    (x, y, w, h): (f64, f64, f64, f64),
    size: f64,
) -> String {
    let font = r#"font-family="DejaVu Sans, sans-serif""#;
    let mut s = String::new();
    let (col, row) = (w / 3.0, h / 3.0);
    let cell = |v: Option<f64>| match v {
        Some(v) if v >= 100.0 => crate::text::group(v.round() as u64),
        Some(v) => format!("{v:.1}"),
        None => String::new(),
    };
    let record = machine.map(|m| m.records[b]);
    let push = machine.map(|m| m.pushes[b]);
    let heads = [
        ("", ""),
        (
            "◀ LEFT",
            if push == Some(Push::Left) {
                "#0072b2"
            } else {
                "#000000"
            },
        ),
        (
            "RIGHT ▶",
            if push == Some(Push::Right) {
                "#d55e00"
            } else {
                "#000000"
            },
        ),
    ];
    for (i, (head, colour)) in heads.iter().enumerate() {
        let bold = if push.is_some() && *colour != "#000000" {
            r#" font-weight="bold""#
        } else {
            ""
        };
        let _ = write!(
            s,
            r#"<text x="{:.2}" y="{:.2}" {font} font-size="{:.2}" fill="{colour}"{bold}>{}</text>"#,
            x + i as f64 * col,
            y + row * 0.7,
            size * 0.85,
            esc(head)
        );
    }
    let rows = [
        ("life", record.map(|r| (r.left_life, r.right_life))),
        ("uses", record.map(|r| (r.left_usage, r.right_usage))),
    ];
    for (j, (name, values)) in rows.iter().enumerate() {
        let ry = y + row * (j as f64 + 1.0);
        let _ = write!(
            s,
            r#"<text x="{x:.2}" y="{:.2}" {font} font-size="{:.2}">{name}</text>"#,
            ry + row * 0.7,
            size * 0.85
        );
        for (i, v) in [values.map(|v| v.0), values.map(|v| v.1)]
            .into_iter()
            .enumerate()
        {
            let cx = x + (i as f64 + 1.0) * col;
            let _ = write!(
                s,
                r##"<rect x="{cx:.2}" y="{ry:.2}" width="{:.2}" height="{:.2}" fill="none" stroke="#555555" stroke-width="0.2"/><text x="{:.2}" y="{:.2}" {font} font-size="{:.2}">{}</text>"##,
                col - 1.0,
                row - 0.6,
                cx + 0.8,
                ry + row * 0.65,
                size * 0.8,
                cell(v)
            );
        }
    }
    s
}
