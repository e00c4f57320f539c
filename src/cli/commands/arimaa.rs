//! The commands that take Arimaa's rules as they are, without a learner: `moves` (the turns of a
//! position), `replay arimaa` (a game record, setups and all) and `count arimaa` (why the full
//! game cannot be a pile of matchboxes).

use anyhow::{Context, Result, bail};
use std::fmt;

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::cli::error::BadRecord;
use crate::cli::{CountArgs, GameArgs, MovesArgs, ReplayArgs};
use crate::game::{Game, Side};
use crate::games::Named;
use crate::games::arimaa::{
    Board, GameLine, MiniArimaa, Rules, check_move_number, parse_side, side_name, split_numbered,
};
use crate::rng::{rng_from_seed, uniform_below};
use crate::text::{group, quote};

/// What the arguments name, by the registry.
fn named(game: &GameArgs) -> Option<Named> {
    Named::parse(&game.game, game.size.as_deref()).ok()
}

/// Whether the arguments name Arimaa (full or mini), which these commands take themselves.
pub(super) fn is_arimaa(game: &GameArgs) -> bool {
    named(game).is_some_and(Named::is_arimaa) || is_bad_arimaa_size(game)
}

/// Whether the arguments name Arimaa with a size it does not come in (refused with its message
/// by [`board_of`]).
fn is_bad_arimaa_size(game: &GameArgs) -> bool {
    crate::games::is_arimaa_name(&game.game) && named(game).is_none()
}

/// Whether the arguments name mini-Arimaa (`mini-arimaa`, or `arimaa --size 4`).
pub(super) fn is_mini(game: &GameArgs) -> bool {
    named(game) == Some(Named::Game(crate::games::GameKind::MiniArimaa))
}

/// Whether the arguments name the full game, which has no learner.
pub(super) fn is_full_arimaa(game: &GameArgs) -> bool {
    named(game) == Some(Named::FullArimaa) || is_bad_arimaa_size(game)
}

/// The rules and start of the board the arguments name: the full game, or the mini one.
pub(super) fn board_of(game: &GameArgs) -> Result<(Rules, Option<Board>, bool)> {
    let mini = is_mini(game);
    match (mini, game.size.as_deref().map(str::trim)) {
        (true, _) => {
            let m = MiniArimaa::new();
            Ok((m.rules().clone(), Some(m.start().board), true))
        }
        (false, None | Some("8")) => Ok((Rules::standard(), None, false)),
        (false, Some(s)) => bail!(
            "arimaa comes in --size 8 (the full game) and --size 4 (mini-arimaa), not `{}`",
            quote(s)
        ),
    }
}

/// The standard start after the usual setups (for `moves` with no position).
pub(super) fn standard_start(rules: &Rules) -> Board {
    rules
        .parse_short("[rrrrrrrrdhcemchd                                DHCMECHDRRRRRRRR]")
        .expect("the standard start parses")
}

pub(super) fn parse_position(rules: &Rules, text: &str) -> Result<Board> {
    rules
        .parse_short(text)
        .map_err(|why| anyhow::anyhow!("bad position `{}`: {why}", quote(text)))
}

/// Refuses a position whose game is already over (a rabbit on its goal, a side without rabbits,
/// the side to move unable to move): it has no turns.
fn check_in_play(rules: &Rules, board: &Board, to_move: Side) -> Result<()> {
    if let Some((winner, reason)) =
        rules.end_of_turn(board, to_move.other(), || rules.can_move(board, to_move))
    {
        bail!(
            "the game is over in this position ({} won by {}): there are no turns to play",
            side_name(winner),
            reason.name()
        );
    }
    Ok(())
}

pub(super) fn parse_side_arg(text: Option<&str>) -> Result<Side> {
    match text {
        None => Ok(Side::First),
        Some(t) => {
            parse_side(t).with_context(|| format!("`{}` is not a side (gold or silver)", quote(t)))
        }
    }
}

/// `matchbox moves arimaa`: the turns of a position.
pub(super) fn moves(a: &MovesArgs) -> Result<MovesReport> {
    if crate::games::CARTPOLE.is_named(&a.game.game) {
        bail!("{}", crate::games::CARTPOLE.refusal());
    }
    if !is_arimaa(&a.game) {
        bail!(
            "`moves` lists Arimaa turns; for {} use `replay` or `solve`",
            a.game.game
        );
    }
    let (rules, mini_start, _) = board_of(&a.game)?;
    let side = parse_side_arg(a.side.as_deref())?;
    let board = match &a.position {
        Some(p) => parse_position(&rules, p)?,
        None => mini_start.unwrap_or_else(|| standard_start(&rules)),
    };
    check_in_play(&rules, &board, side)?;
    let mut line = GameLine::new(board, side);
    if let Some(record) = &crate::cli::record_text(a.moves.as_deref(), a.moves_file.as_deref())? {
        play_record(&rules, &mut line, record, a.turn)?;
    }
    if let Some((winner, reason)) = line.end {
        bail!(
            "the game is over after --moves ({} won by {}): there are no turns to list",
            side_name(winner),
            reason.name()
        );
    }
    // Each result kept as its short form packed in 32 bytes (in the short forms' order), not as
    // a turn: 7 million turns take 230 MB.
    let mut keys: Vec<[u64; 4]> = Vec::new();
    let mut legal = 0;
    // A count that runs into millions says how far it has come (on a terminal).
    let steps = crate::cli::progress::Steps::spinner(true, "walking the turns");
    let (first_steps, by_min_steps) = rules.each_turn(&line.board, line.to_move, |b| {
        keys.push(short_key(&rules.short_form(b)));
        legal += usize::from(!line.repeats(b));
        if keys.len().is_multiple_of(100_000) {
            steps.detail(format!("{} distinct turns", group(keys.len() as u64)));
        }
        true
    });
    drop(steps);
    keys.sort_unstable();
    let squares = rules.squares() as usize;
    let mut sha = Sha256::new();
    for (i, k) in keys.iter().enumerate() {
        if i > 0 {
            sha.update(b"\n");
        }
        sha.update(short_of_key(k, squares).as_bytes());
    }
    let hex: String = sha.finalize().iter().map(|b| format!("{b:02x}")).collect();
    let listed = a.list.then(|| {
        rules
            .turns(&line.board, line.to_move)
            .turns
            .iter()
            .map(|(b, steps)| {
                let mark = if line.repeats(b) {
                    "  (third repetition)"
                } else {
                    ""
                };
                format!("{}{mark}", rules.format_steps(&line.board, steps))
            })
            .collect()
    });
    Ok(MovesReport {
        position: rules.short_form(&line.board),
        side: side_name(line.to_move),
        first_steps,
        turns: keys.len(),
        legal_turns: legal,
        turns_by_min_steps: by_min_steps,
        results_sha256: hex,
        diagram: rules.diagram(&line.board),
        listed,
    })
}

/// The characters of a short form, in their order: a square is 4 bits of a key.
const SHORT_SYMBOLS: &[u8; 13] = b" CDEHMRcdehmr";

/// A short form (`[` + a character a square + `]`, up to 64 squares) packed so that keys sort as
/// the short forms do.
fn short_key(short: &str) -> [u64; 4] {
    let mut key = [0u64; 4];
    let inner = short.trim_start_matches('[').trim_end_matches(']');
    for (i, c) in inner.bytes().take(64).enumerate() {
        let code = SHORT_SYMBOLS.iter().position(|&s| s == c).unwrap_or(0) as u64;
        key[i / 16] |= code << ((15 - i % 16) * 4);
    }
    key
}

/// The short form of `squares` squares a key packs.
fn short_of_key(key: &[u64; 4], squares: usize) -> String {
    let mut s = String::with_capacity(squares + 2);
    s.push('[');
    for i in 0..squares.min(64) {
        let code = (key[i / 16] >> ((15 - i % 16) * 4)) & 15;
        s.push(SHORT_SYMBOLS[code as usize] as char);
    }
    s.push(']');
    s
}

/// The turns of an Arimaa position.
#[derive(Serialize)]
pub(super) struct MovesReport {
    position: String,
    side: &'static str,
    first_steps: usize,
    turns: usize,
    legal_turns: usize,
    turns_by_min_steps: Vec<usize>,
    results_sha256: String,
    #[serde(skip)]
    diagram: Vec<String>,
    #[serde(skip)]
    listed: Option<Vec<String>>,
}

impl fmt::Display for MovesReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for l in &self.diagram {
            writeln!(f, "{l}")?;
        }
        let words = ["one step", "two steps", "three steps", "four steps"];
        let by: Vec<String> = self
            .turns_by_min_steps
            .iter()
            .zip(words)
            .map(|(n, w)| format!("{} need {w}", group(*n as u64)))
            .collect();
        writeln!(
            f,
            "{} to move: {} distinct turns ({}); {} legal under the repetition rule; {} first steps",
            self.side,
            group(self.turns as u64),
            by.join(", "),
            group(self.legal_turns as u64),
            group(self.first_steps as u64)
        )?;
        for l in self.listed.iter().flatten() {
            writeln!(f, "  {l}")?;
        }
        Ok(())
    }
}

/// Plays a record's turns on `line`, each checked against its move number if it has one. The
/// turns are numbered from `first` (`--turn`), else from the record's first move number (a
/// fragment of a game, `50g …`), else from 1.
fn play_record(rules: &Rules, line: &mut GameLine, record: &str, first: Option<u32>) -> Result<()> {
    let turns = split_numbered(record);
    let written_first = turns.first().and_then(|(w, _)| w.as_deref()).and_then(|t| {
        let digits = t.trim_end_matches(|c: char| c.is_ascii_alphabetic());
        digits.parse::<usize>().ok().filter(|&n| n >= 1)
    });
    let first_turn = first.map(|t| t as usize).or(written_first).unwrap_or(1);
    let silver_first = usize::from(line.to_move == Side::Second);
    for (i, (written, turn)) in turns.iter().enumerate() {
        let number = first_turn.saturating_add((i + silver_first) / 2);
        let letter = if line.to_move == Side::First {
            'g'
        } else {
            's'
        };
        if let Some(token) = written {
            check_move_number(token, number, line.to_move)
                .map_err(|e| BadRecord(format!("turn {number}{letter}: {e}")))?;
        }
        line.play(rules, turn)
            .map_err(|e| BadRecord(format!("turn {number}{letter}: {e}")))?;
    }
    Ok(())
}

/// `matchbox replay arimaa`: a record checked turn by turn.
pub(super) fn replay(a: &ReplayArgs) -> Result<ArimaaReplay> {
    let (rules, mini_start, mini) = board_of(&a.game)?;
    let side = parse_side_arg(a.side.as_deref())?;
    let mut line = match (&a.position, mini_start) {
        (Some(p), _) => {
            let board = parse_position(&rules, p)?;
            check_in_play(&rules, &board, side)?;
            GameLine::new(board, side)
        }
        (None, Some(start)) => GameLine::new(start, Side::First),
        (None, None) => GameLine::from_setup(),
    };
    let record =
        crate::cli::record_text(a.moves.as_deref(), a.moves_file.as_deref())?.unwrap_or_default();
    play_record(&rules, &mut line, &record, a.turn)?;
    let (winner, reason) = match line.end {
        Some((w, r)) => (side_name(w), Some(r.name())),
        None => ("none", None),
    };
    Ok(ArimaaReplay {
        game: "arimaa",
        size: if mini { "4" } else { "8" },
        ply: line.plies,
        winner,
        reason,
        position: rules.short_form(&line.board),
        side: side_name(line.to_move),
        diagram: rules.diagram(&line.board),
    })
}

/// An Arimaa record played through: where it ended and why.
#[derive(Serialize)]
pub(super) struct ArimaaReplay {
    game: &'static str,
    size: &'static str,
    ply: u32,
    winner: &'static str,
    reason: Option<&'static str>,
    position: String,
    side: &'static str,
    #[serde(skip)]
    diagram: Vec<String>,
}

impl fmt::Display for ArimaaReplay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for l in &self.diagram {
            writeln!(f, "{l}")?;
        }
        let turns = crate::text::count(self.ply as u64, "turn", "turns");
        match self.reason {
            None => writeln!(f, "{turns}; not over: {} to move", self.side)?,
            Some(r) => writeln!(f, "{turns}; {} wins by {r}", self.winner)?,
        }
        writeln!(f, "position: {}", self.position)
    }
}

/// Random games of the full game from the standard start: turns per position and game length.
pub(super) struct Sample {
    positions: u64,
    turns: u64,
    games: u64,
    plies: u64,
}

pub(super) fn sample(rules: &Rules, games: u64, seed: u64) -> Sample {
    let mut rng = rng_from_seed(seed);
    let mut s = Sample {
        positions: 0,
        turns: 0,
        games: 0,
        plies: 0,
    };
    for _ in 0..games {
        let mut line = GameLine::new(standard_start(rules), Side::First);
        // Random games wander: a game not over after 200 turns is left there.
        while line.end.is_none() && line.plies < 200 {
            let list = rules.turns(&line.board, line.to_move);
            s.positions += 1;
            s.turns += list.turns.len() as u64;
            if list.turns.is_empty() {
                break;
            }
            let (_, steps) = &list.turns[uniform_below(&mut rng, list.turns.len() as u32) as usize];
            if line.play_steps(rules, steps).is_err() {
                break;
            }
        }
        s.games += 1;
        s.plies += line.plies as u64;
    }
    s
}

/// `matchbox count arimaa`: the full game's numbers beside the small games', in one table.
pub(super) fn count(a: &CountArgs) -> Result<ArimaaCount> {
    board_of(&a.game)?;
    let rules = Rules::standard();
    let games = a.sample.unwrap_or(10);
    if games > 10 {
        eprintln!(
            "arimaa: sampling {games} random games, about a second each ({})",
            crate::text::duration_text(games as f64 * 0.85)
        );
    }
    let s = sample(&rules, games, 1);
    let mean_turns = s.turns as f64 / s.positions.max(1) as f64;
    let mean_plies = s.plies as f64 / s.games.max(1) as f64;
    // Setups: 16 pieces on 16 squares, 8 rabbits, 2 cats, 2 dogs, 2 horses alike:
    // 16! / (8! 2! 2! 2!) = 64,864,800.
    let setups: u64 = (1..=16u64).product::<u64>() / ((1..=8u64).product::<u64>() * 8);
    // A matchbox per position a learner could meet: at the least, one per setup pair.
    let setup_pairs = setups as f64 * setups as f64;
    let litres = setup_pairs * 0.053 * 0.036 * 0.014 * 1000.0;
    // The small games, exactly, for the same table.
    let small = small_games();
    Ok(ArimaaCount {
        game: "arimaa",
        setups_per_side: setups,
        mean_turns_per_position: mean_turns,
        sample_positions: s.positions,
        sample_games: s.games,
        mean_game_turns: mean_plies,
        boxes_at_least: setup_pairs,
        pile_litres_at_least: litres,
        small_games: small
            .into_iter()
            .map(|(game, boxes, turns_per_position)| SmallGame {
                game,
                boxes,
                turns_per_position,
            })
            .collect(),
    })
}

/// A small game's learner beside Arimaa.
#[derive(Serialize)]
pub(super) struct SmallGame {
    game: String,
    boxes: u64,
    turns_per_position: f64,
}

/// Why the full game cannot be a pile of matchboxes.
#[derive(Serialize)]
pub(super) struct ArimaaCount {
    game: &'static str,
    setups_per_side: u64,
    mean_turns_per_position: f64,
    sample_positions: u64,
    sample_games: u64,
    mean_game_turns: f64,
    boxes_at_least: f64,
    pile_litres_at_least: f64,
    small_games: Vec<SmallGame>,
}

impl fmt::Display for ArimaaCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pairs = self.boxes_at_least;
        let litres = self.pile_litres_at_least;
        writeln!(
            f,
            "Arimaa, the game built to resist computers, beside the games matchboxes can learn:"
        )?;
        writeln!(
            f,
            "  {:<34} {:>22} {:>16}",
            "game", "matchboxes", "moves a position"
        )?;
        for g in &self.small_games {
            writeln!(
                f,
                "  {:<34} {:>22} {:>16.1}",
                g.game,
                group(g.boxes),
                g.turns_per_position
            )?;
        }
        writeln!(
            f,
            "  {:<34} {:>22} {:>16}",
            "arimaa (full game)",
            format!("≥ {pairs:.2e}"),
            group(self.mean_turns_per_position.round() as u64)
        )?;
        writeln!(f)?;
        writeln!(
            f,
            "  setups per side: {} (16! / (8! 2! 2! 2!))",
            group(self.setups_per_side)
        )?;
        writeln!(
            f,
            "  distinct turns per position: {:.0} on average over {} positions of {} random games ({:.0} turns a game, cut at 200)",
            self.mean_turns_per_position,
            group(self.sample_positions),
            self.sample_games,
            self.mean_game_turns
        )?;
        writeln!(
            f,
            "  matchboxes: at least one per pair of setups, {pairs:.2e}; as a pile {:.2e} m³, a cube {:.0} km a side",
            litres / 1000.0,
            (litres / 1000.0).cbrt() / 1000.0
        )
    }
}

/// The learners' machines of the small games (default settings), and their moves per position.
pub(super) fn small_games() -> Vec<(String, u64, f64)> {
    use crate::games::hexapawn::{Hexapawn, Size};
    use crate::games::tictactoe::TicTacToe;
    use crate::learn::{BoxSet, GameDefaults};
    fn row<G: GameDefaults>(name: &str, game: &G) -> (String, u64, f64) {
        let side = game.default_side();
        let set = BoxSet::build_with(
            game,
            side,
            game.default_symmetry(side),
            game.default_forced(),
        );
        let mean = set.arrow_count() as f64 / set.len().max(1) as f64;
        (name.to_string(), set.len() as u64, mean)
    }
    vec![
        row(
            "hexapawn 3x3 (Gardner's HER)",
            &Hexapawn::new(Size::GARDNER),
        ),
        row("noughts and crosses (MENACE)", &TicTacToe),
        row(
            "havannah base 2",
            &crate::games::havannah::Havannah::new(
                crate::games::havannah::Base::new(2).expect("valid"),
            ),
        ),
        row("mini-arimaa 4x4", &MiniArimaa::new()),
    ]
}
