//! The class server over a lesson's time, with its clock scaled down (simulated time: an idle
//! limit of 2 s stands for 90 s, a ping every 0.4 s for every 20 s, a tap time of 1 s for 30 s):
//! an open page is never cut however long nobody taps, a gone page is; thirty pupils, HER's
//! 24 boxes, a late joiner and a pupil who never taps, and no class game stalls.

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use matchbox::class::protocol::ToClient;
use matchbox::class::{Cmd, Config, Keeping, Limits, Running};
use matchbox::games::hexapawn::{Hexapawn, Size};
use matchbox::learn::GameDefaults;
use matchbox::learn::lesson::LessonSpec;

use crate::class::{CODE, TOKEN, Ws, connect, join, machine, play_games, recv, send};

/// The scaled clock: idle after 2 s without an answer, a ping every 0.4 s.
fn quick() -> Limits {
    Limits {
        idle: Duration::from_secs(2),
        ping: Duration::from_millis(400),
        ..Limits::default()
    }
}

async fn serve_with<G>(dir: &std::path::Path, game: G, tap: Option<Duration>) -> Running<G>
where
    G: GameDefaults + matchbox::view::board::BoardView + matchbox::labels::LabelView,
{
    let lesson = LessonSpec::of(machine(&game, 42)).build(game).unwrap();
    let keep = Keeping {
        tap,
        log: Some(std::fs::File::create(dir.join("m.yaml.log")).unwrap()),
        ..Keeping::machine(dir.join("m.yaml"), 5)
    };
    let config = Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        code: CODE.into(),
        token: TOKEN.into(),
        limits: quick(),
        page: None,
    };
    let listener = std::net::TcpListener::bind(config.listen).unwrap();
    (matchbox::class::start_on(listener, lesson, keep, config).await).unwrap()
}

/// Reads a socket until `done` says so or `within` has passed (reading answers the server's
/// pings, as a browser does by itself); the messages read.
async fn read_until(
    ws: &mut Ws,
    within: Duration,
    mut done: impl FnMut(&ToClient) -> bool,
) -> Vec<ToClient> {
    let end = tokio::time::Instant::now() + within;
    let mut got = Vec::new();
    while let Ok(Some(m)) = tokio::time::timeout_at(end, recv(ws)).await {
        let stop = done(&m);
        got.push(m);
        if stop {
            break;
        }
    }
    got
}

/// A projector and a pupil left alone three times the idle limit (nobody taps) stay connected
/// and current: the projector hears the next game another pupil finishes, and the idle pupil
/// plays on. A page that stops answering (a phone gone) is closed after the idle limit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_page_is_never_idle_and_a_gone_one_is_closed() {
    let dir = tempfile::tempdir().unwrap();
    let running = serve_with(dir.path(), matchbox::games::tictactoe::TicTacToe, None).await;
    let addr = running.addr;
    let mut projector = connect(addr, &format!("/ws/teacher?token={TOKEN}"), None)
        .await
        .unwrap();
    let mut idle = join(addr).await;
    send(&mut idle, r#"{"type":"start"}"#).await;
    let Some(ToClient::Game { game, legal, .. }) = recv(&mut idle).await else {
        panic!("a game");
    };
    let mut gone = join(addr).await;
    // Six seconds of silence from both pages (three idle limits), reading only.
    let t0 = Instant::now();
    let (quiet, _) = tokio::join!(
        read_until(&mut projector, Duration::from_secs(6), |_| false),
        read_until(&mut idle, Duration::from_secs(6), |_| false)
    );
    assert!(t0.elapsed() >= Duration::from_secs(6));
    assert!(!quiet.is_empty(), "the projector is told the class");
    // The page that never answered the pings was closed.
    let closed = tokio::time::timeout(Duration::from_secs(1), async {
        loop {
            match gone.next().await {
                Some(Ok(tokio_tungstenite::tungstenite::Message::Close(_)))
                | None
                | Some(Err(_)) => {
                    return true;
                }
                Some(Ok(_)) => {}
            }
        }
    })
    .await
    .unwrap_or(false);
    assert!(closed, "a page that stops answering is closed");
    // Another pupil finishes a game: the projector, silent all along, hears it.
    let mut other = join(addr).await;
    assert_eq!(play_games(&mut other, 1, 3).await, 1);
    let heard = read_until(
        &mut projector,
        Duration::from_secs(3),
        |m| matches!(m, ToClient::Class { score, .. } if score.0 + score.1 + score.2 == 1),
    )
    .await;
    assert!(
        matches!(heard.last(), Some(ToClient::Class { score, .. }) if score.0 + score.1 + score.2 == 1),
        "the projector is current: {:?}",
        heard.last()
    );
    // The idle pupil plays on.
    let mv = format!(r#"{{"type":"move","game":{game},"mv":"{}"}}"#, legal[0]);
    send(&mut idle, &mv).await;
    let answer = read_until(&mut idle, Duration::from_secs(3), |m| {
        matches!(m, ToClient::Game { .. })
    })
    .await;
    assert!(matches!(answer.last(), Some(ToClient::Game { game: g, .. }) if *g == game));
    running.inbox.send(Cmd::Stop).await.unwrap();
    running.finished.await.unwrap();
}

/// Thirty pupils and HER's 24 boxes: each box dealt to a pupil, the other six told they watch;
/// a pupil who joins late is told so too; one holder never taps, and the server draws for them
/// after the tap time, so no class game stalls past it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thirty_pupils_hold_hers_boxes_and_one_who_never_taps_stalls_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let tap = Duration::from_secs(1);
    let running = serve_with(dir.path(), Hexapawn::new(Size::GARDNER), Some(tap)).await;
    let addr = running.addr;
    let mut teacher = connect(addr, &format!("/ws/teacher?token={TOKEN}"), None)
        .await
        .unwrap();
    let mut pupils = crate::class::join_many(addr, 30).await;
    send(&mut teacher, r#"{"type":"deal"}"#).await;
    let mut held = 0;
    let mut watching = 0;
    for ws in &mut pupils {
        let told = read_until(ws, Duration::from_secs(5), |m| {
            matches!(m, ToClient::Boxes { .. })
        })
        .await;
        let Some(ToClient::Boxes { boxes, said, .. }) = told.last() else {
            panic!("every pupil is told their part: {told:?}");
        };
        match boxes.len() {
            0 => {
                assert!(said.contains("watch"), "{said}");
                watching += 1;
            }
            n => held += n,
        }
    }
    assert_eq!(
        (held, watching),
        (24, 6),
        "every box held, six pupils watch"
    );
    // A late joiner: told they watch this game.
    let mut late = connect(addr, &format!("/ws?code={CODE}"), None)
        .await
        .unwrap();
    let told = read_until(&mut late, Duration::from_secs(5), |m| {
        matches!(m, ToClient::Boxes { .. })
    })
    .await;
    assert!(
        matches!(told.last(), Some(ToClient::Boxes { said, .. }) if said.contains("watch")),
        "{told:?}"
    );
    // Pupil 0 never taps; every other taps when asked. Five class games.
    let lazy = pupils.remove(0);
    let tappers: Vec<_> = pupils
        .into_iter()
        .map(|mut ws| {
            tokio::spawn(async move {
                let mut taps = 0;
                while let Some(m) = recv(&mut ws).await {
                    if let ToClient::Boxes {
                        waiting: Some(_), ..
                    } = m
                    {
                        send(&mut ws, r#"{"type":"draw"}"#).await;
                        taps += 1;
                    }
                }
                taps
            })
        })
        .collect();
    let t0 = Instant::now();
    let mut longest = Duration::ZERO;
    for g in 1..=5u64 {
        let started = Instant::now();
        send(&mut teacher, r#"{"type":"class_game"}"#).await;
        let ended = read_until(&mut teacher, Duration::from_secs(15), |m| {
            matches!(m, ToClient::Class { relay: Some(r), .. } if !r.playing && r.score.0 + r.score.1 + r.score.2 == g)
        })
        .await;
        assert!(
            matches!(ended.last(), Some(ToClient::Class { relay: Some(r), .. }) if r.score.0 + r.score.1 + r.score.2 == g),
            "class game {g} ended"
        );
        longest = longest.max(started.elapsed());
        eprintln!("class game {g} in {:?}", started.elapsed());
    }
    eprintln!(
        "five class games in {:?}, the longest {longest:?}",
        t0.elapsed()
    );
    drop(lazy);
    running.inbox.send(Cmd::Stop).await.unwrap();
    let lesson = running.finished.await.unwrap();
    assert_eq!(lesson.relay_score().games, 5);
    // Wherever the class's game waited for the pupil who never taps, the server drew for them
    // (the log says so), and every wait ended in a draw.
    let log = crate::class::log_of(dir.path());
    use matchbox::learn::lesson::Event;
    let lazy_id = 1;
    let waits = (log.iter())
        .filter(|e| matches!(e, Event::Waiting { pupil, .. } if *pupil == lazy_id))
        .count();
    let drawn_for = (log.iter())
        .filter(|e| matches!(e, Event::DrawnFor { pupil, .. } if *pupil == lazy_id))
        .count();
    assert_eq!(
        waits, drawn_for,
        "each wait for the pupil who never taps ended with the server's draw"
    );
    eprintln!("the class's games waited {waits} times for the pupil who never taps");
    let mut taps = 0;
    for t in tappers {
        taps += t.await.unwrap();
    }
    assert!(taps > 0, "the pupils tapped");
}

/// How a lesson is ended: the teacher's button, or the laptop shutting down (SIGTERM, as a
/// shutdown or a closed terminal sends).
#[derive(Clone, Copy, Debug)]
enum Ending {
    Button,
    #[cfg(unix)]
    Terminated,
}

/// The end of the lesson reaches every page before the program ends, pages slow to read
/// included: the lesson is ended, the program exits, and only then are the sockets read (what
/// was sent is in their buffers). Each page hears "the lesson is over" (so it stops trying to
/// reconnect and says so), after the messages queued before it. (Before each connection said
/// it itself, a pupil's socket could close without it, one run in a few under load.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_page_hears_the_lesson_is_over_before_the_program_ends() {
    every_page_hears_it(Ending::Button).await;
    #[cfg(unix)]
    every_page_hears_it(Ending::Terminated).await;
}

async fn every_page_hears_it(how: Ending) {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("m.yaml");
    let (mut child, addr, code, teacher) =
        crate::common::class_server::start_class_teacher(&save, &["--seed", "3"]);
    let token = teacher.split("token=").nth(1).unwrap().to_string();
    let mut pupils = Vec::new();
    for _ in 0..4 {
        pupils.push(crate::class::join_code(addr, &code).await);
    }
    // A game under way, its answer left unread.
    send(&mut pupils[0], r#"{"type":"start"}"#).await;
    let mut projector = connect(addr, &format!("/ws/teacher?token={token}"), None)
        .await
        .unwrap();
    match how {
        Ending::Button => send(&mut projector, r#"{"type":"end_lesson"}"#).await,
        #[cfg(unix)]
        Ending::Terminated => {
            // The projector is in the lesson before the signal comes.
            read_until(&mut projector, Duration::from_secs(5), |m| {
                matches!(m, ToClient::Class { .. })
            })
            .await;
            let pid = child.id().to_string();
            let killed = std::process::Command::new("kill")
                .args(["-TERM", &pid])
                .status();
            assert!(killed.unwrap().success());
        }
    }
    let exited = tokio::task::spawn_blocking(move || {
        let start = Instant::now();
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                return Some((status, start.elapsed()));
            }
            if start.elapsed() > Duration::from_secs(30) {
                let _ = child.kill();
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    });
    let (status, took) = exited.await.unwrap().expect("the program ends");
    assert!(status.success(), "{how:?}: {status}");
    eprintln!("{how:?}: the program ended {took:?} after the lesson was ended");
    for (i, ws) in pupils.iter_mut().chain([&mut projector]).enumerate() {
        let got = read_until(ws, Duration::from_secs(5), |m| {
            matches!(m, ToClient::Ended { .. })
        })
        .await;
        let last = got.last();
        assert!(
            matches!(last, Some(ToClient::Ended { message }) if message == "the lesson is over"),
            "{how:?}: page {i} heard {got:?}; the server's log: {}",
            std::fs::read_to_string(dir.path().join("m.yaml.server.log")).unwrap_or_default()
        );
        // Then the socket closes.
        assert!(recv(ws).await.is_none(), "{how:?}: page {i}: closed after");
    }
}
