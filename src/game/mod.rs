//! Game rules: one [`Game`] trait, one module per game.
//!
//! A game is described by its positions, the side to move, the legal moves, the result of playing a
//! move, the outcome of a finished game and its symmetry group. Everything above this layer (the
//! solver, the matchbox learner, the players, the CLI) is written against the trait; the games
//! themselves live in `src/games/`, one folder each.

pub mod graph;

use std::fmt::{self, Debug, Display};
use std::hash::Hash;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::rng::{Rng, uniform_below};

/// The least image of `pos` under `game`'s symmetries and the symmetry that gives it (the lowest
/// index among equals): [`Game::canonical`] by trying every symmetry.
pub fn least_image<G: Game>(game: &G, pos: &G::Position) -> (G::Position, Sym) {
    let mut best = (pos.clone(), Sym::IDENTITY);
    for i in 1..game.symmetry_count() {
        let sym = Sym(i as u8);
        let image = game.transform_position(sym, pos);
        if image < best.0 {
            best = (image, sym);
        }
    }
    best
}

/// The two players. Every game names them its own way (White/Black, X/O), but `first` and
/// `second` are accepted everywhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    First,
    Second,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
}

/// An element of a game's symmetry group, as an index into the group. `Sym::IDENTITY` is always 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Sym(pub u8);

impl Sym {
    pub const IDENTITY: Sym = Sym(0);
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// How a finished game ended: the winner (none for a draw) and the game's own reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome<R> {
    pub winner: Option<Side>,
    pub reason: R,
}

/// Errors from parsing positions and moves typed by a person or read from a file.
#[derive(Debug, Error, PartialEq, Eq, Clone)]
pub enum GameError {
    #[error("bad size `{}`: expected RxC with 2 <= R, C <= 8, e.g. 3x3", crate::text::quote(.0))]
    BadSize(String),
    #[error("{0}")]
    BadVariant(String),
    #[error(
        "bad position `{}`: {}",
        crate::text::quote(text),
        crate::text::quote_long(why)
    )]
    BadPosition { text: String, why: String },
    #[error(
        "`{}` is not a move (expected e.g. {example})",
        crate::text::quote(text)
    )]
    BadMoveSyntax { text: String, example: &'static str },
    #[error(
        "{} is not a legal move here; legal moves: {legal}",
        crate::text::quote(mv)
    )]
    IllegalMove { mv: String, legal: String },
    /// A move written for a piece that is not where it says.
    #[error("`{}`: {why}", crate::text::quote(mv))]
    WrongPiece { mv: String, why: String },
}

/// The rules of a two-player game, with its symmetries.
///
/// Positions carry the side to move. The symmetry group acts on positions and on moves; the
/// identity is `Sym(0)`. For the group to be usable by the learner, transforming a position and a
/// legal move by the same symmetry must give a legal move of the transformed position.
pub trait Game: Send + Sync + Clone + 'static {
    type Position: Clone + Eq + Ord + Hash + Debug + Send + Sync;
    type Move: Copy + Eq + Ord + Hash + Debug + Send + Sync;
    /// Why a game ended (the game's own reasons: reached the far rank, three in a row, …).
    type Reason: Copy + Eq + Debug + Display + Send + Sync;

    /// The game's name on the command line and in files, e.g. `hexapawn`.
    fn name(&self) -> &'static str;
    /// The board variant, e.g. `3x3`.
    fn variant(&self) -> String;
    /// The game's own name for a side, e.g. `white`.
    fn side_name(&self, side: Side) -> &'static str;

    fn start(&self) -> Self::Position;
    fn to_move(&self, pos: &Self::Position) -> Side;
    /// Appends the legal moves of `pos` to `out` in a fixed order. A finished game has none.
    fn legal_moves(&self, pos: &Self::Position, out: &mut Vec<Self::Move>);
    /// Plays a legal move. Behaviour for an illegal move is unspecified (but never undefined).
    fn play(&self, pos: &Self::Position, mv: Self::Move) -> Self::Position;
    /// The outcome if the game is over.
    fn outcome(&self, pos: &Self::Position) -> Option<Outcome<Self::Reason>>;

    /// Number of elements of the symmetry group (1 when the game has no symmetry).
    fn symmetry_count(&self) -> usize;
    fn transform_position(&self, sym: Sym, pos: &Self::Position) -> Self::Position;
    fn transform_move(&self, sym: Sym, mv: Self::Move) -> Self::Move;
    fn inverse(&self, sym: Sym) -> Sym;

    /// Position as text in the game's notation (Hexapawn: `BBB/.W./W.W`).
    fn format_position(&self, pos: &Self::Position) -> String;
    /// Parses a position in the game's notation, with the given side to move.
    fn parse_position(&self, text: &str, to_move: Side) -> Result<Self::Position, GameError>;
    fn format_move(&self, mv: Self::Move) -> String;
    /// A move as a game record writes it after `pos`, the position it was played in: as
    /// [`Game::format_move`], with what only the position knows (mini-Arimaa: the pieces moved
    /// and the capture tokens, `Db2n rc3x`).
    fn format_move_at(&self, pos: &Self::Position, mv: Self::Move) -> String {
        let _ = pos;
        self.format_move(mv)
    }
    /// A move as a legend names it: its notation, with what it means where that helps a class
    /// (noughts and crosses: `a1 corner`, `b2 centre`).
    fn move_words(&self, mv: Self::Move) -> String {
        self.format_move(mv)
    }
    /// Parses a move in the game's notation and checks that it is legal in `pos`.
    fn parse_move(&self, pos: &Self::Position, text: &str) -> Result<Self::Move, GameError>;
    /// A text diagram of the position, one string per line, with coordinates.
    fn diagram(&self, pos: &Self::Position) -> Vec<String>;

    /// The position packed in one 64-bit word (distinct positions, distinct words), where the
    /// game can (small boards), for compact tables of positions; `None` where it cannot.
    fn pack(&self, pos: &Self::Position) -> Option<u64> {
        let _ = pos;
        None
    }

    /// The canonical image of `pos` ([`Game::canonical`]) packed in a word, with the symmetry
    /// that maps `pos` onto it; `None` where the game does not pack. A game that packs lists its
    /// legal moves in increasing order, so options remembered under a symmetric image can be
    /// put back in legal-move order.
    fn pack_canonical(&self, pos: &Self::Position) -> Option<(u64, Sym)> {
        self.pack(pos)?;
        let (image, sym) = self.canonical(pos);
        Some((self.pack(&image)?, sym))
    }

    /// The plies played to reach `pos`, where the position alone says (a stone or a mark a
    /// ply); `None` where it does not (pawns that moved, a swap).
    fn plies_played(&self, pos: &Self::Position) -> Option<u32> {
        let _ = pos;
        None
    }

    /// The position still in play that [`Game::pack`] packed into `key`; `None` for a word that
    /// packs no position, or a game that does not pack.
    fn unpack(&self, key: u64) -> Option<Self::Position> {
        let _ = key;
        None
    }

    /// A move as a bit of a word (below 63), where the game numbers its moves so on a small
    /// board, in the moves' order (a lesser move, a lower bit): a set of moves in one word, for
    /// compact tables of options. `None` where the game or this move is not numbered so.
    fn move_bit(&self, mv: Self::Move) -> Option<u32> {
        let _ = mv;
        None
    }

    /// The move that [`Game::move_bit`] numbers `bit`.
    fn bit_move(&self, bit: u32) -> Option<Self::Move> {
        let _ = bit;
        None
    }

    /// The cell a move goes to, numbered from 0, for beads coloured by cell (Michie's scheme:
    /// one colour per square); `None` for a move that is not to one cell.
    fn move_cell(&self, mv: Self::Move) -> Option<usize> {
        let _ = mv;
        None
    }

    /// The legal move of a position that has exactly one (a forced move); `None` otherwise.
    fn only_move(&self, pos: &Self::Position) -> Option<Self::Move> {
        match self.moves(pos)[..] {
            [only] => Some(only),
            _ => None,
        }
    }

    /// Legal moves as a new vector.
    fn moves(&self, pos: &Self::Position) -> Vec<Self::Move> {
        let mut out = Vec::new();
        self.legal_moves(pos, &mut out);
        out
    }

    /// The canonical form of a position: the least image under the symmetry group, and the
    /// symmetry `s` with `transform_position(s, pos) == canonical`. A move `m` chosen on the
    /// canonical position is played on the real board as `transform_move(inverse(s), m)`.
    /// When several symmetries give the canonical image, the one with the lowest index is returned,
    /// so a position that is already canonical comes back with the identity.
    fn canonical(&self, pos: &Self::Position) -> (Self::Position, Sym) {
        least_image(self, pos)
    }

    /// The symmetries that leave `pos` unchanged (always contains the identity).
    fn stabilizer(&self, pos: &Self::Position) -> Vec<Sym> {
        (0..self.symmetry_count())
            .map(|i| Sym(i as u8))
            .filter(|&s| s == Sym::IDENTITY || self.transform_position(s, pos) == *pos)
            .collect()
    }

    /// The legal moves of `pos` with symmetric moves merged: for each orbit of moves under the
    /// stabilizer of `pos`, the least move. In a position with no symmetry these are all the moves.
    fn distinct_moves(&self, pos: &Self::Position) -> Vec<Self::Move> {
        let stab = self.stabilizer(pos);
        let mut moves = self.moves(pos);
        if stab.len() > 1 {
            moves.retain(|&m| stab.iter().all(|&s| self.transform_move(s, m) >= m));
        }
        moves
    }

    /// Plies after which a learning game is called a draw, for games whose positions can repeat
    /// (mini-Arimaa); `None`: every game ends by the rules. Games with a limit are played from
    /// positions (the compiled table has no move counter).
    fn ply_limit(&self) -> Option<u32> {
        None
    }

    /// Why the game that reached `pos` ended, as a sentence a class reads: "Black cannot move",
    /// "X has three in a row: a1 b2 c3", "White made a bridge".
    fn end_words(&self, pos: &Self::Position, outcome: &Outcome<Self::Reason>) -> String {
        let _ = pos;
        match outcome.winner {
            Some(w) => format!("{} won: {}", capitalised(self.side_name(w)), outcome.reason),
            None => format!("a draw: {}", outcome.reason),
        }
    }

    /// An upper bound on the number of positions with `side` to move, and how it was found, for
    /// counting boxes where the game is too big to enumerate. `None`: the game is small enough to
    /// enumerate always.
    fn position_bound(&self, _side: Side) -> Option<(f64, &'static str)> {
        None
    }

    /// Whether every reachable position can be listed (the game graph built, every box made up
    /// front). By default: the game has no bound, or its bound is at most [`ENUMERABLE_BOUND`].
    fn small_enough_to_enumerate(&self) -> bool {
        self.position_bound(Side::First)
            .is_none_or(|(bound, _)| bound <= ENUMERABLE_BOUND)
    }

    /// The kinds of structure a move can complete, by bit of [`RandomGame::structures`].
    fn structure_kinds(&self) -> &'static [&'static str] {
        &[]
    }

    /// Plays `games` uniformly random games from the start (every move uniform over the legal
    /// moves) and hands each ending to `each`. Games with a faster engine for this override it.
    fn random_games(&self, games: u64, rng: &mut Rng, each: &mut dyn FnMut(RandomGame))
    where
        Self: Sized,
    {
        random_games_by_rules(self, games, rng, each)
    }

    /// Finishes a game from `pos` with uniformly random moves: the winner (none for a draw).
    /// Games with a faster engine override it (the rollouts of a tree search).
    fn random_finish(&self, pos: &Self::Position, rng: &mut Rng) -> Option<Side> {
        let mut cur = pos.clone();
        let mut moves = Vec::new();
        loop {
            if let Some(o) = self.outcome(&cur) {
                return o.winner;
            }
            moves.clear();
            self.legal_moves(&cur, &mut moves);
            if moves.is_empty() {
                return None;
            }
            let mv = moves[uniform_below(rng, moves.len() as u32) as usize];
            cur = self.play(&cur, mv);
        }
    }

    /// The named structures the last move completed (Havannah: `ring`, `bridge`, `fork`); none
    /// for games without them.
    fn structures(&self, _pos: &Self::Position) -> Vec<&'static str> {
        Vec::new()
    }

    /// Parses a side: `first`/`second` or the game's own names.
    fn parse_side(&self, text: &str) -> Option<Side> {
        let t = text.trim().to_ascii_lowercase();
        [Side::First, Side::Second]
            .into_iter()
            .find(|&s| t == self.side_name(s) || t == side_generic_name(s))
    }
}

/// [`Game::random_games`] through the rules: every move uniform over the legal moves.
pub fn random_games_by_rules<G: Game>(
    game: &G,
    games: u64,
    rng: &mut Rng,
    each: &mut dyn FnMut(RandomGame),
) {
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut pos = game.start();
        let mut plies = 0;
        let outcome = loop {
            if let Some(o) = game.outcome(&pos) {
                break o;
            }
            moves.clear();
            game.legal_moves(&pos, &mut moves);
            let mv = moves[uniform_below(rng, moves.len() as u32) as usize];
            pos = game.play(&pos, mv);
            plies += 1;
        };
        let names = game.structures(&pos);
        let structures = game
            .structure_kinds()
            .iter()
            .enumerate()
            .filter(|(_, k)| names.contains(k))
            .fold(0u8, |acc, (i, _)| acc | 1 << i);
        each(RandomGame {
            winner: outcome.winner,
            plies,
            structures,
        });
    }
}

/// How a random game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomGame {
    pub winner: Option<Side>,
    pub plies: u32,
    /// The structures the last move completed, one bit per kind of
    /// [`Game::structure_kinds`].
    pub structures: u8,
}

/// Above this bound on positions (with either side to move), a game is not enumerated: memory
/// and time run out long before.
pub const ENUMERABLE_BOUND: f64 = 1e11;

/// Whether every position of `game` can be enumerated (its graph built, its boxes listed).
pub fn enumerable<G: Game>(game: &G) -> bool {
    game.small_enough_to_enumerate()
}

/// The legal move of `pos` that `matches`, or the error listing the legal moves (for `parse_move`).
pub fn find_legal<G: Game>(
    game: &G,
    pos: &G::Position,
    text: &str,
    matches: impl Fn(G::Move) -> bool,
) -> Result<G::Move, GameError> {
    let moves = game.moves(pos);
    moves
        .iter()
        .copied()
        .find(|&m| matches(m))
        .ok_or_else(|| GameError::IllegalMove {
            mv: text.to_string(),
            legal: if moves.is_empty() {
                "none (the game is over)".into()
            } else {
                moves
                    .iter()
                    .map(|&m| game.format_move(m))
                    .collect::<Vec<_>>()
                    .join(", ")
            },
        })
}

/// `first` or `second`.
pub fn side_generic_name(side: Side) -> &'static str {
    match side {
        Side::First => "first",
        Side::Second => "second",
    }
}

impl Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(side_generic_name(*self))
    }
}

/// `word` with its first letter in capitals ("white" → "White").
pub fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
