//! Arimaa game records: turns written in steps (`Ed2n Ed3n rb7s`, capture tokens `Cc3x`
//! accepted), setups (`Ra1 Rb1 …`), move-number tokens (`2g`, `2s`) between turns; a game line
//! that checks each turn and keeps the positions seen for the repetition rule.

use std::collections::HashMap;

use super::rules::{Board, EndReason, Rules, Step};
use crate::game::Side;

/// Splits a record into turns at its move-number tokens (`1g`, `12s`, also `w`/`b`) and at the
/// ends of its lines (a record is written a turn a line); one line with no move number is one
/// turn.
pub fn split_turns(text: &str) -> Vec<Vec<&str>> {
    split_numbered(text).into_iter().map(|(_, t)| t).collect()
}

/// [`split_turns`], each turn with the move-number token written before it, if any.
pub fn split_numbered(text: &str) -> Vec<(Option<&str>, Vec<&str>)> {
    let mut turns = Vec::new();
    for line in text.lines() {
        let mut number = None;
        let mut current = Vec::new();
        for token in line.split(|c: char| c.is_whitespace() || c == ',') {
            if token.is_empty() {
                continue;
            }
            if is_move_number(token) {
                if !current.is_empty() {
                    turns.push((number, std::mem::take(&mut current)));
                }
                number = Some(token);
                continue;
            }
            current.push(token);
        }
        if !current.is_empty() {
            turns.push((number, current));
        }
    }
    turns
}

/// Checks a move-number token (`12s`) against the turn it stands before: turn `number` of `side`.
pub fn check_move_number(token: &str, number: usize, side: Side) -> Result<(), String> {
    let last = token.chars().last().unwrap_or('g');
    let digits = &token[..token.len() - last.len_utf8()];
    let written_side = if matches!(last, 'g' | 'w') {
        Side::First
    } else {
        Side::Second
    };
    let letter = if side == Side::First { 'g' } else { 's' };
    match digits.parse::<usize>() {
        Ok(n) if n == number && written_side == side => Ok(()),
        Ok(_) => Err(format!(
            "`{token}` stands before turn {number}{letter} (number the turns from --turn, 1 by default)"
        )),
        Err(_) => Err(format!("`{token}`: a move number too big")),
    }
}

fn is_move_number(token: &str) -> bool {
    let Some(last) = token.chars().last() else {
        return false;
    };
    let digits = &token[..token.len() - last.len_utf8()];
    matches!(last, 'g' | 's' | 'w' | 'b')
        && !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
}

/// A game from a position, turn by turn.
#[derive(Clone, Debug)]
pub struct GameLine {
    pub board: Board,
    pub to_move: Side,
    /// Turns played since the line began (setups included).
    pub plies: u32,
    /// How the game ended, if it has.
    pub end: Option<(Side, EndReason)>,
    /// How often each position (board and side to move) has occurred.
    seen: HashMap<(Board, Side), u8>,
    /// Setups still to come: the full game from its empty board starts with two.
    setups_left: u8,
}

impl GameLine {
    /// A game continued from `board` with `to_move` to move (the position counts once).
    pub fn new(board: Board, to_move: Side) -> GameLine {
        GameLine {
            board,
            to_move,
            plies: 0,
            end: None,
            seen: HashMap::from([((board, to_move), 1)]),
            setups_left: 0,
        }
    }

    /// The full game from its empty board: Gold's setup, Silver's, then turns.
    pub fn from_setup() -> GameLine {
        GameLine {
            setups_left: 2,
            ..GameLine::new(Board::default(), Side::First)
        }
    }

    /// Whether playing to `result` would make a position for the third time.
    pub fn repeats(&self, result: &Board) -> bool {
        self.seen
            .get(&(*result, self.to_move.other()))
            .is_some_and(|&n| n >= 2)
    }

    /// Plays one turn from its tokens; the error says what is wrong.
    pub fn play(&mut self, rules: &Rules, tokens: &[&str]) -> Result<(), String> {
        self.check_not_over()?;
        if self.setups_left > 0 {
            let next = self.setup(rules, tokens)?;
            self.setups_left -= 1;
            self.advance(next);
            return Ok(());
        }
        let steps = self.parse_turn(rules, tokens)?;
        self.play_steps(rules, &steps)
            .map_err(|why| format!("`{}` {why}", tokens.join(" ")))
    }

    /// Plays one turn given as steps (after the setups); the error says what is wrong with it.
    pub fn play_steps(&mut self, rules: &Rules, steps: &[Step]) -> Result<(), String> {
        self.check_not_over()?;
        let b = rules
            .follow(&self.board, self.to_move, steps)
            .map_err(|i| match steps.get(i) {
                Some(_) => format!(
                    "is not allowed for {} there (step {})",
                    side_name(self.to_move),
                    i + 1
                ),
                None => "does not finish its push, or has too many steps".to_string(),
            })?;
        if b == self.board {
            return Err("leaves the position as it was; a turn must change it".into());
        }
        if self.repeats(&b) {
            return Err("would make the same position a third time".into());
        }
        let mover = self.to_move;
        self.advance(b);
        let line = &*self;
        self.end = rules.end_of_turn(&b, mover, || line.can_move(rules));
        Ok(())
    }

    fn check_not_over(&self) -> Result<(), String> {
        match self.end {
            Some((winner, reason)) => Err(format!(
                "the game is over ({} won by {})",
                side_name(winner),
                reason.name()
            )),
            None => Ok(()),
        }
    }

    /// The position after a turn: the other side to move, the position counted once more.
    fn advance(&mut self, next: Board) {
        self.board = next;
        self.to_move = self.to_move.other();
        self.plies += 1;
        *self.seen.entry((next, self.to_move)).or_insert(0) += 1;
    }

    /// Whether the side to move has a legal turn (the repetition rule included).
    pub fn can_move(&self, rules: &Rules) -> bool {
        if !rules.can_move(&self.board, self.to_move) {
            return false;
        }
        // Only a position already seen twice can be made a third time: the turns are walked
        // until one makes a position that is not such (one of the first few, as a rule), and
        // none is kept.
        if self.seen.values().all(|&n| n < 2) {
            return true;
        }
        let mut legal = false;
        rules.each_turn(&self.board, self.to_move, |b| {
            legal = !self.repeats(b);
            !legal
        });
        legal
    }

    /// The steps of a turn, each checked against the board as it stands (the piece named must be
    /// there); capture tokens are accepted and checked against the captures the steps make.
    fn parse_turn(&self, rules: &Rules, tokens: &[&str]) -> Result<Vec<Step>, String> {
        let mut b = self.board;
        let mut steps = Vec::new();
        let mut captured: Vec<String> = Vec::new();
        for t in tokens {
            match rules.parse_step(t).map_err(|e| format!("`{t}`: {e}"))? {
                None => {
                    if let Some(i) = captured.iter().position(|c| c == t) {
                        captured.remove(i);
                    } else {
                        return Err(format!("`{t}`: no piece is captured there"));
                    }
                }
                Some((side, kind, step)) => {
                    if b.at(step.from) != Some((side, kind)) {
                        return Err(format!(
                            "`{t}`: no {} on {}",
                            Rules::piece_letter(side, kind),
                            rules.square_name(step.from)
                        ));
                    }
                    match rules.step_to(step.from, step.dir) {
                        Some(to) if b.at(to).is_none() => {}
                        _ => return Err(format!("`{t}`: the square ahead is not free")),
                    }
                    for c in rules.apply_step(&mut b, step) {
                        captured.push(format!(
                            "{}{}x",
                            Rules::piece_letter(c.side, c.kind),
                            rules.square_name(c.sq)
                        ));
                    }
                    steps.push(step);
                }
            }
        }
        if steps.is_empty() {
            return Err("a turn needs at least one step".into());
        }
        if steps.len() > rules.steps() as usize {
            return Err(format!(
                "{} steps in one turn; at most {}",
                steps.len(),
                rules.steps()
            ));
        }
        Ok(steps)
    }

    /// A setup: the side's pieces placed on its two home ranks (full game: 1–2 for Gold, 7–8
    /// for Silver), each kind in its number.
    fn setup(&self, rules: &Rules, tokens: &[&str]) -> Result<Board, String> {
        const COUNTS: [u8; 6] = [8, 2, 2, 2, 1, 1];
        let side = self.to_move;
        let mut b = self.board;
        let mut counts = [0u8; 6];
        let h = rules.height();
        for t in tokens {
            let (s, kind, sq) = rules
                .parse_placement(t)
                .ok_or_else(|| format!("`{t}` is not a placement like Ra1"))?;
            if s != side {
                return Err(format!("`{t}`: it is {}'s setup", side_name(side)));
            }
            let rank = sq / rules.width();
            let home = match side {
                Side::First => rank < 2,
                Side::Second => rank >= h - 2,
            };
            if !home {
                return Err(format!(
                    "`{t}`: not on {}'s two home ranks",
                    side_name(side)
                ));
            }
            if b.at(sq).is_some() {
                return Err(format!("`{t}`: the square is taken"));
            }
            b.put(sq, s, kind);
            counts[kind as usize] += 1;
        }
        if counts != COUNTS {
            return Err(format!(
                "a setup places 8 rabbits, 2 cats, 2 dogs, 2 horses, a camel and an elephant ({} pieces given)",
                tokens.len()
            ));
        }
        Ok(b)
    }
}

/// Gold or Silver.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "gold",
        Side::Second => "silver",
    }
}

/// A side's name or letter (`gold`, `g`, `silver`, `s`, and the old `white`/`black`).
pub fn parse_side(text: &str) -> Option<Side> {
    match text.trim().to_ascii_lowercase().as_str() {
        "gold" | "g" | "white" | "w" => Some(Side::First),
        "silver" | "s" | "black" | "b" => Some(Side::Second),
        _ => None,
    }
}
