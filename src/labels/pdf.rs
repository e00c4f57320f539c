//! The label sheets as one PDF a teacher prints in one go. Each SVG page is read by usvg (its text
//! turned into outlines with the DejaVu fonts of `chart::fonts` by `chart::outline`, so nothing depends on the fonts of the
//! printing machine) and its paths written as PDF vector paths with pdf-writer: sharp at any size,
//! the same drawing as the SVG pages.

use pdf_writer::types::{LineCapStyle, LineJoinStyle};
use pdf_writer::{Content, Filter, Finish, Pdf, Rect, Ref, TextStr};
use resvg::usvg::{self, Node, Paint, Transform};

/// A page that could not be converted.
#[derive(Debug, thiserror::Error)]
#[error("label page {page}: {message}")]
pub struct PdfError {
    pub page: usize,
    pub message: String,
}

/// Points (1/72 inch) per CSS pixel (1/96 inch), the unit usvg measures in.
const PT_PER_PX: f32 = 0.75;

/// One PDF with a page per SVG document, each page the size of its document, and `title` (the
/// sheets' title: what the labels are of) as its document title, which a viewer shows and a
/// search finds (the pages' own text is drawn as outlines).
pub fn pages_to_pdf(pages: &[String], title: &str) -> Result<Vec<u8>, PdfError> {
    let catalog = Ref::new(1);
    let tree_id = Ref::new(2);
    let info = Ref::new(3);
    let mut next = 4;
    let mut pdf = Pdf::new();
    let mut kids = Vec::with_capacity(pages.len());
    let mut bodies = Vec::with_capacity(pages.len());
    for (i, svg) in pages.iter().enumerate() {
        let tree = crate::chart::svg_tree(svg).map_err(|e| PdfError {
            page: i + 1,
            message: e.to_string(),
        })?;
        let (w, h) = (
            tree.size().width() * PT_PER_PX,
            tree.size().height() * PT_PER_PX,
        );
        let mut content = Content::new();
        // usvg's y axis points down, PDF's up.
        content.transform([PT_PER_PX, 0.0, 0.0, -PT_PER_PX, 0.0, h]);
        draw_group(&mut content, tree.root());
        let (page, body) = (Ref::new(next), Ref::new(next + 1));
        next += 2;
        kids.push(page);
        bodies.push((page, body, w, h, content.finish()));
    }
    pdf.catalog(catalog).pages(tree_id);
    pdf.document_info(info)
        .title(TextStr(title))
        .creator(TextStr("matchbox"));
    pdf.pages(tree_id)
        .kids(kids.iter().copied())
        .count(kids.len() as i32);
    for (page, body, w, h, data) in &bodies {
        let mut p = pdf.page(*page);
        p.parent(tree_id)
            .media_box(Rect::new(0.0, 0.0, *w, *h))
            .contents(*body);
        p.resources();
        p.finish();
        // Text drawn as outlines makes long streams; deflated they shrink about sixfold.
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(data, 6);
        pdf.stream(*body, &packed).filter(Filter::FlateDecode);
    }
    Ok(pdf.finish())
}

fn draw_group(c: &mut Content, group: &usvg::Group) {
    for node in group.children() {
        match node {
            Node::Group(g) => draw_group(c, g),
            Node::Path(p) if p.is_visible() => draw_path(c, p),
            Node::Text(t) => draw_group(c, t.flattened()),
            // The labels hold no images; a hidden path draws nothing.
            _ => {}
        }
    }
}

fn rgb(paint: &Paint) -> Option<[f32; 3]> {
    match paint {
        Paint::Color(col) => Some([
            col.red as f32 / 255.0,
            col.green as f32 / 255.0,
            col.blue as f32 / 255.0,
        ]),
        // Gradients and patterns are not used on labels.
        _ => None,
    }
}

fn draw_path(c: &mut Content, path: &usvg::Path) {
    let fill = path
        .fill()
        .and_then(|f| rgb(f.paint()).map(|k| (k, f.rule())));
    let stroke = path.stroke().and_then(|s| rgb(s.paint()).map(|k| (k, s)));
    if fill.is_none() && stroke.is_none() {
        return;
    }
    c.save_state();
    let Transform {
        sx,
        ky,
        kx,
        sy,
        tx,
        ty,
    } = path.abs_transform();
    c.transform([sx, ky, kx, sy, tx, ty]);
    // The current point, for quadratic curves (font outlines), which PDF writes as cubics.
    let mut at = (0.0f32, 0.0f32);
    let mut start = at;
    for segment in path.data().segments() {
        use usvg::tiny_skia_path::PathSegment as S;
        match segment {
            S::MoveTo(p) => {
                c.move_to(p.x, p.y);
                (at, start) = ((p.x, p.y), (p.x, p.y));
            }
            S::LineTo(p) => {
                c.line_to(p.x, p.y);
                at = (p.x, p.y);
            }
            S::QuadTo(q, p) => {
                // The cubic equal to the quadratic: control points two thirds of the way from
                // each end to the quadratic's control point.
                let third = |a: f32, b: f32| a + (b - a) * 2.0 / 3.0;
                c.cubic_to(
                    third(at.0, q.x),
                    third(at.1, q.y),
                    third(p.x, q.x),
                    third(p.y, q.y),
                    p.x,
                    p.y,
                );
                at = (p.x, p.y);
            }
            S::CubicTo(a, b, p) => {
                c.cubic_to(a.x, a.y, b.x, b.y, p.x, p.y);
                at = (p.x, p.y);
            }
            S::Close => {
                c.close_path();
                at = start;
            }
        }
    }
    if let Some(([r, g, b], _)) = fill {
        c.set_fill_rgb(r, g, b);
    }
    if let Some(([r, g, b], s)) = stroke {
        c.set_stroke_rgb(r, g, b);
        c.set_line_width(s.width().get());
        c.set_line_cap(match s.linecap() {
            usvg::LineCap::Butt => LineCapStyle::ButtCap,
            usvg::LineCap::Round => LineCapStyle::RoundCap,
            usvg::LineCap::Square => LineCapStyle::ProjectingSquareCap,
        });
        c.set_line_join(match s.linejoin() {
            usvg::LineJoin::Round => LineJoinStyle::RoundJoin,
            usvg::LineJoin::Bevel => LineJoinStyle::BevelJoin,
            _ => LineJoinStyle::MiterJoin,
        });
        if let Some(dashes) = s.dasharray() {
            c.set_dash_pattern(dashes.iter().copied(), s.dashoffset());
        }
    }
    let even_odd = matches!(fill, Some((_, usvg::FillRule::EvenOdd)));
    match (fill.is_some(), stroke.is_some(), even_odd) {
        (true, true, false) => c.fill_nonzero_and_stroke(),
        (true, true, true) => c.fill_even_odd_and_stroke(),
        (true, false, false) => c.fill_nonzero(),
        (true, false, true) => c.fill_even_odd(),
        _ => c.stroke(),
    };
    c.restore_state();
}
