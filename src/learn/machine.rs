//! A learner: its boxes, the beads in them, its settings and its random number generator. Boxes
//! are either enumerated up front (the table engine) or made the first time a position comes up
//! (a lazy machine); either way the beads sit in one flat array, each box's total first.

use std::sync::Arc;

use super::{
    Beads, BoxSet, Forced, GameResult, LearnError, MAX_BOX_BEADS, MatchBox, Reinforcement, Scope,
    StageBeads,
};
use crate::game::{Game, Sym};
use crate::rng::{Rng, rng_from_seed, uniform_below};

/// A learner: its boxes, the beads in them, its settings and its random number generator.
pub struct Machine<G: Game> {
    pub boxes: Arc<BoxSet<G>>,
    pub initial: StageBeads,
    pub reinforcement: Reinforcement,
    /// The seed the generator was last seeded with.
    pub seed: u64,
    pub rng: Rng,
    pub games_played: u64,
    /// Positions a lazy machine met with no room for another box (its memory budget spent): it
    /// played them at random, learning nothing there.
    pub unboxed: u64,
    /// For each box in turn: its total, then the beads of each arrow. Box `b` starts at
    /// [`BoxSet::bead_index`]`(b)`.
    beads: Vec<u32>,
}

impl<G: Game> Clone for Machine<G> {
    fn clone(&self) -> Self {
        Machine {
            boxes: Arc::clone(&self.boxes),
            initial: self.initial.clone(),
            reinforcement: self.reinforcement,
            seed: self.seed,
            rng: self.rng.clone(),
            games_played: self.games_played,
            unboxed: self.unboxed,
            beads: self.beads.clone(),
        }
    }
}

impl<G: Game> std::fmt::Debug for Machine<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Machine")
            .field("boxes", &self.boxes.len())
            .field("beads_left", &self.beads_left())
            .field("games_played", &self.games_played)
            .field("seed", &self.seed)
            .finish()
    }
}

/// A machine's move: the move on the real board, and the box and arrow it came from (none for a
/// forced move made without a box).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MachineMove<M> {
    Move {
        mv: M,
        drawn: Option<(usize, usize)>,
    },
    /// The box was empty: the machine resigns.
    Resign { box_index: usize },
}

/// A machine's part in one game played from positions: its moves so far (for reinforcement) and
/// how many plies it has played (its stage).
#[derive(Clone, Debug, Default)]
pub struct MachineGame {
    /// (bead index of the box, arrow) for each draw.
    pub played: Vec<(u32, u32)>,
    /// Plies the machine has played in this game, forced ones included.
    pub plies: u16,
}

impl MachineGame {
    pub fn clear(&mut self) {
        self.played.clear();
        self.plies = 0;
    }
}

impl<G: Game> Machine<G> {
    /// A machine with fresh beads in every box of `boxes` (a lazy set may start empty or with the
    /// boxes a saved machine made).
    pub fn new(
        boxes: Arc<BoxSet<G>>,
        initial: StageBeads,
        reinforcement: Reinforcement,
        seed: u64,
    ) -> Machine<G> {
        let mut m = Self::assemble(boxes, initial, reinforcement, seed, Vec::new());
        m.refill();
        m
    }

    /// A machine of `boxes` with its beads given in their flat layout, box after box (the box's
    /// total, then a count per arrow), as a file holds them; `None` if they do not fit the boxes.
    pub fn with_beads(
        boxes: Arc<BoxSet<G>>,
        initial: StageBeads,
        reinforcement: Reinforcement,
        seed: u64,
        beads: Vec<u32>,
    ) -> Option<Machine<G>> {
        (beads.len() == boxes.len() + boxes.arrow_count())
            .then(|| Self::assemble(boxes, initial, reinforcement, seed, beads))
    }

    /// The parts as a machine at its seed's start, no games played.
    fn assemble(
        boxes: Arc<BoxSet<G>>,
        initial: StageBeads,
        reinforcement: Reinforcement,
        seed: u64,
        beads: Vec<u32>,
    ) -> Machine<G> {
        Machine {
            beads,
            boxes,
            initial,
            reinforcement,
            seed,
            rng: rng_from_seed(seed),
            games_played: 0,
            unboxed: 0,
        }
    }

    /// Seeds the generator afresh (the beads are kept).
    pub fn reseed(&mut self, seed: u64) {
        self.seed = seed;
        self.rng = rng_from_seed(seed);
    }

    /// Refills every box with its initial beads (a lazy machine forgets its boxes), reseeds and
    /// forgets the games played.
    pub fn reset(&mut self) {
        if self.boxes.is_lazy() && !self.boxes.is_empty() {
            let b = &self.boxes;
            self.boxes = Arc::new(b.emptied());
        }
        self.refill();
    }

    /// Fresh beads in every box, the generator reseeded, no games played.
    fn refill(&mut self) {
        let mut beads = Vec::with_capacity(self.boxes.len() + self.boxes.arrow_count());
        for b in 0..self.boxes.len() {
            let (stage, arrows) = (self.boxes.stage(b), self.boxes.arrows(b).len());
            Self::push_fresh(&mut beads, &self.initial, stage, arrows);
        }
        self.beads = beads;
        self.reseed(self.seed);
        self.games_played = 0;
        self.unboxed = 0;
    }

    /// Appends a fresh box's total and arrows, never more than [`MAX_BOX_BEADS`] in all.
    fn push_fresh(beads: &mut Vec<u32>, initial: &StageBeads, stage: u16, arrows: usize) {
        let len = arrows.max(1) as u32;
        let n = initial
            .for_stage(stage as usize)
            .get()
            .min(MAX_BOX_BEADS / len);
        beads.push(n * arrows as u32);
        beads.extend(std::iter::repeat_n(n, arrows));
    }

    fn base(&self, b: usize) -> usize {
        self.boxes.bead_index(b)
    }

    /// A short digest of every box's beads (16 hex digits of their SHA-256): two runs that say
    /// they started from the same machine can be checked to have.
    pub fn digest(&self) -> String {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        h.update((self.boxes.len() as u64).to_le_bytes());
        for n in &self.beads {
            h.update(n.to_le_bytes());
        }
        h.finalize()[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// The beads of each arrow of box `b`.
    pub fn beads_in(&self, b: usize) -> Vec<Beads> {
        let base = self.base(b);
        self.beads[base + 1..base + 1 + self.boxes.arrows(b).len()]
            .iter()
            .map(|&n| Beads(n))
            .collect()
    }
    /// Replaces the beads of box `b`, one count per arrow; refused when the box would hold more
    /// than [`MAX_BOX_BEADS`].
    pub fn set_beads(&mut self, b: usize, beads: &[Beads]) -> Result<(), LearnError> {
        let base = self.base(b);
        let arrows = self.boxes.arrows(b).len();
        if beads.len() != arrows {
            return Err(LearnError::ArrowCount {
                expected: arrows,
                found: beads.len(),
            });
        }
        let total: u64 = beads.iter().map(|n| n.get() as u64).sum();
        if total > MAX_BOX_BEADS as u64 {
            return Err(LearnError::BoxTooFull(total));
        }
        for (cell, n) in self.beads[base + 1..].iter_mut().zip(beads) {
            *cell = n.get();
        }
        self.beads[base] = total as u32;
        Ok(())
    }
    pub fn box_total(&self, b: usize) -> u32 {
        self.beads[self.base(b)]
    }
    pub fn beads_left(&self) -> u64 {
        (0..self.boxes.len())
            .map(|b| self.box_total(b) as u64)
            .sum()
    }
    pub fn boxes_emptied(&self) -> usize {
        (0..self.boxes.len())
            .filter(|&b| self.box_total(b) == 0)
            .count()
    }
    /// Memory the boxes and beads take, in bytes (an estimate: the positions, arrows, index and
    /// beads, not the allocator's slack).
    pub fn bytes(&self) -> usize {
        self.boxes.bytes() + self.beads.len() * std::mem::size_of::<u32>()
    }

    /// The beads, flat: each box's total, then its arrows' beads.
    pub(crate) fn raw_beads(&self) -> &[u32] {
        &self.beads
    }

    /// The beads, flat, to write back what the fast loop learned.
    pub(super) fn raw_beads_mut(&mut self) -> &mut [u32] {
        &mut self.beads
    }

    /// The beads, flat, and the generator (for the compiled table's hot loop).
    pub(super) fn beads_and_rng(&mut self) -> (&[u32], &mut Rng) {
        (&self.beads, &mut self.rng)
    }

    /// The box for `view` (a position seen in the machine's frame, met after `ply` plies at the
    /// machine's move `stage`); a lazy machine makes it, with fresh beads, the first time (unless
    /// its beads would pass the 2³² a machine can index: then it has none).
    pub fn box_for(&mut self, game: &G, view: &G::Position, ply: u16, stage: u16) -> Option<usize> {
        self.locate_or_make(game, view, ply, stage).map(|(b, _)| b)
    }

    /// As [`Machine::box_for`], with where the box's beads start.
    #[inline]
    fn locate_or_make(
        &mut self,
        game: &G,
        view: &G::Position,
        ply: u16,
        stage: u16,
    ) -> Option<(usize, usize)> {
        if let Some(found) = self.boxes.locate(view) {
            return Some(found);
        }
        if !self.boxes.is_lazy() {
            return None;
        }
        let arrows = self.boxes.mode().arrows(game, view);
        if !self.boxes.has_room_for(arrows.len()) {
            return None;
        }
        Self::push_fresh(&mut self.beads, &self.initial, stage, arrows.len());
        let new = MatchBox {
            ply,
            stage,
            position: view.clone(),
            arrows: arrows.into(),
        };
        let b = Arc::make_mut(&mut self.boxes).add(new);
        Some((b, self.base(b)))
    }

    /// Draws one bead uniformly from the box whose total is at `base` in `beads`: the arrow's index
    /// in the box, or `None` when the box is empty (the machine resigns). Box totals never exceed
    /// [`MAX_BOX_BEADS`], so the running sum cannot overflow.
    #[inline(always)]
    pub(super) fn draw_at(beads: &[u32], rng: &mut Rng, base: usize, len: usize) -> Option<usize> {
        let total = beads[base];
        if total == 0 {
            return None;
        }
        let r = uniform_below(rng, total);
        // Branch-free: the arrow is the number of arrows whose running total is still <= r.
        let mut arrow = 0;
        let mut running = 0u32;
        for &n in &beads[base + 1..base + 1 + len] {
            running += n;
            arrow += usize::from(running <= r);
        }
        Some(arrow)
    }

    /// [`Machine::draw_at`] without the box's length: the first arrow whose running total
    /// passes the number drawn, the same arrow (a box's total is the sum of its arrows' beads),
    /// found without reading where the box ends.
    #[inline(always)]
    fn draw_open(beads: &[u32], rng: &mut Rng, base: usize) -> Option<usize> {
        let total = beads[base];
        if total == 0 {
            return None;
        }
        let r = uniform_below(rng, total);
        let mut running = 0u32;
        let passed = beads[base + 1..].iter().position(|&n| {
            running += n;
            running > r
        });
        Some(passed.unwrap_or(0))
    }

    /// Draws one bead from box `b` (see [`Machine::draw_at`]).
    pub fn draw(&mut self, b: usize) -> Option<usize> {
        let (base, len) = (self.base(b), self.boxes.arrows(b).len());
        Self::draw_at(&self.beads, &mut self.rng, base, len)
    }

    /// The machine's move in the real position `pos`, after `ply` plies, seeing the board in
    /// `frame`; `g` is its part in this game so far. Positions with a single move get no box
    /// when the set skips forced moves.
    /// The box [`Machine::choose`] would open in `pos`, without drawing: none where the move is
    /// forced and forced moves get no box, or where the machine has no box.
    pub fn box_opened_in(&self, game: &G, pos: &G::Position, frame: Sym) -> Option<usize> {
        if self.boxes.forced() == Forced::Skip && game.only_move(pos).is_some() {
            return None;
        }
        let (view, _) = self.boxes.mode().box_view(game, pos, frame);
        self.boxes.find(&view)
    }

    pub fn choose(
        &mut self,
        game: &G,
        pos: &G::Position,
        ply: u32,
        frame: Sym,
        g: &mut MachineGame,
    ) -> MachineMove<G::Move> {
        let stage = g.plies;
        g.plies = g.plies.saturating_add(1);
        if self.boxes.forced() == Forced::Skip
            && let Some(mv) = game.only_move(pos)
        {
            return MachineMove::Move { mv, drawn: None };
        }
        let (view, sym) = self.boxes.mode().box_view(game, pos, frame);
        let ply16 = u16::try_from(ply).unwrap_or(u16::MAX);
        let Some((b, base)) = self.locate_or_make(game, &view, ply16, stage) else {
            // No box (an enumerated set has one for every position with a choice; a lazy
            // machine too full for another): a move at random, learned from by no box.
            if self.boxes.is_lazy() {
                self.unboxed += 1;
            }
            let moves = game.moves(pos);
            return MachineMove::Move {
                mv: moves[uniform_below(&mut self.rng, moves.len() as u32) as usize],
                drawn: None,
            };
        };
        // Two reads at once, each a likely cache miss in a big machine: the beads, and the
        // arrows (found from where the beads start, with no read of where the box ends).
        self.boxes.touch_arrows(b, base);
        match Self::draw_open(&self.beads, &mut self.rng, base) {
            Some(arrow) => {
                g.played.push((base as u32, arrow as u32));
                let real =
                    game.transform_move(game.inverse(sym), self.boxes.arrow_at(b, base, arrow));
                MachineMove::Move {
                    mv: real,
                    drawn: Some((b, arrow)),
                }
            }
            None => MachineMove::Resign { box_index: b },
        }
    }

    /// The machine's move `mv` as a record gives it (a lesson's log, played again): the box for
    /// the position, and the bead of the arrow that stands for `mv` taken as drawn, whatever
    /// the box holds now. `None` when the box has no arrow for `mv` (not a move this machine
    /// could have made there), or no box is had for the position.
    pub fn choose_given(
        &mut self,
        game: &G,
        pos: &G::Position,
        ply: u32,
        frame: Sym,
        g: &mut MachineGame,
        mv: G::Move,
    ) -> Option<Option<(usize, usize)>> {
        let stage = g.plies;
        g.plies = g.plies.saturating_add(1);
        if self.boxes.forced() == Forced::Skip && game.only_move(pos).is_some() {
            return (game.only_move(pos) == Some(mv)).then_some(None);
        }
        let (view, sym) = self.boxes.mode().box_view(game, pos, frame);
        let ply16 = u16::try_from(ply).unwrap_or(u16::MAX);
        let (b, base) = self.locate_or_make(game, &view, ply16, stage)?;
        let arrow_for = |s: Sym| {
            (0..self.boxes.arrows(b).len()).find(|&a| {
                game.transform_move(game.inverse(s), self.boxes.arrow_at(b, base, a)) == mv
            })
        };
        // In a position that is its own image (noughts and crosses after b2 a1), a move the box
        // draws as its arrow's image is that arrow's bead too: a record may write a3 where the
        // box's frame writes c1.
        let images = (0..game.symmetry_count() as u8).map(Sym);
        let arrow = arrow_for(sym).or_else(|| {
            (images.filter(|&u| game.transform_position(u, pos) == view)).find_map(arrow_for)
        })?;
        g.played.push((base as u32, arrow as u32));
        Some(Some((b, arrow)))
    }

    /// Applies the reinforcement for a finished game to the moves played, given as (bead index
    /// of the box, arrow index in box) pairs in order, and counts the game. A box never holds more
    /// than [`MAX_BOX_BEADS`]; an arrow never fewer than none.
    #[inline]
    pub fn reinforce(&mut self, played: &[(u32, u32)], result: GameResult) {
        self.games_played = self.games_played.saturating_add(1);
        reinforce_beads(&mut self.beads, self.reinforcement, played, result);
    }
}

/// The draws of `played` (box's bead index, arrow) that a game ending in `result` reinforces:
/// none where its reinforcement is 0, the last where only the last move is, else all.
pub(super) fn reinforced(
    reinforcement: Reinforcement,
    played: &[(u32, u32)],
    result: GameResult,
) -> &[(u32, u32)] {
    if reinforcement.delta(result) == 0 {
        return &[];
    }
    match reinforcement.scope {
        Scope::AllMoves => played,
        Scope::LastMove => &played[played.len().saturating_sub(1)..],
    }
}

/// The bead changes of [`Machine::reinforce`] on a bead array laid out as a machine's (each box's
/// total, then its arrows): shared with the exact learning curve, which reinforces copies.
#[inline]
pub(crate) fn reinforce_beads(
    beads: &mut [u32],
    reinforcement: Reinforcement,
    played: &[(u32, u32)],
    result: GameResult,
) {
    let delta = reinforcement.delta(result);
    for &(base, arrow) in reinforced(reinforcement, played, result) {
        let cell = (base + 1 + arrow) as usize;
        let before = beads[cell];
        let total = beads[base as usize];
        let after = if delta >= 0 {
            before + (delta as u32).min(MAX_BOX_BEADS - total)
        } else {
            before.saturating_sub(delta.unsigned_abs())
        };
        beads[cell] = after;
        beads[base as usize] = total - before + after;
    }
}

/// A machine's totals — beads left, boxes emptied, beads by the learner's move — kept up to date
/// from the boxes each game played (and the boxes made), so a row a game costs the game's boxes,
/// not a scan of the whole machine (a lazy base-3 Havannah machine has millions). The training
/// loop itself is untouched: the caller passes the boxes a game played.
#[derive(Clone, Debug, Default)]
pub struct BeadTotals {
    /// Each box's total when last seen.
    totals: Vec<u32>,
    pub beads_by_stage: Vec<u64>,
    pub beads_left: u64,
    pub boxes_emptied: u64,
}

impl BeadTotals {
    /// The totals of `m` now.
    pub fn new<G: Game>(m: &Machine<G>) -> BeadTotals {
        let mut t = BeadTotals::default();
        t.update(m, &[]);
        t
    }

    /// Brings the totals up to date after a game that played the boxes whose beads start at
    /// `played` (bead indexes, as in [`MachineGame::played`]).
    pub fn update<G: Game>(&mut self, m: &Machine<G>, played: &[u32]) {
        for b in self.totals.len()..m.boxes.len() {
            self.totals.push(0);
            let stage = m.boxes.stage(b) as usize;
            if self.beads_by_stage.len() <= stage {
                self.beads_by_stage.resize(stage + 1, 0);
            }
            // A new box counts as emptied until it has beads.
            self.boxes_emptied += 1;
            self.set(m, b);
        }
        for &base in played {
            let b = m.boxes.box_at_bead(base as usize);
            self.set(m, b);
        }
    }

    fn set<G: Game>(&mut self, m: &Machine<G>, b: usize) {
        let old = self.totals[b];
        let new = m.box_total(b);
        let stage = m.boxes.stage(b) as usize;
        self.beads_by_stage[stage] = self.beads_by_stage[stage] + new as u64 - old as u64;
        self.beads_left = self.beads_left + new as u64 - old as u64;
        match (old == 0, new == 0) {
            (true, false) => self.boxes_emptied -= 1,
            (false, true) => self.boxes_emptied += 1,
            _ => {}
        }
        self.totals[b] = new;
    }
}

/// Whether every box of a machine's first move is empty (it resigns every game).
pub fn first_box_empty<G: Game>(m: &Machine<G>) -> bool {
    let first = (0..m.boxes.len()).filter(|&b| m.boxes.stage(b) == 0);
    first_box_empty_of(first.map(|b| m.box_total(b)))
}

/// Whether there are boxes of the first move and every one of `totals` (theirs) is empty.
pub(super) fn first_box_empty_of(totals: impl Iterator<Item = u32>) -> bool {
    let mut totals = totals.peekable();
    totals.peek().is_some() && totals.all(|t| t == 0)
}
