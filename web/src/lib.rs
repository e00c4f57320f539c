//! matchbox in a browser page: the terminal's screens (`watch` and `play`) drawn by ratzilla
//! (its canvas backend on a wide screen, its DOM backend on a phone: `screen`), the match driven a frame at a time from `requestAnimationFrame` with a budget of
//! milliseconds (a page has no threads). The settings come from the page's address, with the
//! command line's names: `?game=tictactoe&screen=play&side=x&seed=1961`.

mod files;
mod operate;
mod pole;
mod screen;

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use matchbox::games::any::AnyGame;
use matchbox::labels::LabelView;
use matchbox::learn::Source;
use matchbox::view::app::{Action, Command, Mode, Snapshot, Titles, WatchApp, action_for};
use matchbox::view::board::BoardView;
use matchbox::view::drive::{self, Control};
use matchbox::view::key::Key;
use matchbox::view::key::{Front, buttons};
use matchbox::view::play::PlayApp;
use matchbox::view::render;
use matchbox::view::session::Session;
use ratzilla::ratatui::Terminal;
use ratzilla::ratatui::backend::Backend;
use ratzilla::{CanvasBackend, DomBackend, WebEventHandler, WebRenderer};
use wasm_bindgen::prelude::*;

pub use matchbox::front::address::{Screen, Settings};

/// Milliseconds of training a frame at flat out: the rest of a 16 ms frame draws.
const BUDGET_MS: f64 = 10.0;

/// The page's clock, in milliseconds.
fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Says `text` on the page, in the element `#message` (a bad address, a bad file).
fn say(text: &str) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("message"))
    {
        el.set_text_content(Some(text));
    }
}

/// The page address's pairs of a key and a value. An address without a seed gets one drawn at
/// random, written into the address (so the title's seed and a copied link open the same run).
fn pairs() -> Vec<(String, String)> {
    let window = web_sys::window();
    let search = (window.as_ref())
        .map(|w| w.location().search().unwrap_or_default())
        .unwrap_or_default();
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) else {
        return Vec::new();
    };
    if !params.has("seed") {
        let seed = 1 + (js_sys::Math::random() * 999_999.0) as u64;
        params.append("seed", &seed.to_string());
        let with = format!("?{}", String::from(params.to_string()));
        if let Some(h) = window.as_ref().and_then(|w| w.history().ok()) {
            let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&with));
        }
    }
    let mut pairs = Vec::new();
    if let Some(entries) = js_sys::try_iter(&params).ok().flatten() {
        for entry in entries.flatten() {
            let pair = js_sys::Array::from(&entry);
            let (k, v) = (pair.get(0).as_string(), pair.get(1).as_string());
            pairs.push((k.unwrap_or_default(), v.unwrap_or_default()));
        }
    }
    pairs
}

/// The settings in the page's address (the defaults, with the error said, if they are bad).
fn settings() -> Settings {
    match Settings::from_pairs(&pairs()) {
        Ok(s) => s,
        Err(e) => {
            say(&format!("error: {e}"));
            Settings::default()
        }
    }
}

/// The cart-pole's settings, where the address asks for the cart-pole.
fn pole_settings() -> Option<(matchbox::cartpole::learner::Kind, u64)> {
    match pole::settings(&pairs())? {
        Ok(s) => Some(s),
        Err(e) => {
            say(&format!("error: {e}"));
            Some((matchbox::cartpole::learner::Kind::Boxes, 1))
        }
    }
}

/// The page's module is loaded: a panic says where it happened in the console.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// The grid the screen of the address's settings needs, for the page to size its font: the
/// columns and rows of the screen side by side, then of its panels one above the other (a
/// phone held upright).
#[wasm_bindgen]
pub fn grid_need() -> Vec<u16> {
    if pole_settings().is_some() {
        let ((w, h), (tw, th)) = (render::POLE_MIN, render::POLE_TALL);
        return vec![w, h, tw, th];
    }
    let s = settings();
    let kind = match s.screen {
        Screen::Watch => render::ScreenKind::Watch,
        Screen::Play => render::ScreenKind::Play,
        Screen::Operate => return vec![80, 24, 44, 40],
    };
    let g = AnyGame::new(s.kind);
    let (wide, tall) = (render::min_size(&g, kind), render::tall_min_size(&g, kind));
    vec![wide.0, wide.1, tall.0, tall.1]
}

/// The page's buttons for the address's screen, from the key table: pairs of a label and the
/// `KeyboardEvent.key` the button presses, flattened (`["pause", " ", "step", "n", …]`).
#[wasm_bindgen]
pub fn key_buttons() -> Vec<String> {
    let mode = match pole_settings() {
        Some(_) => Mode::Pole,
        None => match settings().screen {
            Screen::Watch => Mode::Watch,
            Screen::Play => Mode::Play,
            Screen::Operate => Mode::Operate,
        },
    };
    buttons(mode)
        .into_iter()
        .flat_map(|(label, key)| [label.to_string(), key])
        .collect()
}

/// The page's game list, from the registry: pairs of an address value and its words, flattened
/// (`["hexapawn", "Hexapawn (HER)", "him", "Hexapawn (HIM)", …]`).
#[wasm_bindgen]
pub fn game_choices() -> Vec<String> {
    let mut choices: Vec<String> = matchbox::games::page_choices()
        .into_iter()
        .flat_map(|(value, words)| [value, words])
        .collect();
    let pole = matchbox::games::CARTPOLE;
    choices.extend([pole.name.into(), pole.title.into()]);
    choices
}

/// Shows the screen of the address's settings, in the page's grid (sized by then).
#[wasm_bindgen]
pub fn show() {
    if let Some(pole) = pole_settings() {
        let keys: Keys = Rc::default();
        let shown = listen_keys(Rc::clone(&keys)).and_then(|()| on_screen(PoleScreen(pole, keys)));
        if let Err(e) = shown {
            say(&format!("error: {e}"));
        }
        return;
    }
    let settings = settings();
    let result = match settings.screen {
        Screen::Operate => operate::run(AnyGame::new(settings.kind), &settings),
        _ => run(AnyGame::new(settings.kind), &settings),
    };
    if let Err(e) = result {
        say(&format!("error: {e}"));
    }
}

/// Keys pressed since the last frame.
type Keys = Rc<RefCell<VecDeque<Key>>>;

/// Every key pressed on the page (not in its own fields: the game list, a file), for the
/// screen; the page's buttons send theirs the same way.
fn listen_keys(keys: Keys) -> Result<(), String> {
    let window = web_sys::window().ok_or("no window")?;
    let on_key =
        Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(move |e: web_sys::KeyboardEvent| {
            let in_field = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .is_some_and(|el| {
                    matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA")
                });
            if in_field {
                return;
            }
            // Space and the arrows would scroll the page, Tab move the focus: they are the
            // screen's.
            if matches!(
                e.key().as_str(),
                " " | "ArrowUp" | "ArrowDown" | "ArrowLeft" | "ArrowRight" | "Tab"
            ) {
                e.prevent_default();
            }
            // The key by its DOM name, as the page's buttons send theirs: one mapping.
            keys.borrow_mut()
                .push_back(Key::from_dom(&e.key(), e.ctrl_key()));
        });
    window
        .add_event_listener_with_callback("keydown", on_key.as_ref().unchecked_ref())
        .map_err(|e| format!("{e:?}"))?;
    // The listener lives as long as the page.
    on_key.forget();
    Ok(())
}

/// Builds the match the settings ask for and shows its screen.
fn run<G: BoardView + LabelView + Clone + 'static>(game: G, s: &Settings) -> Result<(), String> {
    let mut spec = s.match_spec(&game)?;
    if let Some((name, text)) = files::take_opened() {
        let path = std::path::Path::new(&name);
        let loaded = matchbox::store::from_yaml(&game, path, &text).map_err(|e| e.to_string())?;
        spec.learner = Source::Loaded(loaded);
    }
    // The error's hint worded as the page's address says it (`opponent=random`).
    let bout =
        spec.build(game.clone(), &mut |_| {})
            .map_err(|e| match matchbox::learn::Hint::of(&e) {
                Some(h) => format!("{e}; use {}", h.as_param()),
                None => e.to_string(),
            })?;
    let titles = Titles::of(&game, bout.learner());
    let session = Session::of(bout);
    let keys: Keys = Rc::default();
    listen_keys(Rc::clone(&keys))?;
    let page = Page {
        titles,
        session,
        keys,
    };
    on_screen(BoardScreen(page, s.clone()))
}

/// A screen of the page, shown on whichever terminal the page draws with.
trait OnScreen {
    fn show<B: Backend + WebEventHandler + 'static>(self, terminal: Terminal<B>, clicks: Clicks);
}

/// A board game's screen: watch or play.
struct BoardScreen<G: BoardView>(Page<G>, Settings);

impl<G: BoardView + LabelView + 'static> OnScreen for BoardScreen<G> {
    fn show<B: Backend + WebEventHandler + 'static>(self, terminal: Terminal<B>, clicks: Clicks) {
        show_page(terminal, clicks, self.0, &self.1);
    }
}

/// The cart-pole's screen: its learner and seed, and the keys pressed.
struct PoleScreen((matchbox::cartpole::learner::Kind, u64), Keys);

impl OnScreen for PoleScreen {
    fn show<B: Backend + WebEventHandler + 'static>(self, terminal: Terminal<B>, _: Clicks) {
        pole::show(terminal, self.0, self.1);
    }
}

/// Shows `screen` on the page's canvas (a projector) or its DOM grid (a phone).
fn on_screen(screen: impl OnScreen) -> Result<(), String> {
    if screen::canvas_wanted() {
        let (w, h) = screen::canvas_size().ok_or("no #screen to draw in")?;
        let options = ratzilla::backend::canvas::CanvasBackendOptions::new()
            .grid_id("screen")
            .size((w, h));
        let backend = CanvasBackend::new_with_options(options).map_err(|e| e.to_string())?;
        // The backend's size is its grid less the margin's cell.
        let grid = backend.size().map_err(|e| e.to_string())?;
        let terminal = fixed(backend, grid.width, grid.height)?;
        let clicks = screen::canvas_clicks(grid.width, grid.height)?;
        screen.show(terminal, clicks);
    } else {
        let mut backend = DomBackend::new_by_id("screen").map_err(|e| e.to_string())?;
        // The grid the backend built in the page: its `size` speaks of the window instead.
        let grid = backend
            .window_size()
            .map_err(|e| e.to_string())?
            .columns_rows;
        let mut terminal = fixed(backend, grid.width, grid.height)?;
        let clicks = listen_clicks(&mut terminal);
        screen.show(terminal, clicks);
    }
    Ok(())
}

/// What a screen of the page is made of.
struct Page<G: BoardView> {
    titles: Titles,
    session: Session<G>,
    keys: Keys,
}

/// A terminal of `cols`×`rows` on `backend`, as a fixed viewport.
fn fixed<B: Backend>(backend: B, cols: u16, rows: u16) -> Result<Terminal<B>, String> {
    let area = ratzilla::ratatui::layout::Rect::new(0, 0, cols, rows);
    let viewport = ratzilla::ratatui::Viewport::Fixed(area);
    Terminal::with_options(backend, ratzilla::ratatui::TerminalOptions { viewport })
        .map_err(|e| e.to_string())
}

/// The screen the settings ask for, on `terminal`.
fn show_page<G, B>(terminal: Terminal<B>, clicks: Clicks, page: Page<G>, s: &Settings)
where
    G: BoardView + LabelView + 'static,
    B: Backend + WebEventHandler + 'static,
{
    let Page {
        titles,
        session,
        keys,
    } = page;
    match s.screen {
        Screen::Watch => watch(terminal, clicks, titles, session, s, keys),
        Screen::Play | Screen::Operate => play(terminal, clicks, titles, session, keys),
    }
}

use screen::Clicks;

/// Listens for clicks on the terminal's grid.
fn listen_clicks(terminal: &mut Terminal<DomBackend>) -> Clicks {
    use ratzilla::event::{MouseButton, MouseEventKind};
    let clicks: Clicks = Rc::default();
    let queue = Rc::clone(&clicks);
    let _ = terminal.on_mouse_event(move |m| {
        if m.kind == MouseEventKind::ButtonDown(MouseButton::Left) {
            queue.borrow_mut().push((m.col, m.row));
        }
    });
    clicks
}

/// The watch screen: the match trained at the chosen speed between frames.
fn watch<G: BoardView + LabelView + 'static, B: Backend + WebEventHandler + 'static>(
    terminal: Terminal<B>,
    clicked: Clicks,
    titles: Titles,
    session: Session<G>,
    s: &Settings,
    keys: Keys,
) {
    let path = "machine.yaml".into();
    let mut app = WatchApp::of_session(&session, titles, s.speed, path, Front::Page);
    let mut control = Control {
        speed: s.speed,
        paused: false,
        browse: None,
        whole: None,
        may_replace: true,
    };
    let mut due = now();
    let mut rate = Rate::default();
    // The session is watched, or (after `p`) played, until Esc brings it back.
    let shared = Rc::new(RefCell::new(Showing::Watch(Box::new(session))));
    let offered = Rc::clone(&shared);
    files::offer(Box::new(move |what| match &*offered.borrow() {
        Showing::Watch(s) => files::make(s, what),
        Showing::Play(p) => files::make(&p.session, what),
        Showing::Switching => Err("the screen is changing: try again".into()),
    }));
    terminal.draw_web(move |f| {
        let t = now();
        let mut showing = shared.borrow_mut();
        let area = f.area();
        app.browser.screen = (area.width, area.height);
        if let Showing::Play(play) = &mut *showing {
            play_frame(play, &clicked, &keys, area);
            if play.quit {
                // Esc: back to watching, the game left unfinished dropped.
                let Showing::Play(play) = std::mem::replace(&mut *showing, Showing::Switching)
                else {
                    return;
                };
                let session = app.back_from(*play);
                *showing = Showing::Watch(Box::new(session));
                due = t;
            } else {
                render::play(f, play);
                play.theme.explicit_reverse(f.buffer_mut());
                screen::keep(f.buffer_mut());
                return;
            }
        }
        let Showing::Watch(session) = &mut *showing else {
            return;
        };
        let clicks: Vec<Action> = (clicked.borrow_mut().drain(..))
            .filter_map(|(col, row)| render::watch_click(&app, area, col, row))
            .collect();
        let typed: Vec<Action> = (keys.borrow_mut().drain(..))
            .filter_map(|key| action_for(key, Mode::Watch))
            .collect();
        for action in clicks.into_iter().chain(typed) {
            for cmd in app.update(action) {
                if let Some(m) = command(&cmd, session, &mut control) {
                    app.message = Some(m);
                }
            }
        }
        if std::mem::take(&mut app.to_play) {
            // `p`: the person plays the machine as it is now.
            let Showing::Watch(session) = std::mem::replace(&mut *showing, Showing::Switching)
            else {
                return;
            };
            let play = app.play(*session);
            render::play(f, &play);
            play.theme.explicit_reverse(f.buffer_mut());
            screen::keep(f.buffer_mut());
            *showing = Showing::Play(Box::new(play));
            return;
        }
        let deadline = t + BUDGET_MS;
        drive::work(session, &control, t, &mut due, || now() < deadline);
        app.snapshot = Snapshot::browsing(session, control.browse, control.whole);
        rate.frame(t, &mut app);
        render::watch(f, &app);
        app.theme.explicit_reverse(f.buffer_mut());
        screen::keep(f.buffer_mut());
    });
}

/// What the watch page shows: the machine learning, or a person playing it.
enum Showing<G: BoardView> {
    Watch(Box<Session<G>>),
    Play(Box<PlayApp<G>>),
    /// For the moment the session moves from one to the other.
    Switching,
}

/// One frame's clicks and keys on the play screen.
fn play_frame<G: BoardView>(
    app: &mut PlayApp<G>,
    clicked: &Clicks,
    keys: &Keys,
    area: ratzilla::ratatui::layout::Rect,
) {
    app.browser.screen = (area.width, area.height);
    for (col, row) in clicked.borrow_mut().drain(..) {
        if let Some(action) = render::play_click(app, area, col, row) {
            app.update(action);
        }
    }
    for key in keys.borrow_mut().drain(..) {
        if let Some(action) = action_for(key, Mode::Play) {
            // Only Esc leaves (back to watching): q is the page's to ignore.
            if action == Action::Quit || action == Action::Interrupt {
                continue;
            }
            app.update(action);
        }
    }
}

/// A command of the watch screen: a save is a download of the machine's file.
fn command<G: BoardView + LabelView>(
    cmd: &Command,
    s: &mut Session<G>,
    c: &mut Control,
) -> Option<String> {
    match cmd {
        Command::Save(_) => Some(match files::make(s, "machine") {
            Ok(files::File {
                name,
                mime,
                body: files::Body::Bytes(bytes),
            }) => match download(&name, &bytes, mime) {
                Ok(()) => format!(
                    "saved {} games to {} (your downloads)",
                    s.machine().games_played,
                    name
                ),
                Err(e) => format!("not saved: {e}"),
            },
            Ok(_) => "not saved: the machine is a YAML file".into(),
            Err(e) => format!("not saved: {e}"),
        }),
        Command::Quit => None,
        other => drive::apply(other, s, c),
    }
}

/// Offers `bytes` as a file named `name` for download.
fn download(name: &str, bytes: &[u8], mime: &str) -> Result<(), String> {
    let err = |e: JsValue| format!("{e:?}");
    let array = js_sys::Uint8Array::from(bytes);
    let parts = js_sys::Array::of1(&array);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob =
        web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(err)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(err)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let a: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(err)?
        .dyn_into()
        .map_err(|_| "not an anchor")?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    web_sys::Url::revoke_object_url(&url).map_err(err)?;
    Ok(())
}

/// The meters (from the library's one `Meter`), written out beside the screen when they change.
#[derive(Default)]
struct Rate(matchbox::view::meter::Meter);

impl Rate {
    fn frame<G: BoardView>(&mut self, t: f64, app: &mut WatchApp<G>) {
        if !self.0.frame(t / 1000.0, app) {
            return;
        }
        if let Some(el) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("rate"))
        {
            el.set_text_content(Some(&format!(
                "{:.0} games/s · {:.0} frames/s · {} games",
                app.games_per_sec, app.fps, app.snapshot.games_played
            )));
        }
    }
}

/// The play screen: the person moves, the machine answers at once.
fn play<G: BoardView + LabelView + 'static, B: Backend + WebEventHandler + 'static>(
    terminal: Terminal<B>,
    clicked: Clicks,
    titles: Titles,
    session: Session<G>,
    keys: Keys,
) {
    let human = session.machine().boxes.side().other();
    let mut app = PlayApp::new(session, titles, human, None);
    app.front = Front::Page;
    let app = Rc::new(RefCell::new(app));
    let offered = Rc::clone(&app);
    files::offer(Box::new(move |what| {
        files::make(&offered.borrow().session, what)
    }));
    terminal.draw_web(move |f| {
        let mut app = app.borrow_mut();
        play_frame(&mut app, &clicked, &keys, f.area());
        render::play(f, &app);
        app.theme.explicit_reverse(f.buffer_mut());
        screen::keep(f.buffer_mut());
    });
}
