//! Any game of the registry as one type: the game erased above the core.
//!
//! The front ends (the screens, the class server, the operator, the reports of a machine) are
//! generic over the game, and were compiled once a game: four copies of the same code. They take
//! [`AnyGame`] instead, which is each game's rules, defaults, board and label by dispatch, so
//! that their code is compiled once. The training loops, whose speed is the product, stay
//! generic and run on the typed game ([`crate::with_game!`]).
//!
//! A position, a move or a reason carries its game ([`AnyPosition`], [`AnyMove`],
//! [`AnyReason`]), so everything a game says (its files, its notation, its boxes in order) is
//! the typed game's, word for word and byte for byte. One of another game never comes from the
//! machine's own moves; where one is given all the same, it is refused as an illegal move, has no
//! legal move and changes nothing.

use std::fmt;

use ratatui::style::Color;
use ratatui::text::Line;

use super::GameKind;
use super::arimaa::MiniArimaa;
use super::havannah::Havannah;
use super::hexapawn::Hexapawn;
use super::tictactoe::TicTacToe;
use crate::game::{Game, GameError, Outcome, RandomGame, Side, Sym};
use crate::labels::LabelView;
use crate::learn::{BoxCounts, Forced, GameDefaults, Preset, SymmetryMode};
use crate::rng::Rng;
use crate::solve::{Children, SolveError, TieBreak, Value, Values};
use crate::view::board::BoardView;

/// One game of the registry, by value (Havannah's tables boxed: the others are small).
#[derive(Clone, Debug)]
pub enum AnyGame {
    Hexapawn(Hexapawn),
    TicTacToe(TicTacToe),
    Havannah(Box<Havannah>),
    MiniArimaa(MiniArimaa),
}

/// A position of one of the games. Havannah's and mini-Arimaa's (104 bytes each) are boxed, so
/// that a machine of the small games' positions (Hexapawn's 24 bytes) does not take the largest's
/// room for every box: 32 bytes, not 112.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AnyPosition {
    Hexapawn(<Hexapawn as Game>::Position),
    TicTacToe(<TicTacToe as Game>::Position),
    Havannah(Box<<Havannah as Game>::Position>),
    MiniArimaa(Box<<MiniArimaa as Game>::Position>),
}

/// A move of one of the games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum AnyMove {
    Hexapawn(<Hexapawn as Game>::Move),
    TicTacToe(<TicTacToe as Game>::Move),
    Havannah(<Havannah as Game>::Move),
    MiniArimaa(<MiniArimaa as Game>::Move),
}

/// Why a game of one of the games ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyReason {
    Hexapawn(<Hexapawn as Game>::Reason),
    TicTacToe(<TicTacToe as Game>::Reason),
    Havannah(<Havannah as Game>::Reason),
    MiniArimaa(<MiniArimaa as Game>::Reason),
}

impl fmt::Display for AnyReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyReason::Hexapawn(r) => r.fmt(f),
            AnyReason::TicTacToe(r) => r.fmt(f),
            AnyReason::Havannah(r) => r.fmt(f),
            AnyReason::MiniArimaa(r) => r.fmt(f),
        }
    }
}

impl AnyGame {
    /// The game a kind names.
    pub fn new(kind: GameKind) -> AnyGame {
        match kind {
            GameKind::Hexapawn(size) => AnyGame::Hexapawn(Hexapawn::new(size)),
            GameKind::TicTacToe => AnyGame::TicTacToe(TicTacToe),
            GameKind::Havannah(variant) => AnyGame::Havannah(Box::new(Havannah::with(variant))),
            GameKind::MiniArimaa => AnyGame::MiniArimaa(MiniArimaa::new()),
        }
    }
}

/// The same code for each game: `g` the typed game.
macro_rules! each {
    ($self:expr, |$g:ident| $body:expr) => {
        match $self {
            AnyGame::Hexapawn($g) => $body,
            AnyGame::TicTacToe($g) => $body,
            AnyGame::Havannah(boxed) => {
                let $g: &Havannah = boxed;
                $body
            }
            AnyGame::MiniArimaa($g) => $body,
        }
    };
}

/// A game of the registry, to and from its part of [`AnyGame`]'s types.
pub trait Member: BoardView + LabelView {
    fn own_position<'a>(&self, any: &'a AnyPosition) -> Option<&'a Self::Position>;
    fn own_move(&self, any: AnyMove) -> Option<Self::Move>;
    fn own_reason(&self, any: AnyReason) -> Option<Self::Reason>;
    fn any_position(&self, p: Self::Position) -> AnyPosition;
    fn any_move(&self, m: Self::Move) -> AnyMove;
    fn any_reason(&self, r: Self::Reason) -> AnyReason;

    /// The moves of `any` that are this game's.
    fn own_moves(&self, any: &[AnyMove]) -> Vec<Self::Move> {
        any.iter().filter_map(|&m| self.own_move(m)).collect()
    }
    /// `marks` with this game's moves (a colour, a count) beside each.
    fn own_marks<T: Copy>(&self, marks: &[(AnyMove, T)]) -> Vec<(Self::Move, T)> {
        (marks.iter())
            .filter_map(|&(m, t)| self.own_move(m).map(|m| (m, t)))
            .collect()
    }
    fn any_outcome(&self, o: Outcome<Self::Reason>) -> Outcome<AnyReason> {
        Outcome {
            winner: o.winner,
            reason: self.any_reason(o.reason),
        }
    }
}

macro_rules! member {
    ($game:ty, $v:ident) => {
        member!($game, $v, |p| p, |p| p);
    };
    ($game:ty, $v:ident, boxed) => {
        member!($game, $v, |p| &**p, |p| Box::new(p));
    };
    ($game:ty, $v:ident, |$r:ident| $unwrap:expr, |$o:ident| $wrap:expr) => {
        impl Member for $game {
            fn own_position<'a>(&self, any: &'a AnyPosition) -> Option<&'a Self::Position> {
                match any {
                    AnyPosition::$v($r) => Some($unwrap),
                    _ => None,
                }
            }
            fn own_move(&self, any: AnyMove) -> Option<Self::Move> {
                match any {
                    AnyMove::$v(m) => Some(m),
                    _ => None,
                }
            }
            fn own_reason(&self, any: AnyReason) -> Option<Self::Reason> {
                match any {
                    AnyReason::$v(r) => Some(r),
                    _ => None,
                }
            }
            fn any_position(&self, $o: Self::Position) -> AnyPosition {
                AnyPosition::$v($wrap)
            }
            fn any_move(&self, m: Self::Move) -> AnyMove {
                AnyMove::$v(m)
            }
            fn any_reason(&self, r: Self::Reason) -> AnyReason {
                AnyReason::$v(r)
            }
        }
    };
}
member!(Hexapawn, Hexapawn);
member!(TicTacToe, TicTacToe);
member!(Havannah, Havannah, boxed);
member!(MiniArimaa, MiniArimaa, boxed);

/// Of another game: what is said where a position, a move or a reason does not belong to the
/// game (never, from the machine's own moves).
fn other_game() -> GameError {
    GameError::BadPosition {
        text: String::new(),
        why: "a position of another game".into(),
    }
}

impl Game for AnyGame {
    type Position = AnyPosition;
    type Move = AnyMove;
    type Reason = AnyReason;

    fn name(&self) -> &'static str {
        each!(self, |g| g.name())
    }
    fn variant(&self) -> String {
        each!(self, |g| g.variant())
    }
    fn side_name(&self, side: Side) -> &'static str {
        each!(self, |g| g.side_name(side))
    }
    fn start(&self) -> AnyPosition {
        each!(self, |g| g.any_position(g.start()))
    }
    fn to_move(&self, pos: &AnyPosition) -> Side {
        each!(self, |g| g
            .own_position(pos)
            .map_or(Side::First, |p| g.to_move(p)))
    }
    fn legal_moves(&self, pos: &AnyPosition, out: &mut Vec<AnyMove>) {
        each!(self, |g| if let Some(p) = g.own_position(pos) {
            let mut own = Vec::new();
            g.legal_moves(p, &mut own);
            out.extend(own.into_iter().map(|m| g.any_move(m)));
        })
    }
    fn play(&self, pos: &AnyPosition, mv: AnyMove) -> AnyPosition {
        each!(self, |g| match (g.own_position(pos), g.own_move(mv)) {
            (Some(p), Some(m)) => g.any_position(g.play(p, m)),
            _ => pos.clone(),
        })
    }
    fn outcome(&self, pos: &AnyPosition) -> Option<Outcome<AnyReason>> {
        each!(self, |g| g
            .own_position(pos)
            .and_then(|p| g.outcome(p))
            .map(|o| g.any_outcome(o)))
    }
    fn symmetry_count(&self) -> usize {
        each!(self, |g| g.symmetry_count())
    }
    fn transform_position(&self, sym: Sym, pos: &AnyPosition) -> AnyPosition {
        each!(self, |g| g.own_position(pos).map_or_else(
            || pos.clone(),
            |p| g.any_position(g.transform_position(sym, p))
        ))
    }
    fn transform_move(&self, sym: Sym, mv: AnyMove) -> AnyMove {
        each!(self, |g| g
            .own_move(mv)
            .map_or(mv, |m| g.any_move(g.transform_move(sym, m))))
    }
    fn inverse(&self, sym: Sym) -> Sym {
        each!(self, |g| g.inverse(sym))
    }
    fn format_position(&self, pos: &AnyPosition) -> String {
        each!(self, |g| g
            .own_position(pos)
            .map(|p| g.format_position(p))
            .unwrap_or_default())
    }
    fn parse_position(&self, text: &str, to_move: Side) -> Result<AnyPosition, GameError> {
        each!(self, |g| g
            .parse_position(text, to_move)
            .map(|p| g.any_position(p)))
    }
    fn format_move(&self, mv: AnyMove) -> String {
        each!(self, |g| g
            .own_move(mv)
            .map(|m| g.format_move(m))
            .unwrap_or_default())
    }
    fn format_move_at(&self, pos: &AnyPosition, mv: AnyMove) -> String {
        each!(self, |g| match (g.own_position(pos), g.own_move(mv)) {
            (Some(p), Some(m)) => g.format_move_at(p, m),
            _ => String::new(),
        })
    }
    fn move_words(&self, mv: AnyMove) -> String {
        each!(self, |g| g
            .own_move(mv)
            .map(|m| g.move_words(m))
            .unwrap_or_default())
    }
    fn parse_move(&self, pos: &AnyPosition, text: &str) -> Result<AnyMove, GameError> {
        each!(self, |g| {
            let p = g.own_position(pos).ok_or_else(other_game)?;
            g.parse_move(p, text).map(|m| g.any_move(m))
        })
    }
    fn diagram(&self, pos: &AnyPosition) -> Vec<String> {
        each!(self, |g| g
            .own_position(pos)
            .map(|p| g.diagram(p))
            .unwrap_or_default())
    }
    fn pack(&self, pos: &AnyPosition) -> Option<u64> {
        each!(self, |g| g.pack(g.own_position(pos)?))
    }
    fn pack_canonical(&self, pos: &AnyPosition) -> Option<(u64, Sym)> {
        each!(self, |g| g.pack_canonical(g.own_position(pos)?))
    }
    fn plies_played(&self, pos: &AnyPosition) -> Option<u32> {
        each!(self, |g| g.plies_played(g.own_position(pos)?))
    }
    fn unpack(&self, key: u64) -> Option<AnyPosition> {
        each!(self, |g| g.unpack(key).map(|p| g.any_position(p)))
    }
    fn move_bit(&self, mv: AnyMove) -> Option<u32> {
        each!(self, |g| g.move_bit(g.own_move(mv)?))
    }
    fn bit_move(&self, bit: u32) -> Option<AnyMove> {
        each!(self, |g| g.bit_move(bit).map(|m| g.any_move(m)))
    }
    fn move_cell(&self, mv: AnyMove) -> Option<usize> {
        each!(self, |g| g.move_cell(g.own_move(mv)?))
    }
    fn only_move(&self, pos: &AnyPosition) -> Option<AnyMove> {
        each!(self, |g| g
            .only_move(g.own_position(pos)?)
            .map(|m| g.any_move(m)))
    }
    fn moves(&self, pos: &AnyPosition) -> Vec<AnyMove> {
        each!(self, |g| all_moves(g, pos, |p| g.moves(p)))
    }
    fn canonical(&self, pos: &AnyPosition) -> (AnyPosition, Sym) {
        each!(self, |g| match g.own_position(pos) {
            Some(p) => {
                let (image, sym) = g.canonical(p);
                (g.any_position(image), sym)
            }
            None => (pos.clone(), Sym::IDENTITY),
        })
    }
    fn stabilizer(&self, pos: &AnyPosition) -> Vec<Sym> {
        each!(self, |g| g
            .own_position(pos)
            .map_or_else(|| vec![Sym::IDENTITY], |p| g.stabilizer(p)))
    }
    fn distinct_moves(&self, pos: &AnyPosition) -> Vec<AnyMove> {
        each!(self, |g| all_moves(g, pos, |p| g.distinct_moves(p)))
    }
    fn ply_limit(&self) -> Option<u32> {
        each!(self, |g| g.ply_limit())
    }
    fn end_words(&self, pos: &AnyPosition, outcome: &Outcome<AnyReason>) -> String {
        each!(
            self,
            |g| match (g.own_position(pos), g.own_reason(outcome.reason)) {
                (Some(p), Some(reason)) => g.end_words(
                    p,
                    &Outcome {
                        winner: outcome.winner,
                        reason
                    }
                ),
                _ => String::new(),
            }
        )
    }
    fn position_bound(&self, side: Side) -> Option<(f64, &'static str)> {
        each!(self, |g| g.position_bound(side))
    }
    fn small_enough_to_enumerate(&self) -> bool {
        each!(self, |g| g.small_enough_to_enumerate())
    }
    fn structure_kinds(&self) -> &'static [&'static str] {
        each!(self, |g| g.structure_kinds())
    }
    fn random_games(&self, games: u64, rng: &mut Rng, each: &mut dyn FnMut(RandomGame)) {
        each!(self, |g| g.random_games(games, rng, each))
    }
    fn random_finish(&self, pos: &AnyPosition, rng: &mut Rng) -> Option<Side> {
        each!(self, |g| g.random_finish(g.own_position(pos)?, rng))
    }
    fn structures(&self, pos: &AnyPosition) -> Vec<&'static str> {
        each!(self, |g| g
            .own_position(pos)
            .map(|p| g.structures(p))
            .unwrap_or_default())
    }
    fn parse_side(&self, text: &str) -> Option<Side> {
        each!(self, |g| g.parse_side(text))
    }
}

/// A list of moves of the typed game `g` at `pos`, as [`AnyMove`]s (none where `pos` is of
/// another game).
fn all_moves<G: Member>(
    g: &G,
    pos: &AnyPosition,
    list: impl Fn(&G::Position) -> Vec<G::Move>,
) -> Vec<AnyMove> {
    (g.own_position(pos)
        .map(list)
        .unwrap_or_default()
        .into_iter())
    .map(|m| g.any_move(m))
    .collect()
}

impl GameDefaults for AnyGame {
    fn default_side(&self) -> Side {
        each!(self, |g| g.default_side())
    }
    fn default_symmetry(&self, side: Side) -> SymmetryMode {
        each!(self, |g| g.default_symmetry(side))
    }
    fn default_preset(&self) -> Preset {
        each!(self, |g| g.default_preset())
    }
    fn default_forced(&self) -> Forced {
        each!(self, |g| g.default_forced())
    }
    fn symmetry_modes(&self) -> &'static [SymmetryMode] {
        each!(self, |g| g.symmetry_modes())
    }
    fn size_key(&self) -> Option<String> {
        each!(self, |g| g.size_key())
    }
    fn nickname(&self, side: Side, mode: SymmetryMode) -> Option<&'static str> {
        each!(self, |g| g.nickname(side, mode))
    }
    fn machine_name(&self, side: Side, mode: SymmetryMode) -> crate::learn::MachineName {
        each!(self, |g| g.machine_name(side, mode))
    }
    // The typed game is cloned into its solver (`TicTacToe` is `Copy`: the same code for all).
    #[allow(clippy::clone_on_copy)]
    fn own_solver(&self, tie_break: TieBreak) -> Option<Box<dyn Values<Self> + Sync>> {
        each!(self, |g| g.own_solver(tie_break).map(|values| {
            let own = Own {
                game: g.clone(),
                values,
            };
            Box::new(own) as Box<dyn Values<Self> + Sync>
        }))
    }
    fn has_own_solver(&self) -> bool {
        each!(self, |g| g.has_own_solver())
    }
    fn own_count(
        &self,
        side: Side,
        mode: SymmetryMode,
        forced: Forced,
        progress: &(dyn Fn(u16) + Sync),
    ) -> Option<BoxCounts> {
        each!(self, |g| g.own_count(side, mode, forced, progress))
    }
}

/// A typed game's own solver, asked about [`AnyGame`]'s positions (of its game: any other is
/// not in its graph).
struct Own<G: Game> {
    game: G,
    values: Box<dyn Values<G> + Sync>,
}

impl<G: Member> Own<G> {
    /// The typed positions of `positions`, if all are of the game.
    fn typed(&self, positions: &[AnyPosition]) -> Result<Vec<G::Position>, SolveError> {
        (positions.iter())
            .map(|p| self.game.own_position(p).cloned())
            .collect::<Option<Vec<_>>>()
            .ok_or(SolveError::Unknown)
    }
}

impl<G: Member> Values<AnyGame> for Own<G> {
    fn value(&mut self, _: &AnyGame, pos: &AnyPosition) -> Result<Value, SolveError> {
        let p = self.game.own_position(pos).ok_or(SolveError::Unknown)?;
        self.values.value(&self.game, p)
    }
    fn values(&mut self, _: &AnyGame, positions: &[AnyPosition]) -> Result<Vec<Value>, SolveError> {
        let own = self.typed(positions)?;
        self.values.values(&self.game, &own)
    }
    fn child_values(
        &mut self,
        _: &AnyGame,
        c: Children<'_, AnyGame>,
    ) -> Result<Vec<Value>, SolveError> {
        let parent = (self.game.own_position(c.parent).cloned()).ok_or(SolveError::Unknown)?;
        let positions = self.typed(c.positions)?;
        let moves = self.game.own_moves(c.moves);
        let children = Children {
            parent: &parent,
            moves: &moves,
            positions: &positions,
        };
        self.values.child_values(&self.game, children)
    }
}

impl BoardView for AnyGame {
    fn board_lines(&self, pos: &AnyPosition, marks: &[(AnyMove, Color)]) -> Vec<Line<'static>> {
        each!(self, |g| g
            .own_position(pos)
            .map(|p| g.board_lines(p, &g.own_marks(marks)))
            .unwrap_or_default())
    }
    fn box_lines(&self, pos: &AnyPosition, arrows: &[(AnyMove, Color, u32)]) -> Vec<Line<'static>> {
        each!(self, |g| g
            .own_position(pos)
            .map(|p| g.box_lines(p, &own_arrows(g, arrows)))
            .unwrap_or_default())
    }
    fn board_size(&self) -> (u16, u16) {
        each!(self, |g| g.board_size())
    }
    fn tile_lines(
        &self,
        pos: &AnyPosition,
        arrows: &[(AnyMove, Color, u32)],
        drawn: Option<usize>,
    ) -> Vec<Line<'static>> {
        each!(self, |g| g
            .own_position(pos)
            .map(|p| g.tile_lines(p, &own_arrows(g, arrows), drawn))
            .unwrap_or_default())
    }
    fn tile_size(&self) -> (u16, u16) {
        each!(self, |g| g.tile_size())
    }
    fn square_at(&self, col: u16, row: u16) -> Option<String> {
        each!(self, |g| g.square_at(col, row))
    }
    fn move_ends(&self, mv: AnyMove) -> Option<(Option<String>, String)> {
        each!(self, |g| g.move_ends(g.own_move(mv)?))
    }
    fn legend(&self) -> &'static str {
        each!(self, |g| g.legend())
    }
    fn image_word(&self, sym: Sym) -> String {
        each!(self, |g| g.image_word(sym))
    }
    fn turn_words(&self, sym: Sym) -> String {
        each!(self, |g| g.turn_words(sym))
    }
}

/// A box's arrows with the typed game's moves.
fn own_arrows<G: Member>(g: &G, arrows: &[(AnyMove, Color, u32)]) -> Vec<(G::Move, Color, u32)> {
    (arrows.iter())
        .filter_map(|&(m, c, n)| g.own_move(m).map(|m| (m, c, n)))
        .collect()
}

impl LabelView for AnyGame {
    fn grid(&self) -> (usize, usize) {
        each!(self, |g| g.grid())
    }
    fn piece(&self, pos: &AnyPosition, row: usize, col: usize, x: f64, y: f64, s: f64) -> String {
        each!(self, |g| g
            .own_position(pos)
            .map(|p| g.piece(p, row, col, x, y, s))
            .unwrap_or_default())
    }
    fn move_cells(&self, mv: AnyMove) -> ((usize, usize), (usize, usize)) {
        each!(self, |g| g
            .own_move(mv)
            .map_or(((0, 0), (0, 0)), |m| g.move_cells(m)))
    }
    fn draw_board(
        &self,
        pos: &AnyPosition,
        arrows: &[AnyMove],
        colours: &[usize],
        area: (f64, f64, f64, f64),
    ) -> (String, f64) {
        each!(self, |g| g.own_position(pos).map_or_else(
            || (String::new(), 0.0),
            |p| g.draw_board(p, &g.own_moves(arrows), colours, area)
        ))
    }
}
