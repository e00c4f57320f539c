//! Noughts and crosses (tic-tac-toe): X moves first; three in a row wins; a full board is a draw.
//! Cells are named like the Hexapawn board: files a–c from the left, ranks 1–3 from the bottom, so a
//! move is a cell (`b2`) and a position is written as ranks from the top (`X.O/.X./..O`). The
//! symmetry group is the square's 8 rotations and reflections.

use std::fmt;

use crate::game::{Game, GameError, Outcome, Side, Sym};

/// A cell, 0 to 8 as `rank * 3 + file` (rank 0 is rank 1, at the bottom).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    pub fn new(rank: usize, file: usize) -> Option<Cell> {
        (rank < 3 && file < 3).then_some(Cell((rank * 3 + file) as u8))
    }
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A move: the cell the mover marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(pub Cell);

/// The marks of each side as 9-bit sets, and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    x: u16,
    o: u16,
    to_move: Side,
}

impl Position {
    pub fn x(&self) -> u16 {
        self.x
    }
    pub fn o(&self) -> u16 {
        self.o
    }
    /// The mark on a cell: `X`, `O` or `.`.
    pub fn mark(&self, cell: Cell) -> char {
        let bit = 1u16 << cell.0;
        if self.x & bit != 0 {
            'X'
        } else if self.o & bit != 0 {
            'O'
        } else {
            '.'
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    ThreeInARow,
    BoardFull,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::ThreeInARow => "three in a row",
            Reason::BoardFull => "the board is full",
        })
    }
}

/// The cells (a bit each, a1 = bit 0) of `side`'s first line of three, or 0.
pub fn winning_line(pos: &Position, side: Side) -> u16 {
    let marks = if side == Side::First { pos.x } else { pos.o };
    LINES.into_iter().find(|&l| marks & l == l).unwrap_or(0)
}

const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];
const FULL: u16 = 0b111_111_111;

fn has_line(marks: u16) -> bool {
    LINES.into_iter().any(|line| marks & line == line)
}

/// The 8 symmetries as cell permutations: `PERM[s][c]` is where cell `c` goes.
const PERM: [[u8; 9]; 8] = {
    let mut p = [[0u8; 9]; 8];
    let mut s = 0;
    while s < 8 {
        let mut c = 0;
        while c < 9 {
            let (r, f) = (c / 3, c % 3);
            // s = rotation (0..4) + 4 * reflection: reflect left-right first, then rotate a
            // quarter turn `s % 4` times: (r, f) -> (f, 2 - r).
            let (mut r2, mut f2) = if s >= 4 { (r, 2 - f) } else { (r, f) };
            let mut k = 0;
            while k < s % 4 {
                let t = r2;
                r2 = f2;
                f2 = 2 - t;
                k += 1;
            }
            p[s][c] = (r2 * 3 + f2) as u8;
            c += 1;
        }
        s += 1;
    }
    p
};

/// Noughts and crosses.
#[derive(Clone, Copy, Debug, Default)]
pub struct TicTacToe;

impl TicTacToe {
    pub fn cell_name(&self, cell: Cell) -> String {
        let (r, f) = (cell.index() / 3, cell.index() % 3);
        format!("{}{}", (b'a' + f as u8) as char, r + 1)
    }
    fn permute(bits: u16, s: usize) -> u16 {
        let mut out = 0;
        for (c, &to) in PERM[s].iter().enumerate() {
            if bits & (1 << c) != 0 {
                out |= 1 << to;
            }
        }
        out
    }
    fn inverse_index(s: usize) -> usize {
        (0..8)
            .find(|&t| (0..9).all(|c| PERM[t][PERM[s][c] as usize] as usize == c))
            .expect("the group has inverses")
    }
}

impl Game for TicTacToe {
    fn move_words(&self, mv: Move) -> String {
        let place = match mv.0.index() {
            4 => "centre",
            0 | 2 | 6 | 8 => "corner",
            _ => "edge",
        };
        format!("{} {place}", self.format_move(mv))
    }
    fn end_words(&self, pos: &Position, outcome: &Outcome<Reason>) -> String {
        let Some(w) = outcome.winner else {
            return "the board is full: a draw".to_string();
        };
        let name = self.side_name(w).to_uppercase();
        match Some(winning_line(pos, w)).filter(|&l| l != 0) {
            Some(line) => {
                let cells: Vec<String> = (0..9)
                    .filter(|i| line & (1 << i) != 0)
                    .map(|i| self.format_move(Move(Cell(i))))
                    .collect();
                format!("{name} has three in a row: {}", cells.join(" "))
            }
            None => format!("{name} won: {}", outcome.reason),
        }
    }
    fn plies_played(&self, pos: &Position) -> Option<u32> {
        Some((0..9).filter(|&i| pos.mark(Cell(i)) != '.').count() as u32)
    }

    type Position = Position;
    type Move = Move;
    type Reason = Reason;

    fn name(&self) -> &'static str {
        "tictactoe"
    }
    fn variant(&self) -> String {
        "3x3".into()
    }
    fn side_name(&self, side: Side) -> &'static str {
        match side {
            Side::First => "x",
            Side::Second => "o",
        }
    }
    fn start(&self) -> Position {
        Position {
            x: 0,
            o: 0,
            to_move: Side::First,
        }
    }
    fn to_move(&self, pos: &Position) -> Side {
        pos.to_move
    }
    fn legal_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        if self.outcome(pos).is_some() {
            return;
        }
        let empty = FULL & !(pos.x | pos.o);
        out.extend(
            (0..9)
                .filter(|c| empty & (1 << c) != 0)
                .map(|c| Move(Cell(c as u8))),
        );
    }
    fn play(&self, pos: &Position, mv: Move) -> Position {
        let bit = 1u16 << mv.0.0;
        let mut next = *pos;
        match pos.to_move {
            Side::First => next.x |= bit,
            Side::Second => next.o |= bit,
        }
        next.to_move = pos.to_move.other();
        next
    }
    fn outcome(&self, pos: &Position) -> Option<Outcome<Reason>> {
        for (marks, side) in [(pos.x, Side::First), (pos.o, Side::Second)] {
            if has_line(marks) {
                return Some(Outcome {
                    winner: Some(side),
                    reason: Reason::ThreeInARow,
                });
            }
        }
        (pos.x | pos.o == FULL).then_some(Outcome {
            winner: None,
            reason: Reason::BoardFull,
        })
    }
    fn symmetry_count(&self) -> usize {
        8
    }
    fn transform_position(&self, sym: Sym, pos: &Position) -> Position {
        Position {
            x: Self::permute(pos.x, sym.index()),
            o: Self::permute(pos.o, sym.index()),
            to_move: pos.to_move,
        }
    }
    fn transform_move(&self, sym: Sym, mv: Move) -> Move {
        Move(Cell(PERM[sym.index()][mv.0.index()]))
    }
    fn inverse(&self, sym: Sym) -> Sym {
        Sym(Self::inverse_index(sym.index()) as u8)
    }
    fn format_position(&self, pos: &Position) -> String {
        (0..3)
            .rev()
            .map(|r| {
                (0..3)
                    .map(|f| pos.mark(Cell((r * 3 + f) as u8)))
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }
    fn parse_position(&self, text: &str, to_move: Side) -> Result<Position, GameError> {
        let bad = |why: &str| GameError::BadPosition {
            text: text.to_string(),
            why: why.to_string(),
        };
        let ranks: Vec<&str> = text.trim().split('/').collect();
        if ranks.len() != 3 || ranks.iter().any(|r| r.chars().count() != 3) {
            return Err(bad("expected three ranks of three cells, e.g. X.O/.X./..O"));
        }
        let (mut x, mut o) = (0u16, 0u16);
        for (i, rank) in ranks.iter().enumerate() {
            for (f, ch) in rank.chars().enumerate() {
                let bit = 1u16 << ((2 - i) * 3 + f);
                match ch {
                    'X' | 'x' => x |= bit,
                    'O' | 'o' | '0' => o |= bit,
                    '.' | '-' => {}
                    other => return Err(bad(&format!("`{other}` is not a cell (use X, O or .)"))),
                }
            }
        }
        let (nx, no) = (x.count_ones(), o.count_ones());
        let expected = match to_move {
            Side::First => nx == no,
            Side::Second => nx == no + 1,
        };
        if !expected {
            return Err(bad(&format!(
                "{nx} X and {no} O do not leave {} to move",
                self.side_name(to_move)
            )));
        }
        if has_line(x) && has_line(o) {
            return Err(bad("both sides have three in a row"));
        }
        let mover_won = match to_move {
            Side::First => has_line(x),
            Side::Second => has_line(o),
        };
        if mover_won {
            return Err(bad("the side to move already has three in a row"));
        }
        Ok(Position { x, o, to_move })
    }
    fn move_cell(&self, mv: Move) -> Option<usize> {
        Some(mv.0.index())
    }

    fn format_move(&self, mv: Move) -> String {
        self.cell_name(mv.0)
    }
    fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, GameError> {
        let t = text.trim().to_ascii_lowercase();
        let mut chars = t.chars();
        let cell = match (chars.next(), chars.next(), chars.next()) {
            (Some(f @ 'a'..='c'), Some(r @ '1'..='3'), None) => {
                Cell::new(r as usize - '1' as usize, f as usize - 'a' as usize)
            }
            _ => None,
        }
        .ok_or_else(|| GameError::BadMoveSyntax {
            text: text.trim().to_string(),
            example: "b2",
        })?;
        crate::game::find_legal(self, pos, text.trim(), |m| m.0 == cell)
    }

    fn diagram(&self, pos: &Position) -> Vec<String> {
        let mut lines: Vec<String> = (0..3)
            .rev()
            .map(|r| {
                let cells: Vec<String> = (0..3)
                    .map(|f| pos.mark(Cell((r * 3 + f) as u8)).to_string())
                    .collect();
                format!("{} {}", r + 1, cells.join(" "))
            })
            .collect();
        lines.push("  a b c".into());
        lines
    }
}
