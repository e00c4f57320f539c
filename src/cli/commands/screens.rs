//! The screens' commands, `watch` and `play`: the session each shows, built from the options.

use super::*;

pub(super) fn watch<G: FullGame>(game: G, a: &WatchArgs) -> Result<()> {
    if let Some(path) = &a.save {
        store::check_writable(path)?;
        store::claim(path)?;
    }
    let what = format!("{} {}", game.name(), game.variant());
    let stage = std::sync::Mutex::new("building the machine's boxes".to_string());
    let (titles, side, mut session) = tui::preparing(&what, a.theme.into(), &stage, || {
        watch_session(&game, &a.learn, &stage)
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
    let speed = a.speed;
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

pub(super) fn play<G: FullGame>(game: G, a: &PlayArgs) -> Result<()> {
    if let Some(path) = &a.save {
        store::check_writable(path)?;
        store::check_replace("--save", path, a.machine.boxes.as_deref(), a.force)?;
        store::claim(path)?;
    }
    // You play the side the machine does not: the one --as names, else the one a file's machine
    // leaves, else the one history leaves (the machine takes its historical side).
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
            // The machine takes the side history gave it (HER Black, MENACE X), you the other.
            (None, None) => None,
        },
        symmetry: a.symmetry,
        forced: None,
    };
    let opts = MachineOptions::new(set, &a.machine);
    let what = format!("{} {}", game.name(), game.variant());
    let stage = std::sync::Mutex::new("building the machine's boxes".to_string());
    let (mut titles, session) = tui::preparing(&what, a.theme.into(), &stage, || {
        let person = OpponentSpec {
            kind: Opponent::Human,
            file: None,
        };
        let spec = match_spec(&game, &opts, &person, TieBreak::Random)?;
        if let (Some(human), Some(path)) = (asked, &a.machine.boxes)
            && spec.learner.side(&game) == human
        {
            bail!(
                "{}: the machine plays {}, so you cannot: play it with --as {} (or without --as)",
                path.display(),
                game.side_name(human),
                game.side_name(human.other())
            );
        }
        let session = Session::of(spec.build(game.clone(), &mut |p| say_stage(&stage, p))?);
        let mut titles = Titles::of(&game, session.machine());
        name_game(&mut titles, &game, &a.game.game);
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

/// The game's name in the titles as typed, where it is another name of the game (`noughts`).
fn name_game<G: FullGame>(titles: &mut Titles, game: &G, typed: &str) {
    if let Some(name) = crate::games::shown_name(typed) {
        titles.game = format!("{name} {}", game.variant());
    }
}

/// The session `watch` (and `film`) shows: the machine, its opponent (a second machine too,
/// against `--opponent matchbox`) and the screen's titles; `stage` says what is being done.
pub(super) fn watch_session<G: FullGame>(
    game: &G,
    a: &LearnArgs,
    stage: &std::sync::Mutex<String>,
) -> Result<(Titles, Side, Session<G>)> {
    let opts = MachineOptions::new(SetOptions::for_game(&a.set, &a.game.game), &a.machine);
    let opponent = crate::cli::setup::opponent_or_default(game, a.opponent.as_ref());
    let spec = match_spec(game, &opts, &opponent, a.tie_break)?;
    let session = Session::of(spec.build(game.clone(), &mut |p| say_stage(stage, p))?);
    let mut titles = Titles::of_session(&session);
    name_game(&mut titles, game, &a.game.game);
    Ok((titles, session.machine().boxes.side(), session))
}

/// Says on the preparing screen what a big game's preparation is doing.
fn say_stage(stage: &std::sync::Mutex<String>, p: Preparing) {
    let text = match p {
        Preparing::Enumerating { positions, .. } => format!(
            "enumerating the game: {} positions",
            crate::text::group(positions as u64)
        ),
        Preparing::Solving => "solving the game for the perfect player".into(),
        Preparing::Compiling => "compiling the table".into(),
    };
    if let Ok(mut s) = stage.lock() {
        *s = text;
    }
}
