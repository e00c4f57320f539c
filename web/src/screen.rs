//! The page's grid and how it is drawn. A wide screen of ordinary pixel density (a projector, a
//! classroom's computer) gets ratzilla's canvas backend, which paints only the cells that changed:
//! at 1920×1080 (258×70 cells) headless Chromium drew 55–60 frames a second with it, 3–7 with the
//! DOM backend's 18,000 spans, whose style and layout took 91 % of the time. A phone and a
//! high-density screen keep the DOM backend: the browser draws its text sharp at any pixel ratio,
//! and their grids are small. The page says which in `#screen`'s `data-render` (`?render=dom` or
//! `canvas` in the address chooses).
//!
//! The text drawn is kept for the browser test when it asks (`screen_text`), with the cells whose
//! letter is drawn in its background's colour.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use matchbox::view::theme::rgb;
use ratzilla::ratatui::buffer::Buffer;
use wasm_bindgen::prelude::*;

/// The canvas backend's cell, in canvas pixels, and the margin it draws within.
pub const CELL: (f64, f64) = (10.0, 19.0);
pub const MARGIN: f64 = 5.0;

/// Clicks (and taps) on the screen since the last frame: (column, row) of the grid.
pub type Clicks = Rc<RefCell<Vec<(u16, u16)>>>;

thread_local! {
    static WANTED: Cell<bool> = const { Cell::new(false) };
    static TEXT: RefCell<String> = const { RefCell::new(String::new()) };
    static UNREADABLE: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    static GRID: Cell<(u16, u16)> = const { Cell::new((0, 0)) };
}

/// Whether the page asked for the canvas (`data-render="canvas"` on `#screen`).
pub fn canvas_wanted() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("screen"))
        .and_then(|e| e.get_attribute("data-render"))
        .is_some_and(|r| r == "canvas")
}

/// The size `#screen` was given, in CSS pixels: the canvas's size.
pub fn canvas_size() -> Option<(u32, u32)> {
    let e = web_sys::window()?.document()?.get_element_by_id("screen")?;
    let e: web_sys::HtmlElement = e.dyn_into().ok()?;
    Some((e.offset_width() as u32, e.offset_height() as u32))
}

/// Listens for presses on the canvas in `#screen`: its place on screen (scaled as the page
/// scales it) turned into a cell of the grid of `cols`×`rows`.
pub fn canvas_clicks(cols: u16, rows: u16) -> Result<Clicks, String> {
    let clicks: Clicks = Rc::default();
    let canvas: web_sys::HtmlCanvasElement = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("#screen canvas").ok().flatten())
        .and_then(|e| e.dyn_into().ok())
        .ok_or("no canvas in #screen")?;
    let queue = Rc::clone(&clicks);
    let target = canvas.clone();
    let on_press = Closure::<dyn FnMut(web_sys::MouseEvent)>::new(move |e: web_sys::MouseEvent| {
        let rect = target.get_bounding_client_rect();
        if rect.width() <= 0.0 || rect.height() <= 0.0 {
            return;
        }
        // Page pixels to canvas pixels, then the margin and the cell.
        let x = (e.client_x() as f64 - rect.left()) * target.width() as f64 / rect.width();
        let y = (e.client_y() as f64 - rect.top()) * target.height() as f64 / rect.height();
        let (col, row) = ((x - MARGIN) / CELL.0, (y - MARGIN) / CELL.1);
        if col >= 0.0 && row >= 0.0 && col < cols as f64 && row < rows as f64 {
            queue.borrow_mut().push((col as u16, row as u16));
        }
    });
    canvas
        .add_event_listener_with_callback("pointerdown", on_press.as_ref().unchecked_ref())
        .map_err(|e| format!("{e:?}"))?;
    // The listener lives as long as the page.
    on_press.forget();
    Ok(clicks)
}

/// After a frame is drawn: its text kept, where the browser test has asked for it.
pub fn keep(buffer: &Buffer) {
    if !WANTED.with(Cell::get) {
        return;
    }
    TEXT.with(|t| *t.borrow_mut() = matchbox::view::render::buffer_text(buffer));
    GRID.with(|g| g.set((buffer.area.width, buffer.area.height)));
    let mut unreadable = Vec::new();
    for (i, cell) in buffer.content().iter().enumerate() {
        let letter = cell.symbol();
        if !letter.trim().is_empty() && rgb(cell.fg, true) == rgb(cell.bg, false) {
            let w = buffer.area.width.max(1) as usize;
            unreadable.push(format!(
                "{letter} at {},{} ({:?} on {:?})",
                i % w,
                i / w,
                cell.fg,
                cell.bg
            ));
        }
    }
    UNREADABLE.with(|u| *u.borrow_mut() = unreadable);
}

/// The screen's text as last drawn, a line a row (trailing spaces trimmed), for the browser test:
/// from this call on each frame keeps it.
#[wasm_bindgen]
pub fn screen_text() -> String {
    WANTED.with(|w| w.set(true));
    TEXT.with(|t| t.borrow().clone())
}

/// The cells of the last frame whose letter is drawn in its background's colour.
#[wasm_bindgen]
pub fn screen_unreadable() -> Vec<String> {
    UNREADABLE.with(|u| u.borrow().clone())
}

/// The grid of the last frame kept: its columns and rows.
#[wasm_bindgen]
pub fn screen_grid() -> Vec<u16> {
    let (w, h) = GRID.with(Cell::get);
    vec![w, h]
}
