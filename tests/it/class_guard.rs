//! The class server against a hostile network: idle and slow connections closed, connections
//! capped by address and in all, the teacher's places kept, pages of other sites' names refused,
//! oversized messages closed with 1009 and binary frames counted against the rate.

#![cfg(feature = "class")]

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use matchbox::class::Limits;
use matchbox::class::protocol::ToClient;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::{self, Message, client::IntoClientRequest};

use crate::class::{CODE, TOKEN, connect, join_many, recv, serve, stop};

/// Reads until the server closes `stream`; the time it took, or `None` if still open after `wait`.
async fn closed_within(stream: &mut TcpStream, wait: Duration) -> Option<Duration> {
    let began = Instant::now();
    let mut buf = [0u8; 1024];
    loop {
        match tokio::time::timeout(wait, stream.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0) | Err(_)) => return Some(began.elapsed()),
            Ok(Ok(_)) => continue,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_and_slow_connections_are_closed_in_time() {
    let dir = tempfile::tempdir().unwrap();
    let limits = Limits {
        header_time: Duration::from_secs(1),
        ..Limits::default()
    };
    let running = serve(dir.path(), limits).await;
    // No byte at all.
    let mut idle = TcpStream::connect(running.addr).await.unwrap();
    // Half a request line, then a byte a while.
    let mut slow = TcpStream::connect(running.addr).await.unwrap();
    slow.write_all(b"GET / HT").await.unwrap();
    let dripping = tokio::spawn(async move {
        for _ in 0..10 {
            tokio::time::sleep(Duration::from_millis(400)).await;
            if slow.write_all(b"T").await.is_err() {
                break;
            }
        }
        closed_within(&mut slow, Duration::from_secs(5)).await
    });
    let idle_for = closed_within(&mut idle, Duration::from_secs(5)).await;
    assert!(
        idle_for.is_some_and(|t| t < Duration::from_secs(4)),
        "{idle_for:?}"
    );
    let slow_for = dripping.await.unwrap();
    assert!(slow_for.is_some(), "a slow request line is closed");
    stop(running).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_cannot_take_every_connection() {
    let dir = tempfile::tempdir().unwrap();
    let limits = Limits {
        http_per_address: 5,
        ..Limits::default()
    };
    let running = serve(dir.path(), limits).await;
    let mut held = Vec::new();
    for _ in 0..5 {
        held.push(TcpStream::connect(running.addr).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut sixth = TcpStream::connect(running.addr).await.unwrap();
    let t = closed_within(&mut sixth, Duration::from_secs(2)).await;
    assert!(
        t.is_some(),
        "the sixth idle connection from one address is closed at once"
    );
    drop(held);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (status, _) = crate::class::http_get(running.addr, "/", None).await;
    assert!(
        status.contains("200"),
        "served again once they close: {status}"
    );
    stop(running).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pupils_from_one_address_are_capped_and_the_teacher_keeps_a_place() {
    let dir = tempfile::tempdir().unwrap();
    let limits = Limits {
        connections: 4,
        per_address: 3,
        ..Limits::default()
    };
    let running = serve(dir.path(), limits).await;
    let addr = running.addr;
    let pupils = join_many(addr, 3).await;
    let mut fourth = connect(addr, &format!("/ws?code={CODE}&page=1"), None)
        .await
        .unwrap();
    let Some(ToClient::Refused { message, .. }) = recv(&mut fourth).await else {
        panic!("refused");
    };
    assert!(
        message.contains("too many connections from this network"),
        "{message}"
    );
    // The class full of pupils: the teacher's projector still connects.
    let mut teacher = connect(addr, &format!("/ws/teacher?token={TOKEN}"), None)
        .await
        .unwrap();
    assert!(
        matches!(recv(&mut teacher).await, Some(ToClient::Class { .. })),
        "the projector is served"
    );
    drop(pupils);
    stop(running).await;
}

/// A page served under another site's name that leads here (DNS rebinding): `Host` and `Origin`
/// agree, but name no address of this server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_sites_name_for_this_server_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let running = serve(dir.path(), Limits::default()).await;
    let addr = running.addr;
    let port = addr.port();
    for path in [
        format!("/ws?code={CODE}"),
        format!("/ws/teacher?token={TOKEN}"),
    ] {
        let mut req = format!("ws://{addr}{path}").into_client_request().unwrap();
        let evil = format!("evil.example:{port}");
        req.headers_mut().insert("host", evil.parse().unwrap());
        let origin = format!("http://{evil}");
        req.headers_mut().insert("origin", origin.parse().unwrap());
        match tokio_tungstenite::connect_async(req).await {
            Err(tungstenite::Error::Http(r)) => assert_eq!(r.status(), 403, "{path}"),
            other => panic!("{path}: refused expected, got {:?}", other.map(|_| ())),
        }
    }
    // Its own names are taken: its address, and the loopback's name.
    let own = format!("http://{addr}");
    let ok = connect(addr, &format!("/ws?code={CODE}"), Some(&own)).await;
    assert!(ok.is_ok(), "{:?}", ok.map(|_| ()));
    let mut req = format!("ws://{addr}/ws?code={CODE}")
        .into_client_request()
        .unwrap();
    let local = format!("localhost:{port}");
    req.headers_mut().insert("host", local.parse().unwrap());
    req.headers_mut()
        .insert("origin", format!("http://{local}").parse().unwrap());
    assert!(tokio_tungstenite::connect_async(req).await.is_ok());
    stop(running).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_message_is_closed_with_1009_and_binary_frames_count() {
    let dir = tempfile::tempdir().unwrap();
    let limits = Limits {
        burst: 5,
        per_second: 1,
        ..Limits::default()
    };
    let running = serve(dir.path(), limits).await;
    let addr: SocketAddr = running.addr;
    let mut pupils = join_many(addr, 2).await;
    // Over the limit, and small enough to leave the client at once (a client still sending
    // when the server closes may be reset before it reads why).
    let big = "x".repeat(4 * matchbox::class::protocol::MAX_MESSAGE);
    let _ = pupils[0].send(Message::Text(big.into())).await;
    let mut code = None;
    let mut seen = Vec::new();
    while let Ok(Some(m)) = tokio::time::timeout(Duration::from_secs(5), pupils[0].next()).await {
        if let Ok(Message::Close(Some(frame))) = &m {
            code = Some((u16::from(frame.code), frame.reason.to_string()));
            break;
        }
        seen.push(format!("{m:?}"));
    }
    let (code, reason) = code.unwrap_or_else(|| panic!("a close frame, not {seen:?}"));
    assert_eq!(code, 1009);
    assert!(reason.contains("longer than"), "{reason}");
    // Binary frames spend the rate as text does.
    for _ in 0..20 {
        pupils[1]
            .send(Message::Binary(vec![0; 8].into()))
            .await
            .unwrap();
    }
    let mut slowed = false;
    for _ in 0..8 {
        match recv(&mut pupils[1]).await {
            Some(ToClient::Error { message }) if message.contains("slow down") => {
                slowed = true;
                break;
            }
            Some(_) => continue,
            None => break,
        }
    }
    assert!(slowed, "binary frames are rate-limited");
    stop(running).await;
}

/// Fuzzed: a thousand messages a pupil's socket may send — arbitrary text, JSON of every
/// teacher's command with arbitrary fields, binary frames — change nothing only the teacher may
/// change (the machine's games, side, beads; joining), and the server serves on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fuzzed_pupil_messages_change_nothing_a_pupil_may_not() {
    use proptest::prelude::*;
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let dir = tempfile::tempdir().unwrap();
    let limits = Limits {
        burst: 100_000,
        per_second: 100_000,
        ..Limits::default()
    };
    let running = serve(dir.path(), limits).await;
    let addr = running.addr;
    let mut pupil = join_many(addr, 1).await.remove(0);
    let teacher_types = [
        "pause_joining",
        "resume_joining",
        "save",
        "deal",
        "class_game",
        "collect",
        "end_lesson",
        "draw_for",
        "tap_time",
        "reset",
        "side",
        "opponent",
        "start",
        "move",
        "draw",
    ];
    let message = prop_oneof![
        any::<String>(),
        (proptest::sample::select(teacher_types.to_vec()), any::<String>(), any::<i64>()).prop_map(
            |(t, s, n)| {
                serde_json::json!({"type": t, "side": s, "opponent": s, "seconds": n, "game": n, "mv": s})
                    .to_string()
            }
        ),
        proptest::sample::select(teacher_types.to_vec())
            .prop_map(|t| format!(r#"{{"type":"{t}"}}"#)),
    ];
    let mut runner = TestRunner::deterministic();
    for i in 0..1000 {
        let text = message.new_tree(&mut runner).unwrap().current();
        let frame = match i % 50 {
            49 => Message::Binary(text.into_bytes().into()),
            _ => Message::Text(text.into()),
        };
        if pupil.send(frame).await.is_err() {
            // Closed for an oversized or broken frame: the pupil comes again.
            pupil = join_many(addr, 1).await.remove(0);
        }
    }
    // Every message answered (refused, mostly) before the lesson is looked at.
    let mut answers = 0;
    while let Ok(Some(Ok(_))) = tokio::time::timeout(Duration::from_secs(2), pupil.next()).await {
        answers += 1;
    }
    assert!(
        answers > 50,
        "the messages were read and answered ({answers})"
    );
    // The server serves on: another pupil joins (joining was not paused by a pupil).
    let _another = join_many(addr, 1).await;
    let lesson = stop(running).await;
    let fresh = crate::class::machine(&matchbox::games::tictactoe::TicTacToe, 42);
    let m = lesson.machine();
    assert_eq!(m.games_played, 0, "no game finished without legal moves");
    assert_eq!(
        m.boxes.side(),
        fresh.boxes.side(),
        "the side is the teacher's to turn"
    );
    let beads = |m: &matchbox::learn::Machine<_>| {
        (0..m.boxes.len())
            .map(|b| m.beads_in(b).iter().map(|x| x.get()).sum::<u32>())
            .sum::<u32>()
    };
    assert_eq!(beads(m), beads(&fresh), "no bead moved, no reset");
}
