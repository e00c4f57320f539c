//! Matchbox counts against the published figures (../shared/reference/published-figures.md):
//! Gardner's 24 boxes for HER, 19 with every mirror pair merged, 18 for HIM, 37 and 33 without
//! symmetry.

use std::collections::BTreeMap;

use matchbox::game::Side;
use matchbox::games::hexapawn::{Hexapawn, Size};
use matchbox::learn::{BoxSet, SymmetryMode};

struct Case {
    side: Side,
    mode: SymmetryMode,
    boxes: usize,
    arrows: Option<usize>,
    by_move: &'static [(u16, usize)],
}

const CASES: &[Case] = &[
    // Gardner 1962: HER, 24 boxes, 2/11/11 at moves 2/4/6, 55 arrows.
    Case {
        side: Side::Second,
        mode: SymmetryMode::Gardner,
        boxes: 24,
        arrows: Some(55),
        by_move: &[(2, 2), (4, 11), (6, 11)],
    },
    // Every mirror pair merged: 19 boxes, 2/10/7, 45 arrows.
    Case {
        side: Side::Second,
        mode: SymmetryMode::Full,
        boxes: 19,
        arrows: Some(45),
        by_move: &[(2, 2), (4, 10), (6, 7)],
    },
    // HIM, mirror pairs merged: 18 boxes.
    Case {
        side: Side::First,
        mode: SymmetryMode::Full,
        boxes: 18,
        arrows: None,
        by_move: &[],
    },
    // No symmetry: 37 Black-to-move positions, 33 White-to-move.
    Case {
        side: Side::Second,
        mode: SymmetryMode::None,
        boxes: 37,
        arrows: None,
        by_move: &[],
    },
    Case {
        side: Side::First,
        mode: SymmetryMode::None,
        boxes: 33,
        arrows: None,
        by_move: &[],
    },
];

#[test]
fn hexapawn_box_counts_match_the_published_figures() {
    let game = Hexapawn::new(Size::GARDNER);
    for case in CASES {
        let set = BoxSet::build(&game, case.side, case.mode);
        let what = format!("{:?} {}", case.side, case.mode);
        assert_eq!(set.len(), case.boxes, "boxes, {what}");
        if let Some(arrows) = case.arrows {
            assert_eq!(set.arrow_count(), arrows, "arrows, {what}");
        }
        if !case.by_move.is_empty() {
            let expected: BTreeMap<u16, usize> = case.by_move.iter().copied().collect();
            assert_eq!(set.by_move(), expected, "boxes by move, {what}");
        }
    }
}

#[test]
fn gardner_merges_mirror_moves_only_in_the_symmetric_position_after_b2() {
    use matchbox::game::Game;
    let game = Hexapawn::new(Size::GARDNER);
    let set = BoxSet::build(&game, Side::Second, SymmetryMode::Gardner);
    // After b1-b2 the board is symmetric: a3-a2 and a3xb2 stand for their mirror images too.
    let after_b2 = game.parse_position("BBB/.W./W.W", Side::Second).unwrap();
    let b = set
        .find(&after_b2)
        .expect("the position after b1-b2 is a box");
    let arrows: Vec<String> = set
        .get(b)
        .arrows
        .iter()
        .map(|&m| game.format_move(m))
        .collect();
    assert_eq!(arrows, ["a3-a2", "a3xb2"]);
    // White's c-pawn opening is played as the mirror of the a-pawn opening: no box for it.
    let after_c2 = game.parse_position("BBB/..W/WW.", Side::Second).unwrap();
    assert!(set.find(&after_c2).is_none());
    let after_a2 = game.parse_position("BBB/W../.WW", Side::Second).unwrap();
    let a = set.find(&after_a2).expect("the a-pawn opening is a box");
    assert_eq!(
        set.get(a).arrows.len(),
        3,
        "no symmetry to merge after a1-a2"
    );
    // Every box stays in the a-pawn frame, but mirror-image diagrams later on are separate boxes:
    // that is where Gardner's 24 exceeds the 19 of full symmetry.
    let full = BoxSet::build(&game, Side::Second, SymmetryMode::Full);
    let canon: std::collections::HashSet<_> =
        set.iter().map(|b| game.canonical(&b.position).0).collect();
    assert_eq!(
        canon.len(),
        full.len(),
        "gardner's boxes cover the same 19 shapes"
    );
}

#[test]
fn every_box_is_a_live_position_with_the_learner_to_move() {
    use matchbox::game::Game;
    for size in ["3x3", "3x4", "4x3", "4x4"] {
        let game = Hexapawn::new(size.parse().unwrap());
        for side in [Side::First, Side::Second] {
            for mode in [
                SymmetryMode::Full,
                SymmetryMode::Gardner,
                SymmetryMode::None,
            ] {
                let set = BoxSet::build(&game, side, mode);
                assert!(!set.is_empty());
                for b in set.iter() {
                    assert_eq!(game.to_move(&b.position), side);
                    assert!(game.outcome(&b.position).is_none());
                    assert!(!b.arrows.is_empty());
                    let legal = game.moves(&b.position);
                    assert!(b.arrows.iter().all(|a| legal.contains(a)));
                }
                let full = BoxSet::build(&game, side, SymmetryMode::Full).len();
                let none = BoxSet::build(&game, side, SymmetryMode::None).len();
                assert!(
                    full <= set.len() && set.len() <= none,
                    "{size} {side} {mode}"
                );
            }
        }
    }
}

/// Havannah's own level-by-level count (packed positions, in parallel) agrees with the generic
/// enumeration on base 2, for both sides, with and without forced positions.
#[test]
fn havannah_own_count_matches_the_enumeration_on_base_2() {
    use matchbox::games::havannah::{Base, Havannah, count_boxes};
    use matchbox::learn::Forced;
    let game = Havannah::new(Base::new(2).unwrap());
    for side in [Side::First, Side::Second] {
        for forced in [Forced::Include, Forced::Skip] {
            let set = BoxSet::build_with(&game, side, SymmetryMode::Full, forced);
            let counts = count_boxes(&game, side, forced, &|_| {}).unwrap();
            let by_move: BTreeMap<u16, u64> = set
                .by_move()
                .into_iter()
                .map(|(m, n)| (m, n as u64))
                .collect();
            assert_eq!(counts.boxes, by_move, "{side:?} {forced:?}");
            assert_eq!(counts.total_arrows(), set.arrow_count() as u64);
        }
    }
}

/// On base 3 the first moves, counted by brute force (every sequence of cells, each position
/// reduced to its least image by the game's own symmetries), agree with the packed count.
#[test]
fn havannah_base_3_count_agrees_with_brute_force_on_the_first_moves() {
    use matchbox::game::Game;
    use matchbox::games::havannah::{Base, Havannah, count_boxes_to};
    use matchbox::learn::Forced;
    use std::collections::HashSet;
    let game = Havannah::new(Base::new(3).unwrap());
    let mut level = HashSet::from([game.canonical(&game.start()).0]);
    let mut brute = [BTreeMap::new(), BTreeMap::new()];
    for ply in 0..5u16 {
        let side = game.to_move(level.iter().next().unwrap());
        brute[side as usize].insert(ply + 1, level.len() as u64);
        level = level
            .iter()
            .flat_map(|p| game.moves(p).into_iter().map(|m| game.play(p, m)))
            .filter(|c| game.outcome(c).is_none())
            .map(|c| game.canonical(&c).0)
            .collect();
    }
    for side in [Side::First, Side::Second] {
        let counts = count_boxes_to(&game, side, Forced::Skip, 5, &|_| {}).unwrap();
        assert_eq!(counts.boxes, brute[side as usize], "{side:?}");
    }
    // The figures the full count reports for White (README, "Havannah learners").
    assert_eq!(brute[0].get(&3), Some(&35));
    assert_eq!(brute[0].get(&5), Some(&2023));
}
