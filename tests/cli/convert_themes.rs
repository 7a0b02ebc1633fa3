//! `convert --to json` gives each position's gnubg class and both sides'
//! game plans (Sage's, each from its own side), for IDs and for files; the
//! JSON still reads back as the same position.

use crate::common::run::{bgedit, text};
use bgedit_core::codec::parse_any;
use bgedit_core::domain::Position;
use bgedit_core::domain::position_class::class_of;
use serde_json::Value;

const IDS: [&str; 4] = [
    "4HPwATDgc/ABMA:cAkAAAAAAAAA",
    "4NvBA0DGzooBBg:QYkqASAAIAAA",
    // A bear-off and a race.
    "XGID=-CCBBBB------------bbbbcc-:0:0:1:00:0:0:0:0:10",
    "XGID=-BBBBBB-A---------aabbbbb-:0:0:1:31:0:0:0:0:10",
];

fn check(line: &str, id: &str) {
    let v: Value = serde_json::from_str(line).unwrap();
    let position = parse_any(id, &Position::default()).unwrap().position;
    assert_eq!(v["class"], class_of(&position.board).name(), "{id}");
    match bgedit_engine::plans(&position) {
        Ok(p) => {
            assert_eq!(v["plans"]["O"], p.o.name(), "{id}");
            assert_eq!(v["plans"]["X"], p.x.name(), "{id}");
        }
        Err(_) => assert!(v["plans"].is_null(), "{id}: {line}"),
    }
    // The added fields are output only: the line reads back.
    let back = parse_any(line, &Position::default()).unwrap().position;
    assert_eq!(back.board, position.board);
}

#[test]
fn json_gives_the_class_and_both_plans() {
    let out = bgedit(&["convert", "--to", "json"], &IDS.join("\n"));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = text(&out.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), IDS.len());
    for (line, id) in lines.iter().zip(IDS) {
        check(line, id);
    }
    let classes: Vec<String> = lines
        .iter()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["class"].to_string())
        .collect();
    assert_eq!(
        classes,
        ["\"contact\"", "\"contact\"", "\"bearoff1\"", "\"race\""]
    );
}

#[test]
fn a_file_converted_to_json_has_them_too() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.txt");
    std::fs::write(&file, IDS[1]).unwrap();
    let out = bgedit(
        &[
            "convert",
            "--to",
            "json",
            "--file",
            &file.display().to_string(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    check(text(&out.stdout).trim(), IDS[1]);
}
