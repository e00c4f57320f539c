//! A lesson: one machine, many pupils' games at once, and its log.

use matchbox::game::Game;
use matchbox::games::hexapawn::{Hexapawn, Size};
use matchbox::games::tictactoe::TicTacToe;
use matchbox::learn::lesson::{Event, Lesson, LessonError, LessonSpec};
use matchbox::learn::{GameDefaults, GameResult, Machine};
use matchbox::rng::{rng_from_seed, uniform_below};

pub(crate) fn machine<G: GameDefaults>(game: &G, seed: u64) -> Machine<G> {
    crate::common::fresh_machine(game, seed)
}

/// Every box's beads, the games played and the generator's next number.
fn state<G: Game>(m: &Machine<G>) -> (Vec<Vec<u32>>, u64, u64) {
    let beads = (0..m.boxes.len())
        .map(|b| m.beads_in(b).iter().map(|x| x.get()).collect())
        .collect();
    let mut rng = m.rng.clone();
    (beads, m.games_played, rand::RngExt::random(&mut rng))
}

/// `pupils` pupils each play `games` games of random legal moves, their steps interleaved at
/// random; the log of everything.
pub(crate) fn class<G: GameDefaults>(
    game: &G,
    seed: u64,
    pupils: usize,
    games: u64,
) -> (Lesson<G>, Vec<Event>) {
    let mut lesson = LessonSpec::of(machine(game, seed))
        .build(game.clone())
        .unwrap();
    let mut log = Vec::new();
    let mut rng = rng_from_seed(seed ^ 0xabc);
    let mut ids = Vec::new();
    for _ in 0..pupils {
        let (id, e) = lesson.join();
        log.extend(e);
        ids.push((id, 0u64, None::<(u64, Vec<String>)>));
    }
    while ids.iter().any(|p| p.1 < games || p.2.is_some()) {
        let k = uniform_below(&mut rng, ids.len() as u32) as usize;
        let (id, played, current) = &mut ids[k];
        let view = match current.take() {
            None if *played < games => {
                let (v, e) = lesson.start(*id).unwrap();
                log.extend(e);
                v
            }
            None => continue,
            Some((g, legal)) => {
                let mv = &legal[uniform_below(&mut rng, legal.len() as u32) as usize];
                let (v, e) = lesson.play(*id, g, mv).unwrap();
                log.extend(e);
                v
            }
        };
        match view.over {
            Some(_) => *played += 1,
            None => *current = Some((view.game, view.legal)),
        }
    }
    (lesson, log)
}

#[test]
fn many_pupils_one_machine_every_game_counted_once_and_the_log_replays() {
    for (pupils, games) in [(1, 20), (12, 8), (60, 3)] {
        let game = TicTacToe;
        let (lesson, log) = class(&game, 7, pupils, games);
        let (w, d, l) = (
            lesson.score().wins,
            lesson.score().draws,
            lesson.score().losses,
        );
        assert_eq!(w + d + l, pupils as u64 * games, "every game counted once");
        assert_eq!(lesson.machine().games_played, pupils as u64 * games);
        let ended = log
            .iter()
            .filter(|e| matches!(e, Event::Ended { .. }))
            .count();
        assert_eq!(ended as u64, pupils as u64 * games);
        let pupil_games: u64 = (lesson.pupils().values()).map(|p| p.score.games).sum();
        assert_eq!(pupil_games, pupils as u64 * games);
        // Sequence numbers run 1, 2, 3, … with no gap.
        let seqs: Vec<u64> = log.iter().map(seq).collect();
        assert_eq!(seqs, (1..=log.len() as u64).collect::<Vec<_>>());
        // The machine is the replay of its log, from the machine the lesson began with.
        let again = Lesson::replay(LessonSpec::of(machine(&game, 7)), game, &log).unwrap();
        assert_eq!(state(again.machine()), state(lesson.machine()));
        // The log survives JSON lines, and a log with a move changed does not replay.
        let lines: Vec<String> = log
            .iter()
            .map(|e| serde_json::to_string(e).unwrap())
            .collect();
        let back: Vec<Event> = lines
            .iter()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(back, log);
        let mut forged = log.clone();
        let i = forged
            .iter()
            .position(|e| matches!(e, Event::Drew { .. }))
            .unwrap();
        if let Event::Drew { drawn, .. } = &mut forged[i] {
            *drawn = Some((999, 0));
        }
        assert!(matches!(
            Lesson::replay(LessonSpec::of(machine(&game, 7)), game, &forged),
            Err(LessonError::Replay(_))
        ));
    }
}

fn seq(e: &Event) -> u64 {
    e.seq()
}

#[test]
fn a_pupil_sees_what_the_machine_learned_from_their_game() {
    // HER against pupils playing White: every game HER loses takes the bead of its last move.
    let her = Hexapawn::new(Size::GARDNER);
    let mut lesson = LessonSpec::of(machine(&her, 3)).build(her.clone()).unwrap();
    let (p, _) = lesson.join();
    let mut rng = rng_from_seed(5);
    let mut losses = 0;
    for _ in 0..40 {
        let (mut v, _) = lesson.start(p).unwrap();
        while v.over.is_none() {
            let mv = v.legal[uniform_below(&mut rng, v.legal.len() as u32) as usize].clone();
            v = lesson.play(p, v.game, &mv).unwrap().0;
        }
        let over = v.over.unwrap();
        if over.result == GameResult::Win {
            losses += 1;
            // Gardner's rule: one bead taken, from the box of HER's last move.
            let taken: Vec<_> = over.learned.iter().filter(|l| l.change != 0).collect();
            assert!(taken.len() <= 1, "{:?}", over.learned);
            assert!(taken.iter().all(|l| l.change == -1));
        } else {
            assert!(
                over.learned.iter().all(|l| l.change == 0),
                "{:?}",
                over.learned
            );
        }
        assert!(over.learned.iter().all(|l| l.number >= 1 && l.number <= 24));
    }
    assert!(losses > 0, "pupils at random beat a fresh HER sometimes");
    assert_eq!(lesson.pupils()[&p].score.wins, losses);
}

#[test]
fn refused_commands_leave_the_lesson_unchanged() {
    let game = TicTacToe;
    let mut lesson = LessonSpec::of(machine(&game, 11)).build(game).unwrap();
    let (a, _) = lesson.join();
    let (b, _) = lesson.join();
    assert_ne!(lesson.pupils()[&a].name, "");
    let before = state(lesson.machine());
    assert!(matches!(lesson.play(a, 1, "a1"), Err(LessonError::NoGame)));
    let (va, _) = lesson.start(a).unwrap();
    assert!(matches!(lesson.start(a), Err(LessonError::GameUnderWay(_))));
    // MENACE (x) moved first; the pupil (o) answers.
    assert!(va.machine_move.is_some() && !va.legal.is_empty());
    let taken = va.machine_move.clone().unwrap();
    let err = lesson.play(a, va.game, &taken).unwrap_err();
    assert!(
        matches!(&err, LessonError::Illegal { legal, .. } if !legal.is_empty()),
        "{err}"
    );
    assert!(matches!(
        lesson.play(a, va.game, "z9"),
        Err(LessonError::Illegal { .. })
    ));
    assert!(matches!(
        lesson.play(b, va.game, &va.legal[0]),
        Err(LessonError::NoGame)
    ));
    let (vb, _) = lesson.start(b).unwrap();
    assert!(matches!(
        lesson.play(b, va.game, &va.legal[0]),
        Err(LessonError::NotYourGame { .. })
    ));
    assert!(matches!(
        lesson.play(99, va.game, "a1"),
        Err(LessonError::NoPupil(99))
    ));
    // A pupil who leaves mid-game abandons it: no box changed, no game counted.
    let events = lesson.leave(b).unwrap();
    assert!(matches!(events[0], Event::Abandoned { game, .. } if game == vb.game));
    let after = state(lesson.machine());
    assert_eq!(after.0, before.0, "no bead changed");
    assert_eq!(after.1, before.1, "no game counted");
    assert_eq!(lesson.score().games, 0);
    assert_eq!(lesson.games_under_way(), 1);
}

/// "The class is the machine": HER's 24 boxes dealt among 10 pupils; the class's games against
/// the perfect player wait at each box a pupil holds until that pupil taps; the machine is the
/// replay of the log, and the same as a machine that played the same games without a class.
#[test]
fn the_class_is_the_machine_ten_pupils_hold_hers_boxes() {
    let game = Hexapawn::new(Size::GARDNER);
    let mut lesson = LessonSpec::of(machine(&game, 5))
        .build(game.clone())
        .unwrap();
    let start = lesson.machine().clone();
    let mut log = Vec::new();
    let ids: Vec<u32> = (0..10)
        .map(|_| {
            let (id, e) = lesson.join();
            log.extend(e);
            id
        })
        .collect();
    log.extend(lesson.deal().unwrap());
    assert!(lesson.dealt());
    // Every box held; each pupil two or three boxes, of several move numbers.
    let held: Vec<usize> = ids.iter().map(|&p| lesson.held(p).len()).collect();
    assert_eq!(held.iter().sum::<usize>(), 24);
    assert!(held.iter().all(|&n| (2..=3).contains(&n)), "{held:?}");
    let moves: std::collections::BTreeSet<u16> =
        lesson.held(ids[0]).iter().map(|b| b.move_number).collect();
    assert!(
        moves.len() >= 2,
        "pupil 1 holds boxes of one move only: {moves:?}"
    );
    // A pupil may not start a game of their own while the class is the machine.
    assert_eq!(lesson.start(ids[0]).unwrap_err(), LessonError::Dealt);
    let mut taps = 0;
    for _ in 0..5 {
        let (mut view, e) = lesson.relay_start().unwrap();
        log.extend(e);
        while let Some((number, pupil)) = view.waiting {
            assert!(lesson.held(pupil).iter().any(|b| b.number == number));
            // Only the holder may draw.
            let other = ids.iter().copied().find(|&p| p != pupil).unwrap();
            assert_eq!(lesson.draw(other).unwrap_err(), LessonError::NotYourBox);
            let (v, e) = lesson.draw(pupil).unwrap();
            log.extend(e);
            view = v;
            taps += 1;
        }
        let over = view.over.expect("the game ended");
        assert!(!over.learned.is_empty() || over.result == GameResult::Win);
        // HER (black) against the perfect player: every change is a bead lost at a loss.
        for l in &over.learned {
            assert!(l.change <= 0, "{over:?}");
        }
    }
    assert!(taps >= 5, "the pupils drew {taps} beads");
    assert_eq!(lesson.machine().games_played, 5);
    assert_eq!(lesson.relay_score().wins + lesson.relay_score().losses, 5);
    let again = Lesson::replay(LessonSpec::of(start.clone()), game.clone(), &log).unwrap();
    assert_eq!(state(again.machine()), state(lesson.machine()));
    // A holder who leaves while their box waits: the server draws it, the game goes on.
    let (mut view, e) = lesson.relay_start().unwrap();
    log.extend(e);
    let (_, pupil) = view.waiting.expect("a box waits");
    let before: usize = ids.iter().map(|&p| lesson.held(p).len()).sum();
    log.extend(lesson.leave(pupil).unwrap());
    assert!(lesson.held(pupil).is_empty());
    // Their boxes are dealt again among the nine left: every box still held, two or three each.
    let after: Vec<usize> = ids.iter().map(|&p| lesson.held(p).len()).collect();
    assert_eq!(after.iter().sum::<usize>(), before);
    assert!(
        after
            .iter()
            .filter(|&&n| n > 0)
            .all(|&n| (2..=3).contains(&n)),
        "{after:?}"
    );
    view = lesson.relay_view(None);
    assert_ne!(view.waiting.map(|w| w.1), Some(pupil));
    if let Some((number, holder)) = view.waiting {
        assert!(lesson.held(holder).iter().any(|b| b.number == number));
    }
    let again = Lesson::replay(LessonSpec::of(start.clone()), game.clone(), &log).unwrap();
    assert_eq!(state(again.machine()), state(lesson.machine()));
    // Collected during the class's game: the game abandoned (no box changed), and the class
    // plays the machine again; a pupil who leaves mid-game abandons theirs. The log replays.
    let collected = lesson.collect().unwrap();
    assert!(
        matches!(collected[0], Event::Abandoned { .. }),
        "{collected:?}"
    );
    log.extend(collected);
    let here = ids.iter().copied().find(|&p| p != pupil).unwrap();
    let (_, e) = lesson.start(here).unwrap();
    log.extend(e);
    let left = lesson.leave(here).unwrap();
    assert!(matches!(left[0], Event::Abandoned { .. }), "{left:?}");
    log.extend(left);
    let again = Lesson::replay(LessonSpec::of(start), game, &log).unwrap();
    assert_eq!(state(again.machine()), state(lesson.machine()));
}

/// One class game (the boxes dealt), each holder tapping when their box comes up; its last view.
pub(crate) fn class_game<G: GameDefaults>(
    lesson: &mut Lesson<G>,
    log: &mut Vec<Event>,
) -> matchbox::learn::lesson::RelayView {
    let (mut view, e) = lesson.relay_start().unwrap();
    log.extend(e);
    while let Some((_, pupil)) = view.waiting {
        let (v, e) = lesson.draw(pupil).unwrap();
        log.extend(e);
        view = v;
    }
    view
}

/// A pupil's game played to its end with the first legal move each time; its events.
pub(crate) fn play_out<G: GameDefaults>(lesson: &mut Lesson<G>, pupil: u32) -> Vec<Event> {
    let (mut view, mut log) = lesson.start(pupil).unwrap();
    while view.over.is_none() {
        let (v, e) = lesson
            .play(pupil, view.game, &view.legal[0].clone())
            .unwrap();
        log.extend(e);
        view = v;
    }
    log
}

#[test]
fn the_teacher_resets_the_machine_and_turns_it_round_and_the_log_follows() {
    use matchbox::game::Side;
    use matchbox::players::Opponent;
    let game = TicTacToe;
    let mut lesson = LessonSpec::of(machine(&game, 11)).build(game).unwrap();
    let fresh = state(lesson.machine());
    let mut log = Vec::new();
    let (a, e) = lesson.join();
    log.extend(e);
    let (b, e) = lesson.join();
    log.extend(e);
    for _ in 0..6 {
        log.extend(play_out(&mut lesson, a));
    }
    assert_ne!(
        state(lesson.machine()),
        fresh,
        "six games changed the machine"
    );
    // Pupil b is mid-game when the teacher resets: that game is abandoned, and the machine is
    // as new: every box's first beads, no games, its generator from the seed.
    let (view, e) = lesson.start(b).unwrap();
    log.extend(e);
    let events = lesson.reset().unwrap();
    assert!(matches!(events[0], Event::Abandoned { game, .. } if game == view.game));
    assert!(matches!(events.last(), Some(Event::Reset { .. })));
    log.extend(events);
    assert_eq!(state(lesson.machine()), fresh);
    assert_eq!(lesson.score().games, 0);
    assert_eq!(lesson.games_under_way(), 0);
    assert_eq!(lesson.pupils()[&a].score.games, 6);
    log.extend(play_out(&mut lesson, b));
    // The machine plays O now: MENACE's 289 boxes for the second player; the pupils play X.
    assert_eq!(
        lesson.change_side(Side::First).unwrap_err(),
        LessonError::SameSide("x".into())
    );
    log.extend(lesson.change_side(Side::Second).unwrap());
    assert_eq!(lesson.machine().boxes.side(), Side::Second);
    assert_eq!(lesson.machine().boxes.len(), 289);
    assert_eq!(lesson.machine().games_played, 0);
    assert_eq!(lesson.pupil_side(), Side::First);
    for _ in 0..3 {
        log.extend(play_out(&mut lesson, a));
    }
    assert_eq!(lesson.machine().games_played, 3);
    // The class's game against the random player: a few games as the machine.
    log.extend(lesson.set_opponent(Opponent::Random).unwrap());
    // Dealing while b is mid-game abandons that game first (a log of it used not to replay).
    let (_, e) = lesson.start(b).unwrap();
    log.extend(e);
    let dealt = lesson.deal().unwrap();
    assert!(matches!(dealt[0], Event::Abandoned { .. }));
    log.extend(dealt);
    assert_eq!(lesson.reset().unwrap_err(), LessonError::HeldByPupils);
    assert_eq!(
        lesson.change_side(Side::First).unwrap_err(),
        LessonError::HeldByPupils
    );
    for _ in 0..3 {
        class_game(&mut lesson, &mut log);
    }
    log.extend(lesson.collect().unwrap());
    // The log, through JSON lines, replays to the same machine, side and all.
    let back: Vec<Event> = (log.iter())
        .map(|e| serde_json::from_str(&serde_json::to_string(e).unwrap()).unwrap())
        .collect();
    assert_eq!(back, log);
    let again = Lesson::replay(LessonSpec::of(machine(&game, 11)), game, &back).unwrap();
    assert_eq!(again.machine().boxes.side(), Side::Second);
    assert_eq!(state(again.machine()), state(lesson.machine()));
    assert_eq!(again.relay_opponent(), Opponent::Random);
    assert_eq!(again.score(), lesson.score());
}

/// Presence while the class is the machine: thirty pupils and HER's 24 boxes (six watch); a
/// late joiner watches too; a holder marked away has their box dealt to a pupil who held none,
/// and back, is dealt in again when a box is free; the log replays it all.
#[test]
fn boxes_follow_the_pupils_who_are_here() {
    let game = Hexapawn::new(Size::GARDNER);
    let mut lesson = LessonSpec::of(machine(&game, 8))
        .build(game.clone())
        .unwrap();
    let mut log = Vec::new();
    let ids: Vec<u32> = (0..30)
        .map(|_| {
            let (id, e) = lesson.join();
            log.extend(e);
            id
        })
        .collect();
    log.extend(lesson.deal().unwrap());
    let counts = |l: &Lesson<Hexapawn>, ids: &[u32]| -> Vec<usize> {
        ids.iter().map(|&p| l.held(p).len()).collect()
    };
    let held = counts(&lesson, &ids);
    assert_eq!(held.iter().sum::<usize>(), 24);
    assert_eq!(held.iter().filter(|&&n| n == 0).count(), 6, "{held:?}");
    let (late, e) = lesson.join();
    log.extend(e);
    assert!(
        lesson.held(late).is_empty(),
        "a late joiner watches: every box is held"
    );
    let holder = ids[0];
    let boxes = lesson.held(holder);
    assert_eq!(boxes.len(), 1);
    log.extend(lesson.away(holder).unwrap());
    assert!(lesson.held(holder).is_empty());
    let new = (ids.iter().chain([&late]))
        .find(|&&p| lesson.held(p).iter().any(|b| b.number == boxes[0].number))
        .expect("the box is dealt again");
    assert_eq!(lesson.held(*new).len(), 1, "to a pupil who held none");
    log.extend(lesson.back(holder).unwrap());
    assert!(lesson.held(holder).is_empty(), "no box is free: they watch");
    for _ in 0..3 {
        class_game(&mut lesson, &mut log);
    }
    assert_eq!(lesson.relay_score().games, 3);
    // Dealing with nobody here is refused.
    let mut empty = LessonSpec::of(machine(&game, 8))
        .build(game.clone())
        .unwrap();
    assert_eq!(empty.deal().unwrap_err(), LessonError::NobodyToDeal);
    let again = Lesson::replay(LessonSpec::of(machine(&game, 8)), game, &log).unwrap();
    assert_eq!(state(again.machine()), state(lesson.machine()));
}
