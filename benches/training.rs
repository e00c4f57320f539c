//! Headless training throughput, single thread: games per second of a learner against the perfect
//! player. Run with `cargo bench --bench training`; criterion prints `thrpt` in games (elements)
//! per second.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use matchbox::game::Side;
use matchbox::game::hexapawn::{Hexapawn, Size};
use matchbox::game::tictactoe::TicTacToe;
use matchbox::learn::engine::{Arena, GameState, Machine, Table, Trainer};
use matchbox::learn::{BoxSet, Forced, Preset, Reinforcement, StageBeads, SymmetryMode};
use matchbox::players::Opponent;
use matchbox::solve::{Solution, TieBreak};

fn bench_size(
    c: &mut Criterion,
    name: &str,
    size: Size,
    side: Side,
    mode: SymmetryMode,
    games: usize,
) {
    let game = Hexapawn::new(size);
    let boxes = Arc::new(BoxSet::build(&game, side, mode));
    let arena = Arena::new(game);
    let solution = Solution::solve(&arena.graph);
    let opponent = Opponent::perfect(&arena.graph, &solution, TieBreak::Random);
    let table = Table::new(&arena, &boxes, &opponent);
    let trainer = Trainer::new(&arena, &table);
    let fresh = Machine::new(boxes, StageBeads::uniform(1), Reinforcement::GARDNER, 1);
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(games as u64));
    let mut seed = 0u64;
    let mut st = GameState::new();
    group.bench_function(format!("{games} games from fresh boxes"), |b| {
        b.iter(|| {
            let mut m = fresh.clone();
            seed += 1;
            m.reseed(seed);
            for _ in 0..games {
                black_box(trainer.play_game(&mut m, &mut st));
            }
            m.games_played
        })
    });
    group.finish();
}

fn bench_menace(c: &mut Criterion, games: usize) {
    let boxes = Arc::new(BoxSet::build_with(
        &TicTacToe,
        Side::First,
        SymmetryMode::Full,
        Forced::Skip,
    ));
    let arena = Arena::new(TicTacToe);
    let solution = Solution::solve(&arena.graph);
    let opponent = Opponent::perfect(&arena.graph, &solution, TieBreak::Random);
    let table = Table::new(&arena, &boxes, &opponent);
    let trainer = Trainer::new(&arena, &table);
    let fresh = Machine::new(
        boxes,
        Preset::Michie.beads(),
        Preset::Michie.reinforcement(),
        1,
    );
    let mut group = c.benchmark_group("menace_vs_perfect");
    group.throughput(Throughput::Elements(games as u64));
    let mut seed = 0u64;
    let mut st = GameState::new();
    group.bench_function(format!("{games} games from fresh boxes"), |b| {
        b.iter(|| {
            let mut m = fresh.clone();
            seed += 1;
            m.reseed(seed);
            for _ in 0..games {
                black_box(trainer.play_game(&mut m, &mut st));
            }
            m.games_played
        })
    });
    group.finish();
}

/// Issue target: a 10,000-run × 50-game HER experiment against the perfect player on 2 threads.
fn bench_experiment(c: &mut Criterion) {
    let game = Hexapawn::new(Size::GARDNER);
    let boxes = Arc::new(BoxSet::build(&game, Side::Second, SymmetryMode::Gardner));
    let arena = Arena::new(game);
    let solution = Solution::solve(&arena.graph);
    let opponent = Opponent::perfect(&arena.graph, &solution, TieBreak::Random);
    let table = Table::new(&arena, &boxes, &opponent);
    let trainer = Trainer::new(&arena, &table);
    let template = Machine::new(boxes, StageBeads::uniform(1), Reinforcement::GARDNER, 1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let mut group = c.benchmark_group("her_experiment_2_threads");
    group.throughput(Throughput::Elements(10_000 * 50));
    group.bench_function("10000 runs x 50 games", |b| {
        b.iter(|| pool.install(|| black_box(trainer.experiment(&template, 1, 10_000, 50).runs)))
    });
    group.finish();
}

fn training(c: &mut Criterion) {
    bench_experiment(c);
    bench_menace(c, 200);
    bench_menace(c, 100_000);
    use SymmetryMode::{Full, Gardner};
    let (her, octo) = (Size::GARDNER, Size::OCTOPAWN);
    bench_size(c, "her_vs_perfect", her, Side::Second, Gardner, 50);
    bench_size(c, "her_vs_perfect", her, Side::Second, Gardner, 100_000);
    bench_size(c, "octopawn_black_vs_perfect", octo, Side::Second, Full, 50);
    bench_size(
        c,
        "octopawn_black_vs_perfect",
        octo,
        Side::Second,
        Full,
        100_000,
    );
    bench_size(c, "octopawn_white_vs_perfect", octo, Side::First, Full, 50);
    bench_size(
        c,
        "octopawn_white_vs_perfect",
        octo,
        Side::First,
        Full,
        100_000,
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .without_plots()
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(3));
    targets = training
}
criterion_main!(benches);
