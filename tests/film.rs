//! `film`: the watch screen as an animated GIF, the same file for the same seed.

mod common;

use common::{refused, stdout};
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

#[test]
fn the_same_seed_films_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "hexapawn", "--games", "4", "--seed", "7", "--screen", "80x24", "--fps", "5",
    ];
    let a = film(dir.path(), "a.gif", &args);
    let b = film(dir.path(), "b.gif", &args);
    assert_eq!(Sha256::digest(&a), Sha256::digest(&b), "the same bytes");
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
    let png = dir.path().join("x.png");
    assert!(refused(&["film", "hexapawn", "--out", png.to_str().unwrap()]).contains(".gif"));
    let gif = dir.path().join("x.gif");
    let gif = gif.to_str().unwrap();
    assert!(refused(&["film", "hexapawn", "--out", gif, "--screen", "10x10"]).contains("--screen"));
    assert!(refused(&["film", "hexapawn", "--out", gif, "--fps", "0"]).contains("--fps"));
    assert!(!std::path::Path::new(gif).exists(), "nothing written");
}
