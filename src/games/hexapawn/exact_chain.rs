//! The exact learning curve's walk (`crate::learn::exact`) checked on HER: here, above the
//! core, as the core's own tests name no game.

use std::sync::Arc;

use rustc_hash::FxHashMap as HashMap;

use super::{Hexapawn, Size};
use crate::game::Side;
use crate::learn::engine::{Enumerated, Table};
use crate::learn::exact::{Chain, Step, explore, reinforce_beads, result_of, walk};
use crate::learn::{BoxSet, GameResult, Machine, Reinforcement, Scope, StageBeads, SymmetryMode};
use crate::solve::TieBreak;

/// The chain as first written: every game's beads copied, reinforced and looked up whole.
fn plain(table: &Table, machine: &Machine<Hexapawn>) -> Chain {
    let (mut chain, mut index) = Chain::start(machine.raw_beads());
    let mut at = 0;
    while at < chain.beads.len() {
        let beads = chain.beads[at].clone();
        let mut next: HashMap<(u32, u8), f64> = HashMap::default();
        let mut each = |played: &[(u32, u32)], p: f64, result: GameResult| {
            let mut after = beads.clone();
            reinforce_beads(&mut after, machine.reinforcement, played, result);
            let id = *index.entry(after.clone()).or_insert_with(|| {
                chain.beads.push(after);
                chain.beads.len() as u32 - 1
            });
            *next.entry((id, result as u8)).or_default() += p;
            true
        };
        walk(table, &beads, 0, 1.0, &mut Vec::new(), &mut each);
        let mut steps: Vec<_> = next.into_iter().collect();
        steps.sort_by_key(|&((next, r), _)| (next, r));
        chain.steps.push(
            steps
                .into_iter()
                .map(|((next, r), p)| Step {
                    next,
                    p,
                    result: result_of(r),
                })
                .collect(),
        );
        at += 1;
    }
    chain
}

/// The walk that looks a state up once for each set of bead changes (and not at all where a
/// game changes nothing) finds the same states, in the same order, with the same steps to
/// the last bit: for HER's reinforcement against the perfect and the random player, for
/// every move of a lost game punished, and for wins punished too (a change every game).
#[test]
fn the_chain_is_the_one_every_game_looked_up_whole_finds() {
    let game = Hexapawn::new(Size::GARDNER);
    let boxes = Arc::new(BoxSet::build(&game, Side::Second, SymmetryMode::Gardner));
    let en = Enumerated::new(game);
    let perfect = Table::against_perfect(&en, &boxes, TieBreak::Random).unwrap();
    let random = Table::against_random(&en, &boxes);
    let punish = |win, draw, loss, scope| Reinforcement {
        win,
        draw,
        loss,
        scope,
    };
    for (table, r) in [
        (&perfect, Reinforcement::GARDNER),
        (&perfect, punish(0, 0, -1, Scope::AllMoves)),
        (&random, punish(0, 0, -1, Scope::AllMoves)),
        (&perfect, punish(-1, -1, -1, Scope::AllMoves)),
    ] {
        let m = Machine::new(Arc::clone(&boxes), StageBeads::uniform(1), r, 1);
        let ours = explore(table, &m, 1_000_000, u64::MAX).unwrap();
        let theirs = plain(table, &m);
        assert!(ours.beads.len() > 1, "{r:?}");
        assert_eq!(ours.beads, theirs.beads, "{r:?}");
        for (a, b) in ours.steps.iter().zip(&theirs.steps) {
            let key = |s: &Step| (s.next, s.p.to_bits(), s.result as u8);
            let (a, b): (Vec<_>, Vec<_>) =
                (a.iter().map(key).collect(), b.iter().map(key).collect());
            assert_eq!(a, b, "{r:?}");
        }
    }
}
