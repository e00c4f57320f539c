//! Arimaa: distinct turns generated per second on middle-game positions, one thread (the forty
//! positions from random games in tests/data/arimaa-pyrimaa.txt, each turn list generated whole).
//! Run with `cargo bench --bench arimaa`; criterion prints `thrpt` in turns (elements) per second.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use matchbox::game::Side;
use matchbox::games::arimaa::Rules;

fn turns(c: &mut Criterion) {
    let rules = Rules::standard();
    let positions: Vec<_> = include_str!("../tests/data/arimaa-pyrimaa.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let side = if f[0] == "gold" {
                Side::First
            } else {
                Side::Second
            };
            (rules.parse_short(f[3]).unwrap(), side)
        })
        .collect();
    let total: usize = positions
        .iter()
        .map(|(b, s)| rules.turns(b, *s).turns.len())
        .sum();
    let mut group = c.benchmark_group("arimaa_turns");
    group.throughput(Throughput::Elements(total as u64));
    group.bench_function(format!("{} middle-game positions", positions.len()), |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|(board, side)| black_box(rules.turns(board, *side)).turns.len())
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .without_plots()
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(5));
    targets = turns
}
criterion_main!(benches);
