//! The one random number generator of matchbox: portable, seedable, fast. Every learner, player and
//! experiment draws from an explicit generator; there is no global randomness.

use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;

/// The generator every learner and player uses.
pub type Rng = Xoshiro256PlusPlus;
/// Its name, as saved with every run and box file.
pub const RNG_NAME: &str = "xoshiro256++";

/// A generator seeded from `seed` (SplitMix64 expansion, as `rand_xoshiro` does it). Never the
/// all-zero state.
pub fn rng_from_seed(seed: u64) -> Rng {
    // The four words of `rand_xoshiro`'s `seed_from_u64` (its SplitMix64 stream, little-endian),
    // without its generic byte filling: an experiment seeds a generator for every run.
    let mut bytes = [0; 32];
    for (word, w) in bytes.chunks_exact_mut(8).zip(seed_words(seed)) {
        word.copy_from_slice(&w.to_le_bytes());
    }
    Rng::from_seed(bytes)
}

/// The four words SplitMix64 expands `seed` to (`rand_xoshiro`'s `seed_from_u64`).
fn seed_words(seed: u64) -> [u64; 4] {
    let mut state = seed;
    std::array::from_fn(|_| {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        splitmix_mix(state)
    })
}

/// SplitMix64's output function.
fn splitmix_mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Whether a generator can produce anything but zeros (xoshiro's all-zero state is a fixed point:
/// it returns 0 for ever).
pub fn is_usable(rng: &Rng) -> bool {
    let mut probe = rng.clone();
    use rand::Rng as _;
    (0..4).any(|_| probe.next_u64() != 0)
}

/// A number drawn uniformly from `0..n` (`n > 0`), exactly: Lemire's multiply-and-reject method
/// ("Fast random integer generation in an interval", 2019). One 64-bit draw almost always; the
/// rejection branch is taken with probability below n / 2^64.
#[inline(always)]
pub fn uniform_below(rng: &mut Rng, n: u32) -> u32 {
    use rand::Rng as _;
    let first = rng.next_u64();
    below_from(first, n, || rng.next_u64())
}

/// [`uniform_below`] from its first 64-bit draw `first`, with `more` drawing the next where the
/// method rejects one: the same number from the same draws.
#[inline(always)]
fn below_from(first: u64, n: u32, mut more: impl FnMut() -> u64) -> u32 {
    debug_assert!(n > 0);
    let n = n as u64;
    let mut m = (first as u128) * (n as u128);
    if (m as u64) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u64) < threshold {
            m = (more() as u128) * (n as u128);
        }
    }
    (m >> 64) as u32
}

/// The generator [`Rng`] held as its four words: the same numbers, seeded with no bytes in
/// between (an experiment's fast loop seeds one for every run: `Rng::from_seed` took 2.5 % of
/// HER's experiment).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Words([u64; 4]);

impl Words {
    /// The state of `rng_from_seed(seed)`.
    pub fn from_seed(seed: u64) -> Words {
        let words = seed_words(seed);
        if words == [0; 4] {
            // `rand_xoshiro` replaces an all-zero seed with a fixed one.
            return Words::of(&rng_from_seed(seed));
        }
        Words(words)
    }

    /// The state of `rng`.
    pub fn of(rng: &Rng) -> Words {
        let bytes = rng.state();
        Words(std::array::from_fn(|w| {
            let mut le = [0; 8];
            le.copy_from_slice(&bytes[8 * w..8 * w + 8]);
            u64::from_le_bytes(le)
        }))
    }

    /// The next number (xoshiro256++, as [`Rng`]).
    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        let [s0, s1, s2, s3] = &mut self.0;
        let out = s0.wrapping_add(*s3).rotate_left(23).wrapping_add(*s0);
        let t = *s1 << 17;
        *s2 ^= *s0;
        *s3 ^= *s1;
        *s1 ^= *s2;
        *s0 ^= *s3;
        *s2 ^= t;
        *s3 = s3.rotate_left(45);
        out
    }

    /// [`uniform_below`] from this generator.
    #[inline(always)]
    pub fn below(&mut self, n: u32) -> u32 {
        let first = self.next_u64();
        below_from(first, n, || self.next_u64())
    }
}

/// The seed of run `run` of an experiment seeded with `seed`: a SplitMix64 mix of the two, so
/// neighbouring runs get unrelated streams and the result does not depend on scheduling.
pub fn derive_seed(seed: u64, run: u64) -> u64 {
    splitmix_mix(seed ^ run.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

#[cfg(test)]
mod tests {
    use super::{Rng, SeedableRng, Words, rng_from_seed, uniform_below};
    use proptest::{prop_assert_eq, proptest};

    #[test]
    fn seeding_is_rand_xoshiros_at_the_edges() {
        for seed in [0, 1, 2, u64::MAX, 0x9E37_79B9_7F4A_7C15, 1 << 63] {
            assert_eq!(rng_from_seed(seed), Rng::seed_from_u64(seed), "seed {seed}");
        }
    }

    proptest! {
        #[test]
        fn seeding_is_rand_xoshiros(seed: u64) {
            prop_assert_eq!(rng_from_seed(seed), Rng::seed_from_u64(seed));
        }

        /// The generator as its words is the generator: seeded alike, the same numbers drawn
        /// (whole words and below any bound), the same state after.
        #[test]
        fn words_draw_as_the_generator_does(seed: u64, bounds in proptest::collection::vec(1..=u32::MAX, 0..100)) {
            use rand::Rng as _;
            let (mut rng, mut words) = (rng_from_seed(seed), Words::from_seed(seed));
            prop_assert_eq!(&Words::of(&rng), &words);
            for n in bounds {
                prop_assert_eq!(uniform_below(&mut rng, n), words.below(n));
                prop_assert_eq!(rng.next_u64(), words.next_u64());
            }
            prop_assert_eq!(Words::of(&rng), words);
        }
    }
}
