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
