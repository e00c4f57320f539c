//! A teacher's files from the page: the machine (the command line's YAML, both ways), the labels
//! to print (the same PDF as `boxes --labels`) and the learning chart (the same plotters chart,
//! SVG or PNG).

use std::cell::RefCell;
use std::path::Path;

use matchbox::chart::ChartSpec;
use matchbox::labels::LabelView;
use matchbox::learn::GameDefaults;
use matchbox::view::board::BoardView;
use matchbox::view::session::Session;
use wasm_bindgen::prelude::*;

pub use matchbox::front::files::{Body, TeacherFile as File};
use matchbox::front::files::{Source, Want};

/// What makes the page's files (from the session on screen).
pub type Maker = Box<dyn Fn(&str) -> Result<File, String>>;

thread_local! {
    /// What makes the page's files from the session on screen.
    static FILES: RefCell<Option<Maker>> = const { RefCell::new(None) };
}

/// What makes the files the page offers from now on.
pub fn offer(maker: Maker) {
    FILES.with(|f| *f.borrow_mut() = Some(maker));
}

/// The file `what` names of a session (`machine`, `labels`, `labels-trained`, `chart`,
/// `chart-png`), made as the class's projector makes its own; its chart is Michie's learning
/// curve as `train --plot` draws it, with the line of perfect play where the opponent is the
/// perfect player.
pub fn make<G: BoardView + LabelView>(s: &Session<G>, what: &str) -> Result<File, String> {
    let (game, m) = (s.game(), s.machine());
    let source = Source {
        stem: format!("{}-{}", game.name(), game.side_name(m.boxes.side())),
        chart: (!s.curve.points.is_empty()).then(|| chart(s)),
        colours: s.colours,
        game,
        machine: m,
    };
    source.file(Want::parse(what)?)
}

fn chart<G: GameDefaults>(s: &Session<G>) -> ChartSpec {
    let label = s.bout().label(None);
    matchbox::chart::data::learning_curve(&label, s.curve.points.clone(), s.bout().perfect_play())
}

/// Offers the page's file `what` (`machine`, `labels`, `labels-trained`, `chart`, `chart-png`)
/// for download: `null` once offered, or, for a PNG or a PDF, what the converter is to turn into
/// one (an object of `name`, `mime`, `kind` — `png` or `pdf` —, `svgs`, the SVG documents, and
/// `title`, a PDF's document title).
#[wasm_bindgen]
pub fn download_file(what: &str) -> Result<JsValue, JsValue> {
    let file = FILES.with(|f| match f.borrow().as_ref() {
        Some(make) => make(what),
        None => Err("nothing to save yet".into()),
    });
    let file = file.map_err(|e| JsValue::from_str(&e))?;
    let (kind, svgs, title) = match file.body {
        Body::Bytes(bytes) => {
            crate::download(&file.name, &bytes, file.mime).map_err(|e| JsValue::from_str(&e))?;
            return Ok(JsValue::NULL);
        }
        Body::Png(svg) => ("png", vec![svg], String::new()),
        Body::Pdf(pages, title) => ("pdf", pages, title),
    };
    let out = js_sys::Object::new();
    let set = |k: &str, v: JsValue| js_sys::Reflect::set(&out, &JsValue::from_str(k), &v);
    set("name", file.name.into())?;
    set("mime", file.mime.into())?;
    set("kind", kind.into())?;
    set("title", title.into())?;
    let array: js_sys::Array = svgs.into_iter().map(JsValue::from).collect();
    set("svgs", array.into())?;
    Ok(out.into())
}

/// Where the page keeps a machine file opened, across the reload that sets up its game.
const STORED: &str = "matchbox-machine";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

/// Opens a machine file: checked here as the command line checks it (a bad file is refused with
/// its one-line message), kept for the page, and the address for its game returned, for the page
/// to go to.
#[wasm_bindgen]
pub fn open_machine(name: &str, text: &str) -> Result<String, JsValue> {
    let fail = |e: String| JsValue::from_str(&e);
    let path = Path::new(name);
    let f = matchbox::store::file_game(path, text).map_err(|e| fail(e.to_string()))?;
    let kind = matchbox::games::GameKind::parse(&f.game, f.size.as_deref())
        .map_err(|e| fail(format!("{name}: key `game`: {e}")))?;
    let g = matchbox::games::any::AnyGame::new(kind);
    matchbox::store::from_yaml(&g, path, text).map_err(|e| fail(e.to_string()))?;
    let store = storage().ok_or_else(|| fail("this browser keeps no files for the page".into()))?;
    store
        .set_item(STORED, text)
        .map_err(|_| fail("the file is too big for the page".into()))?;
    store.set_item("matchbox-machine-name", name).ok();
    let mut query = format!("game={}", f.game);
    if let Some(size) = f.size {
        query.push_str(&format!("&size={size}"));
    }
    Ok(query)
}

/// The machine file opened before this page loaded, if any (taken: a later visit starts fresh).
pub fn take_opened() -> Option<(String, String)> {
    let store = storage()?;
    let text = store.get_item(STORED).ok()??;
    let name = store
        .get_item("matchbox-machine-name")
        .ok()
        .flatten()
        .unwrap_or_else(|| "machine.yaml".into());
    store.remove_item(STORED).ok();
    Some((name, text))
}
