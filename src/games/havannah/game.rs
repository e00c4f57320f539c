//! Havannah as a [`Game`]: positions, moves, outcomes, symmetries and notation.

use super::rules::*;
use crate::game::capitalised;
use crate::game::{Game, GameError, Outcome, Side, Sym};

impl Game for Havannah {
    fn end_words(&self, _pos: &Position, outcome: &Outcome<Reason>) -> String {
        match (outcome.winner, outcome.reason) {
            (Some(w), Reason::Completed(s)) => {
                format!(
                    "{} made a {}",
                    capitalised(self.side_name(w)),
                    s.names().join(" and a ")
                )
            }
            _ => "the board is full: a draw".to_string(),
        }
    }
    type Position = Position;
    type Move = Move;
    type Reason = Reason;

    fn name(&self) -> &'static str {
        "havannah"
    }
    fn variant(&self) -> String {
        match (self.swap, self.handicap) {
            (true, _) => format!("base {}, swap rule", self.base),
            (false, 0) => format!("base {}", self.base),
            (false, k) => format!("base {}, handicap {k}", self.base),
        }
    }
    fn side_name(&self, side: Side) -> &'static str {
        match side {
            Side::First => "white",
            Side::Second => "black",
        }
    }
    fn start(&self) -> Position {
        Position {
            stones: [Bits::default(); 2],
            to_move: Side::First,
            result: 0,
            structures: Structures::default(),
        }
    }
    fn to_move(&self, pos: &Position) -> Side {
        pos.to_move
    }
    fn legal_moves(&self, pos: &Position, out: &mut Vec<Move>) {
        if pos.result != 0 {
            return;
        }
        // The empty cells' bits in increasing order: the cells' reading order.
        let empty = self.shape.board.and_not(pos.stones[0].or(pos.stones[1]));
        out.reserve(empty.count() as usize + 1);
        out.extend(empty.iter().map(|i| Cell(i as u16)));
        if self.swap_allowed(pos) {
            out.push(SWAP);
        }
    }
    /// Without listing the moves: the one empty cell of a game still in play (the swap rule
    /// only applies with one stone on the board).
    fn only_move(&self, pos: &Position) -> Option<Move> {
        let taken = pos.stones[0].or(pos.stones[1]);
        if pos.result != 0 || taken.count() as usize + 1 != self.cells.len() {
            return None;
        }
        self.shape
            .board
            .and_not(taken)
            .iter()
            .next()
            .map(|i| Cell(i as u16))
    }
    fn play(&self, pos: &Position, mv: Move) -> Position {
        let side = pos.to_move;
        if mv.is_swap() {
            return Position {
                stones: [Bits::default(), pos.stones[0]],
                to_move: Side::First,
                result: 0,
                structures: Structures::default(),
            };
        }
        let mut next = self.play_quiet(pos, mv);
        let structures = self.completed(next.stones[side as usize], mv);
        if !structures.is_empty() {
            next.result = 1 + side as u8;
            next.structures = structures;
        }
        next
    }
    fn outcome(&self, pos: &Position) -> Option<Outcome<Reason>> {
        match pos.result {
            1 | 2 => Some(Outcome {
                winner: Some(if pos.result == 1 {
                    Side::First
                } else {
                    Side::Second
                }),
                reason: Reason::Completed(pos.structures),
            }),
            3 => Some(Outcome {
                winner: None,
                reason: Reason::FullBoard,
            }),
            _ => None,
        }
    }

    fn symmetry_count(&self) -> usize {
        12
    }
    fn transform_position(&self, sym: Sym, pos: &Position) -> Position {
        if sym == Sym::IDENTITY {
            return *pos;
        }
        if let Some(words) = &self.word_images {
            let map = |b: Bits| {
                let mut out = Bits::default();
                out.0[0] = words.image(sym.index(), b.0[0]);
                out
            };
            return Position {
                stones: [map(pos.stones[0]), map(pos.stones[1])],
                ..*pos
            };
        }
        let image = &self.images[sym.index()];
        let map = |b: Bits| {
            let mut out = Bits::default();
            for i in b.iter() {
                out.set(image[i] as usize);
            }
            out
        };
        Position {
            stones: [map(pos.stones[0]), map(pos.stones[1])],
            ..*pos
        }
    }
    /// On boards of one word, the least image found a byte at a time: positions are ordered by
    /// White's stones, then Black's, so the least image has the least (White, Black) words.
    fn canonical(&self, pos: &Position) -> (Position, Sym) {
        let Some(words) = &self.word_images else {
            return crate::game::least_image(self, pos);
        };
        // Indexed, not `map`ped: an array's `map` copies both sets whole.
        let [w, b] = [pos.stones[0].0[0], pos.stones[1].0[0]];
        // White's images first, kept; Black's only for the symmetries that tie on the least.
        let mut white = [w; 12];
        let mut least = w;
        for (s, iw) in white.iter_mut().enumerate().skip(1) {
            *iw = words.image(s, w);
            least = least.min(*iw);
        }
        let mut best = (least, u64::MAX, 0);
        for (s, &iw) in white.iter().enumerate() {
            if iw == least {
                let ib = if s == 0 { b } else { words.image(s, b) };
                if ib < best.1 {
                    best = (least, ib, s);
                }
            }
        }
        let mut out = *pos;
        out.stones[0].0[0] = best.0;
        out.stones[1].0[0] = best.1;
        (out, Sym(best.2 as u8))
    }
    /// On boards of one word, each symmetry's image compared word by word (White's first: few
    /// positions keep it), with no image position made.
    fn stabilizer(&self, pos: &Position) -> Vec<Sym> {
        let [w, b] = [pos.stones[0].0[0], pos.stones[1].0[0]];
        (0..12u8)
            .map(Sym)
            .filter(|&s| {
                s == Sym::IDENTITY
                    || match &self.word_images {
                        Some(words) => {
                            words.image(s.index(), w) == w && words.image(s.index(), b) == b
                        }
                        None => self.transform_position(s, pos) == *pos,
                    }
            })
            .collect()
    }
    fn transform_move(&self, sym: Sym, mv: Move) -> Move {
        if mv.is_swap() {
            return mv;
        }
        Cell(self.images[sym.index()][mv.index()])
    }
    fn inverse(&self, sym: Sym) -> Sym {
        Sym(self.inverses[sym.index()])
    }

    /// Every placement of up to ⌈k/2⌉ White and ⌊k/2⌋ Black stones: Σₖ C(N, k)·C(k, ⌊k/2⌋).
    fn position_bound(&self, _side: Side) -> Option<(f64, &'static str)> {
        let cells = self.cells.len();
        let mut total = 0.0;
        let mut choose_n = 1.0f64; // C(N, k)
        for k in 0..=cells {
            if k > 0 {
                choose_n = choose_n * (cells + 1 - k) as f64 / k as f64;
            }
            let mut choose_k = 1.0f64; // C(k, k/2)
            for j in 1..=k / 2 {
                choose_k = choose_k * (k + 1 - j) as f64 / j as f64;
            }
            total += choose_n * choose_k;
        }
        Some((
            total,
            "upper bound: every placement of alternating White and Black stones",
        ))
    }

    fn structure_kinds(&self) -> &'static [&'static str] {
        &["ring", "bridge", "fork"]
    }

    /// On the fast engine of [`super::playout`].
    fn random_games(
        &self,
        games: u64,
        rng: &mut crate::rng::Rng,
        each: &mut dyn FnMut(crate::game::RandomGame),
    ) {
        if self.swap || self.handicap > 0 {
            return crate::game::random_games_by_rules(self, games, rng, each);
        }
        let mut playouts = super::playout::Playouts::new(self);
        for _ in 0..games {
            let e = playouts.play(rng);
            each(crate::game::RandomGame {
                winner: e.winner,
                plies: e.plies,
                structures: e.structures.bits(),
            });
        }
    }

    /// On the fast engine, from the position (the swap rule and a handicap only matter before
    /// a tree search starts: with them, through the rules).
    fn random_finish(&self, pos: &Position, rng: &mut crate::rng::Rng) -> Option<Side> {
        if pos.result != 0 {
            return self.outcome(pos).and_then(|o| o.winner);
        }
        if self.swap_allowed(pos) || (self.handicap > 0 && pos.stones[1].is_empty()) {
            let mut cur = *pos;
            let mut moves = Vec::new();
            while self.outcome(&cur).is_none() {
                moves.clear();
                self.legal_moves(&cur, &mut moves);
                let mv = moves[crate::rng::uniform_below(rng, moves.len() as u32) as usize];
                cur = self.play(&cur, mv);
            }
            return self.outcome(&cur).and_then(|o| o.winner);
        }
        super::playout::Playouts::new(self)
            .play_from(pos, rng)
            .winner
    }

    fn structures(&self, pos: &Position) -> Vec<&'static str> {
        pos.structures.names()
    }

    /// Only base 2 (7 cells) is small enough to list every position.
    fn small_enough_to_enumerate(&self) -> bool {
        self.base.get() <= 2
    }

    /// Rows from `a` down, `/` between them, each cell from its lowest column: `W` White, `B`
    /// Black, `.` empty. Base 2: `W./.B./..`.
    fn format_position(&self, pos: &Position) -> String {
        let rows = 2 * self.base.get() as usize - 1;
        (0..rows)
            .map(|y| {
                self.row_columns(y)
                    .map(|x| {
                        let i = y * self.stride + x;
                        if pos.stones[0].has(i) {
                            'W'
                        } else if pos.stones[1].has(i) {
                            'B'
                        } else {
                            '.'
                        }
                    })
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
        let rows: Vec<&str> = text.trim().split('/').collect();
        let want = 2 * self.base.get() as usize - 1;
        if rows.len() != want {
            return Err(bad(format!(
                "{} rows, base {} has {want}",
                rows.len(),
                self.base
            )));
        }
        let mut pos = self.start();
        for (y, row) in rows.iter().enumerate() {
            let cols = self.row_columns(y);
            let chars: Vec<char> = row.chars().collect();
            if chars.len() != cols.clone().count() {
                return Err(bad(format!(
                    "row {} has {} cells, expected {}",
                    (b'a' + y as u8) as char,
                    chars.len(),
                    cols.count()
                )));
            }
            for (x, ch) in cols.zip(chars) {
                let i = y * self.stride + x;
                match ch.to_ascii_uppercase() {
                    'W' => pos.stones[0].set(i),
                    'B' => pos.stones[1].set(i),
                    '.' => {}
                    other => {
                        return Err(bad(format!(
                            "`{}` is not a cell (W, B or .)",
                            other.escape_default()
                        )));
                    }
                }
            }
        }
        pos.to_move = to_move;
        let (w, b) = (pos.stones[0].count() as i64, pos.stones[1].count() as i64);
        let k = i64::from(self.handicap.max(1));
        let possible = match to_move {
            // White moves on at w − b = K − 1 (or during its handicap, before Black's first
            // stone), or after a swap at w − b = −1.
            Side::First => w - b == k - 1 || (b == 0 && w < k) || (self.swap && w - b == -1),
            // Black moves at w − b = K, or after a swap at w = b.
            Side::Second => w - b == k || (self.swap && w == b && b > 0),
        };
        if !possible {
            return Err(bad(format!(
                "{w} white and {b} black stones do not leave {} to move",
                self.side_name(to_move)
            )));
        }
        // A finished game: whoever has a structure won with the last stone, so only the side
        // that moved last can have one.
        let mut winners = Vec::new();
        for side in [Side::First, Side::Second] {
            let own = pos.stones[side as usize];
            let mut found = Structures::default();
            for c in own.iter() {
                found.0 |= self.completed(own, Cell(c as u16)).0;
            }
            if !found.is_empty() {
                pos.result = 1 + side as u8;
                pos.structures = found;
                winners.push(side);
            }
        }
        match winners.as_slice() {
            [_, _] => {
                return Err(bad(
                    "both white and black hold a winning structure: the game ended when the first was made"
                        .into(),
                ));
            }
            [w] if *w == to_move => {
                return Err(bad(format!(
                    "the game ended with {}'s winning structure, yet {} moved after it",
                    self.side_name(*w),
                    self.side_name(w.other())
                )));
            }
            _ => {}
        }
        if pos.result == 0 && (w + b) as usize == self.cells.len() {
            pos.result = 3;
        }
        Ok(pos)
    }

    /// Up to base 3 the grid (row stride 2n, 2n − 1 rows) fits in 30 bits: each side's stones in
    /// 30 bits of the word, the side to move above them. Base 4's 37 cells, each empty, White or
    /// Black, count in base three below 3³⁷ (under 2⁵⁹), the side to move in the lowest bit.
    fn pack(&self, pos: &Position) -> Option<u64> {
        let [white, black] = [pos.stones[0].0[0], pos.stones[1].0[0]];
        let to_move = pos.to_move as u64;
        match self.base.get() {
            2 | 3 => Some(white | black << 30 | to_move << 60),
            4 => {
                let digits = self.cells.iter().rev().fold(0u64, |acc, c| {
                    let i = c.index();
                    acc * 3 + (white >> i & 1) + 2 * (black >> i & 1)
                });
                Some(digits << 1 | to_move)
            }
            _ => None,
        }
    }

    fn plies_played(&self, pos: &Position) -> Option<u32> {
        // A stone a ply, unless a swap or a handicap's row of stones came in between.
        (!self.swap && self.handicap <= 1).then(|| pos.stones[0].count() + pos.stones[1].count())
    }

    fn unpack(&self, key: u64) -> Option<Position> {
        let board = self.shape.board.0[0];
        let (white, black, to_move) = match self.base.get() {
            2 | 3 => (key & board, key >> 30 & board, key >> 60),
            4 => {
                let (mut digits, mut white, mut black) = (key >> 1, 0u64, 0u64);
                for c in &self.cells {
                    match digits % 3 {
                        1 => white |= 1 << c.index(),
                        2 => black |= 1 << c.index(),
                        _ => {}
                    }
                    digits /= 3;
                }
                if digits != 0 {
                    return None;
                }
                (white, black, key & 1)
            }
            _ => return None,
        };
        if white & black != 0 {
            return None;
        }
        let mut stones = [Bits::default(); 2];
        stones[0].0[0] = white;
        stones[1].0[0] = black;
        let side = if to_move == 1 {
            Side::Second
        } else {
            Side::First
        };
        let pos = Position::in_play(stones, side);
        // Only a word this board packs (no stray bits) stands for a position.
        (self.pack(&pos) == Some(key)).then_some(pos)
    }

    /// A cell's grid index, on boards whose grid fits a word (bases 2 to 4); not the swap.
    fn move_bit(&self, mv: Move) -> Option<u32> {
        let i = mv.index();
        (self.small.is_some() && !mv.is_swap() && i < 63).then_some(i as u32)
    }

    fn bit_move(&self, bit: u32) -> Option<Move> {
        let cell = Cell(bit as u16);
        (self.small.is_some() && bit < 63 && self.shape.board.has(cell.index())).then_some(cell)
    }

    fn move_cell(&self, mv: Move) -> Option<usize> {
        // Cells numbered in board order, so a base-2 board uses seven colours.
        (!mv.is_swap())
            .then(|| self.cells().iter().position(|&c| c == mv))
            .flatten()
    }

    fn format_move(&self, mv: Move) -> String {
        if mv.is_swap() {
            return "swap".into();
        }
        self.cell_name(mv)
    }

    fn parse_move(&self, pos: &Position, text: &str) -> Result<Move, GameError> {
        if text.trim().eq_ignore_ascii_case("swap") {
            return crate::game::find_legal(self, pos, text.trim(), |m| m.is_swap());
        }
        let cell = self
            .parse_cell(text)
            .ok_or_else(|| GameError::BadMoveSyntax {
                text: text.to_string(),
                example: "a1, d4 or swap",
            })?;
        crate::game::find_legal(self, pos, text.trim(), |m| m == cell)
    }

    /// The board as a hexagon: row letters on the left, each row's first column number on the
    /// right.
    fn diagram(&self, pos: &Position) -> Vec<String> {
        let n = self.base.get() as usize;
        (0..2 * n - 1)
            .map(|y| {
                let cols = self.row_columns(y);
                let first = *cols.start();
                let indent = 2 * first + n - 1 - y;
                let cells: Vec<String> = cols
                    .map(|x| {
                        let i = y * self.stride + x;
                        if pos.stones[0].has(i) {
                            "W".into()
                        } else if pos.stones[1].has(i) {
                            "B".into()
                        } else {
                            "·".into()
                        }
                    })
                    .collect();
                format!(
                    "{} {}{}   {}{}",
                    (b'a' + y as u8) as char,
                    " ".repeat(indent),
                    cells.join(" "),
                    (b'a' + y as u8) as char,
                    first + 1
                )
            })
            .collect()
    }
}
