//! Turning command-line options (and an optional matchbox file) into a game, a machine and an
//! opponent, with every default made explicit so it can be printed and saved.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::settings::{RivalSettings, RunSettings, Words};
use super::{BoxSetArgs, GameArgs, LearnArgs, MachineArgs, OpponentSpec};
use crate::cli::progress::Steps;
use crate::game::{Game, Side};
use crate::games::GameKind;
use crate::learn::engine::ExperimentResult;
use crate::learn::{
    Bout, BoxSet, Engine, Forced, GameDefaults, GameResult, Machine, Preparing, Preset,
    Reinforcement, StageBeads, SymmetryMode,
};
use crate::learn::{MachineSpec, MatchSpec, Rival, Source};
use crate::players::Opponent;
use crate::rng::{RNG_NAME, rng_from_seed};
use crate::solve::TieBreak;
use crate::store;
use crate::text::quote;

/// Refuses `--friction` for a board game: it is the cart-pole's.
fn no_friction(args: &GameArgs) -> Result<()> {
    if args.friction {
        bail!("--friction is the cart-pole's (a board game has no friction)");
    }
    if args.random_start {
        bail!("--random-start is the cart-pole's (a board game starts from its first position)");
    }
    Ok(())
}

/// The game from the command line, checked against the file being resumed, if any (whose size is
/// used when the command gives none).
pub(crate) fn game_kind(args: &GameArgs, file: Option<&Path>) -> Result<GameKind> {
    no_friction(args)?;
    let Some(path) = file else {
        return Ok(GameKind::parse(&args.game, args.size.as_deref())?
            .with_rules(args.swap, args.handicap)?);
    };
    game_kind_of(args, path, store::read_file_game(path)?)
}

/// The game from the command line, checked against `f`, what the file `path` says it holds
/// (whose size is used when the command gives none).
pub(crate) fn game_kind_of(args: &GameArgs, path: &Path, f: store::FileGame) -> Result<GameKind> {
    no_friction(args)?;
    let mut kind =
        GameKind::parse(&args.game, args.size.as_deref())?.with_rules(args.swap, args.handicap)?;
    if f.game != kind.name() {
        if !crate::games::names().contains(&f.game.as_str()) {
            bail!(
                "{}: key `game`: unknown game `{}` (known: {})",
                path.display(),
                quote(&f.game),
                crate::games::names().join(", ")
            );
        }
        bail!(
            "{}: key `game`: the file is for {}, not {}",
            path.display(),
            quote(&f.game),
            kind.name()
        );
    }
    if let Some(size) = &f.size {
        let from_file = kind
            .with_size(size)
            .with_context(|| format!("{}: key `size`", path.display()))?;
        if args.size.is_none() && args.game.trim().eq_ignore_ascii_case(kind.name()) {
            kind = from_file;
        } else if from_file != kind {
            bail!(
                "{}: the file holds a machine for `{from_file}`, but the command asks for `{kind}`",
                path.display()
            );
        }
    }
    Ok(kind)
}

/// Whether a game is small enough to enumerate.
pub(crate) fn enumerable<G: Game>(game: &G) -> bool {
    crate::game::enumerable(game)
}

/// Whether building a game's whole graph takes minutes and gigabytes (hexapawn 5x6 and up): the
/// commands then say so first and show their progress on stderr.
fn big_graph<G: Game>(game: &G) -> bool {
    game.position_bound(Side::First)
        .is_some_and(|(b, _)| b > 2e9)
}

/// The whole graph of a game, with progress on stderr for big ones: a notice first, then (on a
/// terminal) the positions found so far and the memory they take.
pub(crate) fn build_graph<G: Game>(game: &G) -> crate::game::graph::GameGraph<G> {
    let mut steps = Steps::new(
        big_graph(game),
        format!(
            "{} {}: enumerating every reachable position; on big boards this takes minutes and gigabytes (about 60 bytes a position: hexapawn 5x6 has 80,857,107 positions and needs about 5 GB)",
            game.name(),
            game.variant()
        ),
    );
    steps.next("enumerating");
    let graph = crate::game::graph::GameGraph::build_with_progress(game, &mut |n, bytes| {
        steps.detail(positions_so_far(n, bytes))
    });
    steps.end();
    graph
}

/// The positions an enumeration has found so far, and their memory.
fn positions_so_far(n: usize, bytes: usize) -> String {
    format!(
        "{} positions so far, {}",
        crate::text::group(n as u64),
        crate::text::bytes(bytes as u64)
    )
}

/// The opponent asked for, or the default: the perfect player where the game can be solved
/// (enumerated, or with a solver of its own), the tree search on boards too big for it.
pub(crate) fn opponent_or_default<G: GameDefaults>(
    game: &G,
    asked: Option<&OpponentSpec>,
) -> OpponentSpec {
    if let Some(o) = asked {
        return o.clone();
    }
    let solvable = enumerable(game) || game.has_own_solver();
    OpponentSpec {
        kind: if solvable {
            Opponent::Perfect
        } else {
            Opponent::Mcts(crate::players::mcts::DEFAULT_SIMULATIONS)
        },
        file: None,
    }
}

/// Refuses games too big to enumerate, with a pointer to `count`.
pub(crate) fn check_enumerable<G: GameDefaults>(game: &G) -> Result<()> {
    if !enumerable(game) {
        let bound = game
            .position_bound(Side::First)
            .map(|(b, _)| format!(" (up to {b:.1e} positions)"))
            .unwrap_or_default();
        let size = game
            .size_key()
            .map(|s| format!(" --size {s}"))
            .unwrap_or_default();
        bail!(
            "{} {} is too big to enumerate here{bound}; `matchbox count {}{size}` estimates how many boxes it needs",
            game.name(),
            game.variant(),
            game.name(),
        );
    }
    Ok(())
}

/// The box-set options of a command, mapped once from its arguments.
#[derive(Clone, Debug, Default)]
pub(crate) struct SetOptions {
    pub side: Option<String>,
    pub symmetry: Option<SymmetryMode>,
    pub forced: Option<Forced>,
}

impl SetOptions {
    /// The options for the game typed as `game`: a name of history (`her`, `him`, `menace`)
    /// gives its learner's side where `--side` does not.
    pub fn for_game(a: &BoxSetArgs, game: &str) -> SetOptions {
        let mut o = SetOptions::from(a);
        if o.side.is_none() {
            o.side = crate::games::alias_side(game).map(str::to_string);
        }
        o
    }
}

impl From<&BoxSetArgs> for SetOptions {
    fn from(a: &BoxSetArgs) -> Self {
        SetOptions {
            side: a.side.clone(),
            symmetry: a.symmetry,
            forced: match (a.include_forced, a.skip_forced) {
                (true, _) => Some(Forced::Include),
                (_, true) => Some(Forced::Skip),
                _ => None,
            },
        }
    }
}

/// A learner's options, mapped once from a command's arguments.
#[derive(Clone, Debug, Default)]
pub(crate) struct MachineOptions {
    pub set: SetOptions,
    pub preset: Option<Preset>,
    pub reinforcement: Option<Reinforcement>,
    pub beads: Option<StageBeads>,
    pub seed: Option<u64>,
    pub boxes: Option<PathBuf>,
    pub engine: Engine,
    /// The most memory a lazy machine's boxes may take.
    pub max_memory: Option<usize>,
}

impl MachineOptions {
    pub fn new(set: SetOptions, m: &MachineArgs) -> Self {
        MachineOptions {
            set,
            preset: m.preset,
            reinforcement: m.reinforcement,
            beads: m.beads.clone(),
            seed: m.seed,
            boxes: m.boxes.clone(),
            engine: m.engine,
            max_memory: m.max_memory.map(|b| b.0),
        }
    }
}

/// The box set a command asks for, with defaults (enumerated in full).
pub(crate) fn box_set_choice<G: GameDefaults>(game: &G, opts: &SetOptions) -> Result<BoxSet<G>> {
    check_enumerable(game)?;
    let (side, mode, forced) = set_choice(game, opts)?;
    Ok(enumerate_boxes(game, side, mode, forced))
}

/// Every box of a learner, enumerated; on a big board (a minute or more) with a line on stderr
/// before and after.
pub(crate) fn enumerate_boxes<G: GameDefaults>(
    game: &G,
    side: Side,
    mode: SymmetryMode,
    forced: Forced,
) -> BoxSet<G> {
    let mut steps = Steps::new(
        big_graph(game),
        format!(
            "{} {}: the {} learner's boxes, symmetry {mode}; on a board this big it takes minutes and gigabytes (every reachable position is walked, about 60 bytes each: hexapawn 4x7 needs about 3 GB)",
            game.name(),
            game.variant(),
            game.side_name(side)
        ),
    );
    steps.next("enumerating the boxes");
    let set = BoxSet::build_with(game, side, mode, forced);
    steps.end();
    set
}

pub(crate) fn set_choice<G: GameDefaults>(
    game: &G,
    opts: &SetOptions,
) -> Result<(Side, SymmetryMode, Forced)> {
    let side = match &opts.side {
        Some(s) => parse_side(game, s)?,
        None => game.default_side(),
    };
    let mode = opts.symmetry.unwrap_or_else(|| game.default_symmetry(side));
    Ok((
        side,
        mode,
        opts.forced.unwrap_or_else(|| game.default_forced()),
    ))
}

pub(crate) fn parse_side<G: Game>(game: &G, s: &str) -> Result<Side> {
    game.parse_side(s).with_context(|| {
        format!(
            "`{}` is not a side of {} (use {}, {}, first or second)",
            quote(s),
            game.name(),
            game.side_name(Side::First),
            game.side_name(Side::Second)
        )
    })
}

/// Whether a machine for `game` runs on the lazy engine.
fn lazy_engine<G: GameDefaults>(game: &G, engine: Engine) -> Result<bool> {
    match engine {
        Engine::Lazy => Ok(true),
        Engine::Table => check_enumerable(game).map(|_| false),
        Engine::Auto => Ok(!enumerable(game)),
    }
}

/// Where the learner comes from: the file of `--boxes`, read and checked against the options,
/// or fresh settings.
fn learner_source<G: GameDefaults>(game: &G, opts: &MachineOptions) -> Result<Source<G>> {
    Ok(match &opts.boxes {
        Some(path) => {
            let mut m = machine_from_file(game, opts, path)?;
            if let Some(bytes) = opts.max_memory {
                let need = m.boxes.memory();
                if !m.boxes.is_lazy() && need > bytes {
                    return Err(crate::learn::LearnError::TableTooBig {
                        game: game.name(),
                        variant: game.variant(),
                        need: crate::text::bytes(need as u64),
                        max: crate::text::bytes(bytes as u64),
                    }
                    .into());
                }
                std::sync::Arc::make_mut(&mut m.boxes).set_budget(bytes);
            }
            Source::Loaded(m)
        }
        None => Source::Fresh(machine_spec(game, opts)?),
    })
}

/// The match the options ask for, as data: what every command that trains or shows a machine
/// builds (with [`MatchSpec::build`]).
pub(crate) fn match_spec<G: GameDefaults>(
    game: &G,
    opts: &MachineOptions,
    opponent: &OpponentSpec,
    tie_break: TieBreak,
) -> Result<MatchSpec<G>> {
    let learner = learner_source(game, opts)?;
    let rival = match opponent.kind {
        Opponent::Matchbox => Rival::Machine(
            (opponent.file.as_deref())
                .map(|path| rival_machine(game, &learner, path))
                .transpose()?,
        ),
        kind => Rival::Player(kind),
    };
    Ok(MatchSpec {
        learner,
        opponent: rival,
        engine: opts.engine,
        tie_break,
        graph: None,
    })
}

/// The machine a file holds, checked against the command's options and with its settings.
fn machine_from_file<G: GameDefaults>(
    game: &G,
    opts: &MachineOptions,
    path: &Path,
) -> Result<Machine<G>> {
    let mut m = store::load_machine(game, path)?;
    if m.boxes.is_lazy() && opts.engine == Engine::Table {
        bail!(
            "{}: the file holds a lazy machine (only the boxes it made); use --engine lazy or auto",
            path.display()
        );
    }
    if !m.boxes.is_lazy() && opts.engine == Engine::Auto {
        check_enumerable(game)?;
    }
    if let Some(s) = &opts.set.side
        && parse_side(game, s)? != m.boxes.side()
    {
        bail!(
            "{}: the file's learner plays {}, but --side asks for {}",
            path.display(),
            game.side_name(m.boxes.side()),
            quote(s)
        );
    }
    if let Some(mode) = opts.set.symmetry
        && mode != m.boxes.mode()
    {
        bail!(
            "{}: the file's boxes use symmetry {}, but --symmetry asks for {mode}",
            path.display(),
            m.boxes.mode()
        );
    }
    if let Some(forced) = opts.set.forced
        && forced != m.boxes.forced()
    {
        bail!(
            "{}: the file's boxes {} forced moves, which the command's option contradicts",
            path.display(),
            m.boxes.forced()
        );
    }
    if let Some(p) = opts.preset {
        m.reinforcement = p.reinforcement();
        m.initial = p.beads();
    }
    if let Some(r) = opts.reinforcement {
        m.reinforcement = r;
    }
    if let Some(b) = &opts.beads {
        if !m.boxes.is_lazy() {
            bail!(
                "{}: its boxes already hold their beads; --beads sets the beads of a new machine (drop --beads to go on with the file's)",
                path.display()
            );
        }
        // A lazy machine fills the boxes it has yet to make with these.
        m.initial = b.clone();
    }
    if let Some(seed) = opts.seed {
        m.seed = seed;
        m.rng = rng_from_seed(seed);
    }
    Ok(m)
}

/// A machine with fresh boxes and the command's (or the game's) settings.
/// A fresh learner's settings from the options.
fn machine_spec<G: GameDefaults>(game: &G, opts: &MachineOptions) -> Result<MachineSpec> {
    Ok(MachineSpec {
        side: opts
            .set
            .side
            .as_deref()
            .map(|s| parse_side(game, s))
            .transpose()?,
        symmetry: opts.set.symmetry,
        forced: opts.set.forced,
        preset: opts.preset,
        reinforcement: opts.reinforcement,
        beads: opts.beads.clone(),
        seed: opts.seed.unwrap_or_else(rand::random),
        lazy: lazy_engine(game, opts.engine)?,
        max_memory: opts.max_memory,
    })
}

/// The second machine of a learner-against-learner run from its file, checked against the
/// learner: the other side, and lazy only where the learner is.
fn rival_machine<G: GameDefaults>(
    game: &G,
    learner: &Source<G>,
    path: &Path,
) -> Result<Machine<G>> {
    let side = learner.side(game).other();
    let m = store::load_machine(game, path)?;
    if m.boxes.side() != side {
        bail!(
            "{}: the opponent machine must play {}, but it plays {}",
            path.display(),
            game.side_name(side),
            game.side_name(m.boxes.side())
        );
    }
    if m.boxes.is_lazy() && !learner.is_lazy() {
        bail!(
            "{}: the opponent is a lazy machine; run the learner with --engine lazy",
            path.display()
        );
    }
    Ok(m)
}

/// Builds `spec`, each step of preparing a big game said by `steps`.
pub(crate) fn build_with_steps<G: GameDefaults>(
    spec: MatchSpec<G>,
    game: G,
    steps: &mut Steps,
) -> Result<Bout<G>> {
    if let Source::Fresh(_) = spec.learner {
        steps.next("building the learner's boxes");
    }
    Ok(spec.build(game, &mut |p| match p {
        Preparing::Enumerating {
            positions: 0,
            bytes: 0,
        } => steps.next("enumerating every reachable position"),
        Preparing::Enumerating { positions, bytes } => {
            steps.detail(positions_so_far(positions, bytes))
        }
        Preparing::Solving => steps.next("solving the game for the perfect player"),
        Preparing::Compiling => steps.next("compiling the table"),
    })?)
}

/// Everything a training command needs: the match, and where its learner came from.
pub(crate) struct Setup<G: GameDefaults> {
    pub bout: Bout<G>,
    pub resumed_from: Option<PathBuf>,
    /// The game's name as typed, where titles say it instead (`noughts`).
    pub shown_name: Option<String>,
}

impl<G: GameDefaults> Setup<G> {
    pub fn new(game: G, args: &LearnArgs) -> Result<Setup<G>> {
        let opts = MachineOptions::new(
            SetOptions::for_game(&args.set, &args.game.game),
            &args.machine,
        );
        let opponent = opponent_or_default(&game, args.opponent.as_ref());
        let mut s = Self::with(game, &opts, &opponent, args.tie_break)?;
        s.shown_name = crate::games::shown_name(&args.game.game);
        Ok(s)
    }

    pub fn with(
        game: G,
        opts: &MachineOptions,
        opponent: &OpponentSpec,
        tie_break: TieBreak,
    ) -> Result<Setup<G>> {
        let mut reading = Steps::spinner(
            big_graph(&game) && opts.boxes.is_some(),
            match &opts.boxes {
                Some(path) => format!("reading the learner's boxes from {}", path.display()),
                None => String::new(),
            },
        );
        let spec = match_spec(&game, opts, opponent, tie_break)?;
        reading.end();
        // Big games take minutes to enumerate, solve and compile: said first, each step timed.
        let mut steps = Steps::new(
            spec.uses_table(&game) && big_graph(&game),
            format!(
                "{} {} is big: preparing its table takes minutes and gigabytes (hexapawn 5x6: about 2½ minutes and 8 GB; `--engine lazy` starts at once, slower per game)",
                game.name(),
                game.variant()
            ),
        );
        let bout = build_with_steps(spec, game, &mut steps)?;
        steps.end();
        Ok(Setup {
            bout,
            resumed_from: opts.boxes.clone(),
            shown_name: None,
        })
    }

    /// The learner.
    pub fn machine(&self) -> &Machine<G> {
        self.bout.learner()
    }

    /// The rival machine, when the opponent is a matchbox machine.
    pub fn rival(&self) -> Option<&Machine<G>> {
        self.bout.rival()
    }

    /// The engine in use.
    pub fn engine(&self) -> Engine {
        self.bout.engine()
    }

    /// Plays one game and returns its result, with the bead index of every box of the learner's
    /// that it played put in `played` (for a [`crate::learn::BeadTotals`]).
    pub fn train_one(&mut self, played: &mut Vec<u32>) -> GameResult {
        played.clear();
        let r = self.bout.play_game().unwrap_or(GameResult::Loss);
        played.extend(self.bout.last_played().iter().map(|&(base, _)| base));
        r
    }

    /// Plays `games` games, appending each result to `out` (see [`Bout::train_into`]).
    pub fn train_into(&mut self, games: u64, out: &mut Vec<GameResult>) -> u64 {
        self.bout.train_into(games, out)
    }

    /// Trains `runs` copies of the machine (run `i` reseeded from the seed and `i`) for `games`
    /// games each, in parallel.
    pub fn experiment(
        &self,
        runs: impl Into<crate::learn::engine::Runs>,
        games: usize,
        tick: &(dyn Fn() + Sync),
    ) -> ExperimentResult {
        self.bout.experiment(runs, games, tick)
    }

    pub fn game(&self) -> &G {
        self.bout.game()
    }

    fn opponent_text(&self) -> String {
        if let Some(r) = self.rival() {
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
        match self.bout.opponent() {
            Opponent::Perfect => format!("perfect (tie-break {})", self.bout.options().tie_break),
            other => other.to_string(),
        }
    }

    /// One line naming the run, for charts and CSV files.
    pub fn label(&self) -> String {
        self.bout.label(self.shown_name.as_deref())
    }

    /// The learner's result per game under perfect play, when its opponent is the perfect player.
    pub fn perfect_play(&self) -> Option<i64> {
        self.bout.perfect_play()
    }

    pub fn opponent_name(&self) -> String {
        self.bout.opponent().to_string()
    }

    /// Every setting of the run, for the human header: the command and the game, the settings,
    /// then `extra` rows.
    pub fn header(&self, command: &str, extra: &[(&str, String)]) -> String {
        let g = self.game();
        let mut out = format!("matchbox {command} · {} {}\n", g.name(), g.variant());
        out.push_str(&self.settings().to_string());
        for (k, v) in extra {
            out.push_str(&format!("  {k:<14} {v}\n"));
        }
        out
    }

    /// Every setting of the run, typed: the reports' JSON and the header.
    pub fn settings(&self) -> RunSettings {
        let g = self.game();
        let m = self.machine();
        let side = m.boxes.side();
        RunSettings {
            arrow_count: m.boxes.arrow_count(),
            box_count: m.boxes.len(),
            engine: self.engine().to_string(),
            game: g.name().to_string(),
            initial_beads: m.initial.to_string(),
            learner: g.side_name(side).to_string(),
            opponent: self.opponent_name(),
            opponent_machine: self.rival().map(|r| RivalSettings {
                box_count: r.boxes.len(),
                initial_beads: r.initial.to_string(),
                reinforcement: r.reinforcement.to_string(),
                seed: r.seed,
                side: g.side_name(r.boxes.side()).to_string(),
                start_machine: Some(r.digest()),
                symmetry: r.boxes.mode().to_string(),
            }),
            reinforcement: m.reinforcement.to_string(),
            rng: RNG_NAME.to_string(),
            seed: m.seed,
            size: g.variant(),
            start_games_played: m.games_played,
            start_machine: Some(m.digest()),
            symmetry: m.boxes.mode().to_string(),
            tie_break: self.bout.options().tie_break.to_string(),
            words: Words {
                nickname: g.nickname(side, m.boxes.mode()),
                lazy: m.boxes.is_lazy(),
                opponent: self.opponent_text(),
                reinforcement: m.reinforcement.describe(),
                start: match &self.resumed_from {
                    Some(p) => format!("{} after {} games", p.display(), m.games_played),
                    None => "fresh boxes".into(),
                },
            },
        }
    }
}

/// The match `matchbox watch …` with `argv` (the words after `matchbox`) would build, for
/// `game`: as the command itself maps its options (tests compare it with the page's).
pub fn watch_spec<G: GameDefaults>(game: &G, argv: &[&str]) -> Result<MatchSpec<G>> {
    use clap::Parser;
    let cli = super::Cli::try_parse_from(std::iter::once("matchbox").chain(argv.iter().copied()))?;
    let super::Command::Watch(w) = cli.command else {
        bail!("not a watch command: {argv:?}");
    };
    let a = &w.learn;
    let opts = MachineOptions::new(SetOptions::for_game(&a.set, &a.game.game), &a.machine);
    let opponent = opponent_or_default(game, a.opponent.as_ref());
    match_spec(game, &opts, &opponent, a.tie_break)
}
