//! The experiments' run loop on the compiled table for learners reinforced on their last move
//! (HER): the same games as the general loop (`Trainer::play_game`: the same draws from the same
//! generator, the same reinforcement), laid out for the processor, four runs at a time.
//!
//! - Every box has the same width `W` (its beads padded with empty arrows) and holds running
//!   totals, so a learner's draw is `W` compares with no loop exit to mispredict. The
//!   opponent's choice among `k` options is `uniform_below(k)`, with `k` in the node: no load of
//!   a box and no compares (the learner's and the opponent's plies alternate, so the branch
//!   between them is predicted; one path for both, loading a box of `k` single beads, took
//!   13 % more instructions, 710 million against 626 million for 40,000 HER runs, and 3–11 %
//!   more time). The end of a game is a node with no box.
//! - Forced moves (a machine's single move, where its set has no box) are followed when the
//!   table is built: they draw nothing.
//! - The beads are the lane's, copied afresh for each run (no allocation a run); a game adds two
//!   numbers to the statistics as it ends, the rest is derived from them at the end ([`Sums`]).
//! - A piece of work is up to 64 runs; each of its four lanes takes the next run as it finishes
//!   one.
//! - Four runs are interleaved ply by ply: their chains of dependent loads overlap (why four,
//!   measured against two, five and six lanes: `docs/performance.md`).
//! - One long run (`train`) cannot be split so: [`FastTable::train`] plays it on the same table
//!   as one chain, with the draw a branch the processor predicts (a trained box has few arrows
//!   with beads) and the opponent's option drawn with no load of its box.

use super::ends::Ends;
use super::experiment::{ExperimentResult, Runs, fold_pieces};
use super::machine::first_box_empty_of;
use super::table::{DRAW, FORCED, LEARNER, LEARNER_RESIGNS, LOSS, OPPONENT, Table, WIN};
use super::{GameResult, MAX_BOX_BEADS, Machine, Reinforcement, Scope};
use crate::game::Game;
use crate::rng::{Words, derive_seed, uniform_below};

/// One state, as the loop reads it: one word, so that a lane's node is a register, not a
/// value stored at one ply and loaded back at the next. Its low half is the box drawn from: 0
/// (no beads: the game is over), `1..=W` (an opponent's `k` options), or above `W` a learner's
/// box. Its high half is the index of the first option's node in [`FastTable::children`] where
/// a box is drawn from, or how the game ended (an end id of the table) where it is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Node(u64);

impl Node {
    /// A node drawing from cell `cell`, its options' nodes from `first` on.
    fn drawing(cell: u32, first: u32) -> Node {
        Node(u64::from(first) << 32 | u64::from(cell))
    }

    /// The end of a game, as end id `end`.
    fn end(end: u32) -> Node {
        Node(u64::from(end) << 32)
    }

    /// The cell drawn from (0 where the game is over).
    #[inline(always)]
    fn cell(self) -> u32 {
        self.0 as u32
    }

    /// The first option's index, or the end id where the game is over.
    #[inline(always)]
    fn first(self) -> u32 {
        (self.0 >> 32) as u32
    }
}

/// A box of `W` arrows as running totals: `cum[i]` is the beads of arrows `0..=i`, so the last
/// is the box's total and the arrow drawn for a number `r` below it is the count of `cum[i] <= r`
/// (the same arrow as counting beads one arrow at a time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
struct Cell<const W: usize> {
    cum: [u32; W],
}

impl<const W: usize> Cell<W> {
    fn total(&self) -> u32 {
        self.cum[W - 1]
    }
    /// A box holding `beads`, then empty arrows up to `W`.
    fn of(beads: &[u32]) -> Cell<W> {
        let mut cum = [0; W];
        let mut running = 0;
        for (i, c) in cum.iter_mut().enumerate() {
            running += beads.get(i).copied().unwrap_or(0);
            *c = running;
        }
        Cell { cum }
    }
}

/// A run under way: its beads, its generator, and what it has lost so far (where its game is,
/// the loop holds: [`FastTable::runs`]). A lane is made once for a piece of work and restarted
/// for each of its runs.
struct Lane<const W: usize> {
    cells: Vec<Cell<W>>,
    rng: Words,
    /// The learner's last draw in this game, as `cell << 32 | arrow`: the spare cell (which no
    /// node reads) where it has not drawn, so that reinforcing it changes nothing that counts.
    last: u64,
    games_left: usize,
    /// The index of the game under way.
    game: usize,
    /// Games lost so far, and the last lost (1-based; 0 for none).
    lost: u64,
    last_loss: usize,
    /// Which games were lost (to take them out of the counts of kept first boxes, should the
    /// run end with its first box empty).
    losses: Vec<bool>,
}

/// The runs of a piece of work not yet started, handed to lanes as they finish theirs.
struct Feed {
    seed: u64,
    next: u64,
    end: u64,
    games: usize,
    /// Set when a lane finished its run and found none left to start.
    dry: bool,
}

// A wide box's draw compares running totals as signed numbers (`arrow_of`).
const _: () = assert!(MAX_BOX_BEADS <= i32::MAX as u32);

/// What the end of a game adds, by end id: whether it is a loss, and the reinforcement of the
/// learner's last move.
#[derive(Clone, Copy, Debug)]
struct EndRow {
    loss: u32,
    delta: i32,
}

/// A piece of work's sums, counted as each game ends: from them, the sums of
/// `ExperimentResult::add_run` (with no pass over a run's results). A game adds two numbers,
/// the rest is derived once, at the end (`into_result`):
/// - the games of each index by how they ended gives the wins, draws and losses of each game
///   index and the games by end;
/// - a run's losses so far after game `g` is the sum of its losses up to `g`, so the sum over
///   runs is the sum of the losses of games `0..=g`; and its square grows, at a loss that
///   makes it `n`, by `2n - 1`, so the sum of squares is the sum of those growths up to `g`.
struct Sums {
    runs: usize,
    first_box_empty: usize,
    /// Games by game index and end id: row `g` (of `ends` numbers) is game `g`'s.
    by_end: Vec<u32>,
    /// The number of end ids (a row of `by_end`).
    ends: usize,
    /// By game index, what its losses added to the runs' squares of losses so far.
    sq_growth: Vec<u64>,
    /// By game index, the losses of runs whose first box ended empty.
    stuck_losses: Vec<u32>,
    last_loss: Vec<u32>,
}

impl Sums {
    fn new(games: usize, ends: usize) -> Sums {
        Sums {
            runs: 0,
            first_box_empty: 0,
            by_end: vec![0; games * ends],
            ends,
            sq_growth: vec![0; games],
            stuck_losses: vec![0; games],
            last_loss: vec![0; games + 1],
        }
    }

    fn merge(mut self, other: Sums) -> Sums {
        self.runs += other.runs;
        self.first_box_empty += other.first_box_empty;
        add(&mut self.by_end, &other.by_end);
        add(&mut self.sq_growth, &other.sq_growth);
        add(&mut self.stuck_losses, &other.stuck_losses);
        add(&mut self.last_loss, &other.last_loss);
        self
    }

    /// The experiment's result, with `end_names` and `end_results` the name and the learner's
    /// result of each end id.
    fn into_result(self, end_names: &[String], end_results: &[GameResult]) -> ExperimentResult {
        let rows = || self.by_end.chunks_exact(self.ends.max(1));
        let column = |result: GameResult| {
            rows()
                .map(|row| {
                    row.iter()
                        .zip(end_results)
                        .filter(|(_, r)| **r == result)
                        .map(|(n, _)| n)
                        .sum()
                })
                .collect::<Vec<u32>>()
        };
        let mut ended = Ends::default();
        for (e, name) in end_names.iter().enumerate() {
            ended.add(name, rows().map(|row| u64::from(row[e])).sum());
        }
        let losses = column(GameResult::Loss);
        ExperimentResult {
            runs: self.runs,
            wins_by_game: column(GameResult::Win),
            draws_by_game: column(GameResult::Draw),
            losses_by_game_first_box_kept: losses
                .iter()
                .zip(&self.stuck_losses)
                .map(|(l, s)| l - s)
                .collect(),
            cumulative_losses: running_sums(losses.iter().map(|&l| u64::from(l))),
            cumulative_losses_sq: running_sums(self.sq_growth.iter().copied()),
            losses_by_game: losses,
            first_box_empty: self.first_box_empty,
            last_loss: self.last_loss,
            ended,
        }
    }
}

/// The running sums of `numbers`: the `i`th is the sum of the first `i + 1`.
fn running_sums(numbers: impl Iterator<Item = u64>) -> Vec<u64> {
    numbers
        .scan(0, |sum, n| {
            *sum += n;
            Some(*sum)
        })
        .collect()
}

/// Adds `b` to `a`, element by element.
fn add<T: Copy + std::ops::AddAssign>(a: &mut [T], b: &[T]) {
    a.iter_mut().zip(b).for_each(|(x, &y)| *x += y);
}

/// Runs played at once, interleaved ply by ply.
const LANES: usize = 4;

/// The most runs a piece of work holds: its lanes take them one after another.
const PIECE: u64 = 64;

/// Runs a piece of work holds for an experiment of `runs` runs: up to [`PIECE`], but small
/// enough that every thread gets two pieces or more (a few long runs split evenly between the
/// threads), and never fewer than the lanes. (Smaller pieces cost more than they balance: each
/// has its sums per game index, merged at the end. 100 runs of 100,000 games on two threads,
/// side by side: pieces of 4 runs 0.19 s, of 6 runs 0.21 s, of 64 runs and 36 runs 0.15 s, of
/// 25 runs 0.14 s.)
fn piece_size(runs: u64, threads: usize) -> u64 {
    (runs / (2 * threads.max(1) as u64)).clamp(LANES as u64, PIECE)
}

/// A piece of work under way: its sums and the lanes its runs are played in.
struct Work<const W: usize> {
    /// The piece's own copy of the table, made on the thread that plays it: the loop's speed
    /// depends on where its nodes fall against the lanes within a 4 KB page, and a copy made
    /// here lands where this thread's own allocations put it, not where the program's start
    /// (its arguments, its environment) left the original (`docs/performance.md`).
    table: Box<FastTable<W>>,
    sums: Sums,
    lanes: [Lane<W>; LANES],
}

/// A table compiled for the loop, with boxes `W` arrows wide.
#[derive(Clone)]
pub struct FastTable<const W: usize> {
    start: Node,
    children: Vec<Node>,
    /// The cells as a fresh run starts them: the end, the opponent's, then the learner's boxes
    /// with the template machine's beads.
    cells: Vec<Cell<W>>,
    /// The cells of the learner's boxes of its first move.
    first_cells: Vec<u32>,
    /// The spare cell (the last): where a learner that has not drawn is reinforced.
    spare: u32,
    /// What each end id adds, and its name.
    end_rows: Vec<EndRow>,
    end_names: Vec<String>,
    /// How a game that ends so ends for the learner, by end id.
    end_results: Vec<GameResult>,
}

impl<const W: usize> FastTable<W> {
    /// The loop's table for `table`, starting from the beads of `m`; `None` where a box or an
    /// opponent's choice is wider than `W`, or the opponent is a machine.
    pub fn new<G: Game>(table: &Table, m: &Machine<G>) -> Option<FastTable<W>> {
        let states = table.raw_states();
        let children = table.raw_children();
        let boxes = &m.boxes;
        let mut nodes = Vec::with_capacity(states.len());
        // A resignation is the learner's loss; the rest are set from their states.
        let mut end_results = vec![GameResult::Loss; table.end_names().len()];
        for (i, s) in states.iter().enumerate() {
            let node = match s.mover {
                WIN | DRAW | LOSS => {
                    let id = table.end_at(*s);
                    end_results[id as usize] = match s.mover {
                        WIN => GameResult::Win,
                        DRAW => GameResult::Draw,
                        _ => GameResult::Loss,
                    };
                    Node::end(id)
                }
                OPPONENT if (1..=W as u32).contains(&s.options) => {
                    Node::drawing(s.options, s.first_option)
                }
                LEARNER if s.options as usize <= W => {
                    Node::drawing((W + 1) as u32 + table.box_index(i as u32)?, s.first_option)
                }
                // Filled below, from the state its one move leads to.
                FORCED => Node::end(u32::MAX),
                _ => return None,
            };
            nodes.push(node);
        }
        // A forced state is the state its move leads to (chains followed to their end).
        for i in 0..nodes.len() {
            let mut j = i;
            let mut steps = 0;
            while states[j].mover == FORCED {
                j = children[states[j].first_option as usize] as usize;
                steps += 1;
                if steps > states.len() {
                    return None;
                }
            }
            nodes[i] = nodes[j];
        }
        let mut cells: Vec<Cell<W>> = (0..=W).map(|k| Cell::of(&vec![1; k])).collect();
        let flat = m.raw_beads();
        for b in 0..boxes.len() {
            let (base, len) = (boxes.bead_index(b), boxes.arrows(b).len());
            if len > W {
                return None;
            }
            cells.push(Cell::of(&flat[base + 1..base + 1 + len]));
        }
        let spare = cells.len() as u32;
        cells.push(Cell::of(&[]));
        let first_cells = (0..boxes.len())
            .filter(|&b| boxes.stage(b) == 0)
            .map(|b| (W + 1 + b) as u32)
            .collect();
        let mut children: Vec<Node> = children.iter().map(|&c| nodes[c as usize]).collect();
        // Ends after the last: a draw from a node's `first` reads at most `W` children on.
        children.extend(std::iter::repeat_n(Node::end(LEARNER_RESIGNS), W + 1));
        let fast = FastTable {
            start: nodes[0],
            children,
            cells,
            first_cells,
            spare,
            end_rows: end_results
                .iter()
                .map(|&r| end_row(r, m.reinforcement))
                .collect(),
            end_names: table.end_names().to_vec(),
            end_results,
        };
        fast.in_range().then_some(fast)
    }

    /// Whether every node's box, and its children or its end, are in the table (and a
    /// resignation's end): what the loop's reads without bounds checks ([`FastTable::child`],
    /// [`cell`], [`FastTable::end_row`]) rely on.
    fn in_range(&self) -> bool {
        let fits = |n: &Node| {
            (n.cell() as usize) < self.cells.len()
                && if n.cell() == 0 {
                    (n.first() as usize) < self.end_rows.len()
                } else {
                    n.first() as usize + W < self.children.len()
                }
        };
        fits(&self.start)
            && self.children.iter().all(fits)
            && (self.spare as usize) < self.cells.len()
            && (LEARNER_RESIGNS as usize) < self.end_rows.len()
    }

    /// Child `arrow` of `at`.
    ///
    /// # Safety
    /// `at` is this table's start or one of its children, and `arrow` is at most `W`.
    #[inline(always)]
    #[allow(unsafe_code)]
    unsafe fn child(&self, at: Node, arrow: u32) -> Node {
        let i = (at.first() + arrow) as usize;
        debug_assert!(at.cell() != 0 && i < self.children.len());
        // SAFETY: `at` draws (the caller's), so `at.first() + W` is below the children's length
        // (`in_range`, checked when the table was built; the children never change), and
        // `arrow <= W` (the caller's).
        *unsafe { self.children.get_unchecked(i) }
    }

    /// What the end `end` adds.
    ///
    /// # Safety
    /// `end` is the end id of an end among this table's children, or `LEARNER_RESIGNS`.
    #[inline(always)]
    #[allow(unsafe_code)]
    unsafe fn end_row(&self, end: usize) -> EndRow {
        debug_assert!(end < self.end_rows.len());
        // SAFETY: an end's id and `LEARNER_RESIGNS` are below the rows' length (`in_range`).
        *unsafe { self.end_rows.get_unchecked(end) }
    }

    /// One ply of `lane`'s game from `at`: a draw and a move, or at the end of the game its
    /// reinforcement, its result counted in `sums` and a new game (of a new run from `feed`
    /// when its run is over); where the lane then stands.
    #[inline(always)]
    #[allow(unsafe_code)]
    fn ply(&self, lane: &mut Lane<W>, at: Node, sums: &mut Sums, feed: &mut Feed) -> Node {
        // The end of a game is known from the node itself, before its box is loaded: the branch
        // the processor mispredicts (once a game) is settled sooner. A learner's empty box (it
        // resigns) is rare, and its test is predicted.
        if at.cell() == 0 {
            return self.end_game(lane, at.first(), sums, feed);
        }
        let arrow = if at.cell() as usize > W {
            // SAFETY: the lane's cells are the table's (cloned and copied), and `at` is the
            // table's start or a child.
            let c = unsafe { cell(&lane.cells, at.cell()) };
            let total = c.total();
            if total == 0 {
                return self.end_game(lane, LEARNER_RESIGNS, sums, feed);
            }
            let r = lane.rng.below(total);
            let arrow = arrow_of(&c.cum, r);
            lane.last = u64::from(at.cell()) << 32 | u64::from(arrow);
            arrow
        } else {
            // The opponent's box holds one bead for each of its `cell` options: the number
            // drawn is the option, with no load of the box.
            lane.rng.below(at.cell())
        };
        // SAFETY: `at` is the start or a child and draws, and `arrow` is at most `W`: a
        // learner's is a count of `W` compares, and an opponent's is below `at.cell()`, at most
        // `W` for an opponent's node.
        unsafe { self.child(at, arrow) }
    }

    /// The end of `lane`'s game, ended as end id `end`: its reinforcement, its counts; and the
    /// next game's start.
    #[inline(always)]
    #[allow(unsafe_code)]
    fn end_game(&self, lane: &mut Lane<W>, end: u32, sums: &mut Sums, feed: &mut Feed) -> Node {
        let end = end as usize;
        // SAFETY: the end of an end among the children, or `LEARNER_RESIGNS` (the caller's).
        let row = unsafe { self.end_row(end) };
        let g = lane.game;
        let (cell, arrow) = ((lane.last >> 32) as usize, lane.last as u32 as usize);
        if row.delta != 0 {
            reinforce(&mut lane.cells[cell], arrow, row.delta);
        }
        lane.last = u64::from(self.spare) << 32;
        // No branch on the loss (games are lost at random early in a run).
        lane.lost += u64::from(row.loss);
        let growth = (2 * lane.lost).wrapping_sub(1) * u64::from(row.loss);
        let loss = row.loss != 0;
        lane.last_loss = if loss { g + 1 } else { lane.last_loss };
        debug_assert!(g < lane.losses.len() && g < sums.sq_growth.len() && end < sums.ends);
        debug_assert_eq!(sums.by_end.len(), sums.sq_growth.len() * sums.ends);
        // SAFETY: a lane plays a game only while its run has games left (`games_left > 0`,
        // and `game + games_left` is the run's games), so `g` is below the run's games: the
        // length of the lane's `losses` and of the piece's `sq_growth` (both made for the
        // experiment's games, `Work`), whose `by_end` has a row of `ends` for each; and `end`
        // is an end id of the table, below `ends` (`in_range`; the sums are made with the
        // table's end names).
        unsafe {
            *sums.by_end.get_unchecked_mut(g * sums.ends + end) += 1;
            *sums.sq_growth.get_unchecked_mut(g) += growth;
            *lane.losses.get_unchecked_mut(g) = loss;
        }
        lane.game += 1;
        lane.games_left -= 1;
        if lane.games_left == 0 {
            self.next_run(lane, sums, feed);
        }
        self.start
    }

    /// `lane`'s run counted, and the next one started (one call in many games: kept out of the
    /// loop's code).
    #[inline(never)]
    fn next_run(&self, lane: &mut Lane<W>, sums: &mut Sums, feed: &mut Feed) {
        self.finish(lane, sums);
        self.take(lane, feed);
    }

    /// A lane for runs of `games` games (restarted for each run).
    fn lane(&self, games: usize) -> Lane<W> {
        Lane {
            cells: self.cells.clone(),
            rng: Words::from_seed(0),
            last: u64::from(self.spare) << 32,
            games_left: 0,
            game: 0,
            lost: 0,
            last_loss: 0,
            losses: vec![false; games],
        }
    }

    /// `lane` at the start of the next run of `feed` (the template's beads, the run's
    /// generator), or idle (no games left) where `feed` has none.
    fn take(&self, lane: &mut Lane<W>, feed: &mut Feed) {
        if feed.next == feed.end {
            feed.dry = true;
            lane.games_left = 0;
            return;
        }
        lane.cells.copy_from_slice(&self.cells);
        lane.rng = Words::from_seed(derive_seed(feed.seed, feed.next));
        feed.next += 1;
        lane.last = u64::from(self.spare) << 32;
        lane.games_left = feed.games;
        lane.game = 0;
        lane.lost = 0;
        lane.last_loss = 0;
    }

    /// Counts a finished run in `sums`.
    fn finish(&self, lane: &Lane<W>, sums: &mut Sums) {
        sums.runs += 1;
        sums.last_loss[lane.last_loss] += 1;
        if self.stuck(lane) {
            sums.first_box_empty += 1;
            for (stuck, _) in sums
                .stuck_losses
                .iter_mut()
                .zip(&lane.losses)
                .filter(|(_, l)| **l)
            {
                *stuck += 1;
            }
        }
    }

    /// Whether a finished run's first box ended empty.
    fn stuck(&self, lane: &Lane<W>) -> bool {
        first_box_empty_of(
            self.first_cells
                .iter()
                .map(|&c| lane.cells[c as usize].total()),
        )
    }

    /// Plays the runs of `feed` to the end and counts them in `work`'s sums: each lane takes
    /// the next run as it finishes one, and the lanes are interleaved ply by ply (their chains
    /// of dependent loads overlap) until the runs run dry; the lanes still playing then finish
    /// theirs one after another.
    fn runs(&self, feed: &mut Feed, sums: &mut Sums, lanes: &mut [Lane<W>; LANES]) {
        if feed.games == 0 {
            for _ in feed.next..feed.end {
                self.take(&mut lanes[0], feed);
                self.finish(&lanes[0], sums);
            }
            return;
        }
        for lane in lanes.iter_mut() {
            self.take(lane, feed);
        }
        // Where each lane stands, held by the loop (in registers) from ply to ply.
        let mut at = [self.start; LANES];
        let [a, b, c, d] = lanes;
        while !feed.dry {
            at[0] = self.ply(a, at[0], sums, feed);
            at[1] = self.ply(b, at[1], sums, feed);
            at[2] = self.ply(c, at[2], sums, feed);
            at[3] = self.ply(d, at[3], sums, feed);
        }
        for (lane, mut at) in lanes.iter_mut().zip(at) {
            while lane.games_left > 0 {
                at = self.ply(lane, at, sums, feed);
            }
        }
    }

    /// Plays `games` games of one run on `m` (its beads, generator and games played), appending
    /// each result to `out` and counting each end id in `by_id`: the games of
    /// `Trainer::play_game`, one after another. One run is one chain of dependent loads (node,
    /// box, draw, child), so the draw is a search the processor predicts and runs ahead of (a
    /// trained box has few arrows with beads), not the count of the lanes.
    fn train<G: Game>(
        &self,
        m: &mut Machine<G>,
        games: u64,
        out: &mut Vec<GameResult>,
        by_id: &mut [u64],
    ) {
        let mut cells = self.cells.clone();
        let mut rng = m.rng.clone();
        let spare = u64::from(self.spare) << 32;
        for _ in 0..games {
            let mut at = self.start;
            let mut last = spare;
            let end = loop {
                let arrow = if at.cell() as usize > W {
                    let c = &cells[at.cell() as usize];
                    if c.total() == 0 {
                        break LEARNER_RESIGNS;
                    }
                    let r = uniform_below(&mut rng, c.total());
                    let arrow = c.cum.iter().position(|&x| x > r).unwrap_or(W - 1) as u32;
                    last = u64::from(at.cell()) << 32 | u64::from(arrow);
                    arrow
                } else if at.cell() == 0 {
                    break at.first();
                } else {
                    // The opponent's box holds one bead for each of its `cell` options: the
                    // number drawn is the option, with no load of the box.
                    uniform_below(&mut rng, at.cell())
                };
                at = self.children[(at.first() + arrow) as usize];
            } as usize;
            let delta = self.end_rows[end].delta;
            if delta != 0 {
                let (cell, arrow) = ((last >> 32) as usize, last as u32 as usize);
                reinforce(&mut cells[cell], arrow, delta);
            }
            out.push(self.end_results[end]);
            by_id[end] += 1;
        }
        m.rng = rng;
        m.games_played = m.games_played.saturating_add(games);
        let boxes = std::sync::Arc::clone(&m.boxes);
        let beads = m.raw_beads_mut();
        for (b, cell) in cells[W + 1..self.spare as usize].iter().enumerate() {
            let base = boxes.bead_index(b);
            beads[base] = cell.total();
            let mut below = 0;
            for (bead, &cum) in beads[base + 1..base + 1 + boxes.arrows(b).len()]
                .iter_mut()
                .zip(&cell.cum)
            {
                *bead = cum - below;
                below = cum;
            }
        }
    }

    /// The experiment of `Trainer::experiment_with`: the same sums as its general loop.
    pub fn experiment(
        &self,
        seed: u64,
        runs: Runs,
        games: usize,
        on_run: &(dyn Fn() + Sync),
    ) -> ExperimentResult {
        let new = || Work {
            table: Box::new(self.clone()),
            sums: Sums::new(games, self.end_names.len()),
            lanes: std::array::from_fn(|_| self.lane(games)),
        };
        let size = piece_size(runs.len() as u64, crate::par::threads());
        let play = |mut work: Work<W>, piece: u64| {
            let first = runs.first + size * piece;
            let mut feed = Feed {
                seed,
                next: first,
                end: (first + size).min(runs.end),
                games,
                dry: false,
            };
            let Work { table, sums, lanes } = &mut work;
            table.runs(&mut feed, sums, lanes);
            (first..feed.end).for_each(|_| on_run());
            work
        };
        let merge = |a: Work<W>, b: Work<W>| Work {
            table: a.table,
            sums: a.sums.merge(b.sums),
            lanes: a.lanes,
        };
        fold_pieces(runs.len().div_ceil(size as usize), games, new, play, merge).map_or_else(
            || ExperimentResult::empty(games),
            |work| work.sums.into_result(&self.end_names, &self.end_results),
        )
    }
}

/// What an end of result `result` adds, for a learner reinforced by `reinforcement`.
fn end_row(result: GameResult, reinforcement: Reinforcement) -> EndRow {
    EndRow {
        loss: u32::from(result == GameResult::Loss),
        delta: reinforcement.delta(result),
    }
}

/// The arrow of a box of running totals `cum` that a number `r` below its total draws: the
/// count of the totals at most `r` (the last, the box's total, never is). Four arrows (HER's
/// boxes): three compares one after another, `r`'s arrow a few cycles after `r` (in a vector
/// register, moving `r` in and the mask out takes longer, and the arrow is on the chain of
/// loads from node to node). Wider boxes: the `W` compares at once, as signed numbers (a box
/// holds at most `MAX_BOX_BEADS`, below 2^31), as one after another is slower there
/// (`docs/performance.md`).
#[inline(always)]
fn arrow_of<const W: usize>(cum: &[u32; W], r: u32) -> u32 {
    if W <= 4 {
        cum[..W - 1].iter().map(|&c| u32::from(c <= r)).sum()
    } else {
        cum.iter().map(|&c| u32::from(c as i32 <= r as i32)).sum()
    }
}

/// Cell `i` of `cells`.
///
/// # Safety
/// `cells` holds as many cells as the table whose node `i` is the cell of (a lane's cells are
/// its table's, cloned and copied), and that node is the table's start or one of its children.
#[inline(always)]
#[allow(unsafe_code)]
unsafe fn cell<const W: usize>(cells: &[Cell<W>], i: u32) -> &Cell<W> {
    debug_assert!((i as usize) < cells.len());
    // SAFETY: a node's cell is below the table's cells' length (`in_range`), which is the
    // length of `cells` (the caller's).
    unsafe { cells.get_unchecked(i as usize) }
}

/// `delta` beads more (or fewer) on arrow `arrow` of `cell` (none below empty, none past
/// [`MAX_BOX_BEADS`] in the box): the running totals from `arrow` on change together.
#[inline(always)]
fn reinforce<const W: usize>(cell: &mut Cell<W>, arrow: usize, delta: i32) {
    let below = arrow
        .checked_sub(1)
        .map_or(0, |i| cell.cum.get(i).copied().unwrap_or(0));
    let before = cell.cum.get(arrow).copied().unwrap_or(below) - below;
    let after = if delta >= 0 {
        before + (delta as u32).min(MAX_BOX_BEADS - cell.total())
    } else {
        before.saturating_sub(delta.unsigned_abs())
    };
    let change = after.wrapping_sub(before);
    // Arrows from `arrow` on hold `change` beads more (or fewer).
    for (i, cum) in cell.cum.iter_mut().enumerate() {
        *cum = cum.wrapping_add(if i >= arrow { change } else { 0 });
    }
}

/// The widest box or opponent's choice of `table` (for the learner `m`).
fn width<G: Game>(table: &Table, m: &Machine<G>) -> usize {
    let opponent = table
        .raw_states()
        .iter()
        .filter(|s| s.mover == OPPONENT)
        .map(|s| s.options as usize);
    let boxes = (0..m.boxes.len()).map(|b| m.boxes.arrows(b).len());
    opponent.chain(boxes).max().unwrap_or(0)
}

/// `$body` with `$fast` the loop's table for `$table` and the learner `$m` at the narrowest width
/// that holds it: `Some` of its value, `None` where no width does (the caller plays the general
/// loop).
macro_rules! at_width {
    ($table:expr, $m:expr, |$fast:ident| $body:expr) => {
        match width($table, $m) {
            0..=4 => FastTable::<4>::new($table, $m).map(|$fast| $body),
            5..=8 => FastTable::<8>::new($table, $m).map(|$fast| $body),
            9..=16 => FastTable::<16>::new($table, $m).map(|$fast| $body),
            _ => None,
        }
    };
}

/// [`FastTable::experiment`] at the narrowest width that holds the table; `None` where none does
/// (the caller plays the general loop).
pub(super) fn experiment<G: Game>(
    table: &Table,
    m: &Machine<G>,
    seed: u64,
    runs: Runs,
    games: usize,
    on_run: &(dyn Fn() + Sync),
) -> Option<ExperimentResult> {
    if !pays(m) {
        return None;
    }
    at_width!(table, m, |fast| fast.experiment(seed, runs, games, on_run))
}

/// [`FastTable::train`] at the narrowest width that holds the table; `false` (nothing played)
/// where none does, or where building the loop's table would cost more than the games (a table
/// of more states than games).
pub(super) fn train<G: Game>(
    table: &Table,
    m: &mut Machine<G>,
    games: u64,
    out: &mut Vec<GameResult>,
    by_id: &mut [u64],
) -> bool {
    if !pays(m) || table.raw_states().len() as u64 > games {
        return false;
    }
    at_width!(table, m, |fast| fast.train(m, games, out, by_id)).is_some()
}

/// Whether the fast loop is faster for `m`: where only the last move is reinforced (HER). Where
/// every move is (MENACE), updating the running totals of every box a game played costs more
/// than the draws gain: the general loop was twice as fast, side by side.
fn pays<G: Game>(m: &Machine<G>) -> bool {
    m.reinforcement.scope == Scope::LastMove
}

/// Whether the fast loop takes `table` for the learner `m`.
pub(super) fn takes<G: Game>(table: &Table, m: &Machine<G>) -> bool {
    pays(m) && at_width!(table, m, |_fast| ()).is_some()
}

#[cfg(test)]
mod tests {
    use super::{Cell, FastTable, LANES, Node, PIECE, end_row, piece_size};
    use crate::learn::{GameResult, Reinforcement};

    /// A small loop table of width 4: an opponent's choice of two at the start, then the
    /// learner's box of two arrows, or the end; the padding after the children.
    fn table() -> FastTable<4> {
        let end = Node::end;
        let mut children = vec![Node::drawing(5, 2), end(2), end(2), end(3)];
        children.extend([end(0); 5]);
        let results = vec![
            GameResult::Loss,
            GameResult::Loss,
            GameResult::Win,
            GameResult::Loss,
        ];
        FastTable {
            start: Node::drawing(2, 0),
            children,
            cells: (0..=4)
                .map(|k| Cell::of(&vec![1; k]))
                .chain([Cell::of(&[3, 3]), Cell::of(&[])])
                .collect(),
            first_cells: vec![5],
            spare: 6,
            end_rows: results
                .iter()
                .map(|&r| end_row(r, Reinforcement::GARDNER))
                .collect(),
            end_names: ["a", "b", "c", "d"].map(String::from).to_vec(),
            end_results: results,
        }
    }

    /// The reads the loop makes without bounds checks stay in the table: a built table passes
    /// the check they rely on, and each way out of it fails it.
    #[test]
    fn a_table_whose_nodes_leave_it_is_refused() {
        let fast = table();
        assert!(fast.in_range());
        let bad: [fn(&mut Node, usize, usize); 3] = [
            // A drawing node's children, or an end's id, far out.
            |n, _, _| *n = Node(u64::from(u32::MAX - 8) << 32 | u64::from(n.cell())),
            |n, cells, _| *n = Node::drawing(cells as u32, n.first()),
            |n, _, ends| *n = Node::end(ends as u32),
        ];
        for (k, spoil) in bad.iter().enumerate() {
            for at in [0, fast.children.len() / 2, fast.children.len() - 1] {
                let mut f = fast.clone();
                spoil(&mut f.children[at], f.cells.len(), f.end_rows.len());
                assert!(!f.in_range(), "spoil {k} at child {at}");
            }
            let mut f = fast.clone();
            spoil(&mut f.start, f.cells.len(), f.end_rows.len());
            assert!(!f.in_range(), "spoil {k} at the start");
        }
        // A draw reads at most `W` children past a node's first: the last node's first is
        // within `W + 1` of the end.
        let mut f = fast.clone();
        let last = f.children.len() as u32 - 4;
        f.children[0] = Node::drawing(5, last);
        assert!(!f.in_range());
        f.children[0] = Node::drawing(5, last - 1);
        assert!(f.in_range());
    }

    #[test]
    fn pieces_are_small_enough_for_every_thread_and_never_below_the_lanes() {
        assert_eq!(piece_size(400_000, 2), PIECE);
        // 100 runs on two threads: four pieces of 25, not one of 64 and one of 36.
        assert_eq!(piece_size(100, 2), 25);
        assert_eq!(piece_size(3, 2), LANES as u64);
        assert_eq!(piece_size(0, 0), LANES as u64);
        assert_eq!(piece_size(10_000, 1), PIECE);
    }
}
