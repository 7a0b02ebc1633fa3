//! `library like`: the nearest positions by the documented distance, on
//! the library's index (the store's answer against a scan is the property
//! suite's; here the command, its migration and its bad input).

use crate::common::random;
use crate::common::run::library;
use bgedit_core::codec::{IdFormat, to_string_as};
use bgedit_core::domain::{Player, Position};
use bgedit_library::schema;
use bgedit_library::store::{Library, NewEntry, Source};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Each side's cumulative counts, the roller's first: the distance as
/// docs/library.md words it, written apart from the store's.
fn counts(p: &Position) -> Vec<i64> {
    let mut all = Vec::new();
    for side in [p.state.on_roll, p.state.on_roll.opponent()] {
        let mut sum = 0;
        for &n in p.board.side(side) {
            sum += i64::from(n);
            all.push(sum);
        }
    }
    all
}

fn distance(a: &Position, b: &Position) -> i64 {
    counts(a)
        .iter()
        .zip(counts(b))
        .map(|(x, y)| (x - y).abs())
        .sum()
}

fn kind(p: &Position) -> u8 {
    u8::from(p.state.dice.is_none())
}

fn filled(dir: &Path, positions: &[Position]) -> PathBuf {
    let path = dir.join("like.sqlite");
    let mut lib = Library::open(&path).unwrap();
    let entries: Vec<NewEntry> = positions
        .iter()
        .map(|p| NewEntry::new(p.clone(), Source::Typed))
        .collect();
    lib.add_all(&entries).unwrap();
    path
}

/// The answer by hand: every other entry, by distance, the query's kind
/// first among equals, then by number (entries are numbered from 1 in
/// the order added).
fn expected(positions: &[Position], query: usize, limit: usize) -> Vec<(i64, i64)> {
    let q = &positions[query];
    let mut all: Vec<(i64, bool, i64)> = positions
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != query)
        .map(|(i, p)| (distance(q, p), kind(p) != kind(q), i as i64 + 1))
        .collect();
    all.sort();
    all.into_iter()
        .take(limit)
        .map(|(d, _, id)| (id, d))
        .collect()
}

#[test]
fn like_gives_the_nearest_entries_nearest_first() {
    let dir = tempfile::tempdir().unwrap();
    let positions = random::distinct(7, 300);
    let lib = filled(dir.path(), &positions);
    for query in [0, 17, 299] {
        let id = to_string_as(&positions[query], IdFormat::GnubgId);
        let (code, out, err) = library(&lib, &["like", &id, "--limit", "6", "--format", "json"]);
        assert_eq!(code, Some(0), "{err}");
        let got: Vec<(i64, i64)> = out
            .lines()
            .map(|l| {
                let v: Value = serde_json::from_str(l).unwrap();
                let entry = v["id"].as_i64().unwrap();
                let p = &positions[entry as usize - 1];
                assert_eq!(v["gnubg_id"], to_string_as(p, IdFormat::GnubgId), "{l}");
                (entry, v["distance"].as_i64().unwrap())
            })
            .collect();
        assert_eq!(got, expected(&positions, query, 6), "query {query}");
        // By the entry's number, and as text: the same entries.
        let (code, text, err) = library(&lib, &["like", &(query + 1).to_string(), "--limit", "6"]);
        assert_eq!(code, Some(0), "{err}");
        let ids: Vec<String> = got.iter().map(|(id, _)| format!("#{id}")).collect();
        let shown: Vec<String> = text
            .lines()
            .map(|l| l.split_whitespace().nth(1).unwrap().to_owned())
            .collect();
        assert_eq!(shown, ids, "{text}");
    }
}

#[test]
fn same_kind_keeps_the_queries_kind() {
    let dir = tempfile::tempdir().unwrap();
    let positions = random::distinct(11, 200);
    let lib = filled(dir.path(), &positions);
    let q = &positions[3];
    let (code, out, err) = library(
        &lib,
        &[
            "like",
            "4",
            "--same-kind",
            "--limit",
            "1000",
            "--format",
            "json",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let want = positions
        .iter()
        .enumerate()
        .filter(|&(i, p)| i != 3 && kind(p) == kind(q))
        .count();
    assert_eq!(out.lines().count(), want);
    let name = if kind(q) == 0 { "checker" } else { "cube" };
    for l in out.lines() {
        let v: Value = serde_json::from_str(l).unwrap();
        assert_eq!(v["kind"], name, "{l}");
    }
}

/// What schema 14 added (the index of `library like`), dropped: how the
/// migration tests make a library of a version before it.
pub(crate) const DROP_LIKE: &str = "DROP INDEX entries_like; \
    ALTER TABLE entries DROP COLUMN like_shape; ALTER TABLE entries DROP COLUMN like_kind; \
    ALTER TABLE entries DROP COLUMN like_cell;";

/// A library of the version before this index is migrated: the index
/// columns filled for the entries there, answering as a scan does. Made by
/// today's store, what the index added dropped, and the version set back.
#[test]
fn a_library_from_before_the_index_is_migrated() {
    let dir = tempfile::tempdir().unwrap();
    let positions = random::distinct(3, 150);
    let path = filled(dir.path(), &positions);
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(DROP_LIKE).unwrap();
        // Version 13, the one before the index (14).
        conn.pragma_update(None, "user_version", 13).unwrap();
    }
    let lib = Library::open(&path).unwrap();
    assert_eq!(lib.schema_version().unwrap(), schema::LATEST);
    assert_eq!(lib.integrity_check().unwrap(), "ok");
    for query in [0, 80] {
        let got = lib.like(&positions[query], 10, false).unwrap();
        let ids: Vec<(i64, i64)> = got
            .positions
            .iter()
            .map(|l| (l.id, i64::from(l.distance)))
            .collect();
        assert_eq!(ids, expected(&positions, query, 10));
        let scan = lib.like_by_scan(&positions[query], 10, false).unwrap();
        assert_eq!(got.positions, scan.positions);
    }
}

#[test]
fn bad_input_is_named_and_nothing_is_printed() {
    let dir = tempfile::tempdir().unwrap();
    let lib = filled(dir.path(), &random::distinct(5, 20));
    for (args, says) in [
        (
            &["like", "nonsense"][..],
            "\"nonsense\" is neither an entry number nor an ID",
        ),
        (&["like", "1", "--limit", "0"], "0 is not in 1..=1000"),
        (&["like", "1", "--limit", "1001"], "1001 is not in 1..=1000"),
        (
            &["like", "1", "--limit", "99999999999999999999999"],
            "invalid value '99999999999999999999999' for '--limit <N>'",
        ),
        (&["like", "99"], "no entry 99"),
    ] {
        let (code, out, err) = library(&lib, args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(err.lines().count() <= 3, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
    }
    // A position not in the library is asked all the same.
    let mut p = Position::default();
    p.state.on_roll = Player::O;
    let (code, out, err) = library(&lib, &["like", &to_string_as(&p, IdFormat::Xgid)]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.lines().count(), 10);
}

/// The editor's `Q`, in the real binary in a pseudo-terminal: on the board,
/// the panel opens on the entries like its position, nearest first, as
/// `library like` gives them; `j` moves and the board previews, `Q` in the
/// panel asks for those like the highlighted one, `Enter` loads it, `Esc`
/// goes back to the list.
#[test]
fn q_lists_the_positions_like_the_board_and_like_an_entry() {
    use crate::common::pty::{NO_DISPLAY, Options, Session};
    use std::time::Duration;
    const PTY: Options = Options {
        timeout: Duration::from_secs(15),
        exit_grace: Duration::ZERO,
        unset: NO_DISPLAY,
        ..Options::DEFAULT
    };
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("like.sqlite");
    // The start (X on roll); one back checker a pip further on (1 away);
    // the manual's example; a bear-in race.
    let ids = [
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
        "XGID=-b----E-C---eE---c-e---AA-:0:0:1:00:0:0:0:0:10",
        "4NvBA0DGzooBBg:QYkqASAAIAAA",
        "XGID=-CCBBBB------------bbbbcc-:0:0:1:00:0:0:0:0:10",
    ];
    let mut args = vec!["add"];
    args.extend(ids);
    let (code, _, err) = library(&lib, &args);
    assert_eq!(code, Some(0), "{err}");
    let (code, cli, err) = library(&lib, &["like", ids[0], "--format", "json"]);
    assert_eq!(code, Some(0), "{err}");
    let want: Vec<(i64, i64)> = cli
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (v["distance"].as_i64().unwrap(), v["id"].as_i64().unwrap())
        })
        .collect();
    assert_eq!(want.len(), 3, "{cli}");
    assert_eq!(want[0], (1, 2), "{cli}");

    let mut s = Session::start(
        &PTY,
        &["--new", "--library", lib.to_str().unwrap(), ids[0]],
        dir.path(),
        110,
        32,
    );
    s.wait_for("? for help");
    s.send("Q");
    let screen = s.wait_for("Like the board · 3 nearest");
    // Nearest first, each with its distance, as the command says.
    let rows: Vec<(i64, i64)> = screen
        .lines()
        .filter_map(|l| {
            let mut w = l
                .split_whitespace()
                .skip_while(|w| w.parse::<i64>().is_err());
            let d = w.next()?.parse().ok()?;
            (w.next()? == "·").then_some(())?;
            Some((d, w.next()?.parse().ok()?))
        })
        .collect();
    assert_eq!(rows, want, "{screen}");
    assert!(screen.contains("Distance 1"), "{screen}");
    // j: the next one, previewed on the board.
    s.send("j");
    let (d, id) = want[1];
    s.wait_for(&format!("Distance {d}\n"));
    s.wait_for(&format!("Entry {id}"));
    // Q in the panel: those like the highlighted entry.
    s.send("Q");
    s.wait_for(&format!("Like entry {id} · 3 nearest"));
    // Enter loads the nearest of those; Esc is back to the list.
    s.send("\r");
    s.wait_for("loaded");
    s.send("L");
    s.wait_for(&format!("Like entry {id}"));
    s.send("\x1b");
    s.wait_for("Library · 4 entries");
    s.send("\x1b");
    s.send("q");
    s.wait_exit();
}
