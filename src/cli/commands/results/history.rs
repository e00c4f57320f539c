//! The quick rows: counts, solved values, Michie's 287 and his 2:1, and HER's exact curve.

use std::sync::Arc;

use super::{Row, Section, percent_within};
use crate::game::graph::GameGraph;
use crate::game::{Game, Side};
use crate::games::hexapawn::{Hexapawn, Size};
use crate::games::tictactoe::TicTacToe;
use crate::learn::engine::{Enumerated, Table};
use crate::learn::exact::{ExactCurve, exact_curve};
use crate::learn::{BoxSet, Forced, Machine, Reinforcement, StageBeads, SymmetryMode};
use crate::rng::{rng_from_seed, uniform_below};
use crate::solve::chance::random_play;
use crate::solve::{Solution, TieBreak, Value};

pub(super) fn sections() -> Vec<Section> {
    vec![counts(), random(), her_exact()]
}

fn by_move<G: Game>(set: &BoxSet<G>) -> String {
    let parts: Vec<String> = set.by_move().values().map(|n| n.to_string()).collect();
    format!("{} = {}", set.len(), parts.join(" + "))
}

fn counts() -> Section {
    let x = BoxSet::build_with(&TicTacToe, Side::First, SymmetryMode::Full, Forced::Skip);
    let x9 = BoxSet::build_with(&TicTacToe, Side::First, SymmetryMode::Full, Forced::Include);
    let o = BoxSet::build_with(&TicTacToe, Side::Second, SymmetryMode::Full, Forced::Skip);
    let doomed = x.lost_at_once(&TicTacToe);
    let hex = Hexapawn::new(Size::GARDNER);
    let her = BoxSet::build(&hex, Side::Second, SymmetryMode::Gardner);
    let her19 = BoxSet::build(&hex, Side::Second, SymmetryMode::Full);
    let him = BoxSet::build(&hex, Side::First, SymmetryMode::Full);
    let black = BoxSet::build(&hex, Side::Second, SymmetryMode::None);
    let white = BoxSet::build(&hex, Side::First, SymmetryMode::None);
    let first = |g: &Hexapawn| {
        let graph = GameGraph::build(g);
        match Solution::solve(&graph).map(|s| s.value(0)) {
            Ok(Value::Win(d)) => format!("first player wins (in {d} plies)"),
            Ok(Value::Loss(d)) => format!("second player wins (in {d} plies)"),
            Ok(Value::Draw) => "a draw".to_string(),
            Err(e) => e.to_string(),
        }
    };
    let rows = vec![
        Row::exact(
            "MENACE's boxes (opener, symmetry merged, no box for the forced 9th move)",
            "Michie 1961/63; Scroggs' label generator",
            "304 = 1 + 12 + 108 + 183",
            by_move(&x),
            "matchbox boxes tictactoe --count",
        ),
        Row::exact(
            "with the forced 9th move; playing second",
            "Michie; Scroggs",
            "338; 289",
            format!("{}; {}", x9.len(), o.len()),
            "matchbox count tictactoe",
        ),
        Row::exact(
            "\"287 essentially distinct positions which the opening player can encounter\"",
            "Michie 1963, p. 232",
            "287",
            format!(
                "{} = {} less the {doomed} boxes where every move loses at once (O holds two threats, X can stop one; all at X's 4th move)",
                x.len() - doomed,
                x.len()
            ),
            "matchbox count tictactoe",
        ),
        Row::exact(
            "HER's boxes and beads",
            "Gardner 1962",
            "24 = 2 + 11 + 11; 55 arrows",
            format!("{}; {} arrows", by_move(&her), her.arrow_count()),
            "matchbox boxes hexapawn --count",
        ),
        Row::exact(
            "HER with mirror pairs merged; HIM",
            "Scroggs; kyp44's label sets",
            "19 boxes, 45 arrows; 18 boxes",
            format!(
                "{} boxes, {} arrows; {} boxes",
                her19.len(),
                her19.arrow_count(),
                him.len()
            ),
            "matchbox count hexapawn",
        ),
        Row::exact(
            "hexapawn positions without symmetry",
            "Manchester \"hexapawn drawers\"",
            "37 Black to move, 33 White",
            format!("{} Black to move, {} White", black.len(), white.len()),
            "matchbox count hexapawn",
        ),
        Row::exact(
            "hexapawn 3×3 under perfect play",
            "Gardner 1962",
            "second player wins",
            first(&hex),
            "matchbox solve hexapawn",
        ),
        Row::exact(
            "octopawn 4×4 under perfect play",
            "Hexapawn article",
            "first player wins",
            first(&Hexapawn::new(Size::OCTOPAWN)),
            "matchbox solve hexapawn --size 4x4",
        ),
    ];
    Section {
        title: "Counts and solved values".into(),
        text: "Every count is an enumeration of the positions each learner can meet, and every value a solve of the whole game graph.".into(),
        rows,
        extra: Vec::new(),
        charts: Vec::new(),
    }
}

/// Random play: exact from the graph, and a million random games beside it.
fn random() -> Section {
    let graph = GameGraph::build(&TicTacToe);
    let r = random_play(&graph).expect("noughts and crosses has no cycles");
    let [x, draw, o] = r.exact.expect("noughts and crosses' fractions fit");
    let (games, seed) = (1_000_000u64, 1u64);
    let mut rng = rng_from_seed(seed);
    let mut ends = [0u64; 3];
    for _ in 0..games {
        let mut v = 0;
        while graph.outcome(v).is_none() {
            let kids = graph.children(v);
            v = kids[uniform_below(&mut rng, kids.len() as u32) as usize];
        }
        ends[match graph.outcome(v).and_then(|o| o.winner) {
            Some(Side::First) => 0,
            None => 1,
            Some(Side::Second) => 2,
        }] += 1;
    }
    let (won, won_ci) = percent_within(ends[0], games);
    let (lost, lost_ci) = percent_within(ends[2], games);
    let rows = vec![
        Row::exact(
            "random against random favours the opener \"to the extent of about 2:1\"",
            "Michie 1963, p. 234",
            "about 2:1",
            format!(
                "{:.3} : 1 exactly: the opener wins {x} ({:.4}), draws {draw} ({:.4}), loses {o} ({:.4})",
                r.ratio(),
                x.value(),
                draw.value(),
                o.value()
            ),
            "matchbox results",
        ),
        Row::exact(
            "the same, simulated",
            "Michie 1963 (Pegasus 2, Fig. 5)",
            "about 2:1",
            format!(
                "{:.3} : 1; won {won}, lost {lost} of {} games",
                ends[0] as f64 / ends[2] as f64,
                crate::text::group(games)
            ),
            "matchbox results (seed 1)",
        )
        .within(format!("won {won_ci}, lost {lost_ci}")),
    ];
    Section {
        title: "Michie's random play".into(),
        text: "Both sides pick uniformly among their legal squares. The exact chances are sums over the game's graph as fractions: each position's chance shared equally among its moves.".into(),
        rows,
        extra: Vec::new(),
        charts: Vec::new(),
    }
}

/// HER (Gardner's 24 boxes, one bead an arrow, a loss takes the last move's bead) against the
/// perfect player (with its tie-break) or the random one, and its table and machine.
pub(super) fn her_parts(
    perfect: Option<TieBreak>,
    beads: u32,
) -> (Enumerated<Hexapawn>, Table, Machine<Hexapawn>) {
    hexapawn_parts(Side::Second, SymmetryMode::Gardner, perfect, beads)
}

/// A Gardner-reinforced hexapawn learner on `side`, its table and machine.
fn hexapawn_parts(
    side: Side,
    mode: SymmetryMode,
    perfect: Option<TieBreak>,
    beads: u32,
) -> (Enumerated<Hexapawn>, Table, Machine<Hexapawn>) {
    let game = Hexapawn::new(Size::GARDNER);
    let boxes = Arc::new(BoxSet::build(&game, side, mode));
    let en = Enumerated::new(game);
    let table = match perfect {
        Some(tie) => Table::against_perfect(&en, &boxes, tie).expect("hexapawn solves"),
        None => Table::against_random(&en, &boxes),
    };
    let m = Machine::new(boxes, StageBeads::uniform(beads), Reinforcement::GARDNER, 1);
    (en, table, m)
}

/// HER's exact curve for `games` games.
pub(super) fn her_curve(
    perfect: Option<TieBreak>,
    beads: u32,
    games: usize,
) -> Result<ExactCurve, String> {
    her_curve_within(perfect, beads, games, 400_000)
}

/// As [`her_curve`], with at most `states` bead states (each costs some hundreds of bytes).
pub(super) fn her_curve_within(
    perfect: Option<TieBreak>,
    beads: u32,
    games: usize,
    states: usize,
) -> Result<ExactCurve, String> {
    let (_, table, m) = her_parts(perfect, beads);
    exact_curve(&table, &m, games, states).map_err(|e| e.to_string())
}

fn her_exact() -> Section {
    let c = her_curve(Some(TieBreak::Random), 1, 1000).expect("HER's chain is small");
    let f = her_curve(Some(TieBreak::Fastest), 1, 1000).expect("HER's chain is small");
    let rows = vec![
        Row::exact(
            "HER \"becomes invincible after ten to twenty games\" (secondary sources: 30–40)",
            "Gardner 1962",
            "10–20 games",
            format!("against the perfect player: {}", last_loss_words(&c)),
            "matchbox results",
        ),
        Row::exact(
            "the same, the perfect player delaying its loss (`--tie-break fastest`)",
            "–",
            "–",
            last_loss_words(&f),
            "matchbox results",
        ),
        Row::exact(
            "HER's losses in all, against the perfect player",
            "–",
            "–",
            format!(
                "mean {}, median {}; game 1 lost with chance {:.4}, game 10 {:.4}, game 20 {:.4}; delaying: mean {}",
                mean(c.mean_losses),
                quantile(c.losses_quantile(0.5)),
                c.lost(1),
                c.lost(10),
                c.lost(20),
                mean(f.mean_losses),
            ),
            "matchbox results",
        ),
        him_row(),
    ];
    Section {
        title: "HER's exact learning curve".into(),
        text: format!(
            "Not simulated: HER only ever loses beads, so its bead states are finite ({} of them within reach) and its games make a Markov chain on them. From each state every game has an exact chance and leaves one next state (`src/learn/exact.rs`); the chance that game n is lost, the distribution of the number of losses and of the game of the last loss, and their means follow exactly (to f64's rounding). The means count every game to the end of learning. The opponent matters: matchbox's perfect player picks at random among its best moves, so HER meets every line sooner or later and the rarely met ones make a long tail; Gardner played HER himself, and a person repeats the lines that win. MENACE is out of reach of this method: rewarded, its beads grow without bound, so its states never end; punished only, its 304 boxes have far more bead states than any memory (HER with three beads an arrow already passes 400,000), so its curves here are simulated.",
            crate::text::group(c.states as u64)
        ),
        rows,
        extra: Vec::new(),
        charts: Vec::new(),
    }
}

/// HIM (White, mirror pairs merged, Gardner's reinforcement): against the perfect player it can
/// only lose, until its first box is empty; against the random player it learns.
fn him_row() -> Row {
    let curve = |perfect| {
        let (_, table, m) = hexapawn_parts(Side::First, SymmetryMode::Full, perfect, 1);
        exact_curve(&table, &m, 100, 400_000)
    };
    let (p, r) = match (curve(Some(TieBreak::Random)), curve(None)) {
        (Ok(p), Ok(r)) => (p, r),
        (Err(e), _) | (_, Err(e)) => {
            return Row::exact("HIM", "–", "–", e.to_string(), "matchbox results");
        }
    };
    Row::exact(
        "HIM, White with mirror pairs merged (Gardner's reinforcement)",
        "–",
        "–",
        format!(
            "against the perfect player it loses for ever with chance {:.4} (its first box empties: the perfect player wins every game); against the random player it loses for ever with chance {:.4} too: White, who loses under perfect play, has no line that never loses, so every bead state loses sometimes and the beads run out ({} bead states)",
            p.loses_for_ever,
            r.loses_for_ever,
            crate::text::group(r.states as u64)
        ),
        "matchbox results",
    )
}

fn mean(m: Option<f64>) -> String {
    m.map_or("infinite".into(), |m| format!("{m:.4}"))
}

fn quantile(q: Option<usize>) -> String {
    q.map_or("beyond the games computed".into(), |n| n.to_string())
}

/// The game of the last loss, in words: by games 10, 20 and 40, its median, 90 % and mean.
fn last_loss_words(c: &ExactCurve) -> String {
    let by = |n: usize| c.last_loss[..=n].iter().sum::<f64>();
    format!(
        "the last loss is by game 10 with chance {:.4}, by game 20 {:.4}, by game 40 {:.4}; median game of the last loss {}, 90 % by game {}, mean {}",
        by(10),
        by(20),
        by(40),
        quantile(c.last_loss_quantile(0.5)),
        quantile(c.last_loss_quantile(0.9)),
        mean(c.mean_last_loss)
    )
}
