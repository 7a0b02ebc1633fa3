//! Open Sage built into bgedit (crates/engine/src/sage/native): its answers are
//! Sage's own — `BgBotAnalyzer` called in Python on the same board, in the
//! same run, by `tests/fixtures/gen_sage_answers.py` (the fixed positions)
//! and `gen_sage_random.py` (1,000 random positions from a fixed seed at
//! Sage's 1-ply and at its 2-ply, money and match,
//! checker play and cube, and 8 more at its 3-ply): the same
//! best move, every equity and chance within 1e-5; and its seeded rollouts
//! Sage's own seeded rollouts (`gen_sage_rollouts.py`, the same settings),
//! with progress and a stop as the bridge's. Ignored without bgsage unless
//! BGEDIT_REQUIRE_SAGE=1.

use crate::common;
use bgedit_core::codec::{self, position_id};
use bgedit_core::domain::Position;
use bgedit_engine::internals::from_sage;
use bgedit_engine::{Analysis, Engine, EngineKind, Request, RolloutSettings};
use serde_json::Value;
use std::time::{Duration, Instant};

const TOLERANCE: f64 = 1e-5;

fn close(a: f64, b: &Value, what: &str) {
    let b = b.as_f64().unwrap();
    assert!(
        (a - b).abs() < TOLERANCE,
        "{what}: bgedit {a}, Sage {b} (off by {:e})",
        (a - b).abs()
    );
}

fn board_of(v: &Value) -> Vec<i32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_i64().unwrap() as i32)
        .collect()
}

fn lines(text: &str) -> Vec<Value> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Sage opened as `--engine sage` opens it: in-process here.
fn engine(python: &std::path::Path) -> Box<dyn Engine> {
    let mut e = EngineKind::Sage.open(python.to_path_buf(), Default::default());
    e.warm_up().unwrap();
    assert!(
        e.in_process(),
        "Sage is not in-process on this machine (version {:?})",
        e.version()
    );
    e
}

/// bgedit's best move (the Position ID after it) is Sage's best `want`.
/// Sage may lead with a one-die finish (the last checker off with one die
/// where the rules play both): bgedit names it as the legal move that bears
/// the last checker off (see crates/engine/src/sage/mod.rs's tests).
fn same_best(after: &str, want: &Value, mover: bgedit_core::domain::Player, what: &str) {
    let sage = board_of(&want["board"]);
    if sage[1..].iter().all(|&c| c <= 0) {
        let best = position_id::decode(after, mover.opponent()).unwrap();
        assert!(
            best.side(mover).iter().all(|&c| c == 0),
            "{what}: the best move"
        );
    } else {
        let b = from_sage(&sage, mover).unwrap();
        assert_eq!(
            after,
            position_id::encode(&b, mover.opponent()),
            "{what}: the best move"
        );
    }
}

/// bgedit's answer for `case` (a generator's line) against Sage's.
fn check(engine: &mut dyn Engine, n: usize, case: &Value) {
    let id = case["id"].as_str().unwrap();
    let plies = case["plies"].as_u64().unwrap() as u8;
    let position = codec::parse_any(id, &Position::default()).unwrap().position;
    let what = format!("{id} at Sage's {}-ply", plies + 1);
    let req = Request {
        id: n as u64 + 1,
        position: position.clone(),
        plies,
        moves: 0,
    };
    let got = engine
        .analyse(&req, Duration::from_secs(120))
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    match (case["kind"].as_str().unwrap(), &got) {
        ("moves", Analysis::Moves { moves, .. }) => {
            let mover = position.state.on_roll;
            let want = case["moves"].as_array().unwrap();
            let after = |w: &Value| {
                let b = from_sage(&board_of(&w["board"]), mover).unwrap();
                position_id::encode(&b, mover.opponent())
            };
            // Sage lists the board unchanged for a roll that cannot be
            // played; bgedit lists nothing.
            let forfeit =
                want.len() == 1 && board_of(&want[0]["board"]) == board_of(&case["board"]);
            if forfeit {
                assert!(moves.is_empty(), "{what}: {moves:?}");
                return;
            }
            assert!(!moves.is_empty(), "{what}: no moves");
            same_best(&moves[0].after, &want[0], mover, &what);
            for m in moves {
                let Some(w) = want.iter().find(|w| after(w) == m.after) else {
                    panic!("{what}: {} is not among Sage's moves", m.notation);
                };
                let what = format!("{what}, {}", m.notation);
                close(m.equity, &w["equity"], &what);
                for (p, q) in m.probs.iter().zip(w["probs"].as_array().unwrap()) {
                    close(*p, q, &what);
                }
            }
        }
        (
            "cube",
            Analysis::Cube {
                no_double,
                double_take,
                double_pass,
                action,
                probs,
                ..
            },
        ) => {
            close(*no_double, &case["no_double"], &what);
            close(*double_take, &case["double_take"], &what);
            close(*double_pass, &case["double_pass"], &what);
            for (p, q) in probs.iter().zip(case["probs"].as_array().unwrap()) {
                close(*p, q, &what);
            }
            let a = action.to_lowercase();
            let doubles = case["should_double"].as_bool().unwrap();
            assert_eq!(
                a.starts_with("double") || a.starts_with("redouble"),
                doubles,
                "{what}: {action}"
            );
        }
        (
            "take",
            Analysis::Take {
                take, pass, proper, ..
            },
        ) => {
            close(-*take, &case["double_take"], &what);
            close(-*pass, &case["double_pass"], &what);
            let takes = case["should_take"].as_bool().unwrap();
            assert_eq!(proper, if takes { "take" } else { "pass" }, "{what}");
        }
        // No cube action at this score: the chances alone.
        ("cube", Analysis::Eval { probs, .. }) => {
            for (p, q) in probs.iter().zip(case["probs"].as_array().unwrap()) {
                close(*p, q, &what);
            }
        }
        (kind, other) => panic!("{what}: wanted {kind}, got {other:?}"),
    }
}

#[test]
#[cfg_attr(not(bgedit_has_sage), ignore = "needs Open Sage (pip install bgsage)")]
fn in_process_answers_equal_sages_own_on_fixed_positions() {
    let python = common::sage_python();
    let text = common::live::generated_by(&python, "gen_sage_answers.py", "-");
    let answers: Vec<Value> = lines(&text)
        .into_iter()
        .filter(|v| v["case"] == "answer")
        .collect();
    assert_eq!(answers.len(), 16);
    let mut e = engine(&python);
    for (n, c) in answers.iter().enumerate() {
        let mut c = c.clone();
        // The generator's board is Sage's, from the roller's side.
        let id = c["id"].as_str().unwrap();
        let pos = codec::parse_any(id, &Position::default()).unwrap().position;
        let mover = pos.state.on_roll;
        c["board"] =
            serde_json::json!(bgedit_engine::internals::to_sage(&pos.board, mover).to_vec());
        check(e.as_mut(), n, &c);
    }
}

#[test]
#[cfg_attr(not(bgedit_has_sage), ignore = "needs Open Sage (pip install bgsage)")]
fn in_process_answers_equal_sages_own_on_random_positions() {
    let python = common::sage_python();
    let cases = lines(&common::live::generated_by(
        &python,
        "gen_sage_random.py",
        "-",
    ));
    assert_eq!(cases.len(), 2008);
    assert_eq!(cases.iter().filter(|c| c["plies"] == 0).count(), 1000);
    assert_eq!(cases.iter().filter(|c| c["plies"] == 1).count(), 1000);
    assert_eq!(cases.iter().filter(|c| c["plies"] == 2).count(), 8);
    // Every kind is there at 1- and 2-ply: money and match, checker,
    // cube, take.
    for plies in [0, 1] {
        for kind in ["moves", "cube", "take"] {
            for money in [true, false] {
                assert!(
                    cases
                        .iter()
                        .any(|c| c["plies"] == plies && c["kind"] == kind && c["money"] == money),
                    "no {kind} case at {plies}, money {money}"
                );
            }
        }
    }
    let mut e = engine(&python);
    for (n, c) in cases.iter().enumerate() {
        check(e.as_mut(), n, c);
    }
}

/// `analyse --engine sage` says which Sage answered, in JSON and in text;
/// BGEDIT_SAGE_BRIDGE=1 sends it through the Python bridge, which gives
/// the same numbers.
#[test]
#[cfg_attr(not(bgedit_has_sage), ignore = "needs Open Sage (pip install bgsage)")]
fn analyse_says_whether_sage_ran_in_process() {
    common::sage_python();
    let id = "4HPwATDgc/ABMA:cAkFAAAAAAAE";
    let args = [
        "analyse", "--engine", "sage", "--format", "json", "--moves", "3", id,
    ];
    let inside = common::run::bgedit(&args, "");
    assert!(
        inside.status.success(),
        "{}",
        common::run::text(&inside.stderr)
    );
    let inside: Value = serde_json::from_slice(&inside.stdout).unwrap();
    assert_eq!(inside["engine"], "sage");
    assert_eq!(inside["in_process"], true);
    let bridge = common::run::output_of(
        common::run::command()
            .args(args)
            .env("BGEDIT_SAGE_BRIDGE", "1"),
        "",
    );
    assert!(
        bridge.status.success(),
        "{}",
        common::run::text(&bridge.stderr)
    );
    let bridge: Value = serde_json::from_slice(&bridge.stdout).unwrap();
    assert_eq!(bridge["in_process"], false);
    let moves = |v: &Value| v["moves"].as_array().unwrap().clone();
    for (a, b) in moves(&inside).iter().zip(moves(&bridge).iter()) {
        assert_eq!(a["move"], b["move"]);
        close(a["equity"].as_f64().unwrap(), &b["equity"], "the bridge");
    }
    let text = common::run::bgedit(&["analyse", "--engine", "sage", id], "");
    let text = common::run::text(&text.stdout);
    assert!(text.contains("Sage (1-ply, in-process):"), "{text}");
}

/// `--sage-data DIR` loads Sage's weights from DIR without asking any
/// Python (here one that is no Python at all): the same answer; a DIR
/// without them is an error naming the file missing.
#[test]
#[cfg_attr(not(bgedit_has_sage), ignore = "needs Open Sage (pip install bgsage)")]
fn sage_data_dir_is_read_without_python() {
    let python = common::sage_python();
    let out = std::process::Command::new(&python)
        .args([
            "-c",
            "import bgsage, os; print(os.path.join(os.path.dirname(bgsage.__file__), '_assets'))",
        ])
        .output()
        .unwrap();
    let assets = String::from_utf8(out.stdout).unwrap().trim().to_owned();
    let id = "4HPwATDgc/ABMA:cAkFAAAAAAAE";
    let run = |data: &str| {
        common::run::output_of(
            common::run::command()
                .args([
                    "analyse",
                    "--engine",
                    "sage",
                    "--format",
                    "json",
                    "--moves",
                    "2",
                    "--sage-data",
                    data,
                    id,
                ])
                .env("BGEDIT_SAGE_PYTHON", "/bin/sh"),
            "",
        )
    };
    let out = run(&assets);
    assert!(out.status.success(), "{}", common::run::text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["in_process"], true);
    let usual = common::run::bgedit(
        &[
            "analyse", "--engine", "sage", "--format", "json", "--moves", "2", id,
        ],
        "",
    );
    let usual: Value = serde_json::from_slice(&usual.stdout).unwrap();
    assert_eq!(v["moves"], usual["moves"]);
    let empty = tempfile::tempdir().unwrap();
    let out = run(empty.path().to_str().unwrap());
    assert!(!out.status.success());
    let err = common::run::text(&out.stderr);
    assert!(
        err.contains("--sage-data") && err.contains("models/sl_s9_purerace.weights.best"),
        "{err}"
    );
}

/// A rollout's numbers against Sage's: bgedit's build of Sage's C++ is not
/// the wheel's (another compiler, no -ffast-math), so the network's float
/// sums differ in their last bits; seeded, the rollouts then agree far
/// below any printed digit (measured: within 3e-7).
const ROLLOUT_TOLERANCE: f64 = 1e-5;

fn near(a: f64, b: &Value, what: &str) {
    let b = b.as_f64().unwrap();
    assert!(
        (a - b).abs() < ROLLOUT_TOLERANCE,
        "{what}: bgedit {a}, Sage {b} (off by {:e})",
        (a - b).abs()
    );
}

/// bgedit's in-process rollout of `case` (a gen_sage_rollouts.py line)
/// against Sage's own with the same settings and seed.
fn check_rollout(engine: &mut dyn Engine, n: usize, case: &Value) {
    let id = case["id"].as_str().unwrap();
    let s = &case["settings"];
    let int = |k: &str| s[k].as_u64().unwrap();
    let settings = RolloutSettings {
        trials: int("trials") as u32,
        seed: int("seed") as u32,
        truncate: int("truncate") as u8,
        truncate_plies: s["truncate_plies"].as_u64().map(|p| p as u8),
        plies: int("plies") as u8,
        candidates: int("candidates") as usize,
        ..RolloutSettings::default()
    };
    engine.set_threads(int("threads") as u8);
    let position = codec::parse_any(id, &Position::default()).unwrap().position;
    let what = format!("{id} rolled out ({s})");
    let req = Request {
        id: n as u64 + 1,
        position: position.clone(),
        plies: case["plies"].as_u64().unwrap() as u8,
        moves: 0,
    };
    let got = engine
        .rollout(&req, &settings, Duration::from_secs(120), &mut |_, _| true)
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    match (case["kind"].as_str().unwrap(), &got) {
        ("moves", Analysis::Moves { moves, rollout, .. }) => {
            let mover = position.state.on_roll;
            let want = case["moves"].as_array().unwrap();
            let after = |w: &Value| {
                let b = from_sage(&board_of(&w["board"]), mover).unwrap();
                position_id::encode(&b, mover.opponent())
            };
            let r = rollout.as_ref().expect("a rollout's description");
            assert_eq!(
                (r.trials, r.of, r.stopped),
                (settings.trials, settings.trials, false)
            );
            let at_cut = settings.truncate_plies.unwrap_or(settings.plies);
            assert_eq!(r.truncate_plies, Some(at_cut), "{what}");
            assert!(!moves.is_empty() && moves.len() <= want.len(), "{what}");
            same_best(&moves[0].after, &want[0], mover, &what);
            for m in moves {
                let w = want.iter().find(|w| after(w) == m.after).unwrap();
                let what = format!("{what}, {}", m.notation);
                near(m.equity, &w["equity"], &what);
                for (p, q) in m.probs.iter().zip(w["probs"].as_array().unwrap()) {
                    near(*p, q, &what);
                }
                match (m.std_error, w["std_error"].as_f64()) {
                    (Some(a), Some(_)) => near(a, &w["std_error"], &what),
                    (None, None) => {}
                    (a, b) => panic!("{what}: standard error {a:?}, Sage's {b:?}"),
                }
                let rolled = w["level"] == "Rollout";
                assert_eq!(m.plies.is_none(), rolled, "{what}: {:?}", m.plies);
            }
        }
        (
            "cube",
            Analysis::Cube {
                no_double,
                double_take,
                double_pass,
                probs,
                rollout,
                ..
            },
        ) => {
            near(*no_double, &case["no_double"], &what);
            near(*double_take, &case["double_take"], &what);
            near(*double_pass, &case["double_pass"], &what);
            for (p, q) in probs.iter().zip(case["probs"].as_array().unwrap()) {
                near(*p, q, &what);
            }
            let r = rollout.as_ref().expect("a rollout's description");
            near(r.no_double_se.unwrap(), &case["no_double_se"], &what);
            near(r.double_take_se.unwrap(), &case["double_take_se"], &what);
        }
        ("take", Analysis::Take { take, pass, .. }) => {
            near(-*take, &case["double_take"], &what);
            near(-*pass, &case["double_pass"], &what);
        }
        (kind, other) => panic!("{what}: wanted {kind}, got {other:?}"),
    }
}

#[test]
#[cfg_attr(not(bgedit_has_sage), ignore = "needs Open Sage (pip install bgsage)")]
fn in_process_rollouts_equal_sages_own_with_the_same_seed() {
    let python = common::sage_python();
    let cases = lines(&common::live::generated_by(
        &python,
        "gen_sage_rollouts.py",
        "-",
    ));
    assert_eq!(cases.len(), 9);
    assert!(cases.iter().any(|c| c["settings"]["truncate_plies"] == 1));
    for kind in ["moves", "cube", "take"] {
        assert!(cases.iter().any(|c| c["kind"] == kind), "no {kind} case");
    }
    assert!(cases.iter().any(|c| c["settings"]["truncate"] == 0));
    assert!(cases.iter().any(|c| c["settings"]["plies"] == 1));
    let mut e = engine(&python);
    for (n, c) in cases.iter().enumerate() {
        check_rollout(e.as_mut(), n, c);
    }
    // In-process: the Python bridge was never started.
    assert_eq!(e.pid(), None, "the rollouts went to the bridge");
}

/// A long in-process rollout reports as it goes and stops when told: soon,
/// with its answer marked stopped; the engine then answers the next
/// request.
#[test]
#[cfg_attr(not(bgedit_has_sage), ignore = "needs Open Sage (pip install bgsage)")]
fn an_in_process_rollout_reports_progress_and_stops_when_told() {
    let python = common::sage_python();
    let mut e = engine(&python);
    let position = codec::parse_any("4HPwATDgc/ABMA:cAkFAAAAAAAE", &Position::default())
        .unwrap()
        .position;
    let req = Request {
        id: 1,
        position,
        plies: 0,
        moves: 0,
    };
    // Played out, 1296 trials of five moves: minutes.
    let settings = RolloutSettings {
        chunk_ms: 100,
        ..RolloutSettings::default()
    };
    let started = Instant::now();
    let mut ticks = 0;
    let mut asked_stop = None;
    let got = e
        .rollout(&req, &settings, Duration::from_secs(60), &mut |r, _| {
            ticks += 1;
            assert_eq!(r.of, 1296);
            if started.elapsed() < Duration::from_millis(700) {
                return true;
            }
            asked_stop.get_or_insert_with(Instant::now);
            false
        })
        .unwrap();
    let stopped_in = asked_stop.expect("no stop asked").elapsed();
    assert!(ticks >= 5, "{ticks} progress reports in 0.7 s");
    assert!(
        stopped_in < Duration::from_secs(2),
        "stopped in {stopped_in:?}"
    );
    let Analysis::Moves { moves, rollout, .. } = got else {
        panic!("{got:?}")
    };
    assert!(!moves.is_empty());
    let r = rollout.expect("a rollout's description");
    assert!(r.stopped && r.trials < r.of, "{r:?}");
    assert_eq!(e.pid(), None, "the rollout went to the bridge");
    // The engine is whole afterwards.
    let again = e.analyse(&req, Duration::from_secs(60)).unwrap();
    assert!(matches!(again, Analysis::Moves { ref moves, .. } if !moves.is_empty()));
}
