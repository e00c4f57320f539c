//! The one tally of results: games, wins, draws and losses, the last loss and the streak.

use serde::Serialize;

use super::GameResult;

/// Results counted game by game, from the learner's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Score {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// The number (in the machine's life) of the last game lost.
    pub last_loss: Option<u64>,
    /// The result that ends the record, and how many times in a row.
    #[serde(skip)]
    pub streak: Option<(GameResult, u64)>,
}

impl Score {
    /// Counts game `number` (in the machine's life), which ended in `result`.
    #[inline]
    pub fn add(&mut self, number: u64, result: GameResult) {
        self.games += 1;
        match result {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => {
                self.losses += 1;
                self.last_loss = Some(number);
            }
        }
        match &mut self.streak {
            Some((r, n)) if *r == result => *n += 1,
            streak => *streak = Some((result, 1)),
        }
    }

    /// Counts games `first`, `first + 1`… (in the machine's life), which ended in `results`: the
    /// same as [`Score::add`] for each, in passes the compiler keeps tight (`matchbox train`
    /// counts millions of games).
    pub fn add_all(&mut self, first: u64, results: &[GameResult]) {
        let Some(&end) = results.last() else {
            return;
        };
        // Passes of compares the compiler makes many at a time, not a counter a game (each
        // increment waiting for the one before) nor a search one game at a time.
        let count = |kind| {
            results
                .chunks(255)
                .map(|c| u64::from(c.iter().fold(0u8, |n, &r| n + u8::from(r == kind))))
                .sum::<u64>()
        };
        let (draws, losses) = (count(GameResult::Draw), count(GameResult::Loss));
        self.games += results.len() as u64;
        self.wins += results.len() as u64 - draws - losses;
        self.draws += draws;
        self.losses += losses;
        if let Some(i) = last_where(results, |r| r == GameResult::Loss) {
            self.last_loss = Some(first + i as u64);
        }
        let run = match last_where(results, |r| r != end) {
            Some(i) => results.len() - 1 - i,
            None => results.len(),
        } as u64;
        self.streak = match self.streak {
            Some((r, n)) if r == end && run == results.len() as u64 => Some((r, n + run)),
            _ => Some((end, run)),
        };
    }

    /// Michie's score: wins − losses.
    pub fn net(&self) -> i64 {
        self.wins as i64 - self.losses as i64
    }
}

/// One letter a result: W, D or L.
pub fn result_letter(r: GameResult) -> char {
    match r {
        GameResult::Win => 'W',
        GameResult::Draw => 'D',
        GameResult::Loss => 'L',
    }
}

/// The index of the last of `results` that `pred` holds for: whole blocks tested at once from
/// the end, then the block that holds it one by one.
fn last_where(results: &[GameResult], pred: impl Fn(GameResult) -> bool) -> Option<usize> {
    const BLOCK: usize = 64;
    let mut end = results.len();
    for block in results.rchunks(BLOCK) {
        let start = end - block.len();
        if block.iter().fold(false, |any, &r| any | pred(r)) {
            return block.iter().rposition(|&r| pred(r)).map(|i| start + i);
        }
        end = start;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{GameResult, Score};
    use proptest::prelude::*;

    fn result() -> impl Strategy<Value = GameResult> {
        prop_oneof![
            Just(GameResult::Win),
            Just(GameResult::Draw),
            Just(GameResult::Loss)
        ]
    }

    proptest! {
        #[test]
        fn counting_at_once_is_counting_one_by_one(
            before in proptest::collection::vec(result(), 0..20),
            results in proptest::collection::vec(result(), 0..40),
        ) {
            let mut one = Score::default();
            let mut all = Score::default();
            for (n, &r) in (1..).zip(&before) {
                one.add(n, r);
                all.add(n, r);
            }
            let first = before.len() as u64 + 1;
            for (n, &r) in (first..).zip(&results) {
                one.add(n, r);
            }
            all.add_all(first, &results);
            prop_assert_eq!(one, all);
            prop_assert_eq!(one.streak, all.streak);
        }
    }
}
