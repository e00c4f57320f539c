//! A lesson played again from its log: the screens' session follows the lesson's finished games
//! move by move (a film of the lesson), and the machine it shows after the last one is the
//! lesson's, bead for bead.

use crate::common::{json, refused};
use crate::lesson::{class, machine, play_out};
use matchbox::game::Game;
use matchbox::games::hexapawn::{Hexapawn, Size};
use matchbox::games::tictactoe::TicTacToe;
use matchbox::learn::lesson::{Event, Lesson, Recorded, recorded};
use matchbox::learn::{GameDefaults, Machine, MachineSpec, MatchSpec, Source};
use matchbox::players::Opponent;
use matchbox::view::session::Session;

/// Every box's beads and the games played.
fn beads<G: Game>(m: &Machine<G>) -> (Vec<Vec<u32>>, u64) {
    let beads = (0..m.boxes.len())
        .map(|b| m.beads_in(b).iter().map(|x| x.get()).collect())
        .collect();
    (beads, m.games_played)
}

/// The screens' session of `start` following the record of `log` to its end; the games it
/// finished.
fn follow<G: GameDefaults>(game: &G, start: Machine<G>, steps: Vec<Recorded>) -> Session<G> {
    let mut spec = MatchSpec::fresh(MachineSpec::default(), Opponent::Human);
    spec.learner = Source::Loaded(start);
    let mut session = Session::of(spec.build(game.clone(), &mut |_| {}).unwrap());
    session.follow(steps);
    let mut plies = 0;
    while session.ply() {
        plies += 1;
        assert!(plies < 1_000_000, "the record never ends");
    }
    session
}

/// A lesson of everything a log can hold: pupils' games interleaved (each drawing from boxes
/// others' games change), a reset, a game abandoned, the class as the machine (its games and a
/// game collected unfinished), and the class playing the machine again.
fn busy_lesson<G: GameDefaults>(game: &G, seed: u64) -> (Machine<G>, Lesson<G>, Vec<Event>) {
    let (mut lesson, mut log) = class(game, seed, 6, 5);
    let start = machine(game, seed);
    log.extend(lesson.reset().unwrap());
    let ids: Vec<u32> = lesson.pupils().keys().copied().collect();
    for &p in &ids[..3] {
        log.extend(play_out(&mut lesson, p));
    }
    log.extend(lesson.start(ids[3]).unwrap().1);
    log.extend(lesson.deal().unwrap());
    for _ in 0..3 {
        crate::lesson::class_game(&mut lesson, &mut log);
    }
    log.extend(lesson.relay_start().unwrap().1);
    log.extend(lesson.collect().unwrap());
    for &p in &ids[..2] {
        log.extend(play_out(&mut lesson, p));
    }
    (start, lesson, log)
}

#[test]
fn a_lesson_followed_from_its_log_leaves_the_machine_as_the_lesson_did() {
    for seed in [1, 2, 3] {
        let game = Hexapawn::new(Size::GARDNER);
        let (start, lesson, log) = busy_lesson(&game, seed);
        let (steps, stops) = recorded(&log);
        assert_eq!(stops, None);
        let ended = log
            .iter()
            .filter(|e| matches!(e, Event::Ended { .. }))
            .count();
        let games = steps
            .iter()
            .filter(|s| matches!(s, Recorded::Game { .. }))
            .count();
        assert_eq!(games, ended, "every finished game in the record, no other");
        assert!(steps.contains(&Recorded::Reset));
        let session = follow(&game, start, steps);
        assert_eq!(session.record_error(), None);
        assert!(session.limit_reached());
        assert_eq!(
            beads(session.machine()),
            beads(lesson.machine()),
            "seed {seed}"
        );
    }
    // MENACE, 5 pupils' games interleaved: each game drew from boxes the others changed.
    let game = TicTacToe;
    let (lesson, log) = class(&game, 7, 5, 6);
    let session = follow(&game, machine(&game, 7), recorded(&log).0);
    assert_eq!(session.record_error(), None);
    assert_eq!(session.stats().games, 30);
    assert_eq!(beads(session.machine()), beads(lesson.machine()));
}

#[test]
fn a_record_the_machine_could_not_have_played_stops_with_where() {
    let game = TicTacToe;
    let (_, log) = class(&game, 9, 2, 2);
    let (mut steps, _) = recorded(&log);
    // The pupil's first move in the second game, changed to the machine's first move there:
    // that square is taken by then, so the move is not legal.
    let Recorded::Game { plies, number, .. } = &mut steps[1] else {
        panic!("{:?}", steps[1]);
    };
    let number = *number;
    plies[1] = plies[0].clone();
    let session = follow(&game, machine(&game, 9), steps);
    let e = session.record_error().expect("the record stops");
    assert!(
        e.starts_with(&format!("game {number} of the record, ply 2:")),
        "{e}"
    );
    assert!(e.contains("a1 is not a legal move here"), "{e}");
    assert_eq!(session.stats().games, 1, "the first game was played");
}

#[test]
fn film_films_a_lesson_from_its_log() {
    let dir = tempfile::tempdir().unwrap();
    let game = Hexapawn::new(Size::GARDNER);
    let (start, lesson, log) = busy_lesson(&game, 4);
    let began = serde_json::json!({ "began": matchbox::store::to_yaml(&game, &start, None) });
    let mut text = format!("{began}\n");
    for e in &log {
        text += &format!("{}\n", serde_json::to_string(e).unwrap());
    }
    let path = dir.path().join("hexapawn-class.yaml.log");
    std::fs::write(&path, text).unwrap();
    let (log_path, out) = (
        path.to_str().unwrap(),
        dir.path().join("last.txt").to_string_lossy().to_string(),
    );
    let ended = log
        .iter()
        .filter(|e| matches!(e, Event::Ended { .. }))
        .count() as u64;
    let args = [
        "film", "hexapawn", "--lesson", log_path, "--out", &out, "--speed", "flat-out",
    ];
    let report = json(&[&args[..], &["--json"]].concat());
    assert_eq!(report["games"], ended, "{report}");
    assert_eq!(report["games_asked"], ended);
    let screen = std::fs::read_to_string(&out).unwrap();
    assert!(screen.contains("against the class"), "{screen}");
    // The machine on the last frame is the lesson's: its games in all.
    let games = lesson.machine().games_played.to_string();
    assert!(screen.contains(&games), "{games} games: {screen}");
    // --games N films the first N.
    let first = json(&[&args[..], &["--games", "3", "--json"]].concat());
    assert_eq!(first["games"], 3);
    // The log is not a film's output, nor films with options of its own machine.
    let e = refused(&["film", "hexapawn", "--lesson", log_path, "--out", log_path]);
    assert!(e.contains("--lesson"), "{e}");
    let out = run_err(&[
        "film", "hexapawn", "--lesson", log_path, "--out", &out, "--seed", "3",
    ]);
    assert!(out.contains("--seed") && out.contains("--lesson"), "{out}");
    // A log that does not replay is refused, naming it.
    let broken = dir.path().join("broken.log");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &broken,
        text.replacen("\"result\":\"loss\"", "\"result\":\"win\"", 1),
    )
    .unwrap();
    let e = refused(&[
        "film",
        "hexapawn",
        "--lesson",
        broken.to_str().unwrap(),
        "--out",
        "x.txt",
    ]);
    assert!(e.contains("broken.log"), "{e}");
}

/// A refused command's stderr (clap's usage lines included).
fn run_err(args: &[&str]) -> String {
    let out = crate::common::run(args);
    assert!(!out.status.success(), "{args:?} succeeded");
    String::from_utf8_lossy(&out.stderr).to_string()
}

/// A log cut anywhere — after any event, or inside its last line — is read by `class --replay` up
/// to the last whole step: never refused for the cut, the games finished before it all there.
#[test]
fn a_log_cut_anywhere_replays_up_to_its_last_whole_step() {
    let dir = tempfile::tempdir().unwrap();
    let game = TicTacToe;
    let (_, log) = class(&game, 3, 2, 2);
    let start = machine(&game, 3);
    let began = serde_json::json!({ "began": matchbox::store::to_yaml(&game, &start, None) });
    let lines: Vec<String> = log
        .iter()
        .map(|e| serde_json::to_string(e).unwrap())
        .collect();
    let path = dir.path().join("m.yaml.log");
    let mut failures = Vec::new();
    for k in 0..=lines.len() {
        for half in [false, true] {
            let mut text = format!("{began}\n");
            for l in &lines[..k] {
                text += &format!("{l}\n");
            }
            if half && k < lines.len() {
                text += &lines[k][..lines[k].len() / 2];
            }
            std::fs::write(&path, &text).unwrap();
            let out = crate::common::run(&[
                "class",
                "tictactoe",
                "--json",
                "--replay",
                path.to_str().unwrap(),
            ]);
            if !out.status.success() {
                failures.push(format!(
                    "cut after {k}{}: {}",
                    if half { " and a half" } else { "" },
                    String::from_utf8_lossy(&out.stderr)
                ));
                continue;
            }
            let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            let ended = log[..k]
                .iter()
                .filter(|e| matches!(e, Event::Ended { .. }))
                .count();
            let games = report["games"].as_u64().unwrap() as usize;
            assert!(
                games <= ended && games + 1 >= ended,
                "cut after {k}: {games} of {ended}"
            );
        }
    }
    assert!(
        failures.is_empty(),
        "{} cuts refused, the first: {}",
        failures.len(),
        failures[0]
    );
    // `--resume` on a log cut inside a step goes on from its whole steps: the cut events are cut
    // off the file, and the log it goes on writing replays whole.
    let k = (1..lines.len())
        .find(|&k| matches!(log[k], Event::Ended { .. }))
        .unwrap();
    let mut text = format!("{began}\n");
    for l in &lines[..k] {
        text += &format!("{l}\n");
    }
    std::fs::write(&path, &text).unwrap();
    let save = dir.path().join("m.yaml");
    let (mut child, _, _) = crate::common::class_server::start_class(&save, &["--resume"]);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let _ = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    assert!(child.wait().unwrap().success());
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(after.len() < text.len() && after.ends_with('\n'), "{after}");
    let replay = crate::common::run(&["class", "tictactoe", "--replay", path.to_str().unwrap()]);
    assert!(
        replay.status.success(),
        "{}",
        String::from_utf8_lossy(&replay.stderr)
    );
    assert!(replay.stderr.is_empty(), "no cut step left");
}
