//! A lesson on loopback, as a benchmark (not a timed test): `matchbox class` started as a
//! teacher starts it, then 60 simulated pupils — and then 1,000 — each playing random legal
//! games as fast as the server answers. Prints games a second, the move's round trip (p50,
//! p99, the worst) and the server's memory (its resident set, from /proc); and, where the
//! browser test's chromium and packages are installed, the projector's page measured while the
//! pupils play (web/test/projector.mjs: frames a second, the class's updates it shows a second,
//! its longest frame), at full speed and with the CPU throttled 4× (a slow school laptop).
//!
//!   cargo bench --bench class
//!   cargo bench --bench class -- big    (the lesson of a big machine alone)

#[path = "../tests/it/common/class_server.rs"]
#[allow(dead_code)] // the tests use all of it; the bench, the teacher's start only
mod class_server;
use class_server::rss_mb;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use matchbox::class::protocol::ToClient;
use matchbox::rng::{rng_from_seed, uniform_below};
use tokio_tungstenite::tungstenite::Message;

/// The folder of the lesson's files, removed after.
fn scratch() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("matchbox-class-bench-{}", std::process::id()))
}

/// The server of a lesson of `game`, its pupils' address and code, and the teacher's address.
fn start(game: &[&str]) -> (std::process::Child, SocketAddr, String, String) {
    let dir = scratch();
    std::fs::create_dir_all(&dir).unwrap();
    // Simulated pupils play as fast as the server answers: no person's limits.
    let fast = [
        "--seed",
        "1",
        "--force",
        "--max-pupils",
        "2000",
        "--rate",
        "100000",
    ];
    class_server::start_class_of(game, &dir.join("bench.yaml"), &fast)
}

/// One pupil playing for `secs`, thinking `think` seconds before each move (0: as fast as the
/// server answers): the round trip of each move, and the games finished.
async fn pupil(
    addr: SocketAddr,
    code: String,
    seed: u64,
    secs: f64,
    think: f64,
) -> (Vec<f64>, u64) {
    let url = format!("ws://{addr}/ws?code={code}");
    // Each pupil a phone of its own address (127.0.x.y: every loopback address is this
    // machine's), as a class's phones are, within the server's cap on one address.
    let own = std::net::Ipv4Addr::new(127, 0, (seed / 250) as u8, (seed % 250) as u8 + 2);
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::new(own.into(), 0)).unwrap();
    let stream = socket.connect(addr).await.unwrap();
    let (mut ws, _) = tokio_tungstenite::client_async(url, stream).await.unwrap();
    let mut rng = rng_from_seed(seed);
    let (mut trips, mut games) = (Vec::new(), 0);
    let until = Instant::now() + Duration::from_secs_f64(secs);
    let mut sent = Instant::now();
    ws.send(Message::Text(r#"{"type":"start"}"#.into()))
        .await
        .unwrap();
    while let Some(Ok(msg)) = ws.next().await {
        let Message::Text(t) = msg else { continue };
        let Ok(reply) = serde_json::from_str::<ToClient>(&t) else {
            continue;
        };
        let next = match reply {
            ToClient::Welcome { .. } => continue,
            ToClient::Game { over: Some(_), .. } => {
                trips.push(sent.elapsed().as_secs_f64() * 1000.0);
                games += 1;
                r#"{"type":"start"}"#.to_string()
            }
            ToClient::Game { game, legal, .. } => {
                trips.push(sent.elapsed().as_secs_f64() * 1000.0);
                let mv = &legal[uniform_below(&mut rng, legal.len() as u32) as usize];
                format!(r#"{{"type":"move","game":{game},"mv":"{mv}"}}"#)
            }
            _ => break,
        };
        if think > 0.0 {
            // A person's pace, spread so that the class's taps do not come all at once.
            let jitter = uniform_below(&mut rng, 1000) as f64 / 1000.0;
            tokio::time::sleep(Duration::from_secs_f64(think * (0.5 + jitter))).await;
        }
        if Instant::now() > until {
            break;
        }
        sent = Instant::now();
        if ws.send(Message::Text(next.into())).await.is_err() {
            break;
        }
    }
    (trips, games)
}

/// The projector's page being measured (web/test/projector.mjs), or why it is not.
type Page = Result<
    (
        std::process::Child,
        std::io::Lines<std::io::BufReader<std::process::ChildStdout>>,
    ),
    String,
>;

/// Opens the projector's page, CPU throttled `throttle`×, and waits until it has begun measuring
/// `secs` of the lesson.
fn open_projector(teacher: &str, secs: f64, throttle: u32) -> Page {
    use std::io::BufRead;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/web/test/projector.mjs");
    let packages = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/web/test/node_modules/playwright-core"
    );
    if !std::path::Path::new(packages).exists() {
        return Err(
            "not measured (the browser test's packages are not installed: npm install in web/test)"
                .into(),
        );
    }
    let mut child = std::process::Command::new("node")
        .args([script, teacher, "--seconds", &secs.to_string()])
        .args(["--throttle", &throttle.to_string()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("not measured: node: {e}"))?;
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    match lines.next() {
        Some(Ok(l)) if l == "measuring" => Ok((child, lines)),
        _ => Err("not measured: the page did not open".into()),
    }
}

/// The page's figures, once it has measured.
fn projector_figures(page: Page) -> String {
    match page {
        Ok((mut child, mut lines)) => {
            let line = lines.next().and_then(Result::ok);
            let _ = child.wait();
            line.unwrap_or_else(|| "not measured: the page stopped".into())
        }
        Err(e) => e,
    }
}

fn lesson(pupils: usize, secs: f64, throttle: Option<u32>, think: f64) {
    lesson_of(&["tictactoe"], pupils, secs, throttle, think)
}

/// A lesson of `game` (its name and options), as [`lesson`].
fn lesson_of(game: &[&str], pupils: usize, secs: f64, throttle: Option<u32>, think: f64) {
    let (mut child, addr, code, teacher) = start(game);
    // The page opens before the pupils start, and measures while they play.
    let page = throttle.map(|t| open_projector(&teacher, (secs - 2.0).max(1.0), t));
    let rt = tokio::runtime::Runtime::new().unwrap();
    let peak = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let pid = child.id();
    let watch = std::sync::Arc::clone(&peak);
    std::thread::spawn(move || {
        loop {
            let mb = (rss_mb(pid) * 10.0) as u64;
            watch.fetch_max(mb, std::sync::atomic::Ordering::Relaxed);
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    let t0 = Instant::now();
    let results = rt.block_on(async {
        let tasks: Vec<_> = (0..pupils)
            .map(|i| tokio::spawn(pupil(addr, code.clone(), i as u64, secs, think)))
            .collect();
        let mut all = Vec::new();
        for t in tasks {
            all.push(t.await.unwrap());
        }
        all
    });
    let elapsed = t0.elapsed().as_secs_f64();
    // Each pupil's first game's start apart (its first answer waits for the perfect player's
    // solution, made once a lesson), the moves after it.
    let first = (results.iter().filter_map(|r| r.0.first().copied())).fold(0.0, f64::max);
    let mut trips: Vec<f64> = results
        .iter()
        .flat_map(|r| r.0.iter().skip(1).copied())
        .collect();
    let games: u64 = results.iter().map(|r| r.1).sum();
    trips.sort_by(f64::total_cmp);
    let q = |p: f64| trips[((trips.len() - 1) as f64 * p) as usize];
    let pace = match think {
        0.0 => String::new(),
        t => format!(" (a move every {t} s or so)"),
    };
    println!(
        "{}{pupils:>5} pupils{pace}: {:>7.0} games/s, {:>8} moves; round trip p50 {:.2} ms, p99 {:.2} ms, worst {:.1} ms ({} over 100 ms; the first start {:.0} ms); server memory at most {:.1} MB",
        match game {
            ["tictactoe"] => String::new(),
            _ => format!("{}: ", game.join(" ")),
        },
        games as f64 / elapsed,
        trips.len(),
        q(0.5),
        q(0.99),
        trips.last().copied().unwrap_or(0.0),
        trips.iter().filter(|&&t| t > 100.0).count(),
        first,
        peak.load(std::sync::atomic::Ordering::Relaxed) as f64 / 10.0
    );
    if let (Some(page), Some(t)) = (page, throttle) {
        let figures = projector_figures(page);
        println!("       the projector's page, CPU throttled {t}×, as they played: {figures}");
    }
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(scratch());
}

fn main() {
    // `cargo test --benches` runs benchmarks once as tests: keep that short.
    let quick = std::env::args().any(|a| a == "--test");
    let secs = if quick { 0.5 } else { 10.0 };
    if quick {
        return lesson(60, secs, None, 0.0);
    }
    // `cargo bench --bench class -- big`: the big machine's lesson alone.
    let big = || lesson_of(&["hexapawn", "--size", "5x5"], 30, 20.0, None, 0.0);
    if std::env::args().any(|a| a == "big") {
        return big();
    }
    // As fast as the server answers, then a class at a person's pace on a slow laptop.
    let fast = [(60, 1), (60, 4), (200, 1), (1000, 1)];
    for (pupils, throttle) in fast {
        lesson(pupils, secs, Some(throttle), 0.0);
    }
    lesson(30, secs, Some(4), 2.0);
    // A big machine (490,848 boxes, a 65 MB file) saved every 5 s as the pupils play: the
    // longest a move waits.
    big();
}
