//! TODO

use super::*;

pub(super) fn result_letters(results: &[GameResult]) -> String {
    results
        .chunks(10)
        .map(|c| c.iter().map(|&r| result_letter(r)).collect::<String>())
        .collect::<Vec<_>>()
        .join(" ")
}

pub(super) fn train<G: FullGame>(game: G, a: &TrainArgs) -> Result<()> {
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
pub(super) struct ResultLog {
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

pub(super) fn result_letter(r: GameResult) -> char {
    match r {
        GameResult::Win => 'W',
        GameResult::Draw => 'D',
        GameResult::Loss => 'L',
    }
}

/// Refuses, before any work, a save that would lose a machine: an output on a file the command
/// reads in another role, or over an existing file that is not the machine resumed (without
/// `--force`).
pub(super) fn check_machine_outputs(a: &TrainArgs) -> Result<()> {
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
