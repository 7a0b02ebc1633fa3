//! `bgedit moves` and `bgedit play`, run as a user runs them, checked
//! against gnubg 1.07's answers (the committed move fixtures).

use crate::common;

use common::run::{bgedit, text};

/// The starting position, X on roll with 3-1.
const OPENING_31: &str = "4HPwATDgc/ABMA:cIkFAAAAAAAA";

#[test]
fn moves_text_lists_gnubgs_sixteen_moves_for_the_opening_31() {
    let out = bgedit(&["moves", OPENING_31], "");
    assert!(out.status.success());
    let line = text(&out.stdout);
    let mut got: Vec<&str> = line.trim_end().split(" | ").collect();
    got.sort();
    let mut want = vec![
        "24/23 24/21",
        "24/20",
        "24/21 8/7",
        "24/21 6/5",
        "24/23 13/10",
        "13/9",
        "13/10 8/7",
        "13/10 6/5",
        "24/23 8/5",
        "8/7 8/5",
        "8/5 6/5",
        "8/4",
        "24/23 6/3",
        "8/7 6/3",
        "6/5 6/3",
        "6/2",
    ];
    want.sort();
    assert_eq!(got, want);
}

#[test]
fn moves_streams_stdin_with_line_errors_and_reasons() {
    let input = format!("{OPENING_31}\n\nnot an id\n4HPwATDgc/ABMA:cAkAAAAAAAAA\n");
    let out = bgedit(&["moves", "--format", "json"], &input);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4);
    let first: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(first["gnubg_id"], OPENING_31);
    let moves = first["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 16);
    let pt = moves.iter().find(|m| m["move"] == "8/5 6/5").unwrap();
    // gnubg 1.07 after `move 8/5 6/5`.
    assert_eq!(pt["gnubg_id"], "sGfwATDgc/ABMA:MAEAAAAAAAAA");
    assert_eq!(lines[1], "");
    assert_eq!(lines[2], "");
    let last: serde_json::Value = serde_json::from_str(lines[3]).unwrap();
    assert_eq!(last["moves"], serde_json::json!([]));
    assert_eq!(last["reason"], "no dice rolled");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("line 3: not an ID"), "{stderr}");
}

#[test]
fn play_prints_the_id_after_the_move_and_refuses_with_the_rule() {
    let out = bgedit(
        &["play", "8-5 6-5", OPENING_31, "4HPwATDgc/ABMA:cAkAAAAAAAAA"],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "sGfwATDgc/ABMA:MAEAAAAAAAAA\n\n");
    assert!(text(&out.stderr).contains("argument 2: no dice rolled"));

    let out = bgedit(&["play", "13/10 13/12"], &format!("{OPENING_31}\n"));
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "line 1: blocked point: the opponent holds your 12 point\n"
    );

    let out = bgedit(&["play", "13/"], OPENING_31);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("the move \"13/\""));
}

/// Every fixture position: `bgedit moves --format json` on stdin gives
/// exactly gnubg's set of moves, and `play` of each gives gnubg's ID.
#[test]
fn moves_json_over_the_gnubg_fixtures() {
    let fixtures = include_str!("../fixtures/gnubg_moves.jsonl");
    let cases: Vec<serde_json::Value> = fixtures
        .lines()
        .take(60)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let input: String = cases
        .iter()
        .map(|c| format!("{}\n", c["gnubg_id"].as_str().unwrap()))
        .collect();
    let out = bgedit(&["moves", "--format", "json"], &input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    for (case, line) in cases.iter().zip(stdout.lines()) {
        let ours: serde_json::Value = serde_json::from_str(line).unwrap();
        let mut ours_set: Vec<String> = ours["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["move"].as_str().unwrap().to_owned())
            .collect();
        let mut theirs: Vec<String> = case["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["move"].as_str().unwrap().to_owned())
            .collect();
        ours_set.sort();
        theirs.sort();
        assert_eq!(ours_set, theirs, "{}", case["gnubg_id"]);
        if theirs.is_empty() {
            assert!(
                ours["reason"]
                    .as_str()
                    .unwrap()
                    .starts_with("no legal move")
            );
        }
    }
}
