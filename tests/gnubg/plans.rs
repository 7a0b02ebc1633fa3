//! Game plans (`bgedit_engine::plans`, Sage's C++ `classify_game_plan`
//! through bgedit's shim) against Open Sage's own Python
//! `classify_game_plans`, asked in this run (tests/fixtures/sage_plans.py):
//! every position of the committed fixtures, and 1,000 random boards from
//! the script's fixed seed. Both sides' plans, each from its own side.

use crate::common;
use bgedit_core::codec::parse_any;
use bgedit_core::domain::game_plan::GamePlan;
use bgedit_core::domain::{Board, Player, Position};
use bgedit_engine::internals::{from_sage, to_sage};
use serde_json::Value;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Sage's plans of each board `script_args` gives or `boards` holds.
fn sage_says(args: &[&str], boards: &[[i32; 26]]) -> Vec<Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sage_plans.py");
    let mut child = Command::new(common::sage_python())
        .arg(script)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("Sage's Python starts");
    let mut stdin = child.stdin.take().unwrap();
    for b in boards {
        writeln!(stdin, "{}", serde_json::to_string(&b.to_vec()).unwrap()).unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "sage_plans.py failed");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Every answer's board, read as bgedit's (Sage's player is O), has
/// bgedit's plans equal to Sage's. Returns how many boards.
fn each_agrees(answers: &[Value]) -> usize {
    for a in answers {
        let sage: Vec<i32> = a["board"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap() as i32)
            .collect();
        let board = from_sage(&sage, Player::O).unwrap();
        let position = Position {
            board,
            ..Position::default()
        };
        let plans = bgedit_engine::plans(&position).unwrap_or_else(|e| panic!("{e}"));
        let want = |k: &str| GamePlan::from_name(a[k].as_str().unwrap()).unwrap();
        assert_eq!(
            (plans.o, plans.x),
            (want("player"), want("opponent")),
            "board {sage:?}"
        );
    }
    answers.len()
}

/// The positions of every committed fixture that holds IDs.
fn fixture_boards() -> Vec<Board> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut boards = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    names.sort();
    for path in names {
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            let Ok(v) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            for key in ["input", "id", "gnubg_id", "position", "xgid"] {
                if let Some(text) = v[key].as_str()
                    && let Ok(read) = parse_any(text, &Position::default())
                {
                    boards.push(read.position.board);
                }
            }
        }
    }
    boards.sort_by_key(|b| to_sage(b, Player::O));
    boards.dedup();
    boards
}

#[test]
#[cfg_attr(not(bgedit_has_sage), ignore = "needs Open Sage (pip install bgsage)")]
fn plans_are_sages_on_every_fixture_position() {
    let boards = fixture_boards();
    assert!(boards.len() > 300, "{} fixture positions", boards.len());
    let sage: Vec<[i32; 26]> = boards.iter().map(|b| to_sage(b, Player::O)).collect();
    let answers = sage_says(&[], &sage);
    assert_eq!(answers.len(), boards.len());
    each_agrees(&answers);
}

#[test]
#[cfg_attr(not(bgedit_has_sage), ignore = "needs Open Sage (pip install bgsage)")]
fn plans_are_sages_on_a_thousand_random_boards() {
    let answers = sage_says(&["--random", "1000"], &[]);
    assert_eq!(each_agrees(&answers), 1000);
    // The seed reaches every plan, from both sides.
    for plan in GamePlan::ALL {
        for side in ["player", "opponent"] {
            assert!(
                answers.iter().any(|a| a[side] == plan.name()),
                "no {side} plan {plan} among the random boards"
            );
        }
    }
}
