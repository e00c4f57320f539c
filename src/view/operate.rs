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
