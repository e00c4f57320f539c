//! The house for big games: the compiled table and the position engine agree move for move; lazy
//! machines save and load; the solvers agree (and a cycle is an error, not a panic); one palette
//! on the screen and the labels; bead counts are bounded; and the layers import only downward.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use matchbox::game::graph::{GameGraph, NodeId};
use matchbox::game::{Game, GameError, Outcome, Side, Sym};
use matchbox::games::hexapawn::{Hexapawn, Size};
use matchbox::games::tictactoe::TicTacToe;
use matchbox::learn::engine::{Enumerated, Table, Trainer};
use matchbox::learn::{
    BoxSet, Forced, GameResult, MAX_BOX_BEADS, Machine, Preset, SymmetryMode, lazy,
};
use matchbox::players::{PerfectPlayer, Player, RandomPlayer};
use matchbox::solve::{GraphValues, OnDemand, Solution, SolveError, TieBreak, Value};
use matchbox::store;

/// The beads of every box, by position, as text (for comparing machines box by box).
fn beads_by_position<G: Game>(game: &G, m: &Machine<G>) -> BTreeMap<String, Vec<u32>> {
    (0..m.boxes.len())
        .map(|b| {
            (
                game.format_position(&m.boxes.get(b).position),
                m.beads_in(b).iter().map(|n| n.get()).collect(),
            )
        })
        .collect()
}

/// Trains the same learner on both engines with the same seed: the same results game by game,
/// and the same beads in every box the lazy machine made (it makes no box the table machine lacks).
fn engines_agree<G: Game + Clone>(
    game: G,
    side: Side,
    mode: SymmetryMode,
    forced: Forced,
    preset: Preset,
    perfect: bool,
    games: usize,
) {
    let en = Enumerated::new(game.clone());
    let full = Arc::new(BoxSet::build_with(&game, side, mode, forced));
    let table = if perfect {
        Table::against_perfect(&en, &full, TieBreak::Random).unwrap()
    } else {
        Table::against_random(&en, &full)
    };
    for seed in [1, 2, 3] {
        let mut a = Machine::new(
            Arc::clone(&full),
            preset.beads(),
            preset.reinforcement(),
            seed,
        );
        let table_results = Trainer::new(&en, &table).train(&mut a, games);

        let lazy_set = Arc::new(BoxSet::lazy(&en.game, side, mode, forced));
        let mut b = Machine::new(lazy_set, preset.beads(), preset.reinforcement(), seed);
        let mut opponent: Box<dyn Player<G>> = if perfect {
            let solution = Arc::new(Solution::solve(&en.graph).unwrap());
            let values = GraphValues::new(Arc::clone(&en.graph), solution);
            Box::new(PerfectPlayer::new(values, TieBreak::Random))
        } else {
            Box::new(RandomPlayer)
        };
        let lazy_results = lazy::train(&game, &mut b, opponent.as_mut(), games);

        assert_eq!(table_results, lazy_results, "{mode} seed {seed}: results");
        for m in [&a, &b] {
            let sum: u64 = (0..m.boxes.len()).map(|i| m.box_total(i) as u64).sum();
            let empty = (0..m.boxes.len()).filter(|&i| m.box_total(i) == 0).count();
            assert_eq!(
                (m.beads_left(), m.boxes_emptied()),
                (sum, empty),
                "kept totals"
            );
        }
        assert_eq!(
            a.rng, b.rng,
            "{mode} seed {seed}: the same random numbers drawn"
        );
        assert!(b.boxes.len() <= a.boxes.len());
        assert!(!b.boxes.is_empty());
        let made = beads_by_position(&game, &b);
        let all = beads_by_position(&game, &a);
        for (pos, beads) in &made {
            assert_eq!(Some(beads), all.get(pos), "{mode} seed {seed}: box {pos}");
        }
        // Boxes the lazy machine never made were never opened: still fresh in the table machine.
        let untouched = (0..a.boxes.len())
            .filter(|&i| !made.contains_key(&game.format_position(&a.boxes.get(i).position)));
        for i in untouched {
            let fresh = preset
                .beads()
                .for_stage(a.boxes.get(i).stage as usize)
                .get();
            assert!(a.beads_in(i).iter().all(|n| n.get() == fresh));
        }
    }
}

#[test]
fn table_and_lazy_engines_agree_on_hexapawn_in_every_symmetry_mode() {
    for mode in [
        SymmetryMode::Gardner,
        SymmetryMode::Full,
        SymmetryMode::None,
    ] {
        for side in [Side::First, Side::Second] {
            engines_agree(
                Hexapawn::new(Size::GARDNER),
                side,
                mode,
                Forced::Include,
                Preset::Gardner,
                true,
                300,
            );
        }
        engines_agree(
            Hexapawn::new(Size::OCTOPAWN),
            Side::First,
            mode,
            Forced::Include,
            Preset::Michie,
            false,
            200,
        );
    }
}

#[test]
fn table_and_lazy_engines_agree_on_noughts_and_crosses() {
    for perfect in [true, false] {
        engines_agree(
            TicTacToe,
            Side::First,
            SymmetryMode::Full,
            Forced::Skip,
            Preset::Michie,
            perfect,
            300,
        );
    }
    engines_agree(
        TicTacToe,
        Side::Second,
        SymmetryMode::None,
        Forced::Include,
        Preset::Scroggs,
        false,
        200,
    );
}

/// Boxes kept as whole positions (noughts and crosses) and packed in a word (Havannah base 3,
/// two bits a cell; base 4, its cells counted in base three): the file written, read back and
/// played on gives the games and the file of a run never stopped.
#[test]
fn a_saved_lazy_machine_reloads_and_continues_as_an_uninterrupted_run() {
    use matchbox::games::havannah::{Base, Havannah};
    reload_and_continue(&TicTacToe, 150, 250);
    reload_and_continue(&Havannah::new(Base::new(3).unwrap()), 60, 90);
    reload_and_continue(&Havannah::new(Base::new(4).unwrap()), 30, 40);
}

fn reload_and_continue<G: Game>(game: &G, before: usize, after: usize) {
    let fresh = || {
        let set = Arc::new(BoxSet::lazy(
            game,
            Side::First,
            SymmetryMode::Full,
            Forced::Skip,
        ));
        Machine::new(
            set,
            Preset::Michie.beads(),
            Preset::Michie.reinforcement(),
            9,
        )
    };
    let mut whole = fresh();
    let all = lazy::train(game, &mut whole, &mut RandomPlayer, before + after);

    let mut first = fresh();
    let mut results = lazy::train(game, &mut first, &mut RandomPlayer, before);
    let text = store::to_yaml(game, &first, None);
    assert!(text.contains("engine: lazy"), "{text}");
    let mut resumed = store::from_yaml(game, Path::new("lazy.yaml"), &text).unwrap();
    assert!(resumed.boxes.is_lazy());
    assert_eq!(resumed.boxes.len(), first.boxes.len());
    results.extend(lazy::train(game, &mut resumed, &mut RandomPlayer, after));
    assert_eq!(results, all, "{}", game.variant());
    assert_eq!(
        store::to_yaml(game, &resumed, None),
        store::to_yaml(game, &whole, None)
    );
}

#[test]
fn a_lazy_file_is_checked_box_by_box() {
    let game = TicTacToe;
    let set = Arc::new(BoxSet::lazy(
        &game,
        Side::First,
        SymmetryMode::Full,
        Forced::Skip,
    ));
    let mut m = Machine::new(
        set,
        Preset::Michie.beads(),
        Preset::Michie.reinforcement(),
        1,
    );
    lazy::train(&game, &mut m, &mut RandomPlayer, 20);
    let text = store::to_yaml(&game, &m, None);
    let load = |t: &str| {
        store::from_yaml(&game, Path::new("lazy.yaml"), t)
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    load(&text).unwrap();
    // The first box is the empty board; a box for a position X cannot have (O to move) is refused.
    let bad = text.replacen("position: '.../.../...'", "position: 'X../.../...'", 1);
    assert_ne!(bad, text, "{text}");
    let err = load(&bad).unwrap_err();
    assert!(err.starts_with("lazy.yaml: box 1 (X../.../...)"), "{err}");
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn a_box_holding_too_many_beads_is_refused_naming_the_file_and_box() {
    let game = Hexapawn::new(Size::GARDNER);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("boxes/hexapawn-her-gardner.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    // Box 1 has three arrows of 1 bead: give each four thousand million.
    let arrows_to = |n: u64| {
        text.lines()
            .map(|l| {
                let t = l.trim_start();
                if t.len() == 8 && !t.starts_with('-') && t.ends_with(": 1") {
                    l.replace(": 1", &format!(": {n}"))
                } else {
                    l.to_string()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let huge = arrows_to(4_000_000_000);
    let err = store::from_yaml(&game, Path::new("huge.yaml"), &huge)
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("huge.yaml: box 1"), "{err}");
    assert!(
        err.contains("4000000000") && err.contains("1000000000"),
        "{err}"
    );
    // Each arrow within bounds, the box over: also refused.
    let over = arrows_to(600_000_000);
    let err = store::from_yaml(&game, Path::new("over.yaml"), &over)
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("over.yaml: box 1") && err.contains("at most"),
        "{err}"
    );
    // A full box gains no beads: the total stays at the maximum and draws stay exact.
    let full = arrows_to((MAX_BOX_BEADS / 4) as u64);
    let mut m = store::from_yaml(&game, Path::new("full.yaml"), &full).unwrap();
    m.reinforcement = "3,1,-1".parse().unwrap();
    let en = Enumerated::new(game.clone());
    let table = Table::against_random(&en, &m.boxes);
    Trainer::new(&en, &table).train(&mut m, 2000);
    for b in 0..m.boxes.len() {
        let sum: u64 = m.beads_in(b).iter().map(|n| n.get() as u64).sum();
        assert_eq!(sum, m.box_total(b) as u64);
        assert!(sum <= MAX_BOX_BEADS as u64);
    }
    // Fresh beads over the per-arrow maximum are refused where they are typed.
    assert!("4294967295".parse::<matchbox::learn::StageBeads>().is_err());
}

#[test]
fn the_solvers_agree_on_every_position() {
    for size in [Size::GARDNER, Size::OCTOPAWN, Size::new(3, 4).unwrap()] {
        let game = Hexapawn::new(size);
        let graph = GameGraph::build(&game);
        let dfs = Solution::solve(&graph).unwrap();
        assert_eq!(Solution::retrograde(&graph), dfs, "{size}");
        let mut on_demand = OnDemand::new(10_000_000);
        for n in 0..graph.len() as NodeId {
            let v = on_demand.solve(&game, graph.position(n)).unwrap();
            assert_eq!(
                v,
                dfs.value(n),
                "{size} {}",
                game.format_position(graph.position(n))
            );
        }
    }
    let graph = GameGraph::build(&TicTacToe);
    let dfs = Solution::solve(&graph).unwrap();
    assert_eq!(Solution::retrograde(&graph), dfs);
    let mut on_demand = OnDemand::new(10_000_000);
    assert_eq!(
        on_demand.solve(&TicTacToe, &TicTacToe.start()),
        Ok(Value::Draw)
    );
    // Kept across calls: asking again solves nothing new.
    let known = on_demand.len();
    for n in 0..graph.len() as NodeId {
        assert_eq!(
            on_demand.solve(&TicTacToe, graph.position(n)).unwrap(),
            dfs.value(n)
        );
    }
    assert_eq!(on_demand.len(), known);
    // A limit is an error, not a hang.
    let mut tiny = OnDemand::new(10);
    assert_eq!(
        tiny.solve(&TicTacToe, &TicTacToe.start()),
        Err(SolveError::TooBig { limit: 10 })
    );
}

/// A race to 4 on a line where a token may also step back, so positions repeat: the player who
/// moves the token onto 4 wins.
#[derive(Clone)]
struct Shuttle;

impl Game for Shuttle {
    type Position = (u8, u8);
    type Move = i8;
    type Reason = &'static str;
    fn name(&self) -> &'static str {
        "shuttle"
    }
    fn variant(&self) -> String {
        "4".into()
    }
    fn side_name(&self, side: Side) -> &'static str {
        ["a", "b"][side as usize]
    }
    fn start(&self) -> (u8, u8) {
        (0, 0)
    }
    fn to_move(&self, pos: &(u8, u8)) -> Side {
        [Side::First, Side::Second][pos.1 as usize]
    }
    fn legal_moves(&self, pos: &(u8, u8), out: &mut Vec<i8>) {
        if pos.0 < 4 {
            out.push(1);
            if pos.0 > 0 {
                out.push(-1);
            }
        }
    }
    fn play(&self, pos: &(u8, u8), mv: i8) -> (u8, u8) {
        ((pos.0 as i8 + mv) as u8, 1 - pos.1)
    }
    fn outcome(&self, pos: &(u8, u8)) -> Option<Outcome<&'static str>> {
        (pos.0 == 4).then(|| Outcome {
            winner: Some(self.to_move(pos).other()),
            reason: "reached 4",
        })
    }
    fn symmetry_count(&self) -> usize {
        1
    }
    fn transform_position(&self, _: Sym, pos: &(u8, u8)) -> (u8, u8) {
        *pos
    }
    fn transform_move(&self, _: Sym, mv: i8) -> i8 {
        mv
    }
    fn inverse(&self, s: Sym) -> Sym {
        s
    }
    fn format_position(&self, pos: &(u8, u8)) -> String {
        format!("{}{}", pos.0, self.side_name(self.to_move(pos)))
    }
    fn parse_position(&self, text: &str, _: Side) -> Result<(u8, u8), GameError> {
        Err(GameError::BadPosition {
            text: text.into(),
            why: "not parsed".into(),
        })
    }
    fn format_move(&self, mv: i8) -> String {
        mv.to_string()
    }
    fn parse_move(&self, pos: &(u8, u8), text: &str) -> Result<i8, GameError> {
        matchbox::game::find_legal(self, pos, text, |m| m.to_string() == text)
    }
    fn diagram(&self, pos: &(u8, u8)) -> Vec<String> {
        vec![self.format_position(pos)]
    }
}

#[test]
fn a_game_with_cycles_is_an_error_for_the_graph_solver_and_solved_by_retrograde_analysis() {
    let graph = GameGraph::build(&Shuttle);
    assert_eq!(Solution::solve(&graph), Err(SolveError::Cycle));
    assert_eq!(
        OnDemand::new(1000).solve(&Shuttle, &Shuttle.start()),
        Err(SolveError::Cycle)
    );
    let values = Solution::retrograde(&graph);
    for n in 0..graph.len() as NodeId {
        let (at, _) = *graph.position(n);
        let expected = match at {
            4 => Value::Loss(0),
            3 => Value::Win(1),
            // From 0, 1 and 2 either side can keep the token shuttling: nobody can force a win.
            _ => Value::Draw,
        };
        assert_eq!(values.value(n), expected, "token at {at}");
    }
}

#[test]
fn arrow_k_has_the_same_colour_and_letter_on_the_screen_and_on_the_label() {
    use ratatui::style::Color;
    for k in 0..30 {
        let Color::Rgb(r, g, b) = matchbox::view::board::bead_colour(k) else {
            panic!("arrow {k}: not an RGB colour on the screen");
        };
        let (_, hex, letter) = matchbox::labels::bead(k);
        assert_eq!(hex, format!("#{r:02X}{g:02X}{b:02X}"), "arrow {k}");
        assert_eq!(letter, matchbox::palette::letter(k), "arrow {k}");
    }
    // Arrow 4 (the fifth) is blue on both.
    assert_eq!(matchbox::labels::bead(4).0, "blue");
    // The shipped label sheets use the palette: arrow A orange, B sky blue.
    let page = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("boxes/labels/her-gardner-1.svg"),
    )
    .unwrap();
    assert!(page.contains(&matchbox::palette::arrow(0).hex()));
    assert!(page.contains(&matchbox::palette::arrow(1).hex()));
}

/// Every `.rs` file under `dir`, with its text.
fn sources(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push((
                path.display().to_string(),
                std::fs::read_to_string(&path).unwrap(),
            ));
        }
    }
    out
}

#[test]
fn layers_import_only_downward() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for (file, text) in sources(&src) {
        let in_cli = file.contains("/src/cli/") || file.ends_with("/src/main.rs");
        if !in_cli {
            assert!(
                !text.contains("crate::cli"),
                "{file} imports the command line"
            );
        }
        for core in [
            "/src/game/",
            "/src/solve/",
            "/src/players/",
            "/src/learn/",
            "/src/rng.rs",
            "/src/palette.rs",
        ] {
            if file.contains(core) {
                assert!(!text.contains("clap"), "{file} uses clap");
                for above in [
                    "crate::tui",
                    "crate::store",
                    "crate::chart",
                    "crate::labels",
                    "crate::games",
                    "ratatui",
                    "plotters",
                ] {
                    assert!(!text.contains(above), "{file} imports {above}");
                }
            }
        }
        if file.contains("/src/tui/")
            || file.contains("/src/store/")
            || file.contains("/src/chart/")
            || file.contains("/src/labels/")
        {
            assert!(
                !text.contains("crate::games"),
                "{file} names a particular game"
            );
        }
    }
}

#[test]
fn one_registry_names_every_game() {
    use matchbox::games::GameKind;
    assert_eq!(
        GameKind::parse("Hexapawn", None),
        Ok(GameKind::Hexapawn(Size::GARDNER))
    );
    assert_eq!(
        GameKind::parse("octopawn", None),
        Ok(GameKind::Hexapawn(Size::OCTOPAWN))
    );
    assert_eq!(
        GameKind::parse("hexapawn", Some("4x5")).map(|k| k.to_string()),
        Ok("hexapawn --size 4x5".to_string())
    );
    assert_eq!(GameKind::parse("noughts", None), Ok(GameKind::TicTacToe));
    assert!(GameKind::parse("tictactoe", Some("4")).is_err());
    assert!(GameKind::parse("octopawn", Some("3x3")).is_err());
    let err = GameKind::parse("chess\x1b[2J", None)
        .unwrap_err()
        .to_string();
    assert!(
        !err.contains('\x1b') && err.contains("known: hexapawn"),
        "{err}"
    );
    // Full Arimaa has rules but no learner: a learner's game is the mini one.
    let err = GameKind::parse("arimaa", None).unwrap_err().to_string();
    assert!(err.contains("count arimaa"), "{err}");
    assert_eq!(
        GameKind::parse("mini-arimaa", None),
        Ok(GameKind::MiniArimaa)
    );
    for name in matchbox::games::names() {
        let size = (name == "arimaa").then_some("4");
        let kind = GameKind::parse(name, size).unwrap();
        // Printed as typed, parsed back to the same kind.
        let printed = kind.to_string();
        let typed_name = printed.split(" --size ").next().unwrap();
        assert_eq!(
            GameKind::parse(typed_name, kind.size().as_deref()),
            Ok(kind)
        );
    }
}

#[test]
fn lazy_and_table_experiments_report_the_same_losses() {
    let out = |engine: &str| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_matchbox"))
            .args([
                "experiment",
                "hexapawn",
                "--runs",
                "200",
                "--games",
                "40",
                "--seed",
                "5",
                "--json",
                "--engine",
                engine,
            ])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        (v["loss_rate"].clone(), v["settings"]["engine"].clone())
    };
    let (table, e1) = out("table");
    let (lazy, e2) = out("lazy");
    assert_eq!((e1.as_str(), e2.as_str()), (Some("table"), Some("lazy")));
    assert_eq!(table, lazy);
    let _ = GameResult::Win;
}

/// The perfect player with its options remembered (packed in a word for Havannah's small boards,
/// by position for Hexapawn) plays exactly the games the bare player plays from the same seeds.
#[test]
fn remembering_the_perfect_players_options_changes_no_move() {
    use matchbox::games::havannah::{Base, Havannah};
    use matchbox::learn::{Forced, GameDefaults, lazy};
    use matchbox::players::Remembering;
    fn check<G: GameDefaults + Clone>(game: &G, side: Side, games: usize) {
        let (values, _) =
            matchbox::learn::perfect_values(game, matchbox::solve::TieBreak::Random).unwrap();
        let machine = || {
            let set = BoxSet::lazy(game, side, game.default_symmetry(side), Forced::Skip);
            let preset = game.default_preset();
            Machine::new(Arc::new(set), preset.beads(), preset.reinforcement(), 9)
        };
        let (mut a, mut b) = (machine(), machine());
        let mut bare = PerfectPlayer::new(values.clone(), TieBreak::Random);
        let mut memo = Remembering::new(PerfectPlayer::new(values, TieBreak::Random), 1 << 18);
        let ra = lazy::train(game, &mut a, &mut bare, games);
        let rb = lazy::train(game, &mut b, &mut memo, games);
        assert_eq!(ra, rb, "{} {}", game.name(), game.variant());
        assert_eq!(beads_by_position(game, &a), beads_by_position(game, &b));
        assert!(memo.remembered() > 0);
    }
    // Havannah's options are remembered once for all 12 images of a position, as the bits of a
    // word; with the swap rule (a move with no bit) in a list of their own.
    check(&Havannah::new(Base::new(2).unwrap()), Side::First, 1000);
    check(&Havannah::new(Base::new(2).unwrap()), Side::Second, 500);
    let swap = matchbox::games::havannah::Variant::new(Base::new(2).unwrap(), true, 0).unwrap();
    check(&Havannah::with(swap), Side::First, 500);
    check(&Hexapawn::new(Size::new(3, 4).unwrap()), Side::First, 200);
}

/// Every command's GAME help is generated from the registry: it names every game and alias,
/// and every name and alias parses (`moves`, which is for Arimaa, names Arimaa's).
#[test]
fn the_help_names_every_game_of_the_registry() {
    // `plot` and `merge` take files, `moves` Arimaa only.
    let commands = crate::common::COMMANDS
        .iter()
        .filter(|c| !matches!(**c, "plot" | "merge" | "moves"));
    for &command in commands {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_matchbox"))
            .args([command, "--help"])
            .output()
            .unwrap();
        let help = String::from_utf8_lossy(&out.stdout);
        for g in matchbox::games::GAMES {
            assert!(help.contains(g.name), "{command} --help lacks {}", g.name);
            for alias in g.aliases {
                assert!(help.contains(alias), "{command} --help lacks {alias}");
                assert!(matchbox::games::entry(alias).is_some());
            }
        }
    }
}

/// Havannah's word-packed positions: distinct positions never share a word and unpack to
/// themselves (checked over random games on bases 2 to 4), and bigger boards do not pack.
#[test]
fn havannah_packs_small_positions_in_one_word() {
    use matchbox::games::havannah::{Base, Havannah};
    use rand::SeedableRng;
    for base in [2, 3, 4] {
        let game = Havannah::new(Base::new(base).unwrap());
        let mut seen = std::collections::HashMap::new();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(base as u64);
        for _ in 0..2000 {
            let mut pos = game.start();
            while game.outcome(&pos).is_none() {
                let key = game.pack(&pos).expect("a small board packs");
                assert_eq!(seen.entry(key).or_insert(pos), &pos);
                assert_eq!(game.unpack(key), Some(pos));
                let moves = game.moves(&pos);
                let k = rand::RngExt::random_range(&mut rng, 0..moves.len());
                pos = game.play(&pos, moves[k]);
            }
        }
        assert!(seen.len() > 100);
    }
    // Base 4 counts its 37 cells in base three; base 5 does not fit.
    let big = Havannah::new(Base::new(5).unwrap());
    assert_eq!(big.pack(&big.start()), None);
    // A word with stray bits stands for no position.
    let small = Havannah::new(Base::new(3).unwrap());
    assert_eq!(small.unpack(1 << 5), None);
    let four = Havannah::new(Base::new(4).unwrap());
    assert_eq!(four.unpack(u64::MAX), None);
}

/// A game says whether it has a solver of its own without building one (mini-Arimaa's builds
/// its whole graph), and says it truly.
#[test]
fn has_own_solver_tells_the_truth() {
    use matchbox::games::arimaa::MiniArimaa;
    use matchbox::games::havannah::{Base, Havannah};
    use matchbox::games::tictactoe::TicTacToe;
    use matchbox::learn::GameDefaults;
    use matchbox::solve::TieBreak;
    fn agrees<G: GameDefaults>(g: &G) -> bool {
        g.has_own_solver() == g.own_solver(TieBreak::Random).is_some()
    }
    for n in 2..=5 {
        let g = Havannah::new(Base::new(n).unwrap());
        assert!(agrees(&g), "havannah base {n}");
        assert_eq!(g.has_own_solver(), n <= 3);
    }
    assert!(agrees(&MiniArimaa::new()) && MiniArimaa::new().has_own_solver());
    assert!(agrees(&TicTacToe) && !TicTacToe.has_own_solver());
    assert!(agrees(&Hexapawn::new("3x3".parse().unwrap())));
}
