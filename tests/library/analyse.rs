//! `library analyse` and `library merge` with the real binary and this
//! machine's gnubg: the numbers of `analyse --file`, a run killed with
//! SIGKILL and run again equal to one uninterrupted run, two shards merged
//! equal to one whole run (by hand and with GNU parallel), and foreign
//! libraries refused by a merge.

use crate::common;
use crate::common::run::library;

use bgedit_library::match_import::StoredJudgement;
use bgedit_library::store::Library;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

/// Small real matches (gnubg self-play, the generator's), quick at 2-ply;
/// the first of several games, so a run killed after its first game's
/// verdicts leaves a match part analysed.
const MATCHES: [&str; 3] = [
    "mat/selfplay_5pt_seed7.mat",
    "mat/selfplay_3pt_seed23.mat",
    "mat/selfplay_1pt_seed37.mat",
];

fn fixture(name: &str) -> PathBuf {
    Path::new(FIXTURES).join(name)
}

/// A library holding `MATCHES`.
fn imported(dir: &Path, name: &str) -> PathBuf {
    let lib = dir.join(name);
    let files: Vec<String> = MATCHES
        .iter()
        .map(|m| fixture(m).display().to_string())
        .collect();
    let mut args = vec!["import"];
    args.extend(files.iter().map(String::as_str));
    let (code, _, err) = library(&lib, &args);
    assert_eq!(code, Some(0), "{err}");
    lib
}

/// bgedit's verdicts, one line each: the match's hash, the decision's
/// place, engine, depth, error (6 decimals) and the judgements' JSON.
fn table(lib: &Path) -> Vec<String> {
    let conn = rusqlite::Connection::open(lib).unwrap();
    let mut st = conn
        .prepare(
            "SELECT m.hash, d.seq, a.engine, a.plies, a.depth, printf('%.6f', a.error), \
             a.analysis FROM analyses a JOIN decisions d ON d.id = a.decision_id \
             JOIN matches m ON m.id = d.match_id WHERE NOT a.from_file \
             ORDER BY m.hash, d.seq, a.engine, a.plies",
        )
        .unwrap();
    st.query_map([], |r| {
        Ok(format!(
            "{} {} {} {} {} {} {}",
            r.get::<_, String>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, String>(2)?,
            r.get::<_, i64>(3)?,
            r.get::<_, String>(4)?,
            r.get::<_, Option<String>>(5)?.unwrap_or_default(),
            r.get::<_, String>(6)?
        ))
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

/// The library's 2-ply analysis of a committed match judges every decision
/// as `analyse --file F --plies 2` does: the same decisions in the same
/// order, the same best choice and the same error to the printed digit.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn library_analyse_gives_the_numbers_of_analyse_file() {
    common::gnubg();
    let dir = tempfile::tempdir().unwrap();
    let file = fixture(MATCHES[1]);
    // 57 decisions: the 3-point match.
    let lib = dir.path().join("lib.sqlite");
    let (code, _, err) = library(&lib, &["import", file.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    let (code, out, err) = library(&lib, &["analyse", "--plies", "2", "--jobs", "2"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.starts_with("analysed 57 decisions of 1 match (gnubg 2-ply)"),
        "{out}"
    );
    let stored: Vec<StoredJudgement> = Library::open(&lib)
        .unwrap()
        .verdicts(1)
        .unwrap()
        .into_iter()
        .filter(|v| !v.verdict.from_file && v.verdict.plies == 2)
        .flat_map(|v| serde_json::from_str::<Vec<StoredJudgement>>(&v.verdict.text).unwrap())
        .collect();
    let out = common::run::command()
        .args([
            "analyse", "--plies", "2", "--jobs", "2", "--format", "json", "--file",
        ])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", common::run::text(&out.stderr));
    let lines: Vec<Value> = common::run::text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|v: &Value| v.get("summary").is_none())
        .collect();
    assert_eq!(stored.len(), lines.len());
    assert!(stored.len() > 57, "the cube before a roll is judged too");
    for (s, l) in stored.iter().zip(&lines) {
        assert_eq!(s.judgement.kind.word(), l["kind"], "{l}");
        assert_eq!(s.judgement.player.to_string(), l["player"], "{l}");
        assert_eq!(s.best, l["best"], "{l}");
        assert_eq!(s.played, l["played"], "{l}");
        let e = l["error"].as_f64().unwrap();
        assert!(
            (s.judgement.error - e).abs() < 1e-6,
            "{} {l}",
            s.judgement.error
        );
    }
}

/// Two jobs give the verdicts and the luck of one, to the last bit, while
/// they cut the matches differently: at 0-ply one job asks each match's
/// pieces in one gnubg request, two jobs in two requests of other pieces
/// each, two matches in flight at once on the engines kept for the run.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn two_jobs_give_the_verdicts_and_luck_of_one() {
    common::gnubg();
    let dir = tempfile::tempdir().unwrap();
    let one = imported(dir.path(), "one.sqlite");
    let two = imported(dir.path(), "two.sqlite");
    let (code, out, err) = library(&one, &["analyse", "--plies", "0", "--jobs", "1"]);
    assert_eq!(code, Some(0), "{err}");
    let decisions = count(&one, "SELECT count(*) FROM decisions");
    assert!(
        out.starts_with(&format!("analysed {decisions} decisions of 3 matches")),
        "{out}"
    );
    let (code, _, err) = library(&two, &["analyse", "--plies", "0", "--jobs", "2"]);
    assert_eq!(code, Some(0), "{err}");
    let expected = table(&one);
    assert_eq!(expected.len() as i64, decisions);
    assert_eq!(table(&two), expected);
    let luck = lucks(&one);
    assert_eq!(luck.len(), MATCHES.len());
    assert_eq!(lucks(&two), luck);
}

/// `library analyse` killed with SIGKILL part way, then run again, ends
/// with the same verdicts and luck as one uninterrupted run: what was
/// stored before the kill is kept, the rest is done.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn a_killed_analysis_goes_on_where_it_stopped() {
    common::gnubg();
    let dir = tempfile::tempdir().unwrap();
    let whole = imported(dir.path(), "whole.sqlite");
    let killed = imported(dir.path(), "killed.sqlite");
    let (code, _, err) = library(&whole, &["analyse", "--jobs", "1"]);
    assert_eq!(code, Some(0), "{err}");
    let expected = table(&whole);
    let decisions = count(&whole, "SELECT count(*) FROM decisions");
    assert_eq!(expected.len() as i64, decisions);

    let mut child = common::run::command()
        .args(["library", "--library"])
        .arg(&killed)
        .args(["analyse", "--jobs", "1"])
        .spawn()
        .unwrap();
    let started = Instant::now();
    let own = "SELECT count(*) FROM analyses WHERE NOT from_file";
    let stored_before = loop {
        let n = rusqlite::Connection::open(&killed)
            .ok()
            .and_then(|c| c.query_row(own, [], |r| r.get::<_, i64>(0)).ok())
            .unwrap_or(0);
        if n > 0 || started.elapsed() > Duration::from_secs(120) {
            break n;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let after_kill = count(&killed, own);
    assert!(
        stored_before > 0 && after_kill < decisions,
        "{after_kill} of {decisions}"
    );
    // The kill fell inside a match: some of its decisions stored, not all.
    let part_done = count(
        &killed,
        "SELECT count(*) FROM (SELECT count(a.decision_id) AS n, count(*) AS all_ \
         FROM decisions d LEFT JOIN analyses a ON a.decision_id = d.id AND NOT a.from_file \
         GROUP BY d.match_id) WHERE n > 0 AND n < all_",
    );
    assert_eq!(part_done, 1, "{after_kill} of {decisions}");

    let (code, out, err) = library(&killed, &["analyse", "--jobs", "1"]);
    assert_eq!(code, Some(0), "{err}");
    // Only what the killed run had not stored is analysed again.
    assert!(
        out.starts_with(&format!("analysed {} decisions", decisions - after_kill)),
        "{out} ({after_kill} of {decisions} stored before)"
    );
    // Exactly the uninterrupted run's: every verdict (best choices, errors
    // and costs to the last bit) and every match's luck, the resumed one's
    // too (its unfinished game asked whole again, as that run asked it).
    assert_eq!(table(&killed), expected);
    let luck = lucks(&whole);
    assert_eq!(luck.len(), MATCHES.len());
    assert_eq!(lucks(&killed), luck);
    // A third run has nothing left.
    let (_, out, _) = library(&killed, &["analyse", "--jobs", "1"]);
    assert!(
        out.starts_with("analysed 0 decisions of 0 matches"),
        "{out}"
    );
}

/// Each match's luck by engine and depth, one line each (the match's
/// hash, engine, plies, O's and X's luck to every bit).
fn lucks(lib: &Path) -> Vec<String> {
    let conn = rusqlite::Connection::open(lib).unwrap();
    let mut st = conn
        .prepare(
            "SELECT m.hash, l.engine, l.plies, l.luck_o, l.luck_x FROM match_luck l \
             JOIN matches m ON m.id = l.match_id ORDER BY m.hash, l.engine, l.plies",
        )
        .unwrap();
    st.query_map([], |r| {
        Ok(format!(
            "{} {} {} {:e} {:e}",
            r.get::<_, String>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, i64>(2)?,
            r.get::<_, f64>(3)?,
            r.get::<_, f64>(4)?
        ))
    })
    .unwrap()
    .collect::<rusqlite::Result<_>>()
    .unwrap()
}

/// Two shards analysed apart and merged equal one whole run: every match,
/// decision and verdict once, none lost or doubled.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn two_shards_merged_equal_one_whole_run() {
    common::gnubg();
    let dir = tempfile::tempdir().unwrap();
    let whole = imported(dir.path(), "whole.sqlite");
    let (code, _, err) = library(&whole, &["analyse", "--plies", "0"]);
    assert_eq!(code, Some(0), "{err}");
    let mut shards = Vec::new();
    let mut analysed = 0;
    for k in ["1/2", "2/2"] {
        let lib = imported(dir.path(), &format!("shard{}.sqlite", &k[..1]));
        let (code, out, err) = library(&lib, &["analyse", "--plies", "0", "--shard", k]);
        assert_eq!(code, Some(0), "{err}");
        let n: u64 = out.split(' ').nth(4).unwrap().parse().unwrap();
        assert!(n > 0, "each shard has a match here: {out}");
        analysed += n;
        shards.push(lib);
    }
    assert_eq!(analysed, MATCHES.len() as u64, "the shards are disjoint");
    check_merged(dir.path(), &whole, &shards);
}

/// Merges `shards` into a new library and checks it against `whole`.
fn check_merged(dir: &Path, whole: &Path, shards: &[PathBuf]) {
    let merged = dir.join("merged.sqlite");
    let mut args = vec!["merge".to_owned()];
    args.extend(shards.iter().map(|s| s.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = library(&merged, &args);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.lines().count(), shards.len(), "{out}");
    assert_eq!(table(&merged), table(whole));
    assert!(count(whole, "SELECT count(*) FROM match_luck") > 0);
    for t in [
        "matches",
        "games",
        "decisions",
        "analyses",
        "match_luck",
        "entries",
    ] {
        let sql = format!("SELECT count(*) FROM {t}");
        assert_eq!(count(&merged, &sql), count(whole, &sql), "{t}");
    }
    // Merging again adds nothing.
    let (_, out, _) = library(&merged, &args);
    assert!(out.contains(" 0 new matches, ") && out.contains(" 0 verdicts added"));
    assert_eq!(table(&merged), table(whole));
}

/// The shards run by GNU parallel, as docs/library.md shows it: one job a
/// working directory (`--sshlogin :` is this machine; another machine's
/// name runs it there), each with its copy of the library, then merged.
#[test]
#[cfg_attr(
    not(all(bgedit_has_gnubg, bgedit_has_parallel)),
    ignore = "needs gnubg and GNU parallel (apt-get install gnubg parallel)"
)]
fn shards_run_with_gnu_parallel_merge_to_one_whole_run() {
    common::gnubg();
    let parallel = common::gnu_parallel();
    let dir = tempfile::tempdir().unwrap();
    let whole = imported(dir.path(), "whole.sqlite");
    let (code, _, err) = library(&whole, &["analyse", "--plies", "0"]);
    assert_eq!(code, Some(0), "{err}");
    let mut shards = Vec::new();
    for w in ["w1", "w2"] {
        let wd = dir.path().join(w);
        std::fs::create_dir(&wd).unwrap();
        imported(&wd, "library.sqlite");
        shards.push(wd.join("library.sqlite"));
    }
    let out = Command::new(parallel)
        .current_dir(dir.path())
        .args(["--will-cite", "--sshlogin", ":", "--workdir", "."])
        .arg(format!(
            "cd {{1}} && {} library --library library.sqlite analyse --plies 0 --shard {{2}}/2",
            env!("CARGO_BIN_EXE_bgedit")
        ))
        .args([":::", "w1", "w2", ":::+", "1", "2"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        common::run::text(&out.stdout),
        common::run::text(&out.stderr)
    );
    check_merged(dir.path(), &whole, &shards);
}

/// A merge reads its sources only when they are bgedit libraries of this
/// schema: another program's database, a file that is not SQLite and a
/// directory are each refused by name, and nothing is merged from them.
#[test]
fn a_merge_refuses_what_is_not_a_library() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("lib.sqlite");
    let other = dir.path().join("other.db");
    rusqlite::Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        .unwrap();
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "x".repeat(4096)).unwrap();
    let old = dir.path().join("old.sqlite");
    {
        let conn = rusqlite::Connection::open(&old).unwrap();
        conn.execute_batch(bgedit_library::schema::V1).unwrap();
        conn.pragma_update(
            None,
            "application_id",
            bgedit_library::schema::APPLICATION_ID,
        )
        .unwrap();
        conn.pragma_update(None, "user_version", 1).unwrap();
    }
    for (source, says) in [
        (
            &other,
            "is not a bgedit library (an SQLite database of another program",
        ),
        (
            &text,
            "is not a bgedit library (it does not start with SQLite's header)",
        ),
        (
            &old,
            "is a library of schema 1: open it once with this bgedit",
        ),
        (
            &dir.path().to_owned(),
            "is not a bgedit library (a directory)",
        ),
    ] {
        let (code, out, err) = library(&target, &["merge", source.to_str().unwrap()]);
        assert_eq!(code, Some(1), "{err}");
        assert!(err.contains(says) && err.contains("not merged"), "{err}");
        assert!(out.is_empty(), "{out}");
    }
    assert_eq!(count(&target, "SELECT count(*) FROM matches"), 0);
    // The sources are as they were.
    assert_eq!(std::fs::read(&text).unwrap(), "x".repeat(4096).as_bytes());
}

/// `stats --player` gives, for each of the player's matches, the rates
/// `analyse --file F` gives that player at the same depth (gnubg's
/// `show statistics match` figures and XG's PR), in date order, then a
/// summary; `--since` keeps the later matches, and a player with no match
/// is said plainly (exit 1).
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn stats_for_a_player_are_the_match_analysis_numbers() {
    common::gnubg();
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    let driven = fixture("selfplay/m5_driven.sgf");
    let three = fixture(MATCHES[1]);
    let (code, _, err) = library(
        &lib,
        &["import", driven.to_str().unwrap(), three.to_str().unwrap()],
    );
    assert_eq!(code, Some(0), "{err}");
    let (code, _, err) = library(&lib, &["analyse", "--plies", "0"]);
    assert_eq!(code, Some(0), "{err}");
    let stats = |extra: &[&str]| {
        let out = common::run::command()
            .args([
                "stats",
                "--player",
                "gnubg",
                "--format",
                "json",
                "--library",
            ])
            .arg(&lib)
            .args(extra)
            .output()
            .unwrap();
        let lines: Vec<Value> = common::run::text(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        (out.status.code(), lines, common::run::text(&out.stderr))
    };
    let (code, lines, err) = stats(&[]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(lines.len(), 3);
    // The .mat is dated 2024.01.01, the SGF 2026-11-24: date order.
    assert_eq!(lines[0]["file"], three.display().to_string());
    assert_eq!(lines[1]["file"], driven.display().to_string());
    for (line, file) in lines[..2].iter().zip([&three, &driven]) {
        assert_eq!(
            (&line["engine"], &line["plies"]),
            (&json("gnubg"), &json(0))
        );
        assert_eq!(line["opponent"], "root");
        let out = common::run::command()
            .args(["analyse", "--plies", "0", "--format", "json", "--file"])
            .arg(file)
            .output()
            .unwrap();
        let text = common::run::text(&out.stdout);
        let summary: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        let p = ["O", "X"]
            .into_iter()
            .find(|p| summary["summary"][p]["name"] == "gnubg")
            .unwrap();
        let of = &summary["summary"][p];
        for (mine, theirs) in [
            ("error_rate_memg", &of["error_rate_memg"]),
            ("checker_error_rate_memg", &of["checker_rate_memg"]),
            ("cube_error_rate_memg", &of["cube_rate_memg"]),
            ("pr", &of["overall"]["pr"]),
            ("luck_rate_memg", &of["luck"]["rate_memg"]),
        ] {
            match (line[mine].as_f64(), theirs.as_f64()) {
                (Some(a), Some(b)) => assert!((a - b).abs() < 1e-6, "{mine}: {a} {b}"),
                (a, b) => assert_eq!(a, b, "{mine}"),
            }
        }
    }
    // Something to see: the driven match has errors, and luck.
    assert!(lines[1]["error_rate_memg"].as_f64().unwrap() > 0.0);
    assert!(lines[1]["luck_rate_memg"].as_f64().unwrap() != 0.0);
    let summary = &lines[2]["summary"];
    assert_eq!(
        (&summary["matches"], &summary["analysed"]),
        (&json(2), &json(2))
    );

    let (code, lines, _) = stats(&["--since", "2025-01-01"]);
    assert_eq!(code, Some(0));
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["file"], driven.display().to_string());
    let (code, lines, err) = stats(&["--since", "2030-01-01"]);
    assert_eq!(code, Some(1));
    assert!(lines.is_empty());
    assert!(
        err.contains("no match of gnubg in ") && err.contains(" since 2030-01-01"),
        "{err}"
    );
    let (code, _, err) = stats(&["--since", "yesterday"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("'yesterday' is not a date: give it as YYYY-MM-DD"),
        "{err}"
    );
}

fn json(v: impl Into<Value>) -> Value {
    v.into()
}

/// A library holding a match from one file merged into a library holding
/// the same match from a file of another format (gnubg's self-play match
/// saved as `.sgf` and exported as `.mat`): one match, each verdict on the
/// same roll or cube action; what is left (the `.mat`'s resignations,
/// which the `.sgf` does not write) is made by `library analyse`.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn a_merge_brings_verdicts_to_the_same_match_in_another_format() {
    common::gnubg();
    let dir = tempfile::tempdir().unwrap();
    let (sgf_lib, mat_lib) = (dir.path().join("sgf.sqlite"), dir.path().join("mat.sqlite"));
    for (lib, file) in [
        (&sgf_lib, "selfplay/m1_selfplay.sgf"),
        (&mat_lib, "selfplay/m1_selfplay.mat"),
    ] {
        let (code, _, err) = library(lib, &["import", fixture(file).to_str().unwrap()]);
        assert_eq!(code, Some(0), "{err}");
    }
    let (code, _, err) = library(&sgf_lib, &["analyse", "--plies", "0", "--jobs", "1"]);
    assert_eq!(code, Some(0), "{err}");
    let (code, out, err) = library(&mat_lib, &["merge", sgf_lib.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("0 new matches, 1 already there"), "{out}");
    let plays = |lib: &Path| -> Vec<String> {
        let conn = rusqlite::Connection::open(lib).unwrap();
        let mut st = conn
            .prepare(
                "SELECT d.game, d.number, d.played, a.analysis FROM analyses a \
                 JOIN decisions d ON d.id = a.decision_id \
                 WHERE NOT a.from_file AND d.kind IN ('checker', 'cube', 'take') ORDER BY d.seq",
            )
            .unwrap();
        st.query_map([], |r| {
            Ok(format!(
                "{} {} {} {}",
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?
            ))
        })
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap()
    };
    let expected = plays(&sgf_lib);
    assert!(!expected.is_empty());
    assert_eq!(plays(&mat_lib), expected);
    let (code, out, err) = library(&mat_lib, &["analyse", "--plies", "0", "--jobs", "1"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("analysed 2 decisions of 1 match"), "{out}");
    assert_eq!(plays(&mat_lib), expected);
    assert_eq!(
        count(
            &mat_lib,
            "SELECT count(*) FROM analyses WHERE NOT from_file"
        ),
        count(&mat_lib, "SELECT count(*) FROM decisions")
    );
}

/// The processes `pid` has started and not yet seen end (its children).
fn children(pid: u32) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("children")).ok())
        .flat_map(|c| {
            c.split_whitespace()
                .filter_map(|p| p.parse().ok())
                .collect::<Vec<u32>>()
        })
        .collect()
}

/// A signal stops `library analyse` (SIGTERM sent to it; SIGINT sent to
/// its process group, as the terminal's Ctrl-C is): it says, in one line,
/// how many matches it kept and how many are left, exits 128 + the signal,
/// and no engine of it is left, not even one dead and unreaped. Where the
/// engines shared bgedit's group, Ctrl-C interrupted them mid-answer and
/// each decision asked of them was said to have failed ("gnubg 1.07
/// crashes on some positions…"); SIGTERM exited without a word, its
/// engines left to whoever reaps orphans.
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn a_signal_stops_library_analyse_saying_what_it_kept_and_leaves_no_engine() {
    use std::os::unix::process::CommandExt;
    for signal in [libc::SIGTERM, libc::SIGINT] {
        let dir = tempfile::tempdir().unwrap();
        let lib = imported(dir.path(), "lib.sqlite");
        let child = common::run::command()
            .args(["library", "--library"])
            .arg(&lib)
            .args(["analyse", "--plies", "2", "--jobs", "2"])
            .process_group(0)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let pid = child.id();
        let mut engines = std::collections::BTreeSet::new();
        let started = Instant::now();
        while engines.len() < 2 && started.elapsed() < Duration::from_secs(30) {
            engines.extend(children(pid));
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(!engines.is_empty(), "no engine started");
        // Into its work.
        std::thread::sleep(Duration::from_secs(2));
        engines.extend(children(pid));
        let to = if signal == libc::SIGINT {
            -(pid as i32)
        } else {
            pid as i32
        };
        // SAFETY: kill touches no memory.
        unsafe { libc::kill(to, signal) };
        let out = child.wait_with_output().unwrap();
        let err = common::run::text(&out.stderr);
        assert_eq!(out.status.code(), Some(128 + signal), "{err}");
        let name = if signal == libc::SIGINT {
            "SIGINT"
        } else {
            "SIGTERM"
        };
        let line = err
            .strip_prefix(&format!("bgedit: stopped ({name}): "))
            .and_then(|l| l.strip_suffix(" to go (run it again to go on)\n"))
            .unwrap_or_else(|| panic!("one line saying what was kept: {err:?}"));
        let (kept, to_go) = line
            .split_once(" matches kept, ")
            .or_else(|| line.split_once(" match kept, "))
            .expect(line);
        let (kept, to_go): (usize, usize) = (kept.parse().unwrap(), to_go.parse().unwrap());
        assert_eq!(kept + to_go, MATCHES.len(), "{err}");
        assert!(to_go > 0, "stopped before the end: {err}");
        // Gone with bgedit: reaped, not left to whoever reaps orphans.
        let left: Vec<u32> = engines
            .iter()
            .copied()
            .filter(|p| Path::new(&format!("/proc/{p}")).exists())
            .collect();
        assert!(left.is_empty(), "engines left: {left:?}");
        // What was kept counts: the run again finishes the rest.
        let (code, out, err) = library(&lib, &["analyse", "--plies", "2", "--jobs", "2"]);
        assert_eq!(code, Some(0), "{err}");
        assert!(out.contains(&format!(" of {to_go} matches ")), "{out}");
    }
}

/// Two `library analyse` runs on one library at once share its matches
/// out: each match analysed once, each run reporting only its own, and
/// together the verdicts of one run alone. (Each used to analyse every
/// match and report all of it as its own.)
#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn two_runs_at_once_share_the_matches_out() {
    let dir = tempfile::tempdir().unwrap();
    let alone = imported(dir.path(), "alone.sqlite");
    let (code, _, err) = library(&alone, &["analyse", "--plies", "1", "--jobs", "1"]);
    assert_eq!(code, Some(0), "{err}");
    let lib = imported(dir.path(), "shared.sqlite");
    let runs: Vec<std::process::Child> = (0..2)
        .map(|_| {
            common::run::command()
                .args(["library", "--library"])
                .arg(&lib)
                .args(["analyse", "--plies", "1", "--jobs", "1"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let (mut decisions, mut matches) = (0, 0);
    for run in runs {
        let out = run.wait_with_output().unwrap();
        let said = common::run::text(&out.stdout);
        assert!(
            out.status.success(),
            "{said}{}",
            common::run::text(&out.stderr)
        );
        // analysed D decisions of N matches (…)
        let words: Vec<&str> = said.split(' ').collect();
        decisions += words[1].parse::<i64>().unwrap();
        matches += words[4].parse::<usize>().unwrap();
    }
    assert_eq!(decisions, count(&lib, "SELECT count(*) FROM decisions"));
    assert_eq!(matches, MATCHES.len());
    assert_eq!(table(&lib), table(&alone));
    assert_eq!(count(&lib, "SELECT count(*) FROM analysis_claims"), 0);
}
