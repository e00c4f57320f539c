//! The games, one folder each, and the one registry that names them.
//!
//! A game's folder holds everything about it: its rules (a [`crate::game::Game`]), the defaults its
//! learners get ([`crate::learn::GameDefaults`]), its board on the screen
//! ([`crate::view::board::BoardView`]) and on a printed label ([`crate::labels::LabelView`]). This
//! file parses and prints a game with its variant ([`GameKind`]) and dispatches from a kind to the
//! typed game ([`with_game!`]). A new game is one folder plus one entry here.

pub mod any;
pub mod arimaa;
pub mod havannah;
pub mod hexapawn;
pub mod tictactoe;

use std::fmt;

use crate::game::{GameError, Side};
use havannah::{Base, Variant};
use hexapawn::Size;

/// One game as the command line and files name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The name in files and on the command line.
    pub name: &'static str,
    /// Other names accepted for it (the historic machines' among them).
    pub aliases: &'static [&'static str],
    /// One line for help texts.
    pub about: &'static str,
    /// The game's name in a list for people ("Noughts and crosses").
    pub title: &'static str,
    /// The game a learner plays when the name is given with no size.
    pub kind: GameKind,
    /// The machines of history this game has, the first its default learner's.
    pub machines: &'static [Historic],
    /// The other sizes the page's game list offers.
    pub page_sizes: &'static [&'static str],
}

/// The nickname history gave the machine of `game` (a registry name) playing `side`, if it has
/// one: every game's `nickname` comes from the registry, so each name is written once.
pub(crate) fn historic_nickname(game: &str, side: Side) -> Option<&'static str> {
    let entry = GAMES.iter().find(|e| e.name == game)?;
    (entry.machines.iter())
        .find(|h| h.side == side)
        .map(|h| h.nickname)
}

/// A machine of history: the alias that names it, its nickname and the side it learns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Historic {
    pub alias: &'static str,
    pub nickname: &'static str,
    pub side: Side,
}

/// Every game, once: the one list every name list, help text, parse and the page's game list
/// come from.
pub const GAMES: &[Entry] = &[
    Entry {
        name: "hexapawn",
        aliases: &["her", "him"],
        about: "Hexapawn on an R×C board, --size RxC from 2x2 to 8x8 (3x3: Gardner's HER)",
        title: "Hexapawn",
        kind: GameKind::Hexapawn(Size::GARDNER),
        machines: &[
            Historic {
                alias: "her",
                nickname: "HER",
                side: Side::Second,
            },
            Historic {
                alias: "him",
                nickname: "HIM",
                side: Side::First,
            },
        ],
        page_sizes: &[],
    },
    Entry {
        name: "octopawn",
        aliases: &[],
        about: "Hexapawn on 4×4",
        title: "Octopawn",
        kind: GameKind::Hexapawn(Size::OCTOPAWN),
        machines: &[],
        page_sizes: &[],
    },
    Entry {
        name: "tictactoe",
        aliases: &["tic-tac-toe", "noughts", "noughts-and-crosses", "menace"],
        about: "noughts and crosses, Michie's MENACE",
        title: "Noughts and crosses",
        kind: GameKind::TicTacToe,
        machines: &[Historic {
            alias: "menace",
            nickname: "MENACE",
            side: Side::First,
        }],
        page_sizes: &[],
    },
    Entry {
        name: "havannah",
        aliases: &[],
        about: "Havannah on a hexagonal board, --size N for base N from 2 to 10 (2 unless given)",
        title: "Havannah",
        kind: GameKind::Havannah(Variant::SMALLEST),
        machines: &[],
        page_sizes: &["3", "4"],
    },
    Entry {
        name: "arimaa",
        aliases: &["mini-arimaa"],
        about: "Arimaa: the full game (8×8) for moves, replay and count; --size 4 (mini-arimaa) for learners",
        title: "Mini-Arimaa",
        kind: GameKind::MiniArimaa,
        machines: &[],
        page_sizes: &[],
    },
];

/// The cart-pole of BOXES, named beside the games (its entry is in its own module, below the
/// stores, which name it too).
pub use crate::cartpole::{CARTPOLE, NoBoard};

impl GameKind {
    /// Every game a learner plays, one a registry entry, in its default size: what every "every
    /// game" test and list goes through.
    pub const ALL: [GameKind; GAMES.len()] = {
        let mut out = [GameKind::TicTacToe; GAMES.len()];
        let mut i = 0;
        while i < GAMES.len() {
            out[i] = GAMES[i].kind;
            i += 1;
        }
        out
    };
}

/// The machine of history a name stands for (`her`, `him`, `menace`), with its game's entry.
pub fn historic(typed: &str) -> Option<(&'static Entry, &'static Historic)> {
    let typed = typed.trim().to_ascii_lowercase();
    GAMES
        .iter()
        .find_map(|e| e.machines.iter().find(|h| h.alias == typed).map(|h| (e, h)))
}

/// The learner's side a name stands for, where it names a machine of history (HER black, HIM
/// white, MENACE x), as its game names the side: decided here once, for the command line and
/// the page alike.
pub fn alias_side(typed: &str) -> Option<&'static str> {
    let (entry, h) = historic(typed)?;
    Some(with_game!(entry.kind, |g| crate::game::Game::side_name(
        &g, h.side
    )))
}

/// The page's game list: each choice's address value (`havannah&size=3`) and its words
/// (`Havannah base 3`), from [`GAMES`]: a game, then its other historic machines and sizes.
pub fn page_choices() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for e in GAMES {
        let value = match e.kind {
            GameKind::MiniArimaa => format!("{}&size=4", e.name),
            _ => e.name.to_string(),
        };
        match e.machines {
            [] => out.push((value, e.title.to_string())),
            [first, rest @ ..] => {
                out.push((value, format!("{} ({})", e.title, first.nickname)));
                for h in rest {
                    out.push((h.alias.to_string(), format!("{} ({})", e.title, h.nickname)));
                }
            }
        }
        for size in e.page_sizes {
            out.push((
                format!("{}&size={size}", e.name),
                format!("{} base {size}", e.title),
            ));
        }
    }
    out
}

/// The name a title gives the game typed as `typed`: the typed name where it is another name of
/// the game (`noughts`, `tic-tac-toe`), not where it names a machine (`her`, `menace`: their
/// titles name the machine) or is the game's own.
pub fn shown_name(typed: &str) -> Option<String> {
    let (entry, typed) = entry(typed)?;
    (typed != entry.name && alias_side(&typed).is_none()).then_some(typed)
}

/// The name or alias closest to `typed` (at most two letters off), for "did you mean".
pub fn nearest(typed: &str) -> Option<&'static str> {
    let typed = typed.trim().to_ascii_lowercase();
    let cartpole = std::iter::once(CARTPOLE.name).chain(CARTPOLE.aliases.iter().copied());
    GAMES
        .iter()
        .flat_map(|g| std::iter::once(g.name).chain(g.aliases.iter().copied()))
        .chain(cartpole)
        .map(|n| (distance(&typed, n), n))
        .filter(|&(d, _)| d <= 2)
        .min_by_key(|&(d, _)| d)
        .map(|(_, n)| n)
}

/// Edits (insert, delete, change a letter) from `a` to `b`.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(here + 1);
            prev = here;
        }
    }
    row[b.len()]
}

/// The game names the command line and files accept (aliases aside).
pub fn names() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.name).collect()
}

/// Every name the commands accept: the games' and the cart-pole's (aliases aside).
pub fn every_name() -> Vec<&'static str> {
    let mut out = names();
    out.push(CARTPOLE.name);
    out
}

/// The registry's entry for a name or an alias (any case, spaces trimmed), and the name as
/// typed, lower-cased.
pub fn entry(name: &str) -> Option<(&'static Entry, String)> {
    let typed = name.trim().to_ascii_lowercase();
    let e = GAMES
        .iter()
        .find(|g| g.name == typed || g.aliases.contains(&typed.as_str()))?;
    Some((e, typed))
}

/// The help of a GAME argument: every game with its line, from [`GAMES`].
pub fn game_help() -> String {
    let games: Vec<String> = GAMES
        .iter()
        .map(|g| {
            let aliases = match g.aliases {
                [] => String::new(),
                a => format!(" (also {})", a.join(", ")),
            };
            format!("{}{aliases}: {}", g.name, g.about)
        })
        .collect();
    let c = CARTPOLE;
    format!(
        "The game: {}; {} (also {}): {}: {} take it",
        games.join("; "),
        c.name,
        c.aliases.join(", "),
        c.about,
        c.command_list()
    )
}

/// Whether `name` (or an alias) names Arimaa, full or mini, whatever its size.
pub fn is_arimaa_name(name: &str) -> bool {
    entry(name).is_some_and(|(e, _)| e.name == "arimaa")
}

/// What a name on the command line stands for: a game a learner can play, or full Arimaa, whose
/// rules the commands `moves`, `replay` and `count` take as they are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Named {
    Game(GameKind),
    FullArimaa,
}

impl Named {
    /// Parses a name and its `--size`, as [`GameKind::parse`] does, with full Arimaa too.
    pub fn parse(name: &str, size: Option<&str>) -> Result<Named, GameError> {
        let is_arimaa = is_arimaa_name(name);
        let full = matches!(size.map(str::trim), None | Some("8" | "8x8"));
        let mini = entry(name).is_some_and(|(_, typed)| typed == "mini-arimaa");
        if is_arimaa && full && !mini {
            return Ok(Named::FullArimaa);
        }
        GameKind::parse(name, size).map(Named::Game)
    }
    /// Whether it is Arimaa, full or mini.
    pub fn is_arimaa(self) -> bool {
        matches!(self, Named::FullArimaa | Named::Game(GameKind::MiniArimaa))
    }
}

/// Why full Arimaa has no matchbox machine, for the commands that would need one.
pub const FULL_ARIMAA: &str = "full Arimaa cannot be learned with matchboxes (about 17,000 turns a position, 64,864,800 setups a side: see `matchbox count arimaa`); its rules are in `moves arimaa` and `replay arimaa`; for a learner use `arimaa --size 4` (mini-arimaa)";

/// A game and its variant: everything needed to build the typed game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    Hexapawn(Size),
    TicTacToe,
    Havannah(Variant),
    /// Mini-Arimaa (4×4); the full game has no learner, only its rules (`arimaa::rules`).
    MiniArimaa,
}

impl GameKind {
    /// Parses a game name (any case; `octopawn` and `noughts` are aliases) and its `--size`, if
    /// given. With no size, the game's default size (or `default_size`, e.g. from a file).
    pub fn parse(name: &str, size: Option<&str>) -> Result<GameKind, GameError> {
        let Some((entry, typed)) = entry(name) else {
            if CARTPOLE.is_named(name) {
                return Err(GameError::BadVariant(CARTPOLE.refusal()));
            }
            let hint = nearest(name)
                .map(|n| format!("did you mean `{n}`? "))
                .unwrap_or_default();
            return Err(GameError::BadVariant(format!(
                "unknown game `{}` ({hint}known: {})",
                crate::text::quote(&name.trim().to_ascii_lowercase()),
                names().join(", ")
            )));
        };
        let size = size.map(str::trim);
        match (entry.name, typed.as_str()) {
            ("hexapawn", _) => Ok(GameKind::Hexapawn(match size {
                Some(s) => s.parse()?,
                None => Size::GARDNER,
            })),
            ("octopawn", _) => match size.map(str::parse::<Size>).transpose()? {
                Some(s) if s != Size::OCTOPAWN => Err(GameError::BadVariant(format!(
                    "octopawn is hexapawn on 4x4; for {s} use `hexapawn --size {s}`"
                ))),
                _ => Ok(GameKind::Hexapawn(Size::OCTOPAWN)),
            },
            ("tictactoe", _) => match size {
                Some(_) => Err(GameError::BadVariant(
                    "noughts and crosses has no --size".into(),
                )),
                None => Ok(GameKind::TicTacToe),
            },
            ("havannah", _) => Ok(GameKind::Havannah(match size {
                Some(s) => s.parse()?,
                None => Variant::plain(Base::new(2)?),
            })),
            ("arimaa", "mini-arimaa") => match size {
                None | Some("4" | "4x4") => Ok(GameKind::MiniArimaa),
                Some(_) => Err(GameError::BadVariant("mini-arimaa is 4x4 only".into())),
            },
            ("arimaa", _) => match size {
                Some("4" | "4x4") => Ok(GameKind::MiniArimaa),
                None | Some("8" | "8x8") => Err(GameError::BadVariant(FULL_ARIMAA.into())),
                Some(s) => Err(GameError::BadVariant(format!(
                    "arimaa comes in --size 8 (the full game) and --size 4 (mini-arimaa), not `{}`",
                    crate::text::quote(s)
                ))),
            },
            (other, _) => Err(GameError::BadVariant(format!(
                "{other} is in the registry but has no parser"
            ))),
        }
    }

    /// The game's name in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Hexapawn(_) => "hexapawn",
            GameKind::TicTacToe => "tictactoe",
            GameKind::Havannah(_) => "havannah",
            GameKind::MiniArimaa => "arimaa",
        }
    }

    /// The `--size` value, for games that come in sizes.
    pub fn size(self) -> Option<String> {
        match self {
            GameKind::Hexapawn(s) => Some(s.to_string()),
            GameKind::TicTacToe => None,
            GameKind::Havannah(v) => Some(v.to_string()),
            GameKind::MiniArimaa => Some("4".into()),
        }
    }

    /// The same game with the optional rules of the command line (`--swap`, `--handicap K`),
    /// which only Havannah has.
    pub fn with_rules(self, swap: bool, handicap: Option<u8>) -> Result<GameKind, GameError> {
        match (self, handicap) {
            (GameKind::Havannah(_), Some(0)) => Err(GameError::BadVariant(
                "havannah --handicap 0: a handicap is 2 stones or more (leave it out for none)"
                    .into(),
            )),
            (GameKind::Havannah(v), Some(k)) if v.handicap > 0 && v.handicap != k => {
                Err(GameError::BadVariant(format!(
                    "havannah: --size says handicap {} and --handicap says {k}; give it once",
                    v.handicap
                )))
            }
            _ => self.with_rules_checked(swap, handicap),
        }
    }

    fn with_rules_checked(self, swap: bool, handicap: Option<u8>) -> Result<GameKind, GameError> {
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
            $crate::games::GameKind::MiniArimaa => {
                let $g = $crate::games::arimaa::MiniArimaa::new();
                $body
            }
        }
    };
}
pub use with_game;
