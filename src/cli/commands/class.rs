//! `matchbox class`: serves one machine to the whole class and reports the lesson in the
//! terminal until Ctrl-C or the teacher ends it.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::*;
use crate::class::secrets::Secrets;
use crate::class::{Cmd, Config, Keeping};
use crate::cli::ClassArgs;
use crate::cli::setup::{match_spec, opponent_or_default};
use crate::learn::lesson::{Event, Lesson, LessonSpec};
use crate::players::Opponent;

/// The machine's file of a lesson of the game `name`.
fn save_of(a: &ClassArgs, name: &str) -> PathBuf {
    (a.save.clone()).unwrap_or_else(|| PathBuf::from(format!("{name}-class.yaml")))
}

/// A lesson's log, beside its machine's file `save`.
fn log_of(save: &Path) -> PathBuf {
    PathBuf::from(format!("{}.log", save.display()))
}

/// The game of a lesson: the command line's, checked against the log it replays or resumes
/// (whose size it takes where the command gives none).
pub(super) fn class_kind(a: &ClassArgs) -> Result<crate::games::GameKind> {
    let log = match (&a.replay, a.resume) {
        (Some(log), _) => log.clone(),
        (None, true) => log_of(&save_of(a, learn_kind(&a.learn)?.name())),
        (None, false) => return learn_kind(&a.learn),
    };
    match log.exists() {
        true => super::lesson_log::kind(&a.learn.game, &log),
        false => learn_kind(&a.learn),
    }
}

pub(super) fn class<G: FullGame + Send>(game: G, a: &ClassArgs) -> Result<()>
where
    G::Position: Send,
    G::Move: Send,
{
    if let Some(log) = &a.replay {
        return Out::new(a.json).report(&replay(&game, log, a)?);
    }
    // Every option checked before any file is touched.
    let page = page_folder(a.page.as_deref())?;
    let save = save_of(a, game.name());
    let log_path = log_of(&save);
    let secrets_path = Secrets::path_for(&save);
    let resumed = a.learn.machine.boxes.as_deref();
    let mut kept = None;
    if !a.resume {
        if log_path.exists() && !a.force {
            bail!(
                "{}: a lesson is there ({} finished, its log in {}): --resume continues it with the same code; --force starts a new one and keeps the old machine and log beside",
                save.display(),
                crate::text::count(finished_in(&log_path), "game", "games"),
                log_path.display()
            );
        }
        store::check_writable(&save)?;
        if !log_path.exists() {
            store::check_replace("--save", &save, resumed, a.force)?;
        }
        if log_path.exists() {
            kept = Some(keep_beside(&save, &log_path, &secrets_path)?);
        }
    }
    if a.resume
        && let Some(said) = keep_unknown_machine(&save, &secrets_path)?
    {
        eprintln!("{said}");
    }
    // The port first: a start refused for it (a second start on a double-click, say) has
    // touched no file, and the running lesson's log is not the loser's.
    let listener = std::net::TcpListener::bind(a.listen)
        .with_context(|| format!("--listen {}: could not listen there", a.listen))?;
    store::claim(&save)?;
    let (lesson, log) = match a.resume {
        true => resume(&game, &log_path)?,
        false => fresh(&game, a, &log_path)?,
    };
    let mut config = Config::fresh(a.listen);
    let secrets = match Secrets::load(&secrets_path)?.filter(|_| a.resume) {
        Some(s) => {
            (config.code, config.token) = (s.code.clone(), s.token.clone());
            s
        }
        None => {
            let s = Secrets::fresh(secrets_path, config.code.clone(), config.token.clone());
            s.save()?;
            s
        }
    };
    if let Some(kept) = kept {
        println!("{kept}");
    }
    let keep = Keeping {
        save: save.clone(),
        every: a.every,
        log: Some(log),
        secrets: Some(secrets),
        tap: (a.tap_time > 0).then(|| std::time::Duration::from_secs(a.tap_time)),
        join: None,
        saved: Default::default(),
        save_apart_from: crate::class::actor::SAVE_APART_FROM,
    };
    let saved = std::sync::Arc::clone(&keep.saved);
    // The server's journal beside the lesson: the terminal keeps its one status line.
    let journal = PathBuf::from(format!("{}.server.log", save.display()));
    crate::class::journal::to_file(&journal).with_context(|| {
        format!(
            "{}: could not write the server's journal",
            journal.display()
        )
    })?;
    config.page = page;
    config.limits.connections = a.max_pupils as usize;
    config.limits.per_second = a.rate;
    config.limits.burst = a.rate.saturating_mul(3);
    let runtime = tokio::runtime::Runtime::new().context("could not start the server")?;
    let lesson = runtime.block_on(serve(listener, lesson, keep, config))?;
    let saved = saved.lock().unwrap_or_else(|e| e.into_inner()).clone();
    last_word(&lesson, &saved, &log_path)
}

/// The program's last word on the lesson: its games and where the machine is saved, or (a
/// failed save, said as an error) where the games are kept to rebuild it from.
fn last_word<G: FullGame>(
    lesson: &Lesson<G>,
    saved: &crate::class::Saved,
    log_path: &Path,
) -> Result<()> {
    let score = lesson.score();
    let (w, d, l) = (score.wins, score.draws, score.losses);
    let played = crate::text::count(w + d + l, "game", "games");
    if let Some(e) = &saved.error {
        bail!(
            "the lesson is over: {played} (the machine won {w}, drew {d}, lost {l}), but the machine could not be saved: {e}; every game is in the log {}: `matchbox class --resume` rebuilds it from there",
            log_path.display()
        );
    }
    println!(
        "the lesson is over: {played} (the machine won {w}, drew {d}, lost {l}); the machine saved to {} ({} games in all), the log in {}",
        saved.path.display(),
        lesson.machine().games_played,
        log_path.display()
    );
    Ok(())
}

/// At `--resume`: the file at `--save`, if it is not as the lesson last saved it (edited by
/// hand, another machine copied there, a lesson without that note), moved beside it — the
/// resumed lesson saves its own machine there — and what was done, to say.
fn keep_unknown_machine(save: &Path, secrets: &Path) -> Result<Option<String>> {
    let Some(now) = Secrets::stamp_of(save) else {
        return Ok(None);
    };
    let last = Secrets::load(secrets).ok().flatten().and_then(|s| s.saved);
    if last.as_deref() == Some(now.as_str()) {
        return Ok(None);
    }
    let kept = store::beside(save);
    std::fs::rename(save, &kept).with_context(|| {
        format!(
            "{}: could not keep it as {}",
            save.display(),
            kept.display()
        )
    })?;
    Ok(Some(format!(
        "{} was not the machine as this lesson last saved it (changed since): kept as {}; the lesson's own machine is saved in its place",
        save.display(),
        kept.display()
    )))
}

/// The lesson the options ask for, as data: the match `train` would play with the same
/// options (its opponent the class's game's), with what a lesson cannot do refused.
fn lesson_spec<G: FullGame>(game: &G, a: &ClassArgs) -> Result<LessonSpec<G>> {
    if a.learn.games.is_some() {
        bail!(
            "--games: a lesson lasts as long as the class plays; the teacher ends it from the projector (or Ctrl-C here)"
        );
    }
    let opts = MachineOptions::new(
        SetOptions::for_game(&a.learn.set, &a.learn.game.game),
        &a.learn.machine,
    );
    // The class's game plays the perfect player where the game can be solved, else the random.
    let opponent = match &a.learn.opponent {
        Some(o) => o.clone(),
        None => match opponent_or_default(game, None).kind {
            Opponent::Perfect => opponent_or_default(game, None),
            _ => crate::cli::OpponentSpec {
                kind: Opponent::Random,
                file: None,
            },
        },
    };
    if !matches!(opponent.kind, Opponent::Perfect | Opponent::Random) {
        bail!(
            "--opponent {}: a lesson's class game plays perfect or random (the pupils play the machine themselves)",
            opponent.kind
        );
    }
    let spec = match_spec(game, &opts, &opponent, a.learn.tie_break)?;
    Ok(LessonSpec { spec })
}

/// The games finished in a lesson's log (its lines that end a game).
fn finished_in(log: &Path) -> u64 {
    let text = std::fs::read_to_string(log).unwrap_or_default();
    text.lines()
        .filter(|l| l.contains(r#""event":"ended""#))
        .count() as u64
}

/// A lesson replaced with `--force`: its machine, log and secrets moved to free names beside
/// (as a reset keeps the machine it replaces); what was kept where, in words.
fn keep_beside(save: &Path, log: &Path, secrets: &Path) -> Result<String> {
    let machine = save.exists().then(|| store::beside(save));
    if let Some(to) = &machine {
        std::fs::rename(save, to).with_context(|| {
            format!("{}: could not keep it as {}", save.display(), to.display())
        })?;
    }
    let old_log = PathBuf::from(format!(
        "{}.log",
        machine.as_deref().unwrap_or(save).display()
    ));
    let old_log = match old_log.exists() {
        true => store::beside(&old_log),
        false => old_log,
    };
    std::fs::rename(log, &old_log).with_context(|| {
        format!(
            "{}: could not keep it as {}",
            log.display(),
            old_log.display()
        )
    })?;
    let _ = std::fs::remove_file(secrets);
    Ok(format!(
        "the lesson that was there is kept: {}the log in {}",
        match &machine {
            Some(m) => format!("the machine in {}, ", m.display()),
            None => String::new(),
        },
        old_log.display()
    ))
}

/// A new lesson: the learner the options ask for, and a log that starts with it.
fn fresh<G: FullGame>(game: &G, a: &ClassArgs, log: &Path) -> Result<(Lesson<G>, std::fs::File)> {
    let spec = lesson_spec(game, a)?;
    let (machine, made) = match &spec.spec.learner {
        crate::learn::Source::Loaded(m) => (m.clone(), false),
        crate::learn::Source::Fresh(s) => (s.build(game)?, true),
    };
    let began = super::lesson_log::Began::of(&spec, game, &machine, made);
    let spec = LessonSpec {
        spec: crate::learn::MatchSpec {
            learner: crate::learn::Source::Loaded(machine),
            ..spec.spec
        },
    };
    let lesson = spec.build(game.clone())?;
    // A new file only: a lesson's log is never truncated (the old one was kept beside).
    let mut f = (std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(log))
    .with_context(|| format!("{}: could not write the log", log.display()))?;
    writeln!(f, "{}", serde_json::to_string(&began)?)?;
    Ok((lesson, f))
}

/// The lesson of a log, replayed (a last line cut short by a crash left out), and its events.
fn read_log<G: FullGame>(game: &G, log: &Path) -> Result<(Lesson<G>, Vec<Event>)> {
    super::lesson_log::read(game, log).map(|(_, lesson, events)| (lesson, events))
}

/// The lesson of a log, replayed; the pupils of then have gone, their games abandoned.
fn resume<G: FullGame>(game: &G, log: &Path) -> Result<(Lesson<G>, std::fs::File)> {
    let name = log.display();
    let (lesson, events) = read_log(game, log)?;
    let mut f = std::fs::OpenOptions::new().append(true).open(log)?;
    // What a crash cut short — a last line, a step's events — is cut off: the log goes on from
    // its first line and the whole steps read (a whole last event missing only its newline gets
    // it), so the next event starts a line of its own.
    let text = std::fs::read(log)?;
    let keep = 1 + events.len();
    let ends: Vec<usize> = (text.iter().enumerate())
        .filter(|&(_, &b)| b == b'\n')
        .map(|(i, _)| i + 1)
        .collect();
    match ends.get(keep - 1) {
        Some(&end) if end < text.len() => f.set_len(end as u64)?,
        Some(_) => {}
        None => f.write_all(b"\n")?,
    }
    // The pupils of then are gone until their pages come back (with their keys).
    eprintln!(
        "resumed the lesson of {name}: {} finished, the machine at {} games",
        crate::text::count(
            events
                .iter()
                .filter(|e| matches!(e, Event::Ended { .. }))
                .count() as u64,
            "game",
            "games"
        ),
        lesson.machine().games_played
    );
    Ok((lesson, f))
}

/// Serves the lesson until the teacher ends it or Ctrl-C; the lesson as it ended.
async fn serve<G: FullGame + Send>(
    listener: std::net::TcpListener,
    lesson: Lesson<G>,
    keep: Keeping,
    config: Config,
) -> Result<Lesson<G>>
where
    G::Position: Send,
    G::Move: Send,
{
    let (code, token) = (config.code.clone(), config.token.clone());
    let keep_save = keep.save.clone();
    let page = config.page.is_some();
    let listen = config.listen;
    let running = crate::class::start_on(listener, lesson, keep, config)
        .await
        .with_context(|| format!("could not listen on {listen}"))?;
    let hosts = crate::class::reachable_hosts(running.addr);
    let host = &hosts[0];
    // The pupils' part first (what a projected terminal may show), the teacher's apart.
    println!(
        "pupils: open http://{host}/ and type the code {code}   (the projector shows both, and a QR code)"
    );
    for other in &hosts[1..] {
        println!("        or http://{other}/ on another network of this laptop");
    }
    if running.addr.ip().is_unspecified() && host.starts_with("127.") {
        println!("        (this laptop is on no network: only its own browser can join)");
    }
    println!(
        "phones that cannot reach the laptop: the school Wi-Fi may keep devices apart; use the laptop's hotspot"
    );
    match page {
        true => println!("the page (watch, play, labels, charts): http://{host}/page/"),
        false => println!(
            "the page (watch, play) is not built here: web/build.sh builds it, or give --page DIR"
        ),
    }
    println!();
    println!(
        "teacher, for the projector (keep this address to yourself; it works again after --resume):"
    );
    println!("  http://{host}/teacher?token={token}");
    println!();
    println!(
        "(what happens to connections is written to {}.server.log)",
        keep_save.display()
    );
    let (tx, mut rx) = tokio::sync::mpsc::channel::<String>(64);
    let _ = running.inbox.send(Cmd::Watch(tx)).await;
    let inbox = running.inbox.clone();
    tokio::spawn(async move {
        stopped().await;
        let _ = inbox.send(Cmd::Stop).await;
    });
    let mut status = Status::default();
    while let Some(msg) = rx.recv().await {
        if let Ok(crate::class::protocol::ToClient::Class {
            pupils,
            score,
            under_way,
            ..
        }) = serde_json::from_str(&msg)
        {
            let here = pupils.iter().filter(|p| p.here).count() as u64;
            status.show(format!(
                "{} here ({} in the lesson) · {} finished, {under_way} under way · the machine won {}, drew {}, lost {}",
                crate::text::count(here, "pupil", "pupils"),
                pupils.len(),
                crate::text::count(score.0 + score.1 + score.2, "game", "games"),
                score.0,
                score.1,
                score.2
            ));
        }
    }
    status.done();
    running.finished.await.context("the lesson stopped")
}

/// Until the lesson is asked to stop: Ctrl-C, or (Unix) SIGTERM or SIGHUP — a shutdown, a
/// logout, the terminal's window closed — each of which ends it as the teacher would, saving.
async fn stopped() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let (Ok(mut term), Ok(mut hup)) = (
            signal(SignalKind::terminate()),
            signal(SignalKind::hangup()),
        ) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
                _ = hup.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

/// The lesson's status in the terminal: one line, rewritten in place on a terminal; a line a
/// change (at most one every few seconds) where the output is a file.
#[derive(Default)]
struct Status {
    said: String,
    at: Option<std::time::Instant>,
}

impl Status {
    fn show(&mut self, line: String) {
        if line == self.said {
            return;
        }
        let tty = std::io::IsTerminal::is_terminal(&std::io::stderr());
        if tty {
            eprint!("\r\x1b[2K{line}");
        } else if self
            .at
            .is_none_or(|t| t.elapsed() >= std::time::Duration::from_secs(5))
        {
            eprintln!("{line}");
            self.at = Some(std::time::Instant::now());
        } else {
            return;
        }
        self.said = line;
    }
    fn done(&self) {
        if std::io::IsTerminal::is_terminal(&std::io::stderr()) && !self.said.is_empty() {
            eprintln!();
        }
    }
}

/// What `class --replay LOG` found: the lesson's log replayed, and the machine it leads to.
#[derive(serde::Serialize)]
struct ReplayReport {
    log: String,
    events: usize,
    /// The lesson's finished games, and the machine's results in them.
    games: u64,
    won: u64,
    drawn: u64,
    lost: u64,
    /// The machine's games in all (before the lesson too), and a digest of its beads.
    games_played: u64,
    digest: String,
    saved: Option<String>,
}

impl std::fmt::Display for ReplayReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{}: {} replayed: {} (the machine won {}, drew {}, lost {}); the machine at {} games in all, digest {}",
            self.log,
            crate::text::count(self.events as u64, "event", "events"),
            crate::text::count(self.games, "game", "games"),
            self.won,
            self.drawn,
            self.lost,
            crate::text::group(self.games_played),
            self.digest
        )?;
        if let Some(path) = &self.saved {
            writeln!(f, "the machine saved to {path}")?;
        }
        Ok(())
    }
}

/// `class --replay LOG`: the log replayed on its own (no server), the machine it leads to
/// reported and, with `--save`, written.
fn replay<G: FullGame>(game: &G, log: &Path, a: &ClassArgs) -> Result<ReplayReport> {
    if let Some(save) = &a.save {
        if store::same_file(save, log) {
            bail!(
                "{}: --save names the log being replayed: save to another file",
                save.display()
            );
        }
        store::check_writable(save)?;
        store::check_replace("--save", save, None, a.force)?;
    }
    let (lesson, events) = read_log(game, log)?;
    let s = lesson.score();
    let (won, drawn, lost) = (s.wins, s.draws, s.losses);
    let m = lesson.machine();
    if let Some(save) = &a.save {
        store::save_machine(save, game, m)?;
    }
    Ok(ReplayReport {
        log: crate::text::quote(&log.display().to_string()),
        events: events.len(),
        games: won + drawn + lost,
        won,
        drawn,
        lost,
        games_played: m.games_played,
        digest: m.digest(),
        saved: a
            .save
            .as_ref()
            .map(|p| crate::text::quote(&p.display().to_string())),
    })
}

/// The page's folder to serve: the one asked for (it must hold `index.html`), else `page/` beside
/// the program (a release's archive) or `web/dist` here (a built checkout), where either holds it.
fn page_folder(asked: Option<&Path>) -> Result<Option<PathBuf>> {
    let holds_page = |d: &Path| d.join("index.html").is_file();
    if let Some(dir) = asked {
        if !holds_page(dir) {
            bail!(
                "{}: --page: no index.html there (web/build.sh builds the page into web/dist)",
                crate::text::quote(&dir.display().to_string())
            );
        }
        return Ok(Some(dir.to_path_buf()));
    }
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|d| d.join("page")));
    Ok(beside
        .into_iter()
        .chain([PathBuf::from("web/dist")])
        .find(|d| holds_page(d)))
}
