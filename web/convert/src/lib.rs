//! The page's converter, a module of its own: the learning chart's SVG to PNG and the label
//! sheets to one PDF, with the DejaVu fonts the page fetches from its folder. The text and image
//! stack this needs (usvg, resvg and the font readers) is most of the code, so the page loads it
//! only when a PNG or the labels are first asked for, and the page a class opens stays small.

use wasm_bindgen::prelude::*;

/// Whether the fonts are here.
#[wasm_bindgen]
pub fn has_fonts() -> bool {
    matchbox::chart::fonts::fonts().is_some()
}

/// The fonts, fetched by the page: DejaVu Sans and DejaVu Sans Bold.
#[wasm_bindgen]
pub fn give_fonts(regular: Vec<u8>, bold: Vec<u8>) {
    matchbox::chart::fonts::give(regular, bold);
}

/// A chart's SVG as a PNG image, as `plot --out chart.png` draws it.
#[wasm_bindgen]
pub fn svg_to_png(svg: &str) -> Result<Vec<u8>, JsValue> {
    matchbox::chart::svg_to_png(svg).map_err(|e| JsValue::from_str(&e.to_string()))
}

/// Label sheets (SVG, a page each) as one PDF, as `boxes --labels labels.pdf` writes it.
#[wasm_bindgen]
pub fn pages_to_pdf(pages: Vec<String>, title: &str) -> Result<Vec<u8>, JsValue> {
    matchbox::labels::pdf::pages_to_pdf(&pages, title)
        .map_err(|e| JsValue::from_str(&e.to_string()))
}
