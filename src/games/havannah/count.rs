//! Counting a learner's boxes exactly on base 3, too big for the generic enumeration (which keeps
//! whole positions in a hash set): the reachable positions level by level — a position after k
//! plies holds k stones, so levels never meet — each as its least packed image (one 64-bit word,
//! the 12 symmetries merged), in sorted vectors, in parallel.

use super::Havannah;
use super::solve::Packer;
use crate::game::{Game, Side};
use crate::learn::{BoxCounts, Forced};

/// The boxes a learner playing `side` with full symmetry needs: one per reachable position (in
/// play, its side to move) up to the 12 symmetries; with [`Forced::Skip`], none where a single
/// cell is empty. Plain rules on bases 2 and 3 only (`None` otherwise). `progress` is told each
/// move number as it is reached.
pub fn count_boxes(
    game: &Havannah,
    side: Side,
    forced: Forced,
    progress: &(dyn Fn(u16) + Sync),
) -> Option<BoxCounts> {
    count_boxes_to(game, side, forced, u16::MAX, progress)
}

/// As [`count_boxes`], for the move numbers up to `last_move` only.
pub fn count_boxes_to(
    game: &Havannah,
    side: Side,
    forced: Forced,
    last_move: u16,
    progress: &(dyn Fn(u16) + Sync),
) -> Option<BoxCounts> {
    let rules = game.variant_rules();
    if rules.swap || rules.handicap > 0 {
        return None;
    }
    let packer = Packer::new(game)?;
    let mut counts = BoxCounts::default();
    let mut level = vec![packer.key(&game.start())];
    let mut ply = 0u16;
    while !level.is_empty() && ply < last_move {
        progress(ply + 1);
        let learner = game.to_move(&packer.position(level[0])) == side;
        let (boxes, arrows, mut next) = crate::par::map_reduce_chunks(
            &level,
            1024,
            |chunk| {
                let (mut boxes, mut arrows, mut next) = (0u64, 0u64, Vec::new());
                for &key in chunk {
                    let pos = packer.position(key);
                    let moves = game.moves(&pos);
                    if learner && (forced == Forced::Include || moves.len() > 1) {
                        boxes += 1;
                        arrows += game.distinct_moves(&pos).len() as u64;
                    }
                    for mv in moves {
                        let child = game.play(&pos, mv);
                        if game.outcome(&child).is_none() {
                            next.push(packer.key(&child));
                        }
                    }
                }
                (boxes, arrows, next)
            },
            || (0, 0, Vec::new()),
            |(b1, a1, mut n1), (b2, a2, n2)| {
                n1.extend(n2);
                (b1 + b2, a1 + a2, n1)
            },
        );
        if boxes > 0 {
            counts.boxes.insert(ply + 1, boxes);
            counts.arrows.insert(ply + 1, arrows);
        }
        crate::par::sort_unstable(&mut next);
        next.dedup();
        level = next;
        ply += 1;
    }
    Some(counts)
}
