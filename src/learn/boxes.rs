//! The set of matchboxes a learner needs: one box per position it can meet (up to the chosen
//! symmetry), one arrow per move it may choose there.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use super::{Forced, SymmetryMode};
use crate::game::{Game, Side, Sym};

/// One matchbox: a position the learner may have to move in, and its arrows (moves), both in the
/// box's frame (for merged symmetric positions, the canonical image).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchBox<G: Game> {
    /// Plies played before this position (so the learner makes move `ply + 1`).
    pub ply: u16,
    /// How many moves the learner has made before this box (0 for its first move).
    pub stage: u16,
    pub position: G::Position,
    pub arrows: Vec<G::Move>,
}

impl<G: Game> MatchBox<G> {
    /// Gardner's "move n": plies counted from 1, White's first move is move 1.
    pub fn move_number(&self) -> u16 {
        self.ply + 1
    }
}

/// Every matchbox of a learner playing one side with one symmetry mode. Boxes are numbered from 0
/// here (1 in everything a person reads) in order of move number, then of discovery.
#[derive(Clone, Debug)]
pub struct BoxSet<G: Game> {
    side: Side,
    mode: SymmetryMode,
    forced: Forced,
    boxes: Vec<MatchBox<G>>,
    index: HashMap<G::Position, usize>,
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
        let frame = |child: G::Position, ply: u16| match mode {
            SymmetryMode::Full => game.canonical(&child).0,
            SymmetryMode::Gardner if ply == 1 => game.canonical(&child).0,
            _ => child,
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
                let arrows = match mode {
                    SymmetryMode::None => game.moves(&pos),
                    _ => game.distinct_moves(&pos),
                };
                if forced == Forced::Include || game.moves(&pos).len() > 1 {
                    found.push(MatchBox {
                        ply,
                        stage,
                        position: pos.clone(),
                        arrows: arrows.clone(),
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

    fn from_boxes(
        side: Side,
        mode: SymmetryMode,
        forced: Forced,
        boxes: Vec<MatchBox<G>>,
    ) -> BoxSet<G> {
        let index = boxes
            .iter()
            .enumerate()
            .map(|(i, b)| (b.position.clone(), i))
            .collect();
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
            boxes,
            index,
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
        self.index.get(pos).copied()
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

    /// The frame a game is seen in after `plies_played` plies, given the current real position:
    /// Gardner's frame is fixed by the first move; the other modes need no frame.
    pub fn frame_after(&self, game: &G, plies_played: u32, real: &G::Position, frame: Sym) -> Sym {
        if self.mode == SymmetryMode::Gardner && plies_played == 1 {
            game.canonical(real).1
        } else {
            frame
        }
    }

    /// The box for a real position and the symmetry that maps the real board onto the box's
    /// diagram. An arrow `a` of that box is played on the real board as
    /// `game.transform_move(game.inverse(sym), a)`.
    pub fn lookup(&self, game: &G, real: &G::Position, frame: Sym) -> Option<(usize, Sym)> {
        let (pos, sym) = match self.mode {
            SymmetryMode::None => (real.clone(), Sym::IDENTITY),
            SymmetryMode::Full => game.canonical(real),
            SymmetryMode::Gardner => (game.transform_position(frame, real), frame),
        };
        self.find(&pos).map(|b| (b, sym))
    }
}
