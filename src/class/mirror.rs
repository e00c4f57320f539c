//! A screen shown to a room: `operate --projector ADDR` serves the operator's step (the real
//! board, the label of the box to open, each bead's square, what to do at a game's end) as a page
//! a projector opens, on the class server's hardened accept loop. The page asks for the screen a
//! few times a second and is only told when it changed; it asks again by itself after the laptop
//! or the network comes back, so a projector left open follows the whole session. It takes
//! nothing but GET requests: nobody in the room can change the session.

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::{Query, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use tokio::sync::{oneshot, watch};

use super::guard::Limits;

/// The screen now: its number (one more each change, from the clock's milliseconds when the
/// server starts, so a page left open across a restart never takes a new screen for the one it
/// shows) and its HTML.
struct Screen {
    version: u64,
    html: String,
}

/// The room's screen being served; dropping it stops the server.
pub struct Mirror {
    screen: Arc<Mutex<Screen>>,
    addr: std::net::SocketAddr,
    _stop: oneshot::Sender<()>,
    _over: watch::Sender<bool>,
    _runtime: tokio::runtime::Runtime,
}

impl Mirror {
    /// Serves the room's page on `listener` (bound already), from a thread of its own.
    pub fn start(listener: std::net::TcpListener) -> std::io::Result<Mirror> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()?;
        let addr = listener.local_addr()?;
        listener.set_nonblocking(true)?;
        let _inside = runtime.enter();
        let listener = tokio::net::TcpListener::from_std(listener)?;
        let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
        let screen = Arc::new(Mutex::new(Screen {
            version: since.map_or(0, |d| d.as_millis() as u64),
            html: String::new(),
        }));
        let app = Router::new()
            .route("/", get(page))
            .route("/screen", get(now))
            .with_state(Arc::clone(&screen));
        let (stop, done) = oneshot::channel();
        let (over, _) = watch::channel(false);
        super::listen::serve(listener, app, Limits::default(), done, over.clone());
        drop(_inside);
        Ok(Mirror {
            screen,
            addr,
            _stop: stop,
            _over: over,
            _runtime: runtime,
        })
    }

    /// The address served.
    pub fn addr(&self) -> std::net::SocketAddr {
        self.addr
    }

    /// Shows `html` (a screen of [`crate::view::render::buffer_html`]) from now on.
    pub fn show(&self, html: String) {
        let mut s = self.screen.lock().unwrap_or_else(|e| e.into_inner());
        if s.html != html {
            s.html = html;
            s.version += 1;
        }
    }
}

/// The room's page: the screen, as large as the window holds it.
async fn page() -> Html<&'static str> {
    Html(include_str!("room.html"))
}

#[derive(serde::Deserialize)]
struct Seen {
    /// The screen's number the page shows already.
    v: Option<u64>,
}

/// The screen, unless the page shows it already (204): its number in `x-version`.
async fn now(State(screen): State<Arc<Mutex<Screen>>>, Query(seen): Query<Seen>) -> Response {
    let s = screen.lock().unwrap_or_else(|e| e.into_inner());
    if seen.v == Some(s.version) {
        return StatusCode::NO_CONTENT.into_response();
    }
    let headers = [
        (header::CONTENT_TYPE, "text/html; charset=utf-8".to_string()),
        (header::CACHE_CONTROL, "no-store".to_string()),
        (
            header::HeaderName::from_static("x-version"),
            s.version.to_string(),
        ),
    ];
    (headers, s.html.clone()).into_response()
}
