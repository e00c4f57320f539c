//! The WebSocket connections: a pupil's (with the join code) and the teacher's (with the
//! token). Each reads its messages, checks them, and hands them to the actor; a writer task
//! sends what the actor answers.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use tokio::sync::{mpsc, oneshot};

use super::Config;
use super::actor::{Cmd, Outbox};
use super::guard::{Limits, Lockout, Rate, same_origin, same_secret};
use super::protocol::{FromPupil, FromTeacher, MAX_MESSAGE, ToClient};

/// What every connection shares.
pub struct Shared {
    pub inbox: mpsc::Sender<Cmd>,
    pub code: String,
    pub token: String,
    pub limits: Limits,
    open: AtomicUsize,
    lockout: Mutex<Lockout>,
}

impl Shared {
    pub fn new(inbox: mpsc::Sender<Cmd>, config: &Config) -> Shared {
        Shared {
            inbox,
            code: config.code.to_ascii_uppercase(),
            token: config.token.clone(),
            limits: config.limits,
            open: AtomicUsize::new(0),
            lockout: Mutex::default(),
        }
    }
}

/// An open connection, counted while it lives.
struct Open(Arc<Shared>);

impl Open {
    fn take(shared: &Arc<Shared>) -> Option<Open> {
        let n = shared.open.fetch_add(1, Ordering::SeqCst);
        if n >= shared.limits.connections {
            shared.open.fetch_sub(1, Ordering::SeqCst);
            return None;
        }
        Some(Open(Arc::clone(shared)))
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        self.0.open.fetch_sub(1, Ordering::SeqCst);
    }
}

#[derive(Deserialize)]
pub struct Join {
    code: Option<String>,
}

#[derive(Deserialize)]
pub struct Token {
    token: Option<String>,
}

fn refuse(status: StatusCode, why: &str) -> Response {
    (status, why.to_string()).into_response()
}

/// The teacher's token from the cookie the teacher's address set, or from the query.
pub fn teacher_token(headers: &HeaderMap, query: Option<&str>) -> Option<String> {
    let cookie = (headers.get_all("cookie").iter())
        .filter_map(|c| c.to_str().ok())
        .flat_map(|c| c.split(';'))
        .find_map(|kv| {
            kv.trim()
                .strip_prefix("matchbox_teacher=")
                .map(str::to_string)
        });
    cookie.or(query.map(str::to_string))
}

pub async fn pupil_upgrade(
    ws: WebSocketUpgrade,
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Query(join): Query<Join>,
) -> Response {
    if !same_origin(&headers) {
        eprintln!("class: {peer}: refused a WebSocket from another site's page");
        return refuse(StatusCode::FORBIDDEN, "another site's page may not join");
    }
    let ip = peer.ip();
    {
        let mut lockout = shared.lockout.lock().unwrap_or_else(|e| e.into_inner());
        if lockout.locked(ip, &shared.limits) {
            return refuse(
                StatusCode::TOO_MANY_REQUESTS,
                "too many wrong codes: wait a minute",
            );
        }
        let given = join.code.unwrap_or_default().trim().to_ascii_uppercase();
        if !same_secret(&given, &shared.code) {
            lockout.wrong(ip);
            eprintln!("class: {peer}: a wrong join code");
            return refuse(StatusCode::FORBIDDEN, "wrong code");
        }
    }
    let Some(open) = Open::take(&shared) else {
        return refuse(StatusCode::SERVICE_UNAVAILABLE, "the class is full");
    };
    ws.max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| pupil(socket, open, peer))
}

pub async fn teacher_upgrade(
    ws: WebSocketUpgrade,
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Query(q): Query<Token>,
) -> Response {
    if !same_origin(&headers) {
        return refuse(StatusCode::FORBIDDEN, "another site's page may not connect");
    }
    let token = teacher_token(&headers, q.token.as_deref()).unwrap_or_default();
    if !same_secret(&token, &shared.token) {
        eprintln!("class: {peer}: a teacher's connection without the token");
        return refuse(StatusCode::FORBIDDEN, "the teacher's token is needed");
    }
    let Some(open) = Open::take(&shared) else {
        return refuse(StatusCode::SERVICE_UNAVAILABLE, "too many connections");
    };
    ws.max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| teacher(socket, open, peer))
}

/// Sends what arrives in the outbox to the socket, until either closes.
fn writer(
    mut sink: futures_util::stream::SplitSink<WebSocket, Message>,
    mut rx: mpsc::Receiver<String>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        while let Some(text) = rx.recv().await {
            if sink.send(Message::Text(text.into())).await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    })
}

/// The next text message, checked against the rate; `None` when the connection ends (closed,
/// idle too long, an oversized or broken frame, or a flood).
async fn next_text(
    stream: &mut futures_util::stream::SplitStream<WebSocket>,
    rate: &mut Rate,
    limits: &Limits,
    out: &Outbox,
    peer: SocketAddr,
) -> Option<String> {
    let mut refused = 0u32;
    loop {
        let msg = match tokio::time::timeout(limits.idle, stream.next()).await {
            Err(_) => {
                eprintln!("class: {peer}: idle too long, closed");
                return None;
            }
            Ok(None) => return None,
            Ok(Some(Err(e))) => {
                eprintln!("class: {peer}: connection closed: {e}");
                return None;
            }
            Ok(Some(Ok(m))) => m,
        };
        let text = match msg {
            Message::Text(t) => t.to_string(),
            Message::Binary(_) => {
                let _ = out.try_send(ToClient::error("send text (JSON), not binary").json());
                continue;
            }
            Message::Close(_) => return None,
            Message::Ping(_) | Message::Pong(_) => continue,
        };
        if rate.allow() {
            return Some(text);
        }
        refused += 1;
        if refused == 1 {
            eprintln!("class: {peer}: too many messages, slowed down");
            let _ = out.try_send(ToClient::error("too many messages: slow down").json());
        }
        if refused > 200 {
            eprintln!("class: {peer}: flooding, closed");
            return None;
        }
    }
}

async fn pupil(socket: WebSocket, open: Open, peer: SocketAddr) {
    let shared = Arc::clone(&open.0);
    let (sink, mut stream) = socket.split();
    let (out, rx) = mpsc::channel::<String>(64);
    let writing = writer(sink, rx);
    let (reply, joined) = oneshot::channel();
    let join = Cmd::Join {
        out: out.clone(),
        reply,
    };
    let id = match shared.inbox.send(join).await {
        Ok(()) => joined.await.ok().flatten(),
        Err(_) => None,
    };
    let Some(id) = id else {
        let _ = out.try_send(ToClient::error("the class is not taking new pupils now").json());
        drop(out);
        let _ = writing.await;
        return;
    };
    let mut rate = Rate::new(&shared.limits);
    while let Some(text) = next_text(&mut stream, &mut rate, &shared.limits, &out, peer).await {
        match serde_json::from_str::<FromPupil>(&text) {
            Ok(msg) => {
                if shared.inbox.send(Cmd::Pupil(id, msg)).await.is_err() {
                    break;
                }
            }
            Err(e) => {
                eprintln!("class: {peer}: pupil {id}: a bad message: {e}");
                let _ = out.try_send(ToClient::error(format!("a bad message: {e}")).json());
            }
        }
    }
    let _ = shared.inbox.send(Cmd::Leave(id)).await;
    drop(out);
    writing.abort();
    drop(open);
}

async fn teacher(socket: WebSocket, open: Open, peer: SocketAddr) {
    let shared = Arc::clone(&open.0);
    let (sink, mut stream) = socket.split();
    let (out, rx) = mpsc::channel::<String>(64);
    let writing = writer(sink, rx);
    if shared.inbox.send(Cmd::Watch(out.clone())).await.is_err() {
        return;
    }
    let mut rate = Rate::new(&shared.limits);
    while let Some(text) = next_text(&mut stream, &mut rate, &shared.limits, &out, peer).await {
        match serde_json::from_str::<FromTeacher>(&text) {
            Ok(msg) => {
                eprintln!("class: {peer}: the teacher: {msg:?}");
                if shared.inbox.send(Cmd::Teacher(msg)).await.is_err() {
                    break;
                }
            }
            Err(e) => {
                let _ = out.try_send(ToClient::error(format!("a bad message: {e}")).json());
            }
        }
    }
    drop(out);
    writing.abort();
    drop(open);
}
