//! `library disagreements` with the real binary and this machine's engines:
//! its list is what each engine says of each position in the same run
//! (asked directly through bgedit's engine interface), a run killed with
//! SIGKILL and run again equals one uninterrupted run, the filter word
//! `disagree>=` (the deepest comparison), the collection, another depth
//! kept apart, a schema-8
//! library migrated, and bad arguments named.

use crate::common;
use crate::common::run::library;

use bgedit_engine::{Analysis, EngineKind, Request, StartRecord};
use bgedit_library::schema;
use bgedit_library::store::{Compared, Library};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// `count` varied positions (the analysis benchmarks' generator, fixed
/// seed: moves to play and cube decisions, money and match).
fn positions(count: usize) -> Vec<String> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/gen_positions.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(count.to_string())
        .output()
        .unwrap();
    assert!(out.status.success());
    common::run::text(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

/// A library holding `ids`, entry N the N-th.
fn filled(dir: &Path, name: &str, ids: &[String]) -> PathBuf {
    let lib = dir.join(name);
    let mut args = vec!["add"];
    args.extend(ids.iter().map(String::as_str));
    let (code, _, err) = library(&lib, &args);
    assert_eq!(code, Some(0), "{err}");
    lib
}

/// Both engines' programs (the tests that ask are marked as needing both).
fn engines() -> [PathBuf; 2] {
    [common::gnubg(), common::sage_python()]
}

/// The stored comparisons, one line each: entry, engines, depth, decision,
/// picks and gaps (6 decimals).
fn table(lib: &Path) -> Vec<String> {
    let conn = rusqlite::Connection::open(lib).unwrap();
    let mut st = conn
        .prepare(
            "SELECT entry_id, engines, plies, decision, pick_a, pick_b, printf('%.6f', gap_a), \
             printf('%.6f', gap_b), printf('%.6f', gap) FROM disagreements \
             ORDER BY entry_id, engines, plies",
        )
        .unwrap();
    st.query_map([], |r| {
        let mut cols = Vec::new();
        for i in 0..9 {
            cols.push(match r.get_ref(i)? {
                rusqlite::types::ValueRef::Integer(n) => n.to_string(),
                rusqlite::types::ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned(),
                _ => "NULL".to_owned(),
            });
        }
        Ok(cols.join(" | "))
    })
    .unwrap()
    .collect::<rusqlite::Result<_>>()
    .unwrap()
}

fn count(lib: &Path, sql: &str) -> i64 {
    rusqlite::Connection::open(lib)
        .unwrap()
        .query_row(sql, [], |r| r.get(0))
        .unwrap()
}

/// An engine's pick as a player acts on it: the best move, the cube action
/// (a beaver is a take: `ND/B` is ND, `D/B` D/T), take or pass.
fn pick_of(a: &Analysis) -> Option<String> {
    match a {
        Analysis::Moves { moves, .. } => moves.first().map(|m| m.notation.clone()),
        Analysis::Cube { action, .. } => {
            let short = bgedit_engine::matrix::short_action(action);
            Some(short.replace("ND/B", "ND").replace("D/B", "D/T"))
        }
        Analysis::Take { proper, .. } => Some(proper.clone()),
        _ => None,
    }
}

/// What `other` (a move) costs by the list `a`: its best's equity minus
/// the other's.
fn move_cost(a: &Analysis, other: &str) -> Option<f64> {
    let Analysis::Moves { moves, .. } = a else {
        return None;
    };
    let best = moves.first()?.equity;
    moves
        .iter()
        .find(|m| m.notation == other)
        .map(|m| best - m.equity)
}

/// The list with `--min 0` holds every position both engines rank, worst
/// first; each one's picks are the engines' own best choices, asked
/// directly through the engine interface in the same run, and each gap
/// what the other's move costs by that engine's list. `disagree>=` finds
/// the same entries, and `--collection` puts the listed ones in it.
#[test]
#[cfg_attr(
    not(all(bgedit_has_gnubg, bgedit_has_sage)),
    ignore = "needs gnubg and Open Sage"
)]
fn the_list_is_what_each_engine_says() {
    let programs = engines();
    let dir = tempfile::tempdir().unwrap();
    let ids = positions(16);
    let lib = filled(dir.path(), "lib.sqlite", &ids);
    let (code, out, err) = library(
        &lib,
        &[
            "disagreements",
            "--min",
            "0",
            "--format",
            "json",
            "--jobs",
            "2",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains("compared 16 positions (gnubg 0-ply, Sage 1-ply)"),
        "{err}"
    );
    let listed: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();

    let mut open = [EngineKind::Gnubg, EngineKind::Sage]
        .into_iter()
        .zip(programs)
        .map(|(k, p)| k.open(p, StartRecord::default()))
        .collect::<Vec<_>>();
    let mut ranked = 0;
    for (n, id) in ids.iter().enumerate() {
        let position = bgedit_core::codec::parse_any(id, &Default::default())
            .unwrap()
            .position;
        let req = Request {
            id: n as u64 + 1,
            position,
            plies: 0,
            moves: 0,
        };
        let answers: Vec<Analysis> = open
            .iter_mut()
            .map(|e| e.analyse(&req, Duration::from_secs(60)).unwrap())
            .collect();
        let picks: Vec<Option<String>> = answers.iter().map(pick_of).collect();
        let entry = n as i64 + 1;
        let row = listed.iter().find(|v| v["entry"] == entry);
        let (Some(g), Some(s)) = (&picks[0], &picks[1]) else {
            assert!(row.is_none(), "{id}: nothing ranked, yet listed: {row:?}");
            continue;
        };
        ranked += 1;
        let row = row.unwrap_or_else(|| panic!("{id} not listed"));
        assert_eq!(row["gnubg_id"], id.as_str());
        assert_eq!(row["gnubg"]["pick"], g.as_str(), "{id}");
        assert_eq!(row["sage"]["pick"], s.as_str(), "{id}");
        let gaps = [
            &row["gnubg"]["other_pick_costs"],
            &row["sage"]["other_pick_costs"],
        ];
        if g == s {
            assert_eq!(gaps, [&Value::from(0.0), &Value::from(0.0)], "{id}");
        } else if row["decision"] == "move" {
            for (i, other) in [(0, s), (1, g)] {
                let want = move_cost(&answers[i], other).unwrap();
                let got = gaps[i].as_f64().unwrap();
                assert!((got - want).abs() < 1e-9, "{id}: {got} vs {want}");
            }
        } else {
            let d = bgedit_engine::compare::compare(&answers[0], &answers[1]).unwrap();
            assert_eq!(gaps[0].as_f64(), d.gnubg_gap, "{id}");
            assert_eq!(gaps[1].as_f64(), d.sage_gap, "{id}");
        }
        let worst = gaps.iter().filter_map(|g| g.as_f64()).fold(0.0, f64::max);
        assert!((row["gap"].as_f64().unwrap() - worst).abs() < 1e-12, "{id}");
    }
    assert_eq!(listed.len(), ranked, "every ranked position, once");
    assert!(ranked >= 10, "mostly ranked positions: {ranked}");
    let gaps: Vec<f64> = listed.iter().map(|v| v["gap"].as_f64().unwrap()).collect();
    assert!(
        gaps.windows(2).all(|w| w[0] >= w[1]),
        "worst first: {gaps:?}"
    );

    // The filter word and the collection select the same entries as the
    // list at that gap; nothing is evaluated again.
    let min = 0.05;
    let apart: BTreeSet<i64> = listed
        .iter()
        .filter(|v| v["gap"].as_f64().unwrap() >= min)
        .map(|v| v["entry"].as_i64().unwrap())
        .collect();
    assert!(!apart.is_empty() && apart.len() < ranked, "{gaps:?}");
    let (code, out, err) = library(&lib, &["disagreements", "--collection", "apart"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.starts_with("compared 0 positions"), "{err}");
    assert!(err.contains("16 compared before"), "{err}");
    assert_eq!(out.lines().count(), apart.len(), "{out}");
    let found = |query: &str| -> BTreeSet<i64> {
        let (code, out, err) = library(&lib, &["search", "--format", "json", query]);
        assert_eq!(code, Some(0), "{err}");
        out.lines()
            .map(|l| {
                serde_json::from_str::<Value>(l).unwrap()["id"]
                    .as_i64()
                    .unwrap()
            })
            .collect()
    };
    assert_eq!(found("disagree>=0.05"), apart);
    assert_eq!(found("col:apart"), apart);
    // Negated: the compared entries below the gap, not those never
    // compared or with nothing to compare.
    let below: BTreeSet<i64> = listed
        .iter()
        .map(|v| v["entry"].as_i64().unwrap())
        .filter(|e| !apart.contains(e))
        .collect();
    assert_eq!(found("!disagree>=0.05"), below);
}

/// Another depth is another comparison, kept beside the first; the filter
/// word reads the deepest.
#[test]
#[cfg_attr(
    not(all(bgedit_has_gnubg, bgedit_has_sage)),
    ignore = "needs gnubg and Open Sage"
)]
fn another_depth_is_kept_apart() {
    engines();
    let dir = tempfile::tempdir().unwrap();
    let ids = positions(3);
    let lib = filled(dir.path(), "lib.sqlite", &ids);
    let (code, _, err) = library(&lib, &["add", "--tag", "deep", &ids[0]]);
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = library(&lib, &["disagreements", "--jobs", "1"]);
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = library(&lib, &["disagreements", "--plies", "1", "tag:deep"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.starts_with("compared 1 position (gnubg 1-ply, Sage 2-ply)"),
        "{err}"
    );
    let rows = table(&lib);
    assert_eq!(rows.len(), 4, "{rows:#?}");
    assert!(rows[0].starts_with("1 | gnubg,sage | 0 |"), "{rows:#?}");
    assert!(rows[1].starts_with("1 | gnubg,sage | 1 |"), "{rows:#?}");
    // The first run's comparison is kept as it was.
    let (code, _, err) = library(&lib, &["disagreements"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.starts_with("compared 0 positions"), "{err}");
    assert_eq!(table(&lib)[0], rows[0]);
}

/// The filter word reads the deepest comparison kept for an entry (the
/// largest gap of its pairs at that depth); entries never compared, or
/// with nothing to compare, match neither the word nor its negation.
#[test]
fn the_filter_word_reads_the_deepest_comparison() {
    let dir = tempfile::tempdir().unwrap();
    let lib = filled(dir.path(), "lib.sqlite", &positions(5));
    let mut opened = Library::open(&lib).unwrap();
    let row = |entry: i64, engines: &str, plies: i64, gap: Option<f64>| Compared {
        entry_id: entry,
        engines: engines.to_owned(),
        plies,
        decision: if gap.is_some() { "move" } else { "none" }.to_owned(),
        picks: ["a".to_owned(), "b".to_owned()],
        gaps: [gap, Some(0.0).filter(|_| gap.is_some())],
    };
    let rows = [
        // Apart at 0-ply, not at 1-ply: the deeper one judges.
        row(1, "gnubg,sage", 0, Some(0.2)),
        row(1, "gnubg,sage", 1, Some(0.01)),
        row(2, "gnubg,sage", 0, Some(0.1)),
        // Two pairs at one depth: the larger gap.
        row(3, "gnubg,sage", 2, Some(0.02)),
        row(3, "gnubg,other", 2, Some(0.07)),
        row(4, "gnubg,sage", 0, None),
    ];
    assert_eq!(opened.put_compared(&rows).unwrap(), 6);
    // Kept as they were when stored again.
    assert_eq!(opened.put_compared(&rows[..1]).unwrap(), 0);
    let ids = |query: &str| -> Vec<i64> {
        let q = bgedit_library::filter::parse(query).unwrap();
        let mut found = Vec::new();
        opened
            .for_each_summary(&q, Default::default(), |s| {
                found.push(s.id);
                Ok(())
            })
            .unwrap();
        found.sort();
        found
    };
    assert_eq!(ids("disagree>=0.05"), [2, 3]);
    assert_eq!(ids("!disagree>=0.05"), [1]);
    assert_eq!(ids("disagree>=0"), [1, 2, 3]);
    assert_eq!(ids("disagree<0.05"), [1]);
    assert_eq!(ids("disagree>0.05 disagree<0.08"), [3]);
    // The list reads its own pair and depth.
    let listed = opened
        .compared(&Default::default(), "gnubg,sage", 0, 0.05)
        .unwrap();
    let entries: Vec<i64> = listed.iter().map(|l| l.compared.entry_id).collect();
    assert_eq!(entries, [1, 2], "worst first");
}

/// Killed with SIGKILL part way and run again, the comparisons equal one
/// uninterrupted run (with another number of jobs): what was stored before
/// the kill is kept and not asked again, the rest is done.
#[test]
#[cfg_attr(
    not(all(bgedit_has_gnubg, bgedit_has_sage)),
    ignore = "needs gnubg and Open Sage"
)]
fn a_killed_run_goes_on_where_it_stopped() {
    engines();
    let dir = tempfile::tempdir().unwrap();
    let ids = positions(100);
    let whole = filled(dir.path(), "whole.sqlite", &ids);
    let killed = filled(dir.path(), "killed.sqlite", &ids);
    let (code, _, err) = library(&whole, &["disagreements", "--jobs", "2"]);
    assert_eq!(code, Some(0), "{err}");
    // Positions of 64-point matches past Sage's 25-point table are said,
    // never stored (two of these 100).
    let beyond = beyond_reach(&err);
    let expected = table(&whole);
    assert_eq!(expected.len(), 100 - beyond, "{err}");

    let mut child = common::run::command()
        .args(["library", "--library"])
        .arg(&killed)
        .args(["disagreements", "--jobs", "1"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let stored = "SELECT count(*) FROM disagreements";
    loop {
        let n = rusqlite::Connection::open(&killed)
            .ok()
            .and_then(|c| c.query_row(stored, [], |r| r.get::<_, i64>(0)).ok())
            .unwrap_or(0);
        if n > 0 || started.elapsed() > Duration::from_secs(60) {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let after_kill = count(&killed, stored) as usize;
    assert!(
        after_kill > 0 && after_kill < 100 - beyond,
        "{after_kill} of 100"
    );

    let (code, _, err) = library(&killed, &["disagreements", "--jobs", "1"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains(&format!("compared {} positions", 100 - beyond - after_kill)),
        "{err} ({after_kill} stored before)"
    );
    assert_eq!(beyond_reach(&err), beyond, "{err}");
    assert!(
        err.contains(&format!("{after_kill} compared before")),
        "{err}"
    );
    assert_eq!(table(&killed), expected);
}

/// How many positions a run's closing line says were beyond an engine's
/// reach (none when it does not say).
fn beyond_reach(err: &str) -> usize {
    err.split("; ")
        .find_map(|part| part.strip_suffix(" beyond an engine's reach"))
        .map_or(0, |n| n.parse().unwrap())
}

/// A library of schema 8 (before this table) is migrated: the table is
/// there, the entries untouched. Made by today's store, what versions 9
/// (match identity, game luck, kept rates), 10 (this table), 11 (the
/// analysis claims) and 13 (the themes) added dropped, and the version set
/// back.
#[test]
fn a_schema_8_library_is_migrated() {
    let dir = tempfile::tempdir().unwrap();
    let lib = filled(dir.path(), "old.sqlite", &positions(2));
    {
        let conn = rusqlite::Connection::open(&lib).unwrap();
        conn.execute_batch(
            "DROP TABLE aliases; DROP TRIGGER match_depths_verdict_added; DROP TABLE match_depths; \
             DROP INDEX decisions_cube_entry; \
             ALTER TABLE decisions DROP COLUMN cube_entry_id; \
             ALTER TABLE matches DROP COLUMN date_from; \
             DROP TABLE analysis_claims; DROP TABLE disagreements; \
             DROP TRIGGER match_rates_verdict_added; \
             DROP TRIGGER match_rates_verdict_changed; DROP TRIGGER match_rates_verdict_removed; \
             DROP TRIGGER match_rates_luck_added; DROP TABLE match_rates; DROP TABLE game_luck; \
             DROP INDEX matches_identity; ALTER TABLE matches DROP COLUMN identity; \
             DROP INDEX entries_like; ALTER TABLE entries DROP COLUMN like_shape; \
             ALTER TABLE entries DROP COLUMN like_kind; ALTER TABLE entries DROP COLUMN like_cell;",
        )
        .unwrap();
        conn.execute_batch(crate::themes::DROP_ENTRY_THEMES)
            .unwrap();
        conn.execute_batch(crate::themes::DROP_DECISION_THEMES)
            .unwrap();
        conn.pragma_update(None, "user_version", 8).unwrap();
    }
    let opened = Library::open(&lib).unwrap();
    assert_eq!(opened.schema_version().unwrap(), schema::LATEST);
    assert_eq!(count(&lib, "SELECT count(*) FROM disagreements"), 0);
    assert_eq!(count(&lib, "SELECT count(*) FROM entries"), 2);
    assert_eq!(opened.integrity_check().unwrap(), "ok");
}

/// At 2-ply gnubg's move filter leaves Sage's pick in the position
/// at 0-ply; the stored gap is gnubg's 2-ply price of it, as gnubg gives
/// it with the filter opened to every move (asked in the same run).
#[test]
#[cfg_attr(
    not(all(bgedit_has_gnubg, bgedit_has_sage)),
    ignore = "needs gnubg and Open Sage"
)]
fn a_pick_outside_gnubgs_move_filter_is_priced_at_the_depth_asked() {
    engines();
    let id = "tm2CADLm28wAAA:EYGuAAAAAAAE";
    let dir = tempfile::tempdir().unwrap();
    let lib = filled(dir.path(), "lib.sqlite", &[id.to_owned()]);
    let (code, out, err) = library(
        &lib,
        &[
            "disagreements",
            "--plies",
            "2",
            "--min",
            "0",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let v: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["sage"]["pick"], "8/3* 6/3", "{v}");
    let text = common::live::gnubg_says(&format!(
        "set player 0 human\nset player 1 human\n\
         set evaluation chequerplay evaluation plies 2\n\
         set evaluation movefilter 2 0 1000 0 0.0\n\
         set gnubgid {id}\nhint 1000\n"
    ));
    let wide = common::live::hint_moves(&text);
    let eq = |name: &Value| wide.iter().find(|(m, _)| name == m.as_str()).unwrap().1;
    let want = eq(&v["gnubg"]["pick"]) - eq(&v["sage"]["pick"]);
    let got = v["gnubg"]["other_pick_costs"].as_f64().unwrap();
    assert!(
        (got - want).abs() < common::live::SHOWN_ERROR,
        "{got} against {want}: {text}"
    );
}

/// A library of schema 14 is migrated: its move comparisons above 0-ply
/// (made while gnubg's move filter left the other engine's pick at 0-ply)
/// are dropped to be made again; 0-ply ones and cube decisions stay.
#[test]
fn a_schema_14_librarys_comparisons_across_depths_are_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let lib = filled(dir.path(), "old.sqlite", &positions(2));
    {
        let conn = rusqlite::Connection::open(&lib).unwrap();
        for (entry, plies, decision) in [(1, 2, "move"), (1, 0, "move"), (2, 2, "cube")] {
            conn.execute(
                "INSERT INTO disagreements (entry_id, engines, plies, decision, pick_a, pick_b, \
                 gap_a, gap_b, gap, created) VALUES (?1, 'gnubg,sage', ?2, ?3, 'a', 'b', \
                 0.11, 0.01, 0.11, 0)",
                rusqlite::params![entry, plies, decision],
            )
            .unwrap();
        }
        conn.pragma_update(None, "user_version", 14).unwrap();
    }
    let opened = Library::open(&lib).unwrap();
    assert_eq!(opened.schema_version().unwrap(), schema::LATEST);
    drop(opened);
    let kept = table(&lib);
    assert_eq!(kept.len(), 2, "{kept:?}");
    assert!(kept[0].starts_with("1 | gnubg,sage | 0 | move"), "{kept:?}");
    assert!(kept[1].starts_with("2 | gnubg,sage | 2 | cube"), "{kept:?}");
}

/// Bad arguments are named, with exit status 2, before any engine starts.
#[test]
fn bad_arguments_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    // A library there: one that is not is refused first.
    Library::open(&lib).unwrap();
    for (args, says) in [
        (
            &["--engines", "gnubg"][..],
            "'gnubg' is not two different engines: give two keys apart by a comma, such as gnubg,sage",
        ),
        (
            &["--engines", "gnubg,gnubg"],
            "'gnubg,gnubg' is not two different engines",
        ),
        (
            &["--engines", "gnubg,deep"],
            "'deep' is not an engine: give one of gnubg, sage",
        ),
        (&["--min", "-1"], "is not an equity lost"),
        (&["--min", "lots"], "'lots' is not a number"),
        (&["--plies", "4"], "4 is not in 0..=3"),
        (&["--jobs", "0"], "0 is not in 1..=255"),
        (
            &["disagree>=x"],
            "filter, character 1: `disagree>=x`: `x` is not a number",
        ),
        (&["--collection", " "], "collection"),
    ] {
        let mut all = vec!["disagreements"];
        all.extend_from_slice(args);
        let (code, out, err) = library(&lib, &all);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
}

/// A position past Sage's match equity table (the opening of a 26-point
/// match) is not compared: the run says why, counts it apart from the
/// failures (asking again would not help) and compares the rest.
#[test]
#[cfg_attr(
    not(all(bgedit_has_gnubg, bgedit_has_sage)),
    ignore = "needs gnubg and Open Sage"
)]
fn a_score_past_sages_table_is_said_not_compared() {
    let dir = tempfile::tempdir().unwrap();
    let ids = [
        "4HPwATDgc/ABMA:cAlAAwAAAAAE".to_owned(),
        "4HPwATDgc/ABMA:cAkgAwAAAAAE".to_owned(),
    ];
    let lib = filled(dir.path(), "lib.sqlite", &ids);
    let (code, _, err) = library(&lib, &["disagreements", "--min", "0"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        err.contains(
            "entry 1: Sage: Sage cannot answer at this score (26-away, 26-away): its match \
             equity table stops at 25-away"
        ),
        "{err}"
    );
    assert!(err.contains("compared 1 position"), "{err}");
    assert!(
        err.contains("; 0 failed; 1 beyond an engine's reach;"),
        "{err}"
    );
    assert_eq!(count(&lib, "SELECT count(*) FROM disagreements"), 1);
}
