//! Open Sage, the second engine: bgedit's answers against Sage's own
//! (`BgBotAnalyzer` called in Python on the same board by
//! `tests/fixtures/gen_sage_answers.py`, run in the same test run), the
//! board conversion both ways (against the generator's committed boards), and
//! `analyse --engine` end to end. The engine tests are ignored without
//! bgsage unless BGEDIT_REQUIRE_SAGE=1.

use crate::common;
use bgedit_core::codec::{self, position_id};
use bgedit_core::domain::{Player, Position};
use bgedit_engine::internals::{from_sage, to_sage};
use bgedit_engine::{Analysis, Engine, EngineKind, Process, Request};
use proptest::prelude::*;
use serde_json::Value;
use std::time::Duration;

/// The committed output of gen_sage_answers.py: only its boards are read
/// (the conversion, which runs without Sage and has no floating point).
const FIXTURES: &str = include_str!("../fixtures/sage_answers.jsonl");

fn cases(kind: &str) -> Vec<Value> {
    of_kind(FIXTURES, kind)
}

fn of_kind(text: &str, kind: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["case"] == kind)
        .collect()
}

/// Sage's own answers for the fixed positions, as gen_sage_answers.py
/// gives them with `python`'s bgsage on this machine, in this run: Sage's
/// last digits differ from CPU to CPU (-0.3146355 on one, -0.3146338 on
/// another for the opening), so they are never read from the committed
/// file.
fn sage_answers(python: &std::path::Path) -> Vec<Value> {
    let text = common::live::generated_by(python, "gen_sage_answers.py", "-");
    let answers = of_kind(&text, "answer");
    // The cases themselves are the generator's, the same on every machine.
    let names = |v: &[Value]| -> Vec<String> {
        v.iter()
            .map(|c| format!("{} {} {}", c["name"], c["id"], c["plies"]))
            .collect()
    };
    assert_eq!(names(&answers), names(&cases("answer")));
    answers
}

fn board_of(v: &Value) -> Vec<i32> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_i64().unwrap() as i32)
        .collect()
}

fn position(id: &str) -> Position {
    codec::parse_any(id, &Position::default()).unwrap().position
}

#[test]
fn the_board_conversion_agrees_with_bgsages_own_decoder() {
    let boards = cases("board");
    assert_eq!(boards.len(), 300);
    for c in boards {
        let id = c["id"].as_str().unwrap();
        let sage = board_of(&c["board"]);
        // bgsage decodes the key from the side of the player on roll (the
        // second half of the key).
        let board = position_id::decode(id, Player::X).unwrap();
        assert_eq!(to_sage(&board, Player::X).to_vec(), sage, "{id}");
        assert_eq!(from_sage(&sage, Player::X).unwrap(), board, "{id}");
    }
}

proptest! {
    #[test]
    fn the_board_conversion_goes_both_ways(board in common::strategies::board(), o in any::<bool>()) {
        let mover = if o { Player::O } else { Player::X };
        let sage = to_sage(&board, mover);
        prop_assert_eq!(from_sage(&sage, mover).unwrap(), board.clone());
        // The other side's view is Sage's flip_board.
        let other = to_sage(&board, mover.opponent());
        prop_assert_eq!(other[0], sage[25]);
        prop_assert_eq!(other[25], sage[0]);
        for i in 1..=24 {
            prop_assert_eq!(other[i], -sage[25 - i]);
        }
    }
}

/// bgedit's Sage answer against Sage's own, both computed by the same
/// bgsage on the same CPU from the same board in this run: the same
/// floating point, so equal but for the single-to-double conversions on
/// the two roads (far below 1e-6). Across CPUs they move by about 2e-6,
/// which is why the other side is never a committed number.
fn close(a: f64, b: &Value, what: &str) {
    let b = b.as_f64().unwrap();
    assert!((a - b).abs() < 1e-6, "{what}: bgedit {a}, Sage {b}");
}

#[test]
#[cfg_attr(not(bgedit_has_sage), ignore = "needs Open Sage (pip install bgsage)")]
fn answers_equal_sages_own_on_fixed_positions() {
    let python = common::sage_python();
    let answers = sage_answers(&python);
    assert_eq!(answers.len(), 16);
    let mut engine = Process::new(EngineKind::Sage, python);
    for (n, c) in answers.iter().enumerate() {
        let id = c["id"].as_str().unwrap();
        let name = c["name"].as_str().unwrap();
        let plies = c["plies"].as_u64().unwrap() as u8;
        let pos = position(id);
        let req = Request {
            id: n as u64 + 1,
            position: pos.clone(),
            plies,
            moves: 0,
        };
        let got = engine
            .analyse(&req, Duration::from_secs(120))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let what = format!("{name} at {plies}");
        match (c["kind"].as_str().unwrap(), &got) {
            ("moves", Analysis::Moves { moves, .. }) => {
                let want = c["moves"].as_array().unwrap();
                assert_eq!(moves.len(), want.len(), "{what}");
                let mover = pos.state.on_roll;
                for (m, w) in moves.iter().zip(want) {
                    let after = from_sage(&board_of(&w["board"]), mover).unwrap();
                    assert_eq!(
                        m.after,
                        position_id::encode(&after, mover.opponent()),
                        "{what}: {}",
                        m.notation
                    );
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
                    ..
                },
            ) => {
                close(*no_double, &c["no_double"], &what);
                close(*double_take, &c["double_take"], &what);
                close(*double_pass, &c["double_pass"], &what);
                let doubles = c["should_double"].as_bool().unwrap();
                let takes = c["should_take"].as_bool().unwrap();
                let a = action.to_lowercase();
                assert_eq!(
                    a.starts_with("double") || a.starts_with("redouble"),
                    doubles,
                    "{what}: {action}"
                );
                assert_eq!(a.ends_with("pass"), !takes, "{what}: {action}");
            }
            (
                "take",
                Analysis::Take {
                    take, pass, proper, ..
                },
            ) => {
                // Sage speaks for the doubler; the answer for the taker.
                close(-*take, &c["double_take"], &what);
                close(-*pass, &c["double_pass"], &what);
                let takes = c["should_take"].as_bool().unwrap();
                assert_eq!(proper, if takes { "take" } else { "pass" }, "{what}");
            }
            (kind, other) => panic!("{what}: wanted {kind}, got {other:?}"),
        }
    }
    assert!(engine.version.as_deref().is_some_and(|v| !v.is_empty()));
}

#[test]
#[cfg_attr(
    not(all(bgedit_has_gnubg, bgedit_has_sage)),
    ignore = "needs gnubg and Open Sage"
)]
fn analyse_engine_both_marks_the_disagreement() {
    common::gnubg();
    common::sage_python();
    // The opening 21: gnubg's 0-ply splits (24/23 13/11), Sage's 1-ply
    // slots (13/11 6/5).
    let id = "4HPwATDgc/ABMA:cAkFAAAAAAAE";
    let out = common::run::bgedit(
        &[
            "analyse", "--engine", "both", "--format", "json", "--moves", "0", id,
        ],
        "",
    );
    assert!(out.status.success(), "{}", common::run::text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["gnubg"]["engine"], "gnubg");
    assert_eq!(v["sage"]["engine"], "sage");
    assert_eq!(v["gnubg"]["level"], "0-ply");
    assert_eq!(v["sage"]["level"], "1-ply");
    let d = &v["disagree"];
    assert_eq!(d["on"], "move");
    assert_eq!(d["gnubg"], v["gnubg"]["moves"][0]["move"]);
    assert_eq!(d["sage"], v["sage"]["moves"][0]["move"]);
    assert_ne!(d["gnubg"], d["sage"]);
    // Each engine prices the other's pick from its own full list.
    let gap = d["gnubg_gap"].as_f64().unwrap();
    let sage_pick = v["gnubg"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == d["sage"])
        .unwrap();
    let best = v["gnubg"]["moves"][0]["equity"].as_f64().unwrap();
    assert!((gap - (best - sage_pick["equity"].as_f64().unwrap())).abs() < 1e-12);
    // The text form says it in words.
    let out = common::run::bgedit(&["analyse", "--engine", "both", id], "");
    let text = common::run::text(&out.stdout);
    assert!(
        text.contains("gnubg (0-ply):") && text.contains("Sage (1-ply, in-process):"),
        "{text}"
    );
    assert!(text.contains("engines disagree on the best move"), "{text}");
}

#[test]
fn without_bgsage_the_error_says_how_to_install_it() {
    // A Python without bgsage: the system one, in an empty environment.
    let out = common::run::output_of(
        common::run::command()
            .args(["analyse", "--engine", "sage", "4HPwATDgc/ABMA:cAkAAAAAAAAA"])
            .env("BGEDIT_SAGE_PYTHON", "/bin/sh"),
        "",
    );
    assert!(!out.status.success());
    let err = common::run::text(&out.stderr);
    assert!(err.contains("argument 1:"), "{err}");
    let out = common::run::output_of(
        common::run::command()
            .args(["analyse", "--engine", "sage", "4HPwATDgc/ABMA:cAkAAAAAAAAA"])
            .env("BGEDIT_SAGE_PYTHON", "/nonexistent/python3"),
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = common::run::text(&out.stderr);
    assert!(
        err.contains("BGEDIT_SAGE_PYTHON=/nonexistent/python3"),
        "{err}"
    );
}

#[test]
#[cfg_attr(not(bgedit_has_sage), ignore = "needs Open Sage (pip install bgsage)")]
fn a_sage_rollout_stops_at_once_when_asked() {
    let python = common::sage_python();
    let mut engine = Process::new(EngineKind::Sage, python);
    let req = Request {
        id: 7,
        position: position("4HPwATDgc/ABMA:cIkFAAAAAAAA"),
        plies: 0,
        moves: 3,
    };
    // Truncated trials, as Sage's own truncated levels play them: Sage
    // stops between trials, and a full game in flight takes longer to end
    // (0.6 s measured) than a truncated one.
    let settings = bgedit_engine::RolloutSettings {
        trials: 100_000,
        truncate: 7,
        candidates: 3,
        chunk_ms: 50,
        ..Default::default()
    };
    let started = std::time::Instant::now();
    let mut asked: Option<std::time::Instant> = None;
    let answer = engine
        .rollout(&req, &settings, Duration::from_secs(60), &mut |_, _| {
            // Stop half a second in, as a player presses Esc.
            if started.elapsed() > Duration::from_millis(500) {
                asked.get_or_insert_with(std::time::Instant::now);
                return false;
            }
            true
        })
        .unwrap();
    let stopped_in = asked.expect("progress came").elapsed();
    eprintln!("a Sage rollout stopped {stopped_in:?} after it was asked");
    let r = answer.rollout().expect("a rollout");
    assert!(r.stopped && r.trials < r.of, "{r:?}");
    // About 100 ms alone; 2 s leaves room for a CI machine's two cores
    // busy with the rest of the suite, and is still a hundredth of the
    // rollout asked for (100,000 trials).
    assert!(
        stopped_in < Duration::from_secs(2),
        "stopped {stopped_in:?} after asked"
    );
    assert!(started.elapsed() < Duration::from_secs(60));
    // The same process answers the next request: no restart.
    let pid = engine.pid();
    let again = engine
        .analyse(&Request { id: 8, ..req }, Duration::from_secs(30))
        .unwrap();
    assert!(matches!(again, Analysis::Moves { .. }));
    assert_eq!(engine.pid(), pid);
}

/// The editor on `id` at 200×50 with gnubg and Sage found, its panel
/// turned to Sage (`z`) (the tests that ask are marked as needing both).
fn editor_on_sage(name: &str, id: &str, poll: Duration) -> common::pty::Session {
    use common::pty::{Options, Session};
    let python = common::sage_python();
    common::gnubg();
    let opts = Options {
        timeout: Duration::from_secs(60),
        poll,
        ..Options::DEFAULT
    };
    let dir = common::pty::state_dir("bgedit-sage", name);
    let python = python.to_string_lossy().into_owned();
    let mut s = Session::start_with(
        &opts,
        &["--new", id],
        &dir,
        200,
        50,
        &[("BGEDIT_SAGE_PYTHON", python.as_str())],
    );
    s.wait_for("Analysis · gnubg");
    s.keys("z");
    s.wait_for("Analysis · Sage 1-ply");
    s
}

#[test]
#[cfg_attr(
    not(all(bgedit_has_gnubg, bgedit_has_sage)),
    ignore = "needs gnubg and Open Sage"
)]
fn the_editor_shows_both_engines_side_by_side_and_their_disagreement() {
    // A money cube decision the two engines see differently.
    let poll = common::pty::Options::DEFAULT.poll;
    let mut s = editor_on_sage("both", "DCD4PgMgePhwSA:MAEAADAAAAAA", poll);
    let screen = s.wait_for("bgsage 2.0.20260907");
    assert!(screen.contains("Proper cube action: "), "{screen}");
    s.keys("z");
    // gnubg says ND and Sage D/T at 0-ply; at the deeper depths that come
    // when the keys pause, the other way round: disagreeing either way.
    let screen = s.wait_for("engines disagree on the cube action: gnubg ");
    assert!(screen.contains("Analysis · gnubg"), "{screen}");
    assert!(screen.contains("Analysis · Sage"), "{screen}");
    assert!(screen.contains("(Sage's pick costs"), "{screen}");
    // Back to gnubg alone.
    s.keys("z");
    s.wait_gone("Analysis · Sage");
    s.keys("q");
    s.wait_exit();
}

#[test]
#[cfg_attr(not(bgedit_has_sage), ignore = "needs Open Sage (pip install bgsage)")]
fn a_roll_that_cannot_be_played_lists_no_move_as_gnubg_does() {
    let python = common::sage_python();
    // X on the bar with 55 against a closed 5-point: Sage lists the board
    // unchanged, gnubg nothing.
    let mut engine = Process::new(EngineKind::Sage, python);
    let req = Request {
        id: 1,
        position: position("8DbkQSDgc+EBUA:QYl2AAAAAAAE"),
        plies: 0,
        moves: 0,
    };
    match engine.analyse(&req, Duration::from_secs(30)).unwrap() {
        Analysis::Moves { moves, .. } => assert!(moves.is_empty(), "{moves:?}"),
        other => panic!("{other:?}"),
    }
}

/// Issue 29's positions that Sage's answers were refused for ("a move
/// bgedit finds illegal", and Sage restarted): the last checker borne off
/// with one die where both can be played. Sage's answer is taken, as the
/// one legal move that ends the game (gnubg's), with no restart.
#[test]
#[cfg_attr(not(bgedit_has_sage), ignore = "needs Open Sage (pip install bgsage)")]
fn the_last_checker_off_with_one_die_is_answered_as_gnubgs_one_move() {
    let python = common::sage_python();
    let mut engine = Process::new(EngineKind::Sage, python);
    for (n, (id, gnubgs)) in [
        ("gTZlCGoIAAAAAA:cAnPAsAAYAAE", "4/1*/off"),
        ("ETcqg0gEAAAAAA:GYHGAdAAIAAE", "3/2*/off"),
    ]
    .into_iter()
    .enumerate()
    {
        let req = Request {
            id: n as u64 + 1,
            position: position(id),
            plies: 0,
            moves: 0,
        };
        match engine.analyse(&req, Duration::from_secs(30)) {
            Ok(Analysis::Moves { moves, .. }) => {
                let names: Vec<&str> = moves.iter().map(|m| m.notation.as_str()).collect();
                assert_eq!(names, [gnubgs], "{id}");
            }
            other => panic!("{id}: {other:?}"),
        }
    }
    assert_eq!(engine.restarts, 0);
}

#[test]
#[cfg_attr(not(bgedit_has_sage), ignore = "needs Open Sage (pip install bgsage)")]
fn a_match_is_analysed_with_sage_and_each_line_says_so() {
    common::sage_python();
    let out = common::run::bgedit(
        &[
            "analyse",
            "--engine",
            "sage",
            "--format",
            "json",
            "--file",
            "tests/fixtures/mat/money_latin1.mat",
        ],
        "",
    );
    let text = common::run::text(&out.stdout);
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines.len() > 10, "{text}");
    for l in &lines[..lines.len() - 1] {
        assert_eq!(l["engine"], "sage", "{l}");
        assert_eq!(l["level"], "1-ply", "{l}");
        assert!(l["error"].as_f64().unwrap() >= 0.0, "{l}");
    }
    assert!(
        lines.last().unwrap()["summary"]["O"]["checker_decisions"]
            .as_u64()
            .unwrap()
            > 0
    );
}

#[test]
#[cfg_attr(not(bgedit_has_sage), ignore = "needs Open Sage (pip install bgsage)")]
fn a_quiz_answer_is_graded_by_sage_with_sages_own_numbers() {
    let python = common::sage_python();
    let case = sage_answers(&python)
        .into_iter()
        .find(|c| c["name"] == "opening 31, money" && c["plies"] == 0)
        .unwrap();
    let id = case["id"].as_str().unwrap();
    // The second move of Sage's list, named by bgedit.
    let out = common::run::bgedit(
        &[
            "analyse", "--engine", "sage", "--format", "json", "--moves", "2", id,
        ],
        "",
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let second = v["moves"][1]["move"].as_str().unwrap().to_owned();
    let out = common::run::bgedit(
        &[
            "quiz", "--answer", &second, "--engine", "sage", "--format", "json", id,
        ],
        "",
    );
    assert!(out.status.success(), "{}", common::run::text(&out.stderr));
    let g: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (g["engine"].as_str(), g["level"].as_str()),
        (Some("sage"), Some("1-ply"))
    );
    assert_eq!(g["rank"], 2);
    let moves = case["moves"].as_array().unwrap();
    let want = moves[0]["equity"].as_f64().unwrap() - moves[1]["equity"].as_f64().unwrap();
    let got = g["error"].as_f64().unwrap();
    assert!(
        (got - want).abs() < 0.0006,
        "Sage's error {want}, graded {got}"
    );
}

#[test]
#[cfg_attr(
    not(all(bgedit_has_gnubg, bgedit_has_sage)),
    ignore = "needs gnubg and Open Sage"
)]
fn a_sage_rollout_in_the_editor_stops_on_esc() {
    let poll = Duration::from_millis(2);
    let mut s = editor_on_sage("rollout", "4HPwATDgc/ABMA:cIkFAAAAAAAA", poll);
    s.keys("O");
    s.wait_for("Sage rollout");
    std::thread::sleep(Duration::from_millis(1500));
    let pressed = std::time::Instant::now();
    s.keys("\x1b");
    s.wait_for("Rollout stopped after");
    let took = pressed.elapsed();
    // The line is read whole: a look may fall between the writes of one
    // frame ("Rollout stopped after 36 o" once, on a busy machine).
    let screen = whole_stop_line(&s);
    eprintln!("Esc to the stopped rollout on screen: {took:?}");
    assert!(screen.contains("Sage rollout"), "{screen}");
    // Stopped by the key, not run to its end: fewer trials than asked.
    let (done, of) = stopped_after(&screen);
    assert!(done < of, "{screen}");
    // 100 ms alone, 3 s on a machine loaded tenfold: a rollout that ran on
    // to its next chunk's end or its last trial takes minutes.
    assert!(took < Duration::from_secs(10), "{took:?}");
    s.keys("q");
    s.wait_exit();
}

#[test]
#[cfg_attr(not(bgedit_has_sage), ignore = "needs Open Sage (pip install bgsage)")]
fn the_editors_quiz_is_graded_by_sage_when_asked() {
    use common::pty::{Options, Session};
    let python = common::sage_python();
    let dir = tempfile::tempdir().unwrap();
    let library = dir.path().join("library.sqlite");
    // The opening 21: Sage's 1-ply best is the slot, 13/11 6/5.
    let out = common::run::command()
        .args(["library", "--library", library.to_str().unwrap()])
        .args(["add", "--tag", "opening", "4HPwATDgc/ABMA:cAkFAAAAAAAE"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let opts = Options {
        timeout: Duration::from_secs(60),
        ..Options::DEFAULT
    };
    let python = python.to_string_lossy().into_owned();
    let mut s = Session::start_with(
        &opts,
        &[
            "quiz",
            "--engine",
            "sage",
            "--library",
            library.to_str().unwrap(),
            "tag:opening",
        ],
        dir.path(),
        160,
        40,
        &[("BGEDIT_SAGE_PYTHON", python.as_str())],
    );
    s.wait_for("X to play 21: your move?");
    s.send("m");
    s.wait_for("Your move");
    s.send("24/23 13/11");
    s.wait_for("24/23 13/11█");
    s.send("\r");
    let screen = s.wait_for("Sage: 13/11 6/5");
    assert!(screen.contains("your 24/23 13/11"), "{screen}");
    // The list behind the grade is Sage's, in its own count.
    assert!(screen.contains("Sage 1-ply:"), "{screen}");
    s.send("\x1b");
    s.wait_for("Library closed");
    s.send("q");
    s.wait_exit();
}

/// Sage gives normalised equities and no MWC: `analyse --engine sage
/// --file` turns each decision's error into MWC through the match equity
/// table as gnubg's statistics do, so a decision's cost over its error is
/// gnubg's own at the same score and cube (it depends on nothing else), and
/// the summary's MWC totals are real percentages.
#[test]
#[cfg_attr(
    not(all(bgedit_has_gnubg, bgedit_has_sage)),
    ignore = "needs gnubg and Open Sage"
)]
fn sages_match_costs_are_mwc_as_gnubgs() {
    common::gnubg();
    common::sage_python();
    let path = format!(
        "{}/tests/fixtures/analysis/m5_noisy.mat",
        env!("CARGO_MANIFEST_DIR")
    );
    let run = |engine: &str| -> Vec<Value> {
        let out = common::run::bgedit(
            &[
                "analyse", "--engine", engine, "--plies", "0", "--format", "json", "--file", &path,
            ],
            "",
        );
        common::run::text(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .filter(|v: &Value| v.get("summary").is_none())
            .collect()
    };
    let (sage, gnubg) = (run("sage"), run("gnubg"));
    let key = |v: &Value| (v["game"].clone(), v["move"].clone(), v["kind"].clone());
    let mut compared = 0;
    for s in sage.iter().filter(|s| s["error"].as_f64().unwrap() > 1e-3) {
        let ratio = s["cost"].as_f64().unwrap() / s["error"].as_f64().unwrap();
        assert!(ratio > 0.0 && ratio <= 0.5, "{s}");
        let Some(g) = gnubg
            .iter()
            .find(|g| key(g) == key(s) && g["error"].as_f64().unwrap() > 1e-3)
        else {
            continue;
        };
        let theirs = g["cost"].as_f64().unwrap() / g["error"].as_f64().unwrap();
        assert!((ratio - theirs).abs() < 1e-3, "{s} against gnubg's {g}");
        compared += 1;
    }
    assert!(compared > 10, "only {compared} decisions compared");
}

/// A position where gnubg at 2-ply leaves every move at 0-ply (one move
/// leads beyond its move filter): gnubg's own `hint` on this machine says
/// `Cubeful 0-ply` on every row, and `analyse --engine both` heads gnubg's
/// list with that depth, not with the 2-ply asked.
#[test]
#[cfg_attr(
    not(all(bgedit_has_gnubg, bgedit_has_sage)),
    ignore = "needs gnubg and Open Sage"
)]
fn the_depth_header_says_what_gnubgs_rows_are() {
    common::gnubg();
    common::sage_python();
    let id = "g8OzAQYczxOwAA:cIkOAAAAAAAA";
    let hint = common::live::hint(id, 2, false);
    let depths: Vec<&str> = hint
        .lines()
        .filter_map(|l| l.split_once(". Cubeful ").map(|(_, r)| &r[..5]))
        .collect();
    // Every row of gnubg's list, not only the three asked for below.
    assert!(depths.len() >= 3, "{hint}");
    assert!(depths.iter().all(|d| *d == "0-ply"), "{hint}");
    let out = common::run::bgedit(
        &[
            "analyse", "--engine", "both", "--plies", "2", "--moves", "3", id,
        ],
        "",
    );
    let text = common::run::text(&out.stdout);
    assert!(
        text.contains(
            "gnubg (0-ply, 2-ply asked: one move leads beyond gnubg's move filter, so none went deeper):"
        ),
        "{text}"
    );
    assert_eq!(text.matches("Cubeful 0-ply").count(), 3, "{text}");
}

/// The screen once its "Rollout stopped after N of M trials" line is
/// drawn to its end.
fn whole_stop_line(s: &common::pty::Session) -> String {
    let start = std::time::Instant::now();
    loop {
        let screen = s.contents();
        let drawn = screen
            .split("Rollout stopped after ")
            .nth(1)
            .is_some_and(|rest| rest.lines().next().unwrap_or("").contains(" trials"));
        if drawn || start.elapsed() > Duration::from_secs(10) {
            return screen;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The trials done and asked in "Rollout stopped after N of M trials".
fn stopped_after(screen: &str) -> (u32, u32) {
    let rest = screen
        .split("Rollout stopped after ")
        .nth(1)
        .expect("the stop's line");
    let words: Vec<&str> = rest.split_whitespace().collect();
    let number = |w: &str| w.replace(',', "").parse::<u32>().expect(w);
    assert_eq!(words.get(1), Some(&"of"), "{rest}");
    (number(words[0]), number(words[2]))
}
