//! `operate`: the program beside a real MENACE or HER, leading its operator game by game (see
//! [`crate::learn::real::operate`]), a line typed at a time: the colour of the bead drawn, the
//! visitor's move, `undo`, `audit N`, `beads`, Enter for the next game, `quit`. Nothing typed
//! stops it but `quit` (or the end of the input): a mistyped colour or move is said and asked
//! again. Every finished game goes to the session's record (`--record`, one game a line, its
//! settings in a header), which the same command continues after a restart and `train --record`
//! learns from.

use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};

use super::record::RecordFile;
use super::*;
use crate::cli::OperateArgs;
use crate::learn::real::operate::{FirstBox, Operator};
use crate::view::operate::{Answer, Desk, Shown, Tapped, turn_lines};

/// The longest line read: more is not a colour, a move or a command.
const MAX_LINE: u64 = 1024;

/// What [`read_line`] gives for a line too long (a NUL no keyboard types).
const TOO_LONG: &str = "\0too long";

/// What a session ends with.
#[derive(serde::Serialize)]
pub(super) struct OperateReport {
    games: usize,
    wins: usize,
    draws: usize,
    losses: usize,
    record: String,
    saved: Option<String>,
}

impl std::fmt::Display for OperateReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} in the record {} (the machine won {}, drew {}, lost {})",
            crate::text::count(self.games as u64, "game", "games"),
            self.record,
            self.wins,
            self.draws,
            self.losses
        )?;
        if let Some(s) = &self.saved {
            writeln!(f, "the copy of the machine saved to {s}")?;
        }
        Ok(())
    }
}

/// The session's record file: `--record`, or `<stem>-real.txt`.
pub(super) fn record_path(a: &OperateArgs, stem: &str) -> PathBuf {
    (a.record.clone()).unwrap_or_else(|| PathBuf::from(format!("{stem}-real.txt")))
}

/// The default record's name before `-real.txt`: the game's, and its size where it is not the
/// game's own (`hexapawn`, `hexapawn-4x4`).
pub(super) fn record_stem<G: FullGame>(game: &G) -> String {
    let typed = crate::games::GameKind::parse(game.name(), game.size_key().as_deref());
    let plain = crate::games::GameKind::parse(game.name(), None);
    match (typed, plain) {
        (Ok(t), Ok(p)) if t != p => {
            format!("{}-{}", game.name(), game.size_key().unwrap_or_default())
        }
        _ => game.name().to_string(),
    }
}

pub(super) fn operate<G: FullGame>(
    game: G,
    a: &OperateArgs,
    rec: Option<&RecordFile>,
    out: Out,
) -> Result<OperateReport> {
    let path = record_path(a, &record_stem(&game));
    if let Some(save) = &a.save {
        store::check_distinct(&[("--record", &path), ("--save", save)])?;
        // A session continued saves over its own copy; a new one over nothing it did not read.
        store::check_replace(
            "--save",
            save,
            a.learn.machine.boxes.as_deref(),
            rec.is_some(),
        )?;
        store::check_writable(save)?;
    }
    let revive = a.first_box.as_deref() != Some("resign");
    let rule = match rec.map_or(revive, |r| r.revive) {
        true => FirstBox::Revive,
        false => FirstBox::Resign,
    };
    let s = Setup::new(game, &a.learn)?;
    // Real boxes: every one made and labelled before the first game.
    crate::view::operate::operable(s.game(), s.machine()).map_err(anyhow::Error::msg)?;
    if let Some(rec) = rec {
        super::record::check_start(rec, s.machine())?;
    }
    let header = crate::learn::real::operate::record_header(s.game(), s.machine(), rule);
    let mut op = Operator::new(s.bout, a.bead_colours.into(), rule);
    let under_way = under_way_path(&path);
    if let Some(rec) = rec {
        continue_record(&mut op, rec)?;
    }
    let file = open_record(&path, rec.is_some(), &header)?;
    let written = op.lines().len();
    out.preamble(format!(
        "operating the real machine; the record: {} ({} so far)\n",
        path.display(),
        crate::text::count(op.lines().len() as u64, "game", "games")
    ));
    if rec.is_some() {
        let moves = resume_under_way(&mut op, &under_way);
        if moves > 0 {
            out.preamble(format!(
                "the game under way when the session stopped: {} played again\n",
                crate::text::count(moves as u64, "step", "steps")
            ));
        }
    }
    let mut desk = Session {
        op,
        file,
        written,
        path: &path,
        save: a.save.as_deref(),
        room: room(a.projector)?,
    };
    // The room's page has the first step before its address is said.
    desk.show_room();
    say_room(&desk.room, out);
    match a.lines || !crate::tui::has_terminal() {
        true => by_lines(&mut desk)?,
        false => crate::tui::operate_screen(&mut desk)?,
    }
    desk.op.next_game();
    write_finished(&mut desk.file, &desk.op, &mut desk.written, desk.path)?;
    keep_under_way(&desk.op, &under_way)?;
    save(desk.save, &desk.op)?;
    let op = &desk.op;
    let (wins, draws, losses) = op.tally();
    Ok(OperateReport {
        games: wins + draws + losses,
        wins,
        draws,
        losses,
        record: path.display().to_string(),
        saved: a.save.as_ref().map(|p| p.display().to_string()),
    })
}

/// The session at the boxes: the operator's steps, the record written as games finish, the copy
/// saved after each.
struct Session<'a, G: FullGame> {
    op: Operator<G>,
    file: std::fs::File,
    written: usize,
    path: &'a Path,
    save: Option<&'a Path>,
    #[cfg_attr(not(feature = "class"), allow(dead_code))]
    room: Option<Room>,
}

#[cfg(feature = "class")]
type Room = crate::class::mirror::Mirror;
#[cfg(not(feature = "class"))]
type Room = std::convert::Infallible;

/// The room's projector page served at `addr` (`--projector`).
#[cfg(feature = "class")]
fn room(addr: Option<std::net::SocketAddr>) -> Result<Option<Room>> {
    let Some(addr) = addr else {
        return Ok(None);
    };
    let listener = (std::net::TcpListener::bind(addr))
        .with_context(|| format!("--projector: could not listen on {addr}"))?;
    let room = Room::start(listener).with_context(|| format!("--projector {addr}"))?;
    Ok(Some(room))
}

/// The room's page's address, said.
#[cfg(feature = "class")]
fn say_room(room: &Option<Room>, out: Out) {
    if let Some(room) = room {
        let host = &crate::class::reachable_hosts(room.addr())[0];
        out.preamble(format!(
            "the room's screen: open http://{host}/ on the projector (it follows every step)\n"
        ));
    }
}

#[cfg(not(feature = "class"))]
fn say_room(_: &Option<Room>, _: Out) {}

#[cfg(not(feature = "class"))]
fn room(addr: Option<std::net::SocketAddr>) -> Result<Option<Room>> {
    match addr {
        Some(_) => bail!("--projector: this matchbox was built without the class server"),
        None => Ok(None),
    }
}

impl<G: FullGame> Session<'_, G> {
    /// What the operator does now, in plain lines (the diagrams among them).
    fn lines(&self) -> Vec<String> {
        turn_lines(&self.op)
    }

    /// The step drawn for the room's projector, where one is served.
    fn show_room(&self) {
        #[cfg(feature = "class")]
        if let Some(room) = &self.room {
            room.show(room_html(&self.op));
        }
    }

    /// A line typed: its answer; an error where the record or the copy cannot be written.
    fn answer(&mut self, line: &str) -> Result<Answer> {
        let answer = match crate::view::operate::command(&mut self.op, line) {
            Ok(None) => Answer::End,
            Ok(Some(shown)) => Answer::Shown(shown),
            Err(e) => Answer::Mistake(e.to_string()),
        };
        self.show_room();
        write_finished(&mut self.file, &self.op, &mut self.written, self.path)?;
        keep_under_way(&self.op, &under_way_path(self.path))?;
        save(self.save, &self.op)?;
        Ok(answer)
    }
}

impl<G: FullGame> Desk for Session<'_, G> {
    fn shown(&self) -> Shown {
        crate::view::operate::shown(&self.op, crate::view::operate::Voice::Typing)
    }

    fn submit(&mut self, line: &str) -> Result<Answer, String> {
        self.answer(line).map_err(|e| format!("{e:#}"))
    }

    fn tap(&self, picked: Option<&str>, col: u16, row: u16) -> Tapped {
        crate::view::operate::tap(&self.op, picked, col, row)
    }
}

/// The room's screen of the step now, as HTML: 70×22 cells (about a projector's 16:9 in the
/// page's font, large enough for the back of the room), more rows for a board that needs them.
#[cfg(feature = "class")]
fn room_html<G: FullGame>(op: &Operator<G>) -> String {
    let shown = crate::view::operate::shown(op, crate::view::operate::Voice::Room);
    let rows = 22.max(shown.panels.board.len() as u16 * 2 + 14);
    let backend = ratatui::backend::TestBackend::new(70, rows);
    let mut screen = ratatui::Terminal::new(backend).expect("a screen in memory");
    let drawn = screen.draw(|f| crate::view::render::operate_room(f, &shown));
    drawn.map_or_else(
        |_| String::new(),
        |frame| crate::view::render::buffer_html(frame.buffer),
    )
}

/// The session a line at a time on standard input and output (a pipe, or `--lines`): each
/// step's lines, then what is typed; after a command's answer or a mistake, what is asked again.
fn by_lines<G: FullGame>(desk: &mut Session<G>) -> Result<()> {
    let mut say = std::io::stdout().lock();
    lines(&mut say, &desk.lines())?;
    let mut input = std::io::stdin().lock();
    while let Some(line) = read_line(&mut input)? {
        if line == TOO_LONG {
            let said = format!(
                "  ✗ a line of more than {MAX_LINE} bytes: not a colour, a move or a command"
            );
            lines(&mut say, &[said, desk.lines().pop().unwrap_or_default()])?;
            continue;
        }
        match desk.answer(&line)? {
            Answer::End => break,
            Answer::Shown(shown) if shown.is_empty() => lines(&mut say, &desk.lines())?,
            Answer::Shown(mut shown) => {
                shown.push(desk.lines().pop().unwrap_or_default());
                lines(&mut say, &shown)?;
            }
            Answer::Mistake(e) => {
                let asked = desk.lines().pop().unwrap_or_default();
                lines(&mut say, &[format!("  ✗ {e}"), asked])?;
            }
        }
    }
    Ok(())
}

/// The record's games played again on the session (after a restart).
fn continue_record<G: FullGame>(op: &mut Operator<G>, rec: &RecordFile) -> Result<()> {
    (op.continue_with(&rec.record.games)).map_err(|e| anyhow::anyhow!("{}: {e}", rec.name))
}

/// Where the game under way is kept beside the record (`FILE.under-way`): its moves so far,
/// written after each step until the game is in the record, so a laptop that restarts mid-game
/// (or before the next game, the last one's beads being done at the boxes) loses nothing.
fn under_way_path(record: &Path) -> PathBuf {
    let mut name = record.as_os_str().to_owned();
    name.push(".under-way");
    PathBuf::from(name)
}

/// The game under way kept (atomically), or its file removed once the game is in the record.
fn keep_under_way<G: FullGame>(op: &Operator<G>, path: &Path) -> Result<()> {
    match op.words().is_empty() {
        true => match std::fs::remove_file(path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(e).with_context(|| format!("{}: could not remove it", path.display()))
            }
            _ => Ok(()),
        },
        false => Ok(store::save_atomic(path, &(op.words().join(" ") + "\n"))?),
    }
}

/// The game under way when the session stopped, played again (as far as its moves go: the file
/// is at most a line of moves); the steps played.
fn resume_under_way<G: FullGame>(op: &mut Operator<G>, path: &Path) -> usize {
    let text = std::fs::read(path).unwrap_or_default();
    let text = String::from_utf8_lossy(&text[..text.len().min(4096)]).into_owned();
    let words: Vec<String> = text.split_whitespace().map(String::from).collect();
    match op.replay_words(&words) {
        Ok(()) => words.len(),
        Err((i, _)) => i,
    }
}

/// The record file, opened to append (a new one begun with `header`); its games so far are
/// those `continued` read.
fn open_record(path: &Path, continued: bool, header: &str) -> Result<std::fs::File> {
    let name = path.display();
    if !continued {
        let mut f = (std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path))
        .with_context(|| format!("{name}: could not begin the record"))?;
        f.write_all(header.as_bytes())?;
        f.sync_all()?;
        return Ok(f);
    }
    let mut f = (std::fs::OpenOptions::new().append(true).open(path))
        .with_context(|| format!("{name}: could not continue the record"))?;
    // A last line missing its newline gets one, so the next game starts a line of its own.
    let text = std::fs::read(path)?;
    if !text.is_empty() && !text.ends_with(b"\n") {
        f.write_all(b"\n")?;
    }
    Ok(f)
}

/// Appends to the record the games finished and done at the boxes since last written (a game
/// just over may still be undone: it is written once the next game begins), and syncs it.
fn write_finished<G: FullGame>(
    file: &mut std::fs::File,
    op: &Operator<G>,
    written: &mut usize,
    path: &Path,
) -> Result<()> {
    let lines = op.lines();
    let done = lines.len() - usize::from(op.is_over());
    if done <= *written {
        return Ok(());
    }
    let text: String = lines[*written..done]
        .iter()
        .map(|l| format!("{l}\n"))
        .collect();
    (file
        .write_all(text.as_bytes())
        .and_then(|()| file.sync_data()))
    .with_context(|| format!("{}: could not write the record", path.display()))?;
    *written = done;
    Ok(())
}

/// Saves the copy where asked (after each game).
fn save<G: FullGame>(path: Option<&Path>, op: &Operator<G>) -> Result<()> {
    match path {
        Some(p) => Ok(store::save_machine(p, op.game(), op.machine())?),
        None => Ok(()),
    }
}

/// Writes `lines` to the operator's screen; a closed output ends the session quietly.
fn lines(out: &mut impl Write, lines: &[String]) -> Result<()> {
    for l in lines {
        writeln!(out, "{l}")?;
    }
    out.flush()?;
    Ok(())
}

/// The next line typed (at most [`MAX_LINE`] bytes kept; any bytes, read as text), or `None` at
/// the end of the input.
fn read_line(input: &mut impl BufRead) -> Result<Option<String>> {
    let mut buf = Vec::new();
    let n = input.by_ref().take(MAX_LINE).read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(None);
    }
    if !buf.ends_with(b"\n") && n as u64 == MAX_LINE {
        // The rest of a line too long to be a command.
        let mut rest = Vec::new();
        while input.by_ref().take(MAX_LINE).read_until(b'\n', &mut rest)? as u64 == MAX_LINE
            && !rest.ends_with(b"\n")
        {
            rest.clear();
        }
        return Ok(Some(TOO_LONG.into()));
    }
    Ok(Some(String::from_utf8_lossy(&buf).into_owned()))
}
