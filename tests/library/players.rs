//! The match database as a player reads it (issue 41), on real files: the
//! match list, results from the player's side, a player found by part of a
//! name and names grouped as one person, dates from the content or the
//! file's name or set by hand, rates over all decisions, a file's candidates in equity order, and the
//! schema 11 library migrated to 12.

use crate::common;

use bgedit_library::schema;
use bgedit_library::store::Library;
use serde_json::Value;
use std::path::{Path, PathBuf};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn fixture(name: &str) -> PathBuf {
    Path::new(FIXTURES).join(name)
}

/// `bgedit library --library LIB ARGS…`: exit code, stdout, stderr.
fn lib_cmd(lib: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    common::run::library(lib, args)
}

fn import(lib: &Path, files: &[&Path]) {
    let mut args = vec!["import".to_owned()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = lib_cmd(lib, &args);
    assert_eq!(code, Some(0), "{out}{err}");
}

fn stats(lib: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let mut all = vec!["stats", "--library", lib.to_str().unwrap()];
    all.extend_from_slice(args);
    let out = common::run::bgedit(&all, "");
    (
        out.status.code(),
        common::run::text(&out.stdout),
        common::run::text(&out.stderr),
    )
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The real XG matches of Kévin Unger: the HSBT Paris match (he won 7-4 as
/// O) and a 9-point training match against Nicolas HARMAND (he won 10-4 as
/// X, written `Kévin UNGER`).
fn unger_library(dir: &Path) -> PathBuf {
    let lib = dir.join("lib.sqlite");
    import(
        &lib,
        &[
            &fixture("xg/hsbt_paris_7pt.xg"),
            &fixture("xg/match_with_comment.xg"),
            &fixture("xg/charlot_7pt.xg"),
        ],
    );
    lib
}

/// Results read from the player's side: the match Kévin won 10-4 as X is
/// `W 10-4` with `won: true`, `side: X`, and its score for and against;
/// part of his name finds him whatever its case and accents.
#[test]
fn results_are_from_the_players_side_found_by_part_of_a_name() {
    let dir = tempfile::tempdir().unwrap();
    let lib = unger_library(dir.path());
    for query in ["unger", "Kévin", "KEVIN UNGER", "kevin"] {
        let (code, out, err) = stats(&lib, &["--player", query, "--format", "json"]);
        assert_eq!(code, Some(0), "{query}: {err}");
        let rows = json_lines(&out);
        let harmand = rows
            .iter()
            .find(|r| r["opponent"] == "Nicolas HARMAND")
            .unwrap_or_else(|| panic!("{query}: {out}"));
        assert_eq!(harmand["side"], "X", "{harmand}");
        assert_eq!(harmand["won"], true, "{harmand}");
        assert_eq!(harmand["score_for"], 10, "{harmand}");
        assert_eq!(harmand["score_against"], 4, "{harmand}");
        let job = rows
            .iter()
            .find(|r| r["opponent"] == "Maxence Job")
            .unwrap();
        assert_eq!(job["side"], "O");
        assert_eq!(job["won"], true);
        assert_eq!(
            (job["score_for"].clone(), job["score_against"].clone()),
            (7.into(), 4.into())
        );
        // The summary says the rates are over decisions.
        let summary = &rows.last().unwrap()["summary"];
        assert_eq!(summary["rates_over"], "decisions", "{summary}");
        assert_eq!(summary["matches"], 2, "{summary}");
    }
    let (_, text, _) = stats(&lib, &["--player", "unger"]);
    let line = text
        .lines()
        .find(|l| l.contains("Nicolas HARMAND"))
        .unwrap();
    assert!(line.contains("W 10-4"), "{line}");
    assert!(text.contains("won 2, lost 0"), "{text}");
    assert!(text.contains("not a mean of matches"), "{text}");
    // XG's depth in players' words, not its stored level.
    assert!(
        !text.contains("1002-ply") && !text.contains("1001-ply"),
        "{text}"
    );
}

/// A part of several players' names lists them and changes nothing;
/// `library alias` groups names as one person, and the person is found by
/// any of them.
#[test]
fn ambiguous_names_list_the_candidates_and_aliases_group_them() {
    let dir = tempfile::tempdir().unwrap();
    let lib = unger_library(dir.path());
    let (code, _, err) = stats(&lib, &["--player", "charlot"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(
        err.contains("'charlot' is part of 2 players' names") && err.contains("charlot1, charlot2"),
        "{err}"
    );
    let (code, out, err) = lib_cmd(&lib, &["alias", "charlot2", "--as", "Charlot"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out, "charlot2 = Charlot\n");
    let (code, _, err) = lib_cmd(&lib, &["alias", "CHARLOT1,1723", "--as", "Charlot"]);
    assert_eq!(code, Some(0), "{err}");
    let (code, out, _) = lib_cmd(&lib, &["alias"]);
    assert_eq!(code, Some(0));
    assert_eq!(out, "charlot1 = Charlot\ncharlot2 = Charlot\n");
    // Both sides of the charlot match are now the one person: the match is
    // theirs, from O's side (the first of theirs).
    let (code, out, err) = stats(&lib, &["--player", "charlot", "--format", "json"]);
    assert_eq!(code, Some(0), "{err}");
    let rows = json_lines(&out);
    assert_eq!(rows.len(), 2, "{out}");
    assert_eq!(rows[1]["summary"]["player"], "Charlot");
    let (code, _, _) = lib_cmd(&lib, &["alias", "charlot1", "--remove"]);
    assert_eq!(code, Some(0));
    let (code, _, _) = lib_cmd(&lib, &["alias", "nobody here", "--remove"]);
    assert_eq!(code, Some(1));
}

/// `library matches`: one object a match with the fields, the
/// winner and score as the file's games add up, the file's analysis named
/// by its engine and depth; text with the winner marked; filters and sorts.
#[test]
fn the_match_list_names_each_matchs_date_players_score_winner_and_analysis() {
    let dir = tempfile::tempdir().unwrap();
    let lib = unger_library(dir.path());
    let (code, out, err) = lib_cmd(&lib, &["matches", "--format", "json"]);
    assert_eq!(code, Some(0), "{err}");
    let rows = json_lines(&out);
    assert_eq!(rows.len(), 3, "{out}");
    // Newest first.
    let dates: Vec<&str> = rows.iter().map(|r| r["date"].as_str().unwrap()).collect();
    assert_eq!(dates, ["2025-11-08", "2024-10-24", "2023-11-26"]);
    let harmand = &rows[1];
    for key in [
        "match",
        "date",
        "date_from",
        "length",
        "players",
        "score",
        "winner",
        "games",
        "analysis",
        "pr",
    ] {
        assert!(harmand.get(key).is_some(), "{key}: {harmand}");
    }
    assert_eq!(harmand["players"]["O"], "Nicolas HARMAND");
    assert_eq!(harmand["players"]["X"], "Kévin UNGER");
    assert_eq!(harmand["score"]["O"], 4);
    assert_eq!(harmand["score"]["X"], 10);
    assert_eq!(harmand["winner"], "X");
    assert_eq!(harmand["length"], 9);
    assert_eq!(harmand["date_from"], "content");
    let analyses = harmand["analysis"].as_array().unwrap();
    assert!(
        analyses
            .iter()
            .any(|a| a["engine"] == "XG" && a["from_file"] == true && a["words"] == "XG Roller+"),
        "{harmand}"
    );
    // The games, counted from the store.
    let conn = rusqlite::Connection::open(&lib).unwrap();
    let games: i64 = conn
        .query_row(
            "SELECT count(*) FROM games WHERE match_id = ?1",
            [harmand["match"].as_i64().unwrap()],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(harmand["games"], games);
    // The text: the winner starred, the file's analysis by its deepest.
    let (_, text, _) = lib_cmd(&lib, &["matches"]);
    let line = text.lines().find(|l| l.contains("HARMAND")).unwrap();
    assert!(
        line.contains("Kévin UNGER*") && line.contains("4-10"),
        "{line}"
    );
    assert!(line.contains("XG Roller+ (file)"), "{line}");
    assert!(text.contains("3 matches of 3"), "{text}");
    // A player's matches, sorted by the result from their side.
    let (code, out, _) = lib_cmd(&lib, &["matches", "player:unger", "--sort", "result"]);
    assert_eq!(code, Some(0));
    let first = out.lines().nth(1).unwrap();
    assert!(first.contains("HARMAND"), "{out}");
    assert!(
        out.contains("Kévin Unger: won 2, lost 0") || out.contains("Kévin UNGER: won 2, lost 0"),
        "{out}"
    );
    // Words of the file, the event, a player.
    let (_, out, _) = lib_cmd(&lib, &["matches", "hsbt", "--format", "json"]);
    assert_eq!(json_lines(&out).len(), 1, "{out}");
    let (code, _, err) = lib_cmd(&lib, &["matches", "player:charlot"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("charlot1, charlot2"), "{err}");
}

/// Dates: a .mat's `EventDate`, else a date in the file's name (FIBS's
/// `2009Apr08`), else none; `library date` sets one; `--since` names the
/// undated matches it leaves out.
#[test]
fn dates_come_from_the_content_the_file_name_or_by_hand() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    let real = std::fs::read_to_string(fixture("mat/xg_export_hsbt_paris_7pt.mat")).unwrap();
    let undated: String = real
        .lines()
        .filter(|l| !l.contains("EventDate"))
        .map(|l| format!("{l}\n"))
        .collect();
    let named = dir.path().join("Job-Unger-2009Apr082007.mat");
    std::fs::write(&named, &undated).unwrap();
    let nameless = dir.path().join("match.mat");
    // Another match: the charlot .mat without its date.
    let charlot = std::fs::read_to_string(fixture("mat/xg_export_charlot_7pt.mat")).unwrap();
    let charlot: String = charlot
        .lines()
        .filter(|l| !l.contains("EventDate"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&nameless, charlot).unwrap();
    import(&lib, &[&named, &nameless]);
    let (_, out, _) = lib_cmd(&lib, &["matches", "--format", "json"]);
    let rows = json_lines(&out);
    let by_file = |f: &str| {
        rows.iter()
            .find(|r| r["file"].as_str().unwrap().ends_with(f))
            .unwrap()
    };
    assert_eq!(by_file("2009Apr082007.mat")["date"], "2009-04-08");
    assert_eq!(by_file("2009Apr082007.mat")["date_from"], "file name");
    let none = by_file("/match.mat");
    assert!(
        none["date"].is_null() && none["date_from"].is_null(),
        "{none}"
    );
    // `--since` counts the undated match it leaves out.
    let (code, _, err) = stats(&lib, &["--player", "charlot1", "--since", "2001-01-01"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("1 match of theirs has no date"), "{err}");
    // The list says it is undated.
    let (_, text, _) = lib_cmd(&lib, &["matches"]);
    assert!(
        text.contains("undated") && text.contains("1 match undated"),
        "{text}"
    );
    let id = none["match"].as_i64().unwrap().to_string();
    let (code, out, err) = lib_cmd(&lib, &["date", &id, "2025-11-08"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("dated 2025-11-08 (set)"), "{out}");
    let (code, _, err) = lib_cmd(&lib, &["date", &id, "2025-02-30"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("YYYY-MM-DD"), "{err}");
    let (code, _, _) = lib_cmd(&lib, &["date", "999", "2025-01-01"]);
    assert_eq!(code, Some(1));
    let (_, out, _) = lib_cmd(&lib, &["matches", "--format", "json"]);
    let rows = json_lines(&out);
    let set = rows.iter().find(|r| r["match"] == none["match"]).unwrap();
    assert_eq!(set["date"], "2025-11-08");
    assert_eq!(set["date_from"], "set");
    let (code, out, err) = stats(&lib, &["--player", "charlot1", "--since", "2025-01-01"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("2025-11-08"), "{out}");
}

/// A schema 11 library (matches with and without a date, a kept rate, the
/// claims table of version 11) is migrated to 12: a date from an undated match's file name, the dated match's
/// date marked as its content's, the rates' cache emptied to be filled
/// again over decisions, the new tables there.
#[test]
fn a_schema_11_library_is_migrated() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("old.sqlite");
    let fibs = dir.path().join("someone-root-2009Apr082007.mat");
    let real = std::fs::read_to_string(fixture("selfplay/m1_selfplay.mat")).unwrap();
    std::fs::write(
        &fibs,
        real.lines()
            .filter(|l| !l.contains("EventDate"))
            .map(|l| format!("{l}\n"))
            .collect::<String>(),
    )
    .unwrap();
    import(&lib, &[&fixture("xg/hsbt_paris_7pt.xg"), &fibs]);
    let (code, _, err) = stats(&lib, &["--player", "Job"]);
    assert_eq!(code, Some(0), "{err}");
    {
        let conn = rusqlite::Connection::open(&lib).unwrap();
        conn.execute_batch(
            "DROP TABLE aliases; DROP TRIGGER match_depths_verdict_added; DROP TABLE match_depths; \
             DROP INDEX decisions_cube_entry; ALTER TABLE decisions DROP COLUMN cube_entry_id; \
             ALTER TABLE matches DROP COLUMN date_from; \
             ALTER TABLE match_rates DROP COLUMN checker_n; \
             ALTER TABLE match_rates DROP COLUMN cube_n; \
             ALTER TABLE match_rates DROP COLUMN moves_n; \
             UPDATE matches SET date = NULL WHERE path LIKE '%2009Apr08%';",
        )
        .unwrap();
        // And version 13's themes.
        conn.execute_batch(crate::themes::DROP_ENTRY_THEMES)
            .unwrap();
        conn.execute_batch(crate::themes::DROP_DECISION_THEMES)
            .unwrap();
        // And version 14's index of `library like`.
        conn.execute_batch(crate::like::DROP_LIKE).unwrap();
        let kept: i64 = conn
            .query_row("SELECT count(*) FROM match_rates", [], |r| r.get(0))
            .unwrap();
        assert_eq!(kept, 2, "the XG match's rates were kept");
        conn.pragma_update(None, "user_version", 11).unwrap();
    }
    let opened = Library::open(&lib).unwrap();
    assert_eq!(opened.schema_version().unwrap(), schema::LATEST);
    assert_eq!(opened.integrity_check().unwrap(), "ok");
    let listed = opened.listed_matches().unwrap();
    let fibs_match = listed
        .iter()
        .find(|l| l.m.path.contains("2009Apr08"))
        .unwrap();
    assert_eq!(fibs_match.m.date.as_deref(), Some("2009-04-08"));
    assert_eq!(
        fibs_match.m.date_from,
        Some(bgedit_library::dates::DateFrom::FileName)
    );
    let xg = listed.iter().find(|l| l.m.path.contains("hsbt")).unwrap();
    assert_eq!(
        xg.m.date_from,
        Some(bgedit_library::dates::DateFrom::Content)
    );
    assert!(xg.rates.is_none(), "the cache is emptied");
    // The file's analyses are listed from the verdicts already there.
    assert!(
        xg.analyses.iter().any(|a| a.0 == "XG" && a.2),
        "{:?}",
        xg.analyses
    );
    drop(opened);
    // Version 11's own table and columns are kept as they were.
    let conn = rusqlite::Connection::open(&lib).unwrap();
    let claims: i64 = conn
        .query_row("SELECT count(*) FROM analysis_claims", [], |r| r.get(0))
        .unwrap();
    assert_eq!(claims, 0);
    conn.query_row(
        "SELECT count(partial_engine), count(checker_n) FROM match_rates",
        [],
        |_| Ok(()),
    )
    .unwrap();
    drop(conn);
    let (code, out, err) = stats(&lib, &["--player", "Job", "--format", "json"]);
    assert_eq!(code, Some(0), "{err}");
    let rows = json_lines(&out);
    let summary = &rows.last().unwrap()["summary"];
    assert!(summary["decisions"].as_u64().unwrap() > 0, "{summary}");
}

/// A real file with moves gnubg skips or mends is imported, said so, and
/// exits 0: "imported with 2 moves skipped", not "failed"; one file is
/// "1 file", one match "1 new match".
#[test]
fn moves_skipped_as_gnubg_skips_them_are_no_failure() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    let file = fixture("xg/aachen_squire_harmand_7pt.xg");
    let (code, out, err) = lib_cmd(&lib, &["import", file.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(
        out.contains("0 failed, imported with 2 moves skipped as gnubg skips them; new match 1"),
        "{out}"
    );
    assert!(
        err.contains("X's move is not legal for 43; applied as gnubg does"),
        "{err}"
    );
    assert!(
        err.contains(
            "imported 1 file: 1 new match, 0 already there, 358 positions added, 1 file imported \
             with 2 moves skipped as gnubg skips them, 0 failed"
        ),
        "{err}"
    );
}

/// A file's candidates as `library show` gives them: ranked by equity,
/// best first, each line with its depth in players' words (XG ranks a
/// Roller++ move above a 3-ply one of higher equity: the list was `1.
/// +0.706, 2. +0.358, 3. +0.444`), differences from the best, and `0.000`,
/// never `-0.000`.
#[test]
fn a_files_candidates_are_in_equity_order_with_each_ones_depth() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    import(&lib, &[&fixture("xg/hsbt_paris_7pt.xg")]);
    let conn = rusqlite::Connection::open(&lib).unwrap();
    let texts: Vec<String> = conn
        .prepare("SELECT analysis FROM entries WHERE analysis LIKE ' 1. %'")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    assert!(texts.len() > 100, "{}", texts.len());
    let mut mixed = 0;
    for text in &texts {
        assert!(!text.contains("-0.000"), "{text}");
        let mut equities = Vec::new();
        let mut depths = std::collections::BTreeSet::new();
        for line in text.lines() {
            // ` 2. 13/8 6/4   +0.171 (-0.017)  XG Roller++`
            let depth = line.rsplit("  ").next().unwrap().trim();
            assert!(depth.starts_with("XG"), "a depth on each line: {text}");
            assert!(!depth.contains("100"), "no XG level code: {text}");
            depths.insert(depth.to_owned());
            let equity = line
                .split_whitespace()
                .find(|w| w.starts_with('+') || w.starts_with('-') || *w == "0.000")
                .and_then(|w| w.parse::<f64>().ok())
                .unwrap_or_else(|| panic!("an equity on each line: {line}"));
            equities.push(equity);
        }
        assert!(
            equities.windows(2).all(|w| w[0] >= w[1]),
            "best first: {text}"
        );
        if depths.len() > 1 {
            mixed += 1;
        }
    }
    assert!(mixed > 0, "some decisions rank moves of several depths");
}
