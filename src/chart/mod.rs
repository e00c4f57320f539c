//! Learning charts with plotters: line charts with 95 % bands, overlays with a legend, histograms.
//! Charts are drawn as SVG with plotters (text measured with the embedded DejaVu Sans through
//! plotters' `ab_glyph` feature). PNG is that SVG, its text made outlines in the same embedded font
//! ([`outline`]), rasterised by resvg:
//! plotters' own bitmap text places each glyph without its side bearing, which spaces letters
//! unevenly ("MEN ACE"), so PNGs do not use it. Either way, no system font is needed.

pub mod data;
pub mod fonts;
pub mod outline;

use std::path::Path;

use plotters::prelude::*;
use plotters::style::FontStyle;
use thiserror::Error;

/// Projector size.
pub const WIDTH: u32 = 1600;
pub const HEIGHT: u32 = 900;

#[derive(Debug, Error)]
pub enum ChartError {
    #[error("cannot draw the chart: {0}")]
    Draw(String),
    #[error("`{0}`: charts are .png or .svg files")]
    Format(String),
    #[error("nothing to draw: {0}")]
    Empty(String),
    #[error("the fonts to draw text with are not loaded yet")]
    NoFonts,
}

/// One line of a chart, with an optional band (x, low, high) drawn under it.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    pub band: Option<Vec<(f64, f64, f64)>>,
    /// Drawn dashed and grey: a reference, such as perfect play.
    pub reference: bool,
    /// Measured on the right-hand axis ([`ChartSpec::y2_label`]): a count of another kind, too
    /// small to see on the left-hand one.
    pub secondary: bool,
    /// A colour of its own (an arrow's bead colour), instead of the next in the series order.
    pub colour: Option<crate::palette::Colour>,
}

impl Series {
    pub fn line(name: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series {
            name: name.into(),
            points,
            band: None,
            reference: false,
            secondary: false,
            colour: None,
        }
    }
    /// The same series in a given colour.
    pub fn in_colour(mut self, colour: crate::palette::Colour) -> Series {
        self.colour = Some(colour);
        self
    }
    /// The same series on the right-hand axis.
    pub fn on_right_axis(mut self) -> Series {
        self.secondary = true;
        self
    }
}

/// Lines or bars.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Lines,
    /// Lines on a logarithmic axis (powers of ten): counts that grow by orders of magnitude,
    /// such as the steps a pole stays up. Values below 1 are drawn at 1.
    LogLines,
    /// Bars: each point is (bin start, count), bins one unit wide.
    Bars,
}

/// Everything a chart shows.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartSpec {
    pub title: String,
    pub subtitle: String,
    pub x_label: String,
    pub y_label: String,
    /// The right-hand axis, for the series marked [`Series::secondary`].
    pub y2_label: Option<String>,
    pub kind: Kind,
    pub series: Vec<Series>,
}

/// The colour of series `i`: from the one palette of [`crate::palette`].
fn colour(i: usize) -> RGBColor {
    let (r, g, b) = crate::palette::series(i).rgb;
    RGBColor(r, g, b)
}

/// Registers the embedded fonts for laying out text (in a browser, plotters measures text with
/// the page's fonts instead).
fn register_fonts() {
    #[cfg(not(target_arch = "wasm32"))]
    static ONCE: std::sync::Once = std::sync::Once::new();
    #[cfg(not(target_arch = "wasm32"))]
    ONCE.call_once(|| {
        // The embedded fonts are valid, so registration cannot fail.
        if let Some(f) = fonts::fonts() {
            let _ = plotters::style::register_font("sans-serif", FontStyle::Normal, f.regular);
            let _ = plotters::style::register_font("sans-serif", FontStyle::Bold, f.bold);
        }
    });
}

fn err(e: impl std::fmt::Display) -> ChartError {
    ChartError::Draw(e.to_string())
}

/// The axes of a chart: its ranges, the right-hand axis's top, and the legend's corner.
struct Axes {
    x: (f64, f64),
    y: (f64, f64),
    y2: f64,
    two_axes: bool,
    legend: Option<SeriesLabelPosition>,
}

/// The points of the series on the left axis (`secondary` false) or the right one, bands too.
fn points(spec: &ChartSpec, secondary: bool) -> Vec<(f64, f64)> {
    (spec.series.iter().filter(|s| s.secondary == secondary))
        .flat_map(|s| {
            s.points
                .iter()
                .copied()
                .chain((s.band.iter().flatten()).flat_map(|&(x, lo, hi)| [(x, lo), (x, hi)]))
        })
        .collect()
}

/// The axes that hold every point: rates, counts and beads from 0, a margin above, and room for
/// the legend.
fn axes(spec: &ChartSpec) -> Result<Axes, ChartError> {
    let (mut all, right) = (points(spec, false), points(spec, true));
    if all.is_empty() && right.is_empty() {
        return Err(ChartError::Empty(spec.title.clone()));
    }
    // An axis cannot run to infinity (its ticks would never end).
    let finite = |s: &Series| {
        s.points
            .iter()
            .all(|&(x, y)| x.is_finite() && y.is_finite())
            && (s.band.iter().flatten())
                .all(|&(x, lo, hi)| x.is_finite() && lo.is_finite() && hi.is_finite())
    };
    if let Some(s) = spec.series.iter().find(|s| !finite(s)) {
        return Err(ChartError::Draw(format!(
            "{}: a value that is not a finite number",
            s.name
        )));
    }
    let (mut x0, mut x1) =
        (all.iter().chain(&right)).fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.0), b.max(p.0)));
    let (mut y0, mut y1) =
        (all.iter()).fold((f64::MAX, f64::MIN), |(a, b), p| (a.min(p.1), b.max(p.1)));
    if all.is_empty() {
        (y0, y1) = (0.0, 1.0);
    }
    // The right-hand axis: counts, from 0, a whole number a little above the largest.
    let mut y2 = (right.iter().fold(0f64, |m, p| m.max(p.1)) * 1.1)
        .ceil()
        .max(4.0);
    if spec.kind == Kind::Bars {
        x1 += 1.0;
    }
    // Rates, counts and beads are never negative: their axis starts at 0, so that a change is
    // seen at its true size.
    y0 = y0.min(0.0);
    if x1 <= x0 {
        x1 = x0 + 1.0;
    }
    if y1 <= y0 {
        y1 = y0 + 1.0;
    }
    let pad = (y1 - y0) * 0.05;
    (y0, y1) = (if y0 == 0.0 { 0.0 } else { y0 - pad }, y1 + pad);
    x0 = x0.min(x1);
    // The legend keeps clear of the right-hand series too, seen where they are drawn.
    all.extend(right.iter().map(|&(x, y)| (x, y0 + y / y2 * (y1 - y0))));
    let before = y1;
    let legend = (spec.series.len() > 1).then(|| place_legend(spec, &all, (x0, x1), &mut y1, y0));
    // Where the legend opened a band along the top, the right-hand axis makes the same room.
    y2 *= (y1 - y0) / (before - y0);
    Ok(Axes {
        x: (x0, x1),
        y: (y0, y1),
        y2,
        two_axes: !right.is_empty(),
        legend,
    })
}

type Coords =
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>;
type Plot<'a, 'b> = plotters::chart::DualCoordChartContext<'a, SVGBackend<'b>, Coords, Coords>;

/// Draws series `i`: its band, then its line (dashed on the right axis or as a reference) or
/// its bars, with its legend entry.
fn draw_series(chart: &mut Plot, spec: &ChartSpec, i: usize) -> Result<(), ChartError> {
    let s = &spec.series[i];
    let colour = match s.colour {
        _ if s.reference => RGBColor(90, 90, 90),
        Some(c) => RGBColor(c.rgb.0, c.rgb.1, c.rgb.2),
        None => colour(i),
    };
    if let Some(band) = &s.band {
        let mut poly: Vec<(f64, f64)> = band.iter().map(|&(x, _, hi)| (x, hi)).collect();
        poly.extend(band.iter().rev().map(|&(x, lo, _)| (x, lo)));
        chart
            .draw_series(std::iter::once(Polygon::new(
                poly,
                colour.mix(0.18).filled(),
            )))
            .map_err(err)?;
    }
    let style = colour.stroke_width(if s.reference { 2 } else { 4 });
    let line = s.points.iter().copied();
    let anno = match spec.kind {
        Kind::Lines if s.secondary => chart
            .draw_secondary_series(DashedLineSeries::new(line, 16, 6, style))
            .map_err(err)?,
        Kind::Lines if s.reference => chart
            .draw_series(DashedLineSeries::new(line, 12, 8, style))
            .map_err(err)?,
        Kind::Lines | Kind::LogLines => chart
            .draw_series(LineSeries::new(line, style))
            .map_err(err)?,
        Kind::Bars => chart
            .draw_series(s.points.iter().map(|&(x, y)| {
                Rectangle::new([(x + 0.1, 0.0), (x + 0.9, y)], colour.mix(0.85).filled())
            }))
            .map_err(err)?,
    };
    anno.label(s.name.as_str()).legend(move |(x, y)| {
        PathElement::new(vec![(x - 4, y), (x + 14, y)], colour.stroke_width(5))
    });
    Ok(())
}

/// The grid and both axes, labelled.
fn draw_axes(chart: &mut Plot, spec: &ChartSpec, a: &Axes) -> Result<(), ChartError> {
    let (x_step, y_step) = ((a.x.1 - a.x.0) / 10.0, (a.y.1 - a.y.0) / 10.0);
    chart
        .configure_mesh()
        .x_desc(spec.x_label.as_str())
        .y_desc(spec.y_label.as_str())
        .label_style(("sans-serif", 26))
        .axis_desc_style(("sans-serif", 30))
        .x_label_formatter(&|x| tick(*x, x_step))
        .y_label_formatter(&|y| match spec.kind {
            Kind::LogLines => power_tick(*y),
            _ => tick(*y, y_step),
        })
        .light_line_style(RGBColor(235, 235, 235))
        .bold_line_style(RGBColor(210, 210, 210))
        .draw()
        .map_err(err)?;
    if a.two_axes {
        // Whole numbers only: these are counts.
        let labels = (a.y2.floor() as usize + 1).min(11);
        chart
            .configure_secondary_axes()
            .y_desc(spec.y2_label.as_deref().unwrap_or(""))
            .label_style(("sans-serif", 26))
            .axis_desc_style(("sans-serif", 30))
            .y_labels(labels)
            .y_label_formatter(&|y| {
                if (y - y.round()).abs() < 1e-9 {
                    crate::text::group(y.round().max(0.0) as u64)
                } else {
                    String::new()
                }
            })
            .draw()
            .map_err(err)?;
    }
    Ok(())
}

/// The chart as an SVG document.
pub fn svg(spec: &ChartSpec) -> Result<String, ChartError> {
    register_fonts();
    let logged;
    let spec = match spec.kind {
        Kind::LogLines => {
            logged = on_log_axis(spec);
            &logged
        }
        _ => spec,
    };
    let a = axes(spec)?;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (top, body) = root.split_vertically(130);
        let title = ("sans-serif", 44).into_font().style(FontStyle::Bold);
        top.draw_text(&spec.title, &title.color(&BLACK), (60, 28))
            .map_err(err)?;
        let subtitle = ("sans-serif", 28).into_font().color(&RGBColor(70, 70, 70));
        top.draw_text(&spec.subtitle, &subtitle, (60, 86))
            .map_err(err)?;
        let mut chart = ChartBuilder::on(&body)
            .margin_left(30)
            .margin_right(if a.two_axes { 20 } else { 60 })
            .margin_bottom(30)
            .x_label_area_size(90)
            .y_label_area_size(130)
            .right_y_label_area_size(if a.two_axes { 120 } else { 0 })
            .build_cartesian_2d(a.x.0..a.x.1, a.y.0..a.y.1)
            .map_err(err)?
            .set_secondary_coord(a.x.0..a.x.1, 0.0..a.y2);
        draw_axes(&mut chart, spec, &a)?;
        for i in 0..spec.series.len() {
            draw_series(&mut chart, spec, i)?;
        }
        if let Some(corner) = a.legend {
            chart
                .configure_series_labels()
                .label_font(("sans-serif", 26))
                .background_style(WHITE.mix(0.9))
                .border_style(RGBColor(180, 180, 180))
                .position(corner)
                .margin(16)
                .draw()
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(out)
}

/// Where the legend goes: the corner of the plot whose legend-sized patch holds the fewest data
/// points, none if it can; when every corner has data, the y axis is raised (`y1`) so that a band
/// free of data opens along the top, and the legend sits in it, upper right.
fn place_legend(
    spec: &ChartSpec,
    all: &[(f64, f64)],
    (x0, x1): (f64, f64),
    y1: &mut f64,
    y0: f64,
) -> SeriesLabelPosition {
    // The plot area in pixels, roughly, and the legend's share of it.
    let (plot_w, plot_h) = (f64::from(WIDTH) - 220.0, f64::from(HEIGHT) - 250.0);
    let longest = spec
        .series
        .iter()
        .map(|s| s.name.chars().count())
        .max()
        .unwrap_or(0);
    let w = ((longest as f64 * 14.0 + 90.0) / plot_w).min(0.9);
    let h = ((spec.series.len() as f64 * 34.0 + 40.0) / plot_h).min(0.9);
    let (dx, dy) = (x1 - x0, *y1 - y0);
    let corners = [
        (SeriesLabelPosition::UpperRight, 1.0 - w, 1.0 - h),
        (SeriesLabelPosition::UpperLeft, 0.0, 1.0 - h),
        (SeriesLabelPosition::LowerRight, 1.0 - w, 0.0),
        (SeriesLabelPosition::LowerLeft, 0.0, 0.0),
    ];
    let inside = |(fx, fy): (f64, f64), &(x, y): &(f64, f64)| {
        let (px, py) = ((x - x0) / dx, (y - y0) / dy);
        px >= fx - 0.02 && px <= fx + w + 0.02 && py >= fy - 0.03 && py <= fy + h + 0.03
    };
    let (corner, crowded) = corners
        .into_iter()
        .map(|(c, fx, fy)| (c, all.iter().filter(|p| inside((fx, fy), p)).count()))
        .min_by_key(|&(_, n)| n)
        .expect("four corners");
    if crowded == 0 {
        return corner;
    }
    *y1 = y0 + dy / (1.0 - h - 0.04);
    SeriesLabelPosition::UpperRight
}

/// An axis label: whole numbers when the ticks are a unit or more apart, else two decimals.
/// A tick of a logarithmic axis: the power of ten at a whole exponent, nothing between.
fn power_tick(v: f64) -> String {
    match (v - v.round()).abs() < 1e-9 && v >= -0.5 {
        true => crate::text::group(10u64.pow(v.round() as u32)),
        false => String::new(),
    }
}

fn tick(v: f64, step: f64) -> String {
    if step >= 1.0 {
        // Whole numbers with thousands separated: 89,907,394.
        let sign = if v < -0.5 { "-" } else { "" };
        format!("{sign}{}", crate::text::group(v.abs().round() as u64))
    } else {
        format!("{v:.2}")
    }
}

/// `spec` with its values turned to their logarithms (base 10), to be drawn on a linear axis
/// whose ticks say the powers of ten.
fn on_log_axis(spec: &ChartSpec) -> ChartSpec {
    let log = |y: f64| y.max(1.0).log10();
    let mut out = spec.clone();
    for s in &mut out.series {
        s.points.iter_mut().for_each(|p| p.1 = log(p.1));
        for b in s.band.iter_mut().flatten() {
            (b.1, b.2) = (log(b.1), log(b.2));
        }
    }
    out
}

/// The chart as a PNG image ([`WIDTH`] × [`HEIGHT`]): the SVG rasterised with the embedded font.
pub fn png(spec: &ChartSpec) -> Result<Vec<u8>, ChartError> {
    svg_to_png(&svg(spec)?)
}

/// An SVG document of this program made ready for the rasteriser: its text turned into outlines
/// in the DejaVu fonts of [`fonts`] ([`outline::outline_text`]), so text renders the same on a
/// machine with no fonts installed, and usvg needs no text engine.
pub fn svg_tree(svg: &str) -> Result<resvg::usvg::Tree, ChartError> {
    let f = fonts::fonts().ok_or(ChartError::NoFonts)?;
    let faces = outline::Faces::new(f).map_err(err)?;
    let svg = outline::outline_text(svg, &faces).map_err(err)?;
    resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default()).map_err(err)
}

/// Rasterises an SVG document drawn by [`svg`].
pub fn svg_to_png(svg: &str) -> Result<Vec<u8>, ChartError> {
    use resvg::tiny_skia;
    let tree = svg_tree(svg)?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| ChartError::Draw("empty image".into()))?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap.encode_png().map_err(err)
}

/// How a chart file is written, chosen by its extension.
pub trait Exporter {
    fn export(&self, spec: &ChartSpec) -> Result<Vec<u8>, ChartError>;
}

pub struct Png;
pub struct Svg;

impl Exporter for Png {
    fn export(&self, spec: &ChartSpec) -> Result<Vec<u8>, ChartError> {
        png(spec)
    }
}
impl Exporter for Svg {
    fn export(&self, spec: &ChartSpec) -> Result<Vec<u8>, ChartError> {
        svg(spec).map(String::into_bytes)
    }
}

/// The exporter for a file name.
pub fn exporter_for(path: &Path) -> Result<Box<dyn Exporter>, ChartError> {
    match path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("png") => Ok(Box::new(Png)),
        Some("svg") => Ok(Box::new(Svg)),
        _ => Err(ChartError::Format(path.display().to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(series: Vec<Series>) -> ChartSpec {
        ChartSpec {
            title: String::new(),
            subtitle: String::new(),
            x_label: String::new(),
            y_label: String::new(),
            y2_label: None,
            kind: Kind::Lines,
            series,
        }
    }

    #[test]
    fn the_legend_goes_where_there_is_no_data() {
        // A line rising to the upper right: the legend goes upper left.
        let line: Vec<(f64, f64)> = (0..=100).map(|i| (i as f64, i as f64)).collect();
        let s = spec(vec![
            Series::line("a", line.clone()),
            Series::line("b", line.clone()),
        ]);
        let mut y1 = 100.0;
        let corner = place_legend(&s, &line, (0.0, 100.0), &mut y1, 0.0);
        assert!(matches!(corner, SeriesLabelPosition::UpperLeft));
        assert_eq!(y1, 100.0);
        // Data in every corner: the axis is raised to open a band along the top.
        let mut everywhere = Vec::new();
        for i in 0..=100 {
            for j in 0..=20 {
                everywhere.push((i as f64, j as f64 * 5.0));
            }
        }
        let mut y1 = 100.0;
        let corner = place_legend(&s, &everywhere, (0.0, 100.0), &mut y1, 0.0);
        assert!(matches!(corner, SeriesLabelPosition::UpperRight));
        assert!(y1 > 110.0, "{y1}");
    }

    #[test]
    fn a_rate_s_axis_starts_at_zero() {
        let points = vec![(1.0, 0.4), (2.0, 0.6), (3.0, 0.5)];
        let svg = svg(&spec(vec![Series::line("rate", points)])).unwrap();
        // The tick labels are text elements: the lowest reads 0.00.
        let labels: Vec<&str> = svg
            .split("<text")
            .skip(1)
            .filter_map(|t| Some(t.split('>').nth(1)?.split('<').next()?.trim()))
            .collect();
        assert!(labels.contains(&"0.00"), "{labels:?}");
    }
}
