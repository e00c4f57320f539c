//! Mini-Arimaa, a learner's game: 4×4, traps b2 and c3, each side a dog and a rabbit (Gold:
//! rabbit a1, dog b1; Silver: dog c4, rabbit d4), 2 steps a turn, this setup always. It keeps
//! pushing, pulling, freezing, trap captures, goal, elimination and immobilization.
//!
//! A move is a whole turn (one or two steps), one per distinct resulting board. Positions are
//! the board and the side to move; the repetition rule, which needs a game's history, is left
//! out of the position graph (it has cycles: its values come from retrograde analysis), and a
//! learning game that reaches [`TURN_LIMIT`] turns is a draw.

use super::rules::{Board, Dir, EndReason, Rules, Step};
use crate::game::capitalised;
use crate::game::{Game, GameError, Outcome, Side, Sym};

/// Turns after which a learning game is called a draw (perfect play wins in far fewer: README).
pub const TURN_LIMIT: u32 = 40;

/// The mini game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MiniArimaa {
    rules: Rules,
}

impl Default for MiniArimaa {
    fn default() -> Self {
        Self::new()
    }
}

/// A mini-Arimaa position: the board, the side to move, and how the last turn ended the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    pub board: Board,
    pub to_move: Side,
    /// 0 while in play; else 1 + winner (0 Gold, 1 Silver) × 3 + reason.
    end: u8,
}

impl Position {
    /// The winner and why, if the game is over.
    pub fn end(&self) -> Option<(Side, EndReason)> {
        if self.end == 0 {
            return None;
        }
        let e = self.end - 1;
        let winner = if e / 3 == 0 {
            Side::First
        } else {
            Side::Second
        };
        let reason = match e % 3 {
            0 => EndReason::Goal,
            1 => EndReason::Elimination,
            _ => EndReason::Immobilization,
        };
        Some((winner, reason))
    }
}

/// A turn: up to four steps, each its square (upper bits) and direction (low two bits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Turn {
    steps: [u8; 4],
    len: u8,
}

impl Turn {
    pub fn from_steps(steps: &[Step]) -> Turn {
        let mut t = Turn {
            steps: [0; 4],
            len: steps.len().min(4) as u8,
        };
        for (i, s) in steps.iter().take(4).enumerate() {
            t.steps[i] = s.from << 2 | s.dir as u8;
        }
        t
    }
    pub fn steps(&self) -> Vec<Step> {
        self.steps[..self.len as usize]
            .iter()
            .map(|&c| Step {
                from: c >> 2,
                dir: Dir::ALL[(c & 3) as usize],
            })
            .collect()
    }
}

impl MiniArimaa {
    pub fn new() -> MiniArimaa {
        // Squares: rank × 4 + file; b2 = 5, c3 = 10.
        MiniArimaa {
            rules: Rules::new(4, 4, &[5, 10], 2).expect("a valid board"),
        }
    }
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
}

fn end_code(winner: Side, reason: EndReason) -> u8 {
    1 + winner as u8 * 3
        + match reason {
            EndReason::Goal => 0,
            EndReason::Elimination => 1,
            EndReason::Immobilization => 2,
        }
}

impl Game for MiniArimaa {
    fn end_words(&self, _pos: &Position, outcome: &Outcome<EndReason>) -> String {
        let Some(w) = outcome.winner else {
            return outcome.reason.to_string();
        };
        let (winner, loser) = (
            capitalised(self.side_name(w)),
            capitalised(self.side_name(w.other())),
        );
        match outcome.reason {
            EndReason::Goal => format!("{winner}'s rabbit reached the goal"),
            EndReason::Elimination => format!("{loser} has no rabbits left"),
            EndReason::Immobilization => format!("{loser} cannot move"),
        }
    }
    type Position = Position;
    type Move = Turn;
    type Reason = EndReason;

    fn name(&self) -> &'static str {
        "arimaa"
    }
    fn variant(&self) -> String {
        "mini 4x4".into()
    }
    fn side_name(&self, side: Side) -> &'static str {
        super::side_name(side)
    }
    fn parse_side(&self, text: &str) -> Option<Side> {
        super::parse_side(text)
    }
    fn start(&self) -> Position {
        let mut board = Board::default();
        board.put(0, Side::First, 0); // rabbit a1
        board.put(1, Side::First, 2); // dog b1
        board.put(14, Side::Second, 2); // dog c4
        board.put(15, Side::Second, 0); // rabbit d4
        Position {
            board,
            to_move: Side::First,
            end: 0,
        }
    }
    fn to_move(&self, pos: &Position) -> Side {
        pos.to_move
    }
    fn legal_moves(&self, pos: &Position, out: &mut Vec<Turn>) {
        if pos.end != 0 {
            return;
        }
        out.extend(
            self.rules
                .turns(&pos.board, pos.to_move)
                .turns
                .iter()
                .map(|(_, steps)| Turn::from_steps(steps)),
        );
    }
    fn play(&self, pos: &Position, mv: Turn) -> Position {
        let mut board = pos.board;
        for s in mv.steps() {
            self.rules.apply_step(&mut board, s);
        }
        let mover = pos.to_move;
        let next = mover.other();
        let end = self
            .rules
            .end_of_turn(&board, mover, || self.rules.can_move(&board, next))
            .map_or(0, |(w, r)| end_code(w, r));
        Position {
            board,
            to_move: next,
            end,
        }
    }
    fn outcome(&self, pos: &Position) -> Option<Outcome<EndReason>> {
        pos.end().map(|(winner, reason)| Outcome {
            winner: Some(winner),
            reason,
        })
    }
    fn ply_limit(&self) -> Option<u32> {
        Some(TURN_LIMIT)
    }

    /// None: the traps b2 and c3 break the mirror, and the half turn swaps the sides.
    fn symmetry_count(&self) -> usize {
        1
    }
    fn transform_position(&self, _sym: Sym, pos: &Position) -> Position {
        *pos
    }
    fn transform_move(&self, _sym: Sym, mv: Turn) -> Turn {
        mv
    }
    fn inverse(&self, sym: Sym) -> Sym {
        sym
    }

    fn format_position(&self, pos: &Position) -> String {
        self.rules.short_form(&pos.board)
    }
    fn parse_position(&self, text: &str, to_move: Side) -> Result<Position, GameError> {
        let board = self
            .rules
            .parse_short(text)
            .map_err(|why| GameError::BadPosition {
                text: text.to_string(),
                why,
            })?;
        Ok(Position {
            board,
            to_move,
            end: 0,
        })
    }
    /// Squares and directions, the steps joined by commas (`b1n,a1e`): a turn has no piece
    /// letters without its board, and stays one word in a line of turns.
    fn format_move_at(&self, pos: &Position, mv: Turn) -> String {
        let mut board = pos.board;
        let mut tokens = Vec::new();
        for s in mv.steps() {
            let letter = board
                .at(s.from)
                .map(|(side, kind)| Rules::piece_letter(side, kind).to_string())
                .unwrap_or_default();
            let square = self.rules.square_name(s.from);
            tokens.push(format!("{letter}{square}{}", s.dir.letter()));
            for c in self.rules.apply_step(&mut board, s) {
                let piece = Rules::piece_letter(c.side, c.kind);
                tokens.push(format!("{piece}{}x", self.rules.square_name(c.sq)));
            }
        }
        tokens.join(" ")
    }
    fn format_move(&self, mv: Turn) -> String {
        mv.steps()
            .iter()
            .map(|s| format!("{}{}", self.rules.square_name(s.from), s.dir.letter()))
            .collect::<Vec<_>>()
            .join(",")
    }
    /// A turn as steps (`Db1n Ra1e`, piece letters optional, capture tokens accepted), one of
    /// the legal turns here.
    fn parse_move(&self, pos: &Position, text: &str) -> Result<Turn, GameError> {
        let bad = || GameError::BadMoveSyntax {
            text: text.to_string(),
            example: "Db1n Ra1e (piece, square, direction; one or two steps)",
        };
        let mut steps = Vec::new();
        // The board as the steps so far leave it: a piece letter given must be the piece there.
        let mut board = pos.board;
        for token in text.split(|c: char| c.is_whitespace() || c == ',') {
            if token.is_empty() || token.ends_with('x') {
                continue;
            }
            let lettered =
                !(token.chars().next().is_some_and(|c| c.is_ascii_digit()) || token.len() == 3);
            let with_piece = if lettered {
                token.to_string()
            } else {
                // `b1n`: the piece is whatever stands there once the steps before are played.
                format!("R{token}")
            };
            let Ok(Some((side, kind, step))) = self.rules.parse_step(&with_piece) else {
                return Err(bad());
            };
            let there = board.at(step.from);
            if lettered && there != Some((side, kind)) {
                let what = match there {
                    Some((s, k)) => format!("{} stands there", super::Rules::piece_letter(s, k)),
                    None => "the square is empty".into(),
                };
                return Err(GameError::WrongPiece {
                    mv: token.to_string(),
                    why: format!(
                        "no {} on {} ({what})",
                        super::Rules::piece_letter(side, kind),
                        self.rules.square_name(step.from)
                    ),
                });
            }
            self.rules.apply_step(&mut board, step);
            steps.push(step);
        }
        if steps.is_empty() {
            return Err(bad());
        }
        let board = self
            .rules
            .follow(&pos.board, pos.to_move, &steps)
            .ok()
            .filter(|b| *b != pos.board);
        let legal = self.moves(pos);
        match board {
            Some(b) => legal
                .into_iter()
                .find(|&t| self.play(pos, t).board == b)
                .ok_or_else(|| illegal(self, text, &[])),
            None => Err(illegal(self, text, &legal)),
        }
    }
    fn diagram(&self, pos: &Position) -> Vec<String> {
        self.rules.diagram(&pos.board)
    }
}

fn illegal(game: &MiniArimaa, text: &str, legal: &[Turn]) -> GameError {
    let list: Vec<String> = legal
        .iter()
        .take(12)
        .map(|&t| game.format_move(t))
        .collect();
    GameError::IllegalMove {
        mv: format!("`{}`", crate::text::quote(text)),
        legal: if legal.len() > 12 {
            format!("{} … ({} in all)", list.join(", "), legal.len())
        } else {
            list.join(", ")
        },
    }
}
