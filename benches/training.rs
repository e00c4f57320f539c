//! Headless training throughput, single thread: games per second of a learner against the perfect
//! player; the 10,000-run HER experiment on 2 threads, and its exact curve. Run with `cargo bench
//! --bench training`; criterion prints `thrpt` in games (elements) per second.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use matchbox::game::{Game, Side};
use matchbox::games::GameKind;
use matchbox::games::any::AnyGame;
use matchbox::games::hexapawn::{Hexapawn, Size};
use matchbox::games::tictactoe::TicTacToe;
use matchbox::learn::Machine;
use matchbox::learn::engine::{Ends, Enumerated, GameState, Table, Trainer};
use matchbox::learn::exact::exact_curve;
use matchbox::learn::{BoxSet, Forced, Preset, SymmetryMode};
use matchbox::solve::TieBreak;

/// A learner for `game` against the perfect player, fresh, and the compiled arena and table.
fn setup<G: Game>(
    game: G,
    side: Side,
    mode: SymmetryMode,
    forced: Forced,
    preset: Preset,
) -> (Enumerated<G>, Table, Machine<G>) {
    let boxes = Arc::new(BoxSet::build_with(&game, side, mode, forced));
    let arena = Enumerated::new(game);
    let table = Table::against_perfect(&arena, &boxes, TieBreak::Random).unwrap();
    let fresh = Machine::new(boxes, preset.beads(), preset.reinforcement(), 1);
    (arena, table, fresh)
}

/// `games` games from fresh boxes per iteration, a new seed each time.
fn bench_games<G: Game>(
    c: &mut Criterion,
    name: &str,
    setup: (Enumerated<G>, Table, Machine<G>),
    games: usize,
) {
    let (arena, table, fresh) = setup;
    let trainer = Trainer::new(&arena, &table);
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

/// `games` games of one long run from fresh boxes per iteration, as `matchbox train` plays them
/// (`Trainer::train_into`: the fast loop where it takes the table).
fn bench_long_run<G: Game>(
    c: &mut Criterion,
    name: &str,
    setup: (Enumerated<G>, Table, Machine<G>),
    games: u64,
) {
    let (arena, table, fresh) = setup;
    let trainer = Trainer::new(&arena, &table);
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(games));
    let (mut seed, mut st, mut out) = (0u64, GameState::new(), Vec::new());
    group.bench_function(format!("{games} games of one run"), |b| {
        b.iter(|| {
            let mut m = fresh.clone();
            seed += 1;
            m.reseed(seed);
            out.clear();
            trainer.train_into(&mut m, &mut st, games, &mut out, &mut Ends::default());
            black_box(m.games_played)
        })
    });
    group.finish();
}

/// Issue target: a 10,000-run × 50-game HER experiment against the perfect player on 2 threads.
fn bench_experiment(c: &mut Criterion) {
    let her = Hexapawn::new(Size::GARDNER);
    let (arena, table, template) = setup(
        her,
        Side::Second,
        SymmetryMode::Gardner,
        Forced::Include,
        Preset::Gardner,
    );
    let trainer = Trainer::new(&arena, &table);
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

/// The exact learning curve an experiment of HER (every symmetry merged, against the perfect
/// player) prints beside its runs, for 50 games: the experiment's fixed cost.
fn bench_exact(c: &mut Criterion) {
    let (_, table, template) = setup(
        Hexapawn::new(Size::GARDNER),
        Side::Second,
        SymmetryMode::Full,
        Forced::Include,
        Preset::Gardner,
    );
    let mut group = c.benchmark_group("her_exact_curve");
    group.bench_function("50 games", |b| {
        b.iter(|| {
            black_box(
                exact_curve(&table, &template, 50, 1_000_000)
                    .unwrap()
                    .states,
            )
        })
    });
    group.finish();
}

fn training(c: &mut Criterion) {
    use SymmetryMode::{Full, Gardner};
    let (her, octo) = (Hexapawn::new(Size::GARDNER), Hexapawn::new(Size::OCTOPAWN));
    let hex = |g: Hexapawn, side, mode| setup(g, side, mode, Forced::Include, Preset::Gardner);
    let menace = || setup(TicTacToe, Side::First, Full, Forced::Skip, Preset::Michie);
    bench_experiment(c);
    bench_games(c, "menace_vs_perfect", menace(), 200);
    bench_games(c, "menace_vs_perfect", menace(), 100_000);
    // The same machines with the game erased (`AnyGame`, as the screens, `film`, `class` and
    // `operate` hold it): what dispatch costs the training beside a screen, side by side.
    let any = |kind| AnyGame::new(kind);
    let menace_any = setup(
        any(GameKind::TicTacToe),
        Side::First,
        Full,
        Forced::Skip,
        Preset::Michie,
    );
    bench_games(c, "menace_vs_perfect_erased", menace_any, 100_000);
    let her_any = setup(
        any(GameKind::Hexapawn(Size::GARDNER)),
        Side::Second,
        Gardner,
        Forced::Include,
        Preset::Gardner,
    );
    bench_games(c, "her_vs_perfect_erased", her_any, 100_000);
    bench_games(
        c,
        "her_vs_perfect",
        hex(her.clone(), Side::Second, Gardner),
        50,
    );
    bench_games(
        c,
        "her_vs_perfect",
        hex(her, Side::Second, Gardner),
        100_000,
    );
    bench_long_run(
        c,
        "her_long_run",
        hex(Hexapawn::new(Size::GARDNER), Side::Second, Full),
        1_000_000,
    );
    bench_games(
        c,
        "octopawn_black_vs_perfect",
        hex(octo.clone(), Side::Second, Full),
        50,
    );
    bench_games(
        c,
        "octopawn_black_vs_perfect",
        hex(octo.clone(), Side::Second, Full),
        100_000,
    );
    bench_games(
        c,
        "octopawn_white_vs_perfect",
        hex(octo.clone(), Side::First, Full),
        50,
    );
    bench_games(
        c,
        "octopawn_white_vs_perfect",
        hex(octo, Side::First, Full),
        100_000,
    );
}

/// The position engine on the same job as `her_vs_perfect`: a lazy machine (boxes made on first
/// visit) against the perfect player asked move by move.
fn bench_lazy(c: &mut Criterion) {
    use matchbox::learn::lazy;
    use matchbox::players::PerfectPlayer;
    use matchbox::solve::{GraphValues, Solution};
    let game = Hexapawn::new(Size::GARDNER);
    let en = Enumerated::new(game.clone());
    let solution = Arc::new(Solution::solve(&en.graph).unwrap());
    let mut perfect = PerfectPlayer::new(
        GraphValues::new(Arc::clone(&en.graph), solution),
        TieBreak::Random,
    );
    let games = 50;
    let mut group = c.benchmark_group("her_lazy_vs_perfect");
    group.throughput(Throughput::Elements(games as u64));
    let mut seed = 0u64;
    group.bench_function(format!("{games} games from fresh boxes"), |b| {
        b.iter(|| {
            seed += 1;
            let set = Arc::new(BoxSet::lazy(
                &game,
                Side::Second,
                SymmetryMode::Gardner,
                Forced::Include,
            ));
            let mut m = Machine::new(
                set,
                Preset::Gardner.beads(),
                Preset::Gardner.reinforcement(),
                seed,
            );
            black_box(lazy::train(&game, &mut m, &mut perfect, games));
            m.games_played
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .without_plots()
        .warm_up_time(std::time::Duration::from_secs(1))
        .measurement_time(std::time::Duration::from_secs(3));
    targets = training, bench_lazy, bench_exact
}
criterion_main!(benches);
