//! Why each game ended, in words a class reads: by the rules of every game, and a machine that
//! resigns with its empty box named.

use matchbox::game::{Game, Side};
use matchbox::games::GameKind;
use matchbox::games::arimaa::MiniArimaa;
use matchbox::games::havannah::{Base, Havannah};
use matchbox::games::hexapawn::{Hexapawn, Size};
use matchbox::games::tictactoe::TicTacToe;
use matchbox::learn::{Against, MachineSpec, rival_for};
use matchbox::rng::{rng_from_seed, uniform_below};

/// `replay`'s sentence for a record.
fn why(game: &[&str], moves: &str) -> String {
    let mut args = vec!["replay"];
    args.extend(game);
    args.extend(["--moves", moves, "--json"]);
    crate::common::json(&args)["why"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn replay_says_why_each_game_ended() {
    let hex = ["hexapawn"];
    assert_eq!(why(&hex, "a1-a2 b3-b2 c1-c2"), "Black cannot move");
    assert_eq!(
        why(&hex, "b1-b2 a3xb2 a1-a2 b2-b1"),
        "Black reached the far rank"
    );
    let ttt = ["tictactoe"];
    assert_eq!(
        why(&ttt, "a1 b1 b2 c1 c3"),
        "X has three in a row: a1 b2 c3"
    );
    assert_eq!(
        why(&ttt, "b2 a1 c1 a3 a2 c2 b1 b3 c3"),
        "the board is full: a draw"
    );
    let hav = ["havannah", "--size", "3"];
    assert_eq!(why(&hav, "c3 b2 a1 c4 a2 d4 a3"), "White made a bridge");
    // Not over: no sentence.
    assert_eq!(why(&hex, "b1-b2"), "");
}

/// Random games of `game` to their end: every end has a sentence that names a side or a draw.
fn every_end_is_said<G: Game>(game: G, games: usize, words: &[&str]) {
    let mut rng = rng_from_seed(5);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..games {
        let mut pos = game.start();
        for _ in 0..500 {
            if let Some(o) = game.outcome(&pos) {
                let text = game.end_words(&pos, &o);
                let first = text.chars().next().unwrap();
                let sides = [Side::First, Side::Second].map(|s| game.side_name(s).to_lowercase());
                let low = text.to_lowercase();
                assert!(
                    sides.iter().any(|s| low.contains(s.as_str())) || low.contains("draw"),
                    "{text}"
                );
                assert!(
                    first.is_uppercase() || text.starts_with("the board"),
                    "{text}"
                );
                seen.insert(words.iter().position(|w| text.contains(w)).expect(&text));
                break;
            }
            let moves = game.moves(&pos);
            pos = game.play(
                &pos,
                moves[uniform_below(&mut rng, moves.len() as u32) as usize],
            );
        }
    }
    assert_eq!(seen.len(), words.len(), "every kind of end met: {words:?}");
}

#[test]
fn every_game_says_every_kind_of_end() {
    // Every game of the registry: a new game is a new arm here, or this does not compile.
    for kind in GameKind::ALL {
        match kind {
            GameKind::Hexapawn(_) => {
                let hex = Hexapawn::new(Size::GARDNER);
                every_end_is_said(hex, 400, &["far rank", "took every", "cannot move"]);
            }
            GameKind::TicTacToe => {
                every_end_is_said(TicTacToe, 400, &["three in a row", "full"]);
            }
            GameKind::Havannah(_) => {
                let hav = Havannah::new(Base::new(3).unwrap());
                every_end_is_said(hav, 300, &["bridge", "fork"]);
            }
            GameKind::MiniArimaa => every_end_is_said(
                MiniArimaa::new(),
                200,
                &["goal", "no rabbits", "cannot move"],
            ),
        }
    }
}

#[test]
fn a_machine_that_resigns_names_its_empty_box() {
    let game = Hexapawn::new(Size::GARDNER);
    // HER with no beads at all: it resigns at its first box.
    let mut m = MachineSpec::default().build(&game).unwrap();
    empty_all(&mut m);
    let auto = matchbox::learn::Engine::Auto;
    let mut b = crate::common::bout_of(&game, m, Against::Perfect, auto).unwrap();
    let ended = loop {
        if let Some(r) = b.ply().unwrap().ended {
            break r;
        }
    };
    assert_eq!(ended.why, "HER (black) resigns: its box 1 is empty");
    // HER against HIM, whose boxes are empty: HIM resigns at once, and says so.
    let her = MachineSpec::default().build(&game).unwrap();
    let mut him = rival_for(&game, &her);
    empty_all(&mut him);
    let mut b = crate::common::bout_of(&game, her, Against::Rival(him), auto).unwrap();
    let ended = b
        .ply()
        .unwrap()
        .ended
        .expect("HIM resigns at the first move");
    assert_eq!(ended.result, matchbox::learn::GameResult::Win);
    assert_eq!(
        ended.why,
        "HIM (white) resigns: its box for this position is empty"
    );
}

fn empty_all<G: Game>(m: &mut matchbox::learn::Machine<G>) {
    for k in 0..m.boxes.len() {
        let none = vec![matchbox::learn::Beads::default(); m.boxes.arrows(k).len()];
        m.set_beads(k, &none).unwrap();
    }
}

/// `ended` of a report: every game counted once, by kinds that name a side or a draw.
fn ends_of(report: &serde_json::Value, games: u64) -> Vec<String> {
    let ended = report["ended"].as_object().expect("ended counts");
    let total: u64 = ended.values().map(|n| n.as_u64().unwrap()).sum();
    assert_eq!(total, games, "{ended:?}");
    ended.keys().cloned().collect()
}

#[test]
fn train_and_experiment_count_the_games_by_how_they_ended() {
    let cases: [(&[&str], &[&str]); 5] = [
        (
            &["hexapawn"],
            &["black: reached the far rank", "white: reached the far rank"],
        ),
        (
            &["octopawn", "--opponent", "random"],
            &["white: reached the far rank"],
        ),
        (
            &["tictactoe"],
            &["draw: the board is full", "o: three in a row"],
        ),
        (
            &["havannah", "--size", "2", "--opponent", "random"],
            &["white: bridge"],
        ),
        (
            &["arimaa", "--size", "4x4", "--opponent", "random"],
            &["gold: goal"],
        ),
    ];
    for (game, kinds) in cases {
        let mut train = vec!["train"];
        train.extend(game);
        train.extend(["--games", "400", "--seed", "3", "--json"]);
        let names = ends_of(&crate::common::json(&train), 400);
        for k in kinds {
            assert!(names.iter().any(|n| n == k), "{game:?}: {k} in {names:?}");
        }
        let mut exp = vec!["experiment"];
        exp.extend(game);
        exp.extend(["--runs", "6", "--games", "30", "--seed", "3", "--json"]);
        ends_of(&crate::common::json(&exp), 180);
    }
    // The text says it too.
    let text = crate::common::stdout(&["train", "hexapawn", "--games", "300", "--seed", "1"]);
    assert!(text.contains("how the games ended: "), "{text}");
}

/// The cells of a board line drawn in reverse video (the winning structure), by their text.
fn reversed<G: matchbox::view::board::BoardView>(
    game: &G,
    pos: &G::Position,
) -> Vec<(usize, String)> {
    use ratatui::style::Modifier;
    let mut out = Vec::new();
    for (row, line) in game.board_lines(pos, &[]).iter().enumerate() {
        for span in &line.spans {
            if span.style.add_modifier.contains(Modifier::REVERSED) {
                out.push((row, span.content.to_string()));
            }
        }
    }
    out
}

/// The board marks what won: the three in a row, the pawn on its far rank; nothing before the end.
#[test]
fn the_board_marks_what_won() {
    use matchbox::game::Game;
    use matchbox::games::hexapawn::{Hexapawn, Size};
    use matchbox::games::tictactoe::TicTacToe;
    let t = TicTacToe;
    let mut pos = t.start();
    for mv in ["a1", "a2", "b2", "a3", "c3"] {
        let m = t.parse_move(&pos, mv).unwrap();
        pos = t.play(&pos, m);
    }
    // Rows are drawn from rank 3 down: c3, b2, a1, each an X.
    assert_eq!(
        reversed(&t, &pos),
        vec![(0, "X".into()), (1, "X".into()), (2, "X".into())]
    );
    let mut before = t.start();
    for mv in ["a1", "a2", "b2", "a3"] {
        let m = t.parse_move(&before, mv).unwrap();
        before = t.play(&before, m);
    }
    assert!(reversed(&t, &before).is_empty());
    // Hexapawn: White's pawn takes its way to rank 3: the pawn there is marked.
    let h = Hexapawn::new(Size::GARDNER);
    let mut pos = h.start();
    for mv in ["b1-b2", "a3-a2", "b2xc3"] {
        let m = h.parse_move(&pos, mv).unwrap();
        pos = h.play(&pos, m);
    }
    assert!(h.outcome(&pos).is_some());
    assert_eq!(reversed(&h, &pos), vec![(0, "W".into())]);
}
