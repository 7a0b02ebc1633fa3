//! `bgedit analyse` end to end, against the real gnubg (ignored, saying
//! why, without it; failing under BGEDIT_REQUIRE_GNUBG=1).

use crate::common;

use common::live;
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
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn json_lines_in_input_order_with_line_errors() {
    common::gnubg();
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
    // The unreadable line keeps its place: outputs align with inputs.
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[1]["gnubg_id"], serde_json::Value::Null);
    assert!(lines[1]["error"].as_str().unwrap().contains("not an id"));
    let lines = [lines[0].clone(), lines[2].clone(), lines[3].clone()];
    assert_eq!(lines[0]["gnubg_id"], "4HPwATDgc/ABMA:cAmlAAAAAAAE");
    assert_eq!(lines[0]["moves"][0]["plies"], 0);
    // Each answer against gnubg's hint asked here, in this run.
    let best = |id: &str| live::hint_list(id, 0)[0].0.clone();
    assert_eq!(
        lines[0]["moves"][0]["move"],
        best("4HPwATDgc/ABMA:cAmlAAAAAAAE")
    );
    assert_eq!(lines[0]["moves"].as_array().unwrap().len(), 2);
    assert!(
        lines[0]["moves"][0]["mwc"].is_number(),
        "match play adds mwc"
    );
    let cube = live::hint_cube("dwcAANwdAAAAAA:cAkAAAAAAAAE", 0, false);
    assert_eq!(lines[1]["cube"]["action"], cube.action.as_str());
    // Full precision against gnubg's three decimals.
    let dt = lines[1]["cube"]["double_take"].as_f64().unwrap();
    assert!((dt - cube.double_take).abs() < 0.0006, "{dt} {cube:?}");
    assert_eq!(lines[1]["cube"]["probs"].as_array().unwrap().len(), 5);
    assert_eq!(
        lines[2]["moves"][0]["move"],
        best("4HPwATDgc/ABMA:MAETAAAAAAAE")
    );
    assert!(
        lines[2]["moves"][0].get("mwc").is_none(),
        "money has no mwc"
    );
}

/// A position gnubg cannot answer (here a finished game) gives its JSON
/// line with the reason; a big match cube is answered, saying which cube
/// gnubg was sent, under the original ID.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn unanswerable_positions_keep_their_line_and_big_cubes_are_answered() {
    common::gnubg();
    // X has borne off every checker; then a 1024-cube at 5-point 0-0.
    let input = "AAAAAAAAAAAAAA:cAkFAAAAAAAE\n4HPwATDgc/ABMA:WgmlAAAAAAAE\n";
    let (out, err, code) = run(&["analyse", "--format", "json", "--moves", "1"], input);
    assert_eq!(code, 1, "{err}");
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert_eq!(lines[0]["gnubg_id"], "AAAAAAAAAAAAAA:cAkFAAAAAAAE");
    assert!(
        lines[0]["error"]
            .as_str()
            .unwrap()
            .contains("nothing to analyse"),
        "{out}"
    );
    assert!(err.starts_with("line 1: "), "{err}");
    assert_eq!(lines[1]["gnubg_id"], "4HPwATDgc/ABMA:WgmlAAAAAAAE");
    assert_eq!(lines[1]["cube_analysed_as"], 8);
    assert_eq!(lines[1]["moves"][0]["move"], "24/23 13/11");
    let (text, _, code) = run(&["analyse", "4HPwATDgc/ABMA:WgmlAAAAAAAE"], "");
    assert_eq!(code, 0);
    assert!(
        text.contains("Cube 1024 analysed as 8: every win ends the match"),
        "{text}"
    );
}

#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn text_follows_gnubgs_hint_and_arguments_are_numbered() {
    common::gnubg();
    let (out, err, code) = run(&["analyse", "dwcAANwdAAAAAA:cIkKAAAAAAAE", "zzz"], "");
    assert_eq!(code, 1);
    assert!(err.starts_with("argument 2: "), "{err}");
    assert!(out.contains("    1. Cubeful 0-ply    3/off 2/off"), "{out}");
    // Read back as gnubg's own hint text is read, the list is gnubg's
    // here (+0.503, then +0.476 (-0.028) when written).
    let ours = live::hint_moves(&out);
    let gnubgs = live::hint_list("dwcAANwdAAAAAA:cIkKAAAAAAAE", 0);
    assert_eq!(ours.len(), gnubgs.len(), "{out}");
    for ((m, e), (gm, ge)) in ours.iter().zip(&gnubgs) {
        assert_eq!(m, gm, "{out}");
        assert!(
            (e - ge).abs() < live::SHOWN_EQUITY,
            "{out}\nagainst {gnubgs:?}"
        );
    }
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
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn an_overlong_line_is_refused_under_its_own_number() {
    common::gnubg();
    // The limit every batch command shares (1 MiB), not one of its own.
    let input = format!(
        "{}\n4HPwATDgc/ABMA:cAkFAAAAAAAE\n",
        "A".repeat(bgedit::cli::input::MAX_LINE_BYTES + 1)
    );
    let (out, err, code) = run(&["analyse", "--format", "json", "--moves", "1"], &input);
    assert_eq!(code, 1);
    assert!(err.starts_with("line 1: longer than"), "{err}");
    assert_eq!(out.lines().count(), 2);
    assert!(out.starts_with("{\"error\":\"longer than"), "{out}");
    assert!(out.contains("\"24/23 13/11\""), "{out}");
}

#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn a_line_that_is_not_utf8_is_named_by_its_byte() {
    common::gnubg();
    let mut input = b"4HPw\xffATDgc/ABMA\n".to_vec();
    input.extend_from_slice(b"4HPwATDgc/ABMA:cAkFAAAAAAAE\n");
    // Raw bytes: the shared helper takes text.
    let mut child = common::run::command()
        .args(["analyse", "--format", "json", "--moves", "1"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(&input).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with("line 1: not UTF-8 text (byte 5)"), "{err}");
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 2);
}

/// A reader at the other end of a pipe gets each answer while the input
/// is still open (a script feeding positions one at a time).
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn an_answer_comes_out_before_the_input_ends() {
    use std::io::{BufRead, BufReader, Write};
    common::gnubg();
    let mut child = common::run::command()
        .args(["analyse", "--format", "json", "--moves", "1"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"4HPwATDgc/ABMA:cAkFAAAAAAAE\n").unwrap();
    stdin.flush().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    // Generous: gnubg starts and answers at 0-ply well within this.
    let line = rx.recv_timeout(std::time::Duration::from_secs(60));
    drop(stdin);
    let _ = child.wait();
    let line = line.expect("the answer is written while the input is open");
    assert!(line.contains("\"24/23 13/11\""), "{line}");
}

/// The score matrix against gnubg's own `hint` at every score of a 5- and
/// a 7-point match (tests/fixtures/gen_gnubg_score_matrix.py): the same
/// proper action and cubeful equities in every cell, and no cube action
/// exactly where gnubg gives none (the Crawford game, the leader's dead
/// cube post-Crawford, double match point after it).
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn the_score_matrix_is_gnubgs_cube_decision_at_every_score() {
    common::gnubg();
    let mut checked = 0;
    // gnubg's own `hint` at every cell, asked on this machine now.
    let fixtures = crate::common::live::generated("gen_gnubg_score_matrix.py", "-");
    for line in fixtures.lines() {
        let f: serde_json::Value = serde_json::from_str(line).unwrap();
        let length = f["length"].as_u64().unwrap().to_string();
        // Any Match ID with the roller: the matrix sets score and cube.
        let match_id = if f["on_roll"] == "X" {
            "cAkAAAAAAAAA"
        } else {
            "MAEAAAAAAAAA"
        };
        let id = format!("{}:{match_id}", f["position"].as_str().unwrap());
        let (out, err, code) = run(
            &[
                "analyse",
                "--score-matrix",
                "--length",
                &length,
                "--jobs",
                "2",
                "--format",
                "json",
                &id,
            ],
            "",
        );
        assert_eq!(code, 0, "{err}");
        let got: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        let cells = got["cells"].as_array().unwrap();
        let want = f["cells"].as_array().unwrap();
        assert_eq!(cells.len(), want.len(), "{id} {length}");
        for w in want {
            let key = |c: &serde_json::Value| {
                (
                    c["away_o"].clone(),
                    c["away_x"].clone(),
                    c["crawford"].clone(),
                )
            };
            let g = cells.iter().find(|c| key(c) == key(w)).unwrap();
            let at = format!(
                "{id} {length}-point, O {}-away X {}-away crawford {}",
                w["away_o"], w["away_x"], w["crawford"]
            );
            match w["cube"].as_object() {
                None => assert!(
                    g["action"].as_str().unwrap().starts_with("No cube action"),
                    "{at}: {g}"
                ),
                Some(c) => {
                    assert_eq!(g["action"], c["action"], "{at}");
                    for k in ["no_double", "double_take", "double_pass"] {
                        let (a, b) = (g[k].as_f64().unwrap(), c[k].as_f64().unwrap());
                        assert!((a - b).abs() < 0.0006, "{at}: {k} {a} against gnubg's {b}");
                    }
                }
            }
            checked += 1;
        }
    }
    // Per position: 5-point (16 + 16 + double match point) and 7-point
    // (36 + 24 + 1) cells.
    assert_eq!(checked, 3 * (33 + 61));
}

#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn the_score_matrix_text_is_a_grid_by_action() {
    common::gnubg();
    let (out, err, code) = run(
        &[
            "analyse",
            "--score-matrix",
            "--length",
            "3",
            "--owner",
            "--jobs",
            "2",
            "dwcAANwdAAAAAA:cAkAAAAAAAAA",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("3-point match, X on roll"), "{out}");
    assert!(
        out.contains("centred cube: rows X away, columns O away"),
        "{out}"
    );
    assert!(out.contains("2-cube owned by X"), "{out}");
    // Double match point (after the Crawford game) is a score where
    // nobody may double ("You cannot double", gnubg says): "-" where the
    // post-Crawford row and column cross, and a line saying why.
    let grid_rows: Vec<&str> = out
        .lines()
        .filter(|l| l.trim_start().starts_with("1a PC"))
        .collect();
    assert_eq!(grid_rows.len(), 2, "{out}");
    for row in grid_rows {
        assert!(row.ends_with("      -"), "{row:?}");
    }
    let dmp: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("X 1-away O 1-away "))
        .collect();
    assert_eq!(dmp.len(), 2, "{out}");
    assert!(dmp.iter().all(|l| l.contains("no cube action")), "{dmp:?}");
    // No colour when the output is not a terminal.
    assert!(!out.contains('\x1b'), "{out}");
    let (_, err, code) = run(
        &["analyse", "--length", "3", "dwcAANwdAAAAAA:cAkAAAAAAAAA"],
        "",
    );
    assert_eq!(code, 2, "--length without --score-matrix: {err}");
}
