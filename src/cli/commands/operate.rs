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
use crate::learn::real::operate::{FirstBox, Operator, OperatorError};
use crate::view::operate::{audit_line, inventory_lines, turn_lines};

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
    let boxes = &s.machine().boxes;
    if boxes.is_lazy() || crate::labels::too_many(boxes.len()).is_some() {
        bail!(
            "operate is for a machine of real matchboxes, every box labelled (at most {}): {} {} has {}",
            crate::text::group(crate::labels::MAX_LABELS as u64),
            s.game().name(),
            s.game().variant(),
            match boxes.is_lazy() {
                true => "boxes made as its positions come up".to_string(),
                false => format!("{} boxes", crate::text::group(boxes.len() as u64)),
            }
        );
    }
    if let Some(rec) = rec {
        super::record::check_start(rec, s.machine())?;
    }
    let header = header(&s, rule);
    let mut op = Operator::new(s.bout, a.bead_colours.into(), rule);
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
    let mut desk = Session {
        op,
        file,
        written,
        path: &path,
        save: a.save.as_deref(),
    };
    match a.lines || !crate::tui::has_terminal() {
        true => by_lines(&mut desk)?,
        false => crate::tui::operate_screen(&mut desk)?,
    }
    desk.op.next_game();
    write_finished(&mut desk.file, &desk.op, &mut desk.written, desk.path)?;
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
}

impl<G: FullGame> crate::tui::Desk for Session<'_, G> {
    fn lines(&self) -> Vec<String> {
        turn_lines(&self.op)
    }

    fn submit(&mut self, line: &str) -> Result<Option<Result<Vec<String>, String>>> {
        let result = match command(&mut self.op, line.trim()) {
            Ok(None) => return Ok(None),
            Ok(Some(shown)) => Ok(shown),
            Err(e) => Err(e.to_string()),
        };
        write_finished(&mut self.file, &self.op, &mut self.written, self.path)?;
        save(self.save, &self.op)?;
        Ok(Some(result))
    }
}

/// The session a line at a time on standard input and output (a pipe, or `--lines`): each
/// step's lines, then what is typed; after a command's answer or a mistake, what is asked again.
fn by_lines<G: FullGame>(desk: &mut Session<G>) -> Result<()> {
    use crate::tui::Desk;
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
        match desk.submit(&line)? {
            None => break,
            Some(Ok(shown)) if shown.is_empty() => lines(&mut say, &desk.lines())?,
            Some(Ok(mut shown)) => {
                shown.push(desk.lines().pop().unwrap_or_default());
                lines(&mut say, &shown)?;
            }
            Some(Err(e)) => {
                let asked = desk.lines().pop().unwrap_or_default();
                lines(&mut say, &[format!("  ✗ {e}"), asked])?;
            }
        }
    }
    Ok(())
}

/// The record's header: the settings the session's copy was made with.
fn header<G: FullGame>(s: &Setup<G>, rule: FirstBox) -> String {
    let (g, m) = (s.game(), s.machine());
    let mut out = format!("# matchbox: the games of a real {}\n", g.name());
    out.push_str(&format!("game: {}\n", g.name()));
    if let Some(size) = g.size_key() {
        out.push_str(&format!("size: {size}\n"));
    }
    out.push_str(&format!("machine: {}\n", g.side_name(m.boxes.side())));
    out.push_str(&format!("symmetry: {}\n", m.boxes.mode()));
    out.push_str(&format!("beads: {}\n", m.initial));
    out.push_str(&format!("reinforcement: {}\n", m.reinforcement));
    let rule = match rule {
        FirstBox::Revive => "revive",
        FirstBox::Resign => "resign",
    };
    out.push_str(&format!("first_box: {rule}\n"));
    out.push_str(&format!("start: {}\n\n", m.digest()));
    out
}

/// The record's games played again on the session (after a restart).
fn continue_record<G: FullGame>(op: &mut Operator<G>, rec: &RecordFile) -> Result<()> {
    for g in &rec.record.games {
        for (i, w) in g.words.iter().enumerate() {
            op.record_word(w).map_err(|e| {
                anyhow::anyhow!(
                    "{}: line {}: move {} `{}`: {e}",
                    rec.name,
                    g.line,
                    i + 1,
                    crate::text::quote(w)
                )
            })?;
        }
        if !op.is_over() {
            bail!(
                "{}: line {}: the game is not over after its moves",
                rec.name,
                g.line
            );
        }
        op.next_game();
    }
    Ok(())
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

/// One line typed, done: the lines to show (`None`: the session ends).
fn command<G: FullGame>(
    op: &mut Operator<G>,
    text: &str,
) -> Result<Option<Vec<String>>, OperatorError> {
    let lower = text.to_ascii_lowercase();
    let mut words = lower.split_whitespace();
    match (words.next(), words.next()) {
        (None, _) | (Some("next"), None) => {
            op.next_game();
        }
        (Some("quit" | "q" | "exit"), None) => return Ok(None),
        (Some("undo" | "u"), None) => op.undo()?,
        (Some("help" | "?"), None) => return Ok(Some(help())),
        (Some("beads" | "inventory"), None) => return Ok(Some(inventory_lines(op))),
        (Some("audit"), Some(n)) => {
            let len = op.machine().boxes.len();
            let number = (n.parse()).map_err(|_| {
                OperatorError::Move(format!("`{n}` is not a box number (1 to {len})"))
            })?;
            return Ok(Some(vec![audit_line(number, &op.audit(number)?)]));
        }
        (Some("resign" | "empty"), None) => op.resign()?,
        _ => match op.turn() {
            crate::learn::real::operate::Turn::Machine(_) => op.bead(text)?,
            crate::learn::real::operate::Turn::Visitor(_) => op.visitor(text)?,
            crate::learn::real::operate::Turn::Over(_) => return Err(OperatorError::Over),
        },
    }
    Ok(Some(Vec::new()))
}

fn help() -> Vec<String> {
    crate::view::operate::COMMANDS.map(String::from).to_vec()
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
