//! The operator's session in words, for a person at the real boxes: what to do now (the box to
//! open, how the board is turned from its label, each bead's square; or the visitor's move; or,
//! at a game's end, what to do box by box), the audit of a box and the beads' inventory. Plain
//! lines, the same for the terminal and the page.

use super::board::BoardView;
use crate::learn::GameResult;
use crate::learn::real::operate::{Bead, Operator, Turn};
use crate::palette;

/// What the operator does now, in lines: the board, then the step.
pub fn turn_lines<G: BoardView>(op: &Operator<G>) -> Vec<String> {
    let game = op.game();
    let (w, d, l) = op.tally();
    let mut out = vec![format!(
        "game {} · the machine ({}) has won {w}, drawn {d}, lost {l}",
        w + d + l + usize::from(!op.is_over()),
        game.side_name(op.machine().boxes.side())
    )];
    out.extend(
        game.diagram(&op.position())
            .into_iter()
            .map(|l| format!("  {l}")),
    );
    match op.turn() {
        Turn::Visitor(legal) => {
            out.push(format!("the visitor's move ({}): type it", legal.join(" ")));
        }
        Turn::Machine(open) if open.box_number == 0 => {
            out.push("the machine has no box here: its move is played for it".into());
        }
        Turn::Machine(open) => {
            let m = op.machine();
            out.push(format!(
                "the machine's move: open box {}; the board is its label {}",
                open.box_number,
                game.turn_words(open.sym)
            ));
            if open.sym != crate::game::Sym::IDENTITY {
                let drawing = game.diagram(&m.boxes.position(open.box_number - 1));
                out.extend(drawing.into_iter().map(|l| format!("  label: {l}")));
            }
            for (bead, square) in &open.beads {
                out.push(format!("  {}  →  {square} on the board", bead_words(bead)));
            }
            out.push("type the colour of the bead drawn (its name or letter); `resign` if the box is empty".into());
        }
        Turn::Over(end) => {
            let result = match end.result {
                GameResult::Win => "the machine won",
                GameResult::Draw => "a draw",
                GameResult::Loss => "the machine lost",
            };
            out.push(format!("game {} over: {result} ({})", end.game, end.why));
            out.extend(end.steps.iter().map(|s| format!("  {}", s.words())));
            for d in &end.disagreements {
                out.push(format!(
                    "  note: box {}: {} (taken as played: audit box {})",
                    d.box_number, d.words, d.box_number
                ));
            }
            out.push("Enter: the next game · undo: take the last step back".into());
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

    /// What a line typed did: the lines it showed, or its mistake.
    pub fn answered(&mut self, result: Result<Vec<String>, String>) {
        match result {
            Ok(lines) => (self.answer, self.error) = (lines, None),
            Err(e) => (self.answer, self.error) = (Vec::new(), Some(e)),
        }
    }
}
