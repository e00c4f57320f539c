//! Players: each chooses a move from a position. The learner trains against one of them; a person
//! plays through one; the compiled table of the fast engine is built from the same players.
//!
//! Vocabulary: the learner's *opponent* is whoever plays the other side. [`Opponent`] names which
//! kind (as the command line and the screens say it); a [`Player`] is the thing that chooses.

pub mod mcts;
mod perfect;

use std::fmt;
use std::str::FromStr;

pub use mcts::MctsPlayer;
pub use perfect::PerfectPlayer;

use crate::game::{Game, Sym};
use crate::rng::{Rng, uniform_below};

/// The kinds of opponent a learner can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Opponent {
    /// Plays a best move (win over draw over loss), ties broken as its [`crate::solve::TieBreak`] says.
    Perfect,
    /// Plays uniformly among the legal moves.
    Random,
    /// Monte Carlo tree search with this many simulations per move.
    Mcts(u32),
    /// A second matchbox machine, which learns too.
    Matchbox,
    /// A person at the keyboard.
    Human,
}

impl fmt::Display for Opponent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Opponent::Perfect => "perfect",
            Opponent::Random => "random",
            Opponent::Mcts(n) => return write!(f, "mcts:{n}"),
            Opponent::Matchbox => "matchbox",
            Opponent::Human => "human",
        })
    }
}

impl FromStr for Opponent {
    type Err = String;
    fn from_str(s: &str) -> Result<Opponent, String> {
        let t = s.trim().to_ascii_lowercase();
        if let Some(rest) = t.strip_prefix("mcts")
            && (rest.is_empty() || rest.starts_with(':'))
        {
            let sims = match rest.strip_prefix(':') {
                None => mcts::DEFAULT_SIMULATIONS,
                Some(n) => n
                    .parse::<u32>()
                    .ok()
                    .filter(|n| (1..=mcts::MAX_SIMULATIONS).contains(n))
                    .ok_or_else(|| {
                        format!(
                            "`{}`: mcts:SIMS takes 1 to {} simulations a move",
                            crate::text::quote(s),
                            mcts::MAX_SIMULATIONS
                        )
                    })?,
            };
            return Ok(Opponent::Mcts(sims));
        }
        match t.as_str() {
            "perfect" => Ok(Opponent::Perfect),
            "random" => Ok(Opponent::Random),
            "matchbox" => Ok(Opponent::Matchbox),
            "human" => Ok(Opponent::Human),
            _ => Err(format!(
                "`{}`: use perfect, random, mcts[:SIMS], matchbox or matchbox:FILE",
                crate::text::quote(s)
            )),
        }
    }
}

/// An opponent in a file or a message is its name as the command line writes it (`perfect`,
/// `random`, `mcts:1000`): one vocabulary everywhere.
impl serde::Serialize for Opponent {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Opponent {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Opponent, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl Opponent {
    /// The opponent in words: "the perfect player", "the tree search (1000 simulations)".
    pub fn words(self) -> String {
        match self {
            Opponent::Mcts(n) => format!("the tree search ({n} simulations)"),
            Opponent::Matchbox => "a rival machine".into(),
            Opponent::Human => "a person".into(),
            k => format!("the {k} player"),
        }
    }
}

/// What a player knows when it is asked for a move.
pub struct Turn<'a, G: Game> {
    /// Plies played before this position.
    pub ply: u32,
    /// The positions of the game so far, from the start; the last is the current one.
    pub history: &'a [G::Position],
    /// The generator to draw from.
    pub rng: &'a mut Rng,
}

/// Something that chooses a move from a position.
pub trait Player<G: Game>: Send {
    /// The move to play in `pos` (a position with legal moves), or `None` to resign.
    fn choose(&mut self, game: &G, pos: &G::Position, turn: Turn<'_, G>) -> Option<G::Move>;

    /// For a player that picks uniformly from a set of moves (random, perfect): that set, in the
    /// game's legal-move order. The compiled table of the fast engine is built from it, and
    /// [`Player::choose`] must then be one uniform draw from it ([`draw_from`]), so that the two
    /// engines make the same moves from the same random numbers.
    fn uniform_options(&mut self, _game: &G, _pos: &G::Position) -> Option<Vec<G::Move>> {
        None
    }
}

/// One uniform draw from `options` (never empty), as the compiled table draws: always one call to
/// the generator, even for a single option.
pub fn draw_from<M: Copy>(options: &[M], rng: &mut Rng) -> M {
    options[uniform_below(rng, options.len() as u32) as usize]
}

/// Plays uniformly among the legal moves.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPlayer;

impl<G: Game> Player<G> for RandomPlayer {
    fn choose(&mut self, game: &G, pos: &G::Position, turn: Turn<'_, G>) -> Option<G::Move> {
        let moves = game.moves(pos);
        (!moves.is_empty()).then(|| draw_from(&moves, turn.rng))
    }
    fn uniform_options(&mut self, game: &G, pos: &G::Position) -> Option<Vec<G::Move>> {
        Some(game.moves(pos))
    }
}

/// Plays the moves it is given, in order (a person at the keyboard, or a game record); resigns
/// when it has none left.
#[derive(Clone, Debug)]
pub struct ScriptedPlayer<M> {
    moves: std::collections::VecDeque<M>,
}

impl<M> ScriptedPlayer<M> {
    pub fn new(moves: impl IntoIterator<Item = M>) -> Self {
        ScriptedPlayer {
            moves: moves.into_iter().collect(),
        }
    }
    /// Queues one more move.
    pub fn push(&mut self, mv: M) {
        self.moves.push_back(mv);
    }
}

impl<G: Game> Player<G> for ScriptedPlayer<G::Move> {
    fn choose(&mut self, game: &G, pos: &G::Position, _turn: Turn<'_, G>) -> Option<G::Move> {
        let mv = self.moves.pop_front()?;
        game.moves(pos).contains(&mv).then_some(mv)
    }
}

/// A player whose choice is a uniform draw from options fixed by the position (perfect, random),
/// with those options remembered per position: a learner meets the same positions again and
/// again, and asking a solver for every child of every position costs far more than one lookup.
/// It makes the same moves from the same random numbers as the player it wraps. At most `limit`
/// positions are remembered (memory stays bounded); past that, the player is asked again.
///
/// Where the game packs its positions in a word ([`Game::pack_canonical`]), a position is
/// remembered once for all its symmetric images: its options in the canonical frame, turned back
/// onto the real board and put in increasing order (the legal-move order of such games) when
/// recalled.
pub struct Remembering<G: Game, P> {
    player: P,
    options: std::collections::HashMap<G::Position, Box<[G::Move]>>,
    /// Positions the game packs in a word: each one's options (canonical frame) in the
    /// table's word itself where the game numbers its moves in a word ([`Game::move_bit`]:
    /// [`INLINE`] and their bits, so a recall reads one slot), else a slice of `arena` (start
    /// and length, `start << 16 | length`). A slot is 16 bytes.
    packed: crate::words::WordMap<u64>,
    arena: Vec<G::Move>,
    /// The options of the position being played, on its board.
    real: Vec<G::Move>,
    limit: usize,
}

impl<G: Game, P: Clone> Clone for Remembering<G, P> {
    fn clone(&self) -> Self {
        Remembering {
            player: self.player.clone(),
            options: self.options.clone(),
            packed: self.packed.clone(),
            arena: self.arena.clone(),
            real: Vec::new(),
            limit: self.limit,
        }
    }
}

impl<G: Game, P> Remembering<G, P> {
    /// Positions remembered by default: about 40 MB at most for Havannah's positions (and, for
    /// positions packed in a word, sixteen times as many in about 100 MB).
    pub const LIMIT: usize = 1 << 18;
    /// How many more packed positions are remembered than unpacked ones.
    const PACKED_FACTOR: usize = 16;

    pub fn new(player: P, limit: usize) -> Self {
        Remembering {
            player,
            options: std::collections::HashMap::new(),
            packed: crate::words::WordMap::new(),
            arena: Vec::new(),
            real: Vec::new(),
            limit,
        }
    }
    /// Positions remembered so far.
    pub fn remembered(&self) -> usize {
        self.options.len() + self.packed.len()
    }

    /// The options remembered for `pos` (packed canonically as `key`, when the game packs it),
    /// on `pos`'s board, in `self.real`; whether there were any.
    fn recall(&mut self, game: &G, pos: &G::Position, key: Option<(u64, Sym)>) -> bool {
        self.real.clear();
        match key {
            Some((k, sym)) => {
                let Some(stored) = self.packed.get(k) else {
                    return false;
                };
                let back = game.inverse(sym);
                if stored & INLINE != 0 {
                    self.recall_bits(game, stored & !INLINE, back);
                    return true;
                }
                let (at, n) = ((stored >> 16) as usize, (stored & 0xFFFF) as usize);
                let stored = &self.arena[at..at + n];
                self.real
                    .extend(stored.iter().map(|&m| game.transform_move(back, m)));
                self.real.sort_unstable();
                true
            }
            None => match self.options.get(pos) {
                Some(o) => {
                    self.real.extend_from_slice(o);
                    true
                }
                None => false,
            },
        }
    }

    fn remember(
        &mut self,
        game: &G,
        pos: &G::Position,
        key: Option<(u64, Sym)>,
        options: &[G::Move],
    ) {
        match key {
            Some((k, sym))
                if self.packed.len() < self.limit.saturating_mul(Self::PACKED_FACTOR) =>
            {
                let bits = options.iter().try_fold(0u64, |bits, &m| {
                    Some(bits | bit_of(game, game.transform_move(sym, m))?)
                });
                if let Some(bits) = bits {
                    self.packed.insert(k, INLINE | bits);
                } else if let (Ok(at), Ok(n)) = (
                    u32::try_from(self.arena.len()),
                    u16::try_from(options.len()),
                ) {
                    self.arena
                        .extend(options.iter().map(|&m| game.transform_move(sym, m)));
                    self.packed.insert(k, u64::from(at) << 16 | u64::from(n));
                }
            }
            None if self.options.len() < self.limit => {
                self.options.insert(pos.clone(), options.into());
            }
            _ => {}
        }
    }
    /// The options remembered as `bits` (canonical frame) on the real board, turned by `back`,
    /// in `self.real` in increasing order: their images' bits read in order, with no sort.
    fn recall_bits(&mut self, game: &G, bits: u64, back: Sym) {
        let moves = Bits64(bits).filter_map(|b| game.bit_move(b));
        let real = moves.clone().try_fold(0u64, |r, m| {
            Some(r | bit_of(game, game.transform_move(back, m))?)
        });
        match real {
            Some(real) => self
                .real
                .extend(Bits64(real).filter_map(|b| game.bit_move(b))),
            // Not reached while a symmetry maps numbered moves to numbered moves.
            None => {
                self.real
                    .extend(moves.map(|m| game.transform_move(back, m)));
                self.real.sort_unstable();
            }
        }
    }
    pub fn inner(&self) -> &P {
        &self.player
    }
}

impl<G: Game, P: Player<G>> Player<G> for Remembering<G, P> {
    fn choose(&mut self, game: &G, pos: &G::Position, turn: Turn<'_, G>) -> Option<G::Move> {
        let key = game.pack_canonical(pos);
        if self.recall(game, pos, key) {
            return Some(draw_from(&self.real, turn.rng));
        }
        match self.player.uniform_options(game, pos) {
            Some(options) if !options.is_empty() => {
                let mv = draw_from(&options, turn.rng);
                self.remember(game, pos, key, &options);
                Some(mv)
            }
            _ => self.player.choose(game, pos, turn),
        }
    }
    fn uniform_options(&mut self, game: &G, pos: &G::Position) -> Option<Vec<G::Move>> {
        if self.recall(game, pos, game.pack_canonical(pos)) {
            return Some(self.real.clone());
        }
        self.player.uniform_options(game, pos)
    }
}

/// The mark of a remembered position whose options are held as bits ([`Game::move_bit`]).
const INLINE: u64 = 1 << 63;

/// A move's bit ([`Game::move_bit`]), where the game numbers it below 63.
fn bit_of<G: Game>(game: &G, mv: G::Move) -> Option<u64> {
    game.move_bit(mv).filter(|&b| b < 63).map(|b| 1 << b)
}

/// The set bits of a word, lowest first.
#[derive(Clone, Copy)]
struct Bits64(u64);

impl Iterator for Bits64 {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        (self.0 != 0).then(|| {
            let b = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            b
        })
    }
}

/// The players the program brings, as one type: what an opponent is when it is not a person or a
/// second machine. Cloned for every run of an experiment.
pub enum Builtin<G: Game> {
    Random(RandomPlayer),
    /// The perfect player, its values shared by every copy and its choices remembered.
    Perfect(Remembering<G, PerfectPlayer<crate::solve::SharedValues<G>>>),
    Mcts(MctsPlayer),
}

impl<G: Game> Builtin<G> {
    /// The perfect player over `values`.
    pub fn perfect(
        values: crate::solve::SharedValues<G>,
        tie_break: crate::solve::TieBreak,
    ) -> Self {
        Builtin::Perfect(Remembering::new(
            PerfectPlayer::new(values, tie_break),
            Remembering::<G, ()>::LIMIT,
        ))
    }
    /// Which kind of opponent it is.
    pub fn kind(&self) -> Opponent {
        match self {
            Builtin::Random(_) => Opponent::Random,
            Builtin::Perfect(_) => Opponent::Perfect,
            Builtin::Mcts(p) => Opponent::Mcts(p.simulations()),
        }
    }
}

impl<G: Game> Clone for Builtin<G> {
    fn clone(&self) -> Self {
        match self {
            Builtin::Random(p) => Builtin::Random(*p),
            Builtin::Perfect(p) => Builtin::Perfect(p.clone()),
            Builtin::Mcts(p) => Builtin::Mcts(p.clone()),
        }
    }
}

impl<G: Game> Player<G> for Builtin<G> {
    fn choose(&mut self, game: &G, pos: &G::Position, turn: Turn<'_, G>) -> Option<G::Move> {
        match self {
            Builtin::Random(p) => p.choose(game, pos, turn),
            Builtin::Perfect(p) => p.choose(game, pos, turn),
            Builtin::Mcts(p) => p.choose(game, pos, turn),
        }
    }
    fn uniform_options(&mut self, game: &G, pos: &G::Position) -> Option<Vec<G::Move>> {
        match self {
            Builtin::Random(p) => Player::<G>::uniform_options(p, game, pos),
            Builtin::Perfect(p) => p.uniform_options(game, pos),
            Builtin::Mcts(_) => None,
        }
    }
}
