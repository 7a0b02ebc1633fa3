//! `bgedit stats`, run as a user runs it: the JSON shape, values checked
//! against gnubg's printed output for the same IDs, stdin streaming,
//! `line N:` errors and `--met`.

use crate::common;

use common::run::{bgedit, text};
use serde_json::Value;

/// A race from the gnubg fixtures: O on roll at 1-away 12-away to 13,
/// post-Crawford, gnubg printing (show kleinman) `Cubeless Winning Chance:
/// 0.4645`, (show isight) `Estimated GWC: 35.7%`, (show thorp) `L: 71.5`
/// and `T: 51`, (show gammonvalues) `gnubg 0.63386 1.66929`.
const RACE: &str = "T2cAALjvGwAAAA:EQHgBtABqAEE";

#[test]
fn json_has_the_issue_shape_and_gnubg_values() {
    let out = bgedit(&["stats", "--format", "json", RACE], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let line = text(&out.stdout);
    assert_eq!(line.lines().count(), 1);
    let v: Value = serde_json::from_str(line.trim()).unwrap();
    assert_eq!(v["gnubg_id"], RACE);
    assert_eq!(v["pips"]["o"], 36);
    assert_eq!(v["pips"]["x"], 31);
    assert_eq!(v["kleinman"]["win"].as_f64().unwrap(), 0.4645);
    assert_eq!(v["thorp"]["leader"].as_f64().unwrap(), 71.5);
    assert_eq!(v["thorp"]["trailer"].as_f64().unwrap(), 51.0);
    assert_eq!(v["thorp"]["action"], "no_double");
    assert_eq!(v["keith"]["action"], "no_double");
    assert_eq!(v["isight"]["win"].as_f64().unwrap(), 0.357);
    assert_eq!(v["rule_8912"]["action"], "no_double");
    assert_eq!(v["met"]["name"], "Kazaross XG2 25 point MET");
    let (o, x) = (
        v["met"]["o"].as_f64().unwrap(),
        v["met"]["x"].as_f64().unwrap(),
    );
    assert!((o + x - 1.0).abs() < 1e-6 && o < 0.01, "{o} {x}");
    assert_eq!(v["gammon_values"]["o"]["gammon"].as_f64().unwrap(), 0.63386);
    assert_eq!(
        v["gammon_values"]["o"]["backgammon"].as_f64().unwrap(),
        1.66929
    );
    assert_eq!(v["gammon_values"]["x"]["gammon"].as_f64().unwrap(), 0.0);
}

/// gnubg 1.07's 0-ply evaluation of 0-3 to 7 from the start, and its
/// `show marketwindow`: root (X) "Dead cube:  47.05% -  64.38%", "Live cube:
/// 47.05% -  75.00%"; gnubg (O) "Dead cube:  52.95% -  69.15%", "Live cube:
/// 52.95% -  70.10%"; gammon rates X 28.06%, O 25.56%.
#[test]
fn an_evaluation_adds_the_market_window() {
    let eval = "0.521513819694519,0.1539212316274643,0.007563344202935696,0.12984727323055267,0.007545731496065855";
    let out = bgedit(
        &[
            "stats",
            "--format",
            "json",
            "--eval",
            eval,
            "4HPwATDgc/ABMA:cAngAAAAGAAA",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    let w = &v["market_window"];
    let f = |x: &Value| x.as_f64().unwrap();
    assert_eq!(
        (f(&w["x"]["dead"][0]), f(&w["x"]["dead"][1])),
        (0.4705, 0.6438)
    );
    assert_eq!(
        (f(&w["x"]["live"][0]), f(&w["x"]["live"][1])),
        (0.4705, 0.75)
    );
    assert_eq!(
        (f(&w["o"]["dead"][0]), f(&w["o"]["dead"][1])),
        (0.5295, 0.6915)
    );
    assert_eq!(
        (f(&w["o"]["live"][0]), f(&w["o"]["live"][1])),
        (0.5295, 0.701)
    );
    assert_eq!(f(&v["gammon_rates"]["x"][0]), 0.2806);
    assert_eq!(f(&v["gammon_rates"]["o"][0]), 0.2556);

    let bad = bgedit(&["stats", "--eval", "0.5,0.6,0,0,0", "x"], "");
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("win gammon must be at most win"));
}

#[test]
fn stdin_lines_stream_with_line_errors_and_aligned_output() {
    let out = bgedit(
        &["stats"],
        "4HPwATDgc/ABMA:cAngAAAAGAAA\nnonsense\n\nT2cAALjvGwAAAA:EQHgBtABqAEE\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    // 0-3 to 7 (X leads 3-0 in gnubg's order: O 0, X 3), Kazaross-XG2.
    assert!(lines[0].contains("MWC O 30.08% X 69.92%"), "{}", lines[0]);
    assert!(lines[0].contains("contact: race counts do not apply"));
    assert_eq!(lines[1], "");
    assert_eq!(lines[2], "");
    assert!(
        lines[3].contains("Thorp 65 71.5/51 no_double"),
        "{}",
        lines[3]
    );
    let stderr = text(&out.stderr);
    assert!(stderr.starts_with("line 2: not an ID"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1);
}

#[test]
fn another_met_file_changes_the_mwc_and_a_bad_one_is_refused() {
    let woolsey = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/met/woolsey.xml"
    );
    let out = bgedit(
        &[
            "stats",
            "--met",
            woolsey,
            "--format",
            "json",
            "4HPwATDgc/ABMA:cAngAAAAGAAA",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!(v["met"]["name"], "Kit Woolsey");
    // Woolsey's 7-away 4-away (gnubg: show matchequitytable): 30.0%.
    assert_eq!(v["met"]["o"].as_f64().unwrap(), 0.3);

    let bad = bgedit(&["stats", "--met", "/nonexistent/met.xml", "x"], "");
    assert_eq!(bad.status.code(), Some(2));
    let err = text(&bad.stderr);
    assert!(
        err.contains("--met: cannot read /nonexistent/met.xml"),
        "{err}"
    );
    assert!(bad.stdout.is_empty());
}
