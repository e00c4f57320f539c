//! Havannah random playouts per second, one thread, on bases 4, 5 and 8 (the castro engine's
//! figures on the same machines are in the README). Run with `cargo bench --bench havannah`;
//! criterion prints `thrpt` in playouts (elements) per second.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use matchbox::games::havannah::playout::Playouts;
use matchbox::games::havannah::{Base, Havannah};
use matchbox::rng::rng_from_seed;

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("havannah_random_playouts");
    let games = 1000;
    group.throughput(Throughput::Elements(games));
    for base in [4u8, 5, 8] {
        let game = Havannah::new(Base::new(base).unwrap());
        let mut engine = Playouts::new(&game);
        let mut rng = rng_from_seed(1);
        group.bench_function(format!("base {base}"), |b| {
            b.iter(|| {
                let mut plies = 0;
                for _ in 0..games {
                    plies += black_box(engine.play(&mut rng)).plies;
                }
                plies
            })
        });
    }
    group.finish();
}

/// UCT simulations per second from the empty board: one search of 2,000 simulations a move.
fn mcts(c: &mut Criterion) {
    use matchbox::game::Game;
    use matchbox::players::MctsPlayer;
    let mut group = c.benchmark_group("havannah_mcts_simulations");
    let sims = 2000;
    group.throughput(Throughput::Elements(sims as u64));
    for base in [4u8, 5, 8] {
        let game = Havannah::new(Base::new(base).unwrap());
        let player = MctsPlayer::new(sims);
        let start = game.start();
        let mut rng = rng_from_seed(1);
        group.bench_function(format!("base {base}"), |b| {
            b.iter(|| black_box(player.search(&game, &start, &mut rng)))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .without_plots()
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(3));
    targets = playouts, mcts
}
criterion_main!(benches);
