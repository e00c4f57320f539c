//! How games ended, counted by kind: "white: reached the far rank", "x: three in a row",
//! "draw: the board is full", "black resigned" (its box empty).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::game::{Game, Side};

/// Games counted by how they ended, by kind (in the order of their names).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Ends(BTreeMap<String, u64>);

impl Ends {
    pub fn add(&mut self, kind: &str, n: u64) {
        if n == 0 {
            return;
        }
        match self.0.get_mut(kind) {
            Some(count) => *count += n,
            None => {
                self.0.insert(kind.to_string(), n);
            }
        }
    }
    pub fn merge(&mut self, other: &Ends) {
        for (kind, &n) in &other.0 {
            self.add(kind, n);
        }
    }
    /// Every game counted (saturating: a total past `u64::MAX`, from a forged file, is no
    /// total a run can have).
    pub fn total(&self) -> u64 {
        self.0.values().fold(0u64, |t, &n| t.saturating_add(n))
    }
    /// Each kind and its count, most common first.
    pub fn by_count(&self) -> Vec<(&str, u64)> {
        let mut v: Vec<(&str, u64)> = self.0.iter().map(|(k, &n)| (k.as_str(), n)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        v
    }
}

/// How one game ended, before it is named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End<R> {
    /// By the rules: the winner (none for a draw) and why.
    Rules(Option<Side>, R),
    /// The side to move resigned (a machine's empty box).
    Resigned(Side),
    /// The game reached the plies after which it is called a draw.
    Limit,
}

impl<R: std::fmt::Display> End<R> {
    /// The kind's name: "white: reached the far rank", "draw: the board is full", "black
    /// resigned", "draw: ply limit".
    pub fn name<G: Game<Reason = R>>(&self, game: &G) -> String {
        match self {
            End::Rules(Some(w), r) => format!("{}: {r}", game.side_name(*w)),
            End::Rules(None, r) => format!("draw: {r}"),
            End::Resigned(s) => format!("{} resigned", game.side_name(*s)),
            End::Limit => "draw: ply limit".to_string(),
        }
    }
}

/// A run's ends counted without naming them game by game (a handful of kinds: a short list).
pub struct EndTally<R>(Vec<(End<R>, u64)>);

impl<R: Copy + Eq + std::fmt::Display> EndTally<R> {
    pub fn new() -> Self {
        EndTally(Vec::new())
    }
    pub fn add(&mut self, end: End<R>) {
        match self.0.iter_mut().find(|(e, _)| *e == end) {
            Some((_, n)) => *n += 1,
            None => self.0.push((end, 1)),
        }
    }
    pub fn add_some(&mut self, end: Option<End<R>>) {
        if let Some(end) = end {
            self.add(end);
        }
    }
    /// Adds the counts, named, to `ends`.
    pub fn name_into<G: Game<Reason = R>>(&self, game: &G, ends: &mut Ends) {
        for (end, n) in &self.0 {
            ends.add(&end.name(game), *n);
        }
    }
}

impl<R: Copy + Eq + std::fmt::Display> Default for EndTally<R> {
    fn default() -> Self {
        Self::new()
    }
}
