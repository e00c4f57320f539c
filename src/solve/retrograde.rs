//! Retrograde analysis: values for a graph that may have cycles.

use std::collections::VecDeque;

use super::Value;
use crate::game::Game;
use crate::game::graph::{GameGraph, NodeId};

/// The value of every node: finished positions first, then, in order of distance, every position
/// whose value is forced. Positions never forced are draws.
pub(super) fn solve<G: Game>(graph: &GameGraph<G>) -> Vec<Value> {
    let n = graph.len();
    // Parents of each node, as compressed lists (one entry per edge).
    let mut parent_count = vec![0u32; n + 1];
    for p in 0..n as NodeId {
        for &c in graph.children(p) {
            parent_count[c as usize + 1] += 1;
        }
    }
    for i in 0..n {
        parent_count[i + 1] += parent_count[i];
    }
    let starts = parent_count;
    let mut fill = starts.clone();
    let mut parents = vec![0 as NodeId; graph.edge_count()];
    for p in 0..n as NodeId {
        for &c in graph.children(p) {
            parents[fill[c as usize] as usize] = p;
            fill[c as usize] += 1;
        }
    }
    let mut value: Vec<Option<Value>> = vec![None; n];
    // Children not yet known, and the best value found among the known ones.
    let mut unknown: Vec<u32> = (0..n as NodeId)
        .map(|p| graph.children(p).len() as u32)
        .collect();
    let mut best: Vec<Option<Value>> = vec![None; n];
    let mut queue = VecDeque::new();
    for i in 0..n as NodeId {
        if let Some(outcome) = graph.outcome(i) {
            value[i as usize] = Some(Value::of_finished(outcome.winner, graph.to_move(i)));
            queue.push_back(i);
        } else if graph.children(i).is_empty() {
            value[i as usize] = Some(Value::Draw);
            queue.push_back(i);
        }
    }
    while let Some(c) = queue.pop_front() {
        let Some(v) = value[c as usize] else { continue };
        for &p in &parents[starts[c as usize] as usize..starts[c as usize + 1] as usize] {
            if value[p as usize].is_some() {
                continue;
            }
            let seen = v.seen_from(graph.to_move(c) == graph.to_move(p));
            unknown[p as usize] -= 1;
            if best[p as usize].is_none_or(|b| seen.rank() > b.rank()) {
                best[p as usize] = Some(seen);
            }
            // A win is taken at once (found in order of distance, it is the fastest); otherwise
            // the position is decided when every move is known.
            if matches!(seen, Value::Win(_)) || unknown[p as usize] == 0 {
                value[p as usize] = best[p as usize];
                queue.push_back(p);
            }
        }
    }
    value
        .into_iter()
        .map(|v| v.unwrap_or(Value::Draw))
        .collect()
}
