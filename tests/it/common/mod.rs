//! Running the `matchbox` binary from the tests.
// Each test file uses some of these.
#![allow(dead_code)]

#[cfg(feature = "class")]
pub mod class_server;

use std::process::{Command, Output};

use serde_json::Value;

/// Runs `matchbox` with `args`.
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_matchbox"))
        .args(args)
        .output()
        .unwrap()
}

/// Runs `matchbox` with `args` and the environment variable `env` set: its JSON report (it must
/// succeed).
pub fn json_with_env(args: &[&str], env: (&str, &str)) -> Value {
    let mut command = Command::new(env!("CARGO_BIN_EXE_matchbox"));
    let out = command.args(args).env(env.0, env.1).output().unwrap();
    serde_json::from_str(&succeeded(args, out)).unwrap()
}

/// The stdout of a run that must have succeeded.
fn succeeded(args: &[&str], out: Output) -> String {
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Runs `matchbox`, which must succeed; its stdout.
pub fn stdout(args: &[&str]) -> String {
    succeeded(args, run(args))
}
/// Runs `matchbox`, which must succeed and print one JSON object on one line.
pub fn json(args: &[&str]) -> Value {
    let text = stdout(args);
    assert_eq!(
        text.trim().lines().count(),
        1,
        "one JSON object on one line"
    );
    serde_json::from_str(&text).unwrap()
}

/// Runs `matchbox`, which must fail with a one-line message; the message.
pub fn refused(args: &[&str]) -> String {
    let out = run(args);
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!out.status.success(), "{args:?} succeeded");
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    err
}

/// Every subcommand of `matchbox`.
pub const COMMANDS: [&str; 13] = [
    "boxes",
    "solve",
    "train",
    "experiment",
    "watch",
    "play",
    "plot",
    "count",
    "replay",
    "moves",
    "playout",
    "merge",
    "film",
];

/// MENACE as Michie built it (X, 304 boxes, his beads and reinforcement) against the perfect
/// player, on the watch screen's session.
pub fn menace_session(
    seed: u64,
) -> matchbox::view::session::Session<matchbox::games::tictactoe::TicTacToe> {
    use matchbox::games::tictactoe::TicTacToe;
    use matchbox::learn::engine::Enumerated;
    use matchbox::learn::{BoxSet, Forced, Machine, Preset, SymmetryMode};
    use std::sync::Arc;
    let boxes = Arc::new(BoxSet::build_with(
        &TicTacToe,
        matchbox::game::Side::First,
        SymmetryMode::Full,
        Forced::Skip,
    ));
    let m = Machine::new(
        boxes,
        Preset::Michie.beads(),
        Preset::Michie.reinforcement(),
        seed,
    );
    let arena = Arc::new(Enumerated::new(TicTacToe));
    let perfect = matchbox::players::Opponent::Perfect;
    matchbox::view::session::Session::new(arena, m, perfect, matchbox::solve::TieBreak::Random)
        .unwrap()
}

/// A fresh machine with the game's defaults and `seed`.
pub fn fresh_machine<G: matchbox::learn::GameDefaults>(
    game: &G,
    seed: u64,
) -> matchbox::learn::Machine<G> {
    matchbox::learn::MachineSpec {
        seed,
        ..Default::default()
    }
    .build(game)
    .unwrap()
}

/// The bout a match of `learner` against `against` on `engine` builds: made, as every front end
/// makes one, from its spec.
pub fn bout_of<G: matchbox::learn::GameDefaults>(
    game: &G,
    learner: matchbox::learn::Machine<G>,
    against: matchbox::learn::Against<G>,
    engine: matchbox::learn::Engine,
) -> Result<matchbox::learn::Bout<G>, matchbox::learn::MatchError> {
    use matchbox::learn::{Against, MatchSpec, Rival, Source};
    use matchbox::players::Opponent;
    let opponent = match against {
        Against::Perfect => Rival::Player(Opponent::Perfect),
        Against::Random => Rival::Player(Opponent::Random),
        Against::Mcts(n) => Rival::Player(Opponent::Mcts(n)),
        Against::Person => Rival::Player(Opponent::Human),
        Against::Rival(m) => Rival::Machine(Some(m)),
    };
    let spec = MatchSpec {
        learner: Source::Loaded(learner),
        opponent,
        engine,
        tie_break: Default::default(),
        graph: None,
    };
    spec.build(game.clone(), &mut |_| {})
}
