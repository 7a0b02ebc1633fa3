//! `bgedit analyse` end to end, against the real gnubg (skipped with a
//! printed reason without it, failing under BGEDIT_REQUIRE_GNUBG=1).

mod common;

use common::have_gnubg;
use std::process::Command;

fn run(args: &[&str], stdin: &str) -> (String, String, i32) {
    let out = common::run::bgedit(args, stdin);
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn json_lines_in_input_order_with_line_errors() {
    if !have_gnubg() {
        return;
    }
    let input = "4HPwATDgc/ABMA:cAmlAAAAAAAE\nnot an id\ndwcAANwdAAAAAA:cAkAAAAAAAAE\n4HPwATDgc/ABMA:MAETAAAAAAAE\n";
    let (out, err, code) = run(
        &["analyse", "--format", "json", "--moves", "2", "--jobs", "2"],
        input,
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.starts_with("line 2: "), "{err}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["gnubg_id"], "4HPwATDgc/ABMA:cAmlAAAAAAAE");
    assert_eq!(lines[0]["moves"][0]["move"], "24/23 13/11");
    assert_eq!(lines[0]["moves"].as_array().unwrap().len(), 2);
    assert!(
        lines[0]["moves"][0]["mwc"].is_number(),
        "match play adds mwc"
    );
    assert_eq!(lines[1]["cube"]["action"], "Double, take");
    assert!((lines[1]["cube"]["double_take"].as_f64().unwrap() - 0.723).abs() < 0.0006);
    assert_eq!(lines[1]["cube"]["probs"].as_array().unwrap().len(), 5);
    assert_eq!(lines[2]["moves"][0]["move"], "24/14");
    assert!(
        lines[2]["moves"][0].get("mwc").is_none(),
        "money has no mwc"
    );
}

#[test]
fn text_follows_gnubgs_hint_and_arguments_are_numbered() {
    if !have_gnubg() {
        return;
    }
    let (out, err, code) = run(&["analyse", "dwcAANwdAAAAAA:cIkKAAAAAAAE", "zzz"], "");
    assert_eq!(code, 1);
    assert!(err.starts_with("argument 2: "), "{err}");
    assert!(out.contains("    1. Cubeful 0-ply    3/off 2/off"), "{out}");
    assert!(out.contains("Eq.: +0.476 (-0.028)"), "{out}");
}

#[test]
fn a_missing_gnubg_says_how_to_install_it() {
    let (_, err, code) = run(
        &[
            "analyse",
            "--gnubg",
            "/nonexistent/gnubg",
            "4HPwATDgc/ABMA:cAmlAAAAAAAE",
        ],
        "",
    );
    assert_eq!(code, 2);
    assert!(err.contains("/nonexistent/gnubg"), "{err}");
    let out = Command::new(env!("CARGO_BIN_EXE_bgedit"))
        .args(["analyse", "4HPwATDgc/ABMA:cAmlAAAAAAAE"])
        .env("PATH", "/nonexistent")
        .env("BGEDIT_GNUBG", "")
        .output()
        .unwrap();
    if !std::path::Path::new("/usr/games/gnubg").exists() {
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("apt-get install gnubg"), "{err}");
    }
}

#[test]
fn an_overlong_line_is_refused_under_its_own_number() {
    if !have_gnubg() {
        return;
    }
    let input = format!("{}\n4HPwATDgc/ABMA:cAkFAAAAAAAE\n", "A".repeat(70_000));
    let (out, err, code) = run(&["analyse", "--format", "json", "--moves", "1"], &input);
    assert_eq!(code, 1);
    assert!(err.starts_with("line 1: longer than"), "{err}");
    assert_eq!(out.lines().count(), 1);
    assert!(out.contains("\"24/23 13/11\""), "{out}");
}
