//! Hexapawn on any R×C board (2 ≤ R, C ≤ 8): Gardner's game (3×3), octopawn (4×4) and the rest.
//!
//! White moves first from rank 1, Black from rank R. A pawn moves one square straight forward to an
//! empty square, or one square diagonally forward to capture. No double step, no promotion. A player
//! wins by reaching the far rank, by capturing every enemy pawn, or when the opponent, to move, has no
//! legal move. The symmetry group is {identity, left-right mirror}.

use crate::game::capitalised;
use std::fmt;
use std::str::FromStr;

use crate::game::{Game, GameError, Outcome, Side, Sym};

/// Board size, validated: 2 ≤ rows, cols ≤ 8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Size {
    rows: u8,
    cols: u8,
}

impl Size {
    pub const MIN: u8 = 2;
    pub const MAX: u8 = 8;
    pub const GARDNER: Size = Size { rows: 3, cols: 3 };
    pub const OCTOPAWN: Size = Size { rows: 4, cols: 4 };

    pub fn new(rows: u8, cols: u8) -> Result<Size, GameError> {
        if (Self::MIN..=Self::MAX).contains(&rows) && (Self::MIN..=Self::MAX).contains(&cols) {
            Ok(Size { rows, cols })
        } else {
            Err(GameError::BadSize(format!("{rows}x{cols}")))
        }
    }
    pub fn rows(self) -> u8 {
        self.rows
    }
    pub fn cols(self) -> u8 {
        self.cols
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl FromStr for Size {
    type Err = GameError;
    fn from_str(s: &str) -> Result<Size, GameError> {
        let bad = || GameError::BadSize(s.to_string());
        let (r, c) = s.trim().split_once(['x', 'X', '×']).ok_or_else(bad)?;
        let rows = r.trim().parse::<u8>().map_err(|_| bad())?;
        let cols = c.trim().parse::<u8>().map_err(|_| bad())?;
        Size::new(rows, cols).map_err(|_| bad())
    }
}

/// A square, as `rank * cols + file` (rank 0 is White's first rank).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    pub fn index(self) -> usize {
        self.0 as usize
    }
    /// The square on `rank` and `file` (both from 0) of the game's board.
    pub fn at(game: &Hexapawn, rank: usize, file: usize) -> Cell {
        game.cell(rank, file)
    }
}

/// A pawn move from one square to another (a diagonal move is always a capture).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    pub from: Cell,
    pub to: Cell,
}

/// Pawns of each side as bitboards (bit `rank * cols + file`) and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    white: u64,
    black: u64,
    to_move: Side,
}

impl Position {
    pub fn white(&self) -> u64 {
        self.white
    }
    pub fn black(&self) -> u64 {
        self.black
    }
}

/// Why a Hexapawn game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    FarRank,
    AllCaptured,
    NoMove,
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reason::FarRank => "reached the far rank",
            Reason::AllCaptured => "captured every pawn",
            Reason::NoMove => "the opponent has no move",
        })
    }
}

/// The rules of Hexapawn on one board size.
#[derive(Clone, Debug)]
pub struct Hexapawn {
    size: Size,
    mirror_cell: [u8; 64],
}

impl Hexapawn {
    pub fn new(size: Size) -> Hexapawn {
        let mut mirror_cell = [0u8; 64];
        let (rows, cols) = (size.rows as usize, size.cols as usize);
        for r in 0..rows {
            for c in 0..cols {
                mirror_cell[r * cols + c] = (r * cols + (cols - 1 - c)) as u8;
            }
        }
        Hexapawn { size, mirror_cell }
    }
    pub fn size(&self) -> Size {
        self.size
    }
    fn cols(&self) -> usize {
        self.size.cols as usize
    }
    fn rows(&self) -> usize {
        self.size.rows as usize
    }
    fn rank_mask(&self, rank: usize) -> u64 {
        ((1u64 << self.cols()) - 1) << (rank * self.cols())
    }
    fn cell(&self, rank: usize, file: usize) -> Cell {
        Cell((rank * self.cols() + file) as u8)
    }
    pub fn file_rank(&self, cell: Cell) -> (usize, usize) {
        (cell.index() % self.cols(), cell.index() / self.cols())
    }
    /// The piece on a square: `W`, `B` or `.`.
    pub fn piece_at(&self, pos: &Position, cell: Cell) -> char {
        let bit = 1u64 << cell.0;
        if pos.white & bit != 0 {
            'W'
        } else if pos.black & bit != 0 {
            'B'
        } else {
            '.'
        }
    }
    pub fn cell_name(&self, cell: Cell) -> String {
        let (f, r) = self.file_rank(cell);
        format!("{}{}", (b'a' + f as u8) as char, r + 1)
    }
    fn parse_cell(&self, text: &str) -> Option<Cell> {
        let mut chars = text.chars();
        let f = chars.next()?.to_ascii_lowercase();
        let rank: usize = chars.as_str().parse().ok()?;
        let file = (f as u32).checked_sub('a' as u32)? as usize;
        (file < self.cols() && (1..=self.rows()).contains(&rank)).then(|| self.cell(rank - 1, file))
    }
    fn mirror_bits(&self, bits: u64) -> u64 {
        let mut out = 0;
        let mut b = bits;
        while b != 0 {
            let i = b.trailing_zeros() as usize;
            out |= 1u64 << self.mirror_cell[i];
            b &= b - 1;
        }
        out
    }
}

impl Game for Hexapawn {
    fn end_words(&self, _pos: &Position, outcome: &Outcome<Reason>) -> String {
        let Some(w) = outcome.winner else {
            return outcome.reason.to_string();
        };
        let (winner, loser) = (self.side_name(w), self.side_name(w.other()));
        match outcome.reason {
            Reason::FarRank => format!("{} reached the far rank", capitalised(winner)),
            Reason::AllCaptured => format!("{} took every {loser} pawn", capitalised(winner)),
            Reason::NoMove => format!("{} cannot move", capitalised(loser)),
        }
    }
    type Position = Position;
    type Move = Move;
    type Reason = Reason;

    fn name(&self) -> &'static str {
        "hexapawn"
    }
    fn variant(&self) -> String {
        self.size.to_string()
    }
    fn side_name(&self, side: Side) -> &'static str {
        match side {
            Side::First => "white",
            Side::Second => "black",
        }
    }

    fn start(&self) -> Position {
        Position {
            white: self.rank_mask(0),
            black: self.rank_mask(self.rows() - 1),
            to_move: Side::First,
        }
    }
    fn to_move(&self, pos: &Position) -> Side {
        pos.to_move
    }

    fn legal_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        if self.outcome_without_moves(pos).is_some() {
            return;
        }
        self.pseudo_moves(pos, out);
    }

    fn play(&self, pos: &Position, mv: Move) -> Position {
        let from = 1u64 << mv.from.0;
        let to = 1u64 << mv.to.0;
        let (mut own, mut other) = match pos.to_move {
            Side::First => (pos.white, pos.black),
            Side::Second => (pos.black, pos.white),
        };
        own = (own & !from) | to;
        other &= !to;
        let (white, black) = match pos.to_move {
            Side::First => (own, other),
            Side::Second => (other, own),
        };
        Position {
            white,
            black,
            to_move: pos.to_move.other(),
        }
    }

    fn outcome(&self, pos: &Position) -> Option<Outcome<Reason>> {
        if let Some(o) = self.outcome_without_moves(pos) {
            return Some(o);
        }
        let mut moves = Vec::new();
        self.pseudo_moves(pos, &mut moves);
        moves.is_empty().then_some(Outcome {
            winner: Some(pos.to_move.other()),
            reason: Reason::NoMove,
        })
    }

    fn symmetry_count(&self) -> usize {
        2
    }
    fn transform_position(&self, sym: Sym, pos: &Position) -> Position {
        if sym == Sym::IDENTITY {
            return *pos;
        }
        Position {
            white: self.mirror_bits(pos.white),
            black: self.mirror_bits(pos.black),
            to_move: pos.to_move,
        }
    }
    fn transform_move(&self, sym: Sym, mv: Move) -> Move {
        if sym == Sym::IDENTITY {
            return mv;
        }
        Move {
            from: Cell(self.mirror_cell[mv.from.index()]),
            to: Cell(self.mirror_cell[mv.to.index()]),
        }
    }
    fn inverse(&self, sym: Sym) -> Sym {
        sym
    }

    /// Each side has at most C pawns, none on its own far rank: at most
    /// (Σ_{k ≤ C} C((R−1)·C, k))² placements, whoever is to move.
    fn position_bound(&self, _side: Side) -> Option<(f64, &'static str)> {
        let squares = (self.rows() - 1) * self.cols();
        let mut per_side = 0.0;
        let mut choose = 1.0f64;
        for k in 0..=self.cols() {
            if k > 0 {
                choose = choose * (squares + 1 - k) as f64 / k as f64;
            }
            per_side += choose;
        }
        Some((
            per_side * per_side,
            "upper bound: up to C pawns a side, anywhere but the side's far rank",
        ))
    }

    fn format_position(&self, pos: &Position) -> String {
        (0..self.rows())
            .rev()
            .map(|r| {
                (0..self.cols())
                    .map(|f| self.piece_at(pos, self.cell(r, f)))
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }

    fn parse_position(&self, text: &str, to_move: Side) -> Result<Position, GameError> {
        let bad = |why: String| GameError::BadPosition {
            text: text.to_string(),
            why,
        };
        let ranks: Vec<&str> = text.trim().split('/').collect();
        if ranks.len() != self.rows() {
            return Err(bad(format!(
                "{} ranks, the {} board has {}",
                ranks.len(),
                self.size,
                self.rows()
            )));
        }
        let (mut white, mut black) = (0u64, 0u64);
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = self.rows() - 1 - i;
            let chars: Vec<char> = rank_text.chars().collect();
            if chars.len() != self.cols() {
                return Err(bad(format!(
                    "rank {} has {} squares, expected {}",
                    rank + 1,
                    chars.len(),
                    self.cols()
                )));
            }
            for (file, ch) in chars.into_iter().enumerate() {
                let bit = 1u64 << self.cell(rank, file).0;
                match ch {
                    'W' | 'w' => white |= bit,
                    'B' | 'b' => black |= bit,
                    '.' | '-' => {}
                    other => {
                        return Err(bad(format!("`{other}` is not a square (use W, B or .)")));
                    }
                }
            }
        }
        let pos = Position {
            white,
            black,
            to_move,
        };
        let far_white = white & self.rank_mask(self.rows() - 1) != 0;
        let far_black = black & self.rank_mask(0) != 0;
        if far_white && far_black {
            return Err(bad("both sides have reached the far rank".into()));
        }
        let (mover_far, waiting_pawns) = match to_move {
            Side::First => (far_white, black),
            Side::Second => (far_black, white),
        };
        if mover_far {
            return Err(bad(format!(
                "{} is to move but already stands on the far rank",
                self.side_name(to_move)
            )));
        }
        if waiting_pawns == 0 {
            return Err(bad(format!(
                "{} has no pawns, yet it made the last move",
                self.side_name(to_move.other())
            )));
        }
        Ok(pos)
    }

    fn move_cell(&self, mv: Move) -> Option<usize> {
        Some(mv.to.index())
    }

    fn format_move(&self, mv: Move) -> String {
        let (ff, _) = self.file_rank(mv.from);
        let (tf, _) = self.file_rank(mv.to);
        let sep = if ff == tf { '-' } else { 'x' };
        format!(
            "{}{}{}",
            self.cell_name(mv.from),
            sep,
            self.cell_name(mv.to)
        )
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, GameError> {
        let t = text.trim();
        let syntax = || GameError::BadMoveSyntax {
            text: t.to_string(),
            example: "b1-b2 or a3xb2",
        };
        let (from, to) = t
            .split_once(['-', 'x', 'X', ':'])
            .or_else(|| {
                // also accept `b1b2`
                let split = t
                    .char_indices()
                    .skip(1)
                    .find(|(_, c)| c.is_ascii_alphabetic())?
                    .0;
                Some(t.split_at(split))
            })
            .ok_or_else(syntax)?;
        let from = self.parse_cell(from.trim()).ok_or_else(syntax)?;
        let to = self.parse_cell(to.trim()).ok_or_else(syntax)?;
        crate::game::find_legal(self, pos, t, |m| m.from == from && m.to == to)
    }

    fn diagram(&self, pos: &Position) -> Vec<String> {
        let mut lines: Vec<String> = (0..self.rows())
            .rev()
            .map(|r| {
                let squares: Vec<String> = (0..self.cols())
                    .map(|f| self.piece_at(pos, self.cell(r, f)).to_string())
                    .collect();
                format!("{} {}", r + 1, squares.join(" "))
            })
            .collect();
        let files: Vec<String> = (0..self.cols())
            .map(|f| ((b'a' + f as u8) as char).to_string())
            .collect();
        lines.push(format!("  {}", files.join(" ")));
        lines
    }
}

impl Hexapawn {
    /// Far rank and all-captured wins, which need no move generation.
    fn outcome_without_moves(&self, pos: &Position) -> Option<Outcome<Reason>> {
        let win = |side, reason| {
            Some(Outcome {
                winner: Some(side),
                reason,
            })
        };
        if pos.white & self.rank_mask(self.rows() - 1) != 0 {
            return win(Side::First, Reason::FarRank);
        }
        if pos.black & self.rank_mask(0) != 0 {
            return win(Side::Second, Reason::FarRank);
        }
        if pos.black == 0 {
            return win(Side::First, Reason::AllCaptured);
        }
        if pos.white == 0 {
            return win(Side::Second, Reason::AllCaptured);
        }
        None
    }

    /// Moves of the side to move, ignoring whether the game is already won.
    fn pseudo_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        let cols = self.cols() as i32;
        let (own, other, dir) = match pos.to_move {
            Side::First => (pos.white, pos.black, 1i32),
            Side::Second => (pos.black, pos.white, -1i32),
        };
        let occupied = own | other;
        let mut b = own;
        while b != 0 {
            let from = b.trailing_zeros() as i32;
            b &= b - 1;
            let (file, rank) = (from % cols, from / cols);
            let next = rank + dir;
            if next < 0 || next >= self.rows() as i32 {
                continue;
            }
            for df in [-1, 0, 1] {
                let f = file + df;
                if f < 0 || f >= cols {
                    continue;
                }
                let to = next * cols + f;
                let bit = 1u64 << to;
                let ok = if df == 0 {
                    occupied & bit == 0
                } else {
                    other & bit != 0
                };
                if ok {
                    out.push(Move {
                        from: Cell(from as u8),
                        to: Cell(to as u8),
                    });
                }
            }
        }
    }
}
