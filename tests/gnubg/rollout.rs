//! Rollouts with the real gnubg 1.07: bgedit's rollout (run in chunks by the
//! bridge, for live progress) against gnubg's own rollout run in one go on
//! its command line (tests/fixtures/gen_gnubg_rollouts.py), a rollout
//! stopped between chunks, the CLI's JSON, and the live panel in a
//! pseudo-terminal. Ignored without gnubg unless BGEDIT_REQUIRE_GNUBG=1.

use crate::common;

use bgedit_core::codec;
use bgedit_core::domain::Position;
use bgedit_engine::{Analysis, Engine, EngineKind, Process, Request, RolloutSettings};
use common::pty::{Options, Session};
use serde_json::Value;
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_secs(120);

fn position(id: &str) -> Position {
    codec::parse_any(id, &Position::default()).unwrap().position
}

fn settings(v: &Value) -> RolloutSettings {
    let n = |k: &str| v[k].as_u64().unwrap();
    let b = |k: &str| v[k].as_bool().unwrap();
    RolloutSettings {
        trials: n("trials") as u32,
        seed: n("seed") as u32,
        truncate: n("truncate") as u8,
        truncate_plies: v["truncate_plies"].as_u64().map(|p| p as u8),
        plies: n("plies") as u8,
        cubeful: b("cubeful"),
        variance_reduction: b("vr"),
        quasi_random: b("quasi"),
        candidates: n("candidates") as usize,
        // Short chunks: many of them, which must add up to gnubg's one go.
        chunk_ms: 100,
    }
}

/// gnubg prints 6 digits.
fn same(a: f64, b: &Value) -> bool {
    (a - b.as_f64().unwrap()).abs() < 2e-6
}

/// gnubg's own rollouts of the generator's cases, run in one go on its
/// command line on this machine, now (the last digits of a rollout move
/// with the CPU, as every gnubg number does).
fn gnubgs_rollouts() -> Vec<Value> {
    common::live::generated_lines("gen_gnubg_rollouts.py", "gnubg_rollouts.jsonl")
}

#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn rollouts_in_chunks_equal_gnubgs_own_rollout_in_one_go() {
    let g = common::gnubg();
    let mut engine = Process::new(EngineKind::Gnubg, g);
    let mut checked = 0;
    for (n, f) in gnubgs_rollouts().iter().enumerate() {
        let id = f["id"].as_str().unwrap();
        let s = settings(&f["settings"]);
        let req = Request {
            id: n as u64 + 1,
            position: position(id),
            // The depth gnubg's `hint` ranked the candidates at.
            plies: f["settings"]["rank"].as_u64().unwrap() as u8,
            moves: 0,
        };
        let mut seen = Vec::new();
        let answer = engine
            .rollout(&req, &s, LIMIT, &mut |r, _| {
                seen.push(r.trials);
                true
            })
            .unwrap_or_else(|e| panic!("{id}: {e}"));
        let r = answer.rollout().expect("a rollout").clone();
        assert_eq!(
            (r.trials, r.of, r.stopped),
            (s.trials, s.trials, false),
            "{id}"
        );
        assert_eq!(r.seed, s.seed);
        // The depth at the truncation point as asked, else gnubg's 2-ply.
        assert_eq!(
            r.truncate_plies,
            Some(s.truncate_plies.unwrap_or(2)),
            "{id}"
        );
        // The answer so far came more than once, trials rising.
        assert!(seen.windows(2).all(|w| w[0] < w[1]), "{id}: {seen:?}");
        // A cubeless rollout runs in one go (gnubg does not continue one
        // to the same numbers).
        if s.trials >= 36 && s.cubeful {
            assert!(seen.len() >= 2, "{id}: progress {seen:?}");
        }
        if let Some(want) = f["moves"].as_array() {
            let Analysis::Moves { moves, .. } = &answer else {
                panic!("{id}: {answer:?}")
            };
            assert_eq!(moves.len(), want.len(), "{id}");
            for (m, w) in moves.iter().zip(want) {
                assert_eq!(m.notation, w[0].as_str().unwrap(), "{id}");
                assert!(
                    same(m.equity, &w[1]),
                    "{id}: {} {} against {}",
                    m.notation,
                    m.equity,
                    w[1]
                );
                let se = m.std_error.expect("a standard error");
                assert!(
                    same(se, &w[2]),
                    "{id}: {} SE {se} against {}",
                    m.notation,
                    w[2]
                );
            }
        } else {
            let c = &f["cube"];
            let Analysis::Cube {
                no_double,
                double_take,
                double_pass,
                ..
            } = &answer
            else {
                panic!("{id}: {answer:?}")
            };
            assert!(
                same(*no_double, &c["no_double"]),
                "{id}: ND {no_double} against {}",
                c["no_double"]
            );
            assert!(
                same(*double_take, &c["double_take"]),
                "{id}: DT {double_take}"
            );
            assert!(same(*double_pass, &c["double_pass"]), "{id}");
            assert!(same(r.no_double_se.unwrap(), &c["no_double_se"]), "{id}");
            assert!(
                same(r.double_take_se.unwrap(), &c["double_take_se"]),
                "{id}"
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 9);
}

#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn a_rollout_asked_to_stop_ends_after_its_chunk_with_the_trials_done() {
    let g = common::gnubg();
    let mut engine = Process::new(EngineKind::Gnubg, g);
    let req = Request {
        id: 5,
        position: position("4HPwATDgc/ABMA:cAkOAAAAAAAA"),
        plies: 0,
        moves: 0,
    };
    let s = RolloutSettings {
        trials: 5000,
        candidates: 2,
        ..RolloutSettings::default()
    };
    let t = Instant::now();
    let mut calls = 0;
    let answer = engine
        .rollout(&req, &s, LIMIT, &mut |_, _| {
            calls += 1;
            calls < 3
        })
        .unwrap();
    let r = answer.rollout().unwrap();
    assert!(r.stopped && r.trials < 5000 && r.trials > 0, "{r:?}");
    assert!(t.elapsed() < Duration::from_secs(30), "{:?}", t.elapsed());
    let Analysis::Moves { moves, .. } = &answer else {
        panic!("{answer:?}")
    };
    assert!(moves.iter().all(|m| m.std_error.is_some()), "{moves:?}");
    // The same engine answers the next request at once.
    let next = Request { id: 6, ..req };
    assert!(matches!(
        engine.analyse(&next, LIMIT),
        Ok(Analysis::Moves { rollout: None, .. })
    ));
}

#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn the_cli_writes_the_rollout_and_standard_errors_in_json() {
    common::gnubg();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bgedit"))
        .args([
            "analyse",
            "--rollout",
            "--trials",
            "36",
            "--seed",
            "7",
            "--format",
            "json",
            "--moves",
            "2",
            "4HPwATDgc/ABMA:cAkAAAAAAAAA",
            "4HPwATDgc/ABMA:cAkOAAAAAAAA",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    let cube = &lines[0];
    assert_eq!(cube["rollout"]["trials"], 36);
    assert_eq!(cube["rollout"]["seed"], 7);
    // gnubg's own 36-trial rollout with seed 7 (the generator's second case).
    let want = &gnubgs_rollouts()[1];
    assert_eq!(want["id"], "4HPwATDgc/ABMA:cAkAAAAAAAAA");
    assert_eq!(want["settings"]["trials"], 36);
    let got = &cube["cube"];
    assert!(
        same(
            got["no_double"].as_f64().unwrap(),
            &want["cube"]["no_double"]
        ),
        "{got} against {want}"
    );
    assert!(
        same(
            got["std_error"]["no_double"].as_f64().unwrap(),
            &want["cube"]["no_double_se"]
        ),
        "{got} against {want}"
    );
    let moves = lines[1]["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2);
    assert!(moves.iter().all(|m| m["std_error"].as_f64().unwrap() > 0.0));
}

/// `--truncate-plies`: the depth at the truncation point, as gnubg's own
/// rollout with the same settings has it (the generator's case with
/// `truncate_plies` 0), said in the JSON and in the text's header.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn the_cli_evaluates_at_the_truncation_point_at_the_depth_asked() {
    common::gnubg();
    let want = gnubgs_rollouts()
        .into_iter()
        .find(|c| c["settings"]["truncate_plies"] == 0)
        .expect("the generator's case");
    let id = want["id"].as_str().unwrap();
    let args = |format: &'static str| {
        vec![
            "analyse",
            "--rollout",
            "--plies",
            "0",
            "--trials",
            "36",
            "--seed",
            "11",
            "--truncate",
            "5",
            "--truncate-plies",
            "0",
            "--moves",
            "2",
            "--format",
            format,
            id,
        ]
    };
    assert_eq!(want["settings"]["trials"], 36);
    assert_eq!(want["settings"]["seed"], 11);
    assert_eq!(want["settings"]["truncate"], 5);
    let out = common::run::bgedit(&args("json"), "");
    assert!(out.status.success(), "{}", common::run::text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["rollout"]["truncate_plies"], 0, "{v}");
    let moves = v["moves"].as_array().unwrap();
    let listed = want["moves"].as_array().unwrap();
    assert_eq!(moves.len(), listed.len());
    for (m, w) in moves.iter().zip(listed) {
        assert_eq!(m["move"], w[0], "{v}");
        assert!(
            same(m["equity"].as_f64().unwrap(), &w[1]),
            "{m} against {w}"
        );
    }
    let out = common::run::bgedit(&args("text"), "");
    let text = common::run::text(&out.stdout);
    assert!(
        text.contains("truncated at 5 plies and evaluated there at 0-ply"),
        "{text}"
    );
}

/// gnubg's own cube rollout of the position on one thread, in one
/// go on its command line, now: double/take and no double, as printed.
fn gnubgs_cube_rollout(id: &str, trials: u32) -> (f64, f64) {
    let text = common::live::gnubg_says(&format!(
        "set output mwc off\nset output digits 6\nset player 0 human\nset player 1 human\n\
         set rollout rng mersenne\nset rollout initial off\nset rollout later enable off\n\
         set rollout limit enable off\nset rollout jsd stop off\nset rollout trials {trials}\n\
         set rollout seed 1\nset rollout truncation enable on\nset rollout truncation plies 10\n\
         set rollout truncation chequerplay plies 0\nset rollout truncation cubedecision plies 0\n\
         set rollout chequerplay plies 0\nset rollout cubedecision plies 0\n\
         new game\nset gnubgid {id}\nhint\nanalyse rollout cube\nhint\n"
    ));
    let tail = &text[text.rfind("Rollout done").unwrap_or(0)..];
    // `2. Double, take   +1.772328  (+0.676229)`, in the last `hint`.
    let eq = |name: &str| {
        tail.lines()
            .rev()
            .find_map(|l| {
                l.split_once(&format!(". {name} "))?
                    .1
                    .split_whitespace()
                    .next()?
                    .parse()
                    .ok()
            })
            .unwrap_or_else(|| panic!("{name}: {tail}"))
    };
    (eq("Double, take"), eq("No double"))
}

/// A rollout's numbers are the same every run for the same seed: gnubg
/// rolls out on one thread unless told otherwise (its threaded cubeful
/// rollouts vary in their last digits from run to run), equal to gnubg's
/// own one-thread rollout asked now; on more threads the answer says
/// plainly that it is not reproducible.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn a_rollout_is_reproducible_and_says_when_it_is_not() {
    common::gnubg();
    let id = "KLUWVUCpfSAAAA:cAnAAFAAGAAE";
    let run = |threads: &str, format: &str| {
        let out = common::run::bgedit(
            &[
                "analyse",
                "--rollout",
                "--trials",
                "36",
                "--seed",
                "1",
                "--truncate",
                "10",
                "--truncate-plies",
                "0",
                "--threads",
                threads,
                "--format",
                format,
                id,
            ],
            "",
        );
        assert!(out.status.success(), "{}", common::run::text(&out.stderr));
        common::run::text(&out.stdout)
    };
    let json = |text: String| serde_json::from_str::<Value>(&text).unwrap();
    let (first, second) = (json(run("0", "json")), json(run("0", "json")));
    assert_eq!(first["rollout"]["threads"], 1, "{first}");
    assert_eq!(first["rollout"]["reproducible"], true, "{first}");
    // The same seed, the same numbers, to gnubg's printed digits: the
    // bridge's chunks end where the rate says, and gnubg continuing a
    // rollout from another chunk's end may move the 6th digit by one.
    for key in ["no_double", "double_take"] {
        let a = first["cube"][key].as_f64().unwrap();
        assert!(
            same(a, &second["cube"][key]),
            "{key}: {first} against {second}"
        );
    }
    let (dt, nd) = gnubgs_cube_rollout(id, 36);
    assert!(
        same(dt, &first["cube"]["double_take"]),
        "{dt} against {first}"
    );
    assert!(
        same(nd, &first["cube"]["no_double"]),
        "{nd} against {first}"
    );
    let threaded = json(run("2", "json"));
    assert_eq!(threaded["rollout"]["threads"], 2, "{threaded}");
    assert_eq!(threaded["rollout"]["reproducible"], false, "{threaded}");
    let text = run("2", "text");
    assert!(text.contains("on 2 threads: not reproducible"), "{text}");
    assert!(!run("1", "text").contains("reproducible"));
}

/// The case as a user types it: `--moves 3` with no `--plies`
/// rolls out the three moves gnubg's own `hint` lists first (at its default
/// 2-ply), and gives gnubg's one-go rollout of them to its printed digits.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn the_cli_rolls_out_gnubgs_own_top_three_as_gnubg_does() {
    common::gnubg();
    let want = gnubgs_rollouts()
        .into_iter()
        .find(|f| f["id"] == "ovDJiELE0sxUBA:sAHXAkAAqAAE")
        .expect("the generator's 22-point case");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bgedit"))
        .args([
            "analyse",
            "--rollout",
            "--moves",
            "3",
            "--trials",
            "144",
            "--seed",
            "1",
            "--truncate",
            "10",
            "--format",
            "json",
            "ovDJiELE0sxUBA:sAHXAkAAqAAE",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    let moves = got["moves"].as_array().unwrap();
    let want = want["moves"].as_array().unwrap();
    assert_eq!(moves.len(), want.len(), "{got}");
    for (m, w) in moves.iter().zip(want) {
        assert_eq!(m["move"], w[0], "{got}");
        assert!(
            same(m["equity"].as_f64().unwrap(), &w[1]),
            "{m} against {w}"
        );
    }
}

const PTY: Options = Options {
    timeout: Duration::from_secs(60),
    poll: Duration::from_millis(1),
    ..Options::DEFAULT
};

/// The number of trials the panel's header shows, if any.
fn trials_shown(screen: &str) -> Option<u32> {
    let at = screen.find("gnubg rollout ")? + "gnubg rollout ".len();
    screen[at..].split('/').next()?.trim().parse().ok()
}

#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn the_panel_shows_a_rollout_converging_and_esc_stops_it() {
    common::gnubg();
    let dir = common::pty::state_dir("bgedit-e2e", "rollout-live");
    // Money, 43 to play against the opening; 0-ply candidates.
    let mut s = Session::start(
        &PTY,
        &["--new", "4HPwATDgc/ABMA:cAkOAAAAAAAA"],
        &dir,
        160,
        50,
    );
    s.wait_for("gnubg 0-ply");
    s.send("O");
    let screen = s.wait_for(" left · Esc stops");
    assert!(screen.contains("SE"), "{screen}");
    let first = trials_shown(&screen).expect("trials shown");
    // Trials advance.
    let t = Instant::now();
    let mut later = first;
    while later <= first && t.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(50));
        later = trials_shown(&s.contents()).unwrap_or(first);
    }
    assert!(later > first, "{first} → {later}");
    // A key while the rollout runs is answered within a frame.
    let t = Instant::now();
    s.send("?");
    s.wait_for("key closes");
    let key = t.elapsed();
    s.send("?");
    s.wait_gone("key closes");
    eprintln!("key → frame during a rollout: {key:?}");
    assert!(key < Duration::from_secs(1), "{key:?}");
    // Esc stops it with the trials done.
    s.send("\x1b");
    let screen = s.wait_for("Rollout stopped after");
    assert!(screen.contains("stopped"), "{screen}");
    let stopped = trials_shown(&screen).unwrap();
    std::thread::sleep(Duration::from_millis(600));
    assert_eq!(
        trials_shown(&s.contents()),
        Some(stopped),
        "no trials after the stop"
    );
    // Away and back: the rollout is shown again at once.
    s.prompt("d", "21");
    s.wait_for("1. 24/23 13/11");
    s.prompt("d", "43");
    let screen = s.wait_for("gnubg rollout");
    assert_eq!(trials_shown(&screen), Some(stopped), "{screen}");
    s.send("q");
    s.wait_exit();
}
