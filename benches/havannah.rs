//! Havannah, one thread: random playouts per second on bases 4, 5 and 8 (the castro engine's
//! figures on the same machines are in the README), MCTS simulations per second, and learners'
//! training games per second (base 2 and base 3 against the perfect player, base 4 against the
//! random player). Run with `cargo bench --bench havannah`; criterion prints `thrpt` in
//! elements (playouts, simulations, games) per second.

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

/// Training games per second of a learner with the game's defaults (White, full symmetry, 1 bead,
/// the last empty cell without a box).
fn training(c: &mut Criterion) {
    use matchbox::game::Side;
    use matchbox::learn::engine::{Enumerated, GameState, Table, Trainer};
    use matchbox::learn::{BoxSet, Forced, GameDefaults, Machine, lazy};
    use matchbox::players::{PerfectPlayer, RandomPlayer, Remembering};
    use matchbox::solve::TieBreak;
    use std::sync::Arc;
    let mut group = c.benchmark_group("havannah_training");
    let games = 10_000;
    group.throughput(Throughput::Elements(games as u64));
    let machine = |game: &Havannah, set: BoxSet<Havannah>| {
        let preset = game.default_preset();
        Machine::new(Arc::new(set), preset.beads(), preset.reinforcement(), 1)
    };

    // Base 2: the compiled table (the graph is small).
    let game = Havannah::new(Base::new(2).unwrap());
    let set = BoxSet::build_with(
        &game,
        Side::First,
        game.default_symmetry(Side::First),
        Forced::Skip,
    );
    let en = Enumerated::new(game.clone());
    let table = Table::against_perfect(&en, &set, TieBreak::Random).unwrap();
    let trainer = Trainer::new(&en, &table);
    let fresh = machine(&game, set);
    let mut st = GameState::new();
    let mut seed = 0;
    group.bench_function("base 2 vs perfect, fresh boxes", |b| {
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

    // Base 3: boxes made on first visit, the perfect player's table warmed by 1,000,000 games
    // (at 200,000 it still meets about two new positions a game, each a search; a 10-million-game
    // run spends most of its time past this point).
    let game = Havannah::new(Base::new(3).unwrap());
    let (values, _) =
        matchbox::learn::perfect_values(&game, matchbox::solve::TieBreak::Random).unwrap();
    let mut perfect = Remembering::new(PerfectPlayer::new(values, TieBreak::Random), 1 << 18);
    let lazy_set = || {
        BoxSet::lazy(
            &game,
            Side::First,
            game.default_symmetry(Side::First),
            Forced::Skip,
        )
    };
    let mut m = machine(&game, lazy_set());
    lazy::train(&game, &mut m, &mut perfect, 1_000_000);
    group.bench_function("base 3 vs perfect, warm, learning on", |b| {
        b.iter(|| black_box(lazy::train(&game, &mut m, &mut perfect, games)).len())
    });

    // Base 4: against the random player, fresh boxes each time.
    let game = Havannah::new(Base::new(4).unwrap());
    let mut seed = 0;
    group.bench_function("base 4 vs random, fresh boxes", |b| {
        b.iter(|| {
            let set = BoxSet::lazy(
                &game,
                Side::First,
                game.default_symmetry(Side::First),
                Forced::Skip,
            );
            let mut m = machine(&game, set);
            seed += 1;
            m.reseed(seed);
            black_box(lazy::train(&game, &mut m, &mut RandomPlayer, games)).len()
        })
    });
    group.finish();
}

/// Base 3 from a fresh machine, as `train havannah --size 3` starts: new boxes, a new perfect
/// player (its solver's table, its remembered options and the win test's memo all empty), the
/// first 100,000 games, when the player meets a new position most games.
fn cold(c: &mut Criterion) {
    use matchbox::game::Side;
    use matchbox::learn::{BoxSet, Forced, GameDefaults, Machine, lazy};
    use matchbox::players::{PerfectPlayer, Remembering};
    use matchbox::solve::TieBreak;
    use std::sync::Arc;
    let mut group = c.benchmark_group("havannah_cold");
    let games = 100_000;
    group.throughput(Throughput::Elements(games as u64));
    // Ten runs of about two seconds each.
    group.sample_size(10);
    group.measurement_time(std::time::Duration::from_secs(20));
    group.bench_function("base 3 vs perfect, first 100,000 games", |b| {
        b.iter(|| {
            let game = Havannah::new(Base::new(3).unwrap());
            let (values, _) = matchbox::learn::perfect_values(&game, TieBreak::Random).unwrap();
            let mut perfect =
                Remembering::new(PerfectPlayer::new(values, TieBreak::Random), 1 << 18);
            let set = BoxSet::lazy(
                &game,
                Side::First,
                game.default_symmetry(Side::First),
                Forced::Skip,
            );
            let preset = game.default_preset();
            let mut m = Machine::new(Arc::new(set), preset.beads(), preset.reinforcement(), 1);
            black_box(lazy::train(&game, &mut m, &mut perfect, games)).len()
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
    targets = playouts, mcts, training, cold
}
criterion_main!(benches);
