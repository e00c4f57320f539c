//! Turning command-line options (and an optional matchbox file) into a game, a machine and an
//! opponent, with every default made explicit so it can be printed and saved.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use super::{BoxSetArgs, GameArgs, GameName, LearnArgs, OpponentSpec};
use crate::game::hexapawn::{Hexapawn, Size};
use crate::game::tictactoe::TicTacToe;
use crate::game::{Game, Side};
use crate::learn::engine::{Arena, Machine, RivalPlan, Table};
use crate::learn::{BoxSet, Forced, Preset, RNG_NAME, SymmetryMode, rng_from_seed};
use crate::players::{Opponent, OpponentKind};
use crate::solve::{Solution, TieBreak};
use crate::store;

/// A game with the settings matchbox uses for it when the user gives none.
pub trait GameSetup: Game + Sized + Clone {
    fn default_side(&self) -> Side {
        Side::Second
    }
    fn default_symmetry(&self, side: Side) -> SymmetryMode;
    /// Beads and reinforcement when none are given.
    fn default_preset(&self) -> Preset;
    /// Whether positions with a single legal move get a box.
    fn default_forced(&self) -> Forced {
        Forced::Include
    }
    /// The symmetry modes worth counting for this game.
    fn symmetry_modes(&self) -> &'static [SymmetryMode] {
        &[SymmetryMode::Full, SymmetryMode::None]
    }
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
    fn default_preset(&self) -> Preset {
        Preset::Gardner
    }
    fn symmetry_modes(&self) -> &'static [SymmetryMode] {
        &[
            SymmetryMode::Full,
            SymmetryMode::Gardner,
            SymmetryMode::None,
        ]
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

impl GameSetup for TicTacToe {
    fn default_side(&self) -> Side {
        Side::First
    }
    fn default_symmetry(&self, _side: Side) -> SymmetryMode {
        SymmetryMode::Full
    }
    fn default_preset(&self) -> Preset {
        Preset::Michie
    }
    fn default_forced(&self) -> Forced {
        Forced::Skip
    }
    fn size_key(&self) -> Option<String> {
        None
    }
    fn nickname(&self, _side: Side, _mode: SymmetryMode) -> Option<&'static str> {
        Some("MENACE")
    }
}

/// Which game (and size) a command runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GameSpec {
    Hexapawn(Size),
    TicTacToe,
}

/// Runs `$body` with `$g` bound to the game named by a [`GameSpec`].
macro_rules! with_game {
    ($spec:expr, |$g:ident| $body:expr) => {
        match $spec {
            $crate::cli::setup::GameSpec::Hexapawn(size) => {
                let $g = $crate::game::hexapawn::Hexapawn::new(size);
                $body
            }
            $crate::cli::setup::GameSpec::TicTacToe => {
                let $g = $crate::game::tictactoe::TicTacToe;
                $body
            }
        }
    };
}
pub(crate) use with_game;

/// The game from the command line, checked against the file being resumed, if any.
pub(crate) fn game_spec(args: &GameArgs, file: Option<&Path>) -> Result<GameSpec> {
    let shown = || file.map(|p| p.display().to_string()).unwrap_or_default();
    let from_file = match file {
        Some(path) => Some(store::file_game(path, &store::read(path)?)?),
        None => None,
    };
    let wanted = match args.game {
        GameName::Hexapawn | GameName::Octopawn => "hexapawn",
        GameName::Tictactoe => "tictactoe",
    };
    if let Some(f) = &from_file
        && f.game != wanted
    {
        if !["hexapawn", "tictactoe"].contains(&f.game.as_str()) {
            bail!(
                "{}: key `game`: unknown game `{}` (known: hexapawn, tictactoe)",
                shown(),
                f.game
            );
        }
        bail!(
            "{}: key `game`: the file is for {}, not {wanted}",
            shown(),
            f.game
        );
    }
    if args.game == GameName::Tictactoe {
        if args.size.is_some() {
            bail!("noughts and crosses has no --size");
        }
        return Ok(GameSpec::TicTacToe);
    }
    let file_size = from_file
        .as_ref()
        .and_then(|f| f.size.as_deref())
        .map(|s| s.parse::<Size>())
        .transpose()
        .with_context(|| format!("{}: key `size`", shown()))?;
    let size = match (args.game, args.size) {
        (GameName::Octopawn, Some(s)) if s != Size::OCTOPAWN => {
            bail!("octopawn is hexapawn on 4x4; for {s} use `hexapawn --size {s}`")
        }
        (GameName::Octopawn, _) => Size::OCTOPAWN,
        (_, Some(s)) => s,
        (_, None) => file_size.unwrap_or(Size::GARDNER),
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

/// Above this bound on positions, a game is not enumerated (memory and time run out long before).
const ENUMERABLE_BOUND: f64 = 1e11;

/// Refuses games too big to enumerate, with a pointer to `count`.
pub(crate) fn check_enumerable<G: Game>(game: &G) -> Result<()> {
    if let Some((bound, _)) = game.position_bound(Side::First)
        && bound > ENUMERABLE_BOUND
    {
        bail!(
            "{} {} is too big to enumerate here (up to {bound:.1e} positions); `matchbox count {} --size {}` estimates how many boxes it needs",
            game.name(),
            game.variant(),
            game.name(),
            game.variant()
        );
    }
    Ok(())
}

/// The box set a command asks for, with defaults.
pub(crate) fn box_set_choice<G: GameSetup>(game: &G, args: &BoxSetArgs) -> Result<BoxSet<G>> {
    check_enumerable(game)?;
    let side = match &args.side {
        Some(s) => parse_side(game, s)?,
        None => game.default_side(),
    };
    let mode = args.symmetry.unwrap_or_else(|| game.default_symmetry(side));
    Ok(BoxSet::build_with(
        game,
        side,
        mode,
        forced_choice(game, args),
    ))
}

fn forced_choice<G: GameSetup>(game: &G, args: &BoxSetArgs) -> Forced {
    match (args.include_forced, args.skip_forced) {
        (true, _) => Forced::Include,
        (_, true) => Forced::Skip,
        _ => game.default_forced(),
    }
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
    check_enumerable(game)?;
    Ok(match &args.machine.boxes {
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
            if (args.set.include_forced || args.set.skip_forced)
                && forced_choice(game, &args.set) != m.boxes.forced()
            {
                bail!(
                    "{}: the file's boxes {} forced moves, which the command's option contradicts",
                    path.display(),
                    m.boxes.forced()
                );
            }
            if let Some(p) = args.machine.preset {
                m.reinforcement = p.reinforcement();
                m.initial = p.beads();
            }
            if let Some(r) = args.machine.reinforcement {
                m.reinforcement = r;
            }
            if let Some(b) = &args.machine.beads {
                m.initial = b.clone();
            }
            if let Some(seed) = args.machine.seed {
                m.seed = seed;
                m.rng = rng_from_seed(seed);
            }
            m
        }
        None => {
            let boxes = Arc::new(box_set_choice(game, &args.set)?);
            let preset = args.machine.preset.unwrap_or_else(|| game.default_preset());
            Machine::new(
                boxes,
                args.machine.beads.clone().unwrap_or_else(|| preset.beads()),
                args.machine
                    .reinforcement
                    .unwrap_or_else(|| preset.reinforcement()),
                args.machine.seed.unwrap_or_else(rand::random),
            )
        }
    })
}

/// The second machine of a learner-against-learner run: the file's, or a fresh one for the other
/// side with the game's defaults, seeded from the learner's seed.
fn rival_machine<G: GameSetup>(
    game: &G,
    learner: &Machine<G>,
    file: Option<&Path>,
) -> Result<Machine<G>> {
    let side = learner.boxes.side().other();
    match file {
        Some(path) => {
            let m = store::from_yaml(game, path, &store::read(path)?)?;
            if m.boxes.side() != side {
                bail!(
                    "{}: the opponent machine must play {}, but it plays {}",
                    path.display(),
                    game.side_name(side),
                    game.side_name(m.boxes.side())
                );
            }
            Ok(m)
        }
        None => {
            let preset = game.default_preset();
            let boxes = BoxSet::build_with(
                game,
                side,
                game.default_symmetry(side),
                game.default_forced(),
            );
            Ok(Machine::new(
                Arc::new(boxes),
                preset.beads(),
                preset.reinforcement(),
                crate::learn::derive_seed(learner.seed, u64::MAX),
            ))
        }
    }
}

/// Everything a training command needs.
pub(crate) struct Setup<G: GameSetup> {
    pub arena: Arena<G>,
    pub machine: Machine<G>,
    pub table: Table,
    /// The rival machine, when the opponent is a matchbox machine.
    pub rival: Option<Machine<G>>,
    /// The opponent player otherwise.
    pub opponent: Option<Opponent>,
    pub tie_break: TieBreak,
    pub resumed_from: Option<PathBuf>,
}

impl<G: GameSetup> Setup<G> {
    pub fn new(game: G, args: &LearnArgs) -> Result<Setup<G>> {
        let machine = build_machine(&game, args)?;
        let rival = match &args.opponent {
            OpponentSpec::Matchbox(file) => Some(rival_machine(&game, &machine, file.as_deref())?),
            OpponentSpec::Player(_) => None,
        };
        let arena = Arena::new(game);
        let (opponent, table) = match (&args.opponent, &rival) {
            (_, Some(r)) => (
                None,
                Table::compile(&arena, &machine.boxes, RivalPlan::Machine(&r.boxes)),
            ),
            (OpponentSpec::Player(kind), None) => {
                let opponent = match kind {
                    OpponentKind::Perfect => {
                        let solution = Solution::solve(&arena.graph);
                        Opponent::perfect(&arena.graph, &solution, args.tie_break)
                    }
                    OpponentKind::Random => Opponent::Random,
                };
                let table = Table::new(&arena, &machine.boxes, &opponent);
                (Some(opponent), table)
            }
            (OpponentSpec::Matchbox(_), None) => unreachable!("a matchbox opponent has a machine"),
        };
        Ok(Setup {
            arena,
            machine,
            table,
            rival,
            opponent,
            tie_break: args.tie_break,
            resumed_from: args.machine.boxes.clone(),
        })
    }

    pub fn game(&self) -> &G {
        &self.arena.game
    }

    fn opponent_text(&self) -> String {
        if let Some(r) = &self.rival {
            let g = self.game();
            let side = r.boxes.side();
            let name = g
                .nickname(side, r.boxes.mode())
                .map(|n| format!(" {n}"))
                .unwrap_or_default();
            return format!(
                "matchbox{name} ({}): {} boxes, symmetry {}, {}, beads {}, seed {}, {} games played",
                g.side_name(side),
                r.boxes.len(),
                r.boxes.mode(),
                r.reinforcement,
                r.initial,
                r.seed,
                r.games_played
            );
        }
        match self.opponent.as_ref().map(Opponent::kind) {
            Some(OpponentKind::Perfect) => format!("perfect (tie-break {})", self.tie_break),
            _ => "random".into(),
        }
    }

    /// One line naming the run, for charts and CSV files.
    pub fn label(&self) -> String {
        let g = self.game();
        let m = &self.machine;
        let side = m.boxes.side();
        let name = g.nickname(side, m.boxes.mode()).unwrap_or("machine");
        let opponent = match &self.rival {
            Some(r) => {
                let rs = r.boxes.side();
                g.nickname(rs, r.boxes.mode())
                    .unwrap_or("machine")
                    .to_string()
                    + &format!(" ({})", g.side_name(rs))
            }
            None => format!("{} player", self.opponent_name()),
        };
        format!(
            "{name} ({}) v {opponent} · {} {} · {} symmetry · {} reinforcement · beads {} · seed {}",
            g.side_name(side),
            g.name(),
            g.variant(),
            m.boxes.mode(),
            m.reinforcement,
            m.initial,
            m.seed
        )
    }

    /// The learner's result per game under perfect play, when its opponent is the perfect player.
    pub fn perfect_play(&self) -> Option<i64> {
        if self.opponent.as_ref().map(Opponent::kind) != Some(OpponentKind::Perfect) {
            return None;
        }
        let solution = Solution::solve(&self.arena.graph);
        Some(match solution.winner(&self.arena.graph, 0) {
            None => 0,
            Some(w) if w == self.machine.boxes.side() => 1,
            Some(_) => -1,
        })
    }

    pub fn opponent_name(&self) -> String {
        match (&self.rival, &self.opponent) {
            (Some(_), _) => "matchbox".into(),
            (None, Some(o)) => o.kind().to_string(),
            (None, None) => "none".into(),
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
            "opponent": self.opponent_name(),
            "opponent_machine": self.rival.as_ref().map(|r| json!({
                "side": g.side_name(r.boxes.side()),
                "symmetry": r.boxes.mode().to_string(),
                "box_count": r.boxes.len(),
                "reinforcement": r.reinforcement.to_string(),
                "initial_beads": r.initial.to_string(),
                "seed": r.seed,
            })),
            "tie_break": self.tie_break.to_string(),
            "reinforcement": m.reinforcement.to_string(),
            "initial_beads": m.initial.to_string(),
            "seed": m.seed,
            "rng": RNG_NAME,
            "start_games_played": m.games_played,
        })
    }
}
