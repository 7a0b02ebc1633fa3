//! Matches in the library (schema 8): a match kept whole once per content
//! hash, its games and decisions linked to the position entries, the file's
//! own verdicts at their engine and depth, and `library import` of
//! directories.

use crate::common;

use bgedit_core::codec::{IdFormat, parse_any, to_string_as};
use bgedit_core::domain::Position;
use bgedit_library::schema;
use bgedit_library::store::{Library, Verdict};
use std::path::{Path, PathBuf};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn fixture(name: &str) -> PathBuf {
    Path::new(FIXTURES).join(name)
}

fn import(lib: &Path, files: &[&Path]) -> (Option<i32>, String, String) {
    let mut args = vec![
        "library".to_owned(),
        "--library".to_owned(),
        lib.display().to_string(),
        "import".to_owned(),
    ];
    args.extend(files.iter().map(|f| f.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = common::run::bgedit(&args, "");
    (
        out.status.code(),
        common::run::text(&out.stdout),
        common::run::text(&out.stderr),
    )
}

fn count(lib: &Path, sql: &str) -> i64 {
    rusqlite::Connection::open(lib)
        .unwrap()
        .query_row(sql, [], |r| r.get(0))
        .unwrap()
}

/// A library as schema 7 (the release before matches) left it, holding a
/// match's decisions as entries, is migrated: the entries stay, the match
/// tables are there and empty, and the match imported again is kept as a
/// match whose decisions link to those entries, merged rather than doubled.
/// The schema-7 file is made by today's store (so its full-text index is
/// as the store writes it), then the match tables dropped and the version
/// set back, which is schema 7 exactly (version 8 only adds those tables:
/// matches, games, decisions, analyses, match_luck; version 9 nothing;
/// version 10 disagreements; version 11 analysis_claims; version 12
/// aliases and match_depths; version 13 the entries' and decisions'
/// themes).
#[test]
fn a_schema_7_library_is_migrated_and_its_entries_are_linked() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("old.sqlite");
    let sgf = fixture("selfplay/m5_driven.sgf");
    let (code, _, err) = import(&lib, &[&sgf]);
    assert_eq!(code, Some(0), "{err}");
    {
        let conn = rusqlite::Connection::open(&lib).unwrap();
        conn.execute_batch(
            "DROP TABLE aliases; DROP TABLE match_depths; DROP TABLE analysis_claims; \
             DROP TABLE disagreements; DROP TABLE match_rates; DROP TABLE game_luck; \
             DROP TABLE match_luck; DROP TABLE analyses; DROP TABLE decisions; DROP TABLE games; \
             DROP TABLE matches; \
             DROP INDEX entries_like; ALTER TABLE entries DROP COLUMN like_shape; \
             ALTER TABLE entries DROP COLUMN like_kind; ALTER TABLE entries DROP COLUMN like_cell;",
        )
        .unwrap();
        conn.execute_batch(crate::themes::DROP_ENTRY_THEMES)
            .unwrap();
        conn.pragma_update(None, "user_version", 7).unwrap();
        conn.execute("UPDATE entries SET title = 'kept' WHERE id = 1", [])
            .unwrap();
    }
    let entries = count(&lib, "SELECT count(*) FROM entries");
    let opened = Library::open(&lib).unwrap();
    assert_eq!(opened.schema_version().unwrap(), schema::LATEST);
    assert_eq!(opened.get(1).unwrap().title, "kept");
    assert!(opened.matches().unwrap().is_empty());
    assert_eq!(opened.integrity_check().unwrap(), "ok");
    drop(opened);

    let (code, out, err) = import(&lib, &[&sgf]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("0 added, 98 already there (merged), 0 failed; new match 1: 98 decisions"),
        "{out}"
    );
    let opened = Library::open(&lib).unwrap();
    let linked = opened.decision_entries(1).unwrap();
    assert_eq!(linked.len(), 98);
    assert_eq!(linked[0], Some(1));
    assert!(linked.iter().all(Option::is_some));
    assert_eq!(opened.get(1).unwrap().title, "kept");
    assert_eq!(count(&lib, "SELECT count(*) FROM entries"), entries);
    assert_eq!(
        count(&lib, "SELECT count(DISTINCT entry_id) FROM decisions"),
        entries
    );
}

/// The same file imported twice is one match (by its content hash), even
/// under another name; the header, games and result are kept as the file
/// says them, and the file's own verdicts with their engine and depth.
#[test]
fn the_same_match_imported_twice_is_one_match_with_the_files_analysis() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    let xg = fixture("xg/hsbt_paris_7pt.xg");
    let copy = dir.path().join("renamed.xg");
    std::fs::copy(&xg, &copy).unwrap();
    let (code, out, _) = import(&lib, &[&xg]);
    assert_eq!(code, Some(0));
    assert!(out.contains("new match 1: 351 decisions"), "{out}");
    let (code, out, err) = import(&lib, &[&copy]);
    assert_eq!(code, Some(0));
    assert!(
        out.contains("already there (the same file as match 1): 0 added"),
        "{out}"
    );
    assert!(err.contains("0 new matches, 1 already there"), "{err}");
    let opened = Library::open(&lib).unwrap();
    let matches = opened.matches().unwrap();
    assert_eq!(matches.len(), 1);
    let m = &matches[0];
    assert_eq!(
        m.players,
        ["Kévin Unger".to_owned(), "Maxence Job".to_owned()]
    );
    assert_eq!(
        (m.event.as_deref(), m.date.as_deref(), m.length),
        (Some("HSBT Paris 2023"), Some("2023-11-26"), 7)
    );
    assert_eq!((m.format.as_str(), m.decisions), ("XG match", 351));
    // The result adds up the games the file records, and one side has 7.
    let won: Vec<u32> = m.result.split('-').map(|n| n.parse().unwrap()).collect();
    assert!(won.iter().any(|&w| w >= 7), "{}", m.result);
    assert_eq!(
        count(&lib, "SELECT count(*) FROM games"),
        count(&lib, "SELECT count(DISTINCT game) FROM decisions")
    );
    // XG's verdicts at XG's depths: every one from the file, with an error.
    let verdicts = opened.verdicts(1).unwrap();
    assert_eq!(verdicts.len(), 311);
    assert!(verdicts.iter().all(|v| v.verdict.from_file));
    assert!(verdicts.iter().all(|v| v.verdict.engine == "XG"));
    assert!(verdicts.iter().any(|v| v.verdict.plies == 4));
    assert!(verdicts.iter().any(|v| v.verdict.plies >= 1000));
}

/// A verdict is kept by its engine and depth: a shallower one is stored
/// beside a deeper one (never in its place), the same engine and depth
/// again is ignored unless asked to replace, and the deepest comes first.
#[test]
fn a_shallower_verdict_never_replaces_a_deeper_one() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    let (code, _, err) = import(&lib, &[&fixture("selfplay/m5_driven.sgf")]);
    assert_eq!(code, Some(0), "{err}");
    let mut opened = Library::open(&lib).unwrap();
    let from_file = opened.verdicts(1).unwrap();
    let first = &from_file[0];
    assert_eq!(
        (first.verdict.engine.as_str(), first.verdict.plies),
        ("gnubg", 0)
    );
    let seq = 0;
    let verdict = |plies: i64, error: f64| Verdict {
        engine: "gnubg".to_owned(),
        plies,
        depth: format!("gnubg {plies}-ply"),
        from_file: false,
        error: Some(error),
        text: "ranked".to_owned(),
    };
    assert_eq!(
        opened
            .put_verdicts(1, &[(seq, verdict(2, 0.125))], false)
            .unwrap(),
        1
    );
    // bgedit's own 0-ply is kept beside the file's 0-ply, not in its place.
    assert_eq!(
        opened
            .put_verdicts(1, &[(seq, verdict(0, 0.25))], false)
            .unwrap(),
        1
    );
    // The same engine and depth again: not written over unless asked.
    assert_eq!(
        opened
            .put_verdicts(1, &[(seq, verdict(0, 0.5))], false)
            .unwrap(),
        0
    );
    let of_first = |lib: &Library| -> Vec<Verdict> {
        lib.verdicts(1)
            .unwrap()
            .into_iter()
            .filter(|v| (v.game, v.number) == (first.game, first.number))
            .map(|v| v.verdict)
            .collect()
    };
    let now = of_first(&opened);
    assert_eq!(now.len(), 3);
    assert_eq!((now[0].plies, now[0].error), (2, Some(0.125)));
    assert_eq!((now[1].plies, now[1].error), (0, Some(0.25)));
    assert_eq!(now[2], first.verdict, "the file's verdict kept");
    assert_eq!(
        opened
            .put_verdicts(1, &[(seq, verdict(0, 0.5))], true)
            .unwrap(),
        1
    );
    let replaced = of_first(&opened);
    assert_eq!(replaced[1].error, Some(0.5));
    assert_eq!(replaced[2], first.verdict);
    // A decision the match does not have is refused by number.
    let e = opened
        .put_verdicts(1, &[(9999, verdict(2, 0.0))], false)
        .unwrap_err();
    assert_eq!(e.to_string(), "match 1 has no decision 9999");
}

/// `library import DIR` reads the directory recursively and imports every
/// match file in it by content (whatever its name); files holding no match
/// are passed over, a damaged match file is named and skipped while the
/// rest goes on, the exit status is 1 at the end, and a summary closes it.
#[test]
fn a_directory_is_imported_recursively_and_a_damaged_file_is_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    let root = dir.path().join("matches");
    std::fs::create_dir_all(root.join("a/b")).unwrap();
    std::fs::copy(fixture("selfplay/m5_driven.sgf"), root.join("one.txt")).unwrap();
    std::fs::copy(
        fixture("mat/selfplay_3pt_seed23.mat"),
        root.join("a/b/three"),
    )
    .unwrap();
    std::fs::copy(fixture("xg/charlot_7pt.xg"), root.join("a/charlot.xg")).unwrap();
    let sgf = std::fs::read(fixture("selfplay/m5_driven.sgf")).unwrap();
    std::fs::write(root.join("a/broken.sgf"), &sgf[..300]).unwrap();
    std::fs::write(root.join("notes.md"), "not a match\n").unwrap();
    let (code, out, err) = import(&lib, &[&root]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(
        err.contains("a/broken.sgf: SGF: game 1: property GS:") && err.contains("; skipped"),
        "{err}"
    );
    for name in ["one.txt", "a/b/three", "a/charlot.xg"] {
        let line = out
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("{name}: {out}"));
        assert!(line.contains("; new match "), "{line}");
    }
    assert!(!out.contains("notes.md") && !err.contains("notes.md"));
    assert!(
        err.contains(
            "imported 4 files: 3 new matches, 0 already there, 357 positions added, 1 failed, \
             1 without a match passed over"
        ),
        "{err}"
    );
    assert_eq!(count(&lib, "SELECT count(*) FROM matches"), 3);
    // Again: every match already there, nothing doubled.
    let (_, out, _) = import(&lib, &[&root]);
    assert_eq!(
        out.matches("already there (the same file as match").count(),
        3
    );
    assert_eq!(count(&lib, "SELECT count(*) FROM decisions"), 356);
}

/// Positions typed in are not matches: the match tables stay empty.
#[test]
fn ids_imported_make_no_match() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    let ids = dir.path().join("ids.txt");
    let p = parse_any("4HPwATDgc/ABMA:cAkAAAAAAAAA", &Position::default()).unwrap();
    std::fs::write(&ids, to_string_as(&p.position, IdFormat::Xgid)).unwrap();
    let (code, out, _) = import(&lib, &[&ids]);
    assert_eq!(code, Some(0));
    assert!(out.ends_with(": 1 added, 0 already there (merged), 0 failed\n"));
    assert_eq!(count(&lib, "SELECT count(*) FROM matches"), 0);
}

/// The same gnubg self-play match as `.mat` and as `.sgf` (and XG's match
/// with XG's own `.mat` export of it) is one match: the second file is
/// "already there (the same match as match N, from FILE)", whichever
/// comes first, while the same file twice is still "the same file".
#[test]
fn the_same_match_in_another_format_is_one_match() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    let mat = fixture("selfplay/m5_selfplay.mat");
    let sgf = fixture("selfplay/m5_selfplay.sgf");
    let (code, out, err) = import(&lib, &[&sgf, &mat, &mat]);
    assert_eq!(code, Some(0), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].contains("new match 1"), "{out}");
    assert_eq!(
        lines[1],
        format!(
            "{}: already there (the same match as match 1, from {}): 0 added, 0 failed",
            mat.display(),
            sgf.display()
        )
    );
    assert!(lines[2].contains("(the same match as match 1"), "{out}");
    let xg = fixture("xg/charlot_7pt.xg");
    let xg_mat = fixture("mat/xg_export_charlot_7pt.mat");
    let (code, out, err) = import(&lib, &[&xg_mat, &xg, &xg_mat]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("new match 2"), "{out}");
    assert!(out.contains("(the same match as match 2, from"), "{out}");
    assert!(out.contains("(the same file as match 2)"), "{out}");
    assert_eq!(count(&lib, "SELECT count(*) FROM matches"), 2);
    // A match is its plays: another match has another identity.
    let other = fixture("selfplay/m5_driven.mat");
    let (_, out, _) = import(&lib, &[&other]);
    assert!(out.contains("new match 3"), "{out}");
    // A match stored before schema 9 has no identity until its kept file
    // is read again, which the next import does before comparing.
    let old = dir.path().join("old.sqlite");
    let (code, _, err) = import(&old, &[&sgf]);
    assert_eq!(code, Some(0), "{err}");
    rusqlite::Connection::open(&old)
        .unwrap()
        .execute("UPDATE matches SET identity = NULL", [])
        .unwrap();
    let (code, out, err) = import(&old, &[&mat]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("(the same match as match 1, from"), "{out}");
}

/// A match already there from its `.mat` (no analysis) takes the analysis
/// of its analysed `.sgf` imported later: the same verdicts as the `.sgf`
/// imported alone, on the same plays, and the match's entries take their
/// errors from them.
#[test]
fn the_analysis_of_the_same_match_from_another_file_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (both, alone) = (
        dir.path().join("both.sqlite"),
        dir.path().join("alone.sqlite"),
    );
    let mat = fixture("analysis/m7_noisy.mat");
    let sgf = fixture("analysis/m7_noisy.sgf");
    let (code, _, err) = import(&both, &[&mat]);
    assert_eq!(code, Some(0), "{err}");
    let judged = "SELECT count(*) FROM entries WHERE error IS NOT NULL";
    assert_eq!(count(&both, judged), 0, "a .mat carries no analysis");
    let (code, out, err) = import(&both, &[&sgf]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.ends_with("0 added, 0 failed; the file's analysis of 163 decisions added to it\n"),
        "{out}"
    );
    let (code, _, err) = import(&alone, &[&sgf]);
    assert_eq!(code, Some(0), "{err}");
    // Each verdict by the play it is on (the n-th play of the match).
    let verdicts = |lib: &Path| -> Vec<String> {
        let conn = rusqlite::Connection::open(lib).unwrap();
        let mut st = conn
            .prepare(
                "SELECT d.game, d.number, d.kind, d.played, a.engine, a.plies, a.from_file, \
                 printf('%.6f', a.error), a.analysis FROM analyses a \
                 JOIN decisions d ON d.id = a.decision_id ORDER BY d.seq",
            )
            .unwrap();
        st.query_map([], |r| {
            Ok((0..9)
                .map(|i| {
                    r.get::<_, rusqlite::types::Value>(i)
                        .map(|v| format!("{v:?}"))
                })
                .collect::<rusqlite::Result<Vec<_>>>()?
                .join(" "))
        })
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap()
    };
    let expected = verdicts(&alone);
    assert_eq!(expected.len(), 163);
    assert_eq!(verdicts(&both), expected);
    assert_eq!(count(&both, judged), count(&alone, judged));
    assert!(count(&both, judged) > 0);
    // Imported again, it adds nothing more.
    let (_, out, _) = import(&both, &[&sgf]);
    assert!(out.ends_with("): 0 added, 0 failed\n"), "{out}");
}

/// `stats --player` on an XG match imported and not analysed by bgedit
/// gives the rates the file's own analysis can give as gnubg would (the
/// checker rate: error per unforced move, every one judged by XG), names
/// XG and the depth most of its verdicts have, and leaves the rest null
/// (no cube decision before a roll, no luck in the file's verdicts): the
/// numbers computed here from the stored verdicts.
#[test]
fn stats_player_reads_the_files_own_analysis() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    let (code, _, err) = import(&lib, &[&fixture("xg/hsbt_paris_7pt.xg")]);
    assert_eq!(code, Some(0), "{err}");
    let conn = rusqlite::Connection::open(&lib).unwrap();
    let (o, x): (String, String) = conn
        .query_row("SELECT player_o, player_x FROM matches", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    let plies: i64 = conn
        .query_row(
            "SELECT plies FROM analyses WHERE from_file GROUP BY engine, plies \
             ORDER BY count(*) DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    for (player, side, opponent) in [(&o, "O", &x), (&x, "X", &o)] {
        let mut st = conn
            .prepare(
                "SELECT d.gnubg_id, a.error FROM decisions d LEFT JOIN analyses a \
                 ON a.decision_id = d.id AND a.from_file \
                 WHERE d.kind = 'checker' AND d.player = ?1 ORDER BY d.seq",
            )
            .unwrap();
        let rows: Vec<(String, Option<f64>)> = st
            .query_map([side], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        let unforced: Vec<f64> = rows
            .iter()
            .filter(|(id, _)| {
                let p = parse_any(id, &Position::default()).unwrap().position;
                bgedit_core::domain::moves::position_moves(&p).is_ok_and(|m| m.len() > 1)
            })
            .map(|(_, e)| e.expect("XG judged every unforced move"))
            .collect();
        let expected = 1000.0 * unforced.iter().sum::<f64>() / unforced.len() as f64;
        let out = common::run::bgedit(
            &[
                "stats",
                "--player",
                player,
                "--library",
                lib.to_str().unwrap(),
                "--format",
                "json",
            ],
            "",
        );
        assert!(out.status.success(), "{}", common::run::text(&out.stderr));
        let text = common::run::text(&out.stdout);
        let row: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
        assert_eq!(row["engine"], "XG", "{row}");
        assert_eq!(row["plies"], plies, "{row}");
        assert_eq!(row["from_file"], true, "{row}");
        assert_eq!(&row["opponent"], opponent.as_str(), "{row}");
        let got = row["checker_error_rate_memg"].as_f64().unwrap();
        assert!((got - expected).abs() < 1e-5, "{got} {expected}");
        for null in [
            "pr",
            "error_rate_memg",
            "cube_error_rate_memg",
            "luck_rate_memg",
        ] {
            assert!(row[null].is_null(), "{null}: {row}");
        }
        let summary: serde_json::Value =
            serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
        assert_eq!(summary["summary"]["analysed"], 1, "{summary}");
    }
    // The rates are kept, and a new verdict on the match empties them.
    assert_eq!(count(&lib, "SELECT count(*) FROM match_rates"), 2);
    let mut l = Library::open(&lib).unwrap();
    let v = Verdict {
        engine: "gnubg".into(),
        plies: 0,
        depth: "gnubg 0-ply".into(),
        from_file: false,
        error: Some(0.0),
        text: "[]".into(),
    };
    l.put_verdicts(1, &[(0, v)], false).unwrap();
    drop(l);
    assert_eq!(count(&lib, "SELECT count(*) FROM match_rates"), 0);
}

/// `stats --player` on a match whose analysis by bgedit stopped part way
/// (here one decision of the XG match judged by gnubg, as a run killed
/// early leaves it): the part's numbers are not given as the match's. The
/// row keeps the file's own analysis (XG's), says how much bgedit judged,
/// and a line names the match as partly analysed; with no other analysis
/// the row has none.
#[test]
fn stats_player_says_a_match_is_partly_analysed() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    let (code, _, err) = import(&lib, &[&fixture("xg/hsbt_paris_7pt.xg")]);
    assert_eq!(code, Some(0), "{err}");
    let decisions = count(&lib, "SELECT count(*) FROM decisions");
    let player: String = rusqlite::Connection::open(&lib)
        .unwrap()
        .query_row("SELECT player_o FROM matches", [], |r| r.get(0))
        .unwrap();
    let stats = |format: &str| {
        let out = common::run::bgedit(
            &[
                "stats",
                "--player",
                &player,
                "--library",
                lib.to_str().unwrap(),
                "--format",
                format,
            ],
            "",
        );
        assert!(out.status.success(), "{}", common::run::text(&out.stderr));
        common::run::text(&out.stdout)
    };
    let whole = stats("json");
    let mut l = Library::open(&lib).unwrap();
    let v = Verdict {
        engine: "gnubg".into(),
        plies: 0,
        depth: "gnubg 0-ply".into(),
        from_file: false,
        error: Some(0.0),
        text: "[]".into(),
    };
    l.put_verdicts(1, &[(0, v)], false).unwrap();
    drop(l);
    let json = stats("json");
    let row: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    let before: serde_json::Value = serde_json::from_str(whole.lines().next().unwrap()).unwrap();
    assert_eq!(row["engine"], "XG", "{row}");
    assert_eq!(row["from_file"], true, "{row}");
    assert_eq!(
        row["checker_error_rate_memg"], before["checker_error_rate_memg"],
        "{row}"
    );
    assert_eq!(row["partial"]["engine"], "gnubg", "{row}");
    assert_eq!(row["partial"]["plies"], 0, "{row}");
    assert_eq!(row["partial"]["decisions_judged"], 1, "{row}");
    assert_eq!(row["partial"]["decisions"], decisions, "{row}");
    let summary: serde_json::Value = serde_json::from_str(json.lines().nth(1).unwrap()).unwrap();
    assert_eq!(summary["summary"]["partly_analysed"], 1, "{summary}");
    let text = stats("text");
    let said = format!("partly analysed (gnubg 0-ply judged 1 of {decisions} decisions)");
    assert!(text.contains(&said), "{text}");
    // Without the file's own analysis, the part gives no rates at all.
    rusqlite::Connection::open(&lib)
        .unwrap()
        .execute_batch("DELETE FROM analyses WHERE from_file; DELETE FROM match_rates;")
        .unwrap();
    let json = stats("json");
    let row: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert!(row["engine"].is_null() && row["pr"].is_null(), "{row}");
    assert_eq!(row["partial"]["decisions_judged"], 1, "{row}");
    assert!(
        stats("text").contains(&format!(" part 1/{decisions} ")),
        "{}",
        stats("text")
    );
}

/// A command that reads a library, given a path where there is none (a
/// mistyped one), says so and makes none: `stats --player`, `library
/// list`, `search`, `show`, `export`, `analyse`, `quiz --stats`. Adding to
/// a library still makes it.
#[test]
fn a_library_that_is_not_there_is_refused_by_reading_commands() {
    let dir = tempfile::tempdir().unwrap();
    let typo = dir.path().join("TYPO/lib.sqlite");
    let path = typo.to_str().unwrap();
    let runs: [Vec<&str>; 7] = [
        vec!["stats", "--player", "alice", "--library", path],
        vec!["library", "--library", path, "list"],
        vec!["library", "--library", path, "search", "tag:x"],
        vec!["library", "--library", path, "show", "1"],
        vec!["library", "--library", path, "export"],
        vec!["library", "--library", path, "analyse", "--plies", "0"],
        vec!["quiz", "--stats", "--library", path],
    ];
    for args in runs {
        let out = common::run::bgedit(&args, "");
        let err = common::run::text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(&format!("there is no library at {path}")),
            "{args:?}: {err}"
        );
        assert!(
            !typo.exists() && !dir.path().join("TYPO").exists(),
            "{args:?}"
        );
    }
    let out = common::run::bgedit(
        &[
            "library",
            "--library",
            path,
            "add",
            "4HPwATDgc/ABMA:cAkAAAAAAAAA",
        ],
        "",
    );
    assert!(out.status.success(), "{}", common::run::text(&out.stderr));
    assert!(typo.exists());
}
