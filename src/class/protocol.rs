//! The class server's messages, as JSON over a WebSocket: strict (unknown fields and types
//! refused), small, and typed on both sides.

use serde::{Deserialize, Serialize};

use crate::learn::GameResult;
use crate::learn::lesson::{Finished, GameId, GameView, HeldBox, Learned, PupilId};

/// The largest message a client may send, in bytes (a move is a few dozen).
pub const MAX_MESSAGE: usize = 4 * 1024;

/// What a pupil's page sends.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum FromPupil {
    /// Start a game against the class's machine. (Variants are structs, even empty ones:
    /// serde refuses unknown fields only there.)
    Start {},
    /// A move in the pupil's game, as the game writes moves (`b2`, `a2-a3`).
    Move { game: GameId, mv: String },
    /// While the class is the machine: draw a bead from the box of theirs that is waiting.
    Draw {},
}

/// What the teacher's page sends (only over the teacher's connection).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum FromTeacher {
    /// No more pupils may join (those in stay).
    PauseJoining {},
    ResumeJoining {},
    /// Saves the machine now.
    Save {},
    /// The class is the machine: the boxes dealt out among the pupils here.
    Deal {},
    /// A game of the class as the machine against the perfect player, on the projector.
    ClassGame {},
    /// The boxes collected: the class plays the machine again.
    Collect {},
    /// Ends the lesson: saves, tells every pupil, stops the server.
    EndLesson {},
    /// Draws the bead for the pupil whose box the class's game waits for.
    DrawFor {},
    /// The time a pupil has to tap before the server draws for them (none: it waits).
    TapTime {
        seconds: Option<u32>,
    },
    /// A fresh machine: every box refilled with its first beads (games under way abandoned).
    Reset {},
    /// The machine plays this side from now (a new machine; the pupils play the other).
    Side {
        side: crate::game::Side,
    },
    /// The opponent of the class's game as the machine: `perfect` or `random`.
    Opponent {
        opponent: crate::players::Opponent,
    },
}

/// A pupil on the teacher's leaderboard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub name: String,
    pub won: u64,
    pub drawn: u64,
    pub lost: u64,
    /// Whether their page is here now.
    #[serde(default)]
    pub here: bool,
}

/// The class's game as the machine, for the projector.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RelayInfo {
    pub game: GameId,
    pub board: Vec<String>,
    pub moves: Vec<String>,
    /// "Blue Fox 7 is drawing from box 12", or how the last game ended.
    pub said: String,
    /// Whether a game is under way.
    pub playing: bool,
    /// Whether it waits for a pupil's tap.
    #[serde(default)]
    pub waiting: bool,
    /// How long a box waits for its holder's tap before the server draws (none: it waits).
    #[serde(default)]
    pub tap_time: Option<u64>,
    /// The class's games as the machine: won, drawn, lost.
    pub score: (u64, u64, u64),
}

/// The most boxes the projector is sent tile by tile.
pub const MAX_TILES: usize = 2_000;

/// A box of the whole machine on the projector: its number, move number and each arrow's beads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tile {
    pub number: usize,
    pub move_number: u16,
    pub beads: Vec<u32>,
    /// For a small machine (at most [`CARDS`] boxes), drawn box by box: its position and its
    /// arrows, as its label prints them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub board: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arrows: Vec<String>,
}

/// The most boxes the projector draws whole (position and arrows), not as tiles.
pub const CARDS: usize = 40;

/// What the server sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToClient {
    /// To a pupil who joined (or came back): their number and name, the game and their side,
    /// and their key, which the page keeps to come back as the same pupil after a reload, a
    /// lost network or a restart of the server.
    Welcome {
        pupil: PupilId,
        name: String,
        game: String,
        side: String,
        #[serde(default)]
        key: String,
        /// Whether the pupil came back (their game or boxes follow) rather than joined anew.
        #[serde(default)]
        returning: bool,
    },
    /// A page that may not join now, and why: the code is wrong, joining is paused, too many
    /// wrong codes (wait), the class is full, the lesson is over. `retry_in`: seconds after
    /// which trying again may work (none: it will not by itself); `forget`: the pupil's key is
    /// not known here (the page forgets it and joins with the code).
    Refused {
        message: String,
        #[serde(default)]
        retry_in: Option<u32>,
        #[serde(default)]
        forget: bool,
    },
    /// To the projector: how pupils join (the code, the addresses the phones may reach, the
    /// pupils' address as a QR code in SVG).
    Join {
        code: String,
        addresses: Vec<String>,
        qr: String,
    },
    /// To the projector: something the teacher should see (saved, an error, not dealt: …).
    Notice { message: String },
    /// A pupil's game after their move (and the machine's answer).
    Game {
        game: GameId,
        side: String,
        position: String,
        /// The position as a diagram, rank by rank.
        board: Vec<String>,
        legal: Vec<String>,
        machine_move: Option<String>,
        over: Option<Outcome>,
    },
    /// The lesson for the projector: the class's score, the pupils, the last game finished.
    Class {
        game: String,
        machine: String,
        joining: bool,
        pupils: Vec<Standing>,
        /// The machine's wins, draws and losses in the lesson.
        score: (u64, u64, u64),
        games_played: u64,
        under_way: usize,
        last: Option<String>,
        /// While the class is the machine: its game, who is drawing, its score.
        relay: Option<RelayInfo>,
        /// The machine's learning curve in the lesson (wins − losses after each game; at most
        /// 400 points, evenly spaced).
        #[serde(default)]
        curve: Vec<i64>,
        /// The side the machine plays, and the names of the first and second sides (`x`, `o`).
        side: crate::game::Side,
        side_names: (String, String),
        /// Who the machine plays in the class's game as the machine.
        opponent: crate::players::Opponent,
        /// The whole machine, box by box (sent at most twice a second, and not for a machine of
        /// more than [`MAX_TILES`] boxes; the page keeps the last it had).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        machine_boxes: Option<Vec<Tile>>,
        /// The boxes the last finished game drew from, as they stand now.
        #[serde(default)]
        used: Vec<crate::learn::lesson::HeldBox>,
    },
    /// While the class is the machine, to a pupil: the boxes they hold and their beads, and
    /// what to do now ("your box 7: draw a bead", "take 1 bead b2 out of box 7").
    Boxes {
        boxes: Vec<HeldBox>,
        /// The box of theirs waiting for a bead (its number), if one is.
        waiting: Option<usize>,
        said: String,
        /// The bead they have just drawn (their tap's answer), for the phone to show it
        /// leaving the box.
        #[serde(default)]
        drawn: Option<BeadDrawn>,
    },
    /// The boxes are collected: the pupil plays the machine again.
    Collected {},
    /// A command refused: the lesson is unchanged.
    Error { message: String },
    /// The lesson is over.
    Ended { message: String },
}

/// The bead a pupil drew from a box they hold: the box (its number, from 1), the arrow (from 0,
/// in the box's order), the bead's move as the box shows it, and the move played on the board
/// (different when the box holds the board's mirror image or a turn of it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BeadDrawn {
    pub number: usize,
    pub arrow: usize,
    pub bead: String,
    pub mv: String,
}

/// A finished game, for the pupil who played it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The pupil's result: win, draw or loss.
    pub result: GameResult,
    /// A sentence: "your win took 3 beads: box 1 b2, box 8 c3, box 57 a1".
    pub words: String,
    /// Why the game ended: "O has three in a row", "MENACE resigns: its box 12 is empty".
    #[serde(default)]
    pub why: String,
    /// Each box the machine drew from: its number, the arrow as its label prints it, the move
    /// it made on the board, the change in beads.
    pub learned: Vec<Learned>,
}

impl Outcome {
    pub fn of(f: &Finished) -> Outcome {
        let changed: Vec<&Learned> = f.learned.iter().filter(|l| l.change != 0).collect();
        let net: i64 = changed.iter().map(|l| l.change).sum();
        let (word, it) = match f.result {
            GameResult::Win => ("your win", "the machine"),
            GameResult::Draw => ("your draw", "the machine"),
            GameResult::Loss => ("its win", "it"),
        };
        let boxes: Vec<String> = changed.iter().map(|l| l.words()).collect();
        let words = match (net, changed.is_empty()) {
            (_, true) => format!("{word} changed no beads"),
            (n, false) if n < 0 => format!(
                "{word} took {} from the machine: {}",
                crate::text::count(n.unsigned_abs(), "bead", "beads"),
                boxes.join(", ")
            ),
            (n, false) => format!(
                "{word} gave {it} {}: {}",
                crate::text::count(n.unsigned_abs(), "bead", "beads"),
                boxes.join(", ")
            ),
        };
        Outcome {
            result: f.result,
            words,
            why: f.why.clone(),
            learned: f.learned.clone(),
        }
    }
}

impl ToClient {
    /// A pupil's game as the page shows it.
    pub fn game(v: GameView) -> ToClient {
        ToClient::Game {
            game: v.game,
            side: v.side,
            position: v.position,
            board: v.board,
            legal: v.legal,
            machine_move: v.machine_move,
            over: v.over.as_ref().map(Outcome::of),
        }
    }
    pub fn error(message: impl std::fmt::Display) -> ToClient {
        ToClient::Error {
            message: message.to_string(),
        }
    }
    pub fn json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| r#"{"type":"error","message":"?"}"#.into())
    }
}
