//! An operator's session at the real boxes: the program leads a person through a game of the
//! real machine against a visitor. On the machine's turn it names the box to open (its number as
//! its label prints it) and how the board is turned from the label's drawing; the operator gives
//! the colour of the bead drawn (its name or its letter, as on the labels), and the program
//! plays the square that bead stands for on the real board. The visitor's move is given as a
//! move. At the game's end it lists, box by box, what to do with the beads and what each box then
//! holds. Every step can be undone (a mistyped colour); any box can be audited. The session's
//! games are its record ([`super::parse`]'s format): the copy here is what [`super::learn_game`]
//! makes of them, bead for bead.

use thiserror::Error;

use super::{Disagreement, GameLine, RESIGN, RecordError, learn_game};
use crate::game::Sym;
use crate::learn::{Bout, GameDefaults, GameResult, Machine};
use crate::palette::{self, BeadColours};

/// What happens to a box of the machine's first move that a lost game empties.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstBox {
    /// It keeps one bead (the revival some machines use: the machine never stops playing).
    Revive,
    /// It stays empty: the machine resigns every game from then on, as Michie's would.
    Resign,
}

/// A bead colour of a box: what its label prints, and the move it stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bead {
    /// The arrow in the box's order, from 0.
    pub arrow: usize,
    /// The palette's colour number, its name and its letter (as the labels).
    pub colour: usize,
    pub name: &'static str,
    pub letter: String,
    /// The beads of it the box holds.
    pub count: u32,
    /// The move as the label draws it (the box's own frame).
    pub on_label: String,
}

/// The machine's turn: the box to open and its beads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Open {
    /// The box's number, from 1, as its label prints it.
    pub box_number: usize,
    /// How the board is turned from the label's drawing of the box.
    pub sym: Sym,
    /// Each bead colour of the box, with the square it stands for on the real board.
    pub beads: Vec<(Bead, String)>,
}

/// What the session waits for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Turn {
    /// The colour of the bead drawn from a box (or `resign`, the real box empty).
    Machine(Open),
    /// The visitor's move, one of these.
    Visitor(Vec<String>),
    /// The game is over; what to do with the beads, until the next game begins.
    Over(EndOfGame),
}

/// A box's beads after a game, and what to do to get there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoxStep {
    pub box_number: usize,
    /// (colour's bead, change): each colour whose count changes.
    pub changes: Vec<(Bead, i64)>,
    /// Every colour's count once done.
    pub holds: Vec<Bead>,
    /// The revival rule kept a bead in it.
    pub revived: bool,
}

impl BoxStep {
    /// "box 120: put 3 more orange beads in; then it holds orange 4 · sky blue 1".
    pub fn words(&self) -> String {
        let what: Vec<String> = (self.changes.iter())
            .map(|(b, d)| match *d {
                d if d > 0 => format!("put {d} more {} bead{} in", b.name, plural(d)),
                d => format!("take {} {} bead{} out", -d, b.name, plural(d)),
            })
            .collect();
        let what = match what.is_empty() {
            true => "leave it as it was".to_string(),
            false => what.join(", "),
        };
        let holds: Vec<String> = (self.holds.iter())
            .map(|b| format!("{} {}", b.name, b.count))
            .collect();
        let revived = match self.revived {
            true => " (the first box keeps one bead)",
            false => "",
        };
        format!(
            "box {}: {what}{revived}; then it holds {}",
            self.box_number,
            holds.join(" · ")
        )
    }
}

fn plural(n: i64) -> &'static str {
    if n.abs() == 1 { "" } else { "s" }
}

/// A game's end: its result for the machine, why, and the boxes' steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EndOfGame {
    /// The game's number in the session, from 1.
    pub game: usize,
    pub result: GameResult,
    pub why: String,
    pub steps: Vec<BoxStep>,
    pub disagreements: Vec<Disagreement>,
}

/// What the operator gave that cannot be taken.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum OperatorError {
    #[error("`{0}` is not a bead colour (the labels' colours: {1})")]
    NotAColour(String, String),
    #[error("box {box_number} has no {colour} beads (its colours: {has})")]
    NotInBox {
        box_number: usize,
        colour: String,
        has: String,
    },
    #[error("the box has beads of {0} with different letters: give the letter ({1})")]
    Ambiguous(String, String),
    #[error("it is the visitor's move, not the machine's")]
    VisitorsTurn,
    #[error("it is the machine's move: give the colour of the bead drawn")]
    MachinesTurn,
    #[error("the game is over: begin the next one")]
    Over,
    #[error("{0}")]
    Move(String),
    #[error("nothing to undo")]
    NothingToUndo,
    #[error("there is no box {0} (boxes 1 to {1})")]
    NoSuchBox(usize, usize),
}

/// An operator's session: the copy of the real machine, the game under way and the record.
pub struct Operator<G: GameDefaults> {
    bout: Bout<G>,
    colours: BeadColours,
    first_box: FirstBox,
    /// The copy as the game under way began (an undo plays the game again from it).
    at_start: Machine<G>,
    /// The copy as the session began (the beads on the table then: the inventory's start).
    at_session: Machine<G>,
    /// The game under way's words.
    words: Vec<String>,
    /// The finished games' words and results: the record.
    games: Vec<(Vec<String>, GameResult)>,
    /// The last game's end, until the next game begins.
    over: Option<EndOfGame>,
}

impl<G: GameDefaults> Operator<G> {
    /// A session of the copy in `bout` (whose opponent is a person: the visitor), its beads
    /// coloured as the labels were printed (`colours`), with the first-box rule `first_box`.
    pub fn new(bout: Bout<G>, colours: BeadColours, first_box: FirstBox) -> Operator<G> {
        let mut bout = bout;
        bout.abandon();
        bout.begin();
        let at = bout.learner().clone();
        Operator {
            bout,
            colours,
            first_box,
            at_start: at.clone(),
            at_session: at,
            words: Vec::new(),
            games: Vec::new(),
            over: None,
        }
    }

    /// The copy of the machine.
    pub fn machine(&self) -> &Machine<G> {
        self.bout.learner()
    }
    /// The game.
    pub fn game(&self) -> &G {
        self.bout.game()
    }
    /// The position of the game under way (the last game's end while it is over).
    pub fn position(&self) -> G::Position {
        self.bout
            .position()
            .cloned()
            .unwrap_or_else(|| self.replayed_end())
    }
    /// The game under way's words so far.
    pub fn words(&self) -> &[String] {
        &self.words
    }
    /// The finished games: wins, draws and losses of the machine.
    pub fn tally(&self) -> (usize, usize, usize) {
        let n = |r: GameResult| self.games.iter().filter(|g| g.1 == r).count();
        (n(GameResult::Win), n(GameResult::Draw), n(GameResult::Loss))
    }

    /// What the session waits for.
    pub fn turn(&self) -> Turn {
        if let Some(end) = &self.over {
            return Turn::Over(end.clone());
        }
        let game = self.game();
        let pos = self.position();
        if game.to_move(&pos) != self.machine().boxes.side() {
            let legal = game.moves(&pos).into_iter();
            return Turn::Visitor(legal.map(|m| game.format_move_at(&pos, m)).collect());
        }
        Turn::Machine(self.open())
    }

    /// The machine's box for the position now, and how the board is turned from it.
    fn open(&self) -> Open {
        let pos = self.position();
        open_box(
            self.game(),
            self.machine(),
            self.colours,
            &pos,
            self.bout.frame(),
        )
    }

    /// The beads of box `b` of the copy, colour by colour as its label prints them.
    fn beads_of(&self, b: usize) -> Vec<Bead> {
        box_beads(self.game(), self.machine(), self.colours, b)
    }

    /// What box `number` (from 1) of the copy holds now, colour by colour.
    pub fn audit(&self, number: usize) -> Result<Vec<Bead>, OperatorError> {
        let len = self.machine().boxes.len();
        if number == 0 || number > len {
            return Err(OperatorError::NoSuchBox(number, len));
        }
        Ok(self.beads_of(number - 1))
    }

    /// The operator's bead: its colour's name or letter (`orange`, `A`); the move it stands for
    /// is played. A colour not in the box is refused, and asked again.
    pub fn bead(&mut self, text: &str) -> Result<(), OperatorError> {
        let open = match self.turn() {
            Turn::Machine(open) => open,
            Turn::Visitor(_) => return Err(OperatorError::VisitorsTurn),
            Turn::Over(_) => return Err(OperatorError::Over),
        };
        let given = colour_named(text)?;
        let matching: Vec<&(Bead, String)> = (open.beads.iter())
            .filter(|(b, _)| given.fits(b.colour))
            .collect();
        let square = match matching[..] {
            [(_, square)] => square,
            [] => {
                let has: Vec<String> = (open.beads.iter())
                    .map(|(b, _)| format!("{} {}", b.letter, b.name))
                    .collect();
                return Err(OperatorError::NotInBox {
                    box_number: open.box_number,
                    colour: given.name(),
                    has: has.join(", "),
                });
            }
            _ => {
                let letters: Vec<&str> = matching.iter().map(|(b, _)| b.letter.as_str()).collect();
                return Err(OperatorError::Ambiguous(given.name(), letters.join(" or ")));
            }
        };
        self.step(square.clone())
    }

    /// The machine resigns: its real box is empty.
    pub fn resign(&mut self) -> Result<(), OperatorError> {
        match self.turn() {
            Turn::Machine(_) => self.step(RESIGN.to_string()),
            Turn::Visitor(_) => Err(OperatorError::VisitorsTurn),
            Turn::Over(_) => Err(OperatorError::Over),
        }
    }

    /// The visitor's move, in the game's notation.
    pub fn visitor(&mut self, text: &str) -> Result<(), OperatorError> {
        let legal = match self.turn() {
            Turn::Visitor(legal) => legal,
            Turn::Machine(_) => return Err(OperatorError::MachinesTurn),
            Turn::Over(_) => return Err(OperatorError::Over),
        };
        let pos = self.position();
        let mv = (self.game().parse_move(&pos, text.trim()))
            .map_err(|e| OperatorError::Move(e.to_string()))?;
        let word = self.game().format_move_at(&pos, mv);
        if !legal.contains(&word) {
            return Err(OperatorError::Move(format!("{word} is not legal here")));
        }
        self.step(word)
    }
}

impl<G: GameDefaults> Operator<G> {
    /// A record's word played (a session's log read again): the move of the side to move, or
    /// `resign` on the machine's turn.
    pub fn record_word(&mut self, word: &str) -> Result<(), OperatorError> {
        match self.turn() {
            Turn::Over(_) => Err(OperatorError::Over),
            _ if word.eq_ignore_ascii_case(RESIGN) => self.resign(),
            Turn::Visitor(_) => self.visitor(word),
            Turn::Machine(_) => {
                let pos = self.position();
                let mv = (self.game().parse_move(&pos, word.trim()))
                    .map_err(|e| OperatorError::Move(e.to_string()))?;
                self.step(self.game().format_move_at(&pos, mv))
            }
        }
    }

    /// A game's words played again from its start (a record's line, the game under way kept
    /// beside it): each as [`Operator::record_word`] plays it, the machine's forced moves, which
    /// play themselves, taken as played. At the first word that cannot be played: its index and
    /// why (the words before it played).
    pub fn replay_words(&mut self, words: &[String]) -> Result<(), (usize, OperatorError)> {
        let start = self.words.len();
        for (i, w) in words.iter().enumerate() {
            // A forced move the step before played already: the same word, or a mistake.
            if let Some(played) = self.words.get(start + i) {
                if played.eq_ignore_ascii_case(w.trim()) {
                    continue;
                }
                let why = format!("the machine's only move here is {played}");
                return Err((i, OperatorError::Move(why)));
            }
            self.record_word(w).map_err(|e| (i, e))?;
        }
        Ok(())
    }

    /// A record's games played again on the session (a session continued after a restart):
    /// refused at the first line whose moves cannot be played or that does not end its game.
    pub fn continue_with(&mut self, games: &[GameLine]) -> Result<(), RecordError> {
        for g in games {
            self.replay_words(&g.words).map_err(|(i, e)| RecordError {
                line: g.line,
                message: format!("move {} `{}`: {e}", i + 1, crate::text::quote(&g.words[i])),
            })?;
            if !self.is_over() {
                return Err(RecordError {
                    line: g.line,
                    message: "the game is not over after its moves".into(),
                });
            }
            self.next_game();
        }
        Ok(())
    }

    /// Whether the last game is over and its end not yet done at the boxes.
    pub fn is_over(&self) -> bool {
        self.over.is_some()
    }

    /// The finished games' lines, as the record writes them.
    pub fn lines(&self) -> Vec<String> {
        self.games.iter().map(|(w, _)| w.join(" ")).collect()
    }

    /// Plays `word` (a move or `resign`) in the game under way: refused, and nothing changed,
    /// where the copy cannot play it.
    fn step(&mut self, word: String) -> Result<(), OperatorError> {
        let before = self.words.len();
        self.words.push(word);
        let mut played = self.replay();
        // The machine's forced move (no box for a position of one move) plays itself.
        while played.is_ok()
            && let Some(forced) = self.forced()
        {
            self.words.push(forced);
            played = self.replay();
        }
        if played.is_err() {
            self.words.truncate(before);
            let _ = self.replay();
        }
        played
    }

    /// The machine's one move where it is to move with no box (a forced move its boxes skip).
    fn forced(&self) -> Option<String> {
        let game = self.game();
        let pos = self.bout.position()?;
        let machine = game.to_move(pos) == self.machine().boxes.side();
        let mv = game
            .only_move(pos)
            .filter(|_| machine && self.bout.box_here().is_none())?;
        Some(game.format_move_at(pos, mv))
    }

    /// The game under way played again from the copy as it began, word by word; a game its
    /// words end is learned from as a record's line is (the first-box rule applied), and its
    /// end said.
    fn replay(&mut self) -> Result<(), OperatorError> {
        *self.bout.learner_mut() = self.at_start.clone();
        self.bout.abandon();
        self.bout.begin();
        self.over = None;
        for word in &self.words {
            let pos = self.position();
            let mv = match word.as_str() {
                RESIGN => None,
                w => Some(
                    (self.game().parse_move(&pos, w))
                        .map_err(|e| OperatorError::Move(e.to_string()))?,
                ),
            };
            let ply = self.bout.recorded_ply(mv).map_err(OperatorError::Move)?;
            if ply.ended.is_some() {
                return self.learn_whole();
            }
        }
        Ok(())
    }

    /// The game's words, which end it, learned from by the copy as it began.
    fn learn_whole(&mut self) -> Result<(), OperatorError> {
        *self.bout.learner_mut() = self.at_start.clone();
        let line = GameLine {
            line: self.games.len() + 1,
            words: self.words.clone(),
        };
        let revive = self.first_box == FirstBox::Revive;
        let learned = learn_game(&mut self.bout, &line, revive)
            .map_err(|e: RecordError| OperatorError::Move(e.message))?;
        let steps = (learned.boxes.iter())
            .map(|&b| {
                let before = self.at_start.beads_in(b);
                let holds = self.beads_of(b);
                let changes = (holds.iter().zip(before))
                    .filter(|(now, was)| now.count != was.get())
                    .map(|(now, was)| (now.clone(), now.count as i64 - was.get() as i64))
                    .collect();
                let revived = learned.revived.iter().any(|&(x, _)| x == b);
                BoxStep {
                    box_number: b + 1,
                    changes,
                    holds,
                    revived,
                }
            })
            .collect();
        let result = learned.ended.result;
        self.games.push((self.words.clone(), result));
        self.over = Some(EndOfGame {
            game: self.games.len(),
            result,
            why: learned.ended.why,
            steps,
            disagreements: learned.disagreements,
        });
        Ok(())
    }

    /// The next game begins (after a game's end was done at the boxes).
    pub fn next_game(&mut self) {
        if self.over.take().is_some() {
            self.at_start = self.machine().clone();
            self.words.clear();
            self.bout.abandon();
            self.bout.begin();
        }
    }

    /// Takes back the last step: the last move or bead of the game under way, or, at a game's
    /// end, the step that ended it (the game is then under way again).
    pub fn undo(&mut self) -> Result<(), OperatorError> {
        if self.words.is_empty() {
            return Err(OperatorError::NothingToUndo);
        }
        if self.over.is_some() {
            self.games.pop();
        }
        // A forced move goes with the step that led to it: the forced moves at the end, then
        // the step.
        while !self.words.is_empty() && self.was_forced(self.words.len() - 1) {
            self.words.pop();
        }
        self.words.pop();
        self.replay()
    }

    /// Whether word `i` of the game under way was the machine's forced move.
    fn was_forced(&self, i: usize) -> bool {
        let game = self.game();
        let mut pos = game.start();
        for w in &self.words[..i] {
            match game.parse_move(&pos, w) {
                Ok(mv) => pos = game.play(&pos, mv),
                Err(_) => return false,
            }
        }
        let boxes = &self.machine().boxes;
        game.to_move(&pos) == boxes.side()
            && game.only_move(&pos).is_some()
            && boxes.forced() == crate::learn::Forced::Skip
    }

    /// The position the game's words reach from the start (a resignation plays nothing).
    fn replayed_end(&self) -> G::Position {
        let game = self.game();
        let mut pos = game.start();
        for w in self.words.iter().filter(|w| *w != RESIGN) {
            match game.parse_move(&pos, w) {
                Ok(mv) => pos = game.play(&pos, mv),
                Err(_) => break,
            }
        }
        pos
    }

    /// The session's record: a header of its settings (`settings`, `key: value` lines) and one
    /// finished game a line.
    pub fn record(&self, settings: &[(&str, String)]) -> String {
        let mut out = String::new();
        for (k, v) in settings {
            out.push_str(&format!("{k}: {v}\n"));
        }
        for (words, _) in &self.games {
            out.push_str(&words.join(" "));
            out.push('\n');
        }
        out
    }

    /// The beads colour by colour: (colour number, in the boxes as the session began, now).
    pub fn inventory(&self) -> Vec<(usize, u64, u64)> {
        let count = |m: &Machine<G>| colour_counts(self.game(), m, self.colours);
        let (was, now) = (count(&self.at_session), count(self.machine()));
        let mut all: Vec<(usize, u64, u64)> = Vec::new();
        for (c, n) in was {
            all.push((c, n, 0));
        }
        for (c, n) in now {
            match all.iter_mut().find(|x| x.0 == c) {
                Some(x) => x.2 = n,
                None => all.push((c, 0, n)),
            }
        }
        all.sort_unstable();
        all
    }
}

/// The header of a session's record: the settings its copy was made with (`m` as the session
/// began) and its first-box rule; the same from the command line and the page.
pub fn record_header<G: GameDefaults>(game: &G, m: &Machine<G>, rule: FirstBox) -> String {
    let mut out = format!("# matchbox: the games of a real {}\n", game.name());
    out.push_str(&format!("game: {}\n", game.name()));
    if let Some(size) = game.size_key() {
        out.push_str(&format!("size: {size}\n"));
    }
    out.push_str(&format!("machine: {}\n", game.side_name(m.boxes.side())));
    out.push_str(&format!("symmetry: {}\n", m.boxes.mode()));
    out.push_str(&format!("beads: {}\n", m.initial));
    out.push_str(&format!("reinforcement: {}\n", m.reinforcement));
    let rule = match rule {
        FirstBox::Revive => "revive",
        FirstBox::Resign => "resign",
    };
    out.push_str(&format!("first_box: {rule}\n"));
    out.push_str(&format!("start: {}\n\n", m.digest()));
    out
}

/// The box `m` opens in `pos` seen in `frame` (box 0 where the move is forced and has no box),
/// how the board is turned from the box's drawing, and each bead colour of the box with the
/// square it stands for on the board: the move its label draws, turned back to the board.
pub fn open_box<G: GameDefaults>(
    game: &G,
    m: &Machine<G>,
    colours: BeadColours,
    pos: &G::Position,
    frame: Sym,
) -> Open {
    let (_, sym) = m.boxes.mode().box_view(game, pos, frame);
    let Some(b) = m.box_opened_in(game, pos, frame) else {
        return Open {
            box_number: 0,
            sym,
            beads: Vec::new(),
        };
    };
    let back = game.inverse(sym);
    let beads = (box_beads(game, m, colours, b).into_iter())
        .map(|bead| {
            let mv = game.transform_move(back, m.boxes.arrows(b)[bead.arrow]);
            (bead, game.format_move_at(pos, mv))
        })
        .collect();
    Open {
        box_number: b + 1,
        sym,
        beads,
    }
}

/// The beads of box `b` of `m`, colour by colour as its label prints them.
pub fn box_beads<G: GameDefaults>(
    game: &G,
    m: &Machine<G>,
    colours: BeadColours,
    b: usize,
) -> Vec<Bead> {
    (m.boxes.arrows(b).iter().zip(m.beads_in(b)).enumerate())
        .map(|(arrow, (&mv, n))| {
            let colour = colours.index(arrow, game.move_cell(mv));
            Bead {
                arrow,
                colour,
                name: palette::arrow(colour).name,
                letter: palette::letter(colour),
                count: n.get(),
                on_label: game.format_move(mv),
            }
        })
        .collect()
}

/// The beads of `m` colour by colour, as its labels colour them: (colour number, beads), for
/// every colour an arrow has.
pub fn colour_counts<G: GameDefaults>(
    game: &G,
    m: &Machine<G>,
    colours: BeadColours,
) -> Vec<(usize, u64)> {
    let mut counts: std::collections::BTreeMap<usize, u64> = Default::default();
    for b in 0..m.boxes.len() {
        for (k, (&mv, n)) in m.boxes.arrows(b).iter().zip(m.beads_in(b)).enumerate() {
            *counts
                .entry(colours.index(k, game.move_cell(mv)))
                .or_default() += n.get() as u64;
        }
    }
    counts.into_iter().collect()
}

/// A bead colour as the operator gives it: by its letter (one arrow's colour exactly) or by its
/// name (every colour number of that name: after ten, the colours repeat with new letters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Given {
    Letter(usize),
    Name(usize),
}

impl Given {
    /// Whether the colour number `colour` is the one given.
    pub fn fits(self, colour: usize) -> bool {
        match self {
            Given::Letter(i) => colour == i,
            Given::Name(n) => colour % palette::BEADS.len() == n,
        }
    }
    /// The colour's name ("orange").
    pub fn name(self) -> String {
        match self {
            Given::Letter(i) => format!("{} ({})", palette::arrow(i).name, palette::letter(i)),
            Given::Name(n) => palette::BEADS[n].name.to_string(),
        }
    }
}

/// The colour a name or a letter names (`orange`, `Sky blue`, `skyblue`, `A`, `b`, `AB`).
pub fn colour_named(text: &str) -> Result<Given, OperatorError> {
    let key = |s: &str| s.to_ascii_lowercase().replace([' ', '-', '_'], "");
    let t = key(text.trim());
    let by_name = (0..palette::BEADS.len()).find(|&i| key(palette::BEADS[i].name) == t);
    if let Some(n) = by_name {
        return Ok(Given::Name(n));
    }
    // Letters A … Z, then AA …: the colour numbers of boxes of up to 702 arrows.
    let letters = t.len() <= 2 && !t.is_empty() && t.bytes().all(|b| b.is_ascii_lowercase());
    if letters && let Some(i) = (0..702).find(|&i| key(&palette::letter(i)) == t) {
        return Ok(Given::Letter(i));
    }
    let all: Vec<String> = (0..palette::BEADS.len())
        .map(|i| format!("{} {}", palette::letter(i), palette::BEADS[i].name))
        .collect();
    Err(OperatorError::NotAColour(
        crate::text::quote(text.trim()).to_string(),
        all.join(", "),
    ))
}
