//! Arimaa's rules: the turns of positions against the official figures and the pyrimaa reference.

use matchbox::game::Side;
use matchbox::games::arimaa::Rules;

const START: &str = "[rrrrrrrrdhcemchd                                DHCMECHDRRRRRRRR]";

#[test]
fn the_standard_start_has_3353_distinct_turns() {
    let rules = Rules::standard();
    let board = rules.parse_short(START).unwrap();
    let list = rules.turns(&board, Side::First);
    assert_eq!(list.turns.len(), 3353);
    assert_eq!(list.by_min_steps, vec![8, 70, 462, 2813]);
    assert_eq!(rules.short_form(&board), START);
}

/// Forty positions from random games of the full game, with pushes, pulls, frozen pieces and
/// traps: the distinct turns and their count by fewest steps, as the pyrimaa reference generator
/// (AEI) finds them (tests/data/arimaa-pyrimaa.py wrote the file).
#[test]
fn turns_agree_with_the_pyrimaa_reference_on_random_middle_games() {
    let rules = Rules::standard();
    let data = include_str!("data/arimaa-pyrimaa.txt");
    let mut checked = 0;
    for line in data.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        let side = if fields[0] == "gold" {
            Side::First
        } else {
            Side::Second
        };
        let turns: usize = fields[1].parse().unwrap();
        let by_min: Vec<usize> = fields[2].split(' ').map(|n| n.parse().unwrap()).collect();
        let board = rules.parse_short(fields[3]).unwrap();
        let list = rules.turns(&board, side);
        assert_eq!(list.turns.len(), turns, "{line}");
        assert_eq!(list.by_min_steps, by_min, "{line}");
        checked += 1;
    }
    assert_eq!(checked, 40);
}
