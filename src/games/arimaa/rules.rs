//! Arimaa's rules on a parametrised board (width, height, traps, steps per turn): the full game
//! on 8×8 and small variants share this one engine.
//!
//! A square is `rank * width + file` (a1 = 0), a bit of a `u64`. A turn is found as every
//! sequence of 1 to `steps` steps, breadth first, each intermediate state (board, and a pull
//! that may follow or a push that must be completed) kept once by its hash; the turns are the
//! distinct boards that end a sequence with no push pending and differ from the start.

use crate::game::{GameError, Side};

/// Piece kinds, weakest first: the index is the strength.
pub const KINDS: [char; 6] = ['R', 'C', 'D', 'H', 'M', 'E'];
pub const RABBIT: u8 = 0;

/// A direction of a step; north is toward Silver's home (rank 8 on the full board).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    North,
    South,
    East,
    West,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::North, Dir::South, Dir::East, Dir::West];
    pub fn letter(self) -> char {
        match self {
            Dir::North => 'n',
            Dir::South => 's',
            Dir::East => 'e',
            Dir::West => 'w',
        }
    }
    fn from_letter(c: char) -> Option<Dir> {
        Some(match c {
            'n' => Dir::North,
            's' => Dir::South,
            'e' => Dir::East,
            'w' => Dir::West,
            _ => return None,
        })
    }
}

/// One step: the piece on `from` moves one square in `dir` (own or, in a push or pull, enemy).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Step {
    pub from: u8,
    pub dir: Dir,
}

/// The pieces of both sides: `pieces[side][kind]`, one bit per square.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    pieces: [[u64; 6]; 2],
}

impl Board {
    pub fn side(&self, side: Side) -> u64 {
        self.pieces[side as usize].iter().fold(0, |a, &b| a | b)
    }
    pub fn occupied(&self) -> u64 {
        self.side(Side::First) | self.side(Side::Second)
    }
    pub fn kind(&self, side: Side, kind: u8) -> u64 {
        self.pieces[side as usize][kind as usize]
    }
    /// The piece on square `sq`: its side and kind.
    pub fn at(&self, sq: u8) -> Option<(Side, u8)> {
        let bit = 1u64 << sq;
        for side in [Side::First, Side::Second] {
            for k in 0..6 {
                if self.pieces[side as usize][k] & bit != 0 {
                    return Some((side, k as u8));
                }
            }
        }
        None
    }
    pub fn put(&mut self, sq: u8, side: Side, kind: u8) {
        self.pieces[side as usize][kind as usize] |= 1 << sq;
    }
    fn remove(&mut self, sq: u8, side: Side, kind: u8) {
        self.pieces[side as usize][kind as usize] &= !(1 << sq);
    }
    /// Pieces of `side` stronger than `kind`.
    fn stronger(&self, side: Side, kind: u8) -> u64 {
        self.pieces[side as usize][kind as usize + 1..]
            .iter()
            .fold(0, |a, &b| a | b)
    }
    /// A hash of the board (FNV-1a over its words), for keeping states and results once.
    pub fn hash64(&self) -> u64 {
        let mut h = 0xcbf2_9ce4_8422_2325u64;
        for side in &self.pieces {
            for &w in side {
                h = (h ^ w).wrapping_mul(0x0000_0100_0000_01b3);
                h ^= h >> 29;
            }
        }
        h
    }
}

/// A capture: the piece of `side` and `kind` removed from trap `sq`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capture {
    pub sq: u8,
    pub side: Side,
    pub kind: u8,
}

impl Pending {
    /// A hash of what is pending, to mix with the board's.
    fn hash64(self) -> u64 {
        let (kind, sq, strength) = match self {
            Pending::None => (0u64, 0u64, 0u64),
            Pending::Pull { from, strength } => (1, from as u64, strength as u64),
            Pending::Push { to, strength } => (2, to as u64, strength as u64),
        };
        (kind << 16 | sq << 8 | strength).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
}

/// What the previous step allows or demands of the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Pending {
    None,
    /// A piece of strength `strength` of the mover left `from`: a weaker enemy piece beside
    /// `from` may be pulled into it.
    Pull {
        from: u8,
        strength: u8,
    },
    /// An enemy piece of strength `strength` was pushed off `to`: a stronger unfrozen piece of
    /// the mover beside `to` must step into it.
    Push {
        to: u8,
        strength: u8,
    },
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EndReason {
    Goal,
    Elimination,
    Immobilization,
}

impl EndReason {
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Goal => "goal",
            EndReason::Elimination => "elimination",
            EndReason::Immobilization => "immobilization",
        }
    }
}

impl std::fmt::Display for EndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The turns of a position, as the `moves` command reports them.
#[derive(Clone, Debug, Default)]
pub struct TurnList {
    /// Distinct legal first steps (the resulting states after one step, push starts included).
    pub first_steps: usize,
    /// Each distinct resulting board, with a shortest step sequence that makes it.
    pub turns: Vec<(Board, Vec<Step>)>,
    /// How many results need at least 1, 2, 3, 4 … steps.
    pub by_min_steps: Vec<usize>,
}

/// An Arimaa board shape and its rules.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    width: u8,
    height: u8,
    traps: u64,
    steps: u8,
    /// Squares on the board.
    all: u64,
    /// Squares not on the first / last file (for east and west shifts).
    not_a: u64,
    not_last: u64,
}

impl Rules {
    /// A board of `width` × `height` (2 to 8 each) with these trap squares and steps per turn.
    pub fn new(width: u8, height: u8, traps: &[u8], steps: u8) -> Result<Rules, GameError> {
        if !(2..=8).contains(&width) || !(2..=8).contains(&height) || !(1..=4).contains(&steps) {
            return Err(GameError::BadVariant(format!(
                "an Arimaa board is 2 to 8 squares a side with 1 to 4 steps a turn (got {width}×{height}, {steps} steps)"
            )));
        }
        let n = width as u32 * height as u32;
        let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
        let mut not_a = 0u64;
        let mut not_last = 0u64;
        for sq in 0..n {
            if sq % width as u32 != 0 {
                not_a |= 1 << sq;
            }
            if sq % width as u32 != width as u32 - 1 {
                not_last |= 1 << sq;
            }
        }
        let traps = traps.iter().fold(0u64, |a, &t| a | 1 << t) & all;
        Ok(Rules {
            width,
            height,
            traps,
            steps,
            all,
            not_a,
            not_last,
        })
    }

    /// The official game: 8×8, traps c3 f3 c6 f6, 4 steps.
    pub fn standard() -> Rules {
        let sq = |f: u8, r: u8| r * 8 + f;
        Rules::new(8, 8, &[sq(2, 2), sq(5, 2), sq(2, 5), sq(5, 5)], 4).expect("valid")
    }

    pub fn width(&self) -> u8 {
        self.width
    }
    pub fn height(&self) -> u8 {
        self.height
    }
    pub fn steps(&self) -> u8 {
        self.steps
    }
    pub fn traps(&self) -> u64 {
        self.traps
    }
    pub fn squares(&self) -> u8 {
        self.width * self.height
    }

    /// The square one step from `sq` in `dir`, if on the board.
    pub fn step_to(&self, sq: u8, dir: Dir) -> Option<u8> {
        let (f, r) = (sq % self.width, sq / self.width);
        match dir {
            Dir::North if r + 1 < self.height => Some(sq + self.width),
            Dir::South if r > 0 => Some(sq - self.width),
            Dir::East if f + 1 < self.width => Some(sq + 1),
            Dir::West if f > 0 => Some(sq - 1),
            _ => None,
        }
    }

    /// The squares next to any square of `b`.
    pub fn neighbours(&self, b: u64) -> u64 {
        let w = self.width as u32;
        ((b << w) | (b >> w) | ((b & self.not_last) << 1) | ((b & self.not_a) >> 1)) & self.all
    }

    /// The rank a side's rabbits must reach.
    fn goal_rank(&self, side: Side) -> u64 {
        let row = (1u64 << self.width) - 1;
        match side {
            Side::First => row << (self.width as u32 * (self.height as u32 - 1)),
            Side::Second => row,
        }
    }

    /// Whether the piece of `side` and `kind` on `sq` is frozen: next to a stronger enemy piece
    /// with no friendly piece beside it.
    pub fn frozen(&self, b: &Board, sq: u8, side: Side, kind: u8) -> bool {
        let around = self.neighbours(1 << sq);
        around & b.side(side) == 0 && around & b.stronger(side.other(), kind) != 0
    }

    /// Plays one step (the square ahead must be empty) and removes the pieces left alone on
    /// traps, returning them.
    pub fn apply_step(&self, b: &mut Board, step: Step) -> Vec<Capture> {
        let mut captures = Vec::new();
        self.apply_step_into(b, step, &mut captures);
        captures
    }

    fn apply_step_into(&self, b: &mut Board, step: Step, captures: &mut Vec<Capture>) {
        let Some((side, kind)) = b.at(step.from) else {
            return;
        };
        let Some(to) = self.step_to(step.from, step.dir) else {
            return;
        };
        b.remove(step.from, side, kind);
        b.put(to, side, kind);
        let mut traps = self.traps & b.occupied();
        while traps != 0 {
            let t = traps.trailing_zeros() as u8;
            traps &= traps - 1;
            if let Some((s, k)) = b.at(t)
                && self.neighbours(1 << t) & b.side(s) == 0
            {
                b.remove(t, s, k);
                captures.push(Capture {
                    sq: t,
                    side: s,
                    kind: k,
                });
            }
        }
    }

    /// The step from `from` in direction `dir` on `b`, the board it leads to and the state of
    /// the turn after it, added to `out`.
    fn push_step(
        &self,
        b: &Board,
        (from, dir): (u8, Dir),
        pending: Pending,
        out: &mut Vec<(Step, Board, Pending)>,
    ) {
        let mut nb = *b;
        let mut caps = Vec::new();
        self.apply_step_into(&mut nb, Step { from, dir }, &mut caps);
        out.push((Step { from, dir }, nb, pending));
    }

    /// The direction from `sq` to the adjacent square `to`.
    fn towards(&self, sq: u8, to: u8) -> Dir {
        Dir::ALL
            .into_iter()
            .find(|&d| self.step_to(sq, d) == Some(to))
            .expect("adjacent")
    }

    /// The steps of the pieces in `pieces`, each into `to` (a push's second half, a pull's).
    fn steps_into(
        &self,
        b: &Board,
        mut pieces: u64,
        to: u8,
        out: &mut Vec<(Step, Board, Pending)>,
    ) {
        while pieces != 0 {
            let sq = pieces.trailing_zeros() as u8;
            pieces &= pieces - 1;
            self.push_step(b, (sq, self.towards(sq, to)), Pending::None, out);
        }
    }

    /// The steps of `mover`'s piece on `sq` (unfrozen): to every empty square beside it (a
    /// rabbit never back), and the pushes it begins with two steps or more left.
    fn piece_steps(
        &self,
        b: &Board,
        (sq, kind): (u8, u8),
        mover: Side,
        left: u8,
        out: &mut Vec<(Step, Board, Pending)>,
    ) {
        let empty = !b.occupied() & self.all;
        let backward = match mover {
            Side::First => Dir::South,
            Side::Second => Dir::North,
        };
        for dir in Dir::ALL {
            if kind == RABBIT && dir == backward {
                continue;
            }
            if let Some(to) = self.step_to(sq, dir)
                && empty & (1 << to) != 0
            {
                let next = match kind > RABBIT {
                    true => Pending::Pull {
                        from: sq,
                        strength: kind,
                    },
                    false => Pending::None,
                };
                self.push_step(b, (sq, dir), next, out);
            }
        }
        // Pushes by this piece: a weaker enemy piece beside it moves to an empty square.
        if left < 2 || kind == RABBIT {
            return;
        }
        let enemy = mover.other();
        let mut victims = self.neighbours(1 << sq) & b.side(enemy) & !b.stronger(enemy, kind - 1);
        while victims != 0 {
            let v = victims.trailing_zeros() as u8;
            victims &= victims - 1;
            let (_, vkind) = b.at(v).expect("a piece");
            for dir in Dir::ALL {
                if let Some(to) = self.step_to(v, dir)
                    && empty & (1 << to) != 0
                {
                    let pending = Pending::Push {
                        to: v,
                        strength: vkind,
                    };
                    self.push_step(b, (v, dir), pending, out);
                }
            }
        }
    }

    /// Every step allowed from a state of `mover`'s turn with `left` steps left, and the state
    /// it leads to.
    fn steps_from(
        &self,
        b: &Board,
        mover: Side,
        pending: Pending,
        left: u8,
        out: &mut Vec<(Step, Board, Pending)>,
    ) {
        let empty = !b.occupied() & self.all;
        let enemy = mover.other();
        if let Pending::Push { to, strength } = pending {
            // Only the push's second half: a stronger unfrozen piece beside `to` moves into it.
            let mut pushers = self.neighbours(1 << to) & b.stronger(mover, strength);
            let mut unfrozen = 0u64;
            while pushers != 0 {
                let sq = pushers.trailing_zeros() as u8;
                pushers &= pushers - 1;
                let (_, kind) = b.at(sq).expect("a piece");
                if !self.frozen(b, sq, mover, kind) {
                    unfrozen |= 1 << sq;
                }
            }
            self.steps_into(b, unfrozen, to, out);
            return;
        }
        // Completing a pull: a weaker enemy piece beside the square just left moves into it.
        if let Pending::Pull { from, strength } = pending
            && empty & (1 << from) != 0
            && strength > 0
        {
            let pulled = self.neighbours(1 << from)
                & b.side(enemy)
                & !b.stronger(enemy, strength.saturating_sub(1));
            self.steps_into(b, pulled, from, out);
        }
        // The mover's own steps, and pushes begun.
        let mut own = b.side(mover);
        while own != 0 {
            let sq = own.trailing_zeros() as u8;
            own &= own - 1;
            let (_, kind) = b.at(sq).expect("a piece");
            if !self.frozen(b, sq, mover, kind) {
                self.piece_steps(b, (sq, kind), mover, left, out);
            }
        }
    }

    /// Every distinct turn of `mover` from `board` (ignoring the repetition rule), each with a
    /// shortest step sequence, in the order found (fewest steps first).
    pub fn turns(&self, board: &Board, mover: Side) -> TurnList {
        // Every state made, as its step and the state it came from (paths are rebuilt only for
        // the results).
        let mut arena: Vec<(u32, Step)> = Vec::new();
        let mut found: Vec<(Board, u32)> = Vec::new();
        let (first_steps, by_min_steps) = self.walk(board, mover, Some(&mut arena), |b, id| {
            found.push((*b, id));
            true
        });
        let turns = found
            .into_iter()
            .map(|(b, mut id)| {
                let mut path = Vec::with_capacity(self.steps as usize);
                while id != u32::MAX {
                    let (parent, step) = arena[id as usize];
                    path.push(step);
                    id = parent;
                }
                path.reverse();
                (b, path)
            })
            .collect();
        TurnList {
            first_steps,
            turns,
            by_min_steps,
        }
    }

    /// Visits each distinct turn result of `mover` from `board` once (fewest steps first) and
    /// keeps none: memory for the states of one step's depth and a 64-bit key per state, not a
    /// list of turns. `visit` returns whether to go on. Returns the first steps and the results
    /// by fewest steps (of those visited).
    pub fn each_turn(
        &self,
        board: &Board,
        mover: Side,
        mut visit: impl FnMut(&Board) -> bool,
    ) -> (usize, Vec<usize>) {
        self.walk(board, mover, None, |b, _| visit(b))
    }

    /// The breadth-first walk of [`Rules::turns`] and [`Rules::each_turn`]: each distinct
    /// result goes to `visit` with its state's number in `arena` (if one is kept).
    fn walk(
        &self,
        board: &Board,
        mover: Side,
        mut arena: Option<&mut Vec<(u32, Step)>>,
        mut visit: impl FnMut(&Board, u32) -> bool,
    ) -> (usize, Vec<usize>) {
        let mut by_min_steps = vec![0; self.steps as usize];
        let mut first_steps = 0;
        // States and results are kept by a 64-bit hash of the board (and what is pending), not
        // compared board by board; a state seen with more steps left covers the later one.
        let mut seen: hashbrown::HashSet<u64> = hashbrown::HashSet::new();
        let mut results: hashbrown::HashSet<u64> = hashbrown::HashSet::new();
        results.insert(board.hash64());
        let mut level: Vec<(Board, Pending, u32)> = vec![(*board, Pending::None, u32::MAX)];
        let mut buf = Vec::new();
        let mut count = 0u32;
        for depth in 0..self.steps {
            let left = self.steps - depth;
            let last = depth + 1 == self.steps;
            let mut next = Vec::new();
            for &(b, pending, node) in &level {
                buf.clear();
                self.steps_from(&b, mover, pending, left, &mut buf);
                for &(step, nb, np) in &buf {
                    let h = nb.hash64();
                    if !seen.insert(h ^ np.hash64()) {
                        continue;
                    }
                    let id = match arena.as_deref_mut() {
                        Some(a) => {
                            a.push((node, step));
                            (a.len() - 1) as u32
                        }
                        None => count,
                    };
                    count = count.wrapping_add(1);
                    if depth == 0 {
                        first_steps += 1;
                    }
                    if !matches!(np, Pending::Push { .. }) && results.insert(h) {
                        by_min_steps[depth as usize] += 1;
                        if !visit(&nb, id) {
                            return (first_steps, by_min_steps);
                        }
                    }
                    // The last step's states lead nowhere: they are not kept.
                    if !last {
                        next.push((nb, np, id));
                    }
                }
            }
            level = next;
        }
        (first_steps, by_min_steps)
    }

    /// Whether `mover` has a turn at all: any first step will do (a single step changes the
    /// board, and a push begun can always be finished by its pusher).
    pub fn can_move(&self, board: &Board, mover: Side) -> bool {
        let mut buf = Vec::new();
        self.steps_from(board, mover, Pending::None, self.steps, &mut buf);
        !buf.is_empty()
    }

    /// Follows a turn step by step: each step must be allowed where it is played (a piece of
    /// the mover that is not frozen, a rabbit not stepping back, an enemy piece only in a push
    /// or pull by a stronger piece), and the turn must end with no push half done. The board it
    /// makes, or the index of the first step that is not allowed (`steps.len()` for an
    /// unfinished push, or too many steps).
    pub fn follow(&self, board: &Board, mover: Side, steps: &[Step]) -> Result<Board, usize> {
        if steps.len() > self.steps as usize {
            return Err(self.steps as usize);
        }
        let mut states = vec![(*board, Pending::None)];
        let mut buf = Vec::new();
        for (i, &step) in steps.iter().enumerate() {
            let left = self.steps - i as u8;
            let mut next = Vec::new();
            for &(b, p) in &states {
                buf.clear();
                self.steps_from(&b, mover, p, left, &mut buf);
                for &(s, nb, np) in &buf {
                    if s == step && !next.contains(&(nb, np)) {
                        next.push((nb, np));
                    }
                }
            }
            if next.is_empty() {
                return Err(i);
            }
            states = next;
        }
        states
            .iter()
            .find(|(_, p)| !matches!(p, Pending::Push { .. }))
            .map(|&(b, _)| b)
            .ok_or(steps.len())
    }

    /// How a turn of `mover` that made `board` ends the game, checked in the official order;
    /// the immobilization of the next player is checked only if `immobile` says so (it costs a
    /// turn generation).
    pub fn end_of_turn(
        &self,
        board: &Board,
        mover: Side,
        next_can_move: impl FnOnce() -> bool,
    ) -> Option<(Side, EndReason)> {
        let other = mover.other();
        if board.kind(mover, RABBIT) & self.goal_rank(mover) != 0 {
            return Some((mover, EndReason::Goal));
        }
        if board.kind(other, RABBIT) & self.goal_rank(other) != 0 {
            return Some((other, EndReason::Goal));
        }
        if board.kind(other, RABBIT) == 0 {
            return Some((mover, EndReason::Elimination));
        }
        if board.kind(mover, RABBIT) == 0 {
            return Some((other, EndReason::Elimination));
        }
        if !next_can_move() {
            return Some((mover, EndReason::Immobilization));
        }
        None
    }

    /// The name of square `sq` (`a1` …).
    pub fn square_name(&self, sq: u8) -> String {
        format!(
            "{}{}",
            (b'a' + sq % self.width) as char,
            sq / self.width + 1
        )
    }

    /// The square named `text`.
    pub fn parse_square(&self, text: &str) -> Option<u8> {
        let mut chars = text.chars();
        let f = chars.next()?;
        let r: u8 = chars.as_str().parse().ok()?;
        if !f.is_ascii_lowercase() || r == 0 {
            return None;
        }
        let f = f as u8 - b'a';
        let r = r - 1;
        // `f` and `r` are checked against the board first: no product can overflow.
        (f < self.width && r < self.height).then(|| r * self.width + f)
    }

    /// A piece's letter: upper case Gold, lower case Silver.
    pub fn piece_letter(side: Side, kind: u8) -> char {
        let c = KINDS[kind as usize];
        match side {
            Side::First => c,
            Side::Second => c.to_ascii_lowercase(),
        }
    }

    fn parse_piece(c: char) -> Option<(Side, u8)> {
        let kind = KINDS.iter().position(|&k| k == c.to_ascii_uppercase())? as u8;
        let side = if c.is_ascii_uppercase() {
            Side::First
        } else {
            Side::Second
        };
        Some((side, kind))
    }

    /// A step sequence in notation, with capture tokens after the steps that caused them
    /// (`Ed2n Ed3n rc4s Cc3x`), played from `board`.
    pub fn format_steps(&self, board: &Board, steps: &[Step]) -> String {
        let mut b = *board;
        let mut words = Vec::new();
        for &s in steps {
            let (side, kind) = b.at(s.from).expect("a piece on the step's square");
            words.push(format!(
                "{}{}{}",
                Self::piece_letter(side, kind),
                self.square_name(s.from),
                s.dir.letter()
            ));
            for c in self.apply_step(&mut b, s) {
                words.push(format!(
                    "{}{}x",
                    Self::piece_letter(c.side, c.kind),
                    self.square_name(c.sq)
                ));
            }
        }
        words.join(" ")
    }

    /// Parses one step token (`Ed2n`); capture tokens (`Cc3x`) give `Ok(None)`.
    pub fn parse_step(&self, text: &str) -> Result<Option<(Side, u8, Step)>, String> {
        let mut chars = text.chars();
        let piece = chars.next().ok_or("an empty step")?;
        let (side, kind) =
            Self::parse_piece(piece).ok_or_else(|| format!("`{piece}` is not a piece letter"))?;
        let rest: String = chars.collect();
        let Some(last) = rest.chars().last() else {
            return Err("a step needs a square and a direction".into());
        };
        let square = &rest[..rest.len() - last.len_utf8()];
        let sq = self
            .parse_square(square)
            .ok_or_else(|| format!("no square `{}` on this board", crate::text::quote(square)))?;
        if last == 'x' {
            return Ok(None);
        }
        let dir = Dir::from_letter(last).ok_or_else(|| {
            format!("`{last}` is not a direction (n, s, e, w, or x for a capture)")
        })?;
        Ok(Some((side, kind, Step { from: sq, dir })))
    }

    /// Parses a setup token (`Ra1`).
    pub fn parse_placement(&self, text: &str) -> Option<(Side, u8, u8)> {
        let mut chars = text.chars();
        let (side, kind) = Self::parse_piece(chars.next()?)?;
        let sq = self.parse_square(chars.as_str())?;
        Some((side, kind, sq))
    }

    /// The short position form: `[` + one character a square, top rank first, `]`.
    pub fn short_form(&self, b: &Board) -> String {
        let mut s = String::from("[");
        for r in (0..self.height).rev() {
            for f in 0..self.width {
                let sq = r * self.width + f;
                s.push(match b.at(sq) {
                    Some((side, kind)) => Self::piece_letter(side, kind),
                    None => ' ',
                });
            }
        }
        s.push(']');
        s
    }

    /// Parses the short position form.
    pub fn parse_short(&self, text: &str) -> Result<Board, String> {
        let t = text.trim_matches(|c| c == '\n' || c == '\r');
        let inner = t
            .strip_prefix('[')
            .and_then(|s| s.strip_suffix(']'))
            .ok_or("a position is `[` + one character a square + `]`")?;
        let chars: Vec<char> = inner.chars().collect();
        if chars.len() != self.squares() as usize {
            return Err(format!(
                "{} squares given, the board has {}",
                chars.len(),
                self.squares()
            ));
        }
        let mut b = Board::default();
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' || c == '.' {
                continue;
            }
            let (side, kind) =
                Self::parse_piece(c).ok_or_else(|| format!("`{c}` is not a piece letter"))?;
            let r = self.height - 1 - (i as u8 / self.width);
            let f = i as u8 % self.width;
            b.put(r * self.width + f, side, kind);
        }
        self.check_board(&b)?;
        Ok(b)
    }

    /// Why a board cannot come up in a game, if it cannot: more pieces of a kind than a side
    /// has (on the full board: 8 rabbits, 2 cats, 2 dogs, 2 horses, a camel, an elephant), a
    /// piece on a trap with no friend beside it (it would have been captured), or rabbits of both
    /// sides on their goals (the game ended when the first got there).
    pub fn check_board(&self, b: &Board) -> Result<(), String> {
        const MOST: [u32; 6] = [8, 2, 2, 2, 1, 1];
        const NAMES: [&str; 6] = ["rabbits", "cats", "dogs", "horses", "camels", "elephants"];
        for side in [Side::First, Side::Second] {
            let name = if side == Side::First {
                "gold"
            } else {
                "silver"
            };
            if self.width == 8 && self.height == 8 {
                for kind in 0..6u8 {
                    let n = b.kind(side, kind).count_ones();
                    if n > MOST[kind as usize] {
                        return Err(format!(
                            "{n} {name} {}: a side has at most {}",
                            NAMES[kind as usize], MOST[kind as usize]
                        ));
                    }
                }
            }
            let own = b.side(side);
            let mut on_traps = own & self.traps;
            while on_traps != 0 {
                let sq = on_traps.trailing_zeros() as u8;
                on_traps &= on_traps - 1;
                if self.neighbours(1 << sq) & own == 0 {
                    let (s, kind) = b.at(sq).expect("a piece stands there");
                    return Err(format!(
                        "the {} on {}, a trap, has no friend beside it: it would have been captured",
                        Self::piece_letter(s, kind),
                        self.square_name(sq)
                    ));
                }
            }
        }
        let gold = b.kind(Side::First, RABBIT) & self.goal_rank(Side::First) != 0;
        let silver = b.kind(Side::Second, RABBIT) & self.goal_rank(Side::Second) != 0;
        if gold && silver {
            return Err(
                "rabbits of both sides stand on their goals: the game ended when the first got there"
                    .into(),
            );
        }
        Ok(())
    }

    /// The board as text rows, top rank first, with rank numbers and file letters; traps as `x`
    /// where empty.
    pub fn diagram(&self, b: &Board) -> Vec<String> {
        let mut rows = Vec::new();
        for r in (0..self.height).rev() {
            let mut line = format!("{} ", r + 1);
            for f in 0..self.width {
                let sq = r * self.width + f;
                let c = match b.at(sq) {
                    Some((side, kind)) => Self::piece_letter(side, kind),
                    None if self.traps & (1 << sq) != 0 => 'x',
                    None => '.',
                };
                line.push(c);
                line.push(' ');
            }
            rows.push(line.trim_end().to_string());
        }
        let files: String = (0..self.width)
            .map(|f| format!("{} ", (b'a' + f) as char))
            .collect();
        rows.push(format!("  {}", files.trim_end()));
        rows
    }
}
