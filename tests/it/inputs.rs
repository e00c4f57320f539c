//! Impossible inputs refused in one line each, naming what is wrong: Arimaa positions no game
//! reaches, turns after a game is over, move numbers that do not fit, a piece that is not where a
//! mini-Arimaa move says.

use crate::common::{json, refused};
use matchbox::game::{Game, GameError, Side};
use matchbox::games::arimaa::MiniArimaa;

const START: &str = "[rrrrrrrrdhcemchd                                DHCMECHDRRRRRRRR]";

/// The start with square `i` (0 = a8 … 63 = h1) holding `c`.
fn with(i: usize, c: char) -> String {
    let mut chars: Vec<char> = START.chars().collect();
    chars[i + 1] = c;
    chars.into_iter().collect()
}

#[test]
fn arimaa_positions_no_game_reaches_are_refused() {
    // A second gold elephant (on e4), 17 pieces of gold.
    let two = with(36, 'E');
    let err = refused(&["moves", "arimaa", "--position", &two]);
    assert!(
        err.contains("2 gold elephants: a side has at most 1"),
        "{err}"
    );
    // Every square an elephant.
    let all = format!("[{}]", "E".repeat(64));
    assert!(refused(&["moves", "arimaa", "--position", &all]).contains("gold elephants"));
    // A gold cat alone on the trap c3 (rank 3, file c: index 5·8+2).
    let trapped = with(42, 'C').replacen("DHCMECHD", "DH MECHD", 1);
    let err = refused(&["moves", "arimaa", "--position", &trapped]);
    assert!(
        err.contains("the C on c3, a trap, has no friend beside it"),
        "{err}"
    );
    // Beside a friend on c2 it is fine... but then gold has three cats: put it on a dog's place.
    let guarded = with(42, 'D').replacen("DHCMECHD", "DHCMEC H", 1);
    assert!(
        json(&["moves", "arimaa", "--position", &guarded, "--json"])["turns"].as_u64() > Some(0)
    );
    // Rabbits of both sides on their goals.
    let both =
        with(0, 'R')
            .replacen("RRRRRRRR]", "RRRRRRRr]", 1)
            .replacen("[Rrrrrrrr", "[Rrrrrrr ", 1);
    let err = refused(&[
        "replay",
        "arimaa",
        "--position",
        &both,
        "--side",
        "gold",
        "--moves",
        "Ee2n",
    ]);
    assert!(
        err.contains("rabbits of both sides stand on their goals"),
        "{err}"
    );
}

#[test]
fn no_turns_once_the_game_is_over() {
    // A gold rabbit on a8: gold has won; silver has no turn to list.
    let won = with(0, 'R').replacen("RRRRRRRR]", " RRRRRRR]", 1);
    let err = refused(&["moves", "arimaa", "--position", &won, "--side", "silver"]);
    assert!(
        err.contains("the game is over in this position (gold won by goal)"),
        "{err}"
    );
    // Silver without rabbits: the game ended by elimination.
    let none = START.replace('r', " ");
    let err = refused(&["moves", "arimaa", "--position", &none, "--side", "silver"]);
    assert!(err.contains("won by elimination"), "{err}");
    // After a record that ends the game (a rabbit steps onto its goal), nothing more.
    // (a gold rabbit on a7, nothing beside it: silver's a8 rabbit and b7 horse gone)
    let near = with(8, 'R')
        .replacen("[rrrrrrrrRh", "[ rrrrrrrR ", 1)
        .replacen("RRRRRRRR]", " RRRRRRR]", 1);
    let err = refused(&[
        "moves",
        "arimaa",
        "--position",
        &near,
        "--side",
        "gold",
        "--moves",
        "Ra7n",
    ]);
    assert!(
        err.contains("the game is over after --moves (gold won by goal)"),
        "{err}"
    );
}

#[test]
fn move_numbers_must_be_the_turns_they_stand_before() {
    let ok = json(&[
        "replay",
        "arimaa",
        "--position",
        START,
        "--side",
        "gold",
        "--moves",
        "1g Ee2n 1s ed7s 2g Ee3n",
        "--json",
    ]);
    assert_eq!(ok["ply"], 3);
    let err = refused(&[
        "replay",
        "arimaa",
        "--position",
        START,
        "--side",
        "gold",
        "--moves",
        "1s Ee2n",
    ]);
    assert!(err.contains("`1s` stands before turn 1g"), "{err}");
    let err = refused(&[
        "replay",
        "arimaa",
        "--position",
        START,
        "--side",
        "gold",
        "--moves",
        "1g Ee2n 3s ed7s",
    ]);
    assert!(err.contains("`3s` stands before turn 1s"), "{err}");
    let err = refused(&[
        "replay",
        "arimaa",
        "--position",
        START,
        "--side",
        "gold",
        "--moves",
        "99999999999999999999g Ee2n",
    ]);
    assert!(err.contains("too big"), "{err}");
    let err = refused(&[
        "moves",
        "arimaa",
        "--position",
        START,
        "--side",
        "gold",
        "--moves",
        "2g Ee2n",
        "--turn",
        "1",
    ]);
    assert!(err.contains("`2g` stands before turn 1g"), "{err}");
}

#[test]
fn a_mini_arimaa_move_must_name_the_piece_that_stands_there() {
    let game = MiniArimaa::new();
    let start = game.start();
    assert_eq!(game.to_move(&start), Side::First);
    // Gold's rabbit on a1, its dog on b1.
    for (text, why) in [
        ("Eb1e", "no E on b1 (D stands there)"),
        ("rc1n", "no r on c1 (the square is empty)"),
        ("Rb1n", "no R on b1"),
    ] {
        match game.parse_move(&start, text) {
            Err(e @ GameError::WrongPiece { .. }) => {
                assert!(e.to_string().contains(why), "{text}: {e}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    assert!(game.parse_move(&start, "Ra1n").is_ok());
    assert!(
        game.parse_move(&start, "a1n").is_ok(),
        "a step without its piece letter"
    );
}

#[test]
fn havannah_positions_no_game_reaches_are_refused() {
    use matchbox::games::havannah::{Base, Havannah};
    let game = Havannah::new(Base::new(2).unwrap());
    // Black's bridge on a1–a2 won with Black's last stone: a finished game, White to move.
    let done = game.parse_position("BB/W.W/..", Side::First).unwrap();
    assert!(game.outcome(&done).is_some());
    // White's bridge, and then Black moved on.
    let err = game
        .parse_position("WW/B.B/..", Side::First)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("ended with white's winning structure, yet black moved after it"),
        "{err}"
    );
    // Both sides with a bridge.
    let err = game
        .parse_position("WW/.../BB", Side::First)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("both white and black hold a winning structure"),
        "{err}"
    );
}

/// The messages of the hostile trial, each said once and in the same words across commands.
#[test]
fn messages_said_once_in_the_same_words() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("t.csv");
    let csv_arg = csv.to_str().unwrap();
    crate::common::stdout(&[
        "train", "hexapawn", "--games", "20", "--seed", "1", "--csv", csv_arg,
    ]);
    // A table value that is no number: its line and column by name, once.
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut fields: Vec<&str> = lines[3].split(',').collect();
    fields[1] = "four";
    lines[3] = fields.join(",");
    std::fs::write(&csv, lines.join("\n")).unwrap();
    let x_png = dir.path().join("x.png");
    let plot = || refused(&["plot", csv_arg, "--out", x_png.to_str().unwrap()]);
    let err = plot();
    assert!(
        err.contains("line 4, column `game`: invalid digit"),
        "{err}"
    );
    assert_eq!(err.matches("invalid digit").count(), 1, "{err}");
    // A column the header lacks is said of the header (line 1), not of the first row.
    let without_third = |l: &str| {
        let f: Vec<&str> = l.split(',').collect();
        [&f[..2], &f[3..]].concat().join(",")
    };
    let dropped = text.lines().next().unwrap().split(',').nth(2).unwrap();
    let edited: Vec<String> = text.lines().map(without_third).collect();
    std::fs::write(&csv, edited.join("\n")).unwrap();
    let err = plot();
    assert!(
        err.contains(&format!("line 1 (the header): no column `{dropped}`")),
        "{err}"
    );
    // An output that names a directory is refused before any work.
    let out = format!("{}/x.png/", dir.path().display());
    let err = refused(&[
        "train", "hexapawn", "--games", "5", "--seed", "1", "--plot", &out,
    ]);
    assert!(err.contains("ends in a slash"), "{err}");
    // A machine file of another size says both as typed.
    let m = dir.path().join("h2.yaml");
    crate::common::stdout(&[
        "train",
        "havannah",
        "--size",
        "2",
        "--games",
        "3",
        "--seed",
        "1",
        "--save",
        m.to_str().unwrap(),
    ]);
    let err = refused(&[
        "train",
        "havannah",
        "--size",
        "3",
        "--boxes",
        m.to_str().unwrap(),
        "--games",
        "1",
    ]);
    assert!(
        err.contains(
            "holds a machine for `havannah --size 2`, but the command asks for `havannah --size 3`"
        ),
        "{err}"
    );
    // Havannah's size in JSON, the same in every command.
    let size = |args: &[&str]| {
        let v = json(args);
        let s = v.get("size").or_else(|| v["settings"].get("size"));
        s.and_then(|s| s.as_str()).unwrap_or_default().to_string()
    };
    let want = "base 2, swap rule";
    for args in [
        &["count", "havannah", "--size", "2", "--swap", "--json"][..],
        &["solve", "havannah", "--size", "2", "--swap", "--json"],
        &[
            "train", "havannah", "--size", "2", "--swap", "--games", "1", "--seed", "1", "--json",
        ],
        &[
            "playout", "havannah", "--size", "2", "--swap", "--games", "2", "--seed", "1", "--json",
        ],
    ] {
        assert_eq!(size(args), want, "{args:?}");
    }
}

/// The names of history and near misses: `her` and `him` are Hexapawn with their learners'
/// sides, `menace` and `tic-tac-toe` noughts and crosses, `4x4` mini-Arimaa, and a name a
/// letter or two off is offered its nearest.
#[test]
fn names_of_history_and_did_you_mean() {
    let side = |args: &[&str]| {
        let v = json(args);
        (
            v["side"].as_str().unwrap_or_default().to_string(),
            v["boxes"].as_u64().unwrap_or(0),
        )
    };
    assert_eq!(side(&["boxes", "him", "--count", "--json"]).0, "white");
    assert_eq!(side(&["boxes", "her", "--count", "--json"]).0, "black");
    assert_eq!(
        side(&["boxes", "menace", "--count", "--json"]),
        ("x".to_string(), 304)
    );
    assert_eq!(side(&["boxes", "tic-tac-toe", "--count", "--json"]).1, 304);
    // An explicit side still wins.
    assert_eq!(
        side(&["boxes", "him", "--side", "black", "--count", "--json"]).0,
        "black"
    );
    let v = json(&["moves", "arimaa", "--size", "4x4", "--json"]);
    assert_eq!(v["turns"], 13);
    for (typed, nearest) in [
        ("octapawn", "octopawn"),
        ("tictactoo", "tictactoe"),
        ("havana", "havannah"),
    ] {
        let err = refused(&["count", typed]);
        assert!(
            err.contains(&format!("did you mean `{nearest}`?")),
            "{typed}: {err}"
        );
    }
    assert!(!refused(&["count", "chess"]).contains("did you mean"));
}

/// The help says what the program takes: every chart there is, every game's sides, both file
/// formats.
#[test]
fn help_names_every_chart_side_and_format() {
    let help = crate::common::stdout(&["train", "--help"]);
    for kind in matchbox::chart::data::ChartKind::ALL {
        assert!(
            help.contains(kind.arg()),
            "--chart {} missing:\n{help}",
            kind.arg()
        );
        assert_eq!(
            kind.arg().parse::<matchbox::chart::data::ChartKind>(),
            Ok(kind)
        );
    }
    for sides in ["white|black", "x|o", "gold|silver", "first|second"] {
        assert!(help.contains(sides), "{sides} missing:\n{help}");
    }
    assert!(help.contains(".mbx"), "the binary format missing:\n{help}");
    for entry in matchbox::games::GAMES {
        assert!(help.contains(entry.name), "{} missing", entry.name);
        for alias in entry.aliases {
            assert!(help.contains(alias), "alias {alias} missing");
        }
    }
}

/// Each command's help offers what that command takes: `--json` where it prints a report (not
/// on the screens), `moves` only Arimaa's options.
#[test]
fn each_commands_help_offers_what_it_takes() {
    // `plot` reads a CSV and `film` writes a GIF: neither prints a report as JSON.
    let commands = crate::common::COMMANDS
        .iter()
        .filter(|c| !matches!(**c, "plot" | "film"));
    for &c in commands {
        let help = crate::common::stdout(&[c, "--help"]);
        let screen = c == "watch" || c == "play";
        assert_eq!(help.contains("--json"), !screen, "{c} --help:\n{help}");
        // What the help offers is taken: --json, where offered, is no unknown argument.
        if !screen {
            let out = crate::common::run(&[c, "--json"]);
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(!err.contains("unexpected argument '--json'"), "{c}: {err}");
        }
    }
    assert!(refused(&["watch", "hexapawn", "--json"]).contains("--json"));
    let moves = crate::common::stdout(&["moves", "--help"]);
    for other in ["--swap", "--handicap", "hexapawn", "havannah"] {
        assert!(
            !moves.contains(other),
            "moves --help offers {other}:\n{moves}"
        );
    }
    assert!(
        moves.contains("4x4") && moves.contains("mini-arimaa"),
        "{moves}"
    );
}

/// Titles say the game by the name typed where it is another name of the game.
#[test]
fn titles_use_the_name_typed() {
    let dir = tempfile::tempdir().unwrap();
    for (typed, shown) in [
        ("noughts", "noughts 3x3"),
        ("tictactoe", "tictactoe 3x3"),
        ("menace", "tictactoe 3x3"),
    ] {
        let csv = dir.path().join(format!("{typed}.csv"));
        let csv = csv.to_str().unwrap();
        crate::common::stdout(&["train", typed, "--games", "3", "--seed", "1", "--csv", csv]);
        let text = std::fs::read_to_string(csv).unwrap();
        assert!(text.contains(&format!(" · {shown} · ")), "{typed}: {text}");
    }
}

/// The first-box chart's legend names each arrow's move: `a1 corner`, `b2 centre`.
#[test]
fn the_first_box_legend_names_the_moves() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("menace.csv");
    let csv = csv.to_str().unwrap();
    crate::common::stdout(&[
        "train",
        "tictactoe",
        "--games",
        "3",
        "--seed",
        "1",
        "--csv",
        csv,
    ]);
    let text = std::fs::read_to_string(csv).unwrap();
    assert!(text.lines().next().unwrap().contains("first_box_moves"));
    assert!(text.contains("a1 corner/b1 edge/b2 centre"), "{text}");
    let svg = dir.path().join("first.svg");
    let svg_path = svg.to_str().unwrap();
    crate::common::stdout(&["plot", csv, "--chart", "first-box", "--out", svg_path]);
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(
        drawn.contains("arrow C: b2 centre"),
        "the legend names the centre"
    );
}

/// The limits an option states are the limits it keeps: a size up to 1 PiB is taken in PiB,
/// and a number past a range is told the range, not the type's.
#[test]
fn limits_are_stated_as_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let gif = dir.path().join("x.gif");
    let gif = gif.to_str().unwrap();
    let fps = crate::common::refused(&["film", "hexapawn", "--out", gif, "--fps", "4294967296"]);
    assert!(fps.contains("not in 1..=50"), "{fps}");
    let k = crate::common::refused(&["watch", "havannah", "--handicap", "4294967296"]);
    assert!(k.contains("not in 2..=255"), "{k}");
    let big =
        crate::common::refused(&["train", "hexapawn", "--max-memory", "2PiB", "--games", "1"]);
    assert!(big.contains("1 byte to 1 PiB"), "{big}");
    let ok = crate::common::run(&[
        "train",
        "hexapawn",
        "--max-memory",
        "1PiB",
        "--games",
        "1",
        "--seed",
        "1",
    ]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
}

/// A file name with a right-to-left override (U+202E) is echoed escaped, in errors and in
/// "saved to": raw, it would show the name's end reversed.
#[test]
fn bidi_controls_in_names_are_echoed_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let name = dir.path().join("m\u{202e}gpj.yaml");
    let out = crate::common::stdout(&[
        "train",
        "hexapawn",
        "--games",
        "3",
        "--seed",
        "1",
        "--save",
        name.to_str().unwrap(),
    ]);
    assert!(out.contains("m\\u{202e}gpj.yaml"), "{out}");
    assert!(!out.contains('\u{202e}'), "{out}");
    let missing = dir.path().join("x\u{2067}y.yaml");
    let err = crate::common::refused(&["train", "hexapawn", "--boxes", missing.to_str().unwrap()]);
    assert!(
        err.contains("\\u{2067}") && !err.contains('\u{2067}'),
        "{err}"
    );
    assert_eq!(
        matchbox::text::quote("a\u{200f}b\u{feff}"),
        "a\\u{200f}b\\u{feff}"
    );
}

/// Limits and settings a file or an option states are kept or refused, never ignored: a table
/// machine over `--max-memory`, a file's bead counts for more moves than its learner makes; a
/// control character in a file is placed by its line and column.
#[test]
fn limits_and_settings_are_kept_or_refused_in_one_line() {
    let err = refused(&["train", "hexapawn", "--games", "5", "--max-memory", "1KB"]);
    assert!(
        err.contains("allowed the boxes is 1.0 kB")
            && err.contains("1.3 kB")
            && err.contains("use --engine lazy"),
        "{err}"
    );
    // (After the notice that a big game's table takes a while: the boxes are refused at once.)
    let out = crate::common::run(&[
        "train",
        "hexapawn",
        "--size",
        "5x6",
        "--games",
        "5",
        "--max-memory",
        "1MB",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success()
            && err
                .trim_end()
                .lines()
                .last()
                .unwrap()
                .contains("more than 1.0 MB"),
        "{err}"
    );
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("m.yaml");
    let p = m.to_str().unwrap();
    crate::common::stdout(&["train", "hexapawn", "--games", "5", "--save", p]);
    let err = refused(&[
        "train",
        "hexapawn",
        "--boxes",
        p,
        "--games",
        "5",
        "--max-memory",
        "1KB",
    ]);
    assert!(err.contains("a table machine"), "{err}");
    let text = std::fs::read_to_string(&m).unwrap();
    let bad = dir.path().join("bad.yaml");
    let b = bad.to_str().unwrap();
    std::fs::write(
        &bad,
        text.replace(
            "initial_beads:\n- 1\n",
            "initial_beads:\n- 1\n- 2\n- 3\n- 4\n- 5\n",
        ),
    )
    .unwrap();
    let err = refused(&["train", "hexapawn", "--boxes", b, "--games", "1"]);
    assert!(
        err.contains("key `initial_beads`") && err.contains("at most 3 moves"),
        "{err}"
    );
    std::fs::write(&bad, text.replace("side: black", "side: black # a\u{1}b")).unwrap();
    let err = refused(&["train", "hexapawn", "--boxes", b, "--games", "1"]);
    assert!(
        err.contains("control characters are not allowed at line 5 column"),
        "{err}"
    );
}

/// A tree search that would take minutes a move is forecast before its first move (said, or
/// refused past a year).
#[test]
fn a_long_tree_search_is_forecast_before_it_starts() {
    let err = refused(&[
        "train",
        "havannah",
        "--size",
        "10",
        "--opponent",
        "mcts:10000000",
        "--games",
        "1000000",
    ]);
    assert!(
        err.contains("10,000,000 simulations take about") && err.contains("years"),
        "{err}"
    );
    let err = refused(&[
        "experiment",
        "havannah",
        "--size",
        "10",
        "--opponent",
        "mcts:10000000",
        "--runs",
        "1000",
        "--games",
        "1000",
    ]);
    assert!(err.contains("years"), "{err}");
}

/// Machine files as people leave them: whole numbers YAML allows (`-0`, `!!int "3"`, `+3`)
/// loaded; the boxes before the settings, a binary machine named `.yaml` and a folder as
/// `--save` each said for what they are, in one line that points at the fix.
#[test]
fn machine_files_as_people_leave_them_are_read_or_said_for_what_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).display().to_string();
    let yaml = p("m.yaml");
    let mbx = p("m.mbx");
    for save in [&yaml, &mbx] {
        crate::common::stdout(&[
            "train", "hexapawn", "--games", "3", "--seed", "1", "--save", save,
        ]);
    }
    let text = std::fs::read_to_string(&yaml).unwrap();
    for (number, games) in [("-0", 0), ("!!int \"3\"", 3), ("+3", 3), ("0x3", 3)] {
        let edited = text.replace("games_played: 3", &format!("games_played: {number}"));
        std::fs::write(p("n.yaml"), edited).unwrap();
        let out = json(&[
            "train",
            "hexapawn",
            "--boxes",
            &p("n.yaml"),
            "--games",
            "1",
            "--json",
        ]);
        assert_eq!(
            out["games_played"].as_u64(),
            Some(games + 1),
            "{number}: {out}"
        );
    }
    // The boxes first, the settings after them.
    let at = text.find("boxes:").unwrap();
    let (head, boxes) = text.split_at(at);
    let (comments, settings): (Vec<&str>, Vec<&str>) =
        head.lines().partition(|l| l.starts_with('#'));
    let moved = format!("{}\n{boxes}{}\n", comments.join("\n"), settings.join("\n"));
    std::fs::write(p("late.yaml"), moved).unwrap();
    let e = refused(&[
        "train",
        "hexapawn",
        "--boxes",
        &p("late.yaml"),
        "--games",
        "1",
    ]);
    assert!(
        e.contains("must come before the boxes") && e.contains("`game:` is at line"),
        "{e}"
    );
    // A binary machine renamed .yaml.
    std::fs::copy(&mbx, p("b.yaml")).unwrap();
    let e = refused(&["train", "hexapawn", "--boxes", &p("b.yaml"), "--games", "1"]);
    assert!(
        e.contains("binary machine file") && e.contains(".mbx"),
        "{e}"
    );
    // A folder as --save: no --force can replace one, and none is offered.
    std::fs::create_dir(p("dir.yaml")).unwrap();
    for force in [false, true] {
        let mut args = vec!["train", "hexapawn", "--games", "1"];
        let dir_yaml = p("dir.yaml");
        args.extend(["--save", &dir_yaml]);
        if force {
            args.push("--force");
        }
        let e = refused(&args);
        assert!(
            e.contains("is a directory") && !e.contains("add --force"),
            "{e}"
        );
    }
}
