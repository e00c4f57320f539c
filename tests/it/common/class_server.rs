//! `matchbox class` started as a teacher starts it, for the class tests and its benchmark.

use std::io::BufRead;
use std::net::SocketAddr;
use std::path::Path;

/// Starts `matchbox class tictactoe` on a free loopback port saving to `save`, with `extra`
/// options; the child, the pupils' address and the join code it printed.
pub fn start_class(save: &Path, extra: &[&str]) -> (std::process::Child, SocketAddr, String) {
    let (child, addr, code, _) = start_class_teacher(save, extra);
    (child, addr, code)
}

/// As [`start_class`], with the teacher's address too.
pub fn start_class_teacher(
    save: &Path,
    extra: &[&str],
) -> (std::process::Child, SocketAddr, String, String) {
    started(&["tictactoe"], save, extra, std::process::Stdio::null())
}

/// As [`start_class_teacher`], for the game `game` (its name and options).
#[allow(dead_code)]
pub fn start_class_of(
    game: &[&str],
    save: &Path,
    extra: &[&str],
) -> (std::process::Child, SocketAddr, String, String) {
    started(game, save, extra, std::process::Stdio::null())
}

/// As [`start_class`], with the program's standard error piped (for the test to read).
#[allow(dead_code)]
pub fn start_class_piped(save: &Path, extra: &[&str]) -> (std::process::Child, SocketAddr, String) {
    let (child, addr, code, _) = started(&["tictactoe"], save, extra, std::process::Stdio::piped());
    (child, addr, code)
}

fn started(
    game: &[&str],
    save: &Path,
    extra: &[&str],
    stderr: std::process::Stdio,
) -> (std::process::Child, SocketAddr, String, String) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_matchbox"))
        .arg("class")
        .args(game)
        .args(["--listen", "127.0.0.1:0"])
        .arg("--save")
        .arg(save)
        .args(extra)
        .stdout(std::process::Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let line = out.next().unwrap().unwrap();
    // The teacher's address, on a line of its own after the pupils' part.
    let teacher = (out.by_ref().map_while(Result::ok))
        .find(|l| l.contains("/teacher?token="))
        .unwrap_or_default();
    let teacher = (teacher.split_whitespace())
        .find(|w| w.starts_with("http://"))
        .unwrap_or_default()
        .to_string();
    // Read the rest as it comes: a closed pipe would end the program.
    std::thread::spawn(move || out.for_each(drop));
    // "pupils: open http://127.0.0.1:PORT/ and type the code XXXXX   (or …)"
    let after = |mark: &str| line.split(mark).nth(1).unwrap_or_default().to_string();
    let addr = after("http://")
        .split('/')
        .next()
        .unwrap_or_default()
        .to_string();
    let code = after("the code ")
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string();
    (child, addr.parse().unwrap(), code, teacher)
}

/// A process's resident memory, in MB (from /proc; 0 where there is none): the class
/// benchmarks' server memory.
pub fn rss_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kb: f64 = (status.lines())
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0.0);
    kb / 1024.0
}
