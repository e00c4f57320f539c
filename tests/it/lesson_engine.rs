//! One engine for every front end: a lesson's games are played by the bout its spec builds, so
//! a class's game is `train`'s game for the same settings and seed, a mini-Arimaa lesson draws at
//! `train`'s ply, and every bead instruction names the arrow as the box's label prints it.

use std::collections::BTreeSet;

use matchbox::game::Game;
use matchbox::games::arimaa::{MiniArimaa, TURN_LIMIT};
use matchbox::games::hexapawn::{Hexapawn, Size};
use matchbox::games::tictactoe::TicTacToe;
use matchbox::learn::lesson::{Event, Finished, Lesson, LessonSpec};
use matchbox::learn::{GameDefaults, GameResult, MachineSpec, MatchSpec};
use matchbox::players::Opponent;

fn spec<G: GameDefaults>(seed: u64, opponent: Opponent) -> MatchSpec<G> {
    let machine = MachineSpec {
        seed,
        ..Default::default()
    };
    MatchSpec::fresh(machine, opponent)
}

/// `n` class games (the boxes dealt to `pupils` pupils, each tapping when their box comes up);
/// each game's end and its number of plies, and the log.
fn class_games<G: GameDefaults>(
    lesson: &mut Lesson<G>,
    pupils: usize,
    n: usize,
    mut after: impl FnMut(&Lesson<G>, &Finished),
) -> (Vec<(GameResult, usize)>, Vec<Event>) {
    let mut log = Vec::new();
    for _ in 0..pupils {
        log.extend(lesson.join().1);
    }
    log.extend(lesson.deal().unwrap());
    let mut games = Vec::new();
    for _ in 0..n {
        let view = crate::lesson::class_game(lesson, &mut log);
        let over = view.over.expect("the class's game ended");
        after(lesson, &over);
        games.push((over.result, over.plies as usize));
    }
    (games, log)
}

/// The class's games and `train`'s games (the bout its settings build, game after game) for
/// the same settings: the same results and the same machine, bead for bead.
fn same_games_as_train<G: GameDefaults>(game: G, opponent: Opponent, n: usize) {
    let mut bout = spec::<G>(9, opponent)
        .build(game.clone(), &mut |_| {})
        .unwrap();
    let trained: Vec<GameResult> = (0..n).map(|_| bout.play_game().unwrap()).collect();
    let lesson_spec = LessonSpec {
        spec: spec::<G>(9, opponent),
    };
    let mut lesson = lesson_spec.build(game.clone()).unwrap();
    let (games, _) = class_games(&mut lesson, 3, n, |_, _| {});
    let results: Vec<GameResult> = games.iter().map(|g| g.0).collect();
    assert_eq!(results, trained, "{} against {opponent}", game.name());
    assert_eq!(lesson.machine().digest(), bout.learner().digest());
    assert_eq!(lesson.score().games, n as u64);
    assert_eq!(lesson.relay_score().wins, bout.score().wins);
}

#[test]
fn a_lesson_plays_the_games_train_plays_for_the_same_settings() {
    same_games_as_train(TicTacToe, Opponent::Perfect, 60);
    same_games_as_train(TicTacToe, Opponent::Random, 60);
    same_games_as_train(Hexapawn::new(Size::GARDNER), Opponent::Perfect, 60);
    same_games_as_train(Hexapawn::new(Size::OCTOPAWN), Opponent::Random, 40);
}

/// A pupil's move that neither ends the game nor lets the machine end it with its answer (the
/// first legal move where none is).
fn stalling_move<G: Game>(game: &G, pos: &G::Position) -> G::Move {
    let moves = game.moves(pos);
    let safe = moves.iter().copied().find(|&m| {
        let after = game.play(pos, m);
        game.outcome(&after).is_none()
            && (game.moves(&after).into_iter())
                .all(|r| game.outcome(&game.play(&after, r)).is_none())
    });
    safe.unwrap_or(moves[0])
}

/// The machine's moves among `events`, played on `pos`.
fn follow<G: Game>(game: &G, pos: &mut G::Position, events: &[Event]) {
    for e in events {
        if let Event::Drew { mv, .. } = e {
            *pos = game.play(pos, game.parse_move(pos, mv).unwrap());
        }
    }
}

/// A mini-Arimaa lesson draws at the 40-turn limit that `train` and `watch` apply (a pupil who
/// stalls reaches it), and its class games are `train`'s.
#[test]
fn a_mini_arimaa_lesson_draws_at_trains_ply() {
    same_games_as_train(MiniArimaa::new(), Opponent::Random, 12);
    let game = MiniArimaa::new();
    let spec = LessonSpec {
        spec: spec::<MiniArimaa>(4, Opponent::Random),
    };
    let mut lesson = spec.build(game.clone()).unwrap();
    let (pupil, _) = lesson.join();
    let mut longest = 0;
    for _ in 0..200 {
        let (mut view, e) = lesson.start(pupil).unwrap();
        let mut pos = game.start();
        follow(&game, &mut pos, &e);
        while view.over.is_none() {
            let mv = stalling_move(&game, &pos);
            let text = game.format_move_at(&pos, mv);
            pos = game.play(&pos, mv);
            let (v, e) = lesson.play(pupil, view.game, &text).unwrap();
            follow(&game, &mut pos, &e);
            view = v;
        }
        let over = view.over.unwrap();
        longest = longest.max(over.plies);
        assert!(
            over.plies <= TURN_LIMIT,
            "{} plies: {}",
            over.plies,
            over.why
        );
        if over.plies == TURN_LIMIT && game.outcome(&pos).is_none() {
            assert_eq!(over.result, GameResult::Draw, "{}", over.why);
            assert!(over.why.contains("without an end"), "{}", over.why);
            assert!(view.legal.is_empty());
            return;
        }
    }
    panic!("no game reached the limit (the longest: {longest} plies)");
}

/// Mode 2 speaks the box's own language: for every game the class plays as MENACE, HER or
/// octopawn, each instruction names the arrow as the box's label prints it and its holder's
/// phone draws it, and the change it gives is the change in that arrow's beads in the machine.
fn instructions_name_the_labels_arrow<G: GameDefaults>(game: G, games: usize) -> (usize, usize) {
    let spec = LessonSpec {
        spec: spec::<G>(21, Opponent::Random),
    };
    let mut lesson = spec.build(game.clone()).unwrap();
    let beads = |l: &Lesson<G>| -> Vec<Vec<u32>> {
        let m = l.machine();
        (0..m.boxes.len())
            .map(|b| m.beads_in(b).iter().map(|n| n.get()).collect())
            .collect()
    };
    let mut before = beads(&lesson);
    let (mut seen, mut turned) = (BTreeSet::new(), 0);
    let mut check = |l: &Lesson<G>, f: &Finished| {
        let now = beads(l);
        let mut named = BTreeSet::new();
        for d in &f.learned {
            let b = d.number - 1;
            let label = game.format_move(l.machine().boxes.arrows(b)[d.index]);
            assert_eq!(d.arrow, label, "box {}", d.number);
            assert_eq!(l.box_view(b).arrows[d.index].0, label, "the phone's box");
            let change = now[b][d.index] as i64 - before[b][d.index] as i64;
            assert_eq!(d.change, change, "box {} arrow {}", d.number, d.arrow);
            assert!(d.instruction().contains(&format!("box {}", d.number)));
            assert!(d.instruction().contains(&d.arrow), "{}", d.instruction());
            named.insert((b, d.index));
            seen.insert(b);
            turned += usize::from(d.arrow != d.played);
        }
        // Every arrow whose beads changed is named.
        for (b, (old, new)) in before.iter().zip(&now).enumerate() {
            for (a, (o, n)) in old.iter().zip(new).enumerate() {
                assert!(o == n || named.contains(&(b, a)), "box {} arrow {a}", b + 1);
            }
        }
        before = now;
    };
    class_games(&mut lesson, 7, games, |l, f| check(l, f));
    (seen.len(), turned)
}

#[test]
fn every_bead_instruction_names_the_arrow_on_the_boxs_label() {
    let (seen, turned) = instructions_name_the_labels_arrow(TicTacToe, 1000);
    eprintln!("MENACE: {seen} boxes, {turned} turned");
    assert!(seen >= 200, "MENACE: {seen} boxes of 304 played");
    assert!(
        turned > 50,
        "MENACE: {turned} draws from a box that sees the board turned"
    );
    let (seen, turned) = instructions_name_the_labels_arrow(Hexapawn::new(Size::GARDNER), 200);
    assert!(seen >= 20, "HER: {seen} boxes of 24 played");
    assert!(turned > 10, "HER: {turned} draws from a mirrored box");
    let (seen, turned) = instructions_name_the_labels_arrow(Hexapawn::new(Size::OCTOPAWN), 400);
    eprintln!("octopawn: {seen} boxes, {turned} turned");
    assert!(seen >= 200, "octopawn: {seen} boxes played");
    assert!(turned > 10, "octopawn: {turned} draws from a mirrored box");
}
