//! `matchbox class`: one machine for the whole class. An HTTP and WebSocket server (axum on
//! tokio) serves the pupils' page and the projector's; one actor task ([`actor`]) owns the
//! lesson. Pupils need the join code; everything that changes the lesson needs the teacher's
//! token (in the teacher's address, then an HttpOnly cookie). Messages are typed and strict,
//! capped in size and rate; connections are capped and time out when idle; wrong codes from one
//! address are locked out after a few tries; a WebSocket from another site's page is refused.

pub mod actor;
pub mod files;
mod guard;
mod pages;
pub mod protocol;

/// The pupils' address as a QR code in text (two rows of modules a line, with its quiet zone),
/// for the teacher's terminal: a phone's camera opens the page with the code in it.
pub fn qr_lines(address: &str) -> Vec<String> {
    match qrcode::QrCode::new(address.as_bytes()) {
        Ok(code) => code
            .render::<qrcode::render::unicode::Dense1x2>()
            .dark_color(qrcode::render::unicode::Dense1x2::Light)
            .light_color(qrcode::render::unicode::Dense1x2::Dark)
            .build()
            .lines()
            .map(str::to_string)
            .collect(),
        Err(_) => Vec::new(),
    }
}
mod socket;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::routing::get;
use tokio::sync::{mpsc, oneshot};

use crate::labels::LabelView;
use crate::learn::GameDefaults;
use crate::learn::lesson::Lesson;
use crate::view::board::BoardView;
pub use actor::{Cmd, Keeping};
pub use guard::Limits;

/// The server's settings.
#[derive(Clone, Debug)]
pub struct Config {
    pub listen: SocketAddr,
    /// The code pupils type to join.
    pub code: String,
    /// The teacher's secret (128 bits, hex).
    pub token: String,
    pub limits: Limits,
    /// The browser page's folder (`web/dist`, or `page/` beside a released program), served at
    /// `/page/` for the laptop's own screen: watch, play, labels and charts with no other server.
    pub page: Option<std::path::PathBuf>,
}

impl Config {
    /// A fresh join code (five letters and digits that cannot be mistaken for one another) and
    /// teacher's token, from the system's randomness.
    pub fn fresh(listen: SocketAddr) -> Config {
        const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
        let code = (0..5)
            .map(|_| ALPHABET[rand::random_range(0..ALPHABET.len())] as char)
            .collect();
        Config {
            listen,
            code,
            token: format!("{:032x}", rand::random::<u128>()),
            limits: Limits::default(),
            page: None,
        }
    }
}

/// A lesson being served.
pub struct Running<G: GameDefaults> {
    /// The address the server listens on (its port chosen by the system for port 0).
    pub addr: SocketAddr,
    /// Commands to the actor (`Cmd::Stop` ends the lesson).
    pub inbox: mpsc::Sender<Cmd>,
    /// The lesson, once the actor has ended it.
    pub finished: tokio::task::JoinHandle<Lesson<G>>,
}

/// Starts serving `lesson`: binds, starts the actor and the server, and returns at once. The
/// server stops when the lesson ends.
pub async fn start<G: GameDefaults + BoardView + LabelView + Send + 'static>(
    lesson: Lesson<G>,
    keep: Keeping,
    config: Config,
) -> std::io::Result<Running<G>>
where
    G::Position: Send,
    G::Move: Send,
    crate::learn::Machine<G>: Send,
{
    let listener = tokio::net::TcpListener::bind(config.listen).await?;
    let addr = listener.local_addr()?;
    let (inbox, rx) = mpsc::channel(1024);
    let (done_tx, done_rx) = oneshot::channel();
    let finished = tokio::spawn(actor::run(lesson, keep, rx, done_tx));
    serve_http(
        listener,
        socket::Shared::new(inbox.clone(), &config),
        &config,
        done_rx,
    );
    Ok(Running {
        addr,
        inbox,
        finished,
    })
}

/// The pages and sockets served on `listener` until `done` fires (the actor ended the lesson).
/// The same for every game (the sockets only pass the actor's messages on), so built once, not
/// once a game: axum's and hyper's code is compiled one time.
fn serve_http(
    listener: tokio::net::TcpListener,
    shared: socket::Shared,
    config: &Config,
    done: oneshot::Receiver<()>,
) {
    let mut app = Router::new()
        .route("/", get(pages::pupil_page))
        .route("/projector", get(pages::projector_page))
        .route("/boxes.js", get(pages::boxes_script))
        .route("/teacher", get(pages::teacher_login))
        .route("/machine.yaml", get(pages::machine_yaml))
        .route("/labels.pdf", get(pages::labels_pdf))
        .route("/labels-trained.pdf", get(pages::trained_labels_pdf))
        .route("/chart.svg", get(pages::chart_svg))
        .route("/chart.png", get(pages::chart_png))
        .route("/ws", get(socket::pupil_upgrade))
        .route("/ws/teacher", get(socket::teacher_upgrade))
        .with_state(Arc::new(shared));
    if let Some(dir) = &config.page {
        // Files under the folder only (tower-http refuses `..` and what lies outside).
        app = app.nest_service("/page", tower_http::services::ServeDir::new(dir));
    }
    let service = app.into_make_service_with_connect_info::<SocketAddr>();
    tokio::spawn(async move {
        let _ = axum::serve(listener, service)
            .with_graceful_shutdown(async {
                let _ = done.await;
                // Let the last messages ("the lesson is over") reach the pages.
                tokio::time::sleep(Duration::from_millis(200)).await;
            })
            .await;
    });
}
