//! `bgedit analyse --sensitivity` end to end with Sage in-process (ignored
//! without it, failing under BGEDIT_REQUIRE_SAGE=1): the editor's live
//! views as text and JSON, one JSON line an input line, `line N:` for a
//! bad one and exit 1. The values themselves are set beside the engine's
//! own answers in `tests/editor/sensitivity.rs`.

use crate::common;

fn run(args: &[&str], stdin: &str) -> (String, String, i32) {
    let out = common::run::bgedit(args, stdin);
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

const MOVES: &str = "4HPwATDgc/ABMA:QYkqASAAIAAA";
const CUBE: &str = "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:3:2:0:7:10";

#[test]
#[cfg_attr(not(bgedit_has_sage), ignore = "needs Open Sage (pip install bgsage)")]
fn json_has_a_line_an_input_and_names_bad_lines() {
    common::sage_python();
    let input = format!("{MOVES}\nnot an id\n\n{CUBE}\n");
    let args = [
        "analyse",
        "--sensitivity",
        "--engine",
        "sage",
        "--format",
        "json",
    ];
    let (out, err, code) = run(&args, &input);
    assert_eq!(code, 1, "{err}");
    assert!(err.starts_with("line 2: "), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[1].is_empty() && lines[2].is_empty());
    let moves: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(moves["kind"], "moves");
    assert_eq!(moves["engine"], "sage");
    assert_eq!(moves["in_process"], true);
    let scores: Vec<&str> = moves["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["score"].as_str().unwrap())
        .collect();
    assert_eq!(scores, ["money", "dmp", "gammon_save", "gammon_go", "own"]);
    assert_eq!(moves["anchor"]["cube"], "opponent_owns");
    assert_eq!(
        moves["rows"][2]["roller_owns"]["not_here"],
        "no cube in the Crawford game"
    );
    let own = &moves["rows"][4]["opponent_owns"];
    assert_eq!(own["changed"], false);
    assert!(own["move"].is_string() && own["equity"].is_f64(), "{own}");
    let window: serde_json::Value = serde_json::from_str(lines[3]).unwrap();
    assert_eq!(window["kind"], "window");
    assert_eq!(window["length"], 7);
    assert_eq!(window["cells"].as_array().unwrap().len(), 2 * 61);
    assert!(window["money"]["centred"]["no_double"].is_f64(), "{window}");
}

#[test]
#[cfg_attr(not(bgedit_has_sage), ignore = "needs Open Sage (pip install bgsage)")]
fn text_is_the_live_views_tables() {
    common::sage_python();
    let args = ["analyse", "--sensitivity", "--engine", "sage", MOVES, CUBE];
    let (out, err, code) = run(&args, "");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("best move by score and cube"), "{out}");
    assert!(out.contains("Sage 1-ply in-process"), "{out}");
    assert!(
        out.contains(" GS 1a-2a C ") && out.contains(" GG 2a-1a C "),
        "{out}"
    );
    assert!(out.contains("=score 5a-7a "), "{out}");
    assert!(out.contains("doubling window by score"), "{out}");
    assert!(out.contains("7-point match, centred cube: rows X away, columns O away"));
    assert!(out.contains("=4a-5a X owns 2  ND "), "{out}");
}

// bgedit finds gnubg before it reads `--engine both` against `--sensitivity`.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn both_engines_at_once_are_refused() {
    common::gnubg();
    let (_, err, code) = run(&["analyse", "--sensitivity", "--engine", "both", MOVES], "");
    assert_eq!(code, 2);
    assert!(err.contains("--sensitivity takes one engine"), "{err}");
}

/// An option after the IDs is named as one (before, it was read as an ID
/// and called "not an ID"), and nothing is asked of an engine.
#[test]
fn an_option_after_the_id_is_named() {
    let (out, err, code) = run(
        &[
            "analyse",
            "--sensitivity",
            "4HPwATDgc/ABMA:cAkAAAAAAAAA",
            "--engine",
            "sage",
        ],
        "",
    );
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(
        err,
        "bgedit: '--engine' comes after an ID: give the options first (bgedit analyse [OPTIONS] [IDS]...)\n"
    );
}

/// A finished game asks nothing: `--sensitivity` refuses it as `analyse`
/// refuses it (exit 1, the same words), where it once printed "Nothing to
/// show" and exited 0.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn a_finished_game_is_refused_as_analyse_refuses_it() {
    // X has borne off every checker.
    let over = "XGID=-b----------e----c-e------:0:0:1:00:0:0:0:0:10";
    let (_, said, plain) = run(&["analyse", "--engine", "gnubg", over], "");
    assert_eq!(plain, 1, "{said}");
    assert!(said.contains("the game is over"), "{said}");
    let (out, err, code) = run(&["analyse", "--sensitivity", "--engine", "gnubg", over], "");
    assert_eq!((code, err.as_str()), (plain, said.as_str()));
    // No table: the input's line stays, empty, as for any refused input.
    assert_eq!(out, "\n");
}
