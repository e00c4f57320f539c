//! Turning command-line options (and an optional matchbox file) into a game, a machine and an
//! opponent, with every default made explicit so it can be printed and saved.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use super::{BoxSetArgs, GameArgs, GameName, LearnArgs};
use crate::game::hexapawn::{Hexapawn, Size};
use crate::game::{Game, Side};
use crate::learn::engine::{Arena, Machine, Table};
use crate::learn::{BoxSet, RNG_NAME, Reinforcement, StageBeads, SymmetryMode, rng_from_seed};
use crate::players::{Opponent, OpponentKind};
use crate::solve::{Solution, TieBreak};
use crate::store;

/// A game with the settings matchbox uses for it when the user gives none.
pub trait GameSetup: Game + Sized {
    fn default_side(&self) -> Side {
        Side::Second
    }
    fn default_symmetry(&self, side: Side) -> SymmetryMode;
    fn default_beads(&self) -> StageBeads {
        StageBeads::uniform(1)
    }
    fn default_reinforcement(&self) -> Reinforcement;
    /// The `size` key saved in files, for games that come in sizes.
    fn size_key(&self) -> Option<String>;
    /// The machine's historical name, if it has one (HER, HIM, MENACE).
    fn nickname(&self, side: Side, mode: SymmetryMode) -> Option<&'static str>;
}

impl GameSetup for Hexapawn {
    fn default_symmetry(&self, side: Side) -> SymmetryMode {
        if self.size() == Size::GARDNER && side == Side::Second {
            SymmetryMode::Gardner
        } else {
            SymmetryMode::Full
        }
    }
    fn default_reinforcement(&self) -> Reinforcement {
        Reinforcement::GARDNER
    }
    fn size_key(&self) -> Option<String> {
        Some(self.size().to_string())
    }
    fn nickname(&self, side: Side, _mode: SymmetryMode) -> Option<&'static str> {
        (self.size() == Size::GARDNER).then_some(match side {
            Side::First => "HIM",
            Side::Second => "HER",
        })
    }
}

/// Which game (and size) a command runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GameSpec {
    Hexapawn(Size),
}

/// Runs `$body` with `$g` bound to the game named by a [`GameSpec`].
macro_rules! with_game {
    ($spec:expr, |$g:ident| $body:expr) => {
        match $spec {
            $crate::cli::setup::GameSpec::Hexapawn(size) => {
                let $g = $crate::game::hexapawn::Hexapawn::new(size);
                $body
            }
        }
    };
}
pub(crate) use with_game;

/// The game from the command line, checked against the file being resumed, if any.
pub(crate) fn game_spec(args: &GameArgs, file: Option<&Path>) -> Result<GameSpec> {
    let from_file = match file {
        Some(path) => Some(store::file_game(path, &store::read(path)?)?),
        None => None,
    };
    if let Some(f) = &from_file
        && f.game != "hexapawn"
    {
        bail!(
            "{}: key `game`: unknown game `{}` (known: hexapawn)",
            file.map(Path::display)
                .map(|d| d.to_string())
                .unwrap_or_default(),
            f.game
        );
    }
    let file_size = from_file
        .as_ref()
        .and_then(|f| f.size.as_deref())
        .map(|s| s.parse::<Size>())
        .transpose()
        .with_context(|| {
            format!(
                "{}: key `size`",
                file.map(|p| p.display().to_string()).unwrap_or_default()
            )
        })?;
    let size = match (args.game, args.size) {
        (GameName::Octopawn, Some(s)) if s != Size::OCTOPAWN => {
            bail!("octopawn is hexapawn on 4x4; for {s} use `hexapawn --size {s}`")
        }
        (GameName::Octopawn, _) => Size::OCTOPAWN,
        (GameName::Hexapawn, Some(s)) => s,
        (GameName::Hexapawn, None) => file_size.unwrap_or(Size::GARDNER),
    };
    if let (Some(fs), Some(path)) = (file_size, file)
        && fs != size
    {
        bail!(
            "{}: the file holds a {fs} machine, but the command asks for {size}",
            path.display()
        );
    }
    Ok(GameSpec::Hexapawn(size))
}

/// The side and symmetry mode of a box set, with defaults.
pub(crate) fn box_set_choice<G: GameSetup>(
    game: &G,
    args: &BoxSetArgs,
) -> Result<(Side, SymmetryMode)> {
    let side = match &args.side {
        Some(s) => parse_side(game, s)?,
        None => game.default_side(),
    };
    Ok((
        side,
        args.symmetry.unwrap_or_else(|| game.default_symmetry(side)),
    ))
}

pub(crate) fn parse_side<G: Game>(game: &G, s: &str) -> Result<Side> {
    game.parse_side(s).with_context(|| {
        format!(
            "`{s}` is not a side of {} (use {}, {}, first or second)",
            game.name(),
            game.side_name(Side::First),
            game.side_name(Side::Second)
        )
    })
}

/// The learner a command starts from: fresh boxes, or a file's, with the command's settings.
pub(crate) fn build_machine<G: GameSetup>(game: &G, args: &LearnArgs) -> Result<Machine<G>> {
    Ok(match &args.boxes {
        Some(path) => {
            let mut m = store::from_yaml(game, path, &store::read(path)?)?;
            if let Some(s) = &args.set.side
                && parse_side(game, s)? != m.boxes.side()
            {
                bail!(
                    "{}: the file's learner plays {}, but --side asks for {s}",
                    path.display(),
                    game.side_name(m.boxes.side())
                );
            }
            if let Some(mode) = args.set.symmetry
                && mode != m.boxes.mode()
            {
                bail!(
                    "{}: the file's boxes use symmetry {}, but --symmetry asks for {mode}",
                    path.display(),
                    m.boxes.mode()
                );
            }
            if let Some(r) = args.reinforcement {
                m.reinforcement = r;
            }
            if let Some(b) = &args.beads {
                m.initial = b.clone();
            }
            if let Some(seed) = args.seed {
                m.seed = seed;
                m.rng = rng_from_seed(seed);
            }
            m
        }
        None => {
            let (side, mode) = box_set_choice(game, &args.set)?;
            let boxes = Arc::new(BoxSet::build(game, side, mode));
            Machine::new(
                boxes,
                args.beads.clone().unwrap_or_else(|| game.default_beads()),
                args.reinforcement
                    .unwrap_or_else(|| game.default_reinforcement()),
                args.seed.unwrap_or_else(rand::random),
            )
        }
    })
}

/// Everything a training command needs.
pub(crate) struct Setup<G: GameSetup> {
    pub arena: Arena<G>,
    pub machine: Machine<G>,
    pub table: Table,
    pub opponent: Opponent,
    pub tie_break: TieBreak,
    pub resumed_from: Option<PathBuf>,
}

impl<G: GameSetup> Setup<G> {
    pub fn new(game: G, args: &LearnArgs) -> Result<Setup<G>> {
        let machine = build_machine(&game, args)?;
        let arena = Arena::new(game);
        let opponent = match args.opponent {
            OpponentKind::Perfect => {
                let solution = Solution::solve(&arena.graph);
                Opponent::perfect(&arena.graph, &solution, args.tie_break)
            }
            OpponentKind::Random => Opponent::Random,
        };
        let table = Table::new(&arena, &machine.boxes, &opponent);
        Ok(Setup {
            arena,
            machine,
            table,
            opponent,
            tie_break: args.tie_break,
            resumed_from: args.boxes.clone(),
        })
    }

    pub fn game(&self) -> &G {
        &self.arena.game
    }

    fn opponent_text(&self) -> String {
        match self.opponent.kind() {
            OpponentKind::Perfect => format!("perfect (tie-break {})", self.tie_break),
            OpponentKind::Random => "random".into(),
        }
    }

    /// Every setting of the run, for the human header.
    pub fn header(&self, command: &str, extra: &[(&str, String)]) -> String {
        let g = self.game();
        let m = &self.machine;
        let side = m.boxes.side();
        let name = g
            .nickname(side, m.boxes.mode())
            .map(|n| format!(" ({n})"))
            .unwrap_or_default();
        let start = match &self.resumed_from {
            Some(p) => format!("{} after {} games", p.display(), m.games_played),
            None => "fresh boxes".into(),
        };
        let mut rows = vec![
            (
                "learner",
                format!(
                    "{}{name}: {} boxes, {} arrows, symmetry {}",
                    g.side_name(side),
                    m.boxes.len(),
                    m.boxes.arrow_count(),
                    m.boxes.mode()
                ),
            ),
            ("opponent", self.opponent_text()),
            ("reinforcement", m.reinforcement.describe()),
            (
                "initial beads",
                format!("{} per arrow (by learner move)", m.initial),
            ),
            ("seed", format!("{} ({RNG_NAME})", m.seed)),
            ("start", start),
        ];
        rows.extend(extra.iter().map(|(k, v)| (*k, v.clone())));
        let mut out = format!("matchbox {command} · {} {}\n", g.name(), g.variant());
        for (k, v) in rows {
            out.push_str(&format!("  {k:<14} {v}\n"));
        }
        out
    }

    /// Every setting of the run, for JSON output.
    pub fn settings_json(&self) -> Value {
        let g = self.game();
        let m = &self.machine;
        json!({
            "game": g.name(),
            "size": g.variant(),
            "learner": g.side_name(m.boxes.side()),
            "symmetry": m.boxes.mode().to_string(),
            "box_count": m.boxes.len(),
            "arrow_count": m.boxes.arrow_count(),
            "opponent": self.opponent.kind().to_string(),
            "tie_break": self.tie_break.to_string(),
            "reinforcement": m.reinforcement.to_string(),
            "initial_beads": m.initial.to_string(),
            "seed": m.seed,
            "rng": RNG_NAME,
            "start_games_played": m.games_played,
        })
    }
}
