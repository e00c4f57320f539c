//! `playout`: random games (every move uniform), how they end, how long they last, how fast
//! they run.

use std::fmt;

use serde::Serialize;

use super::*;

/// Counts of random games.
#[derive(Clone, Default)]
pub(super) struct PlayoutCounts {
    games: u64,
    wins: [u64; 2],
    draws: u64,
    plies: u64,
    structures: [u64; 8],
}

impl PlayoutCounts {
    fn add(&mut self, g: crate::game::RandomGame) {
        self.games += 1;
        match g.winner {
            Some(w) => self.wins[w as usize] += 1,
            None => self.draws += 1,
        }
        self.plies += g.plies as u64;
        for (k, n) in self.structures.iter_mut().enumerate() {
            *n += u64::from(g.structures >> k & 1 == 1);
        }
    }
    fn merge(mut self, o: PlayoutCounts) -> PlayoutCounts {
        self.games += o.games;
        self.draws += o.draws;
        self.plies += o.plies;
        for k in 0..2 {
            self.wins[k] += o.wins[k];
        }
        for k in 0..8 {
            self.structures[k] += o.structures[k];
        }
        self
    }
}

/// Random games per piece of work: piece `i` is seeded from the seed and `i`, so the result does
/// not depend on the number of threads.
pub(super) const PLAYOUT_PIECE: u64 = 4096;

/// What `playout` found: how random games end and how fast they run.
#[derive(Serialize)]
pub(super) struct PlayoutReport {
    game: &'static str,
    size: Option<String>,
    seed: u64,
    games: u64,
    draw: f64,
    mean_plies: f64,
    per_second: f64,
    threads: usize,
    /// Each side's share of wins, and each structure's share of last moves, by name.
    #[serde(flatten)]
    shares: std::collections::BTreeMap<&'static str, f64>,
    #[serde(skip)]
    variant: String,
    #[serde(skip)]
    sides: [&'static str; 2],
    #[serde(skip)]
    structures: Vec<&'static str>,
}

impl fmt::Display for PlayoutReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let share = |k: &str| self.shares.get(k).copied().unwrap_or(0.0);
        let [white, black] = self.sides;
        writeln!(
            f,
            "{} {}: {} random games (seed {}, {} threads)",
            self.game,
            self.variant,
            crate::text::group(self.games),
            self.seed,
            self.threads
        )?;
        writeln!(
            f,
            "  {white} won {:.4}, {black} won {:.4}, drawn {:.4}",
            share(white),
            share(black),
            self.draw
        )?;
        for name in &self.structures {
            writeln!(f, "  last move completed a {name}: {:.4}", share(name))?;
        }
        writeln!(
            f,
            "  {:.1} plies a game on average; {} games a second",
            self.mean_plies,
            crate::text::group(self.per_second as u64)
        )
    }
}

/// The random games of piece `i` of a run seeded `seed` (`n` games).
fn piece<G: FullGame>(game: &G, seed: u64, i: u64, n: u64) -> PlayoutCounts {
    let mut rng = crate::rng::rng_from_seed(crate::rng::derive_seed(seed, i));
    let mut t = PlayoutCounts::default();
    game.random_games(n, &mut rng, &mut |g| t.add(g));
    t
}

pub(super) fn playout<G: FullGame>(game: G, a: &PlayoutArgs) -> Result<PlayoutReport> {
    if a.games == 0 {
        bail!("--games 0: nothing to play");
    }
    let seed = a.seed.unwrap_or_else(rand::random);
    let pieces = a.games.div_ceil(PLAYOUT_PIECE);
    let started = std::time::Instant::now();
    // One piece first, on this thread, to say how long the rest will take.
    let first = piece(&game, seed, 0, a.games.min(PLAYOUT_PIECE));
    let per_game = started.elapsed().as_secs_f64() / first.games as f64;
    let threads = crate::par::threads();
    let total = per_game * a.games as f64 / threads as f64;
    if total > crate::text::YEAR {
        bail!(
            "{} random games would take about {}",
            crate::text::group(a.games),
            crate::text::duration_text(total)
        );
    }
    if total > 120.0 {
        eprintln!("about {} to go", crate::text::duration_text(total));
    }
    let rest = crate::par::map_reduce_range(
        1..pieces,
        |i| {
            piece(
                &game,
                seed,
                i,
                (a.games - i * PLAYOUT_PIECE).min(PLAYOUT_PIECE),
            )
        },
        PlayoutCounts::default,
        PlayoutCounts::merge,
    );
    let t = first.merge(rest);
    let secs = started.elapsed().as_secs_f64();
    let share = |n: u64| n as f64 / t.games as f64;
    let sides = [game.side_name(Side::First), game.side_name(Side::Second)];
    let structures = game.structure_kinds().to_vec();
    let mut shares = std::collections::BTreeMap::new();
    shares.insert(sides[0], share(t.wins[0]));
    shares.insert(sides[1], share(t.wins[1]));
    for (k, name) in structures.iter().enumerate() {
        shares.insert(*name, share(t.structures[k]));
    }
    Ok(PlayoutReport {
        game: game.name(),
        size: Some(game.variant()),
        seed,
        games: t.games,
        draw: share(t.draws),
        mean_plies: t.plies as f64 / t.games as f64,
        per_second: t.games as f64 / secs,
        threads,
        shares,
        variant: game.variant(),
        sides,
        structures,
    })
}
