//! The games, one folder each, and the one registry that names them.
//!
//! A game's folder holds everything about it: its rules (a [`crate::game::Game`]), the defaults its
//! learners get ([`crate::learn::GameDefaults`]), its board on the screen
//! ([`crate::tui::board::BoardView`]) and on a printed label ([`crate::labels::LabelView`]). This
//! file parses and prints a game with its variant ([`GameKind`]) and dispatches from a kind to the
//! typed game ([`with_game!`]). A new game is one folder plus one entry here.

pub mod arimaa;
pub mod havannah;
pub mod hexapawn;
pub mod tictactoe;

use std::fmt;

use crate::game::GameError;
use havannah::{Base, Variant};
use hexapawn::Size;

/// The game names the command line and files accept.
pub const NAMES: &[&str] = &["hexapawn", "octopawn", "tictactoe", "havannah"];

/// Other names accepted for games.
pub const ALIASES: &[&str] = &["noughts", "noughts-and-crosses"];

/// One line per game, for help texts.
pub const ABOUT: &[(&str, &str)] = &[
    (
        "hexapawn",
        "Hexapawn on an R×C board, --size RxC from 2x2 to 8x8 (3x3: Gardner's HER)",
    ),
    ("octopawn", "Hexapawn on 4×4"),
    (
        "tictactoe",
        "noughts and crosses, Michie's MENACE (also: noughts)",
    ),
    (
        "havannah",
        "Havannah on a hexagonal board, --size N for base N from 2 to 10 (2 unless given)",
    ),
];

/// A game and its variant: everything needed to build the typed game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    Hexapawn(Size),
    TicTacToe,
    Havannah(Variant),
}

impl GameKind {
    /// Parses a game name (any case; `octopawn` and `noughts` are aliases) and its `--size`, if
    /// given. With no size, the game's default size (or `default_size`, e.g. from a file).
    pub fn parse(name: &str, size: Option<&str>) -> Result<GameKind, GameError> {
        let name = name.trim().to_ascii_lowercase();
        let size = size.map(str::trim);
        match name.as_str() {
            "hexapawn" => Ok(GameKind::Hexapawn(match size {
                Some(s) => s.parse()?,
                None => Size::GARDNER,
            })),
            "octopawn" => match size.map(str::parse::<Size>).transpose()? {
                Some(s) if s != Size::OCTOPAWN => Err(GameError::BadVariant(format!(
                    "octopawn is hexapawn on 4x4; for {s} use `hexapawn --size {s}`"
                ))),
                _ => Ok(GameKind::Hexapawn(Size::OCTOPAWN)),
            },
            "tictactoe" | "noughts" | "noughts-and-crosses" => match size {
                Some(_) => Err(GameError::BadVariant(
                    "noughts and crosses has no --size".into(),
                )),
                None => Ok(GameKind::TicTacToe),
            },
            "havannah" => Ok(GameKind::Havannah(match size {
                Some(s) => s.parse()?,
                None => Variant::plain(Base::new(2)?),
            })),
            _ => Err(GameError::BadVariant(format!(
                "unknown game `{}` (known: {})",
                crate::text::quote(&name),
                NAMES.join(", ")
            ))),
        }
    }

    /// The game's name in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Hexapawn(_) => "hexapawn",
            GameKind::TicTacToe => "tictactoe",
            GameKind::Havannah(_) => "havannah",
        }
    }

    /// The `--size` value, for games that come in sizes.
    pub fn size(self) -> Option<String> {
        match self {
            GameKind::Hexapawn(s) => Some(s.to_string()),
            GameKind::TicTacToe => None,
            GameKind::Havannah(v) => Some(v.to_string()),
        }
    }

    /// The same game with the optional rules of the command line (`--swap`, `--handicap K`),
    /// which only Havannah has.
    pub fn with_rules(self, swap: bool, handicap: Option<u8>) -> Result<GameKind, GameError> {
        match self {
            GameKind::Havannah(v) => Ok(GameKind::Havannah(Variant::new(
                v.base,
                swap || v.swap,
                handicap.unwrap_or(v.handicap),
            )?)),
            _ if swap || handicap.is_some() => Err(GameError::BadVariant(format!(
                "{} has no swap rule and no handicap",
                self.name()
            ))),
            other => Ok(other),
        }
    }

    /// The same game with the size a file gives, if the game comes in sizes.
    pub fn with_size(self, size: &str) -> Result<GameKind, GameError> {
        GameKind::parse(self.name(), Some(size))
    }
}

impl fmt::Display for GameKind {
    /// As typed on the command line: `hexapawn --size 4x4`, `tictactoe`, `havannah --size 4 --swap`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameKind::Havannah(v) => {
                write!(f, "havannah --size {}", v.base)?;
                if v.swap {
                    f.write_str(" --swap")?;
                }
                if v.handicap > 0 {
                    write!(f, " --handicap {}", v.handicap)?;
                }
                Ok(())
            }
            _ => match self.size() {
                Some(s) => write!(f, "{} --size {s}", self.name()),
                None => f.write_str(self.name()),
            },
        }
    }
}

/// Runs `$body` with `$g` bound to the typed game of a [`GameKind`]: the one dispatch from a kind
/// to typed code.
#[macro_export]
macro_rules! with_game {
    ($kind:expr, |$g:ident| $body:expr) => {
        match $kind {
            $crate::games::GameKind::Hexapawn(size) => {
                let $g = $crate::games::hexapawn::Hexapawn::new(size);
                $body
            }
            $crate::games::GameKind::TicTacToe => {
                let $g = $crate::games::tictactoe::TicTacToe;
                $body
            }
            $crate::games::GameKind::Havannah(variant) => {
                let $g = $crate::games::havannah::Havannah::with(variant);
                $body
            }
        }
    };
}
pub use with_game;
