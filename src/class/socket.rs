//! The WebSocket connections: a pupil's (with the join code) and the teacher's (with the
//! token). Each reads its messages, checks them, and hands them to the actor; a writer task
//! sends what the actor answers.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
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
    /// The teacher's cookie's name, this server's own (two classes on one laptop, two ports,
    /// two cookies).
    pub cookie: String,
    /// Becomes true when the lesson is over: every connection then says so and closes.
    pub over: tokio::sync::watch::Receiver<bool>,
    open: Mutex<OpenCounts>,
    /// How many WebSockets are open (the lesson's end waits for them to have said goodbye).
    live: tokio::sync::watch::Sender<usize>,
    lockout: Mutex<Lockout>,
}

impl Shared {
    pub fn new(
        inbox: mpsc::Sender<Cmd>,
        config: &Config,
        port: u16,
        over: tokio::sync::watch::Receiver<bool>,
        live: tokio::sync::watch::Sender<usize>,
    ) -> Shared {
        Shared {
            inbox,
            code: config.code.to_ascii_uppercase(),
            token: config.token.clone(),
            limits: config.limits,
            cookie: format!("matchbox_teacher_{port}"),
            over,
            open: Mutex::default(),
            live,
            lockout: Mutex::default(),
        }
    }
}

/// Open WebSockets: pupils' by address, and the teacher's.
#[derive(Default)]
struct OpenCounts {
    pupils: usize,
    by_address: std::collections::HashMap<std::net::IpAddr, usize>,
    teachers: usize,
}

/// An open WebSocket, counted while it lives.
struct Open {
    shared: Arc<Shared>,
    ip: std::net::IpAddr,
    teacher: bool,
}

impl Open {
    /// A place for a pupil's socket from `ip`, or why there is none.
    fn pupil(shared: &Arc<Shared>, ip: std::net::IpAddr) -> Result<Open, &'static str> {
        let mut c = shared.open.lock().unwrap_or_else(|e| e.into_inner());
        let here = c.by_address.get(&ip).copied().unwrap_or(0);
        if c.pupils >= shared.limits.connections {
            return Err("the class is full");
        }
        if here >= shared.limits.per_address {
            return Err("too many connections from this network: the class is full for it");
        }
        c.pupils += 1;
        *c.by_address.entry(ip).or_default() += 1;
        shared.live.send_modify(|n| *n += 1);
        Ok(Open {
            shared: Arc::clone(shared),
            ip,
            teacher: false,
        })
    }

    /// A place for a teacher's socket (the teacher's own places: pupils never take them).
    fn teacher(shared: &Arc<Shared>, ip: std::net::IpAddr) -> Option<Open> {
        let mut c = shared.open.lock().unwrap_or_else(|e| e.into_inner());
        if c.teachers >= shared.limits.teachers {
            return None;
        }
        c.teachers += 1;
        shared.live.send_modify(|n| *n += 1);
        Some(Open {
            shared: Arc::clone(shared),
            ip,
            teacher: true,
        })
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        self.shared.live.send_modify(|n| *n = n.saturating_sub(1));
        let mut c = self.shared.open.lock().unwrap_or_else(|e| e.into_inner());
        if self.teacher {
            c.teachers -= 1;
            return;
        }
        c.pupils -= 1;
        if let Some(n) = c.by_address.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                c.by_address.remove(&self.ip);
            }
        }
    }
}

/// A pupil's page's request to join: the code (a new pupil), or the key a pupil was given (the
/// same pupil again); the page's device id (what the lockout counts a phone's wrong codes by);
/// and `page`: refusals come as a message on the socket (the page shows the reason) rather than
/// an HTTP status (which a browser's WebSocket cannot read).
#[derive(Deserialize)]
pub struct Join {
    code: Option<String>,
    key: Option<String>,
    device: Option<String>,
    page: Option<String>,
}

#[derive(Deserialize)]
pub struct Token {
    token: Option<String>,
}

fn refuse(status: StatusCode, why: &str) -> Response {
    (status, why.to_string()).into_response()
}

/// The teacher's token from the cookie the teacher's address set, or from the query.
pub fn teacher_token(headers: &HeaderMap, name: &str, query: Option<&str>) -> Option<String> {
    let cookie = (headers.get_all("cookie").iter())
        .filter_map(|c| c.to_str().ok())
        .flat_map(|c| c.split(';'))
        .find_map(|kv| {
            let (k, v) = kv.trim().split_once('=')?;
            (k == name).then(|| v.to_string())
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
        tracing::warn!(%peer, "refused a WebSocket from another site's page");
        return refuse(StatusCode::FORBIDDEN, "another site's page may not join");
    }
    let key = join.key.filter(|k| !k.is_empty() && k.len() <= 64);
    if key.is_none()
        && let Some((status, why, retry)) = check_code(&shared, peer, &join.code, &join.device)
    {
        return match join.page.is_some() {
            true => refused_on_socket(ws, why, retry),
            false => refuse(status, why),
        };
    }
    let open = match Open::pupil(&shared, peer.ip()) {
        Ok(open) => open,
        Err(why) => {
            tracing::warn!(%peer, "{why}");
            return match join.page.is_some() {
                true => refused_on_socket(ws, why, Some(10)),
                false => refuse(StatusCode::SERVICE_UNAVAILABLE, why),
            };
        }
    };
    ws.max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| pupil(socket, open, peer, key))
}

/// Why a join code may not be taken, if it may not: the lockout, or a wrong code (counted).
fn check_code(
    shared: &Shared,
    peer: SocketAddr,
    code: &Option<String>,
    device: &Option<String>,
) -> Option<(StatusCode, &'static str, Option<u32>)> {
    let device = device.as_deref().unwrap_or("");
    let mut lockout = shared.lockout.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(why) = lockout.locked(peer.ip(), device, &shared.limits) {
        let wait = shared.limits.lockout.as_secs() as u32;
        return Some((StatusCode::TOO_MANY_REQUESTS, why, Some(wait)));
    }
    let given = code
        .as_deref()
        .unwrap_or_default()
        .trim()
        .to_ascii_uppercase();
    if !same_secret(&given, &shared.code) {
        lockout.wrong(peer.ip(), device, &shared.limits);
        tracing::warn!(%peer, "a wrong join code");
        return Some((
            StatusCode::FORBIDDEN,
            "wrong code: check it on the projector",
            None,
        ));
    }
    None
}

/// A page refused: the socket opened only to say why (and, where waiting helps, when to try
/// again), then closed.
fn refused_on_socket(ws: WebSocketUpgrade, why: &'static str, retry_in: Option<u32>) -> Response {
    ws.max_message_size(MAX_MESSAGE)
        .on_upgrade(move |mut socket| async move {
            let msg = ToClient::Refused {
                message: why.into(),
                retry_in,
                forget: false,
            };
            let _ = socket.send(Message::Text(msg.json().into())).await;
            let _ = socket.close().await;
        })
}

pub async fn teacher_upgrade(
    ws: WebSocketUpgrade,
    State(shared): State<Arc<Shared>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Query(q): Query<Token>,
) -> Response {
    if !same_origin(&headers) {
        tracing::warn!(%peer, "refused a teacher's WebSocket from another site's page");
        return refuse(StatusCode::FORBIDDEN, "another site's page may not connect");
    }
    let token = teacher_token(&headers, &shared.cookie, q.token.as_deref()).unwrap_or_default();
    if !same_secret(&token, &shared.token) {
        tracing::warn!(%peer, "a teacher's connection without the token");
        return refuse(StatusCode::FORBIDDEN, "the teacher's token is needed");
    }
    let Some(open) = Open::teacher(&shared, peer.ip()) else {
        return refuse(StatusCode::SERVICE_UNAVAILABLE, "too many projectors open");
    };
    ws.max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .on_upgrade(move |socket| teacher(socket, open, peer))
}

/// Sends what arrives in the outbox to the socket, until either closes or the lesson is over,
/// and pings the page every `ping` (a page answers by itself, so an open page is never idle,
/// however long nobody taps; a page that has gone stops answering and is closed after the idle
/// time).
fn writer(
    mut sink: Sink,
    mut rx: mpsc::Receiver<String>,
    ping: std::time::Duration,
    mut closing: oneshot::Receiver<CloseFrame>,
    mut over: tokio::sync::watch::Receiver<bool>,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut pings = tokio::time::interval_at(tokio::time::Instant::now() + ping, ping);
        let mut may_close = true;
        loop {
            let sent = tokio::select! {
                // Why the socket closes comes before the end of the outbox, which follows it.
                biased;
                why = &mut closing, if may_close => match why {
                    Ok(frame) => {
                        let _ = sink.send(Message::Close(Some(frame))).await;
                        // Time for the page to read why before the socket goes (closed with
                        // its message unread, the connection would be reset, the reason lost).
                        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                        break;
                    }
                    Err(_) => {
                        may_close = false;
                        continue;
                    }
                },
                () = ended(&mut over) => {
                    goodbye(&mut sink, &mut rx).await;
                    break;
                }
                text = rx.recv() => match text {
                    Some(text) => sink.send(Message::Text(text.into())).await,
                    // The actor and the connection have let go. At the lesson's end this branch
                    // can come first (measured: the outbox is seen closed while `over` is
                    // already true), so the end is said here too.
                    None => {
                        if *over.borrow() {
                            goodbye(&mut sink, &mut rx).await;
                        }
                        break;
                    }
                },
                _ = pings.tick() => sink.send(Message::Ping(Vec::new().into())).await,
            };
            if sent.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    })
}

/// Once the lesson is over.
async fn ended(over: &mut tokio::sync::watch::Receiver<bool>) {
    let _ = over.wait_for(|o| *o).await;
}

/// A socket's writing half.
type Sink = futures_util::stream::SplitSink<WebSocket, Message>;

/// The lesson is over: what the actor had queued for the page, then "the lesson is over" —
/// said here, by the connection itself, so that a page whose outbox is full (a phone slow to
/// read) is told all the same — then the socket closed with the same reason. A page that does
/// not take it within two seconds is not waited for.
async fn goodbye(sink: &mut Sink, rx: &mut mpsc::Receiver<String>) {
    const WHY: &str = "the lesson is over";
    rx.close();
    let said = async {
        while let Ok(text) = rx.try_recv() {
            sink.send(Message::Text(text.into())).await?;
        }
        let ended = ToClient::Ended {
            message: WHY.into(),
        };
        sink.send(Message::Text(ended.json().into())).await?;
        let frame = CloseFrame {
            code: axum::extract::ws::close_code::NORMAL,
            reason: WHY.into(),
        };
        sink.send(Message::Close(Some(frame))).await?;
        // Time for the page to read it before the connection goes.
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        Ok::<_, axum::Error>(())
    };
    let _ = tokio::time::timeout(std::time::Duration::from_secs(2), said).await;
}

/// The next text message, checked against the rate (every frame a page sends counts, binary
/// ones too); `None` when the connection ends (closed, idle too long, an oversized or broken
/// frame, or a flood). An oversized message is answered with the close code 1009 and why.
async fn next_text(
    stream: &mut futures_util::stream::SplitStream<WebSocket>,
    rate: &mut Rate,
    limits: &Limits,
    out: &Outbox,
    peer: SocketAddr,
    closing: &mut Option<oneshot::Sender<CloseFrame>>,
) -> Option<String> {
    let mut refused = 0u32;
    loop {
        let msg = match tokio::time::timeout(limits.idle, stream.next()).await {
            Err(_) => {
                tracing::info!(%peer, "idle too long, closed");
                return None;
            }
            Ok(None) => return None,
            Ok(Some(Err(e))) => {
                tracing::info!(%peer, "connection closed: {e}");
                let words = e.to_string();
                let too_big = words.contains("too long") || words.contains("Space limit");
                if too_big && let Some(tx) = closing.take() {
                    let reason = format!("a message longer than {MAX_MESSAGE} bytes");
                    let _ = tx.send(CloseFrame {
                        code: 1009,
                        reason: reason.into(),
                    });
                }
                return None;
            }
            Ok(Some(Ok(m))) => m,
        };
        let text = match msg {
            Message::Close(_) => return None,
            Message::Ping(_) | Message::Pong(_) => continue,
            Message::Text(_) | Message::Binary(_) if !rate.allow() => None,
            Message::Text(t) => Some(t.to_string()),
            Message::Binary(_) => {
                let _ = out.try_send(ToClient::error("send text (JSON), not binary").json());
                continue;
            }
        };
        if let Some(text) = text {
            return Some(text);
        }
        refused += 1;
        if refused == 1 {
            tracing::warn!(%peer, "too many messages, slowed down");
            let _ = out.try_send(ToClient::error("too many messages: slow down").json());
        }
        if refused > 200 {
            tracing::warn!(%peer, "flooding, closed");
            return None;
        }
    }
}

/// The next message, or `None` once the lesson is over.
async fn until_over(
    over: &mut tokio::sync::watch::Receiver<bool>,
    next: impl std::future::Future<Output = Option<String>>,
) -> Option<String> {
    if *over.borrow() {
        return None;
    }
    tokio::select! {
        text = next => text,
        _ = over.wait_for(|o| *o) => None,
    }
}

/// A connection's end: what the actor sent last written out (and, at the lesson's end, that it
/// is over), then the socket closed; a page that does not take it within three seconds is
/// dropped.
async fn finish(out: Outbox, writing: tokio::task::JoinHandle<()>) {
    drop(out);
    let abort = writing.abort_handle();
    if tokio::time::timeout(std::time::Duration::from_secs(3), writing)
        .await
        .is_err()
    {
        abort.abort();
    }
}

/// A socket's reading half, its rate and its way to say why it closes.
struct Reader {
    stream: futures_util::stream::SplitStream<WebSocket>,
    rate: Rate,
    close: Option<oneshot::Sender<CloseFrame>>,
    over: tokio::sync::watch::Receiver<bool>,
    peer: SocketAddr,
}

impl Reader {
    /// The socket split: its reader, the outbox to it and the task writing the outbox out.
    fn open(
        socket: WebSocket,
        shared: &Shared,
        peer: SocketAddr,
    ) -> (Reader, Outbox, tokio::task::JoinHandle<()>) {
        let (sink, stream) = socket.split();
        let (out, rx) = mpsc::channel::<String>(64);
        let (close, closing) = oneshot::channel();
        let writing = writer(sink, rx, shared.limits.ping, closing, shared.over.clone());
        let reader = Reader {
            stream,
            rate: Rate::new(&shared.limits),
            close: Some(close),
            over: shared.over.clone(),
            peer,
        };
        (reader, out, writing)
    }

    /// The next text message, or `None` once the socket or the lesson ends.
    async fn next(&mut self, limits: &Limits, out: &Outbox) -> Option<String> {
        let (stream, rate, close) = (&mut self.stream, &mut self.rate, &mut self.close);
        let next = next_text(stream, rate, limits, out, self.peer, close);
        until_over(&mut self.over, next).await
    }
}

async fn pupil(socket: WebSocket, open: Open, peer: SocketAddr, key: Option<String>) {
    let shared = Arc::clone(&open.shared);
    let (mut reader, out, writing) = Reader::open(socket, &shared, peer);
    let (reply, joined) = oneshot::channel();
    let join = Cmd::Join {
        out: out.clone(),
        key,
        reply,
    };
    let over = || {
        Box::new(ToClient::Refused {
            message: "the lesson is over".into(),
            retry_in: None,
            forget: false,
        })
    };
    let id = match shared.inbox.send(join).await {
        Ok(()) => joined.await.unwrap_or_else(|_| Err(over())),
        Err(_) => Err(over()),
    };
    let id = match id {
        Ok(id) => id,
        Err(refusal) => {
            let _ = out.try_send(refusal.json());
            drop(out);
            let _ = writing.await;
            return;
        }
    };
    while let Some(text) = reader.next(&shared.limits, &out).await {
        match serde_json::from_str::<FromPupil>(&text) {
            Ok(msg) => {
                if shared.inbox.send(Cmd::Pupil(id, msg)).await.is_err() {
                    break;
                }
            }
            Err(e) => {
                tracing::warn!(%peer, pupil = id, "a bad message: {e}");
                let _ = out.try_send(ToClient::error(format!("a bad message: {e}")).json());
            }
        }
    }
    let _ = shared.inbox.send(Cmd::Leave(id, out.clone())).await;
    finish(out, writing).await;
    drop(open);
}

async fn teacher(socket: WebSocket, open: Open, peer: SocketAddr) {
    let shared = Arc::clone(&open.shared);
    let (mut reader, out, writing) = Reader::open(socket, &shared, peer);
    if shared.inbox.send(Cmd::Watch(out.clone())).await.is_err() {
        return;
    }
    while let Some(text) = reader.next(&shared.limits, &out).await {
        match serde_json::from_str::<FromTeacher>(&text) {
            Ok(msg) => {
                tracing::info!(%peer, "the teacher: {msg:?}");
                if shared.inbox.send(Cmd::Teacher(msg)).await.is_err() {
                    break;
                }
            }
            Err(e) => {
                let _ = out.try_send(ToClient::error(format!("a bad message: {e}")).json());
            }
        }
    }
    finish(out, writing).await;
    drop(open);
}
