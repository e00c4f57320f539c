//! `merge`: the parts of an experiment run in slices (`experiment --shard K/N`, on one machine
//! or many) summed into the experiment's report. The sums are integers, so the report is the
//! unsharded experiment's, byte for byte.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::experiment::{ExperimentReport, PART_OF, PART_VERSION, Part, report};
use super::*;
use crate::cli::{MergeArgs, Shard};
use crate::learn::engine::Runs;

/// Reads one part and checks it holds what its shard says.
fn read_part(path: &Path) -> Result<Part> {
    let name = path.display();
    let f = store::open(path)?;
    let value: serde_json::Value =
        serde_json::from_reader(std::io::BufReader::with_capacity(1 << 16, f))
            .with_context(|| format!("{name}: not a part of an experiment (not JSON)"))?;
    if value.get("part_of").and_then(|v| v.as_str()) != Some(PART_OF) {
        bail!("{name}: not a part of an experiment (print one with `experiment --shard K/N`)");
    }
    let part: Part =
        serde_json::from_value(value).with_context(|| format!("{name}: a broken part"))?;
    if part.version != PART_VERSION {
        bail!(
            "{name}: a part of version {}; this matchbox reads version {PART_VERSION}",
            part.version
        );
    }
    if part.runs > u32::MAX as usize {
        bail!(
            "{name}: {} runs: an experiment counts at most {} runs",
            crate::text::group(part.runs as u64),
            crate::text::group(u32::MAX as u64)
        );
    }
    if part.runs == 0 || part.games == 0 {
        bail!(
            "{name}: {} of {}: an experiment plays at least one run of at least one game",
            crate::text::count(part.runs as u64, "run", "runs"),
            crate::text::count(part.games as u64, "game", "games")
        );
    }
    if part.games > super::experiment::MAX_EXPERIMENT_GAMES {
        bail!(
            "{name}: {} games a run: an experiment keeps at most {} games a run",
            crate::text::group(part.games as u64),
            crate::text::group(super::experiment::MAX_EXPERIMENT_GAMES as u64)
        );
    }
    let Shard { k, n } = part.shard;
    if n > crate::cli::MAX_SHARDS {
        bail!(
            "{name}: shard {k}/{n}: an experiment is cut into at most {} shards",
            crate::text::group(crate::cli::MAX_SHARDS as u64)
        );
    }
    let Some(runs) = Runs::shard(part.runs, k, n) else {
        bail!("{name}: shard {k}/{n}: K from 1 to N");
    };
    if part.variants.is_empty() {
        bail!("{name}: a part without results");
    }
    // A label is printed and drawn: one written by hand with control characters is refused.
    let forged = |c: char| c.is_control() || crate::text::is_format_control(c);
    if let Some(v) = part.variants.iter().find(|v| {
        v.label.chars().chain(v.name.chars()).any(forged)
            || v.header.chars().any(|c| c != '\n' && forged(c))
    }) {
        bail!(
            "{name}: the label {} holds control characters: not a part matchbox wrote",
            crate::text::quote(&v.label)
        );
    }
    for v in &part.variants {
        check_sums(&v.result, runs.len(), part.games)
            .and_then(|()| check_ends(v))
            .with_context(|| format!("{name}: shard {k}/{n}"))?;
    }
    Ok(part)
}

/// The sums of a slice's runs hold `runs` runs of `games` games each.
fn check_sums(r: &ExperimentResult, runs: usize, games: usize) -> Result<()> {
    if r.runs != runs {
        bail!("holds {} runs where its slice has {runs} runs", r.runs);
    }
    let lengths = [
        r.losses_by_game.len(),
        r.draws_by_game.len(),
        r.wins_by_game.len(),
        r.losses_by_game_first_box_kept.len(),
        r.cumulative_losses.len(),
        r.cumulative_losses_sq.len(),
    ];
    if r.last_loss.len() != games + 1 || lengths.iter().any(|&l| l != games) {
        bail!("its counts are not of {games} games");
    }
    let games_counted = r
        .losses_by_game
        .iter()
        .zip(&r.draws_by_game)
        .zip(&r.wins_by_game);
    if games_counted
        .map(|((l, d), w)| *l as u64 + *d as u64 + *w as u64)
        .any(|n| n != runs as u64)
        || r.last_loss.iter().map(|&n| n as u64).sum::<u64>() != runs as u64
        || r.first_box_empty > runs
        || r.ended.total() != runs as u64 * games as u64
    {
        bail!("its counts do not add up to its {runs} runs");
    }
    check_last_losses(r, runs, games)?;
    // Losses so far: the running sums of the losses of each game, their squares between the
    // least and the most they can be.
    let mut so_far = 0u64;
    for g in 0..games {
        so_far += r.losses_by_game[g] as u64;
        let most_sq = (g as u64 + 1).pow(2).saturating_mul(runs as u64);
        if r.cumulative_losses[g] != so_far
            || r.cumulative_losses_sq[g] < so_far
            || r.cumulative_losses_sq[g] > most_sq
            || r.losses_by_game_first_box_kept[g] > r.losses_by_game[g]
        {
            bail!("its losses so far do not add up at game {}", g + 1);
        }
    }
    Ok(())
}

/// The ends a part counts are its game's — each `SIDE: reason`, `SIDE resigned` or `draw: reason`
/// of one of the game's sides — and they add up to its wins, draws and losses (the learner's).
fn check_ends(v: &super::experiment::VariantRuns) -> Result<()> {
    let s = &v.settings;
    let kind = crate::games::GameKind::parse(&s.game, Some(&s.size))
        .or_else(|_| crate::games::GameKind::parse(&s.game, None))
        .with_context(|| format!("settings: key `game`: {}", crate::text::quote(&s.game)))?;
    let sides = with_game!(kind, |g| [Side::First, Side::Second]
        .map(|x| crate::game::Game::side_name(&g, x)));
    let (mut won, mut drew, mut lost) = (0u64, 0u64, 0u64);
    for (end, n) in v.result.ended.by_count() {
        let (who, wins) = match (end.strip_suffix(" resigned"), end.split_once(": ")) {
            (Some(side), _) => (side, false),
            (None, Some(("draw", _))) => {
                drew += n;
                continue;
            }
            (None, Some((side, _))) => (side, true),
            (None, None) => ("", false),
        };
        if !sides.contains(&who) {
            bail!(
                "its games ended \"{}\": not an end of {} (its sides are {} and {})",
                crate::text::quote(end),
                s.game,
                sides[0],
                sides[1]
            );
        }
        match (who == s.learner) == wins {
            true => won += n,
            false => lost += n,
        }
    }
    let r = &v.result;
    let sum = |c: &[u32]| c.iter().map(|&n| n as u64).sum::<u64>();
    if (won, drew, lost)
        != (
            sum(&r.wins_by_game),
            sum(&r.draws_by_game),
            sum(&r.losses_by_game),
        )
    {
        bail!(
            "its games by how they ended ({won} won, {drew} drawn, {lost} lost by {}) are not its wins, draws and losses",
            s.learner
        );
    }
    Ok(())
}

/// The runs by their last loss agree with the losses: a run whose last loss was game `g` lost
/// game `g`; the runs that ever lost are at least the most that lost one game, and at most the
/// losses in all.
fn check_last_losses(r: &ExperimentResult, runs: usize, games: usize) -> Result<()> {
    for g in 1..=games {
        if r.last_loss[g] > r.losses_by_game[g - 1] {
            bail!(
                "{} runs last lost game {g}, which only {} runs lost: its last losses contradict its losses",
                r.last_loss[g],
                r.losses_by_game[g - 1]
            );
        }
    }
    let lost = runs as u64 - (r.last_loss[0] as u64).min(runs as u64);
    let most_in_a_game = r.losses_by_game.iter().copied().max().unwrap_or(0) as u64;
    let losses: u64 = r.losses_by_game.iter().map(|&n| n as u64).sum();
    if lost < most_in_a_game || lost > losses {
        bail!(
            "{lost} runs ever lost, against {most_in_a_game} that lost one game and {losses} losses in all: its last losses contradict its losses"
        );
    }
    Ok(())
}

/// Says how `b` (from `path`) is not a part of the same experiment as `a` (from `first`).
fn check_same(a: &Part, b: &Part, first: &Path, path: &Path) -> Result<()> {
    let differ = |what: &str| -> Result<()> {
        bail!(
            "{}: a part of another experiment than {} ({what})",
            path.display(),
            first.display()
        )
    };
    if a.runs != b.runs {
        return differ("--runs differ");
    }
    if a.games != b.games {
        return differ("--games differ");
    }
    if a.compare != b.compare {
        return differ("--compare differs");
    }
    if a.shard.n != b.shard.n {
        return differ("the numbers of shards differ");
    }
    let names = |p: &Part| {
        p.variants
            .iter()
            .map(|v| v.name.clone())
            .collect::<Vec<_>>()
    };
    if names(a) != names(b) {
        return differ("the variants differ");
    }
    for (x, y) in a.variants.iter().zip(&b.variants) {
        let keys = x.settings.differences(&y.settings);
        if let Some(first) = keys.first() {
            let (ja, jb) = (
                serde_json::to_value(&x.settings).unwrap_or_default(),
                serde_json::to_value(&y.settings).unwrap_or_default(),
            );
            let shown = |v: &serde_json::Value| crate::text::quote(&v[first.as_str()].to_string());
            let more = match keys.len() {
                1 => String::new(),
                _ => format!("; also {}", keys[1..].join(", ")),
            };
            return differ(&format!(
                "its settings differ: {first} is {} here, {} there{more}",
                shown(&jb),
                shown(&ja)
            ));
        }
        if x.label != y.label {
            return differ("the labels differ");
        }
    }
    Ok(())
}

/// Reads every part, checks that they are the N slices of one experiment, once each, and sums
/// them.
fn gather(paths: &[PathBuf]) -> Result<Part> {
    let mut seen: BTreeMap<usize, &Path> = BTreeMap::new();
    let mut sum: Option<Part> = None;
    for path in paths {
        let part = read_part(path)?;
        let k = part.shard.k;
        if let Some(other) = seen.insert(k, path) {
            bail!(
                "{}: shard {k}/{} again (it is also {})",
                path.display(),
                part.shard.n,
                other.display()
            );
        }
        sum = Some(match sum {
            None => part,
            Some(mut acc) => {
                check_same(&acc, &part, paths[0].as_path(), path)?;
                for (a, b) in acc.variants.iter_mut().zip(part.variants) {
                    if a.exact != b.exact {
                        bail!(
                            "{}: its exact curve is not {}'s: the parts are of different machines",
                            path.display(),
                            paths[0].display()
                        );
                    }
                    let total = std::mem::replace(&mut a.result, ExperimentResult::empty(0));
                    a.result = total.checked_merge(b.result).with_context(|| {
                        format!(
                            "{}: its counts and the others' pass what a count holds",
                            path.display()
                        )
                    })?;
                }
                acc
            }
        });
    }
    let sum = sum.context("give the parts to merge")?;
    // How many are missing, and the first few: never a list as long as the shards.
    let n = sum.shard.n;
    let count = n - seen.len().min(n);
    if count > 0 {
        let first: Vec<String> = (1..=n)
            .filter(|k| !seen.contains_key(k))
            .take(10)
            .map(|k| k.to_string())
            .collect();
        let more = match count > first.len() {
            true => format!(
                " and {} more",
                crate::text::group((count - first.len()) as u64)
            ),
            false => String::new(),
        };
        let (s, verb) = if count == 1 { ("", "is") } else { ("s", "are") };
        bail!(
            "{} shard{s} of {} {verb} missing ({}{more}): every part from 1/{n} to {n}/{n} is needed",
            crate::text::group(count as u64),
            crate::text::group(n as u64),
            first.join(", ")
        );
    }
    Ok(sum)
}

pub(super) fn merge(a: &MergeArgs, out: &super::Out) -> Result<ExperimentReport> {
    let read: Vec<(&str, &Path)> = a.parts.iter().map(|p| ("merge", p.as_path())).collect();
    super::outputs::check_outputs_reading(&a.output, &[], &read)?;
    super::outputs::check_chart(&a.output, "merge", false)?;
    let sum = gather(&a.parts)?;
    // The settings' header each variant's part kept, as the unsharded experiment printed it.
    for v in &sum.variants {
        out.preamble(&v.header);
    }
    report(
        sum.runs,
        sum.games,
        sum.compare.is_some(),
        &sum.variants,
        &a.output,
    )
}
