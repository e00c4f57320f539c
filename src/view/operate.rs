//! The operator's session in words, for a person at the real boxes: what to do now (the box to
//! open, how the board is turned from its label, each bead's square; or the visitor's move; or,
//! at a game's end, what to do box by box), the audit of a box and the beads' inventory; the
//! real board and the box's label drawn with each bead's square in its colour; the line typed or
//! the place tapped made a command. The same for the terminal and the page.

use ratatui::style::Color;
use ratatui::text::Line;

use super::board::BoardView;
use crate::learn::GameResult;
use crate::learn::real::operate::{Bead, Operator, OperatorError, Turn};
use crate::palette;

/// Whether `m` can be a machine of real matchboxes: every box made and labelled before the
/// first game (not made as positions come up, and no more than the labels print).
pub fn operable<G: BoardView>(game: &G, m: &crate::learn::Machine<G>) -> Result<(), String> {
    let boxes = &m.boxes;
    if !boxes.is_lazy() && crate::labels::too_many(boxes.len()).is_none() {
        return Ok(());
    }
    Err(format!(
        "operate is for a machine of real matchboxes, every box labelled (at most {}): {} {} has {}",
        crate::text::group(crate::labels::MAX_LABELS as u64),
        game.name(),
        game.variant(),
        match boxes.is_lazy() {
            true => "boxes made as its positions come up".to_string(),
            false => format!("{} boxes", crate::text::group(boxes.len() as u64)),
        }
    ))
}

/// What the operator does now, in lines: the board, then the step.
pub fn turn_lines<G: BoardView>(op: &Operator<G>) -> Vec<String> {
    (lines_of(op, true, Voice::Typing).into_iter())
        .map(|s| s.text)
        .collect()
}

/// Whom the step's words are for: an operator who types (a terminal, a pipe), one who taps (the
/// page), or the room watching (`operate --projector`: what happens, not what to press).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Voice {
    Typing,
    Tapping,
    Room,
}

/// A line of the step, and what a screen does with it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Said {
    pub text: String,
    /// The step's own line (the box to open, the visitor's move, the game's end): drawn bold,
    /// kept on a screen too short for the rest.
    pub step: bool,
    /// A bead colour's line: its palette colour, drawn as a dot before it.
    pub colour: Option<usize>,
    /// What a tap on it does: the line it stands for (a bead's letter, `audit N`).
    pub tap: Option<String>,
}

impl Said {
    fn plain(text: String) -> Said {
        Said {
            text,
            ..Said::default()
        }
    }
    fn step(text: String) -> Said {
        Said {
            text,
            step: true,
            ..Said::default()
        }
    }
}

/// What the operator does now, in lines, with the board's and the label's diagrams where
/// `diagrams` (plain lines), or without them (a screen draws them beside), said for `voice`.
fn lines_of<G: BoardView>(op: &Operator<G>, diagrams: bool, voice: Voice) -> Vec<Said> {
    let game = op.game();
    let (w, d, l) = op.tally();
    let mut out = vec![Said::plain(format!(
        "game {} · the machine ({}) has won {w}, drawn {d}, lost {l}",
        w + d + l + usize::from(!op.is_over()),
        game.side_name(op.machine().boxes.side())
    ))];
    if diagrams {
        let board = game.diagram(&op.position());
        out.extend(board.into_iter().map(|l| Said::plain(format!("  {l}"))));
    }
    match op.turn() {
        Turn::Visitor(legal) => {
            let how = match voice {
                Voice::Tapping => ": tap it on the board (or type it)",
                Voice::Typing => ": type it",
                Voice::Room => "",
            };
            out.push(Said::step(format!(
                "the visitor's move ({}){how}",
                legal.join(" ")
            )));
        }
        Turn::Machine(open) if open.box_number == 0 => {
            let text = "the machine has no box here: its move is played for it";
            out.push(Said::step(text.into()));
        }
        Turn::Machine(open) => {
            let m = op.machine();
            out.push(Said::step(format!(
                "the machine's move: open box {}; the board is its label {}",
                open.box_number,
                game.turn_words(open.sym)
            )));
            if diagrams && open.sym != crate::game::Sym::IDENTITY {
                let drawing = game.diagram(&m.boxes.position(open.box_number - 1));
                out.extend((drawing.into_iter()).map(|l| Said::plain(format!("  label: {l}"))));
            }
            for (bead, square) in &open.beads {
                out.push(Said {
                    text: format!("  {}  →  {square} on the board", bead_words(bead)),
                    colour: Some(bead.colour),
                    tap: Some(bead.letter.clone()),
                    step: false,
                });
            }
            out.push(Said::plain(match voice {
                Voice::Tapping => "tap the colour of the bead drawn (or type its name or letter); `resign` if the box is empty",
                Voice::Typing => "type the colour of the bead drawn (its name or letter); `resign` if the box is empty",
                Voice::Room => "a bead is drawn from the box: its colour is the machine's move",
            }.into()));
        }
        Turn::Over(end) => {
            let result = match end.result {
                GameResult::Win => "the machine won",
                GameResult::Draw => "a draw",
                GameResult::Loss => "the machine lost",
            };
            out.push(Said::step(format!(
                "game {} over: {result} ({})",
                end.game, end.why
            )));
            out.extend(end.steps.iter().map(|s| Said {
                text: format!("  {}", s.words()),
                tap: Some(format!("audit {}", s.box_number)),
                ..Said::default()
            }));
            for d in &end.disagreements {
                out.push(Said::plain(format!(
                    "  note: box {}: {} (taken as played: audit box {})",
                    d.box_number, d.words, d.box_number
                )));
            }
            if voice != Voice::Room {
                let text = "Enter: the next game · undo: take the last step back";
                out.push(Said::plain(text.into()));
            }
        }
    }
    out
}

/// A bead colour of a box: "A orange ×3 (b2 on the label)".
pub fn bead_words(b: &Bead) -> String {
    format!(
        "{} {} ×{} ({} on the label)",
        b.letter, b.name, b.count, b.on_label
    )
}

/// What box `number` should hold now, colour by colour.
pub fn audit_line(number: usize, beads: &[Bead]) -> String {
    let each: Vec<String> = beads
        .iter()
        .map(|b| format!("{} {} {}", b.letter, b.name, b.count))
        .collect();
    let n: u32 = beads.iter().map(|b| b.count).sum();
    format!("box {number} should hold {n} beads: {}", each.join(" · "))
}

/// The beads colour by colour: in the boxes now, and how many went to the tray (taken out) or
/// came from the bag (put in) since the session began.
pub fn inventory_lines<G: BoardView>(op: &Operator<G>) -> Vec<String> {
    let mut out = vec!["beads, colour by colour:".to_string()];
    for (c, was, now) in op.inventory() {
        let moved = match now as i64 - was as i64 {
            0 => String::new(),
            d if d < 0 => format!(" ({} in the tray)", -d),
            d => format!(" ({d} more from the bag)"),
        };
        out.push(format!(
            "  {} {}: {now} in the boxes{moved}",
            palette::letter(c),
            palette::arrow(c).name
        ));
    }
    out
}

/// One line typed, done on the session: the lines to show (`None`: the session ends). The same
/// words on the terminal, a pipe and the page.
pub fn command<G: BoardView>(
    op: &mut Operator<G>,
    text: &str,
) -> Result<Option<Vec<String>>, OperatorError> {
    let lower = text.trim().to_ascii_lowercase();
    let mut words = lower.split_whitespace();
    match (words.next(), words.next()) {
        (None, _) | (Some("next"), None) => op.next_game(),
        (Some("quit" | "q" | "exit"), None) => return Ok(None),
        (Some("undo" | "u"), None) => op.undo()?,
        (Some("help" | "?"), None) => return Ok(Some(COMMANDS.map(String::from).to_vec())),
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
            Turn::Machine(_) => op.bead(text.trim())?,
            Turn::Visitor(_) => op.visitor(text.trim())?,
            Turn::Over(_) => return Err(OperatorError::Over),
        },
    }
    Ok(Some(Vec::new()))
}

/// What a tap on the board's square at (`col`, `row`) of its drawing does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tapped {
    /// The visitor's move, to play.
    Play(String),
    /// A piece picked up: now where it goes.
    From(String),
    /// Nothing: why.
    Miss(String),
}

/// The visitor's move tapped on the board: a mark's square, or a piece's square then where it
/// goes (`picked`, the square tapped before), or where only one piece can go.
pub fn tap<G: BoardView>(op: &Operator<G>, picked: Option<&str>, col: u16, row: u16) -> Tapped {
    let miss = |why: String| Tapped::Miss(why);
    match op.turn() {
        Turn::Visitor(_) => {}
        Turn::Machine(_) => {
            return miss("the machine's turn: tap the colour of the bead drawn".into());
        }
        Turn::Over(_) => return miss("the game is over: tap `next game`".into()),
    }
    let (game, pos) = (op.game(), op.position());
    let Some(name) = game.square_at(col, row) else {
        return miss("tap a square of the board".into());
    };
    let ends: Vec<(Option<String>, String, String)> = (game.moves(&pos).into_iter())
        .filter_map(|m| {
            let (from, to) = game.move_ends(m)?;
            Some((from, to, game.format_move_at(&pos, m)))
        })
        .collect();
    let from = |sq: &str, to: Option<&str>| {
        (ends.iter()).find(|e| e.0.as_deref() == Some(sq) && to.is_none_or(|t| e.1 == t))
    };
    if let Some(e) = picked.and_then(|p| from(p, Some(&name))) {
        return Tapped::Play(e.2.clone());
    }
    if from(&name, None).is_some() {
        return Tapped::From(name);
    }
    let to: Vec<&String> = ends.iter().filter(|e| e.1 == name).map(|e| &e.2).collect();
    match to[..] {
        [one] => Tapped::Play(one.clone()),
        [] => miss(format!("no move of the visitor's goes from or to {name}")),
        _ => miss(format!(
            "more than one piece goes to {name}: tap the one that moves"
        )),
    }
}

/// The operator's drawings: the real board, each bead's square marked in its colour on the
/// machine's turn, and the label of the box to open (its number and its drawing, the arrows in
/// their bead colours), as the label is printed.
pub struct Panels {
    pub board: Vec<Line<'static>>,
    pub label: Option<(usize, Vec<Line<'static>>)>,
    /// Each bead's letter where its square is drawn (column, row, letter): on the board, and on
    /// the label.
    pub board_letters: Vec<(u16, u16, String)>,
    pub label_letters: Vec<(u16, u16, String)>,
}

/// Where in `drawing` (of `game`'s board) each of `squares` is drawn, with its letter: the
/// first column of the square's place that is not blank.
fn letters_at<G: BoardView>(
    game: &G,
    drawing: &[Line],
    squares: &[(String, String)],
) -> Vec<(u16, u16, String)> {
    let mut out = Vec::new();
    let mut done: Vec<&str> = Vec::new();
    for (row, line) in drawing.iter().enumerate() {
        let text = line.spans.iter().flat_map(|s| s.content.chars());
        for (col, c) in text.enumerate() {
            let Some(name) = game.square_at(col as u16, row as u16) else {
                continue;
            };
            if let Some((sq, letter)) = squares.iter().find(|(sq, _)| *sq == name)
                && !c.is_whitespace()
                && !done.contains(&sq.as_str())
            {
                done.push(sq);
                out.push((col as u16, row as u16, letter.clone()));
            }
        }
    }
    out
}

/// The drawings of the step now.
pub fn panels<G: BoardView>(op: &Operator<G>) -> Panels {
    let (game, pos) = (op.game(), op.position());
    let Turn::Machine(open) = op.turn() else {
        return Panels {
            board: game.board_lines(&pos, &[]),
            label: None,
            board_letters: Vec::new(),
            label_letters: Vec::new(),
        };
    };
    let colour = |c: usize| {
        let (r, g, b) = palette::arrow(c).rgb;
        Color::Rgb(r, g, b)
    };
    // Each bead's move, and the square it goes to, with its letter.
    let to = |mv: G::Move, letter: &str| Some((game.move_ends(mv)?.1, letter.to_string()));
    let on_board: Vec<(G::Move, Color)> = (open.beads.iter())
        .filter_map(|(b, sq)| Some((game.parse_move(&pos, sq).ok()?, colour(b.colour))))
        .collect();
    let board_squares: Vec<(String, String)> = (on_board.iter().zip(&open.beads))
        .filter_map(|(&(mv, _), (b, _))| to(mv, &b.letter))
        .collect();
    let board = game.board_lines(&pos, &on_board);
    let mut label_letters = Vec::new();
    let label = (open.box_number > 0).then(|| {
        let (m, b) = (op.machine(), open.box_number - 1);
        let arrows: Vec<(G::Move, Color)> = (open.beads.iter())
            .map(|(bead, _)| (m.boxes.arrows(b)[bead.arrow], colour(bead.colour)))
            .collect();
        let squares: Vec<(String, String)> = (arrows.iter().zip(&open.beads))
            .filter_map(|(&(mv, _), (bead, _))| to(mv, &bead.letter))
            .collect();
        let drawing = game.board_lines(&m.boxes.position(b), &arrows);
        label_letters = letters_at(game, &drawing, &squares);
        (open.box_number, drawing)
    });
    Panels {
        board_letters: letters_at(game, &board, &board_squares),
        board,
        label,
        label_letters,
    }
}

/// What a screen shows of the session now: the step in lines (the diagrams drawn beside), the
/// commands to tap (a label and its line) and the drawings.
pub struct Shown {
    pub lines: Vec<Said>,
    pub commands: Vec<(&'static str, String)>,
    pub panels: Panels,
}

/// The step now, for a screen, said for `voice`.
pub fn shown<G: BoardView>(op: &Operator<G>, voice: Voice) -> Shown {
    let mut commands = match op.turn() {
        Turn::Machine(open) if open.box_number > 0 => vec![("resign (empty box)", "resign".into())],
        Turn::Over(_) => vec![("next game", String::new())],
        _ => Vec::new(),
    };
    commands.extend([
        ("undo", "undo".to_string()),
        ("beads", "beads".into()),
        ("help", "help".into()),
    ]);
    Shown {
        lines: lines_of(op, false, voice),
        commands,
        panels: panels(op),
    }
}

/// What a line typed did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Done: the lines it showed (an audit, the beads, the help), maybe none.
    Shown(Vec<String>),
    /// Not done: the operator's mistake, said and asked again.
    Mistake(String),
    /// The session ends.
    End,
}

/// A session at the real boxes, as a screen sees it.
pub trait Desk {
    /// What the screen shows now.
    fn shown(&self) -> Shown;
    /// A line typed or tapped; an error ends the session (a record that cannot be written).
    fn submit(&mut self, line: &str) -> Result<Answer, String>;
    /// A tap on the board's drawing at (`col`, `row`), the square tapped before `picked`.
    fn tap(&self, picked: Option<&str>, col: u16, row: u16) -> Tapped;
}

/// What the operator may type, as the help says it.
pub const COMMANDS: [&str; 4] = [
    "the machine's turn: the bead's colour (orange, sky blue, … or its letter A, B, …); resign: its box is empty",
    "the visitor's turn: the move (b2, a1-a2, …)",
    "undo: take the last step back · audit N: what box N should hold · beads: the beads, colour by colour",
    "Enter: the next game, once the beads are done · quit: end the session (the record is kept)",
];

/// The operator's screen, without a terminal: what is typed, what the last command answered or
/// the mistake it made, the help; keys become actions from the key table
/// ([`super::key::Mode::Operate`]).
#[derive(Debug, Default)]
pub struct OperateApp {
    pub input: String,
    /// What the last command showed (an audit, the beads, the help of the commands).
    pub answer: Vec<String>,
    /// The last line's mistake, said until the next.
    pub error: Option<String>,
    pub show_help: bool,
    pub quit: bool,
    /// The square of a piece tapped, until where it goes is tapped.
    pub picked: Option<String>,
}

/// A click or a tap on the operator's screen: on the board's drawing (its column and row), or
/// on a line that stands for a command (a bead's colour, `undo`, a box to audit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Click {
    Square(u16, u16),
    Line(String),
}

/// The longest line the screen takes: more is not a colour, a move or a command.
const MAX_INPUT: usize = 200;

impl OperateApp {
    /// What a key asks for: the line typed, when Enter ends it.
    pub fn update(&mut self, action: super::key::Action) -> Option<String> {
        use super::key::Action;
        if self.show_help && action != Action::Interrupt {
            self.show_help = false;
            return None;
        }
        match action {
            Action::Type(c) if self.input.chars().count() < MAX_INPUT => self.input.push(c),
            Action::Backspace => {
                self.input.pop();
            }
            Action::ClearInput => self.input.clear(),
            Action::Enter => return Some(std::mem::take(&mut self.input)),
            Action::Interrupt => self.quit = true,
            Action::ToggleHelp => self.show_help = true,
            _ => {}
        }
        None
    }

    /// A key on `desk`: the line typed done at Enter. An error ends the session.
    pub fn act(&mut self, action: super::key::Action, desk: &mut dyn Desk) -> Result<(), String> {
        match self.update(action) {
            Some(line) => self.submit(&line, desk),
            None => Ok(()),
        }
    }

    /// A line done on `desk`: what it showed, or its mistake.
    pub fn submit(&mut self, line: &str, desk: &mut dyn Desk) -> Result<(), String> {
        self.picked = None;
        match desk.submit(line)? {
            Answer::Shown(lines) => (self.answer, self.error) = (lines, None),
            Answer::Mistake(e) => (self.answer, self.error) = (Vec::new(), Some(e)),
            Answer::End => self.quit = true,
        }
        Ok(())
    }

    /// A click or a tap on `desk`'s screen.
    pub fn click(&mut self, click: Click, desk: &mut dyn Desk) -> Result<(), String> {
        self.show_help = false;
        match click {
            Click::Line(line) => self.submit(&line, desk),
            Click::Square(col, row) => {
                match desk.tap(self.picked.as_deref(), col, row) {
                    Tapped::Play(mv) => return self.submit(&mv, desk),
                    Tapped::From(sq) => {
                        self.answer = vec![format!("{sq}: now tap where it goes")];
                        self.error = None;
                        self.picked = Some(sq);
                    }
                    Tapped::Miss(why) => {
                        (self.answer, self.error, self.picked) = (Vec::new(), Some(why), None);
                    }
                }
                Ok(())
            }
        }
    }
}
