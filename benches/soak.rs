//! A 45-minute lesson, compressed (a benchmark, not a timed test): `matchbox class` started as
//! a teacher starts it, 30 simulated phones playing at a person's pace that now and then sleep
//! (their socket dropped, back a few seconds later with their key) or reload, the projector's
//! socket open throughout; the class then becomes the machine and plays class games, every
//! holder checking each bead instruction against the box on their phone; the server killed
//! (kill -9) twice and resumed on its port. Prints, each part and in all: games finished, games
//! lost (finished on a phone but missing from the log), pages stranded (not back within 10 s
//! of a restart, or back as another pupil), instructions wrong, and the server's memory.
//!
//!   cargo bench --bench soak [-- SECONDS]     (a part's length; 30 by default)

use std::collections::BTreeMap;
use std::io::BufRead;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use matchbox::class::protocol::ToClient;
use matchbox::rng::{Rng, rng_from_seed, uniform_below};
use tokio_tungstenite::tungstenite::Message;

#[path = "../tests/it/common/class_server.rs"]
#[allow(dead_code)] // the tests use all of it; the soak, the memory only
mod class_server;
use class_server::rss_mb;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// What the phones count over the lesson.
#[derive(Default)]
struct Tally {
    games: AtomicU64,
    stranded: AtomicU64,
    instructions: AtomicU64,
    wrong: AtomicU64,
    sleeps: AtomicU64,
    /// Set once the teacher ends the lesson: a page that cannot reach it then is not stranded.
    over: std::sync::atomic::AtomicBool,
}

/// The server: started fresh (port 0) or resumed on `listen`; its process, address, code and
/// teacher's token.
fn start(
    dir: &std::path::Path,
    listen: &str,
    resume: bool,
) -> (std::process::Child, SocketAddr, String, String) {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_matchbox"));
    cmd.args([
        "class",
        "tictactoe",
        "--listen",
        listen,
        "--seed",
        "3",
        "--rate",
        "1000",
        "--tap-time",
        "2",
    ])
    .arg("--save")
    .arg(dir.join("soak.yaml"))
    .stdout(std::process::Stdio::piped())
    .stderr(std::process::Stdio::null());
    if resume {
        cmd.arg("--resume");
    }
    let mut child = cmd.spawn().unwrap();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let teacher = (lines.by_ref().map_while(Result::ok))
        .find(|l| l.contains("token="))
        .unwrap_or_default();
    std::thread::spawn(move || lines.for_each(drop));
    let addr = first
        .split("http://")
        .nth(1)
        .unwrap()
        .split('/')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let code = first
        .split("the code ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_string();
    let token = teacher
        .split("token=")
        .nth(1)
        .unwrap_or_default()
        .trim()
        .to_string();
    (child, addr, code, token)
}

/// Connects `path`, trying for up to 10 s (a server restarting); `None`: stranded.
async fn reach(addr: SocketAddr, path: &str) -> Option<Ws> {
    let until = Instant::now() + Duration::from_secs(10);
    while Instant::now() < until {
        if let Ok((ws, _)) = tokio_tungstenite::connect_async(format!("ws://{addr}{path}")).await {
            return Some(ws);
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    None
}

/// A phone back with its key after a sleep or a restart; `None` (counted as stranded unless the
/// lesson is over) when it cannot reach the server within 10 s.
async fn back(addr: SocketAddr, key: &str, t: &Tally) -> Option<Ws> {
    let ws = reach(addr, &format!("/ws?key={key}")).await;
    if ws.is_none() && !t.over.load(Relaxed) {
        t.stranded.fetch_add(1, Relaxed);
    }
    ws
}

async fn say(ws: &mut Ws, text: &str) -> bool {
    ws.send(Message::Text(text.into())).await.is_ok()
}

/// Checks each instruction in `said` ("box 7: add 3 beads to b2; box 9: leave a1 as it is")
/// against the boxes the phone showed before and shows now; the instructions, and how many
/// were wrong.
fn check(
    said: &str,
    before: &BTreeMap<usize, Vec<(String, u32)>>,
    now: &BTreeMap<usize, Vec<(String, u32)>>,
) -> (u64, u64) {
    let (mut n, mut wrong) = (0, 0);
    for part in said.split("; ") {
        let Some(rest) = part.strip_prefix("box ") else {
            continue;
        };
        let Some((number, what)) = rest.split_once(": ") else {
            continue;
        };
        let Ok(number) = number.parse::<usize>() else {
            continue;
        };
        let words: Vec<&str> = what.split_whitespace().collect();
        let (change, arrow) = match words.as_slice() {
            ["leave", arrow, "as", "it", "is"] => (0i64, *arrow),
            ["add", k, _, "to", arrow] => (k.parse().unwrap_or(i64::MIN), *arrow),
            ["take", k, _, "of", arrow, "out"] => (-k.parse::<i64>().unwrap_or(i64::MIN), *arrow),
            _ => continue,
        };
        n += 1;
        let beads = |m: &BTreeMap<usize, Vec<(String, u32)>>| {
            m.get(&number)
                .and_then(|b| b.iter().find(|a| a.0 == arrow))
                .map(|a| a.1 as i64)
        };
        match (beads(before), beads(now)) {
            (Some(b), Some(a)) if a - b == change => {}
            (b, a) => {
                wrong += 1;
                eprintln!(
                    "wrong? \"{part}\": before {b:?}, now {a:?}; box before {:?}, now {:?}",
                    before.get(&number),
                    now.get(&number)
                );
            }
        }
    }
    (n, wrong)
}

/// One phone for the lesson: joins, plays at a person's pace, sleeps now and then, and while
/// the class is the machine taps its boxes and checks what it is told.
async fn phone(addr: SocketAddr, code: String, seed: u64, until: Instant, t: Arc<Tally>) {
    let mut rng: Rng = rng_from_seed(seed);
    let Some(mut ws) = reach(addr, &format!("/ws?code={code}")).await else {
        t.stranded.fetch_add(1, Relaxed);
        return;
    };
    let (mut key, mut name) = (String::new(), String::new());
    let mut boxes: BTreeMap<usize, Vec<(String, u32)>> = BTreeMap::new();
    while Instant::now() < until {
        let msg = match tokio::time::timeout(Duration::from_secs(3), ws.next()).await {
            Ok(Some(Ok(Message::Text(text)))) => serde_json::from_str::<ToClient>(&text).ok(),
            Ok(Some(Ok(_))) => continue,
            // The server gone (a restart) or silent: back with the key.
            Ok(_) | Err(_) => None,
        };
        let Some(msg) = msg else {
            match back(addr, &key, &t).await {
                Some(w) => ws = w,
                None => return,
            }
            continue;
        };
        let reply = match msg {
            ToClient::Welcome {
                key: k,
                name: n,
                returning,
                ..
            } => {
                if returning && n != name {
                    t.stranded.fetch_add(1, Relaxed);
                }
                (key, name) = (k, n);
                // A game under way (or the boxes) come after a welcome back; else a new game.
                Some(r#"{"type":"start"}"#.to_string())
            }
            ToClient::Game { over: Some(_), .. } => {
                t.games.fetch_add(1, Relaxed);
                Some(r#"{"type":"start"}"#.to_string())
            }
            ToClient::Game { game, legal, .. } if !legal.is_empty() => {
                let mv = &legal[uniform_below(&mut rng, legal.len() as u32) as usize];
                Some(format!(r#"{{"type":"move","game":{game},"mv":"{mv}"}}"#))
            }
            ToClient::Boxes {
                boxes: held,
                waiting,
                said,
                ..
            } => {
                let now: BTreeMap<usize, Vec<(String, u32)>> =
                    held.iter().map(|b| (b.number, b.arrows.clone())).collect();
                let (n, wrong) = check(&said, &boxes, &now);
                t.instructions.fetch_add(n, Relaxed);
                t.wrong.fetch_add(wrong, Relaxed);
                boxes = now;
                waiting.map(|_| r#"{"type":"draw"}"#.to_string())
            }
            ToClient::Collected {} => Some(r#"{"type":"start"}"#.to_string()),
            // The lesson is over: the phone is done.
            ToClient::Ended { .. } => return,
            _ => None,
        };
        // A person's pace; now and then the phone sleeps (its socket dropped) or reloads.
        tokio::time::sleep(Duration::from_millis(
            100 + uniform_below(&mut rng, 300) as u64,
        ))
        .await;
        if uniform_below(&mut rng, 200) == 0 {
            t.sleeps.fetch_add(1, Relaxed);
            drop(ws);
            tokio::time::sleep(Duration::from_millis(
                500 + uniform_below(&mut rng, 4000) as u64,
            ))
            .await;
            match back(addr, &key, &t).await {
                Some(w) => ws = w,
                None => return,
            }
            continue;
        }
        if let Some(r) = reply
            && !say(&mut ws, &r).await
        {
            continue;
        }
    }
}

/// The projector's socket, open throughout (back by itself after each restart); the class
/// messages it heard.
async fn projector(addr: SocketAddr, token: String, until: Instant, t: Arc<Tally>) -> u64 {
    let path = format!("/ws/teacher?token={token}");
    let mut heard = 0;
    let Some(mut ws) = reach(addr, &path).await else {
        t.stranded.fetch_add(1, Relaxed);
        return 0;
    };
    while Instant::now() < until {
        match tokio::time::timeout(Duration::from_secs(2), ws.next()).await {
            Ok(Some(Ok(Message::Text(_)))) => heard += 1,
            Ok(Some(Ok(_))) | Err(_) => {}
            Ok(_) => match reach(addr, &path).await {
                Some(w) => ws = w,
                None => {
                    t.stranded
                        .fetch_add(u64::from(!t.over.load(Relaxed)), Relaxed);
                    return heard;
                }
            },
        }
    }
    heard
}

/// The teacher's one command, over a socket of its own.
async fn teacher(addr: SocketAddr, token: &str, msg: &str) {
    if let Some(mut ws) = reach(addr, &format!("/ws/teacher?token={token}")).await {
        say(&mut ws, msg).await;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The pupils' games the log holds (each `ended` of a game a pupil `started`).
fn logged_pupil_games(log: &std::path::Path) -> u64 {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    let events: Vec<serde_json::Value> = text
        .lines()
        .skip(1)
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let started: std::collections::BTreeSet<u64> = (events.iter())
        .filter(|e| e["event"] == "started")
        .filter_map(|e| e["game"].as_u64())
        .collect();
    (events.iter())
        .filter(|e| {
            e["event"] == "ended" && e["game"].as_u64().is_some_and(|g| started.contains(&g))
        })
        .count() as u64
}

fn main() {
    let quick = std::env::args().any(|a| a == "--test");
    let part: f64 = match quick {
        true => 3.0,
        false => std::env::args()
            .skip(1)
            .find_map(|a| a.parse().ok())
            .unwrap_or(30.0),
    };
    let dir = std::env::temp_dir().join(format!("matchbox-soak-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let tally = Arc::new(Tally::default());
    let (mut server, addr, code, token) = start(&dir, "127.0.0.1:0", false);
    let until = Instant::now() + Duration::from_secs_f64(part * 3.0 + 4.0);
    let t0 = Instant::now();
    let mut memory = Vec::new();
    rt.block_on(async {
        let phones: Vec<_> = (0..30)
            .map(|i| tokio::spawn(phone(addr, code.clone(), i, until, Arc::clone(&tally))))
            .collect();
        let seen = tokio::spawn(projector(addr, token.clone(), until, Arc::clone(&tally)));
        for round in 0..3 {
            tokio::time::sleep(Duration::from_secs(2)).await;
            let start_mb = rss_mb(server.id());
            let part_end = Instant::now() + Duration::from_secs_f64(part - 2.0);
            if round == 1 {
                teacher(addr, &token, r#"{"type":"deal"}"#).await;
            }
            while Instant::now() < part_end {
                if round == 1 {
                    teacher(addr, &token, r#"{"type":"class_game"}"#).await;
                }
                tokio::time::sleep(Duration::from_millis(1000)).await;
            }
            memory.push((start_mb, rss_mb(server.id())));
            if round < 2 {
                // A crash mid-lesson, and the teacher starts it again with --resume.
                let _ = server.kill();
                let _ = server.wait();
                tokio::time::sleep(Duration::from_millis(500)).await;
                server = start(&dir, &addr.to_string(), true).0;
                if round == 1 {
                    teacher(addr, &token, r#"{"type":"collect"}"#).await;
                }
            }
        }
        tally.over.store(true, Relaxed);
        teacher(addr, &token, r#"{"type":"end_lesson"}"#).await;
        for p in phones {
            let _ = p.await;
        }
        let heard = seen.await.unwrap_or(0);
        println!("the projector heard {heard} messages over the lesson");
    });
    let _ = server.wait();
    let secs = t0.elapsed().as_secs_f64();
    let phone_games = tally.games.load(Relaxed);
    let logged = logged_pupil_games(&dir.join("soak.yaml.log"));
    println!(
        "a lesson of {secs:.0} s (three parts of {part:.0} s, two kill -9 and --resume): 30 phones, {} sleeps and reloads; {phone_games} games finished on the phones, {logged} in the log: games lost {}; pages stranded {}; instructions checked {}, wrong {}",
        tally.sleeps.load(Relaxed),
        phone_games.saturating_sub(logged),
        tally.stranded.load(Relaxed),
        tally.instructions.load(Relaxed),
        tally.wrong.load(Relaxed),
    );
    let mb: Vec<String> = memory
        .iter()
        .map(|(a, b)| format!("{a:.1} → {b:.1} MB"))
        .collect();
    println!(
        "the server's memory, each part's start and end: {}",
        mb.join("; ")
    );
    let _ = std::fs::remove_dir_all(&dir);
}
