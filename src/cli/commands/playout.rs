//! TODO

use super::*;

/// Counts of random games.
#[derive(Clone, Default)]
pub(super) struct Tally {
    games: u64,
    wins: [u64; 2],
    draws: u64,
    plies: u64,
    structures: [u64; 8],
}

impl Tally {
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
    fn merge(mut self, o: Tally) -> Tally {
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

pub(super) fn playout<G: FullGame>(game: G, a: &PlayoutArgs) -> Result<()> {
    use rayon::prelude::*;
    if a.games == 0 {
        bail!("--games 0: nothing to play");
    }
    let seed = a.seed.unwrap_or_else(rand::random);
    let pieces = a.games.div_ceil(PLAYOUT_PIECE);
    let started = std::time::Instant::now();
    // One piece first, on this thread, to say how long the rest will take.
    let first = {
        let mut rng = crate::rng::rng_from_seed(crate::rng::derive_seed(seed, 0));
        let mut t = Tally::default();
        game.random_games(a.games.min(PLAYOUT_PIECE), &mut rng, &mut |g| t.add(g));
        t
    };
    let per_game = started.elapsed().as_secs_f64() / first.games as f64;
    let threads = rayon::current_num_threads() as f64;
    let total = per_game * a.games as f64 / threads;
    if total > 365.25 * 86400.0 {
        bail!(
            "{} random games would take about {:.0} years",
            crate::text::group(a.games),
            total / (365.25 * 86400.0)
        );
    }
    if total > 120.0 {
        eprintln!("about {} to go", crate::text::duration_text(total));
    }
    let rest = (1..pieces)
        .into_par_iter()
        .map(|i| {
            let n = (a.games - i * PLAYOUT_PIECE).min(PLAYOUT_PIECE);
            let mut rng = crate::rng::rng_from_seed(crate::rng::derive_seed(seed, i));
            let mut t = Tally::default();
            game.random_games(n, &mut rng, &mut |g| t.add(g));
            t
        })
        .reduce(Tally::default, Tally::merge);
    let t = first.merge(rest);
    let secs = started.elapsed().as_secs_f64();
    let share = |n: u64| n as f64 / t.games as f64;
    let white = game.side_name(Side::First);
    let black = game.side_name(Side::Second);
    let kinds = game.structure_kinds();
    if a.json {
        let mut v = json!({
            "game": game.name(),
            "size": game.size_key(),
            "seed": seed,
            "games": t.games,
            "draw": share(t.draws),
            "mean_plies": t.plies as f64 / t.games as f64,
            "per_second": t.games as f64 / secs,
            "threads": rayon::current_num_threads(),
        });
        v[white] = json!(share(t.wins[0]));
        v[black] = json!(share(t.wins[1]));
        for (k, name) in kinds.iter().enumerate() {
            v[*name] = json!(share(t.structures[k]));
        }
        print_json(&v);
        return Ok(());
    }
    println!(
        "{} {}: {} random games (seed {seed}, {} threads)",
        game.name(),
        game.variant(),
        crate::text::group(t.games),
        rayon::current_num_threads()
    );
    println!(
        "  {white} won {:.4}, {black} won {:.4}, drawn {:.4}",
        share(t.wins[0]),
        share(t.wins[1]),
        share(t.draws)
    );
    for (k, name) in kinds.iter().enumerate() {
        println!(
            "  last move completed a {name}: {:.4}",
            share(t.structures[k])
        );
    }
    println!(
        "  {:.1} plies a game on average; {} games a second",
        t.plies as f64 / t.games as f64,
        crate::text::group((t.games as f64 / secs) as u64)
    );
    Ok(())
}
