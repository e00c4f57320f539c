//! `watch cartpole`'s screen, driven by the key table and drawn into a test terminal: the keys
//! do what their lines say, time makes the pushes the speed owes, the trials shown are the
//! learner's own, and the drawing holds the cart, the lit box and the key bar.

use matchbox::cartpole::Physics;
use matchbox::cartpole::learner::{Kind, lengths};
use matchbox::view::key::{Front, Key, KeyCode, Mode, action_for};
use matchbox::view::pole::{PoleApp, PoleSpeed};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::Color;

fn press(app: &mut PoleApp, c: char) {
    let action = action_for(Key::plain(KeyCode::Char(c)), Mode::Pole).expect("bound");
    app.update(action);
}

/// Pushes made so far: the trials ended and the one going on.
fn pushes(app: &PoleApp) -> usize {
    app.lengths.iter().sum::<usize>() + app.run.steps
}

#[test]
fn the_pole_screen_is_driven_by_its_keys() {
    let mut app = PoleApp::new(Kind::Boxes, 7, None);
    assert_eq!(app.speed(), PoleSpeed::Times(1));
    assert_eq!(app.pass(1.0), 50, "real time: a push every 0.02 s");
    assert_eq!(
        app.pass(0.01) + app.pass(0.01),
        1,
        "a fraction carried to the next frame"
    );
    assert_eq!(pushes(&app), 51);
    press(&mut app, ' ');
    assert!(app.paused);
    assert_eq!(app.pass(1.0), 0);
    press(&mut app, 'n');
    assert_eq!(pushes(&app), 52);
    for _ in 0..10 {
        press(&mut app, '+');
    }
    assert_eq!(app.speed(), PoleSpeed::FlatOut);
    press(&mut app, '-');
    press(&mut app, ' ');
    assert_eq!(app.speed(), PoleSpeed::Times(100));
    assert_eq!(app.pass(0.5), 2_500);
    for _ in 0..20_000 {
        app.push();
    }
    assert!(app.trials > 5);
    let theirs = lengths(Kind::Boxes, 7, Physics::POLE_C, 10_000, app.lengths.len());
    assert_eq!(app.lengths, theirs, "the screen's trials are the learner's");
    assert_eq!(app.longest, *theirs.iter().max().unwrap());
    press(&mut app, 'r');
    assert_eq!((app.trials, pushes(&app)), (0, 0));
    assert_eq!(app.speed(), PoleSpeed::Times(100), "the speed kept");
    assert!(app.message.as_deref().unwrap().contains("same seed"));
    press(&mut app, 's');
    assert!(app.to_save);
    press(&mut app, '?');
    assert!(app.show_help);
    press(&mut app, 'x');
    assert!(!app.show_help && !app.quit, "any other key closes the help");
    press(&mut app, 'q');
    assert!(app.quit);
}

fn draw(app: &PoleApp, w: u16, h: u16) -> (String, ratatui::buffer::Buffer) {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| matchbox::view::render::pole(f, app, Front::Terminal))
        .unwrap();
    let buf = t.backend().buffer().clone();
    let text = (0..h)
        .map(|y| (0..w).map(|x| buf[(x, y)].symbol()).collect::<String>() + "\n")
        .collect();
    (text, buf)
}

#[test]
fn the_pole_screen_draws_the_cart_the_lit_box_and_the_keys() {
    let mut app = PoleApp::new(Kind::Ase, 3, None);
    for _ in 0..5 {
        app.push();
    }
    let (text, buf) = draw(&app, 100, 30);
    for words in [
        "ASE/ACE (Barto, Sutton & Anderson 1983) balancing a pole · seed 3 · real time",
        "the 162 boxes",
        "trial 1 · 5 steps so far (0.1 s)",
        "space pause · n one push · +/- speed · r again · s save · ? help · q quit",
        "< -6°",
    ] {
        assert!(text.contains(words), "{words}\n{text}");
    }
    // One box lit: the box the cart-pole is in.
    let lit: Vec<(u16, u16)> = (0..30)
        .flat_map(|y| (0..100).map(move |x| (x, y)))
        .filter(|&(x, y)| buf[(x, y)].bg == Color::White && buf[(x, y)].fg == Color::Black)
        .collect();
    assert!(!lit.is_empty() && lit.len() <= 2, "{lit:?}");
    assert!(app.run.current_box().is_some());
    // The light theme paints the screen's empty cells white, for a projector in a bright room.
    app.theme = matchbox::view::theme::Theme::Light;
    let (_, light) = draw(&app, 100, 30);
    assert_eq!(light[(50, 5)].bg, Color::Rgb(255, 255, 255));
    app.theme = matchbox::view::theme::Theme::Dark;
    let (small, _) = draw(&app, 60, 20);
    assert!(
        small.contains("80×24") && small.contains("60×20"),
        "{small}"
    );
    press(&mut app, '?');
    let (help, _) = draw(&app, 100, 30);
    assert!(help.contains("one push (while paused)"), "{help}");
    assert!(help.contains("ω: how fast it turns"), "{help}");
}

/// The command refuses what it cannot do before taking the terminal: no terminal (a pipe),
/// a learner with nothing to save.
#[test]
fn watch_cartpole_refuses_without_a_terminal() {
    let e = crate::common::refused(&["watch", "cartpole"]);
    assert!(e.contains("watch draws on a terminal"), "{e}");
    let e = crate::common::refused(&["watch", "cartpole", "--learner", "ase", "--save", "x.yaml"]);
    assert!(e.contains("--learner ase has no matchboxes to save"), "{e}");
    let e = crate::common::refused(&["watch", "cartpole", "--opponent", "random"]);
    assert!(
        e.contains("--opponent: not for the cart-pole (`watch cartpole` takes"),
        "{e}"
    );
    let e = crate::common::refused(&["film", "cartpole", "--preset", "michie", "--out", "f.gif"]);
    assert!(
        e.contains("--preset: not for the cart-pole (`film cartpole` takes"),
        "{e}"
    );
    let e = crate::common::refused(&["watch", "cartpole", "--learner", "ase,boxes"]);
    assert!(e.contains("`watch` takes one learner"), "{e}");
}

/// `film cartpole` draws the screen without a terminal: the same seed gives the same GIF, byte
/// for byte; the last frame as text is the screen after the trials asked; a board game's options
/// are refused.
#[test]
fn film_cartpole_is_the_screen_from_a_seed() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let shoot = |out: &str, extra: &[&str]| {
        let games = if extra.is_empty() { "5" } else { "300" };
        let mut args = vec![
            "film", "cartpole", "--seed", "3", "--games", games, "--json", "--out",
        ];
        args.push(out);
        args.extend_from_slice(extra);
        crate::common::json(&args)
    };
    let one = shoot(&p("a.gif"), &[]);
    shoot(&p("b.gif"), &[]);
    assert_eq!(
        std::fs::read(p("a.gif")).unwrap(),
        std::fs::read(p("b.gif")).unwrap()
    );
    assert!(std::fs::read(p("a.gif")).unwrap().starts_with(b"GIF89a"));
    assert_eq!(
        (one["trials"].as_u64(), one["seed"].as_u64()),
        (Some(5), Some(3))
    );
    let text = shoot(&p("last.txt"), &["--speed", "flat-out"]);
    assert_eq!(text["trials"], 300);
    let last = std::fs::read_to_string(p("last.txt")).unwrap();
    assert!(
        last.contains("balancing a pole · seed 3 · flat out"),
        "{last}"
    );
    assert!(last.contains("trial 301"), "{last}");
    let apng = shoot(&p("a.png"), &[]);
    assert_eq!(apng["frames"], one["frames"]);
    assert!(std::fs::read(p("a.png")).unwrap().starts_with(b"\x89PNG"));
    let e = crate::common::refused(&["film", "cartpole", "--whole", "--out", &p("w.gif")]);
    assert!(
        e.contains("--whole and --lesson film a board game's machine"),
        "{e}"
    );
}
