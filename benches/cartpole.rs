//! The cart-pole: physics steps a second (the bare simulation), steps a second of a BOXES trial
//! and of an ASE/ACE trial (the learner choosing and learning every step), and an experiment of
//! 1,000 BOXES learners of 100 trials each on every core. Run with `cargo bench --bench
//! cartpole`; criterion prints `thrpt` in steps (elements) a second.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use matchbox::cartpole::learner::{Kind, Run, lengths};
use matchbox::cartpole::{Physics, Push, State};
use rayon::prelude::*;

fn physics(c: &mut Criterion) {
    let p = Physics::POLE_C;
    let mut group = c.benchmark_group("cartpole_physics");
    group.throughput(Throughput::Elements(1_000));
    group.bench_function("1,000 steps", |b| {
        b.iter(|| {
            let mut s = State::default();
            for i in 0..1_000 {
                let push = if (s.theta + 0.01 * s.theta_dot) > 0.0 || i % 7 == 0 {
                    Push::Right
                } else {
                    Push::Left
                };
                s = p.step(s, push);
            }
            black_box(s)
        })
    });
    group.finish();
}

/// Trained learners' trials: each learner first trained 100 trials, then timed on trials of
/// up to 10,000 steps (the steps counted as they come).
fn trials(c: &mut Criterion) {
    let mut group = c.benchmark_group("cartpole_trial");
    for kind in [Kind::Boxes, Kind::Ase] {
        let mut run = Run::new(kind.learner(1), Physics::POLE_C, 10_000);
        (0..100).for_each(|_| {
            run.trial();
        });
        let steps: usize = (0..20).map(|_| run.trial()).sum();
        group.throughput(Throughput::Elements((steps / 20).max(1) as u64));
        group.bench_function(format!("{} trial", kind.name()), |b| {
            b.iter(|| black_box(run.trial()))
        });
    }
    group.finish();
}

fn experiment(c: &mut Criterion) {
    let mut group = c.benchmark_group("cartpole_experiment");
    group.sample_size(10);
    group.bench_function("1,000 BOXES learners × 100 trials", |b| {
        b.iter(|| {
            (0..1_000u64)
                .into_par_iter()
                .map(|r| lengths(Kind::Boxes, r, Physics::POLE_C, 10_000, 100).len())
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
    targets = physics, trials, experiment
}
criterion_main!(benches);
