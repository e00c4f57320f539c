//! The figures of the papers beyond their counts: Michie's 287 positions and his "about 2:1"
//! of random play, exact from the game's graph.

use matchbox::game::Side;
use matchbox::game::graph::GameGraph;
use matchbox::games::hexapawn::{Hexapawn, Size};
use matchbox::games::tictactoe::TicTacToe;
use matchbox::learn::{BoxSet, Forced, SymmetryMode};
use matchbox::solve::chance::{Fraction, random_play};

#[test]
fn michies_287_is_304_less_the_boxes_where_every_move_loses_at_once() {
    let set = BoxSet::build_with(&TicTacToe, Side::First, SymmetryMode::Full, Forced::Skip);
    assert_eq!(set.len(), 304);
    let doomed: Vec<usize> = (0..set.len())
        .filter(|&b| matchbox::learn::boxes::loses_at_once(&TicTacToe, &set.position(b)))
        .collect();
    assert_eq!(doomed.len(), 17);
    assert_eq!(set.len() - set.lost_at_once(&TicTacToe), 287);
    // All at the opener's fourth move (the seventh ply), where O can first hold two threats.
    assert!(doomed.iter().all(|&b| set.move_number(b) == 7));
}

#[test]
fn random_play_favours_the_opener_about_two_to_one_exactly() {
    let graph = GameGraph::build(&TicTacToe);
    let r = random_play(&graph).unwrap();
    let [x, draw, o] = r.exact.unwrap();
    // Of 1260 random games (in chance), X wins 737, 160 are drawn and O wins 363: 2.03 to 1.
    assert_eq!(x, Fraction::new(737, 1260));
    assert_eq!(draw, Fraction::new(8, 63));
    assert_eq!(o, Fraction::new(121, 420));
    assert_eq!(
        x.checked_add(draw).unwrap().checked_add(o).unwrap(),
        Fraction::ONE
    );
    assert!((r.ratio() - 2.03).abs() < 0.01, "{}", r.ratio());
}

#[test]
fn random_hexapawn_is_exact_too() {
    let graph = GameGraph::build(&Hexapawn::new(Size::GARDNER));
    let r = random_play(&graph).unwrap();
    let e = r.exact.unwrap();
    assert_eq!(e[1], Fraction::ZERO, "hexapawn has no draws");
    assert_eq!(e[0].checked_add(e[2]).unwrap(), Fraction::ONE);
    assert!((e[0].value() - r.chances[0]).abs() < 1e-12);
}

/// The repository's `docs/results.md` is what `matchbox results` makes: every quick row, word
/// for word, and every slow row marked as such.
#[test]
fn the_results_page_is_what_the_command_makes() {
    let page = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/results.md"))
        .expect("docs/results.md");
    let quick = crate::common::stdout(&["results", "--quick"]);
    let rows: Vec<&str> = quick
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| claim"))
        .collect();
    assert!(rows.len() >= 13, "{quick}");
    for row in &rows {
        assert!(
            page.contains(row),
            "docs/results.md lacks the row the command makes:\n{row}\n(run `matchbox results --out docs/results.md`)"
        );
    }
    // The page's other rows are the slow ones, marked.
    let slow = page
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| claim") && l.contains('`'))
        .filter(|l| !rows.contains(l))
        .collect::<Vec<_>>();
    assert!(!slow.is_empty());
    for l in slow {
        assert!(
            l.ends_with("(slow) |"),
            "a row neither quick nor marked slow: {l}"
        );
    }
    for chart in ["results/her-exact.png", "results/michie-sweep.png"] {
        assert!(page.contains(chart));
        let path = format!("{}/docs/{chart}", env!("CARGO_MANIFEST_DIR"));
        assert!(std::fs::metadata(&path).is_ok(), "{path} missing");
    }
}

#[test]
fn results_refuses_to_replace_a_page_it_did_not_write() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("notes.md");
    std::fs::write(&page, "# my notes\n").unwrap();
    let err = crate::common::refused(&["results", "--quick", "--out", page.to_str().unwrap()]);
    assert!(
        err.contains("is not a page `matchbox results` wrote"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&page).unwrap(), "# my notes\n");
}
