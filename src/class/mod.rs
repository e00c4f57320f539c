//! `matchbox class`: one machine for the whole class. An HTTP and WebSocket server (axum on
//! tokio) serves the pupils' page and the projector's; one actor task ([`actor`]) owns the
//! lesson. Pupils need the join code; everything that changes the lesson needs the teacher's
//! token (in the teacher's address, then an HttpOnly cookie). Messages are typed and strict,
//! capped in size and rate; connections are capped and time out when idle; wrong codes from one
//! address are locked out after a few tries; a WebSocket from another site's page is refused.

pub mod actor;
pub mod files;
mod guard;
pub mod journal;
mod listen;
pub mod mirror;
mod pages;
pub mod protocol;
pub mod secrets;

/// The addresses (`ip:port`) phones may reach the server at, the likeliest first: where it
/// listens on every network, each network address of the laptop (IPv4, loopback last, only
/// where there is no other); else the one it listens on.
pub fn reachable_hosts(addr: std::net::SocketAddr) -> Vec<String> {
    let port = addr.port();
    if !addr.ip().is_unspecified() {
        return vec![addr.to_string()];
    }
    let mut ips: Vec<std::net::IpAddr> = (if_addrs::get_if_addrs().unwrap_or_default().into_iter())
        .map(|i| i.ip())
        .filter(|ip| ip.is_ipv4() && !ip.is_loopback())
        .collect();
    ips.sort_by_key(|ip| (!is_private(ip), *ip));
    ips.dedup();
    if ips.is_empty() {
        ips.push(std::net::Ipv4Addr::LOCALHOST.into());
    }
    ips.into_iter()
        .map(|ip| std::net::SocketAddr::new(ip, port).to_string())
        .collect()
}

/// Whether an address is a private network's (a school's, a hotspot's).
fn is_private(ip: &std::net::IpAddr) -> bool {
    matches!(ip, std::net::IpAddr::V4(v4) if v4.is_private())
}

/// How pupils join, for the projector: the code, the addresses and the QR code of the first.
pub fn join_info(addr: std::net::SocketAddr, code: &str) -> protocol::ToClient {
    let hosts = reachable_hosts(addr);
    let url = format!("http://{}/?code={code}", hosts[0]);
    let qr = match qrcode::QrCode::new(url.as_bytes()) {
        Ok(c) => c
            .render::<qrcode::render::svg::Color>()
            .min_dimensions(200, 200)
            .build(),
        Err(_) => String::new(),
    };
    protocol::ToClient::Join {
        code: code.to_string(),
        addresses: hosts.iter().map(|h| format!("http://{h}/")).collect(),
        qr,
    }
}

mod socket;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::routing::get;
use tokio::sync::{mpsc, oneshot};

use crate::labels::LabelView;
use crate::learn::GameDefaults;
use crate::learn::lesson::Lesson;
use crate::view::board::BoardView;
pub use actor::{Cmd, Keeping, Saved};
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

/// Starts serving `lesson` on `listener`, bound already (the command line binds before it
/// writes a file, so a start refused for its port leaves nothing behind): starts the actor and
/// the server, and returns at once. The server stops when the lesson ends.
pub async fn start_on<G: GameDefaults + BoardView + LabelView + Send + 'static>(
    listener: std::net::TcpListener,
    lesson: Lesson<G>,
    keep: Keeping,
    config: Config,
) -> std::io::Result<Running<G>>
where
    G::Position: Send,
    G::Move: Send,
    crate::learn::Machine<G>: Send,
{
    listener.set_nonblocking(true)?;
    let listener = tokio::net::TcpListener::from_std(listener)?;
    let addr = listener.local_addr()?;
    let (inbox, rx) = mpsc::channel(1024);
    let (done_tx, done_rx) = oneshot::channel();
    let (over_tx, over_rx) = tokio::sync::watch::channel(false);
    let (live_tx, mut live) = tokio::sync::watch::channel(0usize);
    let mut keep = keep;
    keep.join
        .get_or_insert_with(|| join_info(addr, &config.code));
    let me = inbox.downgrade();
    let finished = tokio::spawn(async move {
        let lesson = actor::run(lesson, keep, rx, me, done_tx).await;
        // Every page told that the lesson is over before the program may end (it would take
        // the connections with it): they close within seconds, a page that has gone or does
        // not read is not waited for longer.
        let closed = live.wait_for(|&n| n == 0);
        let _ = tokio::time::timeout(std::time::Duration::from_secs(5), closed).await;
        lesson
    });
    serve_http(
        listener,
        socket::Shared::new(inbox.clone(), &config, addr.port(), over_rx, live_tx),
        &config,
        done_rx,
        over_tx,
    );
    Ok(Running {
        addr,
        inbox,
        finished,
    })
}

/// A page file's request passed on only if the file lies inside the page folder `root` once
/// links are followed (tower-http refuses `..`, but follows a link out of the folder).
async fn inside(
    root: Arc<std::path::PathBuf>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let path = req.uri().path().trim_start_matches('/');
    let path = percent_encoding::percent_decode_str(path).decode_utf8_lossy();
    let target = root.join(path.as_ref());
    match tokio::fs::canonicalize(&target).await {
        Ok(real) if !real.starts_with(root.as_path()) => {
            tracing::warn!(path = %path, "a page file outside the page folder refused");
            (axum::http::StatusCode::NOT_FOUND, "no such file").into_response()
        }
        _ => next.run(req).await,
    }
}

/// The pages and sockets served on `listener` until `done` fires (the actor ended the lesson).
/// The same for every game (the sockets only pass the actor's messages on), so built once, not
/// once a game: axum's and hyper's code is compiled one time.
fn serve_http(
    listener: tokio::net::TcpListener,
    shared: socket::Shared,
    config: &Config,
    done: oneshot::Receiver<()>,
    over: tokio::sync::watch::Sender<bool>,
) {
    let mut app = Router::new()
        .route("/", get(pages::pupil_page))
        .route("/projector", get(pages::projector_page))
        .route("/boxes.js", get(pages::boxes_script))
        .route("/client.js", get(pages::client_script))
        .route("/pupil.js", get(pages::pupil_script))
        .route("/projector.js", get(pages::projector_script))
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
        let root = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.clone());
        let files = tower_http::services::ServeDir::new(&root);
        let inside =
            axum::middleware::from_fn(move |req, next| inside(Arc::new(root.clone()), req, next));
        app = app.nest_service("/page", Router::new().fallback_service(files).layer(inside));
    }
    listen::serve(listener, app, config.limits, done, over);
}
