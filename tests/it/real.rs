//! The real machine kept in step: every bead colour of every box of MENACE and HER, seen in every
//! image of its position, stands for the square the program plays (the labels' rule, and the
//! engine's); an operator's session by colours and moves, with a refused colour, an undo, an
//! audit and a revival; its record teaches a copy the same beads.

use matchbox::game::{Game, Sym};
use matchbox::games::hexapawn::{Hexapawn, Size};
use matchbox::games::tictactoe::TicTacToe;
use matchbox::learn::real;
use matchbox::learn::real::operate::{FirstBox, Operator, OperatorError, Turn, open_box};
use matchbox::learn::{Against, Engine, GameDefaults, Machine, MachineGame};
use matchbox::palette::{self, BeadColours};

use crate::common::{bout_of, fresh_machine};

/// For every box, every image of its position and every frame a game can see the board in: the
/// box opened is drawn on its label as the board turned by the symmetry said; each bead's colour
/// is the one its label prints; the square it stands for, turned as the box sees the board, is
/// the label's arrow; and the engine given that square draws that bead.
fn every_colour_is_its_square<G: GameDefaults>(game: &G, m: &Machine<G>, colours: BeadColours) {
    let labels = matchbox::labels::LabelBeads::initial(&m.boxes, &m.initial, colours);
    let mut checked = 0;
    let syms = game.symmetry_count() as u8;
    for b in 0..m.boxes.len() {
        for (s, frame) in (0..syms).flat_map(|s| (0..syms).map(move |f| (Sym(s), Sym(f)))) {
            let real = game.transform_position(s, &m.boxes.position(b));
            let Some(f) = m.box_opened_in(game, &real, frame) else {
                continue;
            };
            let open = open_box(game, m, colours, &real, frame);
            assert_eq!(open.box_number, f + 1);
            let drawing = game.transform_position(open.sym, &real);
            assert_eq!(drawing, m.boxes.position(f), "the label's drawing");
            let arrows = m.boxes.arrows(f).to_vec();
            assert_eq!(open.beads.len(), arrows.len());
            for (bead, square) in &open.beads {
                let k = bead.arrow;
                assert_eq!(
                    bead.colour,
                    labels.colour(game, k, arrows[k]),
                    "the label's colour"
                );
                assert_eq!(bead.letter, palette::letter(bead.colour));
                let mv = game.parse_move(&real, square).unwrap();
                assert_eq!(
                    game.transform_move(open.sym, mv),
                    arrows[k],
                    "box {}",
                    f + 1
                );
                let mut copy = m.clone();
                let mut part = MachineGame::default();
                let given = copy.choose_given(game, &real, 0, frame, &mut part, mv);
                assert_eq!(given, Some(Some((f, k))), "the engine draws that bead");
                checked += 1;
            }
        }
    }
    assert!(checked > 4 * m.boxes.len(), "{checked} beads checked");
}

#[test]
fn every_bead_colour_of_menace_and_her_in_every_image_is_the_square_played() {
    for colours in [BeadColours::ByArrow, BeadColours::ByCell] {
        every_colour_is_its_square(&TicTacToe, &fresh_machine(&TicTacToe, 1), colours);
        let her = Hexapawn::new(Size::GARDNER);
        every_colour_is_its_square(&her, &fresh_machine(&her, 1), colours);
    }
}

pub(crate) fn operator<G: GameDefaults>(game: &G, m: Machine<G>, rule: FirstBox) -> Operator<G> {
    let bout = bout_of(game, m, Against::Person, Engine::Auto).unwrap();
    Operator::new(bout, BeadColours::ByCell, rule)
}

/// Plays a session's games: the visitor's first legal move, the machine's first bead it holds
/// (by letter); returns the boxes' steps said at each end.
fn play_session<G: GameDefaults>(op: &mut Operator<G>, games: usize) -> Vec<String> {
    let mut said = Vec::new();
    for _ in 0..games {
        loop {
            match op.turn() {
                Turn::Visitor(legal) => op.visitor(&legal[0]).unwrap(),
                Turn::Machine(open) => match open.beads.iter().find(|(b, _)| b.count > 0) {
                    Some((b, _)) => op.bead(&b.letter).unwrap(),
                    None => op.resign().unwrap(),
                },
                Turn::Over(end) => {
                    said.extend(end.steps.iter().map(|s| s.words()));
                    op.next_game();
                    break;
                }
            }
        }
    }
    said
}

#[test]
fn a_menace_session_refuses_a_colour_not_in_the_box_undoes_audits_and_its_record_teaches_a_copy() {
    let game = TicTacToe;
    let start = fresh_machine(&game, 4);
    let mut op = operator(&game, start.clone(), FirstBox::Resign);
    let Turn::Machine(open) = op.turn() else {
        panic!("MENACE moves first")
    };
    assert_eq!(open.box_number, 1, "the first box");
    // By cell: the empty board's box has the three squares of its symmetry class.
    let missing = (0..10)
        .find(|&c| !open.beads.iter().any(|(b, _)| b.colour == c))
        .unwrap();
    let name = palette::BEADS[missing].name;
    let e = op.bead(name).unwrap_err();
    assert!(
        matches!(&e, OperatorError::NotInBox { box_number: 1, .. }) && e.to_string().contains(name),
        "{e}"
    );
    assert_eq!(op.turn(), Turn::Machine(open.clone()), "nothing changed");
    assert!(matches!(
        op.bead("ultraviolet"),
        Err(OperatorError::NotAColour(..))
    ));
    // A bead by its name, then undone: the same box asked again.
    let (first, square) = open.beads[0].clone();
    op.bead(first.name).unwrap();
    assert_eq!(op.words(), std::slice::from_ref(&square));
    assert!(matches!(op.turn(), Turn::Visitor(_)));
    op.undo().unwrap();
    assert_eq!(op.turn(), Turn::Machine(open));
    assert!(matches!(op.undo(), Err(OperatorError::NothingToUndo)));
    let said = play_session(&mut op, 6);
    assert!(
        said.iter()
            .all(|s| s.starts_with("box ") && s.contains("then it holds"))
    );
    // The audit is the copy's beads; the record, learned by a fresh copy, gives the same.
    for number in [1, 2, 100, 304] {
        let audit = op.audit(number).unwrap();
        let beads: Vec<u32> = op
            .machine()
            .beads_in(number - 1)
            .iter()
            .map(|n| n.get())
            .collect();
        assert_eq!(audit.iter().map(|b| b.count).collect::<Vec<_>>(), beads);
    }
    assert!(matches!(
        op.audit(305),
        Err(OperatorError::NoSuchBox(305, 304))
    ));
    // The inventory: in the boxes as the session began (the labels' shopping list) and now.
    let inventory = op.inventory();
    let labels =
        matchbox::labels::LabelBeads::initial(&start.boxes, &start.initial, BeadColours::ByCell);
    let bought = matchbox::labels::bead_counts(&game, &start.boxes, &labels);
    drop(labels);
    let was: Vec<(usize, u64)> = inventory.iter().map(|&(c, w, _)| (c, w)).collect();
    assert_eq!(was, bought, "the shopping list");
    let now: u64 = inventory.iter().map(|x| x.2).sum();
    assert_eq!(now, op.machine().beads_left());
    let record = op.record(&[("game", "tictactoe".into())]);
    let parsed = real::parse(&record).unwrap();
    assert_eq!(parsed.games.len(), 6);
    let mut bout = bout_of(&game, start, Against::Person, Engine::Auto).unwrap();
    for g in &parsed.games {
        let learned = real::learn_game(&mut bout, g, false).unwrap();
        assert!(learned.disagreements.is_empty());
    }
    assert_eq!(bout.learner().digest(), op.machine().digest());
    assert_eq!(bout.learner().games_played, 6);
}

/// HER's first box holding one bead, before a game White wins at once after HER's first move:
/// the machine, the box (from 0), and the game's three moves (White's opening, HER's reply that
/// the bead plays, White's win).
pub(crate) fn her_one_bead_from_losing() -> (Machine<Hexapawn>, usize, [String; 3]) {
    let her = Hexapawn::new(Size::GARDNER);
    let pos0 = her.start();
    let (w1, b1, w2) = (her.moves(&pos0).into_iter())
        .flat_map(|w1| {
            let p1 = her.play(&pos0, w1);
            her.moves(&p1).into_iter().map(move |b1| (w1, b1))
        })
        .find_map(|(w1, b1)| {
            let p2 = her.play(&her.play(&pos0, w1), b1);
            let win = (her.moves(&p2).into_iter()).find(|&w2| {
                her.outcome(&her.play(&p2, w2))
                    .is_some_and(|o| o.winner.is_some())
            });
            win.map(|w2| (w1, b1, w2))
        })
        .expect("a quick win for White");
    let mut m = fresh_machine(&her, 2);
    let p1 = her.play(&pos0, w1);
    let b = m.box_opened_in(&her, &p1, Sym::IDENTITY).unwrap();
    // Only the bead that plays HER's reply b1 left in the box.
    let b1_text = her.format_move_at(&p1, b1);
    let seen = open_box(&her, &m, BeadColours::ByCell, &p1, Sym::IDENTITY);
    let k = (seen.beads.iter())
        .position(|(_, sq)| *sq == b1_text)
        .unwrap();
    let only: Vec<_> = (0..seen.beads.len())
        .map(|i| matchbox::learn::Beads(u32::from(i == k)))
        .collect();
    m.set_beads(b, &only).unwrap();
    let p2 = her.play(&p1, b1);
    let words = [
        her.format_move_at(&pos0, w1),
        b1_text,
        her.format_move_at(&p2, w2),
    ];
    (m, b, words)
}

/// HER's first box holding one bead, and a game White wins at once after HER's first move: with
/// the revival rule the box keeps its bead (and says so), without it the box is empty and the
/// next game from it resigns.
#[test]
fn her_revives_its_first_box_or_resigns_for_good() {
    let her = Hexapawn::new(Size::GARDNER);
    for rule in [FirstBox::Revive, FirstBox::Resign] {
        let (m, b, [w1, _, w2]) = her_one_bead_from_losing();
        let mut op = operator(&her, m, rule);
        op.visitor(&w1).unwrap();
        let Turn::Machine(open) = op.turn() else {
            panic!()
        };
        assert_eq!(open.box_number, b + 1);
        let (bead, _) = open.beads.iter().find(|(x, _)| x.count == 1).unwrap();
        op.bead(&bead.letter).unwrap();
        op.visitor(&w2).unwrap();
        let Turn::Over(end) = op.turn() else {
            panic!("White won")
        };
        let step = end.steps.iter().find(|s| s.box_number == b + 1).unwrap();
        match rule {
            FirstBox::Revive => {
                assert!(
                    step.revived && step.words().contains("keeps one bead"),
                    "{}",
                    step.words()
                );
                assert_eq!(op.machine().box_total(b), 1);
            }
            FirstBox::Resign => {
                assert!(!step.revived);
                assert_eq!(op.machine().box_total(b), 0);
                op.next_game();
                op.visitor(&w1).unwrap();
                let Turn::Machine(open) = op.turn() else {
                    panic!()
                };
                assert!(open.beads.iter().all(|(x, _)| x.count == 0));
                op.resign().unwrap();
                assert!(matches!(op.turn(), Turn::Over(e) if e.why.contains("resigns")));
            }
        }
    }
}

/// The games a bout of `m` against the perfect player plays ply by ply (as the watch screen
/// plays them), as a record's lines; and the machine after them.
fn played_games<G: GameDefaults>(game: &G, m: Machine<G>, n: usize) -> (Vec<String>, Machine<G>) {
    let mut bout = bout_of(game, m, Against::Perfect, Engine::Lazy).unwrap();
    let mut lines = Vec::new();
    for _ in 0..n {
        let (mut words, mut pos) = (Vec::new(), game.start());
        loop {
            let ply = bout.ply().unwrap();
            match ply.mv {
                Some(mv) => {
                    words.push(game.format_move_at(&pos, mv));
                    pos = game.play(&pos, mv);
                }
                None if ply.drawn.is_some_and(|d| d.arrow.is_none()) => words.push("resign".into()),
                None => {}
            }
            if ply.ended.is_some() {
                break;
            }
        }
        lines.push(words.join(" "));
    }
    (lines, bout.into_machines().0)
}

/// `train --record` of N games played against the perfect player gives the machine those N
/// games gave, bead for bead, for MENACE and for HER; the header's settings apply; a record's
/// illegal move, a resignation on the visitor's turn and an unknown setting are refused naming
/// the file, the line and the move; a game the copy would not have played is a warning.
#[test]
fn train_record_learns_the_games_a_record_holds_bead_for_bead() {
    let dir = tempfile::tempdir().unwrap();
    let her = Hexapawn::new(Size::GARDNER);
    let cases: [(&str, Vec<String>, String); 2] = [
        {
            let (lines, m) = played_games(&TicTacToe, fresh_machine(&TicTacToe, 9), 40);
            ("tictactoe", lines, m.digest())
        },
        {
            let (lines, m) = played_games(&her, fresh_machine(&her, 9), 40);
            ("hexapawn", lines, m.digest())
        },
    ];
    for (game, lines, digest) in cases {
        let path = dir.path().join(format!("{game}.txt"));
        let text = format!(
            "# {game} games\ngame: {game}\nseed: 9\n\n{}\n",
            lines.join("\n")
        );
        std::fs::write(&path, text).unwrap();
        let save = dir.path().join(format!("{game}.yaml"));
        let args = [
            "train",
            game,
            "--record",
            path.to_str().unwrap(),
            "--json",
            "--save",
        ];
        let report = crate::common::json(&[&args[..], &[save.to_str().unwrap()]].concat());
        assert_eq!(report["games"], 40, "{report}");
        let saved = std::fs::read_to_string(&save).unwrap();
        let digest_of = |m: Machine<_>| m.digest();
        let got = match game {
            "tictactoe" => {
                digest_of(matchbox::store::from_yaml(&TicTacToe, &save, &saved).unwrap())
            }
            _ => matchbox::store::from_yaml(&her, &save, &saved)
                .unwrap()
                .digest(),
        };
        assert_eq!(got, digest, "{game}: the machine the games made");
    }
    let refused = |text: &str| {
        let path = dir.path().join("bad.txt");
        std::fs::write(&path, text).unwrap();
        crate::common::refused(&["train", "tictactoe", "--record", path.to_str().unwrap()])
    };
    let e = refused("b2 b2\n");
    assert!(e.contains("bad.txt: line 1: move 2 `b2`"), "{e}");
    // A game that does not end (a visitor who walked away) is left out, said; a byte-order mark
    // and Windows' line ends are nothing.
    let path = dir.path().join("walked.txt");
    let text = "\u{feff}game: tictactoe\r\n\r\nb2 a1 c3\r\nb2 a1 c3 c1 a3 b3 b1 a2 c2\r\n";
    std::fs::write(&path, text).unwrap();
    let args = [
        "train",
        "tictactoe",
        "--record",
        path.to_str().unwrap(),
        "--json",
    ];
    let out = crate::common::run(&args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("walked.txt: line 3: the game is not over after its moves: left out"),
        "{err}"
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["games"], 1, "{report}");
    // Box 1 after the drawn game: its move b2 reinforced, the others as they began.
    let first = &report["first_box"];
    assert_eq!(first[0], serde_json::json!(["a1", 8]), "{report}");
    assert_eq!(first[1], serde_json::json!(["b1", 8]), "{report}");
    assert!(
        first[2][1].as_u64().unwrap() > 8 && first[2][0] == "b2",
        "{report}"
    );
    let e = refused("b2 a1 c3 c1 a3 b3 b1 a2 c2\nb2 zz\n");
    assert!(e.contains("bad.txt: line 2: move 2 `zz`"), "{e}");
    let e = refused("b2 resign\n");
    assert!(
        e.contains("line 1: move 2 `resign`") && e.contains("not to move"),
        "{e}"
    );
    let e = refused("colour: blue\nb2\n");
    assert!(e.contains("line 1: unknown setting `colour`"), "{e}");
    let e = refused("game: hexapawn\nb2\n");
    assert!(e.contains("line 1: game: the record is of hexapawn"), "{e}");
}

/// The real machine's game is the truth: a resignation where the copy's box still holds beads is
/// taken as recorded, and said as a warning naming the line and the box to audit.
#[test]
fn a_record_the_copy_disagrees_with_is_taken_and_the_box_to_audit_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("real.txt");
    std::fs::write(&path, "b2 a1 c3 c1 a3 b3 b1 a2 c2\nresign\n").unwrap();
    let out = crate::common::run(&[
        "train",
        "tictactoe",
        "--record",
        path.to_str().unwrap(),
        "--json",
    ]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("real.txt: line 2: box 1: resigned where the copy's box holds")
            && err.contains("audit box 1"),
        "{err}"
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["losses"], 1, "{report}");
}

/// `matchbox operate` driven as an operator types: each line read, each prompt answered (the
/// visitor's last legal move, the machine's bead `A`; at the first machine's turn, a colour the
/// box does not have, then a bead and `undo`), `audit 1` and `beads` once; `games` games, then
/// `quit`. Returns everything the program wrote.
fn operate(dir: &std::path::Path, game: &[&str], games: usize) -> String {
    use std::io::{BufRead, Write};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_matchbox"))
        .arg("operate")
        .args(game)
        .args(["--seed", "5", "--first-box", "revive"])
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let out = std::io::BufReader::new(child.stdout.take().unwrap());
    let (mut said, mut done, mut mistakes) = (String::new(), 0, 0);
    for line in out.lines() {
        let line = line.unwrap();
        said.push_str(&line);
        said.push('\n');
        let answer = if let Some(rest) = line.strip_prefix("the visitor's move (") {
            rest.split(')')
                .next()
                .unwrap()
                .split_whitespace()
                .last()
                .unwrap()
                .to_string()
        } else if line.starts_with("type the colour") {
            mistakes += 1;
            match mistakes {
                1 => "ultraviolet".into(),
                2 => "A".into(),
                3 => "undo".into(),
                4 => "audit 1".into(),
                5 => "beads".into(),
                _ => "a".into(),
            }
        } else if line.starts_with("Enter: the next game") {
            done += 1;
            if done == games {
                "quit".into()
            } else {
                String::new()
            }
        } else {
            continue;
        };
        if writeln!(input, "{answer}").is_err() {
            break;
        }
    }
    assert!(child.wait().unwrap().success(), "{said}");
    said
}

/// An operator's session of MENACE and of HER in the terminal, as typed: a colour not a bead's is
/// refused and asked again, a bead undone, a box audited, the beads counted; the record written
/// game by game, continued by the same command after a restart, and `train --record` of it gives
/// the copy the session saved, bead for bead.
#[test]
fn an_operators_session_in_the_terminal_keeps_the_record_and_the_copy_in_step() {
    for game in [&["tictactoe"][..], &["hexapawn"][..]] {
        let dir = tempfile::tempdir().unwrap();
        let args: Vec<&str> = [game, &["--save", "m.yaml"]].concat();
        let said = operate(dir.path(), &args, 3);
        assert!(
            said.contains("✗ `ultraviolet` is not a bead colour"),
            "{said}"
        );
        assert!(
            said.contains("box 1 should hold") && said.contains("beads, colour by colour:"),
            "{said}"
        );
        assert!(said.contains("3 games in the record"), "{said}");
        let said = operate(dir.path(), &args, 2);
        assert!(
            said.contains("(3 games so far)") && said.contains("5 games in the record"),
            "{said}"
        );
        let record =
            std::fs::read_to_string(dir.path().join(format!("{}-real.txt", game[0]))).unwrap();
        let lines: Vec<&str> = record
            .lines()
            .filter(|l| !l.is_empty() && !l.contains(':'))
            .collect();
        assert_eq!(lines.len(), 5, "{record}");
        assert!(record.contains("first_box: revive"), "{record}");
        let path = dir.path().join(format!("{}-real.txt", game[0]));
        let again = dir.path().join("again.yaml");
        let args = [
            "train",
            game[0],
            "--record",
            path.to_str().unwrap(),
            "--save",
            again.to_str().unwrap(),
        ];
        crate::common::stdout(&args);
        let beads = |p: &std::path::Path| -> Vec<String> {
            let text = std::fs::read_to_string(p).unwrap();
            text.lines()
                .filter(|l| !l.starts_with('#') && !l.starts_with("seed") && !l.starts_with("rng"))
                .map(String::from)
                .collect()
        };
        assert_eq!(
            beads(&again),
            beads(&dir.path().join("m.yaml")),
            "{}",
            game[0]
        );
    }
}

/// The words an operator reads — "the board is its label turned 90° clockwise" — are
/// right: the label's drawing moved as they say (by a rotation written here, cell by cell) is the
/// board, for every box of MENACE seen in every image.
#[test]
fn the_turn_an_operator_is_told_takes_the_label_to_the_board() {
    use matchbox::view::board::BoardView;
    let game = TicTacToe;
    let m = fresh_machine(&game, 1);
    // A position as rows from the top (the notation's ranks, "X.O/.X./..O"), moved as told.
    let grid = |p: &str| -> Vec<Vec<char>> { p.split('/').map(|r| r.chars().collect()).collect() };
    let clockwise = |g: &Vec<Vec<char>>| -> Vec<Vec<char>> {
        // Row i from the top, column j from the left, goes to row j, column 2 - i.
        let mut out = vec![vec!['.'; 3]; 3];
        for (i, row) in g.iter().enumerate() {
            for (j, &c) in row.iter().enumerate() {
                out[j][2 - i] = c;
            }
        }
        out
    };
    let mirrored = |g: &Vec<Vec<char>>| -> Vec<Vec<char>> {
        g.iter()
            .map(|r| r.iter().rev().copied().collect())
            .collect()
    };
    let mut words_seen = std::collections::BTreeSet::new();
    for b in 0..m.boxes.len() {
        for s in 0..8u8 {
            let real = game.transform_position(Sym(s), &m.boxes.position(b));
            let open = open_box(&game, &m, BeadColours::ByArrow, &real, Sym::IDENTITY);
            let words = game.turn_words(open.sym);
            let mut g = grid(&game.format_position(&m.boxes.position(open.box_number - 1)));
            // Each word as a mirror left to right (or none), then quarter turns clockwise.
            let (mirror, quarters) = match words.as_str() {
                "as drawn" => (false, 0),
                "turned 90° clockwise" => (false, 1),
                "turned 180°" => (false, 2),
                "turned 90° anticlockwise" => (false, 3),
                "mirrored left to right" => (true, 0),
                "mirrored across the a1–c3 diagonal" => (true, 1),
                "mirrored top to bottom" => (true, 2),
                "mirrored across the a3–c1 diagonal" => (true, 3),
                other => panic!("{other}"),
            };
            if mirror {
                g = mirrored(&g);
            }
            for _ in 0..quarters {
                g = clockwise(&g);
            }
            assert_eq!(
                g,
                grid(&game.format_position(&real)),
                "box {}: {words}",
                open.box_number
            );
            words_seen.insert(words);
        }
    }
    assert_eq!(
        words_seen.len(),
        8,
        "every turn and mirror said: {words_seen:?}"
    );
}

/// `replay --record` checks each game of a record and says how each ended; the record's game is
/// the command's, and a game cut short is refused naming its line.
#[test]
fn replay_reads_a_record_game_by_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.txt");
    let text = "# two games\ngame: tictactoe\n\nb2 a1 c3 c1 a3 b3 b1 a2 c2\nb2 a1 resign\n";
    std::fs::write(&path, text).unwrap();
    let name = path.to_str().unwrap();
    let report = crate::common::json(&["replay", "tictactoe", "--record", name, "--json"]);
    assert_eq!(report["games"][0]["line"], 4, "{report}");
    assert_eq!(report["games"][0]["winner"], "draw");
    assert_eq!(report["games"][1]["winner"], "o", "x resigned: {report}");
    assert_eq!(report["wins"]["draw"], 1);
    let e = crate::common::refused(&["replay", "hexapawn", "--record", name]);
    assert!(e.contains("the file is for tictactoe, not hexapawn"), "{e}");
    std::fs::write(&path, "b2 a1\nb2 a1 resign\n").unwrap();
    let out = crate::common::run(&["replay", "tictactoe", "--record", name, "--json"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("r.txt: line 1: the game is not over after its moves: left out"),
        "{err}"
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        report["games"][0]["line"], 2,
        "only the game that ended: {report}"
    );
}

/// `matchbox operate ARGS` in `dir` given `typed` at once: what it wrote and how it ended.
fn operate_typed(dir: &std::path::Path, args: &[&str], typed: &[u8]) -> std::process::Output {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_matchbox"))
        .arg("operate")
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(typed).unwrap();
    child.wait_with_output().unwrap()
}

/// Whatever is typed, the session goes on (a line of any bytes, one too long, a box number too
/// big) until `quit`; a machine too big to build of real boxes is refused before any file.
#[test]
fn operate_takes_any_input_and_refuses_a_machine_of_no_real_boxes() {
    let dir = tempfile::tempdir().unwrap();
    let long = "x".repeat(5000);
    let typed =
        format!("\u{1b}]0;t\u{7}\u{202e}\n{long}\naudit 99999999999999999999\n\u{ff}\nquit\n");
    let mut bytes = typed.into_bytes();
    bytes.extend([0xff, 0xfe, b'\n']);
    let out = operate_typed(dir.path(), &["hexapawn"], &bytes);
    assert!(out.status.success());
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("a line of more than 1024 bytes"), "{said}");
    assert!(said.contains("is not a box number (1 to 24)"), "{said}");
    assert!(
        said.contains("0 games in the record hexapawn-real.txt"),
        "{said}"
    );
    let e = crate::common::refused(&["operate", "arimaa", "--size", "4"]);
    assert!(e.contains("17,981 boxes"), "{e}");
}

/// A record's header as other records write it: `Side`, `Initial beads`, `First box` are the
/// settings `machine`, `beads` and `first_box`; a setting given twice is refused naming both lines.
#[test]
fn a_records_header_takes_the_names_other_records_give() {
    let r = real::parse("Side: x\nInitial beads: 8,4,2,1\nFirst box: revive\n\nb2 a1\n").unwrap();
    let keys: Vec<&str> = r.settings.iter().map(|s| s.key.as_str()).collect();
    assert_eq!(keys, ["machine", "beads", "first_box"]);
    assert_eq!(r.games[0].line, 5);
    let e = real::parse("machine: x\nside: o\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 2: `machine` again (it is given at line 1)"
    );
}

/// A session from a trained machine names it in its record (`start`, its digest): continued, or
/// learned by `train --record`, without that machine it is refused, naming the line and `--boxes`.
#[test]
fn a_record_begun_from_a_trained_machine_needs_it_again() {
    let dir = tempfile::tempdir().unwrap();
    let trained = dir.path().join("t.yaml");
    let t = trained.to_str().unwrap();
    crate::common::stdout(&[
        "train", "hexapawn", "--games", "30", "--seed", "2", "--save", t,
    ]);
    let session =
        |extra: &[&str]| operate_typed(dir.path(), &[&["hexapawn"][..], extra].concat(), b"quit\n");
    assert!(session(&["--boxes", t]).status.success());
    let record = dir.path().join("hexapawn-real.txt");
    assert!(
        std::fs::read_to_string(&record)
            .unwrap()
            .contains("start: ")
    );
    let again = session(&[]);
    let e = String::from_utf8_lossy(&again.stderr);
    assert!(
        !again.status.success() && e.contains("give the --boxes they began from"),
        "{e}"
    );
    assert!(
        session(&["--boxes", t]).status.success(),
        "with the machine it began from"
    );
    let r = record.to_str().unwrap();
    let e = crate::common::refused(&["train", "hexapawn", "--record", r]);
    assert!(
        e.contains("hexapawn-real.txt: line") && e.contains("--boxes"),
        "{e}"
    );
    crate::common::stdout(&["train", "hexapawn", "--record", r, "--boxes", t]);
}

/// Undo at the end of a game the machine's forced move ended (MENACE's ninth move, which has no
/// box) takes back the visitor's move with it: the visitor is asked again, never the machine
/// for a box it does not have.
#[test]
fn undo_after_a_forced_last_move_asks_the_visitor_again() {
    let mut op = operator(&TicTacToe, fresh_machine(&TicTacToe, 3), FirstBox::Revive);
    let mut pick = 12345u64;
    for _ in 0..500 {
        loop {
            match op.turn() {
                Turn::Visitor(legal) => {
                    pick = pick
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    op.visitor(&legal[(pick >> 33) as usize % legal.len()])
                        .unwrap()
                }
                Turn::Machine(open) => match open.beads.iter().find(|(b, _)| b.count > 0) {
                    Some((b, _)) => op.bead(&b.letter).unwrap(),
                    None => op.resign().unwrap(),
                },
                Turn::Over(_) => break,
            }
        }
        if op.words().len() == 9 {
            let before: Vec<String> = op.words()[..7].to_vec();
            op.undo().unwrap();
            assert!(matches!(op.turn(), Turn::Visitor(_)), "{:?}", op.words());
            assert_eq!(op.words(), &before[..]);
            return;
        }
        op.next_game();
    }
    panic!("no game went to the ninth move");
}

/// A laptop that stops mid-game loses nothing: the game under way is kept beside the record after
/// each step and played again when the session comes back (also a game over whose beads were
/// being done at the boxes, not in the record yet), then written once, and the file removed; a
/// game that ended with MENACE's forced ninth move (which plays itself) continues from the record.
#[test]
fn a_session_stopped_mid_game_comes_back_to_it() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["tictactoe", "--seed", "3", "--record", "r.txt"];
    let out = operate_typed(dir.path(), &args, b"A\nb1\n");
    assert!(out.status.success());
    let kept = dir.path().join("r.txt.under-way");
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "a1 b1\n");
    let out = operate_typed(dir.path(), &args, b"quit\n");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("the game under way when the session stopped: 2 steps played again"),
        "{said}"
    );
    assert!(said.contains("1 X O ."), "a1 and b1 on the board: {said}");
    // A drawn game ending with the forced ninth move, over but not yet in the record.
    std::fs::write(&kept, "b2 a1 c3 c1 a3 b3 b1 a2 c2\n").unwrap();
    let out = operate_typed(dir.path(), &args, b"quit\n");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("9 steps played again") && said.contains("game 1 over: a draw"),
        "{said}"
    );
    assert!(
        !kept.exists(),
        "the game is in the record: nothing under way"
    );
    let record = std::fs::read_to_string(dir.path().join("r.txt")).unwrap();
    assert_eq!(
        record.lines().filter(|l| l.starts_with("b2 a1")).count(),
        1,
        "{record}"
    );
    let out = operate_typed(dir.path(), &args, b"quit\n");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("(1 game so far)"));
}
