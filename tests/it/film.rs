//! `film`: the watch screen as an animated GIF, the same file for the same seed.

use crate::common::{refused, stdout};
use sha2::{Digest, Sha256};

fn film(dir: &std::path::Path, name: &str, args: &[&str]) -> Vec<u8> {
    let out = dir.join(name);
    let mut a = vec!["film"];
    a.extend(args);
    a.extend(["--out", out.to_str().unwrap(), "--json"]);
    let report: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    let bytes = std::fs::read(&out).unwrap();
    assert_eq!(report["bytes"].as_u64(), Some(bytes.len() as u64));
    assert!(report["frames"].as_u64().unwrap() >= 3, "{report}");
    bytes
}

/// The film of `args` made twice, as `a.EXT` and `b.EXT`: the same seed, so the same bytes.
fn filmed_twice(dir: &std::path::Path, ext: &str, args: &[&str]) -> Vec<u8> {
    let a = film(dir, &format!("a.{ext}"), args);
    let b = film(dir, &format!("b.{ext}"), args);
    assert_eq!(
        Sha256::digest(&a),
        Sha256::digest(&b),
        "the same seed, the same bytes"
    );
    a
}

#[test]
fn the_same_seed_films_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "hexapawn", "--games", "4", "--seed", "7", "--screen", "80x24", "--fps", "5",
    ];
    let a = filmed_twice(dir.path(), "gif", &args);
    assert!(a.starts_with(b"GIF89a"));
    // 80×24 cells of 8×16 pixels.
    assert_eq!(u16::from_le_bytes([a[6], a[7]]), 640);
    assert_eq!(u16::from_le_bytes([a[8], a[9]]), 384);
    // Another seed, another film.
    let mut other = args;
    other[4] = "8";
    assert_ne!(film(dir.path(), "c.gif", &other), a);
    // Any game, any option of watch.
    film(
        dir.path(),
        "menace.gif",
        &[
            "tictactoe",
            "--games",
            "2",
            "--seed",
            "1",
            "--theme",
            "light",
            "--fps",
            "4",
        ],
    );
    film(
        dir.path(),
        "hav.gif",
        &[
            "havannah", "--size", "2", "--games", "2", "--seed", "1", "--speed", "10",
        ],
    );
}

#[test]
fn film_refuses_what_it_cannot_make() {
    let dir = tempfile::tempdir().unwrap();
    let webp = dir.path().join("x.webp");
    let said = refused(&["film", "hexapawn", "--out", webp.to_str().unwrap()]);
    assert!(said.contains(".gif") && said.contains(".png"), "{said}");
    let gif = dir.path().join("x.gif");
    let gif = gif.to_str().unwrap();
    assert!(refused(&["film", "hexapawn", "--out", gif, "--screen", "10x10"]).contains("--screen"));
    assert!(refused(&["film", "hexapawn", "--out", gif, "--fps", "0"]).contains("--fps"));
    let none = refused(&["film", "hexapawn", "--out", gif, "--games", "0"]);
    assert!(none.contains("at least one game"), "{none}");
    // A film at the step speed would never move: 15,000 frames of the same screen.
    let step = refused(&["film", "hexapawn", "--out", gif, "--speed", "step"]);
    assert!(
        step.contains("--speed step") && step.contains("plays by itself"),
        "{step}"
    );
    assert!(!std::path::Path::new(gif).exists(), "nothing written");
}

/// `--out F.png` writes an animated PNG: the signature, an animation chunk whose frame count is
/// the report's, and the same bytes for the same seed.
#[test]
fn a_png_name_films_an_animated_png() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "hexapawn", "--games", "3", "--speed", "100", "--seed", "2", "--screen", "80x24",
    ];
    let a = filmed_twice(dir.path(), "png", &args);
    assert_eq!(&a[..8], b"\x89PNG\r\n\x1a\n");
    // acTL: frames (4 bytes), then plays (0: a loop); it comes before the first image data.
    let actl = a
        .windows(4)
        .position(|w| w == b"acTL")
        .expect("an animated PNG");
    let idat = a.windows(4).position(|w| w == b"IDAT").unwrap();
    assert!(actl < idat);
    let frames = u32::from_be_bytes(a[actl + 4..actl + 8].try_into().unwrap());
    let fctl = a.windows(4).filter(|w| w == b"fcTL").count();
    assert_eq!(frames as usize, fctl);
    assert!(frames >= 3, "{frames}");
    assert_eq!(
        u32::from_be_bytes(a[actl + 8..actl + 12].try_into().unwrap()),
        0
    );
    // Every frame decodes, and after the first a frame holds only what changed (written as the
    // frames come, not kept whole until the end).
    let mut decoder = png::Decoder::new(std::io::Cursor::new(&a[..]))
        .read_info()
        .unwrap();
    let (w, h) = (decoder.info().width, decoder.info().height);
    let mut buf = vec![0; decoder.output_buffer_size().unwrap()];
    let mut smaller = 0;
    for _ in 0..frames {
        decoder.next_frame(&mut buf).unwrap();
        let fc = decoder.info().frame_control.unwrap();
        assert!(fc.x_offset + fc.width <= w && fc.y_offset + fc.height <= h);
        smaller += usize::from(fc.width * fc.height < w * h);
    }
    assert!(
        smaller * 2 >= frames as usize,
        "{smaller} of {frames} frames are parts"
    );
}

/// A film of games against a strong tree search says at once how long its games will take (as
/// `train` does), instead of minutes of silence.
#[test]
fn a_long_film_says_its_time_first() {
    use std::io::BufRead;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("h.gif");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_matchbox"))
        .args([
            "film",
            "havannah",
            "--size",
            "4",
            "--opponent",
            "mcts:10000000",
        ])
        .args(["--games", "1", "--out"])
        .arg(&out)
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let err = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let first = std::io::BufReader::new(err).lines().next();
        let _ = tx.send(first);
    });
    let said = rx.recv_timeout(std::time::Duration::from_secs(60));
    child.kill().unwrap();
    child.wait().unwrap();
    let line = said.expect("said within a minute").unwrap().unwrap();
    assert!(
        line.contains("simulations take about") && line.contains("a game"),
        "{line}"
    );
}
