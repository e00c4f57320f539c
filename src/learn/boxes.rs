//! The set of matchboxes a learner needs: one box per position it can meet (up to the chosen
//! symmetry), one arrow per move it may choose there.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::hash::BuildHasher;
use std::sync::Arc;

use hashbrown::{DefaultHashBuilder, HashTable};

use super::{Forced, SymmetryMode};
use crate::game::{Game, Side, Sym};
use crate::words::WordMap;

/// One matchbox: a position the learner may have to move in, and its arrows (moves), both in the
/// box's frame (for merged symmetric positions, the canonical image).
#[derive(Debug, PartialEq, Eq)]
pub struct MatchBox<G: Game> {
    /// Plies played before this position (so the learner makes move `ply + 1`).
    pub ply: u16,
    /// How many moves the learner has made before this box (0 for its first move).
    pub stage: u16,
    pub position: G::Position,
    pub arrows: Box<[G::Move]>,
}

impl<G: Game> Clone for MatchBox<G> {
    fn clone(&self) -> Self {
        MatchBox {
            ply: self.ply,
            stage: self.stage,
            position: self.position.clone(),
            arrows: self.arrows.clone(),
        }
    }
}

impl<G: Game> MatchBox<G> {
    /// Gardner's "move n": plies counted from 1, White's first move is move 1.
    pub fn move_number(&self) -> u16 {
        self.ply + 1
    }
}

/// Every matchbox of a learner playing one side with one symmetry mode. Boxes are numbered from 0
/// here (1 in everything a person reads) in order of move number, then of discovery.
///
/// Stored compactly, as a lazy machine on a big board holds millions: each box's position once
/// (one 64-bit word where the game packs its positions, [`Game::pack`]), its move number and
/// stage, and its arrows in one flat list; one hash table finds a box by its position.
#[derive(Clone)]
pub struct BoxSet<G: Game> {
    side: Side,
    mode: SymmetryMode,
    forced: Forced,
    /// Boxes are made on first visit ([`BoxSet::lazy`]) rather than enumerated up front.
    lazy: bool,
    /// Each box's ply and stage (see [`MatchBox`]).
    meta: Vec<[u16; 2]>,
    positions: Positions<G>,
    /// Every box's arrows, box after box; box `b`'s from `arrow_start[b]`.
    arrows: Vec<G::Move>,
    arrow_start: Vec<u32>,
    /// The most memory a lazy set's boxes and their beads may take ([`BoxSet::memory`]): past it,
    /// no box is made.
    budget: usize,
}

/// The memory a lazy machine's boxes may take unless told otherwise: 8 GiB (with the growth of
/// its tables, a machine of 24 GB keeps working).
pub const DEFAULT_BUDGET: usize = 8 << 30;

/// The boxes' positions and the table that finds a box by its position.
#[derive(Clone)]
enum Positions<G: Game> {
    /// Packed in a word each: the table holds each word with its box number and where the
    /// box's beads start (so a draw reads no other table first).
    Packed {
        game: Arc<G>,
        keys: Vec<u64>,
        index: WordMap<[u32; 2]>,
    },
    /// Whole positions, for games that do not pack theirs: the table holds box numbers.
    Whole {
        positions: Vec<G::Position>,
        index: HashTable<u32>,
        hasher: DefaultHashBuilder,
    },
}

impl<G: Game> Positions<G> {
    fn new(game: &G) -> Positions<G> {
        let hasher = DefaultHashBuilder::default();
        match game.pack(&game.start()) {
            Some(_) => Positions::Packed {
                game: Arc::new(game.clone()),
                keys: Vec::new(),
                index: WordMap::new(),
            },
            None => Positions::Whole {
                positions: Vec::new(),
                index: HashTable::new(),
                hasher,
            },
        }
    }

    fn empty_like(&self) -> Positions<G> {
        match self {
            Positions::Packed { game, .. } => Positions::Packed {
                game: Arc::clone(game),
                keys: Vec::new(),
                index: WordMap::new(),
            },
            Positions::Whole { .. } => Positions::Whole {
                positions: Vec::new(),
                index: HashTable::new(),
                hasher: DefaultHashBuilder::default(),
            },
        }
    }

    /// The word of a position of a packed set (a game packs all its positions or none).
    fn key(game: &G, pos: &G::Position) -> u64 {
        game.pack(pos).unwrap_or(u64::MAX)
    }

    /// Adds the position of a new box whose beads start at `bead`.
    fn push(&mut self, pos: &G::Position, bead: usize) {
        match self {
            Positions::Packed { game, keys, index } => {
                let key = Self::key(game, pos);
                index.insert(key, [keys.len() as u32, bead as u32]);
                keys.push(key);
            }
            Positions::Whole {
                positions,
                index,
                hasher,
            } => {
                let i = positions.len() as u32;
                index.insert_unique(hasher.hash_one(pos), i, |&j| {
                    hasher.hash_one(&positions[j as usize])
                });
                positions.push(pos.clone());
            }
        }
    }

    #[inline]
    /// The box of `pos`, and where its beads start when the table knows.
    fn find(&self, pos: &G::Position) -> Option<(usize, Option<usize>)> {
        match self {
            Positions::Packed { game, index, .. } => index
                .get(Self::key(game, pos))
                .map(|[b, bead]| (b as usize, Some(bead as usize))),
            Positions::Whole {
                positions,
                index,
                hasher,
            } => index
                .find(hasher.hash_one(pos), |&j| positions[j as usize] == *pos)
                .map(|&j| (j as usize, None)),
        }
    }

    fn get(&self, i: usize) -> G::Position {
        match self {
            Positions::Packed { game, keys, .. } => {
                game.unpack(keys[i]).expect("a packed box position unpacks")
            }
            Positions::Whole { positions, .. } => positions[i].clone(),
        }
    }

    /// Bytes a box's position takes, with its entry in the table (and its control byte).
    fn bytes_per_box(&self) -> usize {
        match self {
            // The table keeps 4/3 to 8/3 slots a box: 2 on average.
            Positions::Packed { .. } => {
                std::mem::size_of::<u64>() + 2 * WordMap::<[u32; 2]>::slot_bytes()
            }
            Positions::Whole { .. } => {
                std::mem::size_of::<G::Position>() + std::mem::size_of::<u32>() + 1
            }
        }
    }
}

impl<G: Game> std::fmt::Debug for BoxSet<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BoxSet")
            .field("side", &self.side)
            .field("mode", &self.mode)
            .field("forced", &self.forced)
            .field("lazy", &self.lazy)
            .field("boxes", &self.len())
            .field("arrows", &self.arrow_count())
            .finish()
    }
}

impl<G: Game> BoxSet<G> {
    /// Enumerates the boxes: every position reachable when the opponent may play anything and the
    /// learner plays any of its arrows, in the mode's frame.
    pub fn build(game: &G, side: Side, mode: SymmetryMode) -> BoxSet<G> {
        Self::build_with(game, side, mode, Forced::Include)
    }

    /// As [`BoxSet::build`]; with [`Forced::Skip`], a position where the learner has a single legal
    /// move gets no box (the move is made without a draw), as Michie left out MENACE's ninth move.
    pub fn build_with(game: &G, side: Side, mode: SymmetryMode, forced: Forced) -> BoxSet<G> {
        Self::build_at_most(game, side, mode, forced, usize::MAX).expect("no bound")
    }

    /// As [`BoxSet::build_with`], but `None` as soon as the set would have more than `most`
    /// boxes (a file that claims a machine bigger than it can hold is refused without building
    /// it).
    pub fn build_at_most(
        game: &G,
        side: Side,
        mode: SymmetryMode,
        forced: Forced,
        most: usize,
    ) -> Option<BoxSet<G>> {
        // The frame rule is the mode's: positions are stored as the learner sees them.
        let frame = |child: G::Position, ply: u16| {
            let f = mode.frame_after(game, ply as u32, &child, Sym::IDENTITY);
            mode.box_view(game, &child, f).0
        };
        let start = frame(game.start(), 0);
        let mut seen = HashSet::from([start.clone()]);
        let mut queue = VecDeque::from([(start, 0u16, 0u16)]);
        let mut found = Vec::new();
        while let Some((pos, ply, stage)) = queue.pop_front() {
            if game.outcome(&pos).is_some() {
                continue;
            }
            let learner = game.to_move(&pos) == side;
            let next = if learner {
                let arrows = mode.arrows(game, &pos);
                if forced == Forced::Include || game.moves(&pos).len() > 1 {
                    if found.len() == most {
                        return None;
                    }
                    found.push(MatchBox {
                        ply,
                        stage,
                        position: pos.clone(),
                        arrows: arrows.clone().into(),
                    });
                }
                arrows
            } else {
                game.moves(&pos)
            };
            for mv in next {
                let child = frame(game.play(&pos, mv), ply + 1);
                if seen.insert(child.clone()) {
                    queue.push_back((child, ply + 1, stage + u16::from(learner)));
                }
            }
        }
        found.sort_by_key(|b| b.ply);
        Some(Self::from_boxes(game, side, mode, forced, found))
    }

    /// An empty set whose boxes are made the first time the learner meets a position
    /// ([`BoxSet::add`]); for games too big to enumerate.
    pub fn lazy(game: &G, side: Side, mode: SymmetryMode, forced: Forced) -> BoxSet<G> {
        Self::lazy_from(game, side, mode, forced, Vec::new())
    }

    /// A lazy set from boxes already made (a saved lazy machine).
    pub fn lazy_from(
        game: &G,
        side: Side,
        mode: SymmetryMode,
        forced: Forced,
        boxes: Vec<MatchBox<G>>,
    ) -> BoxSet<G> {
        let mut set = Self::from_boxes(game, side, mode, forced, boxes);
        set.lazy = true;
        set
    }

    /// A lazy set with the same settings and no boxes (a lazy machine that forgets).
    pub fn emptied(&self) -> BoxSet<G> {
        BoxSet {
            side: self.side,
            mode: self.mode,
            forced: self.forced,
            lazy: true,
            meta: Vec::new(),
            positions: self.positions.empty_like(),
            arrows: Vec::new(),
            arrow_start: vec![0],
            budget: self.budget,
        }
    }

    /// Whether boxes are made on first visit.
    pub fn is_lazy(&self) -> bool {
        self.lazy
    }

    /// Whether a box of `arrows` arrows can be added: box numbers and bead indexes (a box's
    /// total and its arrows, box after box) stay within 32 bits.
    pub fn has_room_for(&self, arrows: usize) -> bool {
        let new = self.positions.bytes_per_box()
            + std::mem::size_of::<[u16; 2]>()
            + std::mem::size_of::<u32>()
            + arrows * (std::mem::size_of::<G::Move>() + 4)
            + 4;
        (self.arrow_count() + self.len() + arrows + 1) < u32::MAX as usize
            && self.memory() + new <= self.budget
    }

    /// The memory of the boxes and their beads (as [`BoxSet::bytes`], with 4 bytes a bead count).
    pub fn memory(&self) -> usize {
        self.bytes() + (self.len() + self.arrow_count()) * 4
    }

    /// The most memory the boxes and beads may take ([`DEFAULT_BUDGET`] unless set).
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// Sets the most memory the boxes and their beads may take; a lazy set makes no box past it.
    pub fn set_budget(&mut self, bytes: usize) {
        self.budget = bytes;
    }

    /// Adds a box (its position must not have one, and [`BoxSet::has_room_for`] its arrows);
    /// returns its index.
    pub fn add(&mut self, b: MatchBox<G>) -> usize {
        let i = self.meta.len();
        self.positions.push(&b.position, self.arrows.len() + i);
        self.meta.push([b.ply, b.stage]);
        self.arrows.extend_from_slice(&b.arrows);
        self.arrow_start.push(self.arrows.len() as u32);
        i
    }

    /// Where box `b`'s beads start in its machine's flat bead array: `[total, arrow 0, arrow 1, …]`.
    #[inline]
    pub fn bead_index(&self, b: usize) -> usize {
        self.arrow_start[b] as usize + b
    }

    /// The box whose beads start at `bead` (a [`BoxSet::bead_index`]).
    pub fn box_at_bead(&self, bead: usize) -> usize {
        // bead_index(b) = arrow_start[b] + b grows with b.
        let (mut lo, mut hi) = (0, self.len());
        while lo + 1 < hi {
            let mid = (lo + hi) / 2;
            if self.bead_index(mid) <= bead {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Memory the set takes, in bytes: each box's position and its entry in the table, its move
    /// number and stage, where its arrows start, and its arrows; not the tables' spare capacity.
    pub fn bytes(&self) -> usize {
        let per_box = self.positions.bytes_per_box()
            + std::mem::size_of::<[u16; 2]>()
            + std::mem::size_of::<u32>();
        self.len() * per_box + self.arrow_count() * std::mem::size_of::<G::Move>()
    }

    fn from_boxes(
        game: &G,
        side: Side,
        mode: SymmetryMode,
        forced: Forced,
        boxes: Vec<MatchBox<G>>,
    ) -> BoxSet<G> {
        let mut set = BoxSet {
            side,
            mode,
            forced,
            lazy: false,
            meta: Vec::with_capacity(boxes.len()),
            positions: Positions::new(game),
            arrows: Vec::new(),
            arrow_start: vec![0],
            budget: DEFAULT_BUDGET,
        };
        for b in boxes {
            set.add(b);
        }
        set
    }

    pub fn side(&self) -> Side {
        self.side
    }
    pub fn mode(&self) -> SymmetryMode {
        self.mode
    }
    pub fn forced(&self) -> Forced {
        self.forced
    }
    pub fn len(&self) -> usize {
        self.meta.len()
    }
    pub fn is_empty(&self) -> bool {
        self.meta.is_empty()
    }
    /// Box `i`, whole.
    pub fn get(&self, i: usize) -> MatchBox<G> {
        let [ply, stage] = self.meta[i];
        MatchBox {
            ply,
            stage,
            position: self.positions.get(i),
            arrows: self.arrows(i).into(),
        }
    }
    /// Every box, whole, in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = MatchBox<G>> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }
    /// The position of box `i`.
    pub fn position(&self, i: usize) -> G::Position {
        self.positions.get(i)
    }
    /// The arrows of box `i`.
    #[inline]
    pub fn arrows(&self, i: usize) -> &[G::Move] {
        &self.arrows[self.arrow_start[i] as usize..self.arrow_start[i + 1] as usize]
    }
    /// Arrow `i` of box `b`, whose beads start at `base` ([`BoxSet::bead_index`]): box `b`'s
    /// arrows start at `base - b`, so no other table is read first.
    #[inline]
    pub fn arrow_at(&self, b: usize, base: usize, i: usize) -> G::Move {
        self.arrows[base - b + i]
    }
    /// Reads box `b`'s first arrow ahead of need (`base` as in [`BoxSet::arrow_at`]), so that
    /// the memory holding its arrows is on its way while its beads are drawn from.
    #[inline]
    pub fn touch_arrows(&self, b: usize, base: usize) {
        std::hint::black_box(self.arrows.get(base.wrapping_sub(b)).copied());
    }
    /// How many moves the learner has made before box `i` (0 for its first move).
    #[inline]
    pub fn stage(&self, i: usize) -> u16 {
        self.meta[i][1]
    }
    /// Gardner's "move n" of box `i`: plies counted from 1.
    pub fn move_number(&self, i: usize) -> u16 {
        self.meta[i][0] + 1
    }
    /// The box whose (framed) position is `pos`.
    #[inline]
    pub fn find(&self, pos: &G::Position) -> Option<usize> {
        self.positions.find(pos).map(|(b, _)| b)
    }
    /// The box whose (framed) position is `pos`, and its [`BoxSet::bead_index`].
    #[inline]
    pub fn locate(&self, pos: &G::Position) -> Option<(usize, usize)> {
        self.positions
            .find(pos)
            .map(|(b, bead)| (b, bead.unwrap_or_else(|| self.bead_index(b))))
    }
    pub fn arrow_count(&self) -> usize {
        self.arrows.len()
    }
    /// Index of the first arrow of box `i` in a flat list of all arrows.
    pub fn arrow_start(&self, i: usize) -> usize {
        self.arrow_start[i] as usize
    }
    /// Number of boxes at each move number.
    pub fn by_move(&self) -> BTreeMap<u16, usize> {
        let mut m = BTreeMap::new();
        for i in 0..self.len() {
            *m.entry(self.move_number(i)).or_insert(0) += 1;
        }
        m
    }
}

/// Whether every move from `pos` loses at once: none wins, and after each the opponent has a
/// winning reply. (Noughts and crosses has 17 such boxes for the opener, all at its fourth move:
/// O threatens two lines and X can stop one. Michie's 1963 count, 287, is the 304 without them.)
pub fn loses_at_once<G: Game>(game: &G, pos: &G::Position) -> bool {
    let me = game.to_move(pos);
    let wins_now =
        |p: &G::Position, side: Side| game.outcome(p).is_some_and(|o| o.winner == Some(side));
    let moves = game.moves(pos);
    !moves.is_empty()
        && moves.into_iter().all(|m| {
            let after = game.play(pos, m);
            if game.outcome(&after).is_some() {
                return wins_now(&after, me.other());
            }
            game.moves(&after)
                .into_iter()
                .any(|r| wins_now(&game.play(&after, r), me.other()))
        })
}

impl<G: Game> BoxSet<G> {
    /// The boxes where every move loses at once ([`loses_at_once`]).
    pub fn lost_at_once(&self, game: &G) -> usize {
        (0..self.len())
            .filter(|&b| loses_at_once(game, &self.position(b)))
            .count()
    }
}
