//! The match (`learn::Bout`): one type for a learner against its opponent on either engine,
//! stepped by a ply or by a budget of games, the same games whichever way it is driven.

use matchbox::game::{Game, Side};
use matchbox::games::hexapawn::{Hexapawn, Size};
use matchbox::games::tictactoe::TicTacToe;
use matchbox::learn::{
    Against, Bout, BoutError, Engine, GameDefaults, GameResult, Machine, MachineSpec, MatchError,
    rival_for,
};
use matchbox::players::Opponent;

fn machine<G: GameDefaults>(game: &G, seed: u64) -> Machine<G> {
    MachineSpec {
        seed,
        ..Default::default()
    }
    .build(game)
    .unwrap()
}

fn bout<G: GameDefaults>(game: &G, against: Against<G>, engine: Engine, seed: u64) -> Bout<G> {
    crate::common::bout_of(game, machine(game, seed), against, engine).unwrap()
}

/// Plays `games` games ply by ply, returning each result.
fn by_plies<G: GameDefaults>(b: &mut Bout<G>, games: usize) -> Vec<GameResult> {
    let mut results = Vec::new();
    while results.len() < games {
        let ply = b.ply().expect("no person to wait for");
        if let Some(r) = ply.ended {
            results.push(r.result);
        }
    }
    results
}

/// The beads of every box, to compare two machines.
fn beads<G: Game>(m: &Machine<G>) -> Vec<Vec<u32>> {
    (0..m.boxes.len())
        .map(|b| m.beads_in(b).iter().map(|n| n.get()).collect())
        .collect()
}

#[test]
fn plies_and_whole_games_on_either_engine_are_the_same_games() {
    fn check<G: GameDefaults>(game: G, against: impl Fn(&G, &Machine<G>) -> Against<G>) {
        let m = machine(&game, 11);
        let mut results = Vec::new();
        let mut machines = Vec::new();
        for (engine, stepped) in [
            (Engine::Table, false),
            (Engine::Table, true),
            (Engine::Lazy, false),
        ] {
            let mut b = bout(&game, against(&game, &m), engine, 11);
            let r = match stepped {
                true => by_plies(&mut b, 300),
                false => b.train(300),
            };
            assert_eq!(b.score().games, 300);
            assert_eq!(
                b.score().losses as usize,
                r.iter().filter(|&&x| x == GameResult::Loss).count()
            );
            results.push(r);
            machines.push(beads(b.learner()));
        }
        assert_eq!(results[0], results[1], "{}: plies differ", game.name());
        assert_eq!(results[0], results[2], "{}: engines differ", game.name());
        assert_eq!(machines[0], machines[1]);
    }
    check(Hexapawn::new(Size::GARDNER), |_, _| Against::Perfect);
    check(Hexapawn::new(Size::GARDNER), |_, _| Against::Random);
    check(TicTacToe, |_, _| Against::Perfect);
    check(Hexapawn::new(Size::GARDNER), |g, m| {
        Against::Rival(rival_for(g, m))
    });
}

#[test]
fn a_budget_of_games_returns_at_once_with_the_score() {
    let game = TicTacToe;
    let mut b = bout(&game, Against::Perfect, Engine::Auto, 3);
    assert_eq!(b.engine(), Engine::Table);
    let mut seen = 0;
    assert_eq!(b.train_each(1000, |_, _| seen += 1), 1000);
    assert_eq!(seen, 1000);
    assert_eq!(b.train_each(0, |_, _| seen += 1), 0);
    let s = *b.score();
    assert_eq!(s.wins + s.draws + s.losses, 1000);
    assert_eq!(b.learner().games_played, 1000);
    // An experiment of the bout's learner: the runs, each from the learner as it is now.
    let e = b.experiment(8, 20, &|| {});
    assert_eq!(e.runs, 8);
    assert_eq!(e.losses_by_game.len(), 20);
}

#[test]
fn a_person_moves_when_it_is_their_turn_and_only_a_legal_move() {
    let game = Hexapawn::new(Size::GARDNER);
    // HER plays Black: the person moves first.
    let mut b = bout(&game, Against::Person, Engine::Auto, 5);
    assert!(
        b.ply().is_none(),
        "the person's turn: nothing is played for them"
    );
    let moves = b.person_options().expect("the person's turn");
    assert_eq!(moves.len(), 3);
    let start = game.start();
    let illegal = game.moves(&game.play(&start, moves[0]))[0];
    assert!(
        b.person_move(illegal).is_none(),
        "not a move of this position"
    );
    let ply = b.person_move(moves[1]).expect("a legal move");
    assert_eq!((ply.side, ply.mv), (Side::First, Some(moves[1])));
    let answer = b.ply().expect("the machine answers");
    assert!(answer.drawn.is_some(), "from a box");
    assert!(
        b.play_game().is_none(),
        "a person's game is not played for them"
    );
}

#[test]
fn the_outcome_under_perfect_play_and_a_changed_opponent() {
    // HER (Black) wins under perfect play on 3x3; on octopawn Black can only lose.
    let her = bout(
        &Hexapawn::new(Size::GARDNER),
        Against::Perfect,
        Engine::Auto,
        1,
    );
    assert_eq!(her.perfect_result(), Some(GameResult::Win));
    assert!(!her.can_only_lose());
    let octo = Hexapawn::new(Size::OCTOPAWN);
    let second = MachineSpec {
        side: Some(Side::Second),
        seed: 2,
        ..Default::default()
    }
    .build(&octo)
    .unwrap();
    let mut b = crate::common::bout_of(&octo, second, Against::Perfect, Engine::Auto).unwrap();
    assert!(b.can_only_lose());
    // A new opponent during a game plays from the next game on.
    b.ply();
    b.set_opponent(Opponent::Random).unwrap();
    assert_eq!(
        (b.opponent(), b.asked_opponent()),
        (Opponent::Perfect, Opponent::Random)
    );
    b.finish_game();
    b.begin();
    assert_eq!(b.opponent(), Opponent::Random);
    assert!(matches!(
        b.set_opponent(Opponent::Matchbox),
        Err(BoutError::NoRival)
    ));
}

#[test]
fn impossible_matches_are_refused_before_any_game() {
    let game = Hexapawn::new(Size::GARDNER);
    let err = crate::common::bout_of(&game, machine(&game, 1), Against::Mcts(10), Engine::Table);
    assert!(matches!(
        err,
        Err(MatchError::Bout(BoutError::SearchOnTable(_)))
    ));
    let big = Hexapawn::new(Size::new(6, 6).unwrap());
    let lazy = MachineSpec {
        lazy: true,
        ..Default::default()
    }
    .build(&big)
    .unwrap();
    let err = crate::common::bout_of(&big, lazy, Against::Perfect, Engine::Auto);
    assert!(matches!(
        err,
        Err(MatchError::Bout(BoutError::PerfectTooBig { .. }))
    ));
}
