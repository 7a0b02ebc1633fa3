//! gnubg's `export match text` imported with its games, result and
//! analysis (issue 41), against gnubg's own SGF of the same analysed game;
//! and the Jacoby rule in a money session gnubg played (a gammon with the
//! cube never turned scores 1 point, as gnubg scores it).

use crate::common;

use bgedit_core::codec::match_file::{self, Contents};
use bgedit_library::match_import::{decision_error, no_double_error};
use serde_json::Value;
use std::path::{Path, PathBuf};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn fixture(name: &str) -> PathBuf {
    Path::new(FIXTURES).join(name)
}

fn decisions(name: &str) -> Vec<match_file::FileDecision> {
    let bytes = std::fs::read(fixture(name)).unwrap();
    let file = match_file::read_bytes(&bytes).unwrap();
    match_file::decisions(&file).0
}

/// Every decision of the text has gnubg's analysis as gnubg's own SGF of
/// the game has it: the same play, the same error of what was played and
/// of the cube before the roll, to the text's three decimals.
#[test]
fn the_texts_analysis_is_gnubgs() {
    let text = decisions("match_text/hsbt_paris_7pt.txt");
    let sgf = decisions("match_text/hsbt_paris_7pt_game1.sgf");
    let plays = |d: &[match_file::FileDecision]| -> Vec<(String, Option<f64>, Option<f64>)> {
        d.iter()
            .filter(|d| !d.played.is_empty())
            .map(|d| (d.played.clone(), decision_error(d), no_double_error(d)))
            .collect()
    };
    let (t, s) = (plays(&text), plays(&sgf));
    assert_eq!(t.len(), s.len());
    let mut errors = 0;
    for (i, (a, b)) in t.iter().zip(&s).enumerate() {
        assert_eq!(a.0, b.0, "decision {i}");
        for (x, y) in [(a.1, b.1), (a.2, b.2)] {
            match (x, y) {
                (Some(x), Some(y)) => {
                    assert!((x - y).abs() < 0.0011, "decision {i} ({}): {x} {y}", a.0);
                    errors += usize::from(y > 0.0005);
                }
                (None, None) => {}
                other => panic!("decision {i} ({}): {other:?}", a.0),
            }
        }
    }
    assert!(errors > 5, "the game has mistakes to compare ({errors})");
}

/// The library keeps the text's game, its result, its date and its
/// analysis (a missed double an entry of its own).
#[test]
fn the_library_keeps_the_texts_game_result_and_analysis() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    let file = fixture("match_text/hsbt_paris_7pt.txt");
    let (code, out, err) = common::run::library(&lib, &["import", file.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{out}{err}");
    let with = decisions("match_text/hsbt_paris_7pt.txt")
        .iter()
        .filter(|d| d.analysis.is_some())
        .count();
    assert!(with > 20);
    assert!(
        out.contains(&format!("{with} with the file's analysis")),
        "{out}"
    );
    let (_, out, _) = common::run::library(&lib, &["matches", "--format", "json"]);
    let m: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(m["games"], 1, "{m}");
    // gnubg's SGF of the game: RE[W+1], White (O) won a point.
    let sgf = std::fs::read_to_string(fixture("match_text/hsbt_paris_7pt_game1.sgf")).unwrap();
    assert!(sgf.contains("RE[W+1]"));
    assert_eq!(m["score"]["O"], 1, "{m}");
    assert_eq!(m["score"]["X"], 0, "{m}");
    assert_eq!(m["date"], "2023-11-26", "{m}");
    assert_eq!(m["date_from"], "content", "{m}");
    assert!(
        m["analysis"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["engine"] == "gnubg" && a["plies"] == 0 && a["from_file"] == true),
        "{m}"
    );
}

/// A money session under the Jacoby rule that gnubg played: its own `.mat`
/// export writes `Wins 2 points` for a gammon with the cube never turned,
/// which gnubg scores 1 (its `import mat` and its SGF); bgedit reads both
/// files as gnubg scores them.
#[test]
fn a_jacoby_gammon_with_the_cube_never_turned_is_one_point() {
    let want: Vec<Value> = std::fs::read_to_string(fixture("selfplay/money_jacoby.games.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mat = std::fs::read_to_string(fixture("selfplay/money_jacoby.mat")).unwrap();
    assert!(mat.contains("Wins 2 points"), "the file says 2");
    for name in ["selfplay/money_jacoby.mat", "selfplay/money_jacoby.sgf"] {
        let bytes = std::fs::read(fixture(name)).unwrap();
        let file = match_file::read_bytes(&bytes).unwrap();
        let Contents::Record(record) = &file.contents else {
            panic!("{name}")
        };
        assert!(record.header.jacoby, "{name}");
        assert_eq!(record.games.len(), want.len(), "{name}");
        for (g, w) in record.games.iter().zip(&want) {
            let r = g.result.unwrap();
            assert_eq!(u64::from(r.points), w["points"].as_u64().unwrap(), "{name}");
            assert_eq!(
                r.winner.to_string(),
                w["winner"].as_str().unwrap(),
                "{name}"
            );
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    let file = fixture("selfplay/money_jacoby.mat");
    let (code, out, err) = common::run::library(&lib, &["import", file.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{out}{err}");
    let (_, out, _) = common::run::library(&lib, &["matches", "--format", "json"]);
    let m: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    let total: u64 = want.iter().map(|w| w["points"].as_u64().unwrap()).sum();
    assert_eq!(
        m["score"]["O"].as_u64().unwrap() + m["score"]["X"].as_u64().unwrap(),
        total
    );
}
