use matchbox::game::hexapawn::{Hexapawn, Size};
use matchbox::game::{Game, Side};
use matchbox::learn::{BoxSet, SymmetryMode};
use matchbox::game::graph::GameGraph;
use matchbox::solve::Solution;
fn main() {
    let g = Hexapawn::new(Size::GARDNER);
    for side in [Side::First, Side::Second] {
        for mode in [SymmetryMode::Full, SymmetryMode::Gardner, SymmetryMode::None] {
            let b = BoxSet::build(&g, side, mode);
            println!("{side} {mode}: {} boxes {} arrows {:?}", b.len(), b.arrow_count(), b.by_move());
        }
    }
    for s in ["3x3","4x4","3x4","4x3","5x5","4x6","4x5","5x4","6x4", "6x5", "5x6"] {
        let t = std::time::Instant::now();
        let g = Hexapawn::new(s.parse().unwrap());
        let gr = GameGraph::build(&g);
        let sol = Solution::solve(&gr);
        println!("{s}: {} nodes, {:?} winner {:?} {:?}", gr.len(), sol.value(0), sol.winner(&gr, 0), t.elapsed());
    }
}
