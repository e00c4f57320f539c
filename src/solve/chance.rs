//! Random play, exactly: the chance of each result when both sides pick uniformly among their
//! legal moves, summed over the game's graph as fractions (Michie's "about 2:1" for the opener
//! of noughts and crosses, exactly: `docs/results.md`).

use serde::Serialize;

use super::SolveError;
use crate::game::graph::GameGraph;
use crate::game::{Game, Side};

/// A fraction of two u128s in lowest terms. Arithmetic says `None` when a result would not fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Fraction {
    pub num: u128,
    pub den: u128,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Fraction {
    pub const ZERO: Fraction = Fraction { num: 0, den: 1 };
    pub const ONE: Fraction = Fraction { num: 1, den: 1 };

    pub fn new(num: u128, den: u128) -> Fraction {
        let g = gcd(num, den).max(1);
        Fraction {
            num: num / g,
            den: den / g,
        }
    }
    pub fn checked_add(self, o: Fraction) -> Option<Fraction> {
        let g = gcd(self.den, o.den);
        let den = (self.den / g).checked_mul(o.den)?;
        let a = self.num.checked_mul(den / self.den)?;
        let b = o.num.checked_mul(den / o.den)?;
        Some(Fraction::new(a.checked_add(b)?, den))
    }
    /// This fraction divided by `k`.
    pub fn checked_div(self, k: u128) -> Option<Fraction> {
        let g = gcd(self.num, k).max(1);
        Some(Fraction::new(self.num / g, self.den.checked_mul(k / g)?))
    }
    pub fn value(self) -> f64 {
        self.num as f64 / self.den as f64
    }
}

impl std::fmt::Display for Fraction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.num, self.den)
    }
}

/// The chances of random play: the first player wins, a draw, the second player wins; exact
/// where the fractions fit in u128, and always as f64.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RandomPlay {
    pub exact: Option<[Fraction; 3]>,
    pub chances: [f64; 3],
}

impl RandomPlay {
    /// The first player's wins against its losses.
    pub fn ratio(&self) -> f64 {
        self.chances[0] / self.chances[2]
    }
}

/// The chance of every result under random play, over the whole graph (refused if a position
/// can repeat: random play then has no bound on its length).
pub fn random_play<G: Game>(graph: &GameGraph<G>) -> Result<RandomPlay, SolveError> {
    let n = graph.len();
    // Kahn's order: a position after every position that leads to it.
    let mut into = vec![0u32; n];
    for v in 0..n {
        for &c in graph.children(v as _) {
            into[c as usize] += 1;
        }
    }
    let mut order: Vec<usize> = (0..n).filter(|&v| into[v] == 0).collect();
    let mut at = 0;
    while at < order.len() {
        for &c in graph.children(order[at] as _) {
            into[c as usize] -= 1;
            if into[c as usize] == 0 {
                order.push(c as usize);
            }
        }
        at += 1;
    }
    if order.len() < n {
        return Err(SolveError::Cycle);
    }
    let mut exact = Some(vec![Fraction::ZERO; n]);
    let mut chance = vec![0.0f64; n];
    if let Some(e) = exact.as_mut() {
        e[0] = Fraction::ONE;
    }
    chance[0] = 1.0;
    let mut ends = (Some([Fraction::ZERO; 3]), [0.0f64; 3]);
    for &v in &order {
        let kids = graph.children(v as _);
        if let Some(outcome) = graph.outcome(v as _) {
            let k = match outcome.winner {
                Some(Side::First) => 0,
                None => 1,
                Some(Side::Second) => 2,
            };
            ends.1[k] += chance[v];
            let sum = match (ends.0, exact.as_ref()) {
                (Some(e), Some(x)) => e[k].checked_add(x[v]),
                _ => None,
            };
            match (sum, ends.0.as_mut()) {
                (Some(s), Some(e)) => e[k] = s,
                _ => ends.0 = None,
            }
            continue;
        }
        let share = chance[v] / kids.len() as f64;
        for &c in kids {
            chance[c as usize] += share;
        }
        exact = exact.and_then(|mut x| {
            let part = x[v].checked_div(kids.len() as u128)?;
            for &c in kids {
                x[c as usize] = x[c as usize].checked_add(part)?;
            }
            Some(x)
        });
    }
    Ok(RandomPlay {
        exact: ends.0.filter(|_| exact.is_some()),
        chances: ends.1,
    })
}
