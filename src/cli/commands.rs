//! The subcommands.

use std::io::IsTerminal;

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Value, json};

use std::path::PathBuf;
use std::sync::Arc;

use super::setup::{
    MachineOptions, SetOptions, Setup, box_set_choice, build_machine, game_kind, parse_side,
};
use super::{
    BoxesArgs, ChartArgs, Cli, Command, CountArgs, ExperimentArgs, LearnArgs, PlayArgs,
    PlayoutArgs, PlotArgs, ReplayArgs, SolveArgs, StartSpeed, TrainArgs, WatchArgs,
};
use crate::chart::{
    self,
    data::{ChartKind, GameRow, Rows},
};
use crate::game::Side;
use crate::labels::{self, LabelView};
use crate::learn::engine::{Enumerated, ExperimentResult};
use crate::learn::{
    BoxCounts, Forced, GameDefaults, GameResult, LearnError, Preset, StageBeads, SymmetryMode,
};
use crate::players::Opponent;
use crate::solve::{Solution, TieBreak};
use crate::store;
use crate::tui;
use crate::view::{
    app::{Speed, Titles},
    board::BoardView,
    play::PlayApp,
    session::Session,
};
use crate::with_game;

/// A game every command can run: rules with defaults, a screen view and a label view.
pub(crate) trait FullGame: GameDefaults + BoardView + LabelView + 'static {}
impl<G: GameDefaults + BoardView + LabelView + 'static> FullGame for G {}

/// The game a learning command runs on (checked against the file it resumes, if any).
fn learn_kind(a: &LearnArgs) -> Result<crate::games::GameKind> {
    game_kind(&a.game, a.machine.boxes.as_deref())
}

pub(super) fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Boxes(a) => with_game!(game_kind(&a.game, a.boxes.as_deref())?, |g| boxes(g, &a)),
        Command::Solve(a) => with_game!(game_kind(&a.game, None)?, |g| solve(g, &a)),
        Command::Train(a) => with_game!(learn_kind(&a.learn)?, |g| train(g, &a)),
        Command::Experiment(a) => with_game!(learn_kind(&a.learn)?, |g| experiment(g, &a)),
        Command::Watch(a) => with_game!(learn_kind(&a.learn)?, |g| watch(g, &a)),
        Command::Play(a) => {
            let kind = game_kind(&a.game, a.machine.boxes.as_deref())?;
            with_game!(kind, |g| play(g, &a))
        }
        Command::Plot(a) => plot(&a),
        Command::Count(a) if super::arimaa::is_full_arimaa(&a.game) => super::arimaa::count(&a),
        Command::Count(a) => with_game!(game_kind(&a.game, None)?, |g| count(g, &a)),
        Command::Replay(a) if super::arimaa::is_arimaa(&a.game) => super::arimaa::replay(&a),
        Command::Replay(a) => {
            if a.position.is_some() || a.side.is_some() || a.turn.is_some() {
                bail!("--position, --side and --turn are for arimaa records");
            }
            with_game!(game_kind(&a.game, None)?, |g| replay(g, &a))
        }
        Command::Moves(a) => super::arimaa::moves(&a),
        Command::Playout(a) => with_game!(game_kind(&a.game, None)?, |g| playout(g, &a)),
    }
}

fn print_json(v: &Value) {
    println!("{v}");
}

/// The most boxes `boxes --labels` labels: 5,000 labels fill about 280 pages.
const MAX_LABELS: usize = 5_000;

fn boxes<G: FullGame>(game: G, a: &BoxesArgs) -> Result<()> {
    // A trained machine from a file: its boxes with the beads they hold now.
    let trained = match &a.boxes {
        Some(path) => {
            let given = [
                (a.beads.is_some(), "--beads"),
                (a.preset.is_some(), "--preset"),
                (a.set.side.is_some(), "--side"),
                (a.set.symmetry.is_some(), "--symmetry"),
                (
                    a.set.include_forced || a.set.skip_forced,
                    "--include-forced",
                ),
            ];
            if let Some((_, option)) = given.iter().find(|g| g.0) {
                bail!(
                    "{}: --boxes lists the file's machine as it is; {option} is for a new machine",
                    path.display()
                );
            }
            Some(store::from_yaml(&game, path, &store::read(path)?)?)
        }
        None => None,
    };
    if trained.is_none()
        && a.count
        && a.labels.is_none()
        && !a.bead_list
        && !super::setup::enumerable(&game)
    {
        let (side, mode, forced) = super::setup::set_choice(&game, &SetOptions::from(&a.set))?;
        if let Some(counts) = own_count(&game, side, mode, forced, a.json) {
            return print_own_count(&game, side, mode, a, &counts);
        }
    }
    let (set, initial) = match &trained {
        Some(m) => (Arc::clone(&m.boxes), m.initial.clone()),
        None => (
            Arc::new(box_set_choice(&game, &SetOptions::from(&a.set))?),
            a.beads
                .clone()
                .unwrap_or_else(|| a.preset.unwrap_or_else(|| game.default_preset()).beads()),
        ),
    };
    let colours: crate::palette::BeadColours = a.bead_colours.into();
    let beads = match &trained {
        Some(m) => {
            labels::LabelBeads::counts(|b| m.beads_in(b).iter().map(|n| n.get()).collect(), colours)
        }
        None => labels::LabelBeads::initial(&set, &initial, colours),
    };
    let (side, mode) = (set.side(), set.mode());
    let total_beads: u64 = (0..set.len())
        .map(|b| beads.of(b).iter().map(|&n| n as u64).sum::<u64>())
        .sum();
    let by_move: serde_json::Map<String, Value> = set
        .by_move()
        .into_iter()
        .map(|(m, n)| (m.to_string(), json!(n)))
        .collect();
    let bead_list = labels::bead_list(&game, &set, &beads);
    let what = match &trained {
        Some(m) => format!("beads after {} games", crate::text::group(m.games_played)),
        None => format!("beads {initial}"),
    };
    if let Some(path) = &a.labels {
        // Every page is held, and then the whole PDF: a machine of tens of thousands of boxes
        // would take minutes and gigabytes for a pile no class builds.
        if set.len() > MAX_LABELS {
            bail!(
                "{} {}: {} boxes are too many to label (labels are made for machines of up to {} boxes; octopawn's 2,943 fill 164 pages); `boxes --count` gives the numbers",
                game.name(),
                game.variant(),
                crate::text::group(set.len() as u64),
                crate::text::group(MAX_LABELS as u64)
            );
        }
        let title = format!(
            "{}{} {} · {} · {} · {what}{}",
            game.nickname(side, mode)
                .map(|n| format!("{n}: "))
                .unwrap_or_default(),
            game.name(),
            game.variant(),
            game.side_name(side),
            mode.words(),
            match colours {
                crate::palette::BeadColours::ByCell => " · a colour per cell",
                crate::palette::BeadColours::ByArrow => "",
            }
        );
        let layout = labels::Layout {
            paper: a.paper,
            label: a.label_size,
        };
        let pages = labels::sheets(&game, &set, &beads, &title, layout);
        let stem = path.with_extension("");
        let pdf_path = stem.with_extension("pdf");
        let files: Vec<PathBuf> = (1..=pages.len())
            .map(|i| PathBuf::from(format!("{}-{i}.svg", stem.display())))
            .collect();
        for file in files.iter().chain([&pdf_path]) {
            store::check_writable(file)?;
        }
        let pdf = labels::pdf::pages_to_pdf(&pages)?;
        for (file, page) in files.iter().zip(&pages) {
            store::save_atomic(file, page)?;
        }
        store::save_atomic_bytes(&pdf_path, &pdf)?;
        let stale = remove_stale_pages(&stem, pages.len());
        if !a.json {
            println!(
                "labels: {} pages written to {} … {}, and all of them to {} (one file to print)",
                pages.len(),
                files[0].display(),
                files[files.len() - 1].display(),
                pdf_path.display()
            );
            if stale > 0 {
                println!(
                    "  removed {} from an earlier run with more pages ({}-{}.svg on)",
                    crate::text::count(stale as u64, "stale page", "stale pages"),
                    stem.display(),
                    pages.len() + 1
                );
            }
        }
    }
    if a.json {
        let mut v = json!({
            "bead_list": bead_list.iter().map(|(name, code, n)| json!({"colour": name, "code": code.to_string(), "beads": n})).collect::<Vec<_>>(),
            "game": game.name(),
            "size": game.variant(),
            "side": game.side_name(side),
            "symmetry": mode.to_string(),
            "boxes": set.len(),
            "arrows": set.arrow_count(),
            "beads": total_beads,
            "initial_beads": initial.to_string(),
            "bead_colours": colours.to_string(),
            "by_move": by_move,
        });
        if let Some(m) = &trained {
            v["games_played"] = json!(m.games_played);
        }
        if !a.count {
            v["box_list"] = set
                .iter()
                .enumerate()
                .map(|(i, b)| {
                    json!({
                        "box": i + 1,
                        "move": b.move_number(),
                        "position": game.format_position(&b.position),
                        "arrows": b.arrows.iter().map(|&m| game.format_move(m)).collect::<Vec<_>>(),
                        "beads": beads.of(i),
                    })
                })
                .collect();
        }
        print_json(&v);
        return Ok(());
    }
    let name = game
        .nickname(side, mode)
        .map(|n| format!("{n}: "))
        .unwrap_or_default();
    let per_move: Vec<String> = set
        .by_move()
        .iter()
        .map(|(m, n)| format!("move {m}: {}", crate::text::group(*n as u64)))
        .collect();
    let amount = match &trained {
        Some(m) => format!(
            "{} beads after {} games",
            crate::text::group(total_beads),
            crate::text::group(m.games_played)
        ),
        None => format!(
            "{} beads at {initial} per arrow",
            crate::text::group(total_beads)
        ),
    };
    println!(
        "{name}{} {}, learner {}, symmetry {}: {} boxes, {} arrows, {amount} ({})",
        game.name(),
        game.variant(),
        game.side_name(side),
        mode,
        crate::text::group(set.len() as u64),
        crate::text::group(set.arrow_count() as u64),
        per_move.join(", ")
    );
    if a.bead_list {
        println!("beads to buy:");
        for (name, code, n) in &bead_list {
            println!("  {code} {name:<10} {}", crate::text::group(*n));
        }
    }
    if a.count || a.bead_list || a.labels.is_some() {
        return Ok(());
    }
    let cards: Vec<Vec<String>> = set
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let mut card = vec![format!("Box {} · move {}", i + 1, b.move_number())];
            card.extend(game.diagram(&b.position));
            let counts = beads.of(i);
            card.extend(b.arrows.iter().enumerate().map(|(k, &m)| {
                let (colour, _, letter) = labels::bead(beads.colour(&game, k, m));
                format!(
                    "  {letter} {} ×{} ({colour})",
                    game.format_move(m),
                    counts.get(k).copied().unwrap_or(0)
                )
            }));
            card
        })
        .collect();
    print!("{}", lay_out(&cards, 4));
    Ok(())
}

/// The game's own exact count of a learner's boxes, with the move numbers on stderr as it goes
/// (unless quiet).
fn own_count<G: FullGame>(
    game: &G,
    side: Side,
    mode: SymmetryMode,
    forced: Forced,
    quiet: bool,
) -> Option<BoxCounts> {
    let bar = (!quiet).then(|| {
        let bar = ProgressBar::new_spinner();
        bar.set_message(format!(
            "counting {} {} boxes move by move",
            game.name(),
            game.variant()
        ));
        bar
    });
    let counts = game.own_count(side, mode, forced, &|m| {
        if let Some(bar) = &bar {
            bar.set_message(format!("counting boxes: move {m}"));
            bar.tick();
        }
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    counts
}

/// The beads a counted machine starts with: the learner's moves come every other ply, so its
/// stage at move m is (m − its first move) / 2.
fn own_count_beads(counts: &BoxCounts, initial: &StageBeads) -> u64 {
    let first = *counts.boxes.keys().next().unwrap_or(&0);
    counts
        .arrows
        .iter()
        .map(|(&m, &n)| initial.for_stage(((m - first) / 2) as usize).get() as u64 * n)
        .sum()
}

/// `boxes --count` from a game's own count (no box list: the boxes are not made).
fn print_own_count<G: FullGame>(
    game: &G,
    side: Side,
    mode: SymmetryMode,
    a: &BoxesArgs,
    counts: &BoxCounts,
) -> Result<()> {
    let initial = a
        .beads
        .clone()
        .unwrap_or_else(|| a.preset.unwrap_or_else(|| game.default_preset()).beads());
    let beads = own_count_beads(counts, &initial);
    if a.json {
        let by_move: serde_json::Map<String, Value> = counts
            .boxes
            .iter()
            .map(|(m, n)| (m.to_string(), json!(n)))
            .collect();
        print_json(&json!({
            "game": game.name(),
            "size": game.variant(),
            "side": game.side_name(side),
            "symmetry": mode.to_string(),
            "boxes": counts.total_boxes(),
            "arrows": counts.total_arrows(),
            "beads": beads,
            "initial_beads": initial.to_string(),
            "by_move": by_move,
        }));
        return Ok(());
    }
    let per_move: Vec<String> = counts
        .boxes
        .iter()
        .map(|(m, n)| format!("move {m}: {}", crate::text::group(*n)))
        .collect();
    println!(
        "{} {}, learner {}, symmetry {}: {} boxes, {} arrows, {} beads at {} per arrow ({})",
        game.name(),
        game.variant(),
        game.side_name(side),
        mode,
        crate::text::group(counts.total_boxes()),
        crate::text::group(counts.total_arrows()),
        crate::text::group(beads),
        initial,
        per_move.join(", ")
    );
    Ok(())
}

/// Text cards side by side, `per_row` to a row.
fn lay_out(cards: &[Vec<String>], per_row: usize) -> String {
    let width = cards
        .iter()
        .flatten()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        + 4;
    let mut out = String::new();
    for row in cards.chunks(per_row) {
        out.push('\n');
        let height = row.iter().map(Vec::len).max().unwrap_or(0);
        for line in 0..height {
            let mut text = String::new();
            for card in row {
                let cell = card.get(line).map(String::as_str).unwrap_or("");
                text.push_str(&format!("{cell:<width$}"));
            }
            out.push_str(text.trim_end());
            out.push('\n');
        }
    }
    out
}

fn solve<G: FullGame>(game: G, a: &SolveArgs) -> Result<()> {
    if a.position.is_some() || (!super::setup::enumerable(&game) && game.has_own_solver()) {
        return solve_from_position(game, a);
    }
    super::setup::check_enumerable(&game)?;
    let graph = super::setup::build_graph(&game);
    // A graph with cycles (mini-Arimaa) is solved by retrograde analysis.
    let solution = Solution::solve_any(&graph);
    let side_name = |s| game.side_name(s);
    let winner = solution.winner(&graph, 0);
    let value = solution.value(0);
    let first_moves: Vec<(String, String)> = graph
        .moves(0)
        .iter()
        .zip(solution.move_values(&graph, 0))
        .map(|(&m, v)| (game.format_move(m), v.to_string()))
        .collect();
    let best: Vec<String> = solution
        .best_moves(&graph, 0, TieBreak::Random)
        .into_iter()
        .map(|i| game.format_move(graph.moves(0)[i]))
        .collect();
    let line: Vec<String> = solution
        .principal_variation(&graph, 0)
        .into_iter()
        .map(|m| game.format_move(m))
        .collect();
    let numbered = line
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" ")))
        .collect::<Vec<_>>()
        .join(" ");
    let winner_name = winner.map(side_name).unwrap_or("draw");
    if a.json {
        print_json(&json!({
            "game": game.name(),
            "size": game.variant(),
            "winner": winner_name,
            "winner_role": winner.map(|s| s.to_string()).unwrap_or_else(|| "draw".into()),
            "best_moves": best,
            "first_moves": first_moves.iter().map(|(m, v)| json!({"move": m, "value": v})).collect::<Vec<_>>(),
            "plies": line.len(),
            "principal_variation": line,
            "positions": graph.len(),
        }));
        return Ok(());
    }
    let mover = side_name(graph.to_move(0));
    println!(
        "{} {}: {} positions reachable.",
        game.name(),
        game.variant(),
        crate::text::group(graph.len() as u64)
    );
    match winner {
        Some(w) => println!(
            "Under perfect play {} ({} player) wins in {} {}.",
            side_name(w),
            w,
            line.len(),
            if line.len() == 1 { "ply" } else { "plies" }
        ),
        None => println!("Under perfect play the game is a draw."),
    }
    println!("Value of the start for {mover}: {value}.");
    println!("First moves for {mover}:");
    for (m, v) in &first_moves {
        let mark = if best.contains(m) { "  (best)" } else { "" };
        println!("  {m:<8} {v}{mark}");
    }
    println!("Principal variation: {numbered}");
    Ok(())
}

fn result_letters(results: &[GameResult]) -> String {
    results
        .chunks(10)
        .map(|c| c.iter().map(|&r| result_letter(r)).collect::<String>())
        .collect::<Vec<_>>()
        .join(" ")
}

fn train<G: FullGame>(game: G, a: &TrainArgs) -> Result<()> {
    let games = a.learn.games.unwrap_or(50);
    check_outputs(
        &a.output,
        &[
            ("--save", a.save.as_ref()),
            ("--save-opponent", a.save_opponent.as_ref()),
        ],
    )?;
    check_machine_outputs(a)?;
    let mut s = Setup::new(game, &a.learn)?;
    if a.save_opponent.is_some() && s.rival().is_none() {
        bail!("--save-opponent needs --opponent matchbox");
    }
    let first_game = s.machine().games_played + 1;
    if !a.learn.json {
        print!(
            "{}",
            s.header("train", &[("games", crate::text::group(games as u64))])
        );
    }
    let settings = s.settings_json();
    let mut log = ResultLog::new(first_game, a.learn.json);
    let tracked = a.output.csv.is_some() || a.output.plot.is_some();
    let started = std::time::Instant::now();
    let mut warned = false;
    if tracked {
        // Game by game, recording the beads after each one: streamed to the table, thinned for
        // the chart.
        let label = s.label();
        let perfect = s.perfect_play();
        let mut csv = match &a.output.csv {
            Some(path) => Some(csv::Writer::from_writer(store::AtomicWriter::create(path)?)),
            None => None,
        };
        let mut sampled = chart::data::GameSampler::new();
        let mut score = 0i64;
        // Totals kept from the boxes each game changes: a row a game costs that game only.
        let mut tally = crate::learn::Tally::new(s.machine());
        let mut boxes_played = Vec::new();
        let first_move = match s.machine().boxes.side() {
            Side::First => 1,
            Side::Second => 2,
        };
        let move_numbers = (0..tally.beads_by_stage.len())
            .map(|k| (first_move + 2 * k).to_string())
            .collect::<Vec<_>>()
            .join("/");
        for played in 0..games {
            let r = s.train_one(&mut boxes_played);
            log.push(r);
            score += r.score() as i64;
            tally.update(s.machine(), &boxes_played);
            let m = s.machine();
            let row = GameRow {
                run: 1,
                game: m.games_played,
                result: r,
                cumulative_score: score,
                beads_left: tally.beads_left,
                boxes_emptied: tally.boxes_emptied,
                beads_by_move: tally
                    .beads_by_stage
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join("/"),
                move_numbers: move_numbers.clone(),
                first_box: if m.boxes.is_empty() {
                    String::new()
                } else {
                    m.beads_in(0)
                        .iter()
                        .map(|b| b.get().to_string())
                        .collect::<Vec<_>>()
                        .join("/")
                },
                perfect_play: perfect,
                label: label.clone(),
            };
            if let Some(w) = &mut csv {
                w.serialize(&row)?;
            }
            sampled.push(row);
            if played % 4096 == 4095 {
                warned |= estimate(started, played + 1, games, warned)?;
            }
        }
        if let (Some(w), Some(path)) = (csv, &a.output.csv) {
            w.into_inner()
                .map_err(|e| anyhow::anyhow!("{}: {}", path.display(), e.error()))?
                .commit()?;
        }
        if let Some(path) = &a.output.plot {
            let spec = chart::data::chart(
                a.output.chart.unwrap_or(ChartKind::Score),
                &Rows::Games(sampled.finish()),
            )?;
            let bytes = chart::exporter_for(path)?.export(&spec)?;
            store::save_atomic_bytes(path, &bytes)?;
        }
    } else {
        // In chunks, so that memory does not grow with the games played.
        let mut done = 0;
        while done < games {
            let chunk = (games - done).min(1 << 16);
            for r in s.train(chunk) {
                log.push(r);
            }
            done += chunk;
            warned |= estimate(started, done, games, warned)?;
        }
    }
    if let Some(path) = &a.save {
        let text = store::to_yaml(s.game(), s.machine(), s.game().size_key());
        store::save_atomic(path, &text)?;
    }
    if let (Some(path), Some(rival)) = (&a.save_opponent, s.rival()) {
        let text = store::to_yaml(s.game(), rival, s.game().size_key());
        store::save_atomic(path, &text)?;
    }
    let rival_json = s.rival().map(|r| {
        json!({
            "beads_left": r.beads_left(),
            "boxes_emptied": r.boxes_emptied(),
            "games_played": r.games_played,
        })
    });
    let m = s.machine();
    if a.learn.json {
        print_json(&json!({
            "settings": settings,
            "games": log.games,
            "wins": log.wins,
            "draws": log.draws,
            "losses": log.losses,
            "results": log.letters.as_deref().unwrap_or(""),
            "last_loss": log.last_loss,
            "beads_left": m.beads_left(),
            "boxes": m.boxes.len(),
            "boxes_emptied": m.boxes_emptied(),
            "box_bytes": m.bytes(),
            "games_played": m.games_played,
            "opponent_machine": rival_json,
            "saved": a.save.as_ref().map(|p| p.display().to_string()),
        }));
        return Ok(());
    }
    let tail: Vec<GameResult> = log.tail.iter().copied().collect();
    if log.games <= 200 {
        let mut all = log.head.clone();
        all.extend(tail.iter().skip(log.head.len() + 100 - log.games as usize));
        println!(
            "\nresults (W win, D draw, L loss; from game {first_game}):\n  {}",
            result_letters(&all)
        );
    } else {
        println!(
            "\nresults (W win, D draw, L loss), games {} to {}:\n  {}\n  …\nlast 100 games:\n  {}",
            crate::text::group(first_game),
            crate::text::group(first_game + 99),
            result_letters(&log.head),
            result_letters(&tail)
        );
    }
    println!(
        "\n{} games: {} won, {} drawn, {} lost; last loss: {}",
        crate::text::group(log.games),
        crate::text::group(log.wins),
        crate::text::group(log.draws),
        crate::text::group(log.losses),
        log.last_loss
            .map_or("none".into(), |g| format!("game {}", crate::text::group(g)))
    );
    println!(
        "boxes emptied: {} of {}; beads left: {}",
        crate::text::group(m.boxes_emptied() as u64),
        crate::text::group(m.boxes.len() as u64),
        crate::text::group(m.beads_left())
    );
    if !m.boxes.is_empty() {
        let bytes = m.bytes();
        let size = if bytes < 1_000_000 {
            format!("{:.1} kB", bytes as f64 / 1e3)
        } else {
            format!("{:.1} MB", bytes as f64 / 1e6)
        };
        println!(
            "memory of the boxes: {size}, {} bytes a box (position, arrows and beads)",
            bytes / m.boxes.len()
        );
    }
    for (what, path) in [("table", &a.output.csv), ("chart", &a.output.plot)] {
        if let Some(p) = path {
            println!("{what} written to {}", p.display());
        }
    }
    if let Some(path) = &a.save {
        println!(
            "saved to {} ({} games played in all)",
            path.display(),
            crate::text::group(m.games_played)
        );
    }
    Ok(())
}

/// The results of one learner's run, in memory that does not grow with the games: counts, the
/// last loss, the first and the last 100 games, and (only when asked, for `--json`) one letter per
/// game.
struct ResultLog {
    first_game: u64,
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    last_loss: Option<u64>,
    head: Vec<GameResult>,
    tail: std::collections::VecDeque<GameResult>,
    letters: Option<String>,
}

impl ResultLog {
    fn new(first_game: u64, letters: bool) -> Self {
        ResultLog {
            first_game,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            last_loss: None,
            head: Vec::new(),
            tail: Default::default(),
            letters: letters.then(String::new),
        }
    }

    fn push(&mut self, r: GameResult) {
        let number = self.first_game + self.games;
        self.games += 1;
        match r {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => {
                self.losses += 1;
                self.last_loss = Some(number);
            }
        }
        if self.head.len() < 100 {
            self.head.push(r);
        }
        if self.tail.len() == 100 {
            self.tail.pop_front();
        }
        self.tail.push_back(r);
        if let Some(l) = &mut self.letters {
            l.push(result_letter(r));
        }
    }
}

fn result_letter(r: GameResult) -> char {
    match r {
        GameResult::Win => 'W',
        GameResult::Draw => 'D',
        GameResult::Loss => 'L',
    }
}

/// After `done` of `total` units of work begun at `started`: refuses work that would take more
/// than a year, and says once on stderr how long work of more than two minutes will take.
/// Returns whether it said so.
fn estimate(started: std::time::Instant, done: usize, total: usize, warned: bool) -> Result<bool> {
    let elapsed = started.elapsed().as_secs_f64();
    if done == 0 || elapsed < 0.05 {
        return Ok(false);
    }
    let left = elapsed / done as f64 * (total - done) as f64;
    const YEAR: f64 = 365.25 * 86400.0;
    if left > YEAR {
        bail!(
            "this would take about {:.0} years at {} games a second; ask for fewer games",
            left / YEAR,
            crate::text::group((done as f64 / elapsed) as u64)
        );
    }
    if left > 120.0 && !warned {
        eprintln!(
            "about {} to go at {} games a second (Ctrl-C stops without saving)",
            crate::text::duration_text(left),
            crate::text::group((done as f64 / elapsed) as u64)
        );
        return Ok(true);
    }
    Ok(false)
}

/// The variants of `--compare KEY=V1,V2`: each value applied to a copy of the options.
fn variants(base: &LearnArgs, compare: Option<&str>) -> Result<Vec<(String, LearnArgs)>> {
    let Some(spec) = compare else {
        return Ok(vec![(String::new(), base.clone())]);
    };
    let (key, values) = spec.split_once('=').with_context(|| {
        format!("--compare `{spec}`: use KEY=V1,V2, e.g. symmetry=full,gardner")
    })?;
    let mut out = Vec::new();
    for v in values.split(',').map(str::trim).filter(|v| !v.is_empty()) {
        let mut a = base.clone();
        let bad = |e: String| anyhow::anyhow!("--compare {key}: `{v}`: {e}");
        match key.trim() {
            "symmetry" => {
                a.set.symmetry = Some(v.parse::<SymmetryMode>().map_err(|e| bad(e.to_string()))?);
            }
            "reinforcement" => {
                a.machine.reinforcement =
                    Some(v.parse().map_err(|e: LearnError| bad(e.to_string()))?);
            }
            "preset" => {
                a.machine.preset = Some(v.parse::<Preset>().map_err(|e| bad(e.to_string()))?);
                a.machine.beads = None;
                a.machine.reinforcement = None;
            }
            "beads" => {
                a.machine.beads = Some(v.parse().map_err(|e: LearnError| bad(e.to_string()))?)
            }
            "opponent" => a.opponent = Some(v.parse().map_err(bad)?),
            other => bail!(
                "--compare: cannot compare `{other}` (use symmetry, reinforcement, preset, beads or opponent)"
            ),
        }
        out.push((format!("{key} {v}"), a));
    }
    if out.len() < 2 {
        bail!("--compare {key}: give at least two values, e.g. {key}=a,b");
    }
    Ok(out)
}

/// A run's label without the settings that `--compare` varies (they are in the legend).
fn compared_label(label: &str, compare: Option<&str>) -> String {
    let Some(key) = compare
        .and_then(|c| c.split_once('='))
        .map(|(k, _)| k.trim())
    else {
        return label.to_string();
    };
    let varied: &[&str] = match key {
        "preset" => &["reinforcement", "beads"],
        "symmetry" => &["symmetry"],
        "reinforcement" => &["reinforcement"],
        "beads" => &["beads"],
        _ => &[],
    };
    label
        .split(" · ")
        .enumerate()
        .filter_map(|(i, part)| {
            if i == 0 && key == "opponent" {
                // `HER (black) v perfect player` → `HER (black)`
                return Some(part.split(" v ").next().unwrap_or(part).to_string());
            }
            (!varied.iter().any(|v| part.contains(v))).then(|| part.to_string())
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// A progress bar on stderr when it is a terminal; nothing otherwise.
fn progress(runs: usize) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(runs as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {human_pos}/{human_len} runs · {rate} · {eta} left")
            .map(|s| {
                s.with_key(
                    "rate",
                    |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{:.0} runs/s", state.per_sec());
                    },
                )
            })
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    Some(bar)
}

/// The most game indices an experiment's chart takes (its rows are held in memory); the CSV
/// streams any number.
const MAX_CHART_GAMES: usize = 1_000_000;

/// Removes the pages `STEM-(N+1).svg`, `STEM-(N+2).svg`, … that an earlier run with more pages
/// left (SVG files only, as long as they follow on), so the folder holds this machine's labels
/// and no others. Returns how many were removed.
fn remove_stale_pages(stem: &std::path::Path, pages: usize) -> usize {
    let mut removed = 0;
    for k in pages + 1.. {
        let page = PathBuf::from(format!("{}-{k}.svg", stem.display()));
        let is_svg = || -> std::io::Result<bool> {
            use std::io::Read;
            if !std::fs::metadata(&page)?.is_file() {
                return Ok(false);
            }
            let mut head = [0u8; 5];
            std::fs::File::open(&page)?.read_exact(&mut head)?;
            Ok(&head == b"<svg " || &head == b"<?xml")
        };
        let is_svg = is_svg().unwrap_or(false);
        if !is_svg || std::fs::remove_file(&page).is_err() {
            break;
        }
        removed += 1;
    }
    removed
}

/// Refuses, before any work, a save that would lose a machine: an output on a file the command
/// reads in another role, or over an existing file that is not the machine resumed (without
/// `--force`).
fn check_machine_outputs(a: &TrainArgs) -> Result<()> {
    let learner = a.learn.machine.boxes.as_deref();
    let rival = a.learn.opponent.as_ref().and_then(|o| o.file.as_deref());
    let inputs: Vec<(&str, &std::path::Path)> = [("--boxes", learner), ("--opponent", rival)]
        .into_iter()
        .filter_map(|(k, p)| Some((k, p?)))
        .collect();
    let outputs: Vec<(&str, &std::path::Path)> = [
        ("--save", a.save.as_deref()),
        ("--save-opponent", a.save_opponent.as_deref()),
        ("--csv", a.output.csv.as_deref()),
        ("--plot", a.output.plot.as_deref()),
    ]
    .into_iter()
    .filter_map(|(k, p)| Some((k, p?)))
    .collect();
    store::check_not_inputs(
        &outputs,
        &inputs,
        &[("--save", "--boxes"), ("--save-opponent", "--opponent")],
    )?;
    if let Some(p) = &a.save {
        store::check_replace("--save", p, learner, a.force)?;
    }
    if let Some(p) = &a.save_opponent {
        store::check_replace("--save-opponent", p, rival, a.force)?;
    }
    Ok(())
}

/// Checks every output of a command before any work is done: each can be written, and no two
/// name the same file. `others` are the command's other outputs, as (option, path).
fn check_outputs(output: &ChartArgs, others: &[(&str, Option<&PathBuf>)]) -> Result<()> {
    let mut all: Vec<(&str, &std::path::Path)> = vec![];
    for (name, path) in [
        ("--csv", output.csv.as_ref()),
        ("--plot", output.plot.as_ref()),
    ]
    .into_iter()
    .chain(others.iter().copied())
    {
        if let Some(p) = path {
            store::check_writable(p)?;
            all.push((name, p.as_path()));
        }
    }
    store::check_distinct(&all)?;
    if let Some(p) = &output.plot {
        chart::exporter_for(p)?;
    }
    Ok(())
}

/// The most games per run of an experiment: its statistics are kept per game index (about 40
/// bytes per game index for each thread).
const MAX_EXPERIMENT_GAMES: usize = 10_000_000;

fn experiment<G: FullGame>(game: G, a: &ExperimentArgs) -> Result<()> {
    check_outputs(&a.output, &[])?;
    let games = a.learn.games.unwrap_or(50);
    if a.runs == 0 {
        bail!("--runs 0: an experiment needs at least one run");
    }
    if games == 0 {
        bail!("--games 0: an experiment needs at least one game per run");
    }
    if games > MAX_EXPERIMENT_GAMES {
        bail!(
            "--games {}: an experiment keeps statistics for every game index, up to {} games per run; for one long run use `train`",
            crate::text::group(games as u64),
            crate::text::group(MAX_EXPERIMENT_GAMES as u64)
        );
    }
    let variants = variants(&a.learn, a.compare.as_deref())?;
    let bar = progress(a.runs * variants.len());
    let tick = || {
        if let Some(b) = &bar {
            b.inc(1);
        }
    };
    if a.output.plot.is_some() && games > MAX_CHART_GAMES {
        bail!(
            "--plot: an experiment's chart takes up to {} games per run; write --csv instead",
            crate::text::group(MAX_CHART_GAMES as u64)
        );
    }
    let mut rows = Vec::new();
    let mut csv = match &a.output.csv {
        Some(path) => Some(csv::Writer::from_writer(store::AtomicWriter::create(path)?)),
        None => None,
    };
    let mut reports = Vec::new();
    for (name, args) in &variants {
        let s = Setup::new(game.clone(), args)?;
        if !a.learn.json {
            let title = if name.is_empty() {
                "experiment".to_string()
            } else {
                format!("experiment ({name})")
            };
            print!(
                "{}",
                s.header(
                    &title,
                    &[
                        ("runs", format!("{} (run i seeded from seed and i)", a.runs)),
                        ("games", format!("{games} per run")),
                    ]
                )
            );
        }
        // One short run on this thread says how long the whole will take.
        let probe_games = games.min(10_000);
        let started = std::time::Instant::now();
        s.experiment(1, probe_games, &|| {});
        let per_game = started.elapsed().as_secs_f64() / probe_games as f64;
        let threads = rayon::current_num_threads() as f64;
        let total = a.runs as f64 * games as f64 * per_game / threads;
        const YEAR: f64 = 365.25 * 86400.0;
        if total > YEAR {
            bail!(
                "this experiment would take about {:.0} years; ask for fewer runs or games",
                total / YEAR
            );
        }
        if total > 120.0 {
            eprintln!(
                "about {} to go ({} runs × {} games on {} threads; Ctrl-C stops)",
                crate::text::duration_text(total),
                crate::text::group(a.runs as u64),
                crate::text::group(games as u64),
                threads
            );
        }
        let result = s.experiment(a.runs, games, &tick);
        let label = compared_label(&s.label(), a.compare.as_deref());
        for row in chart::data::index_rows(name, &label, &result) {
            if let Some(w) = &mut csv {
                w.serialize(&row)?;
            }
            if a.output.plot.is_some() {
                rows.push(row);
            }
        }
        reports.push((name.clone(), s.settings_json(), result));
    }
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if let (Some(w), Some(path)) = (csv, &a.output.csv) {
        w.into_inner()
            .map_err(|e| anyhow::anyhow!("{}: {}", path.display(), e.error()))?
            .commit()?;
    }
    if let Some(path) = &a.output.plot {
        let kind = a.output.chart.unwrap_or(ChartKind::LossRate);
        let spec = chart::data::chart(kind, &Rows::Index(rows))?;
        let bytes = chart::exporter_for(path)?.export(&spec)?;
        store::save_atomic_bytes(path, &bytes)?;
    }
    let window =
        |rates: &[f64], from: usize, to: usize| ExperimentResult::mean_over(rates, from, to);
    let last = games.saturating_sub(19).max(1);
    let report_json = |settings: &Value, result: &ExperimentResult| {
        let loss_rate = result.loss_rate();
        let kept = result.loss_rate_first_box_kept();
        json!({
            "settings": settings,
            "runs": a.runs,
            "games": games,
            "mean_losses": result.mean_losses(),
            "loss_rate": loss_rate,
            "draw_rate": result.draw_rate(),
            "win_rate": result.win_rate(),
            "first_box_empty": result.first_box_empty_share(),
            "mean_last_loss": result.mean_last_loss(),
            "last_loss_histogram": result.last_loss,
            "clean_last_20": result.share_clean_last(20),
            "loss_rate_first_box_kept": kept,
            "summary": {
                "loss_rate_first_20": window(&loss_rate, 1, 20),
                "loss_rate_last_20": window(&loss_rate, last, games),
                "loss_rate_last_20_first_box_kept": window(&kept, last, games),
                "win_rate_last_20": window(&result.win_rate(), last, games),
                "draw_rate_last_20": window(&result.draw_rate(), last, games),
            },
        })
    };
    if a.learn.json {
        if a.compare.is_none() {
            let (_, settings, result) = &reports[0];
            print_json(&report_json(settings, result));
        } else {
            let list: Vec<Value> = reports
                .iter()
                .map(|(name, settings, result)| {
                    let mut v = report_json(settings, result);
                    v["variant"] = json!(name);
                    v
                })
                .collect();
            print_json(&json!({ "runs": a.runs, "games": games, "variants": list }));
        }
        return Ok(());
    }
    for (name, _, result) in &reports {
        let loss_rate = result.loss_rate();
        let kept = result.loss_rate_first_box_kept();
        let who = if name.is_empty() {
            String::new()
        } else {
            format!(" [{name}]")
        };
        println!(
            "\n{} runs × {games} games{who}: {:.3} losses per run on average",
            a.runs,
            result.mean_losses()
        );
        if a.compare.is_none() {
            println!("share of runs that lost game g:");
            for g in [1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 500, 1000] {
                if g <= games {
                    println!("  game {g:>5}: {:.4}", loss_rate[g - 1]);
                }
            }
        }
        println!(
            "games 1-{}: lost {:.4}; games {last}-{games}: lost {:.4}, drawn {:.4}, won {:.4}",
            games.min(20),
            window(&loss_rate, 1, 20),
            window(&loss_rate, last, games),
            window(&result.draw_rate(), last, games),
            window(&result.win_rate(), last, games),
        );
        println!(
            "last loss at game {:.1} on average; {:.4} of runs lost none of their last 20 games",
            result.mean_last_loss(),
            result.share_clean_last(20)
        );
        println!(
            "first box empty at the end (resigns every game): {:.4} of runs; games {last}-{games} lost by the others: {:.4}",
            result.first_box_empty_share(),
            window(&kept, last, games)
        );
    }
    for (what, path) in [("chart", &a.output.plot), ("table", &a.output.csv)] {
        if let Some(p) = path {
            println!("{what} written to {}", p.display());
        }
    }
    Ok(())
}

/// An ordinary matchbox, outside: 53 × 36 × 14 mm.
const MATCHBOX_LITRES: f64 = 0.053 * 0.036 * 0.014 * 1000.0;

fn pile(boxes: f64) -> (String, f64) {
    let litres = boxes * MATCHBOX_LITRES;
    let side_m = (litres / 1000.0).cbrt();
    let volume = if litres < 1000.0 {
        format!("{litres:.1} litres")
    } else if litres < 1e12 {
        format!("{:.1} m³", litres / 1000.0)
    } else {
        format!("{:.2e} m³", litres / 1000.0)
    };
    (volume, side_m)
}

fn count<G: FullGame>(game: G, a: &CountArgs) -> Result<()> {
    let preset = game.default_preset();
    let beads = a.beads.clone().unwrap_or_else(|| preset.beads());
    let mut rows = Vec::new();
    for side in [Side::First, Side::Second] {
        let bound = game.position_bound(side);
        match bound {
            // Every board that `boxes` and `solve` can list is counted exactly.
            Some((b, method)) if !super::setup::enumerable(&game) => {
                for (mode, factor, note) in [
                    (SymmetryMode::None, 1.0, method.to_string()),
                    (
                        SymmetryMode::Full,
                        1.0 / game.symmetry_count() as f64,
                        format!(
                            "estimate: the bound shared by the {} symmetries",
                            game.symmetry_count()
                        ),
                    ),
                ] {
                    let forced = game.default_forced();
                    if let Some(counts) = own_count(&game, side, mode, forced, a.json) {
                        let beads_total = own_count_beads(&counts, &beads);
                        rows.push((
                            side,
                            mode,
                            counts.total_boxes() as f64,
                            Some(counts.total_arrows()),
                            Some(beads_total),
                            "exact: every reachable position counted, move by move".to_string(),
                        ));
                        continue;
                    }
                    let boxes = b * factor;
                    rows.push((side, mode, boxes, None, None, note));
                }
            }
            _ => {
                for &mode in game.symmetry_modes() {
                    let set =
                        super::setup::enumerate_boxes(&game, side, mode, game.default_forced());
                    let beads_total: u64 = (0..set.len())
                        .map(|b| {
                            beads.for_stage(set.stage(b) as usize).get() as u64
                                * set.arrows(b).len() as u64
                        })
                        .sum();
                    rows.push((
                        side,
                        mode,
                        set.len() as f64,
                        Some(set.arrow_count() as u64),
                        Some(beads_total),
                        "exact: every reachable position enumerated".to_string(),
                    ));
                }
            }
        }
    }
    if a.json {
        let list: Vec<Value> = rows
            .iter()
            .map(|(side, mode, boxes, arrows, bead_total, method)| {
                let (volume, cube) = pile(*boxes);
                json!({
                    "side": game.side_name(*side),
                    "symmetry": mode.to_string(),
                    "boxes": boxes,
                    "arrows": arrows,
                    "beads": bead_total,
                    "method": method,
                    "volume": volume,
                    "volume_litres": boxes * MATCHBOX_LITRES,
                    "cube_side_m": cube,
                })
            })
            .collect();
        print_json(&json!({
            "game": game.name(),
            "size": game.variant(),
            "initial_beads": beads.to_string(),
            "matchbox_mm": [53, 36, 14],
            "counts": list,
        }));
        return Ok(());
    }
    println!(
        "{} {}: matchboxes of 53 × 36 × 14 mm; beads per arrow: {}",
        game.name(),
        game.variant(),
        beads
    );
    println!(
        "  {:<7} {:<9} {:>12} {:>11} {:>11}  {:<16} {:>10}  how",
        "side", "symmetry", "boxes", "arrows", "beads", "pile", "cube side"
    );
    for (side, mode, boxes, arrows, bead_total, method) in &rows {
        let (volume, cube) = pile(*boxes);
        let cube = if cube < 1.0 {
            format!("{:.0} cm", cube * 100.0)
        } else if cube < 1000.0 {
            format!("{cube:.1} m")
        } else {
            format!("{:.1} km", cube / 1000.0)
        };
        let n = if *boxes < 1e12 {
            crate::text::group(*boxes as u64)
        } else {
            format!("{boxes:.2e}")
        };
        let opt = |x: &Option<u64>| x.map_or("–".to_string(), crate::text::group);
        println!(
            "  {:<7} {:<9} {:>12} {:>11} {:>11}  {:<16} {:>10}  {method}",
            game.side_name(*side),
            mode.to_string(),
            n,
            opt(arrows),
            opt(bead_total),
            volume,
            cube
        );
    }
    Ok(())
}

fn plot(a: &PlotArgs) -> Result<()> {
    chart::exporter_for(&a.out)?;
    store::check_writable(&a.out)?;
    store::check_distinct(&[
        ("the CSV file", a.csv.as_path()),
        ("--out", a.out.as_path()),
    ])?;
    let text = store::read(&a.csv)?;
    let rows =
        chart::data::read_csv(text.as_bytes()).with_context(|| format!("{}", a.csv.display()))?;
    let empty = match &rows {
        Rows::Games(r) => r.is_empty(),
        Rows::Index(r) => r.is_empty(),
    };
    if empty {
        bail!(
            "{}: no rows under the header: nothing to draw",
            a.csv.display()
        );
    }
    // A run's games are thinned for the chart exactly as `train --plot` thins them.
    let rows = match rows {
        Rows::Games(all) => {
            let mut sampled = chart::data::GameSampler::new();
            all.into_iter().for_each(|row| sampled.push(row));
            Rows::Games(sampled.finish())
        }
        index => index,
    };
    let default = match rows {
        Rows::Games(_) => ChartKind::Score,
        Rows::Index(_) => ChartKind::LossRate,
    };
    let spec = chart::data::chart(a.chart.unwrap_or(default), &rows)
        .with_context(|| format!("{}", a.csv.display()))?;
    let bytes = chart::exporter_for(&a.out)?.export(&spec)?;
    store::save_atomic_bytes(&a.out, &bytes)?;
    println!("chart written to {}", a.out.display());
    Ok(())
}

/// A session for the screens: with the whole graph where the game can be enumerated (whole games
/// at flat out then run on the compiled table), from positions otherwise.
fn screen_session<G: FullGame>(
    game: G,
    machine: crate::learn::Machine<G>,
    rival: Opponent,
    tie_break: TieBreak,
) -> Result<Session<G>> {
    if super::setup::enumerable(&game) {
        return Ok(Session::new(
            Arc::new(Enumerated::new(game)),
            machine,
            rival,
            tie_break,
        )?);
    }
    if rival == Opponent::Perfect && !game.has_own_solver() {
        bail!(
            "the perfect player cannot solve {} {}: it is too big; use --opponent mcts or random",
            game.name(),
            game.variant()
        );
    }
    Ok(Session::from_positions(game, machine, rival, tie_break)?)
}

fn watch<G: FullGame>(game: G, a: &WatchArgs) -> Result<()> {
    if a.learn.json {
        bail!(
            "watch draws on the terminal; --json is for train, experiment and the other commands"
        );
    }
    if let Some(path) = &a.save {
        store::check_writable(path)?;
    }
    let opts = MachineOptions::new(SetOptions::from(&a.learn.set), &a.learn.machine);
    let opponent = super::setup::opponent_or_default(&game, a.learn.opponent.as_ref());
    let kind = opponent.kind;
    // Big boards take seconds to build and solve: the screen says so, and q stays live.
    let what = format!("{} {}", game.name(), game.variant());
    let stage = std::sync::Mutex::new("building the machine's boxes".to_string());
    let (titles, side, mut session) = tui::preparing(&what, a.theme.into(), &stage, || {
        let machine = build_machine(&game, &opts)?;
        let (mut titles, side) = (Titles::of(&game, &machine), machine.boxes.side());
        // Learner against learner: a second machine for the other side (from --opponent-boxes,
        // or new with the game's defaults), which learns too.
        let rival = match kind {
            Opponent::Matchbox => Some(super::setup::rival_machine(
                &game,
                &machine,
                opponent.file.as_deref(),
            )?),
            _ => None,
        };
        if let Ok(mut s) = stage.lock() {
            *s = match kind {
                Opponent::Matchbox => "enumerating the game".to_string(),
                _ => format!("solving the game for the {kind} player"),
            };
        }
        // Against a machine, the session starts with the perfect player ready for `o`.
        let first = match kind {
            Opponent::Matchbox => Opponent::Random,
            k => k,
        };
        let mut session = screen_session(game.clone(), machine, first, a.learn.tie_break)?;
        if let Some(r) = rival {
            titles.rival = Some(format!(
                "{} ({})",
                game.nickname(r.boxes.side(), r.boxes.mode())
                    .unwrap_or("rival"),
                game.side_name(r.boxes.side())
            ));
            session.set_rival_machine(r);
        }
        anyhow::Ok((titles, side, session))
    })??;
    let save = a.save.clone().unwrap_or_else(|| {
        PathBuf::from(format!(
            "{}-{}-watch.yaml",
            game.name(),
            game.side_name(side)
        ))
    });
    session.limit = a.learn.games.map(|g| g as u64);
    session.colours = a.bead_colours.into();
    let speed = match a.speed {
        StartSpeed::Step => Speed::Step,
        StartSpeed::Slow => Speed::Slow,
        StartSpeed::Games1 => Speed::Games1,
        StartSpeed::Games10 => Speed::Games10,
        StartSpeed::Games100 => Speed::Games100,
        StartSpeed::FlatOut => Speed::FlatOut,
    };
    let seed = session.machine().seed;
    tui::check_terminal("watch")?;
    let resumed = a.learn.machine.boxes.as_deref();
    let may_replace = a.force || resumed.is_some_and(|r| store::same_file(r, &save));
    let session = tui::watch(session, titles, speed, save, may_replace, a.theme.into())?;
    // The terminal is back: say what ran, so the run can be repeated.
    let now = session.machine().games_played;
    let all = session.games_before_reset + now;
    let since = if session.games_before_reset > 0 {
        format!(" ({} since the last reset)", crate::text::group(now))
    } else {
        String::new()
    };
    println!(
        "{} watched{since}; seed {seed} (`--seed {seed}` plays the same games again)",
        crate::text::count(all, "game", "games")
    );
    Ok(())
}

fn play<G: FullGame>(game: G, a: &PlayArgs) -> Result<()> {
    if let Some(path) = &a.save {
        store::check_writable(path)?;
        store::check_replace("--save", path, a.machine.boxes.as_deref(), a.force)?;
    }
    // You play the side the machine does not: the one --as names, else the one a file's machine
    // leaves, else the first.
    let asked = a
        .human
        .as_deref()
        .map(|s| parse_side(&game, s))
        .transpose()?;
    // A file's machine keeps its side (checked against --as once it is read); a new one plays
    // the side you do not.
    let set = SetOptions {
        side: match (asked, &a.machine.boxes) {
            (_, Some(_)) => None,
            (Some(h), None) => Some(game.side_name(h.other()).to_string()),
            (None, None) => Some(game.side_name(crate::game::Side::Second).to_string()),
        },
        symmetry: a.symmetry,
        forced: None,
    };
    let opts = MachineOptions::new(set, &a.machine);
    let what = format!("{} {}", game.name(), game.variant());
    let stage = std::sync::Mutex::new("building the machine's boxes".to_string());
    let (mut titles, session) = tui::preparing(&what, a.theme.into(), &stage, || {
        let machine = build_machine(&game, &opts)?;
        if let (Some(human), Some(path)) = (asked, &a.machine.boxes)
            && machine.boxes.side() == human
        {
            bail!(
                "{}: the machine plays {}, so you cannot: play it with --as {} (or without --as)",
                path.display(),
                game.side_name(human),
                game.side_name(human.other())
            );
        }
        let titles = Titles::of(&game, &machine);
        if let Ok(mut s) = stage.lock() {
            *s = "enumerating the game".to_string();
        }
        let session = screen_session(game.clone(), machine, Opponent::Human, TieBreak::Random)?;
        anyhow::Ok((titles, session))
    })??;
    let mut session = session;
    session.colours = a.bead_colours.into();
    let human = session.machine().boxes.side().other();
    let stand_in = match a.opponent.kind {
        Opponent::Matchbox => None,
        Opponent::Human => bail!("--opponent human: you are the human"),
        kind => Some(crate::learn::Against::of(kind)?),
    };
    if let Some(p) = stand_in {
        session.set_stand_in(p)?;
        titles.machine = format!("{} ({})", a.opponent.kind, game.side_name(human.other()));
    }
    tui::check_terminal("play")?;
    let mut app = PlayApp::new(session, titles, human, a.save.clone());
    app.theme = a.theme.into();
    tui::play(&mut app)?;
    let unsaved = app.unsaved_games();
    if unsaved > 0 {
        eprintln!(
            "the machine's {} {} not saved (play with --save FILE to keep them)",
            crate::text::count(unsaved, "game", "games"),
            if unsaved == 1 { "was" } else { "were" }
        );
    }
    if let Some(path) = &app.save_path {
        store::save_machine(path, app.session.game(), app.session.machine())?;
        eprintln!(
            "saved {} ({} games played in all)",
            path.display(),
            app.session.machine().games_played
        );
    }
    Ok(())
}

/// A move of a game record that cannot be played: exit status 2, one line.
#[derive(Debug)]
pub(super) struct BadRecord(pub String);

impl std::fmt::Display for BadRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for BadRecord {}

fn replay<G: FullGame>(game: G, a: &ReplayArgs) -> Result<()> {
    let mut pos = game.start();
    let mut played = Vec::new();
    for (i, text) in a
        .moves
        .split([' ', ',', '\t'])
        .filter(|t| !t.is_empty())
        .enumerate()
    {
        let number = i + 1;
        if game.outcome(&pos).is_some() {
            return Err(BadRecord(format!(
                "move {number} `{}`: the game is already over",
                crate::text::quote(text)
            ))
            .into());
        }
        let mv = game
            .parse_move(&pos, text)
            .map_err(|e| BadRecord(format!("move {number} `{}`: {e}", crate::text::quote(text))))?;
        played.push(game.format_move(mv));
        pos = game.play(&pos, mv);
    }
    let outcome = game.outcome(&pos);
    let winner = match outcome {
        None => "none",
        Some(o) => o.winner.map_or("draw", |w| game.side_name(w)),
    };
    let structures = game.structures(&pos);
    if a.json {
        print_json(&json!({
            "game": game.name(),
            "size": game.size_key(),
            "ply": played.len(),
            "winner": winner,
            "reason": outcome.map(|o| o.reason.to_string()),
            "structures": structures,
            "position": game.format_position(&pos),
            "moves": played,
        }));
        return Ok(());
    }
    for line in game.diagram(&pos) {
        println!("{line}");
    }
    let plies = played.len();
    let ply_word = if plies == 1 { "ply" } else { "plies" };
    match outcome {
        None => println!(
            "{plies} {ply_word}; not over: {} to move",
            game.side_name(game.to_move(&pos))
        ),
        Some(o) => match o.winner {
            Some(w) => println!(
                "{plies} {ply_word}; {} wins: {}",
                game.side_name(w),
                o.reason
            ),
            None => println!("{plies} {ply_word}; drawn: {}", o.reason),
        },
    }
    println!("position: {}", game.format_position(&pos));
    Ok(())
}

/// Counts of random games.
#[derive(Clone, Default)]
struct Tally {
    games: u64,
    wins: [u64; 2],
    draws: u64,
    plies: u64,
    structures: [u64; 8],
}

impl Tally {
    fn add(&mut self, g: crate::game::RandomGame) {
        self.games += 1;
        match g.winner {
            Some(w) => self.wins[w as usize] += 1,
            None => self.draws += 1,
        }
        self.plies += g.plies as u64;
        for (k, n) in self.structures.iter_mut().enumerate() {
            *n += u64::from(g.structures >> k & 1 == 1);
        }
    }
    fn merge(mut self, o: Tally) -> Tally {
        self.games += o.games;
        self.draws += o.draws;
        self.plies += o.plies;
        for k in 0..2 {
            self.wins[k] += o.wins[k];
        }
        for k in 0..8 {
            self.structures[k] += o.structures[k];
        }
        self
    }
}

/// Random games per piece of work: piece `i` is seeded from the seed and `i`, so the result does
/// not depend on the number of threads.
const PLAYOUT_PIECE: u64 = 4096;

fn playout<G: FullGame>(game: G, a: &PlayoutArgs) -> Result<()> {
    use rayon::prelude::*;
    if a.games == 0 {
        bail!("--games 0: nothing to play");
    }
    let seed = a.seed.unwrap_or_else(rand::random);
    let pieces = a.games.div_ceil(PLAYOUT_PIECE);
    let started = std::time::Instant::now();
    // One piece first, on this thread, to say how long the rest will take.
    let first = {
        let mut rng = crate::rng::rng_from_seed(crate::rng::derive_seed(seed, 0));
        let mut t = Tally::default();
        game.random_games(a.games.min(PLAYOUT_PIECE), &mut rng, &mut |g| t.add(g));
        t
    };
    let per_game = started.elapsed().as_secs_f64() / first.games as f64;
    let threads = rayon::current_num_threads() as f64;
    let total = per_game * a.games as f64 / threads;
    if total > 365.25 * 86400.0 {
        bail!(
            "{} random games would take about {:.0} years",
            crate::text::group(a.games),
            total / (365.25 * 86400.0)
        );
    }
    if total > 120.0 {
        eprintln!("about {} to go", crate::text::duration_text(total));
    }
    let rest = (1..pieces)
        .into_par_iter()
        .map(|i| {
            let n = (a.games - i * PLAYOUT_PIECE).min(PLAYOUT_PIECE);
            let mut rng = crate::rng::rng_from_seed(crate::rng::derive_seed(seed, i));
            let mut t = Tally::default();
            game.random_games(n, &mut rng, &mut |g| t.add(g));
            t
        })
        .reduce(Tally::default, Tally::merge);
    let t = first.merge(rest);
    let secs = started.elapsed().as_secs_f64();
    let share = |n: u64| n as f64 / t.games as f64;
    let white = game.side_name(Side::First);
    let black = game.side_name(Side::Second);
    let kinds = game.structure_kinds();
    if a.json {
        let mut v = json!({
            "game": game.name(),
            "size": game.size_key(),
            "seed": seed,
            "games": t.games,
            "draw": share(t.draws),
            "mean_plies": t.plies as f64 / t.games as f64,
            "per_second": t.games as f64 / secs,
            "threads": rayon::current_num_threads(),
        });
        v[white] = json!(share(t.wins[0]));
        v[black] = json!(share(t.wins[1]));
        for (k, name) in kinds.iter().enumerate() {
            v[*name] = json!(share(t.structures[k]));
        }
        print_json(&v);
        return Ok(());
    }
    println!(
        "{} {}: {} random games (seed {seed}, {} threads)",
        game.name(),
        game.variant(),
        crate::text::group(t.games),
        rayon::current_num_threads()
    );
    println!(
        "  {white} won {:.4}, {black} won {:.4}, drawn {:.4}",
        share(t.wins[0]),
        share(t.wins[1]),
        share(t.draws)
    );
    for (k, name) in kinds.iter().enumerate() {
        println!(
            "  last move completed a {name}: {:.4}",
            share(t.structures[k])
        );
    }
    println!(
        "  {:.1} plies a game on average; {} games a second",
        t.plies as f64 / t.games as f64,
        crate::text::group((t.games as f64 / secs) as u64)
    );
    Ok(())
}

/// `solve` from a position, with the game's own solver or a memoised negamax: the winner, each
/// move's value, and a line of best moves (win, draw or loss only when the solver does not count
/// distances).
fn solve_from_position<G: FullGame>(game: G, a: &SolveArgs) -> Result<()> {
    let pos = match &a.position {
        None => game.start(),
        Some(text) => {
            let sides = match &a.side {
                Some(s) => vec![parse_side(&game, s)?],
                None => vec![Side::First, Side::Second],
            };
            let mut parsed = Err(anyhow::anyhow!("no side given"));
            for side in sides {
                parsed = game
                    .parse_position(text, side)
                    .with_context(|| "--position".to_string());
                if parsed.is_ok() {
                    break;
                }
            }
            parsed?
        }
    };
    if !game.has_own_solver() {
        super::setup::check_enumerable(&game)?;
    }
    let started = std::time::Instant::now();
    // Distances too, for the line of best moves: the quickest win against the slowest loss.
    let (values, _) = crate::learn::perfect_values(&game, TieBreak::Fastest)?;
    let mut perfect = crate::players::PerfectPlayer::new(values.clone(), TieBreak::Random);
    let mut fastest = crate::players::PerfectPlayer::new(values, TieBreak::Fastest);
    let side_name = |s| game.side_name(s);
    let mover = game.to_move(&pos);
    let first_moves = perfect.move_values(&game, &pos)?;
    let best = perfect.best_moves(&game, &pos)?;
    // A line of best moves: at each step the first of the quickest wins or slowest losses.
    let mut line = Vec::new();
    let mut cur = pos.clone();
    while game.outcome(&cur).is_none() {
        let Some(&mv) = fastest.best_moves(&game, &cur)?.first() else {
            break;
        };
        line.push(game.format_move(mv));
        cur = game.play(&cur, mv);
    }
    let value = match game.outcome(&pos) {
        Some(o) => crate::solve::Value::of_finished(o.winner, mover),
        None => first_moves
            .iter()
            .map(|&(_, v)| v)
            .max_by_key(|v| v.rank())
            .unwrap_or(crate::solve::Value::Draw),
    };
    let winner = match value.class() {
        1 => Some(mover),
        -1 => Some(mover.other()),
        _ => None,
    };
    let secs = started.elapsed().as_secs_f64();
    let winner_name = winner.map(side_name).unwrap_or("draw");
    if a.json {
        print_json(&json!({
            "game": game.name(),
            "size": game.size_key(),
            "position": game.format_position(&pos),
            "to_move": side_name(mover),
            "winner": winner_name,
            "best_moves": best.iter().map(|&m| game.format_move(m)).collect::<Vec<_>>(),
            "first_moves": first_moves.iter().map(|&(m, v)| json!({"move": game.format_move(m), "value": v.to_string()})).collect::<Vec<_>>(),
            "plies": line.len(),
            "principal_variation": line,
            "seconds": secs,
        }));
        return Ok(());
    }
    println!(
        "{} {}: {} to move in {}",
        game.name(),
        game.variant(),
        side_name(mover),
        game.format_position(&pos)
    );
    if let Some(o) = game.outcome(&pos) {
        // Nothing to solve: say how it ended.
        match o.winner {
            Some(w) => println!("The game is over: {} has won.", side_name(w)),
            None => println!("The game is over: a draw."),
        }
        return Ok(());
    }
    match winner {
        Some(w) => match value {
            crate::solve::Value::Win(d) | crate::solve::Value::Loss(d) if d > 0 => println!(
                "Under perfect play {} wins in {}.",
                side_name(w),
                crate::text::count(d as u64, "ply", "plies")
            ),
            _ => println!("Under perfect play {} wins.", side_name(w)),
        },
        None => println!("Under perfect play the game is a draw."),
    }
    println!("Moves for {}:", side_name(mover));
    for &(m, v) in &first_moves {
        let mark = if best.contains(&m) { "  (best)" } else { "" };
        println!("  {:<6} {v}{mark}", game.format_move(m));
    }
    println!("A line of best moves: {}", line.join(" "));
    println!("Solved in {secs:.1} s.");
    Ok(())
}
