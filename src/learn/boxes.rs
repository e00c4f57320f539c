//! The set of matchboxes a learner needs: one box per position it can meet (up to the chosen
//! symmetry), one arrow per move it may choose there.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::hash::BuildHasher;

use hashbrown::{DefaultHashBuilder, HashTable};

use super::{Forced, SymmetryMode};
use crate::game::{Game, Side, Sym};

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

impl<G: Game> Clone for BoxSet<G> {
    fn clone(&self) -> Self {
        BoxSet {
            side: self.side,
            mode: self.mode,
            forced: self.forced,
            lazy: self.lazy,
            boxes: self.boxes.clone(),
            index: self.index.clone(),
            hasher: self.hasher.clone(),
            arrow_start: self.arrow_start.clone(),
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
#[derive(Debug)]
pub struct BoxSet<G: Game> {
    side: Side,
    mode: SymmetryMode,
    forced: Forced,
    /// Boxes are made on first visit ([`BoxSet::lazy`]) rather than enumerated up front.
    lazy: bool,
    boxes: Vec<MatchBox<G>>,
    /// The box of each position, by box number: each position is stored once, in its box.
    index: HashTable<u32>,
    hasher: DefaultHashBuilder,
    arrow_start: Vec<usize>,
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
        Self::from_boxes(side, mode, forced, found)
    }

    /// An empty set whose boxes are made the first time the learner meets a position
    /// ([`BoxSet::add`]); for games too big to enumerate.
    pub fn lazy(side: Side, mode: SymmetryMode, forced: Forced) -> BoxSet<G> {
        Self::lazy_from(side, mode, forced, Vec::new())
    }

    /// A lazy set from boxes already made (a saved lazy machine).
    pub fn lazy_from(
        side: Side,
        mode: SymmetryMode,
        forced: Forced,
        boxes: Vec<MatchBox<G>>,
    ) -> BoxSet<G> {
        let mut set = Self::from_boxes(side, mode, forced, boxes);
        set.lazy = true;
        set
    }

    /// Whether boxes are made on first visit.
    pub fn is_lazy(&self) -> bool {
        self.lazy
    }

    /// Adds a box (its position must not have one); returns its index.
    pub fn add(&mut self, b: MatchBox<G>) -> usize {
        let i = self.boxes.len();
        let hash = self.hasher.hash_one(&b.position);
        let boxes = &self.boxes;
        let hasher = &self.hasher;
        self.index.insert_unique(hash, i as u32, |&j| {
            hasher.hash_one(&boxes[j as usize].position)
        });
        let start = *self.arrow_start.last().unwrap_or(&0);
        self.arrow_start.push(start + b.arrows.len());
        self.boxes.push(b);
        i
    }

    /// Where box `b`'s beads start in its machine's flat bead array: `[total, arrow 0, arrow 1, …]`.
    pub fn bead_index(&self, b: usize) -> usize {
        self.arrow_start[b] + b
    }

    /// The box whose beads start at `bead` (a [`BoxSet::bead_index`]).
    pub fn box_at_bead(&self, bead: usize) -> usize {
        // bead_index(b) = arrow_start[b] + b grows with b.
        let (mut lo, mut hi) = (0, self.boxes.len());
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

    /// Memory the set takes, in bytes: each box (its position, stored once), its entry in the
    /// index (a box number and a control byte) and in the arrow offsets, and its arrows; not the
    /// tables' spare capacity or the allocator's slack.
    pub fn bytes(&self) -> usize {
        let per_box = std::mem::size_of::<MatchBox<G>>()
            + std::mem::size_of::<u32>()
            + 1
            + std::mem::size_of::<usize>();
        self.boxes.len() * per_box + self.arrow_count() * std::mem::size_of::<G::Move>()
    }

    fn from_boxes(
        side: Side,
        mode: SymmetryMode,
        forced: Forced,
        boxes: Vec<MatchBox<G>>,
    ) -> BoxSet<G> {
        let hasher = DefaultHashBuilder::default();
        let mut index = HashTable::with_capacity(boxes.len());
        for (i, b) in boxes.iter().enumerate() {
            index.insert_unique(hasher.hash_one(&b.position), i as u32, |&j: &u32| {
                hasher.hash_one(&boxes[j as usize].position)
            });
        }
        let mut arrow_start = Vec::with_capacity(boxes.len() + 1);
        let mut total = 0;
        for b in &boxes {
            arrow_start.push(total);
            total += b.arrows.len();
        }
        arrow_start.push(total);
        BoxSet {
            side,
            mode,
            forced,
            lazy: false,
            boxes,
            index,
            hasher,
            arrow_start,
        }
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
    pub fn boxes(&self) -> &[MatchBox<G>] {
        &self.boxes
    }
    pub fn len(&self) -> usize {
        self.boxes.len()
    }
    pub fn is_empty(&self) -> bool {
        self.boxes.is_empty()
    }
    pub fn get(&self, i: usize) -> &MatchBox<G> {
        &self.boxes[i]
    }
    /// The box whose (framed) position is `pos`.
    pub fn find(&self, pos: &G::Position) -> Option<usize> {
        let hash = self.hasher.hash_one(pos);
        self.index
            .find(hash, |&j| self.boxes[j as usize].position == *pos)
            .map(|&j| j as usize)
    }
    pub fn arrow_count(&self) -> usize {
        *self.arrow_start.last().unwrap_or(&0)
    }
    /// Index of the first arrow of box `i` in a flat list of all arrows.
    pub fn arrow_start(&self, i: usize) -> usize {
        self.arrow_start[i]
    }
    /// Number of boxes at each move number.
    pub fn by_move(&self) -> BTreeMap<u16, usize> {
        let mut m = BTreeMap::new();
        for b in &self.boxes {
            *m.entry(b.move_number()).or_insert(0) += 1;
        }
        m
    }
}
