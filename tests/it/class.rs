//! The class server on loopback: many pupils at once, every game counted once and the machine the
//! replay of its log; hostile clients refused with the server and the machine unharmed; a crash
//! and a resume with every finished game kept.
#![cfg(feature = "class")]

use crate::common::class_server;

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use matchbox::class::protocol::ToClient;
use matchbox::class::{Cmd, Config, Keeping, Limits, Running};
use matchbox::games::tictactoe::TicTacToe;
use matchbox::learn::lesson::{Event, Lesson, LessonSpec};
use matchbox::learn::{GameDefaults, Machine};
use matchbox::rng::{rng_from_seed, uniform_below};
use tokio_tungstenite::tungstenite::{self, Message, client::IntoClientRequest};

pub(crate) type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub(crate) const CODE: &str = "K7P2Q";
pub(crate) const TOKEN: &str = "0123456789abcdef0123456789abcdef";

pub(crate) fn machine<G: GameDefaults>(game: &G, seed: u64) -> Machine<G> {
    crate::common::fresh_machine(game, seed)
}

pub(crate) async fn serve(dir: &Path, limits: Limits) -> Running<TicTacToe> {
    serve_game(dir, limits, TicTacToe).await
}

pub(crate) async fn serve_game<
    G: GameDefaults + matchbox::view::board::BoardView + matchbox::labels::LabelView,
>(
    dir: &Path,
    limits: Limits,
    game: G,
) -> Running<G> {
    let lesson = LessonSpec::of(machine(&game, 42))
        .build(game.clone())
        .unwrap();
    // Every save off the actor (as a big machine's is): the class tests go through that way,
    // the program's (`start_binary`) through the small machine's.
    let keep = Keeping {
        log: Some(std::fs::File::create(dir.join("m.yaml.log")).unwrap()),
        save_apart_from: 0,
        ..Keeping::machine(dir.join("m.yaml"), 5)
    };
    let config = Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        code: CODE.into(),
        token: TOKEN.into(),
        limits,
        page: None,
    };
    let listener = std::net::TcpListener::bind(config.listen).unwrap();
    (matchbox::class::start_on(listener, lesson, keep, config).await).unwrap()
}

pub(crate) async fn connect(
    addr: SocketAddr,
    path: &str,
    origin: Option<&str>,
) -> Result<Ws, tungstenite::Error> {
    let mut req = format!("ws://{addr}{path}").into_client_request().unwrap();
    if let Some(o) = origin {
        req.headers_mut().insert("origin", o.parse().unwrap());
    }
    tokio_tungstenite::connect_async(req)
        .await
        .map(|(ws, _)| ws)
}

pub(crate) async fn send(ws: &mut Ws, text: &str) {
    ws.send(Message::Text(text.into())).await.unwrap();
}

/// The next message from the server, as sent; `None` when the connection ends.
pub(crate) async fn recv(ws: &mut Ws) -> Option<ToClient> {
    loop {
        match tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .ok()??
        {
            Ok(Message::Text(t)) => match serde_json::from_str(&t).unwrap() {
                // How pupils join, sent to a projector as it connects.
                ToClient::Join { .. } => continue,
                msg => return Some(msg),
            },
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => continue,
        }
    }
}

/// `n` pupils join with the code, each welcomed; their sockets.
pub(crate) async fn join_many(addr: SocketAddr, n: usize) -> Vec<Ws> {
    let mut pupils = Vec::new();
    for _ in 0..n {
        pupils.push(join_code(addr, CODE).await);
    }
    pupils
}

/// A pupil who joined with `code`, welcomed.
pub(crate) async fn join_code(addr: SocketAddr, code: &str) -> Ws {
    let mut ws = connect(addr, &format!("/ws?code={code}"), None)
        .await
        .unwrap();
    assert!(matches!(
        recv(&mut ws).await,
        Some(ToClient::Welcome { .. })
    ));
    ws
}

/// A pupil joins; their socket and welcome.
pub(crate) async fn join(addr: SocketAddr) -> Ws {
    let mut ws = connect(addr, &format!("/ws?code={CODE}"), None)
        .await
        .unwrap();
    let welcome = recv(&mut ws).await.unwrap();
    assert!(
        matches!(welcome, ToClient::Welcome { ref side, .. } if side == "o"),
        "{welcome:?}"
    );
    ws
}

/// Plays `games` games of random legal moves; the results seen.
pub(crate) async fn play_games(ws: &mut Ws, games: usize, seed: u64) -> usize {
    let mut rng = rng_from_seed(seed);
    let mut finished = 0;
    send(ws, r#"{"type":"start"}"#).await;
    while finished < games {
        match recv(ws).await.expect("the server answers") {
            ToClient::Game { over: Some(o), .. } => {
                assert!(!o.words.is_empty());
                finished += 1;
                if finished < games {
                    send(ws, r#"{"type":"start"}"#).await;
                }
            }
            ToClient::Game { game, legal, .. } => {
                assert!(!legal.is_empty(), "the pupil's turn");
                let mv = &legal[uniform_below(&mut rng, legal.len() as u32) as usize];
                send(
                    ws,
                    &format!(r#"{{"type":"move","game":{game},"mv":"{mv}"}}"#),
                )
                .await;
            }
            other => panic!("{other:?}"),
        }
    }
    finished
}

/// Every box's beads and the games played.
pub(crate) fn state<G: GameDefaults>(m: &Machine<G>) -> (Vec<Vec<u32>>, u64) {
    let beads = (0..m.boxes.len())
        .map(|b| m.beads_in(b).iter().map(|x| x.get()).collect())
        .collect();
    (beads, m.games_played)
}

pub(crate) fn log_of(dir: &Path) -> Vec<Event> {
    let text = std::fs::read_to_string(dir.join("m.yaml.log")).unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

pub(crate) async fn stop(running: Running<TicTacToe>) -> Lesson<TicTacToe> {
    running.inbox.send(Cmd::Stop).await.unwrap();
    running.finished.await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixty_pupils_play_the_class_machine_and_the_log_replays() {
    let dir = tempfile::tempdir().unwrap();
    let running = serve(dir.path(), Limits::default()).await;
    let addr = running.addr;
    // The projector: told the class at most ten times a second, and told the last game too.
    let mut teacher = connect(addr, &format!("/ws/teacher?token={TOKEN}"), None)
        .await
        .unwrap();
    let projector = tokio::spawn(async move {
        let (t0, mut told) = (std::time::Instant::now(), 0u32);
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(20), recv(&mut teacher)).await;
            let Ok(Some(ToClient::Class { games_played, .. })) = msg else {
                panic!("the projector is not told the class: {msg:?}");
            };
            told += 1;
            if games_played == 180 {
                return (told, t0.elapsed().as_secs_f64());
            }
        }
    });
    let pupils: Vec<_> = (0..60)
        .map(|i| {
            tokio::spawn(async move {
                let mut ws = join(addr).await;
                play_games(&mut ws, 3, i).await
            })
        })
        .collect();
    let mut games = 0;
    for p in pupils {
        games += p.await.unwrap();
    }
    assert_eq!(games, 180);
    let (told, secs) = projector.await.unwrap();
    assert!(
        (told as f64) <= secs * 10.0 + 2.0,
        "{told} messages to the projector in {secs:.2} s"
    );
    let lesson = stop(running).await;
    let (w, d, l) = (
        lesson.score().wins,
        lesson.score().draws,
        lesson.score().losses,
    );
    assert_eq!(w + d + l, 180, "every game counted once");
    assert_eq!(lesson.machine().games_played, 180);
    let log = log_of(dir.path());
    let ended = log
        .iter()
        .filter(|e| matches!(e, Event::Ended { .. }))
        .count();
    assert_eq!(ended, 180);
    let again = Lesson::replay(LessonSpec::of(machine(&TicTacToe, 42)), TicTacToe, &log).unwrap();
    assert_eq!(
        state(again.machine()),
        state(lesson.machine()),
        "the machine is the replay of its log"
    );
    // Saved at the end, as it stood.
    let saved = matchbox::store::load_machine(&TicTacToe, &dir.path().join("m.yaml")).unwrap();
    assert_eq!(state(&saved), state(lesson.machine()));
}

/// The next message that is an error; its words.
async fn error_of(ws: &mut Ws) -> String {
    match recv(ws).await {
        Some(ToClient::Error { message }) => message,
        other => panic!("an error expected, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_messages_are_refused_and_the_server_and_machine_are_unharmed() {
    let dir = tempfile::tempdir().unwrap();
    let running = serve(dir.path(), Limits::default()).await;
    let addr = running.addr;
    let mut ws = join(addr).await;
    // Invalid JSON, unknown fields, an unknown type, a teacher's command from a pupil.
    for (bad, says) in [
        ("{not json", "a bad message"),
        (r#"{"type":"start","extra":1}"#, "unknown field"),
        (r#"{"type":"resign"}"#, "unknown variant"),
        (r#"{"type":"end_lesson"}"#, "unknown variant"),
        (r#"{"type":"reset"}"#, "unknown variant"),
        (r#"{"type":"side","side":"second"}"#, "unknown variant"),
        (
            r#"{"type":"opponent","opponent":"random"}"#,
            "unknown variant",
        ),
        (r#"{"type":"move","game":1,"mv":"a1"}"#, "no game under way"),
    ] {
        send(&mut ws, bad).await;
        let e = error_of(&mut ws).await;
        assert!(e.contains(says), "{bad}: {e}");
    }
    ws.send(Message::Binary(vec![1, 2, 3].into()))
        .await
        .unwrap();
    assert!(error_of(&mut ws).await.contains("not binary"));
    // An illegal move, and a move in a game that is not the pupil's.
    send(&mut ws, r#"{"type":"start"}"#).await;
    let Some(ToClient::Game {
        game,
        legal,
        machine_move: Some(x),
        ..
    }) = recv(&mut ws).await
    else {
        panic!("a game");
    };
    send(
        &mut ws,
        &format!(r#"{{"type":"move","game":{game},"mv":"{x}"}}"#),
    )
    .await;
    assert!(error_of(&mut ws).await.contains("not a legal move"));
    send(
        &mut ws,
        &format!(
            r#"{{"type":"move","game":{},"mv":"{}"}}"#,
            game + 7,
            legal[0]
        ),
    )
    .await;
    assert!(error_of(&mut ws).await.contains("is not yours"));
    // A second start while a game is under way.
    send(&mut ws, r#"{"type":"start"}"#).await;
    assert!(error_of(&mut ws).await.contains("still under way"));
    // A pupil cannot use the teacher's connection.
    let teacher = connect(addr, "/ws/teacher", None).await;
    assert!(teacher.is_err(), "the teacher's socket needs the token");
    let teacher = connect(addr, &format!("/ws/teacher?token={CODE}"), None).await;
    assert!(teacher.is_err(), "the join code is not the token");
    // An oversized frame closes that connection only.
    let mut big = join(addr).await;
    let huge = format!(
        r#"{{"type":"move","game":1,"mv":"{}"}}"#,
        "a".repeat(10_000)
    );
    let _ = big.send(Message::Text(huge.into())).await;
    assert!(
        recv(&mut big).await.is_none(),
        "an oversized frame ends the connection"
    );
    // A foreign page's WebSocket is refused; the server's own is not.
    assert!(
        connect(
            addr,
            &format!("/ws?code={CODE}"),
            Some("http://evil.example")
        )
        .await
        .is_err()
    );
    assert!(
        connect(
            addr,
            &format!("/ws?code={CODE}"),
            Some(&format!("http://{addr}"))
        )
        .await
        .is_ok()
    );
    // The pupil's game goes on: the server and the lesson are unharmed.
    send(
        &mut ws,
        &format!(r#"{{"type":"move","game":{game},"mv":"{}"}}"#, legal[0]),
    )
    .await;
    assert!(matches!(recv(&mut ws).await, Some(ToClient::Game { .. })));
    let lesson = stop(running).await;
    assert_eq!(lesson.score().games, 0, "no game finished");
    assert_eq!(lesson.machine().games_played, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_is_slowed_and_wrong_codes_are_locked_out() {
    let dir = tempfile::tempdir().unwrap();
    let limits = Limits {
        burst: 5,
        per_second: 1,
        tries: 3,
        ..Limits::default()
    };
    let running = serve(dir.path(), limits).await;
    let addr = running.addr;
    let mut ws = join(addr).await;
    for _ in 0..20 {
        send(&mut ws, r#"{"type":"move","game":1,"mv":"a1"}"#).await;
    }
    let mut slowed = false;
    for _ in 0..6 {
        if error_of(&mut ws).await.contains("slow down") {
            slowed = true;
            break;
        }
    }
    assert!(slowed, "the flood is told to slow down");
    // Wrong codes: three, then even the right one is refused for a while.
    for _ in 0..3 {
        assert!(connect(addr, "/ws?code=WRONG", None).await.is_err());
    }
    let locked = connect(addr, &format!("/ws?code={CODE}"), None).await;
    match locked {
        Err(tungstenite::Error::Http(r)) => assert_eq!(r.status(), 429),
        other => panic!("locked out expected: {:?}", other.map(|_| ())),
    }
    stop(running).await;
}

/// A pupil whose page drops mid-game (a phone asleep, the Wi-Fi lost, a reload) comes back with
/// the key it was given: the same pupil, name and game, where the game stood. A pupil who never
/// comes back changes no box: their game is never finished.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pupil_who_drops_mid_game_comes_back_to_it_or_changes_no_box() {
    let dir = tempfile::tempdir().unwrap();
    let running = serve(dir.path(), Limits::default()).await;
    let addr = running.addr;
    let mut ws = connect(addr, &format!("/ws?code={CODE}"), None)
        .await
        .unwrap();
    let Some(ToClient::Welcome { name, key, .. }) = recv(&mut ws).await else {
        panic!("a welcome");
    };
    assert_eq!(key.len(), 32, "a 128-bit key");
    send(&mut ws, r#"{"type":"start"}"#).await;
    let Some(ToClient::Game { game, legal, .. }) = recv(&mut ws).await else {
        panic!("a game");
    };
    send(
        &mut ws,
        &format!(r#"{{"type":"move","game":{game},"mv":"{}"}}"#, legal[0]),
    )
    .await;
    let Some(ToClient::Game { board, .. }) = recv(&mut ws).await else {
        panic!("the game goes on");
    };
    drop(ws);
    tokio::time::sleep(Duration::from_millis(200)).await;
    // Back with the key (no code): the same pupil, told the game where it stood.
    let mut back = connect(addr, &format!("/ws?key={key}"), None)
        .await
        .unwrap();
    let Some(ToClient::Welcome {
        name: again,
        returning,
        ..
    }) = recv(&mut back).await
    else {
        panic!("welcomed back");
    };
    assert_eq!((again, returning), (name, true));
    let Some(ToClient::Game {
        game: same,
        board: now,
        legal,
        ..
    }) = recv(&mut back).await
    else {
        panic!("the game under way");
    };
    assert_eq!((same, now), (game, board));
    assert!(!legal.is_empty(), "their move");
    // A key this lesson never gave: told to join with the code, and the page forgets it.
    let mut stranger = connect(addr, &format!("/ws?key={}", "f".repeat(32)), None)
        .await
        .unwrap();
    assert!(matches!(
        recv(&mut stranger).await,
        Some(ToClient::Refused { forget: true, .. })
    ));
    drop(back);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let lesson = stop(running).await;
    assert_eq!(
        state(lesson.machine()),
        state(&machine(&TicTacToe, 42)),
        "no box changed"
    );
    let log = log_of(dir.path());
    assert!(log.iter().all(|e| !matches!(e, Event::Ended { .. })));
    assert_eq!(lesson.pupils().len(), 1, "one pupil, who came back");
}

/// `matchbox class` started as a teacher would; the child, the pupils' address and the code.
fn start_binary(dir: &Path, extra: &[&str]) -> (std::process::Child, SocketAddr, String) {
    let mut args = vec!["--seed", "5"];
    args.extend_from_slice(extra);
    class_server::start_class(&dir.join("m.yaml"), &args)
}

/// Five wrong codes typed on one phone lock that phone out for a while, not the class behind
/// the same address (a school's NAT); a page is told why on its socket.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_codes_on_one_phone_do_not_lock_out_the_class() {
    let dir = tempfile::tempdir().unwrap();
    let running = serve(dir.path(), Limits::default()).await;
    let addr = running.addr;
    for _ in 0..5 {
        let mut ws = connect(addr, "/ws?code=WRONG&device=phone-a&page=1", None)
            .await
            .unwrap();
        let Some(ToClient::Refused { message, .. }) = recv(&mut ws).await else {
            panic!("refused on the socket");
        };
        assert!(message.starts_with("wrong code"), "{message}");
    }
    let right = format!("/ws?code={CODE}&device=phone-a&page=1");
    let mut ws = connect(addr, &right, None).await.unwrap();
    let Some(ToClient::Refused {
        message, retry_in, ..
    }) = recv(&mut ws).await
    else {
        panic!("locked out");
    };
    assert!(
        message.contains("wait a minute") && retry_in == Some(60),
        "{message}"
    );
    // Another phone behind the same address joins.
    let other = format!("/ws?code={CODE}&device=phone-b&page=1");
    let mut ws = connect(addr, &other, None).await.unwrap();
    assert!(matches!(
        recv(&mut ws).await,
        Some(ToClient::Welcome { .. })
    ));
    stop(running).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_kill_the_lesson_resumes_with_every_finished_game() {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, addr, code) = start_binary(dir.path(), &[]);
    let mut pupils = Vec::new();
    for i in 0..5 {
        let code = code.clone();
        pupils.push(tokio::spawn(async move {
            let mut ws = join_code(addr, &code).await;
            let n = play_games(&mut ws, 4, i).await;
            // One more game left under way when the server dies.
            send(&mut ws, r#"{"type":"start"}"#).await;
            let _ = recv(&mut ws).await;
            (n, ws)
        }));
    }
    let mut finished = 0;
    let mut sockets = Vec::new();
    for p in pupils {
        let (n, ws) = p.await.unwrap();
        finished += n;
        sockets.push(ws);
    }
    assert_eq!(finished, 20);
    child.kill().unwrap(); // SIGKILL: no save, no goodbye.
    child.wait().unwrap();
    drop(sockets);
    // The autosave (every 5 games) may lag; the log keeps every finished game.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_matchbox"))
        .args([
            "class",
            "tictactoe",
            "--listen",
            "127.0.0.1:0",
            "--resume",
            "--save",
        ])
        .arg(dir.path().join("m.yaml"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = out;
    let mut err = std::io::BufReader::new(out.stderr.take().unwrap());
    let mut line = String::new();
    std::io::BufRead::read_line(&mut err, &mut line).unwrap();
    out.kill().unwrap();
    out.wait().unwrap();
    assert!(
        line.contains("20 games finished, the machine at 20 games"),
        "{line}"
    );
    // And a new lesson over that log is refused without --force.
    let refused = std::process::Command::new(env!("CARGO_BIN_EXE_matchbox"))
        .args(["class", "tictactoe", "--listen", "127.0.0.1:0", "--boxes"])
        .arg(dir.path().join("m.yaml"))
        .arg("--save")
        .arg(dir.path().join("m.yaml"))
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let msg = String::from_utf8_lossy(&refused.stderr);
    assert!(
        msg.contains("a lesson is there (20 games finished")
            && msg.contains("--resume continues it with the same code"),
        "{msg}"
    );
    // `class --replay LOG` replays the log alone (no server), the resumed lesson's departures
    // too: the 20 finished games, the machine saved where asked.
    let (log, replayed) = (dir.path().join("m.yaml.log"), dir.path().join("r.yaml"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_matchbox"))
        .args(["class", "tictactoe", "--json", "--replay"])
        .arg(&log)
        .arg("--save")
        .arg(&replayed)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["games"], 20, "{report}");
    assert_eq!(report["games_played"], 20);
    let read = |p: &Path| {
        let text = std::fs::read_to_string(p).unwrap();
        matchbox::store::from_yaml(&TicTacToe, p, &text).unwrap()
    };
    let machine = read(&replayed);
    assert_eq!(machine.games_played, 20);
    assert_eq!(report["digest"], machine.digest());
    // Its --save never replaces the log it reads.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_matchbox"))
        .args(["class", "tictactoe", "--replay"])
        .arg(&log)
        .arg("--save")
        .arg(&log)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("names the log being replayed"));
}

/// "The class is the machine" over the sockets: 10 pupils hold HER's 24 boxes; the teacher deals
/// and starts games; each pupil whose box comes up is asked to draw and taps; at the end the
/// holders are told what their boxes learned; the machine is the replay of the log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_class_is_the_machine_ten_pupils_hold_hers_boxes() {
    use matchbox::games::hexapawn::{Hexapawn, Size};
    let dir = tempfile::tempdir().unwrap();
    let game = Hexapawn::new(Size::GARDNER);
    let running = serve_game(dir.path(), Limits::default(), game.clone()).await;
    let addr = running.addr;
    let mut pupils = join_many(addr, 10).await;
    let mut teacher = connect(addr, &format!("/ws/teacher?token={TOKEN}"), None)
        .await
        .unwrap();
    send(&mut teacher, r#"{"type":"deal"}"#).await;
    // Every pupil hears the boxes they hold: 24 in all.
    let mut held = 0;
    for ws in &mut pupils {
        match recv(ws).await.unwrap() {
            ToClient::Boxes {
                boxes,
                waiting: None,
                said,
                drawn: None,
            } => {
                assert!(said.contains("you hold boxes"), "{said}");
                held += boxes.len();
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(held, 24);
    // A pupil may not start a game of their own now, nor draw when no box of theirs waits.
    send(&mut pupils[0], r#"{"type":"start"}"#).await;
    assert!(
        error_of(&mut pupils[0])
            .await
            .contains("the class is the machine")
    );
    send(&mut pupils[0], r#"{"type":"draw"}"#).await;
    assert!(error_of(&mut pupils[0]).await.contains("no box of yours"));
    let mut counts = Counts::default();
    let mut relay = None;
    for played in 1..=3u64 {
        send(&mut teacher, r#"{"type":"class_game"}"#).await;
        // Until the projector says the game ended, the pupil asked draws.
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        loop {
            assert!(
                std::time::Instant::now() < deadline,
                "game {played} never ended"
            );
            for ws in pupils.iter_mut() {
                while let Ok(Some(Ok(Message::Text(t)))) =
                    tokio::time::timeout(Duration::from_millis(5), ws.next()).await
                {
                    if let Some(n) = tally(&t, &mut counts) {
                        assert!(n > 0);
                        send(ws, r#"{"type":"draw"}"#).await;
                    }
                }
            }
            while let Ok(Some(Ok(Message::Text(t)))) =
                tokio::time::timeout(Duration::from_millis(5), teacher.next()).await
            {
                if let ToClient::Class { relay: Some(r), .. } = serde_json::from_str(&t).unwrap() {
                    relay = Some(r);
                }
            }
            if relay
                .as_ref()
                .is_some_and(|r| r.score.0 + r.score.1 + r.score.2 == played)
            {
                break;
            }
        }
    }
    // The last tap's answer may still be on its way.
    for ws in pupils.iter_mut() {
        while let Ok(Some(Ok(Message::Text(t)))) =
            tokio::time::timeout(Duration::from_millis(200), ws.next()).await
        {
            assert_eq!(
                tally(&t, &mut counts),
                None,
                "a box waits after the last game"
            );
        }
    }
    let Counts {
        taps,
        told,
        shown,
        empty,
    } = counts;
    assert!(taps >= 3, "{taps} beads drawn by pupils");
    // Every tap answered with its bead, but the tap that ends a game: that one is answered with
    // what to do with the boxes (at most one a game, three games).
    assert!(
        shown + empty <= taps && taps - (shown + empty) <= 3,
        "every tap answered: {taps} taps, {shown} beads shown, {empty} empty"
    );
    assert!(told >= 1, "the holders were told what their boxes learned");
    let relay = relay.expect("the projector hears the class's game");
    assert_eq!(
        relay.score.0 + relay.score.1 + relay.score.2,
        3,
        "{relay:?}"
    );
    running.inbox.send(Cmd::Stop).await.unwrap();
    let lesson = running.finished.await.unwrap();
    assert_eq!(lesson.machine().games_played, 3);
    let again = Lesson::replay(
        LessonSpec::of(machine(&game, 42)),
        game.clone(),
        &log_of(dir.path()),
    )
    .unwrap();
    assert_eq!(state(again.machine()), state(lesson.machine()));
}

/// What the pupils holding HER's boxes heard in a class game.
#[derive(Default)]
struct Counts {
    taps: u32,
    told: u32,
    shown: u32,
    empty: u32,
}

/// Counts one message to a pupil holding boxes; `Some(box)` when it asks them to draw from it
/// (the caller taps).
fn tally(text: &str, c: &mut Counts) -> Option<usize> {
    match serde_json::from_str::<ToClient>(text).unwrap() {
        ToClient::Boxes {
            waiting: Some(n),
            said,
            boxes,
            ..
        } => {
            assert!(said.contains(&format!("your box {n}")), "{said}");
            assert!(boxes.iter().any(|b| b.number == n));
            c.taps += 1;
            Some(n)
        }
        // The tap's answer: the bead that left the box, one of its arrows.
        ToClient::Boxes {
            said,
            boxes,
            drawn: Some(d),
            ..
        } => {
            let b = boxes.iter().find(|b| b.number == d.number).unwrap();
            assert_eq!(b.arrows[d.arrow].0, d.bead, "{said}");
            assert!(said.starts_with("you drew a bead of"), "{said}");
            assert!(
                said.ends_with(&format!("the machine plays {}", d.mv)),
                "{said}"
            );
            c.shown += 1;
            None
        }
        ToClient::Boxes { said, .. } => {
            assert!(said.contains("box "), "{said}");
            c.empty += said.contains("is empty: the machine resigns") as u32;
            c.told += 1;
            None
        }
        other => panic!("{other:?}"),
    }
}

/// How pupils join, for the projector: the code, the address it listens on, and a QR code
/// (SVG) of the pupils' address with the code in it, which differs for another code.
#[test]
fn the_projector_is_told_how_to_join() {
    let addr: SocketAddr = "127.0.0.1:8080".parse().unwrap();
    let ToClient::Join {
        code,
        addresses,
        qr,
    } = matchbox::class::join_info(addr, "K7P2Q")
    else {
        panic!("not a join message")
    };
    assert_eq!(code, "K7P2Q");
    assert_eq!(addresses, ["http://127.0.0.1:8080/"]);
    assert!(qr.starts_with("<?xml") && qr.contains("<svg"), "{qr:.80}");
    let ToClient::Join { qr: other, .. } = matchbox::class::join_info(addr, "AAAAA") else {
        panic!()
    };
    assert_ne!(qr, other);
    // On every network: each of the laptop's addresses, none of them 0.0.0.0.
    let every: SocketAddr = "0.0.0.0:8080".parse().unwrap();
    let hosts = matchbox::class::reachable_hosts(every);
    assert!(!hosts.is_empty());
    assert!(
        hosts
            .iter()
            .all(|h| !h.starts_with("0.0.0.0") && h.ends_with(":8080")),
        "{hosts:?}"
    );
}

/// A plain HTTP GET on loopback; the status line and the body.
pub(crate) async fn http_get(
    addr: SocketAddr,
    path: &str,
    cookie: Option<&str>,
) -> (String, String) {
    let (status, body) = http_get_bytes(addr, path, cookie).await;
    (status, String::from_utf8(body).unwrap())
}

/// A GET on loopback: the status line and the body's bytes.
async fn http_get_bytes(addr: SocketAddr, path: &str, cookie: Option<&str>) -> (String, Vec<u8>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let cookie = cookie
        .map(|c| format!("Cookie: {c}\r\n"))
        .unwrap_or_default();
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{cookie}Connection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut bytes = Vec::new();
    s.read_to_end(&mut bytes).await.unwrap();
    let end = bytes
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or(bytes.len());
    let head = String::from_utf8_lossy(&bytes[..end]).to_string();
    let status = head.lines().next().unwrap_or_default().to_string();
    let body = bytes.get(end + 4..).unwrap_or_default().to_vec();
    (status, body)
}

/// The PDF's document title (UTF-16 in a hex string, as the labels write it).
fn pdf_title(pdf: &[u8]) -> String {
    let text = String::from_utf8_lossy(pdf);
    let hex = text
        .split_once("/Title <FEFF")
        .and_then(|(_, rest)| rest.split_once('>'))
        .map_or("", |(h, _)| h);
    let units: Vec<u16> = (0..hex.len() / 4)
        .map(|i| u16::from_str_radix(&hex[4 * i..4 * i + 4], 16).unwrap())
        .collect();
    String::from_utf16_lossy(&units)
}

/// The teacher downloads the labels (blank to build the machine, or as trained) and the class's
/// learning curve from the projector; a pupil cannot; the class's games go on meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_teacher_downloads_labels_and_the_learning_curve() {
    let dir = tempfile::tempdir().unwrap();
    let running = serve(dir.path(), Limits::default()).await;
    let addr = running.addr;
    let mut ws = join(addr).await;
    assert_eq!(play_games(&mut ws, 4, 3).await, 4);
    let cookie = format!("matchbox_teacher_{}={TOKEN}", addr.port());
    for path in [
        "/labels.pdf",
        "/labels-trained.pdf",
        "/chart.svg",
        "/chart.png",
    ] {
        let (status, _) = http_get_bytes(addr, path, None).await;
        assert!(status.contains("403"), "{path}: {status}");
    }
    let (status, blank) = http_get_bytes(addr, "/labels.pdf", Some(&cookie)).await;
    assert!(
        status.contains("200") && blank.starts_with(b"%PDF-"),
        "{status}"
    );
    let title = pdf_title(&blank);
    assert!(
        title.starts_with("MENACE: tictactoe") && title.ends_with("beads 8,3,2,1"),
        "{title}"
    );
    let (_, trained) = http_get_bytes(addr, "/labels-trained.pdf", Some(&cookie)).await;
    assert!(
        pdf_title(&trained).ends_with("beads after 4 games"),
        "{}",
        pdf_title(&trained)
    );
    let (status, svg) = http_get(addr, "/chart.svg", Some(&cookie)).await;
    assert!(status.contains("200"), "{status}");
    assert!(
        svg.starts_with("<svg") && svg.contains("MENACE (x) v the class"),
        "{svg:.300}"
    );
    let (_, png) = http_get_bytes(addr, "/chart.png", Some(&cookie)).await;
    assert_eq!(&png[1..4], b"PNG");
    // The lesson went on: one more game after the downloads.
    assert_eq!(play_games(&mut ws, 1, 5).await, 1);
    let lesson = stop(running).await;
    assert_eq!(lesson.machine().games_played, 5);
}

/// The teacher downloads the machine as it stands, as the command line's YAML; nobody else can.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_teacher_downloads_the_machine_as_yaml() {
    let dir = tempfile::tempdir().unwrap();
    let running = serve(dir.path(), Limits::default()).await;
    let addr = running.addr;
    let mut ws = join(addr).await;
    assert_eq!(play_games(&mut ws, 3, 9).await, 3);
    let (status, _) = http_get(addr, "/machine.yaml", None).await;
    assert!(status.contains("403"), "{status}");
    let wrong = format!("matchbox_teacher_{}={CODE}", addr.port());
    assert!(
        http_get(addr, "/machine.yaml", Some(&wrong))
            .await
            .0
            .contains("403")
    );
    // The cookie of a class on another port of the same laptop is not this class's.
    let other = format!("matchbox_teacher_{}={TOKEN}", addr.port().wrapping_add(1));
    assert!(
        http_get(addr, "/machine.yaml", Some(&other))
            .await
            .0
            .contains("403")
    );
    let cookie = format!("matchbox_teacher_{}={TOKEN}", addr.port());
    let (status, body) = http_get(addr, "/machine.yaml", Some(&cookie)).await;
    assert!(status.contains("200"), "{status}");
    let loaded =
        matchbox::store::from_yaml(&TicTacToe, Path::new("class-machine.yaml"), &body).unwrap();
    let lesson = stop(running).await;
    assert_eq!(state(&loaded), state(lesson.machine()));
    assert_eq!(loaded.games_played, 3);
}

/// `class --page DIR` serves the browser page's folder at /page/ for the laptop's own screen:
/// its files, nothing outside it; a folder without index.html is refused in one line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_class_server_serves_the_page_folder() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page");
    std::fs::create_dir_all(page.join("fonts")).unwrap();
    std::fs::write(page.join("index.html"), "<title>matchbox page</title>").unwrap();
    std::fs::write(page.join("fonts/a.ttf"), "font").unwrap();
    std::fs::write(dir.path().join("secret.txt"), "not served").unwrap();
    // A link inside the folder to what lies outside it is not followed.
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.path(), page.join("up")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.path().join("secret.txt"), page.join("s.txt")).unwrap();
    let p = page.to_str().unwrap();
    let (mut child, addr, _) = start_binary(dir.path(), &["--page", p]);
    let (status, body) = http_get(addr, "/page/index.html", None).await;
    assert!(
        status.contains("200") && body.contains("matchbox page"),
        "{status} {body}"
    );
    let (status, body) = http_get(addr, "/page/", None).await;
    assert!(
        status.contains("200") && body.contains("matchbox page"),
        "{status}"
    );
    assert!(
        http_get(addr, "/page/fonts/a.ttf", None)
            .await
            .0
            .contains("200")
    );
    for outside in [
        "/page/../secret.txt",
        "/page/%2e%2e/secret.txt",
        "/page/..%2fsecret.txt",
        "/page/up/secret.txt",
        "/page/s.txt",
        "/page/%75p/secret.txt",
    ] {
        let (status, body) = http_get(addr, outside, None).await;
        assert!(
            !status.contains("200") && !body.contains("not served"),
            "{outside}: {status}"
        );
    }
    child.kill().unwrap();
    child.wait().unwrap();
    // Refused before any file is written (no machine, no log).
    let save = dir.path().join("new.yaml");
    let refused = crate::common::refused(&[
        "class",
        "tictactoe",
        "--save",
        save.to_str().unwrap(),
        "--page",
        dir.path().to_str().unwrap(),
    ]);
    assert!(refused.contains("--page: no index.html there"), "{refused}");
    assert!(!save.exists() && !dir.path().join("new.yaml.log").exists());
}

/// The pupil's next welcome (after the teacher gave the class a new machine); its side.
async fn welcomed(ws: &mut Ws) -> String {
    loop {
        match recv(ws).await.expect("the server answers") {
            ToClient::Welcome { side, .. } => return side,
            ToClient::Game { .. } => continue,
            other => panic!("{other:?}"),
        }
    }
}

/// The teacher turns the machine round and resets it over the teacher's socket: each time the
/// pupils are welcomed to the new machine, the machine that was is kept beside the lesson's
/// file, and the log replays to the machine the lesson ends with.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_teacher_turns_the_machine_round_and_resets_it() {
    use matchbox::game::Side;
    use matchbox::players::Opponent;
    let dir = tempfile::tempdir().unwrap();
    // One pupil plays quickly: more messages a second than a person taps.
    let limits = Limits {
        burst: 1000,
        per_second: 1000,
        ..Limits::default()
    };
    let running = serve(dir.path(), limits).await;
    let addr = running.addr;
    let mut pupil = join(addr).await;
    assert_eq!(play_games(&mut pupil, 3, 1).await, 3);
    let mut teacher = connect(addr, &format!("/ws/teacher?token={TOKEN}"), None)
        .await
        .unwrap();
    // The projector hears which side the machine plays and the names of the sides.
    let side_of = |m: &ToClient| match m {
        ToClient::Class {
            side, side_names, ..
        } => Some((*side, side_names.clone())),
        _ => None,
    };
    let first = recv(&mut teacher).await.unwrap();
    assert_eq!(
        side_of(&first),
        Some((Side::First, ("x".into(), "o".into())))
    );
    // The projector is sent the whole machine, box by box, and the boxes of the last game.
    let ToClient::Class {
        machine_boxes: Some(tiles),
        used,
        ..
    } = &first
    else {
        panic!("{first:?}");
    };
    assert_eq!(tiles.len(), 304);
    assert_eq!((tiles[0].number, tiles[0].move_number), (1, 1));
    assert!(!used.is_empty(), "the last game's boxes");
    for b in used {
        let tile = &tiles[b.number - 1];
        let beads: Vec<u32> = b.arrows.iter().map(|a| a.1).collect();
        assert_eq!(tile.beads, beads, "box {} as the tiles have it", b.number);
        assert!(b.board.len() >= 3, "its position drawn: {:?}", b.board);
    }
    send(&mut teacher, r#"{"type":"side","side":"second"}"#).await;
    assert_eq!(welcomed(&mut pupil).await, "x", "the pupils play X now");
    let g = TicTacToe;
    let load = |name: &str| matchbox::store::load_machine(&g, &dir.path().join(name)).unwrap();
    let now = load("m.yaml");
    assert_eq!(
        (now.boxes.side(), now.boxes.len(), now.games_played),
        (Side::Second, 289, 0)
    );
    let kept = load("m-2.yaml");
    assert_eq!((kept.boxes.side(), kept.games_played), (Side::First, 3));
    assert_eq!(play_games(&mut pupil, 2, 2).await, 2);
    send(&mut teacher, r#"{"type":"reset"}"#).await;
    assert_eq!(welcomed(&mut pupil).await, "x");
    assert_eq!(load("m.yaml").games_played, 0);
    let kept = load("m-3.yaml");
    assert_eq!((kept.boxes.side(), kept.games_played), (Side::Second, 2));
    assert_eq!(play_games(&mut pupil, 4, 3).await, 4);
    // A side the game does not have is refused as a bad message; the lesson goes on.
    send(&mut teacher, r#"{"type":"side","side":"third"}"#).await;
    send(&mut teacher, r#"{"type":"opponent","opponent":"random"}"#).await;
    loop {
        match recv(&mut teacher)
            .await
            .expect("the projector hears the class")
        {
            ToClient::Error { message } => assert!(message.contains("third"), "{message}"),
            ToClient::Class {
                opponent: Opponent::Random,
                ..
            } => break,
            _ => continue,
        }
    }
    // The whole machine the projector was sent last is the machine as the games left it: a
    // change held back (twice a second at most) is sent when nothing else comes.
    let mut last_tiles = None;
    while let Ok(Some(m)) =
        tokio::time::timeout(Duration::from_millis(1500), recv(&mut teacher)).await
    {
        if let ToClient::Class {
            machine_boxes: Some(t),
            ..
        } = m
        {
            last_tiles = Some(t);
        }
    }
    let lesson = stop(running).await;
    let tiles = last_tiles.expect("the whole machine after the games");
    let beads: Vec<Vec<u32>> = tiles.iter().map(|t| t.beads.clone()).collect();
    assert_eq!(beads, state(lesson.machine()).0);
    assert_eq!(lesson.machine().games_played, 4);
    assert_eq!(lesson.machine().boxes.side(), Side::Second);
    assert_eq!(lesson.score().games, 4);
    let again = Lesson::replay(LessonSpec::of(machine(&g, 42)), g, &log_of(dir.path())).unwrap();
    assert_eq!(state(again.machine()), state(lesson.machine()));
    assert_eq!(again.relay_opponent(), Opponent::Random);
}

/// The pages' shared client names every message type the server and the pages exchange: each
/// of the protocol's messages, serialised, has its type in `client.js`'s lists.
#[test]
fn the_pages_client_knows_every_message_of_the_protocol() {
    use matchbox::class::protocol::{FromPupil, FromTeacher};
    let client = include_str!("../../src/class/client.js");
    let list = |name: &str| -> Vec<String> {
        let start = client.find(&format!("{name}: [")).unwrap() + name.len() + 3;
        let end = start + client[start..].find(']').unwrap();
        (client[start..end].split(','))
            .map(|s| s.trim().trim_matches('\'').to_string())
            .filter(|s| !s.is_empty())
            .collect()
    };
    let kind = |v: serde_json::Value| v["type"].as_str().unwrap().to_string();
    let to_client = [
        ToClient::Welcome {
            pupil: 1,
            name: "n".into(),
            game: "g".into(),
            side: "o".into(),
            key: "k".into(),
            returning: false,
        },
        ToClient::Refused {
            message: "m".into(),
            retry_in: None,
            forget: false,
        },
        ToClient::Join {
            code: "C".into(),
            addresses: vec![],
            qr: String::new(),
        },
        ToClient::Notice {
            message: "m".into(),
        },
        ToClient::Game {
            game: 1,
            side: "o".into(),
            position: String::new(),
            board: vec![],
            legal: vec![],
            machine_move: None,
            over: None,
        },
        ToClient::Boxes {
            boxes: vec![],
            waiting: None,
            said: String::new(),
            drawn: None,
        },
        ToClient::Collected {},
        ToClient::error("e"),
        ToClient::Ended {
            message: "m".into(),
        },
    ];
    let mut kinds: Vec<String> = to_client
        .iter()
        .map(|m| kind(serde_json::to_value(m).unwrap()))
        .collect();
    let class = r#"{"type":"class","game":"","machine":"","joining":true,"pupils":[],"score":[0,0,0],"games_played":0,"under_way":0,"last":null,"relay":null,"side":"first","side_names":["x","o"],"opponent":"perfect"}"#;
    kinds.push(kind(
        serde_json::to_value(serde_json::from_str::<ToClient>(class).unwrap()).unwrap(),
    ));
    let mut listed = list("toClient");
    listed.sort();
    kinds.sort();
    assert_eq!(listed, kinds, "client.js's toClient");
    for t in list("fromPupil") {
        let msg = match t.as_str() {
            "move" => r#"{"type":"move","game":1,"mv":"a1"}"#.to_string(),
            _ => format!(r#"{{"type":"{t}"}}"#),
        };
        assert!(serde_json::from_str::<FromPupil>(&msg).is_ok(), "{msg}");
    }
    let teacher = list("fromTeacher");
    for t in &teacher {
        let msg = match t.as_str() {
            "side" => r#"{"type":"side","side":"first"}"#.to_string(),
            "opponent" => r#"{"type":"opponent","opponent":"random"}"#.to_string(),
            "tap_time" => r#"{"type":"tap_time","seconds":30}"#.to_string(),
            _ => format!(r#"{{"type":"{t}"}}"#),
        };
        assert!(serde_json::from_str::<FromTeacher>(&msg).is_ok(), "{msg}");
    }
    // And every message a teacher's page may send is listed (the enum's variants, counted).
    assert_eq!(teacher.len(), 12);
}

/// The server's journal (`FILE.server.log`, `tracing` events) shows a pupil's text quoted — an
/// escape sequence that would retitle and clear the teacher's terminal, a right-to-left override
/// — and writes at most a hundred lines a second, counting the rest.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_journal_quotes_what_pupils_send_and_counts_a_flood() {
    let dir = tempfile::tempdir().unwrap();
    let (mut child, addr, code) = start_binary(dir.path(), &["--rate", "10000"]);
    let mut ws = connect(addr, &format!("/ws?code={code}&device=d1"), None)
        .await
        .unwrap();
    welcomed(&mut ws).await;
    let hostile = r#"{"type":"\u001b]0;owned\u0007\u001b[2J\u202e"}"#;
    send(&mut ws, hostile).await;
    assert!(error_of(&mut ws).await.contains("unknown variant"));
    for i in 0..250 {
        send(&mut ws, &format!(r#"{{"type":"flood{i}"}}"#)).await;
    }
    tokio::time::sleep(Duration::from_millis(1100)).await;
    send(&mut ws, r#"{"type":"after"}"#).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    child.kill().unwrap();
    child.wait().unwrap();
    let journal = std::fs::read_to_string(dir.path().join("m.yaml.server.log")).unwrap();
    assert!(
        !journal.contains('\u{1b}') && !journal.contains('\u{7}') && !journal.contains('\u{202e}'),
        "raw control characters in the journal:\n{journal}"
    );
    assert!(journal.contains(r"\x1b]0;owned\x07"), "{journal}");
    assert!(
        journal.contains("WARN") && journal.contains("a bad message"),
        "{journal}"
    );
    let floods = journal.lines().filter(|l| l.contains("flood")).count();
    assert!(
        (90..=100).contains(&floods),
        "{floods} flood lines:\n{journal}"
    );
    assert!(journal.contains("more lines left out"), "{journal}");
    assert!(journal.contains("`after`"), "{journal}");
}
