//! The cart-pole of BOXES against independent figures: Gymnasium's CartPole-v1 equations, step
//! for step (a table computed outside the program, in Python, from CartPole-v1's `step`); the box
//! index of Sutton's `pole.c`; the published failures of simple pushing.

use matchbox::cartpole::{Physics, Push, State, box_of};

/// CartPole-v1 from rest under the pushes "R R L R L L R L R R L L L R R L R L R L": the state
/// (x, ẋ, θ, θ̇) after each, as Python computes it with Gymnasium's equations (Euler, τ 0.02).
const GYM: [[f64; 4]; 20] = [
    [0.0, 0.1951219512195122, 0.0, -0.2926829268292683],
    [
        0.0039024390243902443,
        0.3902439024390244,
        -0.005853658536585366,
        -0.5853658536585366,
    ],
    [
        0.011707317073170733,
        0.19520443149030264,
        -0.0175609756097561,
        -0.2945326253197778,
    ],
    [
        0.015611405702976786,
        0.390572286835437,
        -0.023451628116151656,
        -0.5927018841613294,
    ],
    [
        0.023422851439685526,
        0.19578634341052323,
        -0.035305665799378244,
        -0.3074974581415999,
    ],
    [
        0.02733857830789599,
        0.0011847918022427073,
        -0.041455614962210244,
        -0.026154747983545223,
    ],
    [
        0.027362274143940844,
        0.1968759747639263,
        -0.04197870992188115,
        -0.33162378722009683,
    ],
    [
        0.03129979363921937,
        0.002375914556961678,
        -0.048611185666283085,
        -0.052468838171954246,
    ],
    [
        0.031347311930358605,
        0.19815996748917988,
        -0.04966056242972217,
        -0.3600840612443404,
    ],
    [
        0.035310511280142204,
        0.3939513722626742,
        -0.05686224365460898,
        -0.6680033064352995,
    ],
    [
        0.04318953872539569,
        0.19966432649231627,
        -0.07022230978331497,
        -0.3937522464935515,
    ],
    [
        0.04718282525524201,
        0.00560545023606096,
        -0.07809735471318599,
        -0.12400973623940065,
    ],
    [
        0.047294934259963235,
        -0.18831582189437449,
        -0.080577549437974,
        0.1430482605534968,
    ],
    [
        0.043528617822075746,
        0.007862128477494679,
        -0.07771658422690407,
        -0.17392805479760526,
    ],
    [
        0.04368586039162564,
        0.20400536594908159,
        -0.08119514532285618,
        -0.49008053096498044,
    ],
    [
        0.047765967710607274,
        0.010117080199242456,
        -0.0909967559421558,
        -0.22405140630686943,
    ],
    [
        0.047968309314592124,
        0.20641381042856263,
        -0.09547778406829319,
        -0.5439944201177951,
    ],
    [
        0.052096585523163375,
        0.012754103942450162,
        -0.10635767247064909,
        -0.2828557468398609,
    ],
    [
        0.052351667602012375,
        0.20921961363805902,
        -0.1120147874074463,
        -0.607099011845232,
    ],
    [
        0.05653605987477356,
        0.015827331531429567,
        -0.12415676764435095,
        -0.3516921235716022,
    ],
];

fn pushes(text: &str) -> Vec<Push> {
    text.split_whitespace()
        .map(|w| Push::parse(w).unwrap())
        .collect()
}

#[test]
fn the_physics_is_cartpole_v1_step_for_step() {
    let (states, failed) = Physics::POLE_C.run(&pushes("R R L R L L R L R R L L L R R L R L R L"));
    assert_eq!(failed, None);
    assert_eq!(states.len(), GYM.len());
    for (i, (s, want)) in states.iter().zip(GYM).enumerate() {
        let got = [s.x, s.x_dot, s.theta, s.theta_dot];
        for (g, w) in got.iter().zip(want) {
            assert!(
                (g - w).abs() < 1e-12,
                "step {}: {got:?} against {want:?}",
                i + 1
            );
        }
    }
    // The 1983 paper's friction changes the motion, a little.
    let (with, _) = Physics::BARTO_1983.run(&pushes("R R L R L L R L R R"));
    assert!((with[9].x_dot - GYM[9][1]).abs() > 1e-6 && (with[9].x_dot - GYM[9][1]).abs() < 1e-2);
}

#[test]
fn pushing_right_always_fails_at_step_9_and_alternating_at_33() {
    let right = vec![Push::Right; 100];
    assert_eq!(Physics::POLE_C.run(&right).1, Some(9));
    let alternating: Vec<Push> = (0..100)
        .map(|i| if i % 2 == 0 { Push::Right } else { Push::Left })
        .collect();
    assert_eq!(Physics::POLE_C.run(&alternating).1, Some(33));
    // The run stops at the failure: the states up to it.
    assert_eq!(Physics::POLE_C.run(&right).0.len(), 9);
}

#[test]
fn boxes_are_pole_c_s_get_box() {
    let at = |x, x_dot, theta, theta_dot| State {
        x,
        x_dot,
        theta,
        theta_dot,
    };
    // At rest: box 85, counting from 0 as `get_box`.
    assert_eq!(box_of(&State::default()), Some(85));
    // Each variable's bands, from `get_box`'s arithmetic: x (0, 1, 2), ẋ (+0, 3, 6), θ (+0, 9, 18,
    // 27, 36, 45), θ̇ (+0, 54, 108).
    assert_eq!(box_of(&at(-1.0, -1.0, -0.2, -1.0)), Some(0));
    assert_eq!(box_of(&at(1.0, 1.0, 0.2, 1.0)), Some(2 + 6 + 45 + 108));
    assert_eq!(
        box_of(&at(0.8, 0.5, 0.1047192, 0.87266)),
        Some(161),
        "each cut belongs above"
    );
    assert_eq!(box_of(&at(0.0, 0.0, -0.01, 0.0)), Some(1 + 3 + 18 + 54));
    assert_eq!(box_of(&at(0.0, 0.0, -0.02, 0.0)), Some(1 + 3 + 9 + 54));
    // Every box is met by some state, and a failed state has none.
    let mut seen = [false; 162];
    for x in [-1.0, 0.0, 1.0] {
        for x_dot in [-1.0, 0.0, 1.0] {
            for theta in [-0.15, -0.05, -0.01, 0.01, 0.05, 0.15] {
                for theta_dot in [-1.0, 0.0, 1.0] {
                    seen[box_of(&at(x, x_dot, theta, theta_dot)).unwrap()] = true;
                }
            }
        }
    }
    assert!(seen.iter().all(|&s| s));
    assert_eq!(box_of(&at(2.5, 0.0, 0.0, 0.0)), None);
    assert_eq!(box_of(&at(0.0, 0.0, -0.21, 0.0)), None);
}

/// BOXES learns: over ten seeds, its trials grow from the random pushes' twenty-odd steps to
/// hundreds; the records and the merit are what the trials put in them.
#[test]
fn boxes_learns_to_balance_the_pole() {
    use matchbox::cartpole::boxes::{Machine, Settings};
    use matchbox::cartpole::learner::Run;
    let mut late = Vec::new();
    for seed in 1..=10 {
        let m = Machine::new(Settings::default(), seed);
        let mut run = Run::new(Box::new(m), Physics::POLE_C, 10_000);
        let lengths: Vec<usize> = (0..300).map(|_| run.trial()).collect();
        assert_eq!((run.trials, run.learner.trials), (300, 300));
        let merit = run.learner.merit();
        let aged: f64 = (lengths.iter().rev().enumerate())
            .map(|(i, &l)| 0.99f64.powi(i as i32) * l as f64)
            .sum::<f64>()
            / (0..300).map(|i| 0.99f64.powi(i)).sum::<f64>();
        assert!(
            (merit - aged).abs() < 1e-6 * aged,
            "merit {merit}, aged lengths {aged}"
        );
        let first: f64 = lengths[..20].iter().sum::<usize>() as f64 / 20.0;
        let last: f64 = lengths[280..].iter().sum::<usize>() as f64 / 20.0;
        late.push(last);
        eprintln!(
            "seed {seed}: the first 20 trials {first:.0} steps on average, the last 20 {last:.0}"
        );
    }
    late.sort_by(f64::total_cmp);
    assert!(
        late[5] > 200.0,
        "the median of the last trials' mean: {late:?}"
    );
}

/// `replay cartpole` plays a record of pushes from rest and says every step's state and box and
/// where it failed; `playout cartpole` gives random pushes' mean life with its interval; a push
/// that is neither L nor R is refused naming it, and the other commands refuse the cart-pole.
#[test]
fn replay_and_playout_take_the_cart_pole() {
    let report = crate::common::json(&[
        "replay",
        "cartpole",
        "--moves",
        "R R R R R R R R R R",
        "--json",
    ]);
    assert_eq!(report["failed_at"], 9, "{report}");
    assert_eq!(report["steps"][0]["box"], 85);
    assert_eq!(report["steps"][8]["box"], serde_json::Value::Null);
    assert_eq!(report["steps"].as_array().unwrap().len(), 9);
    let e = crate::common::refused(&["replay", "cartpole", "--moves", "R up"]);
    assert!(e.contains("push 2 `up`: L or R"), "{e}");
    let p = crate::common::json(&[
        "playout", "cartpole", "--games", "20000", "--seed", "3", "--json",
    ]);
    let mean = p["mean_steps"].as_f64().unwrap();
    assert!(
        (20.0..25.0).contains(&mean),
        "random pushes' mean life {mean}"
    );
    let (lo, hi) = (
        p["interval"][0].as_f64().unwrap(),
        p["interval"][1].as_f64().unwrap(),
    );
    assert!(lo < mean && mean < hi && hi - lo < 1.0, "{p}");
    let e = crate::common::refused(&["play", "cartpole"]);
    assert!(e.contains(&matchbox::games::CARTPOLE.refusal()), "{e}");
}

/// ASE/ACE learns on the same boxes, faster than BOXES (as the 1983 paper found): over ten seeds
/// most runs reach a trial of 10,000 steps within 100 trials; the same seed gives the same
/// trials; a random pusher never does.
#[test]
fn ase_ace_learns_and_is_reproducible() {
    use matchbox::cartpole::learner::{Kind, lengths};
    let mut firsts = Vec::new();
    for seed in 1..=10 {
        let l = lengths(Kind::Ase, seed, Physics::POLE_C, 10_000, 100);
        assert_eq!(l, lengths(Kind::Ase, seed, Physics::POLE_C, 10_000, 100));
        assert!(l.iter().all(|&n| (1..=10_000).contains(&n)), "{l:?}");
        firsts.push(l.iter().position(|&n| n == 10_000).unwrap_or(usize::MAX));
    }
    firsts.sort();
    assert!(
        firsts[5] < 100,
        "trials to the first 10,000-step trial: {firsts:?}"
    );
    assert_ne!(
        lengths(Kind::Ase, 1, Physics::POLE_C, 10_000, 20),
        lengths(Kind::Ase, 2, Physics::POLE_C, 10_000, 20)
    );
    let random = lengths(Kind::Random, 1, Physics::POLE_C, 10_000, 2_000);
    let mean = random.iter().sum::<usize>() as f64 / 2_000.0;
    assert!(
        (19.0..26.0).contains(&mean),
        "random pushes' mean life {mean}"
    );
    assert!(random.iter().all(|&n| n < 10_000));
}

/// `experiment cartpole` races the learners on the same seeds: the report's counts and
/// quartiles are those of the runs (the same seed gives the same report on one thread or two),
/// the table has a row a learner a trial, the chart is drawn; options for board games are
/// refused naming them.
#[test]
fn experiment_races_the_learners() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, png) = (dir.path().join("c.csv"), dir.path().join("c.png"));
    let (csv_arg, png_arg) = (csv.to_str().unwrap(), png.to_str().unwrap());
    let args = |threads: &str| {
        crate::common::json_with_env(
            &[
                "experiment",
                "cartpole",
                "--runs",
                "12",
                "--games",
                "60",
                "--seed",
                "5",
                "--learner",
                "boxes,ase",
                "--json",
                "--csv",
                csv_arg,
                "--plot",
                png_arg,
            ],
            ("RAYON_NUM_THREADS", threads),
        )
    };
    let one = args("1");
    let mut two = args("2");
    two["written"] = one["written"].clone();
    assert_eq!(one, two);
    let learners = one["learners"].as_array().unwrap();
    assert_eq!(learners.len(), 2);
    assert_eq!(
        (
            learners[0]["learner"].as_str(),
            learners[1]["learner"].as_str()
        ),
        (Some("boxes"), Some("ase"))
    );
    use matchbox::cartpole::learner::{Kind, Summary, lengths};
    let runs: Vec<Vec<usize>> = (0..12)
        .map(|r| {
            lengths(
                Kind::Ase,
                matchbox::rng::derive_seed(5, r),
                Physics::POLE_C,
                10_000,
                60,
            )
        })
        .collect();
    let s = Summary::of(Kind::Ase, &runs, 10_000);
    assert_eq!(learners[1]["balanced"], s.balanced);
    assert_eq!(learners[1]["to_balance"], serde_json::json!(s.to_balance));
    assert_eq!(learners[1]["curve"].as_array().unwrap().len(), 60);
    let table = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(table.lines().count(), 1 + 2 * 60);
    assert!(
        table.starts_with("learner,trial,q1,median,q3\nboxes,1,"),
        "{table}"
    );
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    let e = crate::common::refused(&["experiment", "cartpole", "--preset", "michie"]);
    assert!(e.contains("--preset: not for the cart-pole"), "{e}");
    let e = crate::common::refused(&["experiment", "cartpole", "--learner", "neurons"]);
    assert!(
        e.contains("--learner `neurons`: the cart-pole's learners are boxes, ase, random"),
        "{e}"
    );
    let e = crate::common::refused(&["experiment", "hexapawn", "--steps", "5"]);
    assert!(e.contains("--steps is for `experiment cartpole`"), "{e}");
}

/// The quartiles are the nearest-rank ones, and a run that never balanced counts as more
/// than any.
#[test]
fn summary_quartiles_count_unbalanced_runs_as_more() {
    use matchbox::cartpole::learner::{Kind, Quartiles, Summary};
    let q = Quartiles::of(vec![4.0, 1.0, 3.0, 2.0]).unwrap();
    assert_eq!((q.q1, q.median, q.q3), (1.0, 2.0, 3.0));
    assert_eq!(Quartiles::of(vec![]), None);
    let runs = vec![vec![5, 100], vec![100, 7], vec![1, 2], vec![3, 4]];
    let s = Summary::of(Kind::Boxes, &runs, 100);
    assert_eq!(s.balanced, 2);
    assert_eq!(s.to_balance, [Some(1), Some(2), None]);
    // Four runs: the median's interval spans ranks 1 to 4 (the last never balanced).
    assert_eq!(s.median_interval, [Some(1), None]);
    assert_eq!(s.curve[0].median, 3.0);
    let many: Vec<Vec<usize>> = (0..100)
        .map(|i| {
            let mut l = vec![5; 100];
            l[i] = 100;
            l
        })
        .collect();
    let s = Summary::of(Kind::Boxes, &many, 100);
    assert_eq!(s.to_balance[1], Some(50));
    assert_eq!(s.median_interval, [Some(40), Some(61)]);
}

/// `train cartpole` saves a BOXES machine and goes on from it: 150 trials saved (YAML or
/// binary) and 50 more give the same machine, byte for byte, as 200 at once; a hand-edited or
/// cut file is refused naming the file and the key; ASE/ACE has nothing to save.
#[test]
fn train_saves_and_resumes_a_boxes_machine() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let train = |args: &[&str]| {
        let mut all = vec!["train", "cartpole", "--json"];
        all.extend_from_slice(args);
        crate::common::json(&all)
    };
    let whole = train(&["--games", "200", "--seed", "3", "--save", &p("whole.yaml")]);
    assert_eq!(whole["lengths"].as_array().unwrap().len(), 200);
    for first in ["part.yaml", "part.mbx"] {
        train(&["--games", "150", "--seed", "3", "--save", &p(first)]);
        let rest = train(&[
            "--games",
            "50",
            "--boxes",
            &p(first),
            "--save",
            &p("rest.yaml"),
            "--force",
        ]);
        assert_eq!(rest["before"], 150);
        assert_eq!(
            rest["lengths"].as_array().unwrap()[..],
            whole["lengths"].as_array().unwrap()[150..]
        );
        assert_eq!(
            std::fs::read_to_string(p("rest.yaml")).unwrap(),
            std::fs::read_to_string(p("whole.yaml")).unwrap(),
            "{first}"
        );
    }
    let text = std::fs::read_to_string(p("whole.yaml")).unwrap();
    assert!(
        text.contains("trials: 200\n") && text.contains("dk: 0.99\n"),
        "{text}"
    );
    std::fs::write(p("bad.yaml"), text.replace("dk: 0.99", "dk: 1.5")).unwrap();
    let e = crate::common::refused(&["train", "cartpole", "--boxes", &p("bad.yaml")]);
    assert!(e.contains("bad.yaml: settings: dk 1.5"), "{e}");
    std::fs::write(
        p("bad.yaml"),
        text.replace("left_usage: 0.0\n", "left_usage: -1.0\n"),
    )
    .unwrap();
    let e = crate::common::refused(&["train", "cartpole", "--boxes", &p("bad.yaml")]);
    assert!(e.contains("bad.yaml: box ") && e.contains("≥ 0"), "{e}");
    std::fs::write(
        p("bad.yaml"),
        text.replace("learner: boxes", "lerner: boxes"),
    )
    .unwrap();
    let e = crate::common::refused(&["train", "cartpole", "--boxes", &p("bad.yaml")]);
    assert!(e.contains("bad.yaml: ") && e.contains("lerner"), "{e}");
    let bytes = std::fs::read(p("part.mbx")).unwrap();
    std::fs::write(p("cut.mbx"), &bytes[..100]).unwrap();
    let e = crate::common::refused(&["train", "cartpole", "--boxes", &p("cut.mbx")]);
    assert!(
        e.contains("cut.mbx: 100 bytes, where a BOXES machine has"),
        "{e}"
    );
    let e = crate::common::refused(&[
        "train",
        "cartpole",
        "--learner",
        "ase",
        "--save",
        &p("a.yaml"),
    ]);
    assert!(e.contains("--learner ase has no matchboxes to save"), "{e}");
    let e = crate::common::refused(&["train", "cartpole", "--save", &p("whole.yaml")]);
    assert!(e.contains("exists; give --force"), "{e}");
    let e = crate::common::refused(&["play", "hexapawn", "--boxes", &p("part.mbx")]);
    assert!(e.contains("not a binary matchbox file"), "{e}");
    let ase = train(&[
        "--learner",
        "ase",
        "--games",
        "30",
        "--seed",
        "2",
        "--csv",
        &p("t.csv"),
        "--plot",
        &p("t.png"),
    ]);
    let table = std::fs::read_to_string(p("t.csv")).unwrap();
    assert_eq!(table.lines().count(), 31);
    let first = ase["lengths"][0].as_u64().unwrap();
    assert!(
        table.starts_with(&format!("trial,steps\n1,{first}\n")),
        "{table}"
    );
    assert!(std::fs::read(p("t.png")).unwrap().starts_with(b"\x89PNG"));
}

/// `boxes cartpole` lists the 162 boxes in words (the box at rest is 85: the cart in the middle,
/// still, the pole upright); `--labels` prints one label a box, blank or with a machine's
/// counters and pushes.
#[test]
fn boxes_cartpole_lists_and_labels_the_162_boxes() {
    let list = crate::common::json(&["boxes", "cartpole", "--json"]);
    let boxes = list["boxes"].as_array().unwrap();
    assert_eq!(boxes.len(), 162);
    assert_eq!(
        boxes[85]["ranges"],
        serde_json::json!([
            "−0.8 to 0.8 m",
            "under 0.5 m/s either way",
            "leaning right, 0–1°",
            "turning under 50°/s"
        ])
    );
    assert_eq!(boxes[0]["ranges"][2], "leaning left, over 6°");
    assert_eq!(boxes[161]["ranges"][3], "falling right, over 50°/s");
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    crate::common::json(&[
        "train",
        "cartpole",
        "--json",
        "--games",
        "40",
        "--seed",
        "2",
        "--save",
        &p("m.yaml"),
    ]);
    let machine = crate::common::json(&["boxes", "cartpole", "--boxes", &p("m.yaml"), "--json"]);
    assert_eq!(machine["trials"], 40);
    let text = std::fs::read_to_string(p("m.yaml")).unwrap();
    for (labels, trained) in [("blank.svg", false), ("trained.svg", true)] {
        let mut args = vec!["boxes", "cartpole", "--json", "--labels"];
        let path = p(labels);
        args.push(&path);
        let mp = p("m.yaml");
        if trained {
            args.extend(["--boxes", &mp]);
        }
        let report = crate::common::json(&args);
        let pages = report["labels"]["pages"].as_u64().unwrap() as usize;
        assert!(pages >= 8, "{report}");
        let stem = labels.trim_end_matches(".svg");
        let all: String = (1..=pages)
            .map(|i| std::fs::read_to_string(p(&format!("{stem}-{i}.svg"))).unwrap())
            .collect();
        assert_eq!(all.matches(r#"class="label""#).count(), 162);
        assert!(all.contains(r#"data-box="85""#) && all.contains("BOX 161"));
        assert_eq!(
            all.contains(r#"font-weight="bold">RIGHT ▶"#),
            trained,
            "{stem}"
        );
        assert!(
            std::fs::read(p(&format!("{stem}.pdf")))
                .unwrap()
                .starts_with(b"%PDF")
        );
    }
    assert!(text.contains("trials: 40"));
    let e = crate::common::refused(&["boxes", "cartpole", "--preset", "michie"]);
    assert!(e.contains("--preset: not for the cart-pole"), "{e}");
}

/// `--friction` is Barto, Sutton and Anderson's (1983) cart-pole: a step is their equations with
/// the friction of the cart on its track and of the pole at its hinge (written out here from the
/// paper's form, apart from the program's); the commands take it and say so; a board game
/// refuses it.
#[test]
fn friction_is_the_1983_papers() {
    let (g, mc, m, l, f, tau, muc, mup) = (9.8, 1.0, 0.1, 0.5, 10.0, 0.02, 0.0005, 0.000002);
    let s = matchbox::cartpole::State {
        x: 0.1,
        x_dot: -0.7,
        theta: 0.05,
        theta_dot: 0.4,
    };
    let (sin, cos) = (s.theta.sin(), s.theta.cos());
    let sgn = s.x_dot.signum();
    let theta_acc = (g * sin
        + cos * ((-f - m * l * s.theta_dot * s.theta_dot * sin + muc * sgn) / (mc + m))
        - mup * s.theta_dot / (m * l))
        / (l * (4.0 / 3.0 - m * cos * cos / (mc + m)));
    let x_acc =
        (f + m * l * (s.theta_dot * s.theta_dot * sin - theta_acc * cos) - muc * sgn) / (mc + m);
    let next = Physics::BARTO_1983.step(s, matchbox::cartpole::Push::Right);
    assert!((next.x - (s.x + tau * s.x_dot)).abs() < 1e-12);
    assert!(
        (next.x_dot - (s.x_dot + tau * x_acc)).abs() < 1e-12,
        "{next:?}"
    );
    assert!(
        (next.theta_dot - (s.theta_dot + tau * theta_acc)).abs() < 1e-12,
        "{next:?}"
    );
    assert_ne!(
        next,
        Physics::POLE_C.step(s, matchbox::cartpole::Push::Right)
    );
    let with = crate::common::json(&[
        "train",
        "cartpole",
        "--friction",
        "--games",
        "30",
        "--seed",
        "4",
        "--json",
    ]);
    let without = crate::common::json(&[
        "train", "cartpole", "--games", "30", "--seed", "4", "--json",
    ]);
    assert!(
        with["physics"]
            .as_str()
            .unwrap()
            .contains("1983: with friction"),
        "{with}"
    );
    assert_ne!(with["lengths"], without["lengths"]);
    let e = crate::common::refused(&["play", "hexapawn", "--friction"]);
    assert!(e.contains("--friction is the cart-pole's"), "{e}");
}

/// Numbers too big for the memory are refused before any work, naming the arguments; a file far
/// bigger than a BOXES machine is refused unread.
#[test]
fn the_cart_poles_commands_refuse_unbounded_memory() {
    let e = crate::common::refused(&[
        "experiment",
        "cartpole",
        "--runs",
        "1000000",
        "--games",
        "1000",
    ]);
    assert!(
        e.contains("--runs 1000000 × --games 1000 × 3 learners: more than 50,000,000"),
        "{e}"
    );
    let e = crate::common::refused(&["train", "cartpole", "--games", "100000000000"]);
    assert!(
        e.contains("--games 100000000000: at most 50,000,000 trials"),
        "{e}"
    );
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.yaml");
    std::fs::write(&big, "# x\n".repeat(400_000)).unwrap();
    let e = crate::common::refused(&["train", "cartpole", "--boxes", big.to_str().unwrap()]);
    assert!(
        e.contains("big.yaml: more than 1 MB: not a BOXES machine"),
        "{e}"
    );
}

/// `--random-start`: each trial starts from a state drawn within the middle bands (the same for
/// the same seed, on one thread or two); the commands say so; a record of pushes and a board game
/// refuse it.
#[test]
fn random_starts_are_drawn_within_the_middle_bands() {
    use matchbox::cartpole::learner::{Kind, Run, random_state};
    let mut rng = matchbox::rng::rng_from_seed(5);
    for _ in 0..10_000 {
        let s = random_state(&mut rng);
        assert!(s.x.abs() <= 0.8 && s.x_dot.abs() <= 0.5, "{s:?}");
        assert!(s.theta.abs() <= 6f64.to_radians() && s.theta_dot.abs() <= 50f64.to_radians());
    }
    let run = Run::new(Kind::Boxes.learner(1), Physics::POLE_C, 10_000).random_starts(1);
    assert_ne!(run.state(), matchbox::cartpole::State::default());
    let again = Run::new(Kind::Boxes.learner(1), Physics::POLE_C, 10_000).random_starts(1);
    assert_eq!(run.state(), again.state());
    let args = [
        "experiment",
        "cartpole",
        "--runs",
        "6",
        "--games",
        "30",
        "--seed",
        "2",
        "--random-start",
        "--json",
    ];
    let one = crate::common::json_with_env(&args, ("RAYON_NUM_THREADS", "1"));
    let two = crate::common::json_with_env(&args, ("RAYON_NUM_THREADS", "2"));
    assert_eq!(one, two);
    assert_eq!(one["random_start"], true);
    let from_rest: Vec<&str> = args
        .iter()
        .copied()
        .filter(|a| *a != "--random-start")
        .collect();
    let rest = crate::common::json(&from_rest);
    assert_ne!(one["learners"], rest["learners"]);
    let e = crate::common::refused(&["replay", "cartpole", "--moves", "L R", "--random-start"]);
    assert!(
        e.contains("--random-start: a record of pushes is played from rest"),
        "{e}"
    );
    let e = crate::common::refused(&["train", "hexapawn", "--random-start"]);
    assert!(e.contains("--random-start is the cart-pole's"), "{e}");
}

/// The cart-pole is named in the registry beside the games: every command's help and the
/// unknown name's message list it, a near miss is answered with it, and the commands are
/// exactly split between those that take it (each runs) and those for board games (each
/// refuses it naming the others; `moves` no longer sends it to `solve`, which refuses it).
#[test]
fn the_cart_pole_is_named_with_the_games() {
    use matchbox::games::CARTPOLE;
    let film = tempfile::tempdir().unwrap();
    let gif = film.path().join("pole.gif");
    let takes: [(&str, Vec<&str>); 7] = [
        ("watch", vec![]),
        ("train", vec!["--games", "3"]),
        ("experiment", vec!["--runs", "2", "--games", "3"]),
        ("boxes", vec![]),
        ("replay", vec!["--moves", "R"]),
        ("playout", vec!["--games", "3"]),
        ("film", vec!["--games", "2", "--out", gif.to_str().unwrap()]),
    ];
    let mut named: Vec<&str> = takes.iter().map(|(c, _)| *c).collect();
    named.sort_unstable();
    let mut listed = CARTPOLE.commands.to_vec();
    listed.sort_unstable();
    assert_eq!(named, listed, "the commands that take the cart-pole");
    for (command, extra) in &takes {
        let args: Vec<&str> = [*command, "CART-POLE"]
            .into_iter()
            .chain(extra.clone())
            .collect();
        let out = crate::common::run(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("not a board game"), "{args:?}: {err}");
        // `watch` needs a terminal; the others run here.
        assert_eq!(out.status.success(), *command != "watch", "{args:?}: {err}");
    }
    let refuse = ["solve", "play", "count", "moves", "operate", "class"];
    for command in refuse {
        let e = crate::common::refused(&[command, "cartpole"]);
        assert_eq!(
            e.trim(),
            format!("error: {}", CARTPOLE.refusal()),
            "{command}"
        );
        for other in CARTPOLE.commands {
            assert!(e.contains(&format!("`{other}`")), "{command}: {e}");
        }
    }
    // Every command that takes a game is in one list or the other.
    for command in crate::common::COMMANDS {
        let known = named.contains(&command) || refuse.contains(&command);
        assert!(known || ["plot", "merge"].contains(&command), "{command}");
        // `moves` takes Arimaa only, and says so in its help.
        if !["plot", "merge", "moves"].contains(&command) {
            let help = crate::common::stdout(&[command, "--help"]);
            assert!(
                help.contains("cartpole (also cart-pole)"),
                "{command}: {help}"
            );
        }
    }
    let e = crate::common::refused(&["train", "cartpol"]);
    assert!(e.contains("did you mean `cartpole`?"), "{e}");
    assert!(e.contains("arimaa, cartpole)"), "{e}");
}
