//! The server's accept loop, on hyper directly (`axum::serve` builds hyper without a timer, so
//! no header timeout could apply): every connection counted — in all and by address — while it
//! is served HTTP, closed if its request's head does not arrive in time or it outstays its
//! time, and shut down when the lesson ends. A WebSocket leaves this count when it is upgraded
//! and is counted by the socket's own caps from then on (pupils, teachers, an address's).

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::sync::{oneshot, watch};
use tower::Service;

use super::guard::Limits;

/// Connections being served HTTP: in all, and by address.
#[derive(Default)]
struct Counts {
    all: usize,
    by_address: HashMap<IpAddr, usize>,
}

/// A connection's place in the counts, given back when it closes (or becomes a WebSocket).
struct Slot {
    counts: Arc<Mutex<Counts>>,
    ip: IpAddr,
}

impl Slot {
    fn take(counts: &Arc<Mutex<Counts>>, ip: IpAddr, limits: &Limits) -> Option<Slot> {
        let mut c = counts.lock().unwrap_or_else(|e| e.into_inner());
        let here = c.by_address.get(&ip).copied().unwrap_or(0);
        if c.all >= limits.http_connections || here >= limits.http_per_address {
            return None;
        }
        c.all += 1;
        *c.by_address.entry(ip).or_default() += 1;
        Some(Slot {
            counts: Arc::clone(counts),
            ip,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        c.all -= 1;
        if let Some(n) = c.by_address.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                c.by_address.remove(&self.ip);
            }
        }
    }
}

/// Serves `app` on `listener` until `done` fires (the actor ended the lesson); then tells every
/// connection (`over`), which closes once its last messages are out.
pub(super) fn serve(
    listener: tokio::net::TcpListener,
    app: Router,
    limits: Limits,
    done: oneshot::Receiver<()>,
    over: watch::Sender<bool>,
) {
    tokio::spawn(async move {
        let counts = Arc::new(Mutex::new(Counts::default()));
        tokio::pin!(done);
        loop {
            let (stream, peer) = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok(a) => a,
                    Err(e) => {
                        // Out of descriptors, say: wait for some to close rather than spin.
                        tracing::error!("could not accept a connection: {e}");
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        continue;
                    }
                },
                _ = &mut done => break,
            };
            let Some(slot) = Slot::take(&counts, peer.ip(), &limits) else {
                tracing::warn!(%peer, "too many connections from this address or in all: closed");
                continue;
            };
            let over = over.subscribe();
            tokio::spawn(connection(stream, peer, app.clone(), limits, over, slot));
        }
        let _ = over.send(true);
    });
}

/// One connection served until it closes, becomes a WebSocket, waits too long for a request's
/// head, outstays [`Limits::http_time`] or the lesson ends.
async fn connection(
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    app: Router,
    limits: Limits,
    mut over: watch::Receiver<bool>,
    _slot: Slot,
) {
    let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
        req.extensions_mut().insert(ConnectInfo(peer));
        let mut app = app.clone();
        async move { Ok::<_, Infallible>(app.call(req).await.unwrap_or_else(|e| match e {})) }
    });
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_time)
        .serve_connection(TokioIo::new(stream), service)
        .with_upgrades();
    tokio::pin!(conn);
    tokio::select! {
        _ = conn.as_mut() => return,
        _ = over.wait_for(|o| *o) => {}
        _ = tokio::time::sleep(limits.http_time) => {
            tracing::info!(%peer, "a connection past its time, closed");
        }
    }
    conn.as_mut().graceful_shutdown();
    let _ = tokio::time::timeout(Duration::from_secs(1), conn).await;
}
