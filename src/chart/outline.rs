//! Text as outlines. The SVG this program writes keeps its text as `<text>` (searchable, small);
//! before a PNG or a PDF is made from it, every `<text>` becomes a `<path>` of its glyphs' outlines
//! in DejaVu Sans, laid out here with the font's advances and kerning. So the rasteriser needs no
//! text engine of its own (no shaper, no font database: a much shorter first build), and the
//! drawing depends on no font of the machine.
//!
//! The text this program writes is simple, and that is what is read: `x`, `y`, `dy` (in `em`,
//! `ex` or user units), `text-anchor`, `font-size`, `font-weight`, and any other attribute (`fill`,
//! `opacity`, `transform`) kept on the path as it is. Markup inside a text is refused.

use ab_glyph::{Font, FontRef, GlyphId, OutlineCurve};
use std::fmt::Write;

use super::fonts::Fonts;

/// A text this pass cannot read.
#[derive(Debug, thiserror::Error)]
#[error("SVG text at byte {at}: {message}")]
pub struct TextError {
    pub at: usize,
    pub message: String,
}

/// The regular and the bold face, read.
pub struct Faces<'a> {
    regular: FontRef<'a>,
    bold: FontRef<'a>,
}

impl Faces<'static> {
    pub fn new(fonts: Fonts) -> Result<Faces<'static>, TextError> {
        let read = |data: &'static [u8], name: &str| {
            FontRef::try_from_slice(data).map_err(|e| TextError {
                at: 0,
                message: format!("the {name} font: {e}"),
            })
        };
        Ok(Faces {
            regular: read(fonts.regular, "regular")?,
            bold: read(fonts.bold, "bold")?,
        })
    }
}

/// The document with every `<text>…</text>` replaced by a `<path>` of its outlines.
pub fn outline_text(svg: &str, faces: &Faces) -> Result<String, TextError> {
    let mut out = String::with_capacity(svg.len() * 2);
    let mut rest = 0;
    while let Some(found) = find_text(svg, rest) {
        out.push_str(&svg[rest..found]);
        let fail = |message: &str| TextError {
            at: found,
            message: message.to_string(),
        };
        let head_end = svg[found..]
            .find('>')
            .map(|i| found + i)
            .ok_or_else(|| fail("a <text> tag with no end"))?;
        let head = &svg[found + "<text".len()..head_end];
        let attrs = attributes(head).map_err(|m| fail(&m))?;
        let (content, end) = if head.trim_end().ends_with('/') {
            ("", head_end + 1)
        } else {
            let close = svg[head_end..]
                .find("</text>")
                .map(|i| head_end + i)
                .ok_or_else(|| fail("a <text> with no </text>"))?;
            (&svg[head_end + 1..close], close + "</text>".len())
        };
        if content.contains('<') {
            return Err(fail("markup inside a <text> is not read"));
        }
        let text = collapse(&unescape(content).map_err(|m| fail(&m))?);
        let style = Style::of(&attrs).map_err(|m| fail(&m))?;
        out.push_str(&path_element(&text, &style, &attrs, faces));
        rest = end;
    }
    out.push_str(&svg[rest..]);
    Ok(out)
}

/// The next `<text` tag at or after `from` (not `<textPath` or the like).
fn find_text(svg: &str, from: usize) -> Option<usize> {
    let mut at = from;
    while let Some(i) = svg[at..].find("<text") {
        let start = at + i;
        let next = svg[start + 5..].chars().next();
        if matches!(next, Some(c) if c.is_whitespace() || c == '>' || c == '/') {
            return Some(start);
        }
        at = start + 5;
    }
    None
}

/// `name="value"` pairs (single or double quotes), in order.
fn attributes(head: &str) -> Result<Vec<(&str, &str)>, String> {
    let mut attrs = Vec::new();
    let mut s = head.trim().trim_end_matches('/').trim_end();
    while !s.is_empty() {
        let eq = s
            .find('=')
            .ok_or_else(|| format!("an attribute with no value: {s}"))?;
        let name = s[..eq].trim();
        let after = s[eq + 1..].trim_start();
        let quote = after
            .chars()
            .next()
            .filter(|c| *c == '"' || *c == '\'')
            .ok_or_else(|| format!("attribute {name}: its value is not quoted"))?;
        let close = after[1..]
            .find(quote)
            .ok_or_else(|| format!("attribute {name}: its quote is not closed"))?;
        attrs.push((name, &after[1..1 + close]));
        s = after[close + 2..].trim_start();
    }
    Ok(attrs)
}

/// XML's character references and the five named entities.
fn unescape(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        let end = rest[i..]
            .find(';')
            .ok_or_else(|| "an `&` with no `;`".to_string())?;
        let name = &rest[i + 1..i + end];
        let c = match name {
            "amp" => '&',
            "lt" => '<',
            "gt" => '>',
            "quot" => '"',
            "apos" => '\'',
            _ => {
                let code = if let Some(hex) = name.strip_prefix("#x") {
                    u32::from_str_radix(hex, 16).ok()
                } else if let Some(dec) = name.strip_prefix('#') {
                    dec.parse().ok()
                } else {
                    None
                };
                code.and_then(char::from_u32)
                    .ok_or_else(|| format!("an unknown entity &{name};"))?
            }
        };
        out.push(c);
        rest = &rest[i + end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// SVG's default white space: runs become one space, none at either end.
fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// How a text is placed.
struct Style {
    x: f32,
    y: f32,
    size: f32,
    bold: bool,
    anchor: Anchor,
}

#[derive(Clone, Copy, PartialEq)]
enum Anchor {
    Start,
    Middle,
    End,
}

/// Attributes that only text has: they do not go on the path.
const TEXT_ONLY: [&str; 10] = [
    "x",
    "y",
    "dx",
    "dy",
    "text-anchor",
    "font-family",
    "font-size",
    "font-weight",
    "font-style",
    "dominant-baseline",
];

impl Style {
    fn of(attrs: &[(&str, &str)]) -> Result<Style, String> {
        let get = |name: &str| attrs.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
        let size = match get("font-size") {
            Some(v) => length(v, 16.0).ok_or_else(|| format!("font-size {v:?}"))?,
            None => 16.0,
        };
        let coord = |name: &str| -> Result<f32, String> {
            get(name).map_or(Ok(0.0), |v| {
                length(v, size).ok_or_else(|| format!("{name} {v:?}"))
            })
        };
        let bold = match get("font-weight") {
            None | Some("normal") | Some("lighter") => false,
            Some("bold") | Some("bolder") => true,
            Some(v) => v.parse::<u32>().map_err(|_| format!("font-weight {v:?}"))? >= 600,
        };
        let anchor = match get("text-anchor") {
            None | Some("start") => Anchor::Start,
            Some("middle") => Anchor::Middle,
            Some("end") => Anchor::End,
            Some(v) => return Err(format!("text-anchor {v:?}")),
        };
        Ok(Style {
            x: coord("x")? + coord("dx")?,
            y: coord("y")? + coord("dy")?,
            size,
            bold,
            anchor,
        })
    }
}

/// A length in user units: a number, or a number of `em`, `ex` (half an em) or `px`.
fn length(v: &str, em: f32) -> Option<f32> {
    let v = v.trim();
    let (number, unit) = match v.find(|c: char| c.is_ascii_alphabetic() || c == '%') {
        Some(i) => (&v[..i], &v[i..]),
        None => (v, ""),
    };
    let n: f32 = number.trim().parse().ok()?;
    let n = match unit {
        "" | "px" => n,
        "em" => n * em,
        "ex" => n * em / 2.0,
        _ => return None,
    };
    n.is_finite().then_some(n)
}

/// The `<path>` that draws `text` as `style` places it, with the text's other attributes.
fn path_element(text: &str, style: &Style, attrs: &[(&str, &str)], faces: &Faces) -> String {
    let font = if style.bold {
        &faces.bold
    } else {
        &faces.regular
    };
    let per_unit = style.size / font.units_per_em().unwrap_or(2048.0);
    let glyphs: Vec<GlyphId> = text.chars().map(|c| font.glyph_id(c)).collect();
    let mut advances = Vec::with_capacity(glyphs.len());
    let mut pen = 0.0;
    for (i, &g) in glyphs.iter().enumerate() {
        if i > 0 {
            pen += font.kern_unscaled(glyphs[i - 1], g);
        }
        advances.push(pen);
        pen += font.h_advance_unscaled(g);
    }
    let shift = match style.anchor {
        Anchor::Start => 0.0,
        Anchor::Middle => pen / 2.0,
        Anchor::End => pen,
    };
    let mut d = String::new();
    for (&g, &at) in glyphs.iter().zip(&advances) {
        if let Some(outline) = font.outline(g) {
            let x0 = style.x + (at - shift) * per_unit;
            let place = |p: ab_glyph::Point| (x0 + p.x * per_unit, style.y - p.y * per_unit);
            trace(&mut d, &outline.curves, place);
        }
    }
    let mut el = format!(r#"<path d="{}""#, d.trim_end());
    for (name, value) in attrs {
        if !TEXT_ONLY.contains(name) {
            let _ = write!(el, r#" {name}="{value}""#);
        }
    }
    el.push_str("/>");
    el
}

/// Path data for a glyph's curves: a new contour (`M`) wherever a curve does not start where the
/// last one ended, each contour closed.
fn trace(d: &mut String, curves: &[OutlineCurve], place: impl Fn(ab_glyph::Point) -> (f32, f32)) {
    let mut last: Option<ab_glyph::Point> = None;
    for curve in curves {
        let (from, to) = match curve {
            OutlineCurve::Line(a, b) => (*a, *b),
            OutlineCurve::Quad(a, _, b) => (*a, *b),
            OutlineCurve::Cubic(a, _, _, b) => (*a, *b),
        };
        if last != Some(from) {
            if last.is_some() {
                d.push_str("Z ");
            }
            let (x, y) = place(from);
            let _ = write!(d, "M{x:.2} {y:.2} ");
        }
        let _ = match curve {
            OutlineCurve::Line(_, b) => {
                let (x, y) = place(*b);
                write!(d, "L{x:.2} {y:.2} ")
            }
            OutlineCurve::Quad(_, c, b) => {
                let ((cx, cy), (x, y)) = (place(*c), place(*b));
                write!(d, "Q{cx:.2} {cy:.2} {x:.2} {y:.2} ")
            }
            OutlineCurve::Cubic(_, c1, c2, b) => {
                let ((ax, ay), (bx, by), (x, y)) = (place(*c1), place(*c2), place(*b));
                write!(d, "C{ax:.2} {ay:.2} {bx:.2} {by:.2} {x:.2} {y:.2} ")
            }
        };
        last = Some(to);
    }
    if last.is_some() {
        d.push_str("Z ");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_read_every_unit_the_program_writes() {
        assert_eq!(length("12.5", 20.0), Some(12.5));
        assert_eq!(length("0.76em", 100.0), Some(76.0));
        assert_eq!(length("-0.5ex", 20.0), Some(-5.0));
        assert_eq!(length("3px", 20.0), Some(3.0));
        assert_eq!(length("3cm", 20.0), None);
        assert_eq!(length("NaN", 20.0), None);
    }

    #[test]
    fn entities_and_white_space_are_read_as_svg_reads_them() {
        assert_eq!(unescape("a &amp; b &#215; &#x2014;").unwrap(), "a & b × —");
        assert!(unescape("&nope;").is_err());
        assert!(unescape("a & b").is_err());
        assert_eq!(collapse("  two\n  words "), "two words");
    }

    #[test]
    fn attributes_keep_their_order_and_quotes() {
        let a = attributes(r#" x="1" fill='#555' transform="rotate(270, 30, 455)" "#).unwrap();
        assert_eq!(
            a,
            [
                ("x", "1"),
                ("fill", "#555"),
                ("transform", "rotate(270, 30, 455)")
            ]
        );
        assert!(attributes(r#"x=1"#).is_err());
        assert!(attributes(r#"x="1"#).is_err());
    }
}
