//! The `matchbox` command line: argument parsing (clap derive) and dispatch to the commands.

mod commands;
mod error;
mod progress;
pub mod settings;
pub mod setup;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::chart::data::ChartKind;
use crate::labels::Paper;
use crate::learn::{Engine, Preset, Reinforcement, StageBeads, SymmetryMode};
use crate::players::Opponent;
use crate::solve::TieBreak;
use crate::view::app::Speed;

#[derive(Parser, Debug)]
#[command(
    name = "matchbox",
    version,
    about = "Matchbox learning machines: Gardner's HER, Michie's MENACE and the games they learn"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Enumerate a learner's matchboxes, or count them with --count
    Boxes(BoxesArgs),
    /// Exact game values under perfect play
    Solve(SolveArgs),
    /// Train one learner headless and report its results
    Train(TrainArgs),
    /// Train many independently seeded learners in parallel and average their results
    Experiment(ExperimentArgs),
    /// Watch a machine learn, live in the terminal
    Watch(WatchArgs),
    /// Play against the machine (or a tree search) in the terminal
    Play(PlayArgs),
    /// Draw a chart from a CSV file written by train or experiment
    Plot(PlotArgs),
    /// How many matchboxes, arrows and beads a machine needs, and how big the pile would be
    Count(CountArgs),
    /// Play a game record move by move from the start, checking every move
    Replay(ReplayArgs),
    /// The turns of an Arimaa position: how many, by fewest steps, under the repetition rule
    #[command(
        mut_arg("game", |a| a.help("arimaa (the full game) or mini-arimaa")),
        mut_arg("size", |a| a.help("8x8 (the full game, unless given) or 4x4 (mini-Arimaa)")),
        mut_arg("swap", |a| a.hide(true)),
        mut_arg("handicap", |a| a.hide(true))
    )]
    Moves(MovesArgs),
    /// Random games (every move uniform): how they end, how long they last, how fast they run
    Playout(PlayoutArgs),
    /// Sum the parts of an experiment run with --shard into the experiment's report
    Merge(MergeArgs),
    /// Every published figure matchbox checks, computed afresh into one table (docs/results.md)
    Results(ResultsArgs),
    /// A film of the watch screen for slides: the machine learning, as an animated GIF
    #[command(
        mut_arg("speed", |a| a.default_value("1")),
        mut_arg("games", |a| a.help("Games to film [default: 40]")),
        mut_arg("save", |a| a.hide(true)),
        mut_arg("force", |a| a.hide(true))
    )]
    Film(FilmArgs),
    /// Beside a real MENACE or HER: which box to open, the bead's square, what to do with the beads after each game; every game in a record
    #[command(
        mut_arg("opponent", |a| a.hide(true)),
        mut_arg("games", |a| a.hide(true))
    )]
    Operate(OperateArgs),
    /// One machine for the whole class: serves a page where every pupil plays it from a phone
    #[cfg(feature = "class")]
    #[command(
        mut_arg("opponent", |a| a.help("Whom the machine plays in the class's game while the pupils hold its boxes: perfect or random [default: perfect where the game can be solved, else random]")),
        mut_arg("games", |a| a.hide(true))
    )]
    Class(ClassArgs),
}

#[cfg(feature = "class")]
#[derive(Args, Debug)]
pub struct ClassArgs {
    #[command(flatten)]
    pub learn: LearnArgs,
    /// The address and port to serve on (0.0.0.0: every network of the laptop)
    #[arg(long, default_value = "0.0.0.0:8080", value_name = "ADDR:PORT")]
    pub listen: std::net::SocketAddr,
    /// The machine's file, saved every few games, on Ctrl-C and at the end; the lesson's log is
    /// beside it (FILE.log) [default: <game>-class.yaml]
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Let --save replace an existing file that is not the machine resumed, and start a new log
    #[arg(long)]
    pub force: bool,
    /// Continue the lesson in --save's log (after a crash: every finished game kept)
    #[arg(long)]
    pub resume: bool,
    /// The browser page's folder, served at /page/ for the laptop's own screen [default: page/
    /// beside the program, or web/dist here, where either holds index.html]
    #[arg(long, value_name = "DIR")]
    pub page: Option<PathBuf>,
    /// Replay a lesson's log (FILE.log beside its --save) and report the machine it leads to,
    /// without serving; with --save, write that machine there
    #[arg(long, value_name = "LOG", conflicts_with = "resume")]
    pub replay: Option<PathBuf>,
    /// The replay's report as one JSON object
    #[arg(long, requires = "replay")]
    pub json: bool,
    /// Save the machine every N finished games (at most every 5 seconds; the log keeps every
    /// game in between)
    #[arg(long, default_value_t = 5, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub every: u64,
    /// The most pupils (and teachers' pages) connected at once
    #[arg(long, default_value_t = 400, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_pupils: u64,
    /// The most messages a pupil's page may send a second (after a burst of three times as
    /// many): a person taps far fewer
    #[arg(long, default_value_t = 10, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub rate: u32,
    /// While the class is the machine: seconds a pupil has to tap before the server draws their
    /// bead for them (0: wait for the tap, or the teacher's "draw for them")
    #[arg(long, default_value_t = 30, value_name = "SECS", value_parser = clap::value_parser!(u64).range(0..=3600))]
    pub tap_time: u64,
}

#[derive(Args, Debug)]
pub struct FilmArgs {
    #[command(flatten)]
    pub watch: WatchArgs,
    /// The film to write: .gif, or .png for an animated PNG (APNG); or .txt for its last frame as text
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// The screen filmed, in cells: COLSxROWS (100x30: what a projector shows well)
    #[arg(long, default_value = "100x30", value_name = "COLSxROWS")]
    pub screen: String,
    /// Frames a second, 1 to 50
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=50))]
    pub fps: u32,
    /// A cell's height in pixels (its width is half that)
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u16).range(8..=48))]
    pub cell: u16,
    /// Film the whole machine (every box, grouped by move: `m` on the watch screen) instead
    #[arg(long)]
    pub whole: bool,
    /// Film a class lesson again from its log (FILE.log beside `class --save`): the machine the
    /// lesson began with, each finished game move by move in the order the lesson finished them
    /// (--games N: the first N)
    #[arg(long, value_name = "LOG", conflicts_with_all = [
        "boxes", "opponent", "preset", "reinforcement", "beads", "seed", "side", "symmetry",
        "include_forced", "skip_forced", "max_memory",
    ])]
    pub lesson: Option<PathBuf>,
    /// Print one JSON object on stdout
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The parts, each printed by `experiment --shard K/N` (every K from 1 to N, once)
    #[arg(required = true, value_name = "PART")]
    pub parts: Vec<PathBuf>,
    /// Print one JSON object on stdout: the experiment's, byte for byte
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub output: ChartArgs,
}

/// One slice of an experiment's runs: `K/N`, the K-th of N (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    pub k: usize,
    pub n: usize,
}

/// The most slices an experiment may be cut into.
pub const MAX_SHARDS: usize = 1_000_000;

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        let bad = || {
            format!(
                "`{}`: a shard is K/N, the K-th of N slices of the runs (1 <= K <= N <= {}), e.g. 3/8",
                crate::text::quote(s),
                crate::text::group(MAX_SHARDS as u64)
            )
        };
        let (k, n) = s.trim().split_once('/').ok_or_else(bad)?;
        let (k, n): (usize, usize) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if k == 0 || k > n || n > MAX_SHARDS {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

#[derive(Args, Debug)]
pub struct PlayoutArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Number of random games
    #[arg(long, default_value_t = 100_000)]
    pub games: u64,
    /// Seed of the random number generator [default: drawn from the system and printed]
    #[arg(long)]
    pub seed: Option<u64>,
    /// Print one JSON object on stdout
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct ReplayArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The moves, separated by spaces, commas or newlines, e.g. "b1-b2 a3xb2" or "a1 d4"; Arimaa: turns of steps between move numbers, "1g Ra1 … 1s ra8 … 2g Ed2n Ed3n 2s …"
    #[arg(
        long,
        allow_hyphen_values = true,
        required_unless_present_any = ["moves_file", "record"],
        conflicts_with_all = ["moves_file", "record"]
    )]
    pub moves: Option<String>,
    /// A record of many games, one a line (`resign` where the side to move gave up; a settings header, `#` comments; as `operate` writes): each game checked, how each ended
    #[arg(long, value_name = "FILE", conflicts_with = "moves_file")]
    pub record: Option<PathBuf>,
    /// Read the moves from this file (`-`: standard input), one turn a line or as --moves takes them
    #[arg(long, value_name = "FILE")]
    pub moves_file: Option<PathBuf>,
    /// Arimaa: start from this position (short form, "[" + a character a square, top rank first, + "]") instead of the setups
    #[arg(long)]
    pub position: Option<String>,
    /// Arimaa: the side to move in --position (gold or silver)
    #[arg(long)]
    pub side: Option<String>,
    /// Arimaa: the number of the first turn in the record (for its move numbers) [default: the record's first move number, else 1]
    #[arg(long)]
    pub turn: Option<u32>,
    /// Print one JSON object on stdout
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct MovesArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The position (short form, "[" + a character a square, top rank first, + "]") [default: the standard start, or mini-Arimaa's]
    #[arg(long)]
    pub position: Option<String>,
    /// The side to move: gold or silver [default: gold]
    #[arg(long)]
    pub side: Option<String>,
    /// Turns played from the position first (their positions count for the repetition rule), e.g. "Ed2n Ed3n 1s rb7s"
    #[arg(long, allow_hyphen_values = true, conflicts_with = "moves_file")]
    pub moves: Option<String>,
    /// Read those turns from this file (`-`: standard input), one turn a line
    #[arg(long, value_name = "FILE")]
    pub moves_file: Option<PathBuf>,
    /// The number of the first turn in --moves (for their move numbers) [default: the record's first move number, else 1]
    #[arg(long)]
    pub turn: Option<u32>,
    /// List every turn in steps
    #[arg(long)]
    pub list: bool,
    /// Print one JSON object on stdout
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct ResultsArgs {
    /// Leave out the rows marked slow (minutes of simulation)
    #[arg(long)]
    pub quick: bool,
    /// Write the table as Markdown to FILE, and its charts to a folder `results` beside it (only
    /// over a page this command wrote)
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Print one JSON object on stdout
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct CountArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Arimaa: random games sampled for the turns per position, 1 to 1,000 (about a second a
    /// game) [default: 10]
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub sample: Option<u64>,
    /// Initial beads per arrow for each of the learner's moves [default: the game's preset]
    #[arg(long)]
    pub beads: Option<StageBeads>,
    /// Print one JSON object on stdout
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    #[arg(value_parser = parse_game_name, help = crate::games::game_help())]
    pub game: String,
    /// Board size: RxC for hexapawn, 2 to 8 each (3x3 unless given, or the file's); the base N for havannah, 2 to 10 (2 unless given)
    #[arg(long)]
    pub size: Option<String>,
    /// Havannah: the swap (pie) rule: on the second move Black may play `swap`
    #[arg(long)]
    pub swap: bool,
    /// Havannah: White, the weaker player, places K stones (K ≥ 2) on its first turn
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u8).range(2..))]
    pub handicap: Option<u8>,
    /// cartpole: Barto, Sutton and Anderson's (1983) friction of the cart on its track (0.0005) and
    /// of the pole at its hinge (0.000002) [default: none, as pole.c and CartPole-v1]
    #[arg(long)]
    pub friction: bool,
    /// cartpole: each trial starts from a random state (the cart within ±0.8 m under 0.5 m/s,
    /// the pole within ±6° turning under 50°/s), as the accounts of BOXES start them [default:
    /// from rest, as pole.c]
    #[arg(long)]
    pub random_start: bool,
}

/// A game name the registry knows (any case), lower-cased.
fn parse_game_name(s: &str) -> Result<String, String> {
    // The cart-pole of BOXES is no board game; the commands that take it know it by its name.
    if crate::games::CARTPOLE.is_named(s) {
        return Ok(crate::games::CARTPOLE.name.into());
    }
    match crate::games::entry(s) {
        Some((_, typed)) => Ok(typed),
        None => Err(format!(
            "unknown game ({}known: {})",
            crate::games::nearest(s)
                .map(|n| format!("did you mean `{n}`? "))
                .unwrap_or_default(),
            crate::games::every_name().join(", ")
        )),
    }
}

/// A `--labels` name: a file's, not a folder's (or one ending in a slash), whose pages would be
/// written beside the folder, named after it.
fn parse_labels_path(s: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(s);
    let sep = std::path::MAIN_SEPARATOR;
    if s.ends_with(['/', sep]) || path.is_dir() {
        return Err(format!(
            "is a directory: --labels takes a file's name, its pages then named after it (e.g. {}{sep}labels.svg: labels-1.svg …, labels.pdf)",
            crate::text::quote(s.trim_end_matches(['/', sep]))
        ));
    }
    Ok(path)
}

fn parse_label_size(s: &str) -> Result<(f64, f64), String> {
    let bad = || format!("`{s}`: use WxH in millimetres, e.g. 50x35");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let (w, h): (f64, f64) = (
        w.trim().parse().map_err(|_| bad())?,
        h.trim().parse().map_err(|_| bad())?,
    );
    if !(20.0..=150.0).contains(&w) || !(15.0..=150.0).contains(&h) {
        return Err(format!("`{s}`: labels from 20x15 to 150x150 mm"));
    }
    Ok((w, h))
}

#[derive(Args, Debug, Clone)]
pub struct BoxSetArgs {
    /// The side the learner plays: white|black (Hexapawn, Havannah), x|o (noughts and crosses), gold|silver (mini-Arimaa), or first|second [default: the side history gave it: black (HER) on 3x3, x (MENACE); else the side that wins under perfect play]; `experiment cartpole`: the learners to race, boxes,ase,random [default: all three]
    #[arg(long, visible_alias = "learner")]
    pub side: Option<String>,
    /// How mirror images are merged: full, gardner or none [default: gardner on 3x3 for black, full otherwise]
    #[arg(long)]
    pub symmetry: Option<SymmetryMode>,
    /// Give a box also to positions with a single legal move (MENACE's 9th move)
    #[arg(long, conflicts_with = "skip_forced")]
    pub include_forced: bool,
    /// Give no box to positions with a single legal move (the default for noughts and crosses)
    #[arg(long)]
    pub skip_forced: bool,
}

#[derive(Args, Debug)]
pub struct BoxesArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub set: BoxSetArgs,
    /// Settings for beads and reinforcement: gardner, michie, scroggs (historical) or class (8/3/2/1 beads, +4/+3/-1: learns against a perfect player) [default: gardner for hexapawn and havannah, class for tictactoe]
    #[arg(long)]
    pub preset: Option<Preset>,
    /// Initial beads per arrow for each of the learner's moves, e.g. 1 or 4,3,2,1 [default: the preset's]
    #[arg(long)]
    pub beads: Option<StageBeads>,
    /// Print only the totals
    #[arg(long)]
    pub count: bool,
    /// Write printable labels, one per box, as SVG pages FILE-1.svg, FILE-2.svg, … and all pages
    /// in one PDF, FILE.pdf
    #[arg(long, value_name = "FILE.svg", value_parser = parse_labels_path)]
    pub labels: Option<PathBuf>,
    /// Paper for --labels: a4 or letter
    #[arg(long, default_value_t = Paper::A4)]
    pub paper: Paper,
    /// Label size in millimetres, WxH (an ordinary matchbox: 50x35)
    #[arg(long, value_name = "WxH", default_value = "50x35", value_parser = parse_label_size)]
    pub label_size: (f64, f64),
    /// Print the bead shopping list: how many beads of each colour the machine needs
    #[arg(long)]
    pub bead_list: bool,
    /// List (and label) a saved machine with the beads its boxes hold now, e.g. after training
    #[arg(long, value_name = "FILE")]
    pub boxes: Option<PathBuf>,
    /// Bead colours: by-arrow (a box's first arrow orange, the second sky blue, …) or by-cell
    /// (Michie's MENACE: one colour per square, the same in every box)
    #[arg(long, value_enum, default_value_t = BeadColourArg::ByArrow)]
    pub bead_colours: BeadColourArg,
    /// Print one JSON object on stdout
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Solve this position (in the game's position text) instead of the start; games whose
    /// boards are too big to enumerate but have a solver of their own (Havannah base 3)
    #[arg(long, value_name = "TEXT")]
    pub position: Option<String>,
    /// With --position: the side to move [default: as the stones say, else the first player]
    #[arg(long)]
    pub side: Option<String>,
    /// Print one JSON object on stdout
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug, Clone)]
pub struct LearnArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub set: BoxSetArgs,
    /// Who the learner plays against: perfect, random, mcts[:SIMS] (tree search, 1000 simulations
    /// a move unless given), or matchbox[:FILE] (a second machine that learns too: fresh with the
    /// game's defaults for the other side, or the one in FILE) [default: perfect; mcts on boards
    /// too big to solve]
    #[arg(long)]
    pub opponent: Option<OpponentSpec>,
    /// How the perfect player chooses among equally good moves: random or fastest
    #[arg(long, default_value_t = TieBreak::Random)]
    pub tie_break: TieBreak,
    #[command(flatten)]
    pub machine: MachineArgs,
    /// Games to play [default: 50; watch: no limit]
    #[arg(long)]
    pub games: Option<usize>,
}

/// The learner's opponent, as named on the command line: a player, or a second machine (fresh,
/// or loaded from a file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpponentSpec {
    pub kind: Opponent,
    pub file: Option<PathBuf>,
}

impl std::str::FromStr for OpponentSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || {
            format!(
                "`{}`: use perfect, random, mcts[:SIMS], matchbox or matchbox:FILE",
                crate::text::quote(s)
            )
        };
        if let Some(file) = s.strip_prefix("matchbox:") {
            if file.is_empty() {
                return Err(bad());
            }
            return Ok(OpponentSpec {
                kind: Opponent::Matchbox,
                file: Some(file.into()),
            });
        }
        match s.parse()? {
            // A person is not an opponent a machine trains against.
            Opponent::Human => Err(bad()),
            kind => Ok(OpponentSpec { kind, file: None }),
        }
    }
}

/// The machine's settings: where it comes from, its beads, its reinforcement, its seed.
#[derive(Args, Debug, Clone)]
pub struct MachineArgs {
    /// Settings for beads and reinforcement: gardner, michie, scroggs (historical) or class (8/3/2/1 beads, +4/+3/-1: learns against a perfect player) [default: gardner for hexapawn and havannah, class for tictactoe]
    #[arg(long)]
    pub preset: Option<Preset>,
    /// Reinforcement: gardner, michie, class, or WIN,DRAW,LOSS[:all|:last] [default: the preset's]
    #[arg(long, allow_hyphen_values = true)]
    pub reinforcement: Option<Reinforcement>,
    /// Initial beads per arrow for each of the learner's moves, e.g. 1 or 4,3,2,1 [default: the preset's]
    #[arg(long)]
    pub beads: Option<StageBeads>,
    /// Seed of the random number generator (xoshiro256++) [default: drawn from the system and printed]
    #[arg(long)]
    pub seed: Option<u64>,
    /// Start from the matchboxes in this file (YAML, or the binary format for a name ending in .mbx) instead of fresh ones
    #[arg(long, value_name = "FILE")]
    pub boxes: Option<PathBuf>,
    /// Training engine: table (every box enumerated, the game compiled: fastest), lazy (boxes made
    /// the first time a position comes up: for big games), or auto (table where the game is small)
    #[arg(long, default_value_t = Engine::Auto)]
    pub engine: Engine,
    /// The most memory a lazy machine's boxes and beads may take, e.g. 2GB or 500MB; past it, new
    /// positions are played at random without a box, and the command says so [default: 8GiB]
    #[arg(long, value_name = "SIZE")]
    pub max_memory: Option<ByteSize>,
}

/// A number of bytes as typed: `500MB`, `2GB`, `1.5GiB`, `4096`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ByteSize(pub usize);

impl std::str::FromStr for ByteSize {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        let t = s.trim();
        let split = t
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(t.len());
        let (number, unit) = t.split_at(split);
        let scale: f64 = match unit.trim().to_ascii_lowercase().as_str() {
            "" | "b" => 1.0,
            "k" | "kb" => 1e3,
            "kib" => 1024.0,
            "m" | "mb" => 1e6,
            "mib" => 1024.0 * 1024.0,
            "g" | "gb" => 1e9,
            "gib" => 1024.0 * 1024.0 * 1024.0,
            "t" | "tb" => 1e12,
            "tib" => 1024f64.powi(4),
            "p" | "pb" => 1e15,
            "pib" => 1024f64.powi(5),
            _ => {
                return Err(format!(
                    "`{}`: a size is a number and a unit (500MB, 2GB, 1.5GiB; B, KB to PB, KiB to PiB)",
                    crate::text::quote(s)
                ));
            }
        };
        let n: f64 = number.parse().map_err(|_| {
            format!(
                "`{}`: a size is a number and a unit (500MB, 2GB, 1.5GiB)",
                crate::text::quote(s)
            )
        })?;
        let bytes = n * scale;
        if !(1.0..=(1u64 << 50) as f64).contains(&bytes) {
            return Err(format!(
                "`{}`: a size from 1 byte to 1 PiB",
                crate::text::quote(s)
            ));
        }
        Ok(ByteSize(bytes as usize))
    }
}

#[derive(Args, Debug)]
pub struct OperateArgs {
    #[command(flatten)]
    pub learn: LearnArgs,
    /// The session's record, one game a line (continued if it is there: the same command after a restart) [default: <game>-real.txt]
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// What an emptied first box does: revive (it keeps one bead, so the machine plays on) or resign (for good, as Michie's) [default: the record's, else revive]
    #[arg(long, value_name = "RULE", value_parser = ["revive", "resign"])]
    pub first_box: Option<String>,
    /// The bead colours, as the labels were printed: by-arrow or by-cell (see boxes --help)
    #[arg(long, value_enum, default_value_t = BeadColourArg::ByArrow)]
    pub bead_colours: BeadColourArg,
    /// Save the copy of the machine to this file after every game (YAML, or binary for .mbx)
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// A line at a time on standard input and output, even on a terminal (where the session is a
    /// full screen unless this is given)
    #[arg(long)]
    pub lines: bool,
    /// Serve the session's step for the room at this address (IP:PORT, e.g. 0.0.0.0:8080): a page
    /// a projector beside the boxes opens, following every step; it takes no input
    #[arg(long, value_name = "IP:PORT")]
    pub projector: Option<std::net::SocketAddr>,
    /// Print the session's summary as one JSON object at the end
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct TrainArgs {
    #[command(flatten)]
    pub learn: LearnArgs,
    /// Learn from a record of a real machine's games (one game a line, `resign` where it gave up; settings in an optional header) instead of playing: the machine after exactly those games
    #[arg(long, value_name = "FILE", conflicts_with_all = ["opponent", "save_opponent"])]
    pub record: Option<PathBuf>,
    /// With --record: what an emptied first box does: revive (keeps one bead) or resign (for good, as Michie's) [default: the record's, else resign]
    #[arg(long, value_name = "RULE", requires = "record")]
    pub first_box: Option<String>,
    /// With --opponent matchbox: save the opponent machine to this file (YAML, or binary for .mbx; atomically)
    #[arg(long, value_name = "FILE")]
    pub save_opponent: Option<PathBuf>,
    #[command(flatten)]
    pub output: ChartArgs,
    /// Save the trained matchboxes to this file (YAML, or binary for a name ending in .mbx; atomically)
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Let --save and --save-opponent replace an existing file that is not the machine resumed
    #[arg(long)]
    pub force: bool,
    /// Print one JSON object on stdout
    #[arg(long)]
    pub json: bool,
}

#[derive(Args, Debug)]
pub struct ExperimentArgs {
    #[command(flatten)]
    pub learn: LearnArgs,
    /// Number of independent learners (run i is seeded from --seed and i)
    #[arg(long, default_value_t = 1000)]
    pub runs: usize,
    /// Run variants with the same seeds and overlay them: symmetry=full,gardner,none;
    /// reinforcement=gardner,michie; preset=michie,scroggs; beads=1,2; opponent=perfect,random
    #[arg(long, value_name = "KEY=V1,V2,…")]
    pub compare: Option<String>,
    /// Michie's 1963 computer learner instead of beads: after a win a move's odds ×A·B^(n−8), n
    /// the moves after it (÷ after a loss); D, the sliding origin's decay (docs/results.md)
    #[arg(long, value_name = "A,B[,D]", value_parser = parse_odds, conflicts_with_all = ["compare", "shard", "plot", "csv"])]
    pub odds: Option<crate::learn::odds::OddsRule>,
    /// Run only the K-th of N slices of the runs (e.g. 3/8; needs --seed) and print its part as JSON, for `matchbox merge`
    #[arg(long, value_name = "K/N", conflicts_with_all = ["plot", "csv"])]
    pub shard: Option<Shard>,
    /// cartpole: the steps at which a trial stops, the pole counted as balanced [default: 10000]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    pub steps: Option<u32>,
    #[command(flatten)]
    pub output: ChartArgs,
    /// Print one JSON object on stdout
    #[arg(long)]
    pub json: bool,
}

/// Charts and tables of a run.
#[derive(Args, Debug, Clone)]
pub struct ChartArgs {
    /// Draw a chart to this file (.png, 1600×900, or .svg)
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Which chart: score, beads, first-box, loss-rate, cumulative-losses, last-loss [default: score for train, loss-rate for experiment]
    #[arg(long)]
    pub chart: Option<ChartKind>,
    /// Write the data as CSV: train, one row per game; experiment, one row per game index
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct PlotArgs {
    /// A CSV file written by `train --csv` or `experiment --csv`
    pub csv: PathBuf,
    /// Which chart: score, beads, first-box, loss-rate, cumulative-losses, last-loss [default: score for a train CSV, loss-rate for an experiment CSV]
    #[arg(long)]
    pub chart: Option<ChartKind>,
    /// The chart file to write (.png or .svg)
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

#[derive(Args, Debug)]
pub struct WatchArgs {
    #[command(flatten)]
    pub learn: LearnArgs,
    /// Where `s` saves the machine [default: <game>-<side>-watch.yaml]
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Let the first `s` replace an existing file that is not the machine resumed (without it,
    /// `s` says what the file holds and the second `s` replaces it)
    #[arg(long)]
    pub force: bool,
    /// Speed to start at: step, slow, 1, 10, 100 (games a second) or flat-out
    #[arg(long, default_value_t = Speed::Slow)]
    pub speed: Speed,
    /// Colours: dark (light text on the terminal's background) or light (dark text on a white
    /// background matchbox paints itself: for light terminals and projectors)
    #[arg(long, value_enum, default_value_t = ThemeName::Dark)]
    pub theme: ThemeName,
    /// Bead colours on the screen, as on the labels: by-arrow or by-cell (see boxes --help)
    #[arg(long, value_enum, default_value_t = BeadColourArg::ByArrow)]
    pub bead_colours: BeadColourArg,
}

/// How beads are coloured, as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum BeadColourArg {
    ByArrow,
    ByCell,
}

impl From<BeadColourArg> for crate::palette::BeadColours {
    fn from(c: BeadColourArg) -> Self {
        match c {
            BeadColourArg::ByArrow => crate::palette::BeadColours::ByArrow,
            BeadColourArg::ByCell => crate::palette::BeadColours::ByCell,
        }
    }
}

/// The screens' themes, as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ThemeName {
    Dark,
    Light,
}

impl From<ThemeName> for crate::view::theme::Theme {
    fn from(t: ThemeName) -> Self {
        match t {
            ThemeName::Dark => crate::view::theme::Theme::Dark,
            ThemeName::Light => crate::view::theme::Theme::Light,
        }
    }
}

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The side you play: white|black, x|o, gold|silver, or first|second; the machine plays the other [default: the side history leaves you: White against HER, O against MENACE, who moves first]
    #[arg(long = "as", value_name = "SIDE")]
    pub human: Option<String>,
    /// How the machine's mirror images are merged: full, gardner or none [default: as for train]
    #[arg(long)]
    pub symmetry: Option<SymmetryMode>,
    #[command(flatten)]
    pub machine: MachineArgs,
    /// Save the machine to this file when you quit (YAML, or binary for .mbx)
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Let --save replace an existing file that is not the machine resumed
    #[arg(long)]
    pub force: bool,
    /// Colours: dark or light (see watch --help)
    #[arg(long, value_enum, default_value_t = ThemeName::Dark)]
    pub theme: ThemeName,
    /// Bead colours on the screen, as on the labels: by-arrow or by-cell (see boxes --help)
    #[arg(long, value_enum, default_value_t = BeadColourArg::ByArrow)]
    pub bead_colours: BeadColourArg,
    /// Who you play: the matchbox machine (it learns), or mcts[:SIMS], perfect or random instead
    #[arg(long, default_value = "matchbox")]
    pub opponent: OpponentSpec,
}

/// The most bytes a game record read from a file or standard input may hold.
const MAX_RECORD: u64 = 16 << 20;

/// A game record: the text of `--moves`, or of `--moves-file` (`-`: standard input).
pub(crate) fn record_text(
    moves: Option<&str>,
    file: Option<&std::path::Path>,
) -> anyhow::Result<Option<String>> {
    use std::io::Read;
    let Some(path) = file else {
        return Ok(moves.map(str::to_string));
    };
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .take(MAX_RECORD + 1)
            .read_to_string(&mut text)
            .map_err(|e| anyhow::anyhow!("standard input: {e}"))?;
        if text.len() as u64 > MAX_RECORD {
            anyhow::bail!("standard input: a game record of more than {MAX_RECORD} bytes");
        }
        return Ok(Some(text));
    }
    Ok(Some(crate::store::read(path)?))
}

/// Runs the command line; returns the process exit code.
pub fn main() -> i32 {
    if let Err(message) = check_arguments(std::env::args_os().skip(1)) {
        eprintln!("error: {message}");
        return 2;
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                e.exit();
            }
            // Clap's message is its first paragraph (a missing argument's names are on the lines
            // under the first), on one line; the rest is usage and a pointer to --help.
            let text = e.render().to_string();
            let first: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            let message = if first.is_empty() {
                "error".to_string()
            } else {
                first.join(" ")
            };
            eprintln!("{message} (see --help)");
            return 2;
        }
    };
    match commands::run(cli) {
        Ok(()) => 0,
        Err(e) => {
            let status = if e.downcast_ref::<error::BadRecord>().is_some() {
                2
            } else {
                1
            };
            // One line, whatever a message quotes; a match's error with the option that gets
            // round it.
            let mut text = format!("{e:#}");
            if let Some(h) = crate::learn::Hint::of(e.as_ref()) {
                text.push_str(&format!("; use {}", h.as_flag()));
            }
            let line: String = text
                .chars()
                .map(|c| if c == '\n' { ' ' } else { c })
                .collect();
            eprintln!("error: {}", crate::text::quote_long(&line));
            status
        }
    }
}

/// The longest argument accepted, in bytes (a file name or a list of values is far shorter).
const MAX_ARGUMENT: usize = 4096;

/// Refuses, before parsing, arguments that no option takes and that would make an error message
/// unreadable: control characters (a newline, an escape sequence), text that is not UTF-8, or
/// more than [`MAX_ARGUMENT`] bytes.
fn check_arguments(args: impl Iterator<Item = std::ffi::OsString>) -> Result<(), String> {
    let mut record = false;
    for (i, arg) in args.enumerate() {
        let Some(text) = arg.to_str() else {
            return Err(format!("argument {} is not UTF-8 text", i + 1));
        };
        if text.len() > MAX_ARGUMENT {
            return Err(format!(
                "argument {} is {} bytes long (at most {MAX_ARGUMENT}): `{}`",
                i + 1,
                text.len(),
                crate::text::quote(text)
            ));
        }
        // A game record may hold newlines and tabs: a turn a line.
        let in_record = record || text.starts_with("--moves=");
        record = text == "--moves";
        let bad = |c: char| c.is_control() && !(in_record && matches!(c, '\n' | '\r' | '\t'));
        if text.chars().any(bad) {
            return Err(format!(
                "argument {} holds control characters (a newline, an escape…): `{}`",
                i + 1,
                crate::text::quote(text)
            ));
        }
    }
    Ok(())
}

/// Reads `A,B` or `A,B,D`.
fn parse_odds(text: &str) -> std::result::Result<crate::learn::odds::OddsRule, String> {
    let bad = || {
        format!(
            "`{}`: give A,B or A,B,D (e.g. 2,0.9 or 2,0.9,0.5): A and B positive, D between 0 and 1",
            crate::text::quote(text)
        )
    };
    let parts: Vec<f64> = text
        .split(',')
        .map(|p| p.trim().parse::<f64>())
        .collect::<std::result::Result<_, _>>()
        .map_err(|_| bad())?;
    let rule = match parts[..] {
        [a, b] => crate::learn::odds::OddsRule { a, b, decay: None },
        [a, b, d] => crate::learn::odds::OddsRule {
            a,
            b,
            decay: Some(d),
        },
        _ => return Err(bad()),
    };
    rule.check().map_err(|e| format!("{}: {e}", bad()))?;
    Ok(rule)
}
