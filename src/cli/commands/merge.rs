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
    for v in &part.variants {
        check_sums(&v.result, runs.len(), part.games)
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
    Ok(())
}

/// Says how `b` (from `path`) is not a part of the same experiment as `a` (from `first`).
fn check_same(a: &Part, b: &Part, first: &Path, path: &Path) -> Result<()> {
    let differ = |what: &str| -> Result<()> {
        bail!(
            "{}: a part of another experiment than {} ({what} differ)",
            path.display(),
            first.display()
        )
    };
    if a.runs != b.runs {
        return differ("--runs");
    }
    if a.games != b.games {
        return differ("--games");
    }
    if a.compare != b.compare {
        return differ("--compare");
    }
    if a.shard.n != b.shard.n {
        return differ("the numbers of shards");
    }
    let names = |p: &Part| {
        p.variants
            .iter()
            .map(|v| v.name.clone())
            .collect::<Vec<_>>()
    };
    if names(a) != names(b) {
        return differ("the variants");
    }
    for (x, y) in a.variants.iter().zip(&b.variants) {
        if let Some(key) = x.settings.first_difference(&y.settings) {
            return differ(&format!("the settings: {key}"));
        }
        if x.label != y.label {
            return differ("the labels");
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
                    let total = std::mem::replace(&mut a.result, ExperimentResult::empty(0));
                    a.result = total.merge(b.result);
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

pub(super) fn merge(a: &MergeArgs) -> Result<ExperimentReport> {
    let read: Vec<(&str, &Path)> = a.parts.iter().map(|p| ("merge", p.as_path())).collect();
    super::outputs::check_outputs_reading(&a.output, &[], &read)?;
    super::outputs::check_chart(&a.output, "merge", false)?;
    let sum = gather(&a.parts)?;
    report(
        sum.runs,
        sum.games,
        sum.compare.is_some(),
        &sum.variants,
        &a.output,
    )
}
