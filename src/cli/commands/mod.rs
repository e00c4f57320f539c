//! The subcommands, one module each.

mod arimaa;
mod boxes;
mod cartpole;
mod cartpole_experiment;
mod cartpole_film;
mod cartpole_train;
mod count;
mod experiment;
mod film;
mod merge;
mod odds;
mod operate;
mod outputs;
mod playout;
mod plot;
mod replay;
mod results;
mod screens;
mod solve;
mod train;

use crate::cli::error::BadRecord;
use crate::games::any::AnyGame;
use boxes::boxes;
#[cfg(feature = "class")]
mod class;
mod lesson_log;
mod record;
use count::count;
use experiment::experiment;
use film::film;
use merge::merge;
use outputs::check_outputs;
use playout::playout;
use plot::plot;
use replay::replay;
use screens::{play, watch};
use solve::solve;
use train::train;

use std::io::IsTerminal;

use anyhow::{Context, Result, bail};

use std::path::PathBuf;
use std::sync::Arc;

use crate::chart::{
    self,
    data::{ChartKind, GameRow, Rows},
};
use crate::cli::setup::{
    MachineOptions, SetOptions, Setup, box_set_choice, game_kind, match_spec, parse_side,
};
use crate::cli::{
    BoxesArgs, ChartArgs, Cli, Command, CountArgs, ExperimentArgs, LearnArgs, OpponentSpec,
    PlayArgs, PlayoutArgs, PlotArgs, ReplayArgs, SolveArgs, TrainArgs, WatchArgs,
};
use crate::game::Side;
use crate::labels::{self, LabelView};
use crate::learn::engine::ExperimentResult;
use crate::learn::{
    BoxCounts, Forced, GameDefaults, GameResult, LearnError, Preparing, Preset, StageBeads,
    SymmetryMode,
};
use crate::players::Opponent;
use crate::solve::{Solution, TieBreak};
use crate::store;
use crate::tui;
use crate::view::{app::Titles, board::BoardView, play::PlayApp, session::Session};
use crate::with_game;

/// A game every command can run: rules with defaults, a screen view and a label view.
pub(crate) trait FullGame: GameDefaults + BoardView + LabelView + 'static {}
impl<G: GameDefaults + BoardView + LabelView + 'static> FullGame for G {}

/// The game a learning command runs on (checked against the file it resumes, if any).
pub(super) fn learn_kind(a: &LearnArgs) -> Result<crate::games::GameKind> {
    game_kind(&a.game, a.machine.boxes.as_deref())
}

pub(super) fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Boxes(a) if cartpole::is_cartpole(&a.game) => {
            Out::new(a.json).report(&cartpole_train::boxes(&a)?)
        }
        Command::Boxes(a) => {
            let out = Out::new(a.json);
            let kind = game_kind(&a.game, a.boxes.as_deref())?;
            out.report(&boxes(AnyGame::new(kind), &a, out)?)
        }
        Command::Solve(a) => {
            Out::new(a.json).report(&with_game!(game_kind(&a.game, None)?, |g| solve(g, &a))?)
        }
        Command::Train(a) if cartpole::is_cartpole(&a.learn.game) => {
            Out::new(a.json).report(&cartpole_train::train(&a)?)
        }
        Command::Train(a) => train_command(a),
        Command::Experiment(a) if cartpole::is_cartpole(&a.learn.game) => {
            Out::new(a.json).report(&cartpole_experiment::experiment(&a)?)
        }
        Command::Experiment(a) if a.steps.is_some() => {
            bail!("--steps is for `experiment cartpole` (a board game's runs play --games games)")
        }
        Command::Experiment(a) if a.odds.is_some() => {
            let rule = a.odds.expect("checked");
            Out::new(a.json).report(&with_game!(learn_kind(&a.learn)?, |g| odds::odds(
                g, &a, rule
            ))?)
        }
        Command::Experiment(a) => {
            let out = Out::new(a.json);
            out.report(&with_game!(learn_kind(&a.learn)?, |g| experiment(
                g, &a, out
            ))?)
        }
        Command::Watch(a) if cartpole::is_cartpole(&a.learn.game) => cartpole_train::watch(&a),
        Command::Watch(a) => watch(AnyGame::new(learn_kind(&a.learn)?), &a),
        Command::Operate(a) => operate_command(a),
        #[cfg(feature = "class")]
        Command::Class(a) => class::class(AnyGame::new(class::class_kind(&a)?), &a),
        Command::Play(a) => {
            let kind = game_kind(&a.game, a.machine.boxes.as_deref())?;
            play(AnyGame::new(kind), &a)
        }
        Command::Plot(a) => Out::new(false).report(&plot(&a)?),
        Command::Count(a) if arimaa::is_full_arimaa(&a.game) => {
            Out::new(a.json).report(&arimaa::count(&a)?)
        }
        Command::Count(a) => {
            let out = Out::new(a.json);
            out.report(&with_game!(game_kind(&a.game, None)?, |g| count(
                g, &a, out
            ))?)
        }
        Command::Replay(a) if arimaa::is_arimaa(&a.game) => {
            Out::new(a.json).report(&arimaa::replay(&a)?)
        }
        Command::Replay(a) if cartpole::is_cartpole(&a.game) => {
            Out::new(a.json).report(&cartpole::replay(&a)?)
        }
        Command::Replay(a) if a.record.is_some() => record::replay_command(&a),
        Command::Replay(a) => {
            if a.position.is_some() || a.side.is_some() || a.turn.is_some() {
                bail!("--position, --side and --turn are for arimaa records");
            }
            Out::new(a.json).report(&replay(AnyGame::new(game_kind(&a.game, None)?), &a)?)
        }
        Command::Moves(a) => Out::new(a.json).report(&arimaa::moves(&a)?),
        Command::Merge(a) => {
            let out = Out::new(a.json);
            out.report(&merge(&a, &out)?)
        }
        Command::Results(a) => Out::new(a.json).report(&results::results(&a)?),
        Command::Film(a) if cartpole::is_cartpole(&a.watch.learn.game) => {
            Out::new(a.json).report(&cartpole_film::film(&a)?)
        }
        Command::Film(a) => {
            let kind = match &a.lesson {
                Some(log) => lesson_log::kind(&a.watch.learn.game, log)?,
                None => learn_kind(&a.watch.learn)?,
            };
            Out::new(a.json).report(&film(AnyGame::new(kind), &a)?)
        }
        Command::Playout(a) if cartpole::is_cartpole(&a.game) => {
            Out::new(a.json).report(&cartpole::playout(&a)?)
        }
        Command::Playout(a) => {
            Out::new(a.json).report(&with_game!(game_kind(&a.game, None)?, |g| playout(g, &a))?)
        }
    }
}

/// `operate`: the session's record continued where it is there (its settings with it).
fn operate_command(a: crate::cli::OperateArgs) -> Result<()> {
    let stem = operate::record_stem(&AnyGame::new(learn_kind(&a.learn)?));
    let path = operate::record_path(&a, &stem);
    let (learn, rec) = match path.exists() {
        true => {
            let (learn, rec) = record::with_header(&a.learn, &path, a.first_box.as_deref())?;
            (learn, Some(rec))
        }
        false => (a.learn.clone(), None),
    };
    let a = crate::cli::OperateArgs { learn, ..a };
    let out = Out::new(a.json);
    let game = AnyGame::new(learn_kind(&a.learn)?);
    out.report(&operate::operate(game, &a, rec.as_ref(), out)?)
}

/// `train`: with `--record`, the record's settings and games.
fn train_command(a: TrainArgs) -> Result<()> {
    let out = Out::new(a.json);
    let (learn, rec) = match &a.record {
        Some(path) => {
            let (learn, rec) = record::with_header(&a.learn, path, a.first_box.as_deref())?;
            (learn, Some(rec))
        }
        None => (a.learn.clone(), None),
    };
    let a = TrainArgs { learn, ..a };
    out.report(&with_game!(learn_kind(&a.learn)?, |g| train(
        g,
        &a,
        rec.as_ref(),
        out
    ))?)
}

/// Where a command's results go: its report as text (`Display`) or as one JSON object (serde)
/// on stdout, from the same struct. The work itself never asks which.
#[derive(Clone, Copy, Debug)]
pub(super) struct Out {
    json: bool,
}

impl Out {
    pub fn new(json: bool) -> Out {
        Out { json }
    }
    /// Prints a command's report.
    pub fn report<R: serde::Serialize + std::fmt::Display>(&self, r: &R) -> Result<()> {
        let text = if self.json {
            // Keys in order, as every command has always printed them.
            format!("{}\n", serde_json::to_value(r)?)
        } else {
            r.to_string()
        };
        write_out(&text);
        Ok(())
    }
    /// Whether the report is printed as JSON (a command keeps what only JSON lists, such as
    /// every game's letter, only then).
    pub fn is_json(&self) -> bool {
        self.json
    }
    /// Text a long run shows before its work (its settings), in text output only.
    pub fn preamble(&self, text: impl std::fmt::Display) {
        if !self.json {
            write_out(&text.to_string());
        }
    }
}

/// Writes to stdout; a reader that has gone (`matchbox … | head -1`) ends the program quietly,
/// as a closed pipe does on Unix (where SIGPIPE does it) and on Windows (where the write fails).
fn write_out(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        // Windows: 232 "the pipe is being closed", 233 "no process is on the other end".
        if e.kind() == std::io::ErrorKind::BrokenPipe || matches!(e.raw_os_error(), Some(232 | 233))
        {
            std::process::exit(0);
        }
        eprintln!("error: could not write the output: {e}");
        std::process::exit(1);
    }
}

/// How games ended, most common first: "how the games ended: black: the opponent has no move
/// 61.2 %, white: reached the far rank 30.1 %, …".
pub(super) fn ended_text(ends: &crate::learn::engine::Ends) -> String {
    let total = ends.total().max(1) as f64;
    let parts: Vec<String> = ends
        .by_count()
        .iter()
        .map(|(kind, n)| format!("{kind} {:.1} %", *n as f64 * 100.0 / total))
        .collect();
    match parts.is_empty() {
        true => "how the games ended: no game played".to_string(),
        false => format!("how the games ended: {}", parts.join(", ")),
    }
}
