//! The study library against a real SQLite file (a temporary one in every
//! test): migrations, duplicates, the filter language, damaged and foreign
//! files, and the CLI run as real processes at once and killed mid-import.

use crate::common;

use bgedit_core::codec::{IdFormat, parse_any, to_string_as};
use bgedit_core::domain::Position;
use bgedit_library::filter;
use bgedit_library::review::Rating;
use bgedit_library::schema::{self, APPLICATION_ID};
use bgedit_library::store::{self, Added, Counted, EntryEdit, Library, NewEntry, Source};
use common::random;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn bgedit() -> Command {
    common::run::command()
}

fn temp() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("library.sqlite");
    (dir, path)
}

fn pos(id: &str) -> Position {
    parse_any(id, &Position::default()).unwrap().position
}

fn entry(id: &str, title: &str, tags: &[&str], cols: &[&str]) -> NewEntry {
    let mut e = NewEntry::new(pos(id), Source::Typed);
    e.title = title.to_owned();
    e.tags = tags.iter().map(|t| t.to_string()).collect();
    e.collections = cols.iter().map(|t| t.to_string()).collect();
    e
}

#[test]
fn a_new_file_gets_the_latest_schema_wal_and_foreign_keys() {
    let (_dir, path) = temp();
    std::fs::write(&path, b"").unwrap(); // an empty file is a new library
    let lib = Library::open(&path).unwrap();
    assert_eq!(lib.schema_version().unwrap(), schema::LATEST);
    drop(lib);
    let conn = rusqlite::Connection::open(&path).unwrap();
    let mode: String = conn
        .pragma_query_value(None, "journal_mode", |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    let app: i32 = conn
        .pragma_query_value(None, "application_id", |r| r.get(0))
        .unwrap();
    assert_eq!(app, APPLICATION_ID);
    // Deleting an entry deletes its tags: the foreign keys are on.
    let mut lib = Library::open(&path).unwrap();
    let id = lib
        .add(&entry(
            "4HPwATDgc/ABMA:cAkAAAAAAAAA",
            "start",
            &["a"],
            &["c"],
        ))
        .unwrap()
        .id();
    lib.delete(id).unwrap();
    let tags: i64 = conn
        .query_row("SELECT count(*) FROM tags", [], |r| r.get(0))
        .unwrap();
    assert_eq!(tags, 0);
}

#[test]
fn a_first_release_file_is_migrated_and_keeps_its_entries() {
    let (_dir, path) = temp();
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch(schema::V1).unwrap();
        conn.pragma_update(None, "application_id", APPLICATION_ID)
            .unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
        let p = pos("4NvBA0DGzooBBg:QYkqASAAIAAA");
        conn.execute(
            "INSERT INTO entries (gnubg_id, xgid, position_json, title, note, source, created, \
             updated, pips_o, pips_x, pips_on_roll, pip_diff, race, bar, match_length, score_o, \
             score_x, crawford, cube, on_roll) VALUES (?1, ?2, ?3, 'old one', 'kept', 'typed', \
             1000, 1000, 145, 135, 135, 10, 0, 0, 9, 2, 4, 0, 2, 'X')",
            rusqlite::params![
                to_string_as(&p, IdFormat::GnubgId),
                to_string_as(&p, IdFormat::Xgid),
                to_string_as(&p, IdFormat::Json)
            ],
        )
        .unwrap();
    }
    let lib = Library::open(&path).unwrap();
    assert_eq!(lib.schema_version().unwrap(), schema::LATEST);
    let e = lib.get(1).unwrap();
    assert_eq!((e.title.as_str(), e.note.as_str()), ("old one", "kept"));
    // Version 2's schedule: due from when the entry was made.
    assert_eq!(e.schedule.due, 1000);
    // Never reviewed: a new FSRS card, last touched when it was made.
    assert_eq!((e.schedule.state, e.schedule.reviews), (0, 0));
    assert_eq!(e.schedule.last_review, 1000);
    assert_eq!(e.position, pos("4NvBA0DGzooBBg:QYkqASAAIAAA"));
    let due = filter::parse("due").unwrap();
    assert_eq!(lib.count(&due).unwrap(), 1);
    // Version 4's text index holds the rows that were there before it.
    for text in ["old one", "KEPT", "4NvBA0DG", "QYkqAS"] {
        let q = filter::parse(&format!("\"{text}\"")).unwrap();
        assert_eq!(lib.count(&q).unwrap(), 1, "{text}");
        assert_eq!(lib.page(&q, 0, 10).unwrap()[0].id, 1, "{text}");
    }
    // Version 6 derives the structure of the rows already there: the
    // roller's (X's) made points as the position has them.
    let st = bgedit_library::derive::derive(&e.position).structure;
    assert_ne!(st.points, 0);
    let made = (1..=24).find(|n| st.points & (1 << (n - 1)) != 0).unwrap();
    let q = filter::parse(&format!("point:{made} prime>={}", st.prime)).unwrap();
    assert_eq!(lib.count(&q).unwrap(), 1);
    let q = filter::parse(&format!("prime>={}", st.prime + 1)).unwrap();
    assert_eq!(lib.count(&q).unwrap(), 0);
    assert_eq!(e.decision, None);
}

/// A gnubg match with its analysis, imported: each decision keeps who made
/// it, its kind, what was played and its error, and the decision filters
/// and the structure filters find them as the positions say.
#[test]
fn match_decisions_are_found_by_error_player_kind_match_and_structure() {
    use bgedit_core::codec::match_file;
    use bgedit_library::match_import;
    let (_dir, path) = temp();
    let mut lib = Library::open(&path).unwrap();
    let name = "tests/fixtures/selfplay/m7_driven.sgf";
    let file = match_file::read_path(std::path::Path::new(name)).unwrap();
    let (decisions, _) = match_file::decisions(&file);
    let entries: Vec<_> = decisions
        .iter()
        .map(|d| match_import::entry(name, d))
        .collect();
    lib.add_all(&entries).unwrap();
    let all = filter::parse("").unwrap();
    let n = lib.count(&all).unwrap();
    let count = |q: &str| lib.count(&filter::parse(q).unwrap()).unwrap();
    // Every decision's error as the file's analysis gives it.
    let errors: Vec<f64> = decisions
        .iter()
        .filter_map(match_import::decision_error)
        .collect();
    let bad = errors.iter().filter(|&&e| e >= 0.08).count() as u64;
    assert!(bad >= 1, "the driven match has bad decisions");
    assert_eq!(count("error>=0.08"), bad);
    assert_eq!(count("error>=0.08 !error>=0.08"), 0);
    let checker = decisions.iter().filter(|d| d.dice.is_some()).count() as u64;
    assert_eq!(count("kind:checker"), checker);
    assert_eq!(count("kind:cube") + count("kind:take") + checker, n);
    assert_eq!(count("player:gnubg") + count("player:root"), n);
    assert_eq!(count("match:m7_driven"), n);
    assert_eq!(count("match:nowhere"), 0);
    // Structure, against the positions themselves.
    let by = |f: &dyn Fn(&bgedit_library::derive::Structure) -> bool| {
        decisions
            .iter()
            .filter(|d| f(&bgedit_library::derive::derive(&d.position).structure))
            .count() as u64
    };
    assert_eq!(count("point:5"), by(&|s| s.points & 1 << 4 != 0));
    assert_eq!(count("anchor:20"), by(&|s| s.points & 1 << 19 != 0));
    assert_eq!(count("opp:point:5"), by(&|s| s.opp_points & 1 << 4 != 0));
    assert_eq!(count("blots>=2"), by(&|s| s.blots >= 2));
    assert_eq!(
        count("back>=2 home>=4"),
        by(&|s| s.back >= 2 && s.home >= 4)
    );
    assert_eq!(count("prime>=4"), by(&|s| s.prime >= 4));
    assert!(count("prime>=4") > 0 && count("prime>=4") < n);
    // Sorted by error: the worst first, with its mark in the summary.
    let mut seen = Vec::new();
    lib.for_each_summary(
        &filter::parse("error>=0.08").unwrap(),
        store::Order::Error,
        |s| {
            seen.push(s.error.unwrap());
            Ok(())
        },
    )
    .unwrap();
    assert!(seen.windows(2).all(|w| w[0] >= w[1]), "{seen:?}");
    let worst = errors.iter().cloned().fold(0.0, f64::max);
    assert!((seen[0] - worst).abs() < 1e-9);
    // The entry keeps its decision whole.
    let id = lib
        .page(&filter::parse("kind:cube error>=0.08").unwrap(), 0, 1)
        .unwrap()[0]
        .id;
    let e = lib.get(id).unwrap();
    let d = e.decision.unwrap();
    assert_eq!(d.played, "double");
    assert!(d.error().unwrap() >= 0.08);
}

#[test]
fn the_same_position_twice_is_one_entry_and_merges() {
    let (_dir, path) = temp();
    let mut lib = Library::open(&path).unwrap();
    let a = lib
        .add(&entry(
            "4HPwATDgc/ABMA:cAkAAAAAAAAA",
            "opening",
            &["start"],
            &[],
        ))
        .unwrap();
    assert!(matches!(a, Added::New(_)));
    // The same position as an XGID, with another tag and a collection.
    let b = lib
        .add(&entry(
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10",
            "",
            &["quiz"],
            &["book"],
        ))
        .unwrap();
    assert_eq!(b, Added::Existing(a.id()));
    assert_eq!(lib.count(&filter::Query::default()).unwrap(), 1);
    let e = lib.get(a.id()).unwrap();
    assert_eq!(e.title, "opening");
    assert_eq!(e.tags, ["quiz", "start"]);
    assert_eq!(e.collections, ["book"]);
    // A change to the position that another entry holds is refused.
    let c = lib
        .add(&entry("4NvBA0DGzooBBg:QYkqASAAIAAA", "", &[], &[]))
        .unwrap();
    let err = lib
        .update(
            c.id(),
            &EntryEdit {
                position: Some(e.position.clone()),
                ..EntryEdit::default()
            },
        )
        .unwrap_err();
    assert!(err.to_string().contains("already entry 1"), "{err}");
}

#[test]
fn edits_deletes_restores_and_reviews_are_kept() {
    let (_dir, path) = temp();
    let mut lib = Library::open(&path).unwrap();
    let id = lib
        .add(&entry(
            "4NvBA0DGzooBBg:QYkqASAAIAAA",
            "t",
            &["x"],
            &["quiz"],
        ))
        .unwrap()
        .id();
    lib.update(
        id,
        &EntryEdit {
            note: Some("line 1\nline 2".into()),
            tags: Some(vec!["blitz".into()]),
            collections: Some(vec!["quiz".into(), "hard".into()]),
            ..EntryEdit::default()
        },
    )
    .unwrap();
    let e = lib.get(id).unwrap();
    assert_eq!(e.note, "line 1\nline 2");
    assert_eq!(e.tags, ["blitz"]);
    assert_eq!(e.collections, ["hard", "quiz"]);
    let gone = lib.delete(id).unwrap();
    assert!(lib.get(id).is_err());
    lib.restore(&gone).unwrap();
    assert_eq!(lib.get(id).unwrap(), gone);
    let due = lib.due("quiz", store::now(), 10).unwrap();
    assert_eq!(due.len(), 1);
    // FSRS: a new entry known (Good) is learning, back in ten minutes.
    let s = lib.review(id, Rating::Good, 1_000_000, None).unwrap();
    assert_eq!(s.due, 1_000_000 + 600);
    assert_eq!(s.state, 1);
    assert_eq!(lib.get(id).unwrap().schedule, s);
    assert!(lib.due("quiz", 1_000_000, 10).unwrap().is_empty());
    // Bad input is a message and changes nothing.
    let err = lib
        .update(
            id,
            &EntryEdit {
                tags: Some(vec!["two words".into()]),
                ..EntryEdit::default()
            },
        )
        .unwrap_err();
    assert!(err.to_string().contains("one word"), "{err}");
    assert_eq!(lib.get(id).unwrap().tags, ["blitz"]);
}

#[test]
fn the_filter_language_finds_what_it_says() {
    let (_dir, path) = temp();
    let mut lib = Library::open(&path).unwrap();
    let mut add = |e: NewEntry| lib.add(&e).unwrap().id();
    // 1: the start (money, contact, 167 each, cube 1).
    let start = add(entry(
        "4HPwATDgc/ABMA:cAkAAAAAAAAA",
        "Opening",
        &["start"],
        &["quiz"],
    ));
    // 2: the manual's 9-point match, cube 2 owned, X on roll with 135 v 145,
    // an O checker on the bar.
    let manual = add(entry(
        "4NvBA0DGzooBBg:QYkqASAAIAAA",
        "Manual example",
        &["blitz"],
        &["quiz", "book"],
    ));
    // 3: a race, X leads 26 to 28 (roller X), money, cube 4.
    let race = add(entry(
        "XGID=-CCBBBB------------bbbbcc-:2:0:1:00:0:0:0:0:10",
        "Bear-in race",
        &["race"],
        &[],
    ));
    // 4: X on the bar, 5-point match Crawford, O 4 away ... X 4-0 up.
    let bar = add(entry(
        "XGID=-b----E-C---eE---c-e----AA:0:0:1:00:4:0:1:5:10",
        "On the bar",
        &["blitz", "bar"],
        &["book"],
    ));
    let mut note = NewEntry::new(
        pos("XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:0:0:3:0:10"),
        Source::Pasted,
    );
    note.note = "Back game: hold the anchor".into();
    let backgame = add(note);

    let all: BTreeSet<i64> = [start, manual, race, bar, backgame].into();
    let table: &[(&str, &[i64])] = &[
        ("", &[start, manual, race, bar, backgame]),
        ("race", &[race]),
        ("contact", &[start, manual, bar, backgame]),
        ("bar", &[manual, bar]),
        ("!bar", &[start, race, backgame]),
        ("money", &[start, race, backgame]),
        ("match", &[manual, bar]),
        ("crawford", &[bar]),
        ("cube>=4", &[race]),
        ("cube=2", &[manual]),
        ("cube>=2 match", &[manual]),
        ("pips<100", &[race]),
        ("pips>=160", &[start, backgame, bar]),
        ("diff>5", &[manual]),
        ("diff<0", &[bar]),
        ("tag:blitz", &[manual, bar]),
        ("tag:blitz crawford", &[bar]),
        ("!tag:blitz", &[start, race, backgame]),
        ("col:quiz", &[start, manual]),
        ("col:book tag:blitz match", &[manual, bar]),
        ("col:none", &[]),
        ("opening", &[start]),
        ("\"back game\"", &[backgame]),
        ("anchor money", &[backgame]),
        ("4NvBA0DG", &[manual]),
        ("cAkAAAAA", &[start]),
        ("CCBBBB", &[race]),
        ("len=5", &[bar]),
        ("race contact", &[]),
        // Text and ID fragments on the trigram index: case-folded, anywhere
        // in a title, note, tag or ID, combined with each other and with
        // structured filters.
        ("OPENING", &[start]),
        ("4nvba0dg", &[manual]),
        ("QYkqASAAIAAA", &[manual]),
        ("XGID=-CCBBBB", &[race]),
        ("nchor", &[backgame]),
        ("\"hold the\"", &[backgame]),
        ("hold anchor", &[backgame]),
        ("hold opening", &[]),
        ("anchor race", &[]),
        ("anchor contact money", &[backgame]),
        ("blitz", &[manual, bar]),
        ("blitz crawford", &[bar]),
        ("blitz !crawford tag:blitz", &[manual]),
        ("!anchor", &[start, manual, race, bar]),
        ("!blitz money", &[start, race, backgame]),
        ("col:book bar", &[manual, bar]),
        ("col:book \"on the\"", &[bar]),
        ("\"it's \"\"quoted\"\"\"", &[]),
        ("100%", &[]),
    ];
    for (query, want) in table {
        let q = filter::parse(query).unwrap_or_else(|e| panic!("{query}: {e}"));
        let got: BTreeSet<i64> = lib.page(&q, 0, 100).unwrap().iter().map(|s| s.id).collect();
        let want: BTreeSet<i64> = want.iter().copied().collect();
        assert!(want.is_subset(&all));
        assert_eq!(got, want, "query {query:?}");
        assert_eq!(lib.count(&q).unwrap(), want.len() as u64, "count {query:?}");
        // A count that may stop early stops only at its cap.
        for cap in [0, 1, 2, 100] {
            let n = want.len() as u64;
            assert_eq!(
                lib.count_up_to(&q, cap).unwrap(),
                Counted {
                    total: n.min(cap),
                    exact: n <= cap
                },
                "count {query:?} up to {cap}"
            );
        }
    }
    // 1–2 characters have no trigram: they are a scan, and must find exactly
    // what a plain case-folded search of the same fields finds. So must text
    // that most entries hold, with a filter (scanned, not looked up), and
    // rare text with a filter (looked up).
    let texts: Vec<(i64, String)> = all
        .iter()
        .map(|&id| {
            let e = lib.get(id).unwrap();
            let text = [e.title, e.note, e.tags.join(" "), e.gnubg_id, e.xgid].join("\n");
            (id, text.to_ascii_lowercase())
        })
        .collect();
    for (short, structured) in [
        ("o", ""),
        ("Op", ""),
        ("bb", ""),
        ("A", "race"),
        ("-B", "money"),
        ("zq", ""),
        ("AAA", "race"),
        ("aaaa", "money"),
        ("AAA", "!race"),
        ("cAk", "contact"),
        ("Opening", "money"),
        ("blitz", "contact"),
    ] {
        let query = format!("{short} {structured}");
        let q = filter::parse(&query).unwrap();
        let got: BTreeSet<i64> = lib.page(&q, 0, 100).unwrap().iter().map(|s| s.id).collect();
        let with_flag: BTreeSet<i64> = if structured.is_empty() {
            all.clone()
        } else {
            lib.page(&filter::parse(structured).unwrap(), 0, 100)
                .unwrap()
                .iter()
                .map(|s| s.id)
                .collect()
        };
        let want: BTreeSet<i64> = texts
            .iter()
            .filter(|(id, t)| t.contains(&short.to_ascii_lowercase()) && with_flag.contains(id))
            .map(|(id, _)| *id)
            .collect();
        assert_eq!(got, want, "query {query:?}");
        assert_eq!(lib.count(&q).unwrap(), want.len() as u64, "count {query:?}");
        let negated = filter::parse(&format!("!{short}")).unwrap();
        assert_eq!(
            lib.count(&negated).unwrap(),
            (all.len()
                - texts
                    .iter()
                    .filter(|(_, t)| t.contains(&short.to_ascii_lowercase()))
                    .count()) as u64,
            "!{short}"
        );
    }
}

/// The text index follows every write: a new title, note or tags, a
/// deleted entry and a restored one.
#[test]
fn the_text_index_follows_edits_deletes_and_restores() {
    let (_dir, path) = temp();
    let mut lib = Library::open(&path).unwrap();
    let id = lib
        .add(&entry(
            "4HPwATDgc/ABMA:cAkAAAAAAAAA",
            "Opening",
            &["start"],
            &[],
        ))
        .unwrap()
        .id();
    let hits = |lib: &Library, q: &str| lib.count(&filter::parse(q).unwrap()).unwrap();
    assert_eq!(hits(&lib, "opening"), 1);
    lib.update(
        id,
        &EntryEdit {
            title: Some("Zugzwang study".into()),
            note: Some("prime versus prime".into()),
            tags: Some(vec!["priming".into()]),
            ..EntryEdit::default()
        },
    )
    .unwrap();
    assert_eq!(hits(&lib, "opening"), 0);
    assert_eq!(hits(&lib, "start"), 0);
    assert_eq!(hits(&lib, "zugzwang"), 1);
    assert_eq!(hits(&lib, "\"versus prime\""), 1);
    assert_eq!(hits(&lib, "priming"), 1);
    // A new position: its new IDs are found, the old ones no longer.
    lib.update(
        id,
        &EntryEdit {
            position: Some(pos("4NvBA0DGzooBBg:QYkqASAAIAAA")),
            ..EntryEdit::default()
        },
    )
    .unwrap();
    assert_eq!(hits(&lib, "4HPwATDgc"), 0);
    assert_eq!(hits(&lib, "4NvBA0DG"), 1);
    let gone = lib.delete(id).unwrap();
    assert_eq!(hits(&lib, "zugzwang"), 0);
    assert_eq!(hits(&lib, "4NvBA0DG"), 0);
    lib.restore(&gone).unwrap();
    assert_eq!(hits(&lib, "zugzwang"), 1);
    assert_eq!(hits(&lib, "4NvBA0DG"), 1);
    // Merging into the entry (the same position added again) fills nothing
    // that was set and keeps the index right.
    let merged = lib
        .add(&entry(
            "4NvBA0DGzooBBg:QYkqASAAIAAA",
            "Other",
            &["extra"],
            &[],
        ))
        .unwrap();
    assert_eq!(merged, Added::Existing(id));
    assert_eq!(hits(&lib, "zugzwang"), 1);
    assert_eq!(hits(&lib, "extra"), 1);
    // Taking every tag away leaves no tag text to find.
    lib.update(
        id,
        &EntryEdit {
            tags: Some(Vec::new()),
            ..EntryEdit::default()
        },
    )
    .unwrap();
    assert_eq!(hits(&lib, "priming"), 0);
    assert_eq!(hits(&lib, "extra"), 0);
    assert!(lib.get(id).unwrap().tags.is_empty());
    assert_eq!(lib.integrity_check().unwrap(), "ok");
    // FTS5's own check: the index holds exactly what the rows hold.
    drop(lib);
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute(
        "INSERT INTO entries_text (entries_text) VALUES ('integrity-check')",
        [],
    )
    .unwrap();
}

#[test]
fn pages_hold_only_what_is_asked_for_newest_first() {
    let (_dir, path) = temp();
    let mut lib = Library::open(&path).unwrap();
    let entries: Vec<NewEntry> = random::distinct(7, 250)
        .into_iter()
        .map(|p| NewEntry::new(p, Source::Typed))
        .collect();
    lib.add_all(&entries).unwrap();
    let q = filter::Query::default();
    let first = lib.page(&q, 0, 40).unwrap();
    assert_eq!(first.len(), 40);
    assert_eq!(first[0].id, 250);
    let last = lib.page(&q, 240, 40).unwrap();
    assert_eq!(last.len(), 10);
    assert_eq!(last[9].id, 1);
    // What the panel asks: a page and a count that may stop early.
    assert_eq!(
        lib.search_page(&q, bgedit_library::store::Order::Newest, 0, 40, 1_000)
            .unwrap()
            .0,
        Counted {
            total: 250,
            exact: true
        }
    );
    let (counted, offset, rows) = lib
        .search_page(&q, bgedit_library::store::Order::Newest, 0, 40, 10)
        .unwrap();
    assert_eq!(
        (counted, offset, rows.len()),
        (
            Counted {
                total: 50,
                exact: false
            },
            0,
            40
        )
    );
    // Past the end (after deletes), the last page.
    let (counted, offset, rows) = lib
        .search_page(&q, bgedit_library::store::Order::Newest, 300, 40, 10)
        .unwrap();
    assert_eq!((counted.total, counted.exact, offset), (250, true, 240));
    assert_eq!(
        rows.iter().map(|r| r.id).collect::<Vec<_>>(),
        (1..=10).rev().collect::<Vec<_>>()
    );
    // A first page that is not full is the whole count.
    let few = filter::parse("AAA contact").unwrap();
    let (counted, _, rows) = lib
        .search_page(&few, bgedit_library::store::Order::Newest, 0, 1_000, 0)
        .unwrap();
    assert_eq!(
        (counted.total, counted.exact),
        (lib.count(&few).unwrap(), true)
    );
    assert_eq!(rows.len() as u64, counted.total);
    // Counted as far as asked, for every kind of query: all, text on the
    // index, a structured filter, text and a filter, 1–2 characters.
    for text in ["", "AAA", "race", "AAA contact", "A", "A race"] {
        let q = filter::parse(text).unwrap();
        let all = lib.count(&q).unwrap();
        for cap in [0, 10, all.saturating_sub(1), all, all + 1] {
            let got = lib.count_up_to(&q, cap).unwrap();
            assert_eq!(got.total, all.min(cap), "{text:?} up to {cap}");
            assert_eq!(got.exact, all <= cap, "{text:?} up to {cap}");
        }
    }
}

/// Opening each of these is refused, and the file's bytes stay the same.
#[test]
fn damaged_and_foreign_files_are_refused_and_left_untouched() {
    let (dir, good) = temp();
    {
        let mut lib = Library::open(&good).unwrap();
        let entries: Vec<NewEntry> = random::distinct(3, 300)
            .into_iter()
            .map(|p| NewEntry::new(p, Source::Typed))
            .collect();
        lib.add_all(&entries).unwrap();
    }
    // Closing the last connection checkpoints the WAL into the file.
    let bytes = std::fs::read(&good).unwrap();
    assert!(bytes.len() > 8192);

    let mut cases: Vec<(&str, Vec<u8>, &str)> = Vec::new();
    cases.push(("truncated", bytes[..bytes.len() / 2].to_vec(), "damaged"));
    let mut header = bytes.clone();
    header[..6].copy_from_slice(b"NOTSQL");
    cases.push(("bad magic", header, "not a bgedit library"));
    let mut page = bytes.clone();
    page[16] = 0;
    page[17] = 3;
    cases.push(("bad page size", page, "damaged"));
    let mut app = bytes.clone();
    app[68..72].copy_from_slice(&0x1234_5678u32.to_be_bytes());
    cases.push(("other application id", app, "another program"));
    let mut newer = bytes.clone();
    newer[60..64].copy_from_slice(&99u32.to_be_bytes());
    cases.push(("newer schema", newer, "newer bgedit"));
    cases.push((
        "text file",
        b"title,note\n".repeat(20),
        "not a bgedit library",
    ));
    let foreign = dir.path().join("foreign.sqlite");
    {
        let c = rusqlite::Connection::open(&foreign).unwrap();
        c.execute_batch("CREATE TABLE accounts (id INTEGER PRIMARY KEY, owner TEXT);")
            .unwrap();
    }
    cases.push((
        "another program's database",
        std::fs::read(&foreign).unwrap(),
        "another program",
    ));

    for (name, content, expected) in cases {
        let path = dir
            .path()
            .join(format!("{}.sqlite", name.replace(' ', "_")));
        std::fs::write(&path, &content).unwrap();
        let err = match Library::open(&path) {
            Ok(_) => panic!("{name}: opened"),
            Err(e) => e.to_string(),
        };
        assert!(err.contains(expected), "{name}: {err}");
        assert!(err.contains(&path.display().to_string()), "{name}: {err}");
        assert_eq!(std::fs::read(&path).unwrap(), content, "{name}: modified");
        // The CLI says the same and exits 2.
        let out = bgedit()
            .args(["library", "--library"])
            .arg(&path)
            .arg("list")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{name}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(expected));
        assert_eq!(std::fs::read(&path).unwrap(), content, "{name}: modified");
    }
}

fn ids_text(seed: u64, n: usize) -> String {
    let mut s = String::new();
    for p in random::distinct(seed, n) {
        s.push_str(&to_string_as(&p, IdFormat::GnubgId));
        s.push('\n');
    }
    s
}

fn count(path: &Path) -> i64 {
    let c = rusqlite::Connection::open(path).unwrap();
    c.busy_timeout(Duration::from_secs(30)).unwrap();
    c.query_row("SELECT count(*) FROM entries", [], |r| r.get(0))
        .unwrap()
}

#[test]
fn two_processes_adding_at_once_lose_nothing() {
    let (_dir, path) = temp();
    // Distinct seeds: 20,000 different positions in all.
    let inputs = [ids_text(101, 10_000), ids_text(202, 10_000)];
    let overlap: BTreeSet<&str> = inputs[0].lines().collect();
    assert!(inputs[1].lines().all(|l| !overlap.contains(l)));
    let children: Vec<_> = inputs
        .iter()
        .map(|input| {
            let mut child = bgedit()
                .args(["library", "--library"])
                .arg(&path)
                .args(["add", "--tag", "bulk"])
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let mut stdin = child.stdin.take().unwrap();
            let input = input.clone();
            let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
            (child, writer)
        })
        .collect();
    for (child, writer) in children {
        let written = writer.join().unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success() && written.is_ok(),
            "{written:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    }
    assert_eq!(count(&path), 20_000);
    let lib = Library::open(&path).unwrap();
    assert_eq!(lib.integrity_check().unwrap(), "ok");
    let q = filter::parse("tag:bulk").unwrap();
    assert_eq!(lib.count(&q).unwrap(), 20_000);
}

#[test]
fn an_import_killed_mid_way_keeps_every_committed_batch() {
    let (dir, path) = temp();
    let file = dir.path().join("ids.txt");
    std::fs::write(&file, ids_text(303, 60_000)).unwrap();
    Library::open(&path).unwrap();
    let mut child = bgedit()
        .args(["library", "--library"])
        .arg(&path)
        .arg("import")
        .arg(&file)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Wait until some batches are committed, then kill it without warning.
    let start = Instant::now();
    let mut seen = 0;
    while seen < 10_000 {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no progress in 120 s"
        );
        std::thread::sleep(Duration::from_millis(20));
        seen = count(&path);
        if let Ok(Some(_)) = child.try_wait() {
            break;
        }
    }
    child.kill().unwrap(); // SIGKILL on Unix
    child.wait().unwrap();
    let lib = Library::open(&path).unwrap();
    assert_eq!(lib.integrity_check().unwrap(), "ok");
    let after = count(&path);
    assert!(
        after >= seen,
        "{after} < {seen}: committed entries were lost"
    );
    // Imports commit 10,000 positions at a time.
    assert_eq!(after % 10_000, 0, "a batch was half written: {after}");
    drop(lib);
    // Importing again finishes the job: the rest added, the first merged.
    let out = bgedit()
        .args(["library", "--library"])
        .arg(&path)
        .arg("import")
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("{} added, {after} already there", 60_000 - after)),
        "{text}"
    );
    assert_eq!(count(&path), 60_000);
}

#[test]
fn the_cli_adds_lists_shows_exports_and_removes() {
    let (dir, path) = temp();
    let run = |args: &[&str], stdin: &str| {
        let out = common::run::output_of(
            bgedit()
                .args(["library", "--library"])
                .arg(&path)
                .args(args),
            stdin,
        );
        (
            out.status.code(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let (code, out, err) = run(
        &[
            "add",
            "--title",
            "Two",
            "--tag",
            "t1",
            "--collection",
            "quiz",
        ],
        "4HPwATDgc/ABMA:cAkAAAAAAAAA\nnonsense\n4NvBA0DGzooBBg:QYkqASAAIAAA\n4HPwATDgc/ABMA:cAkAAAAAAAAA\n",
    );
    assert_eq!(code, Some(1));
    assert_eq!(
        out,
        "added entry 1\nadded entry 2\nalready in the library as entry 1 (Two)\n"
    );
    assert!(err.starts_with("line 2: not an ID"), "{err}");
    let (code, out, _) = run(&["search", "match"], "");
    assert_eq!(code, Some(0));
    assert_eq!(out.lines().count(), 1);
    assert!(out.trim_start().starts_with("2  Two"), "{out}");
    assert!(out.contains("9pt 5a-7a"), "{out}");
    let (_, out, _) = run(&["list", "--format", "json"], "");
    let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(first["id"], 2);
    assert_eq!(first["gnubg_id"], "4NvBA0DGzooBBg:QYkqASAAIAAA");
    let (code, _, err) = run(&["search", "cube>=x"], "");
    assert_eq!(code, Some(2));
    assert!(err.contains("character 1: `cube>=x`"), "{err}");
    let (_, out, _) = run(&["show", "4NvBA0DGzooBBg:QYkqASAAIAAA"], "");
    assert!(out.starts_with("Entry 2: Two\n"), "{out}");
    assert!(out.contains("Collections: quiz"));
    let (_, out, _) = run(&["export", "--format", "gnubg"], "");
    assert_eq!(
        out,
        "4HPwATDgc/ABMA:cAkAAAAAAAAA\n4NvBA0DGzooBBg:QYkqASAAIAAA\n"
    );
    let (_, out, _) = run(&["export", "--format", "xgid", "money"], "");
    assert_eq!(out, "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10\n");
    // Text through the trigram index: `search` newest first, `export` oldest
    // first, with and without a structured filter.
    let (_, out, _) = run(&["search", "XGID="], "");
    let ids: Vec<&str> = out
        .lines()
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(ids, ["2", "1"], "{out}");
    let (_, out, _) = run(&["export", "--format", "gnubg", "xgid="], "");
    assert_eq!(
        out,
        "4HPwATDgc/ABMA:cAkAAAAAAAAA\n4NvBA0DGzooBBg:QYkqASAAIAAA\n"
    );
    let (_, out, _) = run(&["export", "--format", "gnubg", "xgid=", "money"], "");
    assert_eq!(out, "4HPwATDgc/ABMA:cAkAAAAAAAAA\n");

    // An XG text export brings its note and analysis.
    let xg = dir.path().join("export.txt");
    std::fs::write(
        &xg,
        "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10\n\nX:Player 2   O:Player 1\n\
         Score is X:0 O:0. Unlimited Game\nX to play 52\nMake the point?\n\n    \
         1. XG Roller+  13/11 13/8     eq:+0.011\n    2. XG Roller+  24/22 13/8  eq:-0.003\n      \
         Player:   51.20% (G:14.01% B:0.55%)\n      Opponent: 48.80% (G:12.20% B:0.50%)\n\n\
         Keep the builder on 11.\n\neXtreme Gammon Version: 2.19\n\nXGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10\n",
    )
    .unwrap();
    let (code, out, _) = run(&["import", xg.to_str().unwrap()], "");
    assert_eq!(code, Some(0));
    assert!(
        out.ends_with(": 1 added, 1 already there (merged), 0 failed\n"),
        "{out}"
    );
    let (_, out, _) = run(&["show", "3"], "");
    // The comment XG writes after the analysis is part of the note, and
    // search finds it.
    assert!(
        out.contains("Note:\nMake the point?\nKeep the builder on 11."),
        "{out}"
    );
    let analysis = out
        .split("Analysis (XG Roller+):")
        .nth(1)
        .unwrap_or_default();
    assert!(!analysis.contains("builder"), "{out}");
    let (_, found, _) = run(&["search", "builder"], "");
    assert!(found.trim_start().starts_with("3 "), "{found}");
    assert!(out.contains("Analysis (XG Roller+):"), "{out}");
    assert!(out.contains("source: imported from") || out.contains("Source: imported from"));

    let (code, out, _) = run(&["rm", "1", "99"], "");
    assert_eq!(code, Some(1));
    assert_eq!(out, "removed entry 1 Two\n");
    let (_, out, _) = run(&["export", "--format", "gnubg"], "");
    assert_eq!(out.lines().count(), 2);
}

#[test]
fn a_fifo_or_a_directory_is_refused_without_blocking() {
    let (dir, _) = temp();
    let fifo = dir.path().join("f.sqlite");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path; mkfifo touches nothing else.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    // Opening a FIFO for reading blocks until a writer comes: the open must
    // not even be tried, so this returns at once.
    let e = Library::open(&fifo).err().expect("refused");
    let m = e.to_string();
    assert!(
        m.contains("not a regular file") && m.contains("f.sqlite"),
        "{m}"
    );
    let out = bgedit()
        .args(["library", "--library", fifo.to_str().unwrap(), "list"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a regular file"));
    let e = Library::open(dir.path()).err().expect("refused");
    assert!(e.to_string().contains("a directory"), "{e}");
}

#[test]
fn control_characters_from_files_never_reach_the_terminal_or_an_export() {
    let (dir, path) = temp();
    {
        let mut lib = Library::open(&path).unwrap();
        let mut e = entry("4HPwATDgc/ABMA:cAkAAAAAAAAA", "title", &[], &[]);
        // A crafted note: sets the window title, writes the clipboard by OSC
        // 52 and clears the screen, on any terminal it reaches raw.
        e.note = "note \x1b]0;owned\x07\x1b]52;c;aGk=\x07\x1b[2J end".to_owned();
        lib.add_all(&[e]).unwrap();
    }
    let run = |args: &[&str]| {
        let out = bgedit()
            .args(["library", "--library", path.to_str().unwrap()])
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    for args in [
        &["show", "1"][..],
        &["list"],
        &["export", "--format", "csv"],
        &["export", "--format", "anki"],
    ] {
        let out = run(args);
        assert!(
            !out.iter().any(|&b| b == 0x1b || b == 0x07),
            "{args:?}: {}",
            String::from_utf8_lossy(&out)
        );
    }
    assert!(String::from_utf8_lossy(&run(&["show", "1"])).contains("\\x1b]52;c;aGk="));
    drop(dir);
}

#[test]
fn a_note_too_long_fails_its_entry_alone_and_the_import_goes_on() {
    let (dir, path) = temp();
    let big = dir.path().join("big.txt");
    // An XG text export whose comment is over the 64 KiB a note may hold,
    // followed by a good position in the same file.
    let note = "x".repeat(store::MAX_NOTE_LEN + 10);
    std::fs::write(
        &big,
        format!(
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10\n\nX:Player 2   O:Player 1\n\
             Score is X:0 O:0. Unlimited Game\nX to play 52\n{note}\n\n    \
             1. XG Roller+  13/11 13/8     eq:+0.011\n\neXtreme Gammon Version: 2.19\n\n\
             XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10\n"
        ),
    )
    .unwrap();
    let other = dir.path().join("other.txt");
    std::fs::write(&other, "4NvBA0DGzooBBg:QYkqASAAIAAA\n").unwrap();
    let out = bgedit()
        .args(["library", "--library", path.to_str().unwrap(), "import"])
        .args([big.to_str().unwrap(), other.to_str().unwrap()])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("big.txt: 1 added, 0 already there (merged), 1 failed"),
        "{stdout}"
    );
    assert!(stdout.contains("other.txt: 1 added"), "{stdout}");
    assert!(
        stderr.contains("the note is 65546 bytes; at most 65536 are kept"),
        "{stderr}"
    );
}

#[test]
fn damage_inside_the_file_is_found_before_the_first_write() {
    let (_dir, path) = temp();
    {
        let mut lib = Library::open(&path).unwrap();
        let entries: Vec<NewEntry> = random::distinct(5, 3000)
            .into_iter()
            .map(|p| NewEntry::new(p, Source::Typed))
            .collect();
        lib.add_all(&entries).unwrap();
    }
    let mut bytes = std::fs::read(&path).unwrap();
    let page = 4096;
    assert!(bytes.len() > 40 * page, "{} bytes", bytes.len());
    // Ten pages in the middle overwritten, the header left as it was: the
    // file still opens.
    let middle = (bytes.len() / page / 2) * page;
    for b in &mut bytes[middle..middle + 10 * page] {
        *b = 0xA5;
    }
    std::fs::write(&path, &bytes).unwrap();
    let mut lib = match Library::open(&path) {
        Ok(lib) => lib,
        // Refused at open is as good: nothing is written either way.
        Err(e) => {
            assert!(e.to_string().contains("damaged"), "{e}");
            assert_eq!(std::fs::read(&path).unwrap(), bytes);
            return;
        }
    };
    let e = lib
        .add_all(&[NewEntry::new(
            pos("4HPwATDgc/ABMA:cAkAAAAAAAAA"),
            Source::Typed,
        )])
        .unwrap_err();
    let m = e.to_string();
    assert!(
        m.contains("damaged") && m.contains(path.to_str().unwrap()),
        "{m}"
    );
    drop(lib);
    assert_eq!(std::fs::read(&path).unwrap(), bytes, "the file was written");
}

/// A rollout finished on a position the library holds replaces the entry's
/// analysis (the editor finds the entry by its position); `add` keeps an
/// old analysis, so this is the only way a rollout gets in.
#[test]
fn a_rollout_replaces_the_stored_analysis_of_the_entry_holding_the_position() {
    let (_dir, path) = temp();
    let mut lib = Library::open(&path).unwrap();
    let mut first = entry("4HPwATDgc/ABMA:cAkOAAAAAAAA", "43 reply", &[], &[]);
    first.analysis = Some(store::Analysis {
        text: "1. Cubeful 0-ply 24/21 13/9".into(),
        depth: "gnubg 0-ply".into(),
    });
    let id = lib.add(&first).unwrap().id();
    let p = pos("4HPwATDgc/ABMA:cAkOAAAAAAAA");
    assert_eq!(lib.find(&p).unwrap(), Some(id));
    let rollout = store::Analysis {
        text: "1. Rollout 24/20 13/10 Eq.: +0.077".into(),
        depth: "gnubg rollout 1296 trials".into(),
    };
    lib.update(
        id,
        &EntryEdit {
            analysis: Some(Box::new(rollout.clone())),
            ..EntryEdit::default()
        },
    )
    .unwrap();
    assert_eq!(lib.get(id).unwrap().analysis, Some(rollout));
    // Not found: nothing to keep it with.
    assert_eq!(lib.find(&pos("4HPwATDgc/ABMA:cAkAAAAAAAAA")).unwrap(), None);
    // A depth with a line break is refused, and nothing changes.
    let bad = EntryEdit {
        analysis: Some(Box::new(store::Analysis {
            text: "x".into(),
            depth: "two\nlines".into(),
        })),
        ..EntryEdit::default()
    };
    assert!(lib.update(id, &bad).is_err());
    assert_eq!(
        lib.get(id).unwrap().analysis.unwrap().depth,
        "gnubg rollout 1296 trials"
    );
}

/// Runs `bgedit library --library PATH ARGS` as a user who cannot write to
/// a read-only directory: root writes anywhere, so as root the command runs
/// as `nobody`.
/// A child's status and both its streams, for a failed assertion.
fn said(out: &std::process::Output) -> String {
    format!(
        "status {:?}, stdout {:?}, stderr {:?}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn run_unprivileged(path: &Path, args: &[&str]) -> std::process::Output {
    use std::os::unix::process::CommandExt;
    let mut c = bgedit();
    c.args(["library", "--library", path.to_str().unwrap()])
        .args(args)
        .stdin(Stdio::null());
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        c.uid(65534).gid(65534);
        // nobody has no home: the library path is given, nothing else is
        // looked up there.
        c.env("HOME", "/nonexistent");
    }
    c.output().unwrap()
}

/// Fault 5: a library in a directory that cannot be written is opened to
/// read (SQLite's WAL files cannot be made there): it is listed, searched
/// and shown; a write is refused naming the file, and nothing is created
/// beside it.
#[test]
fn a_library_in_a_read_only_directory_is_read_and_never_written() {
    use std::os::unix::fs::PermissionsExt;
    let top = tempfile::tempdir().unwrap();
    let dir = top.path().join("ro");
    std::fs::create_dir(&dir).unwrap();
    let path = dir.join("library.sqlite");
    Library::open(&path)
        .unwrap()
        .add(&entry(
            "4HPwATDgc/ABMA:cAkAAAAAAAAA",
            "Opening",
            &["start"],
            &[],
        ))
        .unwrap();
    let before = std::fs::read(&path).unwrap();
    let listing = |d: &Path| {
        let mut names: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let files = listing(&dir);
    std::fs::set_permissions(top.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o555)).unwrap();

    let out = run_unprivileged(&path, &["list"]);
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("Opening"),
        "{}",
        said(&out)
    );
    // Each step says what bgedit said: this test once failed in a whole
    // run on another machine, and passed alone, with nothing to go on.
    let out = run_unprivileged(&path, &["search", "tag:start"]);
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).lines().count(),
        1,
        "{}",
        said(&out)
    );
    let out = run_unprivileged(&path, &["show", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));

    let out = run_unprivileged(&path, &["add", "4NvBA0DGzooBBg:QYkqASAAIAAA"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0));
    assert!(
        err.contains(path.to_str().unwrap()) && err.contains("is read-only"),
        "{err}"
    );
    assert_eq!(
        listing(&dir),
        files,
        "nothing created beside the file: {}",
        said(&out)
    );
    assert_eq!(std::fs::read(&path).unwrap(), before);
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The names in directory `d`, sorted.
fn listing(d: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Makes `dir` (in `top`) read-only to bgedit as `run_unprivileged` runs
/// it, its files readable.
fn read_only(top: &Path, dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(top, std::fs::Permissions::from_mode(0o755)).unwrap();
    for name in listing(dir) {
        let f = dir.join(name);
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o644)).unwrap();
    }
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o555)).unwrap();
}

/// Adds `e` to the library at `path` while another connection holds it
/// (as the editor does, or a second command): the writer cannot check its
/// WAL into the file on closing, and the reader is closed without doing it
/// either, so the entry is left committed in the WAL, as a writer killed
/// there leaves it.
fn add_into_the_wal(path: &Path, e: &NewEntry) {
    use rusqlite::config::DbConfig;
    let reader = rusqlite::Connection::open(path).unwrap();
    let _: i64 = reader
        .query_row("SELECT count(*) FROM entries", [], |r| r.get(0))
        .unwrap();
    Library::open(path).unwrap().add(e).unwrap();
    reader
        .set_db_config(DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, true)
        .unwrap();
    drop(reader);
}

/// A library that cannot be written whose last writes are still in its
/// WAL is read whole: opened `immutable`, SQLite ignored the WAL and the
/// entry committed there was not listed (what the read-only directory
/// test above meets when the writer's WAL outlives it). Nothing is
/// created beside it, and nothing is written.
#[test]
fn a_read_only_library_is_read_with_the_writes_in_its_wal() {
    let top = tempfile::tempdir().unwrap();
    let dir = top.path().join("ro");
    std::fs::create_dir(&dir).unwrap();
    let path = dir.join("library.sqlite");
    Library::open(&path)
        .unwrap()
        .add(&entry(
            "4HPwATDgc/ABMA:cAkAAAAAAAAA",
            "Opening",
            &["start"],
            &[],
        ))
        .unwrap();
    add_into_the_wal(
        &path,
        &entry("4NvBA0DGzooBBg:QYkqASAAIAAA", "Later", &["wal"], &[]),
    );
    let wal = dir.join("library.sqlite-wal");
    assert!(
        std::fs::metadata(&wal).unwrap().len() > 0,
        "the entry is in the WAL"
    );
    read_only(top.path(), &dir);
    let (files, before, wal_before) = (
        listing(&dir),
        std::fs::read(&path).unwrap(),
        std::fs::read(&wal).unwrap(),
    );
    let out = run_unprivileged(&path, &["list"]);
    let listed = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    assert!(
        listed.contains("Opening") && listed.contains("Later"),
        "{}",
        said(&out)
    );
    let out = run_unprivileged(&path, &["search", "tag:wal"]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).lines().count(),
        1,
        "{}",
        said(&out)
    );
    assert_eq!(listing(&dir), files, "nothing created beside it");
    assert_eq!(std::fs::read(&path).unwrap(), before);
    assert_eq!(std::fs::read(&wal).unwrap(), wal_before);
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// `library merge` reads sources on read-only storage: one with nothing
/// beside it (SQLite, opening it to read, wanted to make its WAL there:
/// "unable to open database file"), and one whose last match is still in
/// a WAL copied without its shared memory (read from a private copy). Each
/// is merged whole, and nothing is created beside either or written.
#[test]
fn a_merge_reads_sources_on_read_only_storage() {
    use std::os::unix::fs::PermissionsExt;
    let top = tempfile::tempdir().unwrap();
    let fixture = |name: &str| format!("{}/tests/fixtures/mat/{name}", env!("CARGO_MANIFEST_DIR"));
    let import = |lib: &Path, name: &str| {
        let (code, _, err) = common::run::library(lib, &["import", &fixture(name)]);
        assert_eq!(code, Some(0), "{err}");
    };
    // A clean source: its writer gone, nothing beside it.
    let clean = top.path().join("clean");
    std::fs::create_dir(&clean).unwrap();
    import(&clean.join("library.sqlite"), "selfplay_1pt_seed37.mat");
    // A source whose second match is in its WAL, copied with the WAL but
    // not the shared memory.
    let made = top.path().join("made");
    std::fs::create_dir(&made).unwrap();
    let lib = made.join("library.sqlite");
    import(&lib, "selfplay_3pt_seed23.mat");
    let reader = rusqlite::Connection::open(&lib).unwrap();
    let _: i64 = reader
        .query_row("SELECT count(*) FROM matches", [], |r| r.get(0))
        .unwrap();
    import(&lib, "selfplay_5pt_seed7.mat");
    let walled = top.path().join("walled");
    std::fs::create_dir(&walled).unwrap();
    for name in ["library.sqlite", "library.sqlite-wal"] {
        std::fs::copy(made.join(name), walled.join(name)).unwrap();
    }
    drop(reader);
    assert!(
        std::fs::metadata(walled.join("library.sqlite-wal"))
            .unwrap()
            .len()
            > 0
    );
    let mut sources = Vec::new();
    for dir in [&clean, &walled] {
        read_only(top.path(), dir);
        let path = dir.join("library.sqlite");
        sources.push((dir.clone(), listing(dir), std::fs::read(&path).unwrap()));
    }
    let target_dir = top.path().join("target");
    std::fs::create_dir(&target_dir).unwrap();
    std::fs::set_permissions(&target_dir, std::fs::Permissions::from_mode(0o777)).unwrap();
    let target = target_dir.join("library.sqlite");
    let clean_lib = clean.join("library.sqlite");
    let walled_lib = walled.join("library.sqlite");
    let out = run_unprivileged(
        &target,
        &[
            "merge",
            clean_lib.to_str().unwrap(),
            walled_lib.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    let lines: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect();
    assert!(
        lines[0].ends_with(": 1 new match, 0 already there, 0 verdicts added"),
        "{lines:?}"
    );
    assert!(
        lines[1].ends_with(": 2 new matches, 0 already there, 0 verdicts added"),
        "{lines:?}"
    );
    for (dir, files, bytes) in sources {
        assert_eq!(
            listing(&dir),
            files,
            "nothing created beside {}",
            dir.display()
        );
        assert_eq!(std::fs::read(dir.join("library.sqlite")).unwrap(), bytes);
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// One bad row in a source that SQLite's checks pass (a text that is not
/// UTF-8, a match length out of range) leaves out its match alone: the
/// other sources and the source's other matches are merged, the bad ones
/// named, and the exit status is 1.
#[test]
fn a_bad_row_in_a_merge_source_leaves_out_its_match_alone() {
    let dir = tempfile::tempdir().unwrap();
    let fixture = |name: &str| format!("{}/tests/fixtures/mat/{name}", env!("CARGO_MANIFEST_DIR"));
    let made = |name: &str, files: &[&str]| {
        let lib = dir.path().join(name);
        let mut args = vec!["import".to_owned()];
        args.extend(files.iter().map(|f| fixture(f)));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, _, err) = common::run::library(&lib, &args);
        assert_eq!(code, Some(0), "{err}");
        lib
    };
    let a = made("a.sqlite", &["selfplay_1pt_seed37.mat"]);
    let bad = made(
        "bad.sqlite",
        &[
            "selfplay_3pt_seed23.mat",
            "selfplay_5pt_seed7.mat",
            "selfplay_7pt_seed19.mat",
        ],
    );
    let c = made("c.sqlite", &["selfplay_9pt_seed31.mat"]);
    let conn = rusqlite::Connection::open(&bad).unwrap();
    conn.execute_batch(
        "UPDATE matches SET player_o = CAST(x'ff41' AS TEXT) WHERE id = 1; \
         UPDATE matches SET length = 70000 WHERE id = 3;",
    )
    .unwrap();
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(check, "ok", "SQLite's check passes the bad rows");
    drop(conn);
    let target = dir.path().join("all.sqlite");
    let (code, out, err) = common::run::library(
        &target,
        &[
            "merge",
            a.to_str().unwrap(),
            bad.to_str().unwrap(),
            c.to_str().unwrap(),
        ],
    );
    assert_eq!(code, Some(1), "{out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(
        lines[0].ends_with(": 1 new match, 0 already there, 0 verdicts added"),
        "{out}"
    );
    assert!(
        lines[1].ends_with(": 1 new match, 0 already there, 0 verdicts added"),
        "{out}"
    );
    assert!(
        lines[2].ends_with(": 1 new match, 0 already there, 0 verdicts added"),
        "{out}"
    );
    for id in [1, 3] {
        assert!(
            err.contains(&format!("match {id}: ")) && err.contains("not merged"),
            "{err}"
        );
    }
    assert_eq!(err.lines().count(), 2, "{err}");
    let players: Vec<String> = {
        let conn = rusqlite::Connection::open(&target).unwrap();
        let mut st = conn
            .prepare("SELECT path FROM matches ORDER BY id")
            .unwrap();
        st.query_map([], |r| r.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap()
    };
    assert_eq!(players.len(), 3, "{players:?}");
    assert!(
        players[1].ends_with("selfplay_5pt_seed7.mat"),
        "{players:?}"
    );
}

/// Every error about the library names its file; a full disk says so.
#[test]
fn library_errors_name_the_file_and_say_disk_full() {
    let path = Path::new("/data/lib.sqlite");
    let full =
        rusqlite::Error::SqliteFailure(rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_FULL), None);
    let m = store::describe(path, &store::LibraryError::from(full));
    assert!(m.starts_with("/data/lib.sqlite: the disk is full"), "{m}");
    let m = store::describe(path, &store::LibraryError::Busy);
    assert!(
        m.starts_with("/data/lib.sqlite: the library is busy"),
        "{m}"
    );
    let m = store::describe(path, &store::LibraryError::NoEntry(3));
    assert_eq!(m, "no entry 3");
}

/// `library add` from standard input writes a batch per transaction, yet a
/// script that feeds one line and waits gets its answer before sending the
/// next: a batch is answered as soon as no more input is waiting.
#[test]
fn add_answers_each_line_of_a_script_before_the_next_and_batches_a_pipe() {
    use std::io::{BufRead, BufReader};
    let (_dir, path) = temp();
    let mut child = bgedit()
        .args(["library", "--library", path.to_str().unwrap(), "add"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                return;
            }
        }
    });
    let wait = Duration::from_secs(30);
    stdin.write_all(b"4HPwATDgc/ABMA:cAkAAAAAAAAA\n").unwrap();
    stdin.flush().unwrap();
    assert_eq!(rx.recv_timeout(wait).unwrap(), "added entry 1");
    stdin
        .write_all(b"not an id\n4NvBA0DGzooBBg:QYkqASAAIAAA\n")
        .unwrap();
    stdin.flush().unwrap();
    assert_eq!(rx.recv_timeout(wait).unwrap(), "added entry 2");
    // A pipe's worth at once: every line answered, in order.
    let many: String = random::distinct(2026, 3000)
        .iter()
        .map(|p| to_string_as(p, IdFormat::GnubgId) + "\n")
        .collect();
    let mut distinct: BTreeSet<&str> = many.lines().collect();
    distinct.extend(["4HPwATDgc/ABMA:cAkAAAAAAAAA", "4NvBA0DGzooBBg:QYkqASAAIAAA"]);
    stdin.write_all(many.as_bytes()).unwrap();
    drop(stdin);
    let mut answers = Vec::new();
    while let Ok(l) = rx.recv_timeout(wait) {
        answers.push(l);
    }
    let status = child.wait().unwrap();
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(1), "one bad line");
    assert!(err.starts_with("line 2: not an ID"), "{err}");
    assert_eq!(answers.len(), 3000);
    let lib = Library::open(&path).unwrap();
    let total = lib.count(&filter::parse("").unwrap()).unwrap();
    assert_eq!(total as usize, distinct.len());
}

/// Version 7 turns SM-2 schedules into FSRS states: a reviewed entry is in
/// review with its interval as stability, its ease as difficulty (2.5 is 5,
/// 1.3 is 10), last reviewed one interval before it is due; its next review
/// then follows FSRS.
#[test]
fn sm2_schedules_become_fsrs_states() {
    let (_dir, path) = temp();
    {
        let conn = rusqlite::Connection::open(&path).unwrap();
        for step in &schema::MIGRATIONS[..6] {
            conn.execute_batch(step).unwrap();
        }
        conn.pragma_update(None, "application_id", APPLICATION_ID)
            .unwrap();
        conn.pragma_update(None, "user_version", 6).unwrap();
    }
    // Two entries as version 6 wrote them, then their SM-2 state.
    let conn = rusqlite::Connection::open(&path).unwrap();
    for (n, id) in ["4HPwATDgc/ABMA:cAkAAAAAAAAA", "4NvBA0DGzooBBg:QYkqASAAIAAA"]
        .iter()
        .enumerate()
    {
        let p = pos(id);
        conn.execute(
            "INSERT INTO entries (gnubg_id, xgid, position_json, title, note, source, created, \
             updated, pips_o, pips_x, pips_on_roll, pip_diff, race, bar, match_length, score_o, \
             score_x, crawford, cube, on_roll) VALUES (?1, ?2, ?3, ?4, '', 'typed', 1000, 1000, \
             167, 167, 167, 0, 0, 0, 0, 0, 0, 0, 1, 'X')",
            rusqlite::params![
                to_string_as(&p, IdFormat::GnubgId),
                to_string_as(&p, IdFormat::Xgid),
                to_string_as(&p, IdFormat::Json),
                format!("e{n}")
            ],
        )
        .unwrap();
    }
    // Entry 1 reviewed three times (6.5 days, ease 2.2); entry 2 never.
    conn.execute(
        "UPDATE entries SET reviews = 3, interval_days = 6.5, ease = 2.2, due = 2000000 WHERE id = 1",
        [],
    )
    .unwrap();
    drop(conn);
    let mut lib = Library::open(&path).unwrap();
    assert_eq!(lib.schema_version().unwrap(), schema::LATEST);
    let s = lib.get(1).unwrap().schedule;
    assert_eq!((s.state, s.reviews, s.due), (2, 3, 2_000_000));
    assert!((s.stability - 6.5).abs() < 1e-9, "{s:?}");
    assert!((s.difficulty - 6.25).abs() < 1e-9, "{s:?}");
    assert_eq!(s.last_review, 2_000_000 - 561_600);
    let fresh = lib.get(2).unwrap().schedule;
    assert_eq!(
        (fresh.state, fresh.reviews, fresh.last_review),
        (0, 0, 1000)
    );
    // The next review is FSRS's from that state: known on time, the
    // interval grows beyond the stability.
    let next = lib.review(1, Rating::Good, 2_000_000, None).unwrap();
    assert_eq!(next.state, 2);
    assert!(next.interval_days > 6.5, "{next:?}");
    assert_eq!(lib.get(1).unwrap().schedule, next);
}

/// The quiz's statistics from its kept answers: totals, the mean error in
/// mEMG, weeks from Monday 00:00 UTC, the entries missed most; per
/// collection and overall.
#[test]
fn quiz_statistics_count_grades_weeks_and_misses() {
    use bgedit_library::review::QuizResult;
    let (_dir, path) = temp();
    let mut lib = Library::open(&path).unwrap();
    lib.add_all(&[
        entry("4HPwATDgc/ABMA:cAkAAAAAAAAA", "Opening", &[], &["a"]),
        entry("4NvBA0DGzooBBg:QYkqASAAIAAA", "Blitz", &[], &["a"]),
    ])
    .unwrap();
    let result = |collection: &str, grade: &str, error: f64| QuizResult {
        collection: collection.to_owned(),
        grade: grade.to_owned(),
        error: Some(error),
    };
    // Tuesday 2023-11-14 22:13 UTC, its week from Monday 2023-11-13; then
    // the next week.
    let tuesday = 1_700_000_000;
    let monday = 1_699_833_600;
    lib.review(1, Rating::Good, tuesday, Some(&result("a", "correct", 0.0)))
        .unwrap();
    lib.review(
        2,
        Rating::Again,
        tuesday + 60,
        Some(&result("a", "bad", 0.08)),
    )
    .unwrap();
    lib.review(
        2,
        Rating::Hard,
        tuesday + 7 * 86_400,
        Some(&result("b", "doubtful", 0.04)),
    )
    .unwrap();
    let all = lib.quiz_stats(None).unwrap();
    assert_eq!((all.answers, all.graded, all.correct), (3, 3, 1));
    assert!((all.mean_memg.unwrap() - 40.0).abs() < 1e-9, "{all:?}");
    let weeks: Vec<(i64, i64, i64)> = all
        .weeks
        .iter()
        .map(|w| (w.start, w.answers, w.correct))
        .collect();
    assert_eq!(weeks, [(monday, 2, 1), (monday + 7 * 86_400, 1, 0)]);
    assert_eq!(all.missed.len(), 1);
    assert_eq!(
        (
            all.missed[0].id,
            all.missed[0].missed,
            all.missed[0].answers
        ),
        (2, 1, 2)
    );
    let a = lib.quiz_stats(Some("a")).unwrap();
    assert_eq!((a.answers, a.correct), (2, 1));
    assert!((a.mean_memg.unwrap() - 40.0).abs() < 1e-9);
    assert_eq!(lib.quizzed_collections().unwrap(), ["a", "b"]);
}

/// Anki notes with pictures: `--media DIR` draws each position as a PNG
/// there (named by its GNUBG ID, as the editor names them) and the note's
/// front shows it with the question; `--media` with another format is
/// refused.
#[test]
fn anki_export_draws_each_position_into_the_media_folder() {
    let (dir, path) = temp();
    Library::open(&path)
        .unwrap()
        .add_all(&[
            entry("4HPwATDgc/ABMA:cAkFAAAAAAAE", "Opening", &["start"], &[]),
            entry("dwcAANwdAAAAAA:cAkAAAAAAAAE", "Bear-off", &[], &[]),
        ])
        .unwrap();
    let media = dir.path().join("collection.media");
    let out = bgedit()
        .args(["library", "--library", path.to_str().unwrap(), "export"])
        .args(["--format", "anki", "--media", media.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let csv = String::from_utf8(out.stdout).unwrap();
    assert!(csv.starts_with("#separator:Comma"), "{csv}");
    for (id, question) in [
        ("4HPwATDgc_ABMA_cAkFAAAAAAAE", "X to play 21. Best move?"),
        ("dwcAANwdAAAAAA_cAkAAAAAAAAE", "X on roll. Double, or roll?"),
    ] {
        let name = format!("bgedit-{id}.png");
        assert!(
            csv.contains(&format!("<img src=\"\"{name}\"\"><br>{question}")),
            "{csv}"
        );
        let png = std::fs::read(media.join(&name)).unwrap();
        assert_eq!(&png[1..4], b"PNG");
    }
    assert!(!csv.contains("<pre>+13-14"), "no text board: {csv}");
    let out = bgedit()
        .args(["library", "--library", path.to_str().unwrap(), "export"])
        .args(["--format", "csv", "--media", media.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--media is for --format anki"));
}

/// `import --errors E` of a match file without analysis (a `.mat`): its
/// decisions have no error, so none is "below the threshold"; the report
/// counts them apart and says plainly that the file carries no analysis.
/// A file with analysis (gnubg's SGF) is counted by its errors as before.
#[test]
fn errors_threshold_on_a_file_without_analysis_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let lib = tmp.path().join("lib.db");
    let lib = lib.to_str().unwrap();
    let fixtures = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");
    let mat = format!("{fixtures}/analysis/m5_noisy.mat");
    let out = common::run::bgedit(
        &[
            "library",
            "--library",
            lib,
            "import",
            "--errors",
            "0.06",
            &mat,
        ],
        "",
    );
    let (stdout, stderr) = (
        common::run::text(&out.stdout),
        common::run::text(&out.stderr),
    );
    assert!(stdout.contains("0 added"), "{stdout}");
    assert!(
        stdout.contains(", 0 below the error threshold, "),
        "{stdout}"
    );
    assert!(stdout.contains(" not analysed in the file"), "{stdout}");
    assert!(stderr.contains("the file carries no analysis"), "{stderr}");
    // The same match as gnubg saved it, analysed: counted by its errors.
    let sgf = format!("{fixtures}/selfplay/m5_driven.sgf");
    let out = common::run::bgedit(
        &[
            "library",
            "--library",
            lib,
            "import",
            "--errors",
            "0.06",
            &sgf,
        ],
        "",
    );
    let (stdout, stderr) = (
        common::run::text(&out.stdout),
        common::run::text(&out.stderr),
    );
    assert!(stdout.contains("below the error threshold"), "{stdout}");
    assert!(!stderr.contains("carries no analysis"), "{stderr}");
    let added: u64 = stdout
        .split(": ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(added > 0, "{stdout}");
}

/// A file that is not a match is read a line at a time, each line at most
/// 1 MiB as in every batch command: 200 MiB with no line end (a sparse
/// file, all NUL bytes) is refused at its first line in the memory of a
/// few lines. It was read whole, a second copy made, to say the line was
/// not an ID: run under a 150 MB address-space limit, that fails.
#[test]
fn a_huge_file_that_is_not_a_match_is_imported_in_bounded_memory() {
    let (dir, lib) = temp();
    let huge = dir.path().join("huge.txt");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(200 << 20)
        .unwrap();
    let out = Command::new("sh")
        .arg("-c")
        .arg(r#"ulimit -v 150000 && exec "$0" "$@""#)
        .arg(env!("CARGO_BIN_EXE_bgedit"))
        .args(["library", "--library"])
        .arg(&lib)
        .arg("import")
        .arg(&huge)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("huge.txt: line 1: longer than 1 MiB and no end of line"),
        "{err}"
    );
    // Lines after a long one are still read, each numbered.
    let mixed = dir.path().join("mixed.txt");
    let text = format!(
        "4HPwATDgc/ABMA\n{}\r\n4HPhASLgc/ABMA\rnot an id\n",
        "x".repeat(3 << 20)
    );
    std::fs::write(&mixed, text).unwrap();
    let out = bgedit()
        .args(["library", "--library"])
        .arg(&lib)
        .arg("import")
        .arg(&mixed)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("mixed.txt: line 2: longer than 1 MiB"),
        "{err}"
    );
    assert!(err.contains("mixed.txt: line 4: "), "{err}");
    assert!(
        said.contains("2 added, 0 already there (merged), 2 failed"),
        "{said}"
    );
}

/// `--errors` is an equity lost: `NaN` (which keeps nothing, silently),
/// `inf` and a negative number are refused by name.
#[test]
fn a_non_finite_or_negative_error_threshold_is_refused() {
    let (_dir, lib) = temp();
    for bad in ["NaN", "inf", "-0.1"] {
        let out = bgedit()
            .args(["library", "--library"])
            .arg(&lib)
            .args(["import", &format!("--errors={bad}"), "/dev/null"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {err}");
        assert!(
            err.contains("--errors") && err.contains("not an equity lost"),
            "{bad}: {err}"
        );
    }
}
