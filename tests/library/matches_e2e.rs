//! The match list and stored matches in the real binary, in a
//! pseudo-terminal (issue 41): `^L` lists the library's matches, `o` and
//! `/` order and filter them, Enter opens one in the match panel with the
//! verdicts the library holds and no engine asked (the editor runs with a
//! gnubg that does not exist); the editor's own analysis of a match is
//! kept in the library as it arrives, so the match reopened shows it.

use crate::common;

use common::pty::{NO_DISPLAY, Options, Session};
use std::path::Path;
use std::time::Duration;

const PTY: Options = Options {
    timeout: Duration::from_secs(20),
    exit_grace: Duration::ZERO,
    unset: NO_DISPLAY,
    ..Options::DEFAULT
};

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn library(lib: &Path, args: &[&str]) {
    let (code, out, err) = common::run::library(lib, args);
    assert_eq!(code, Some(0), "{args:?}: {out}{err}");
}

/// The editor on `lib`, with `extra` arguments, and no gnubg to ask.
fn start(lib: &Path, state: &Path, extra: &[&str]) -> Session {
    let mut args = vec![
        "--new",
        "--library",
        lib.to_str().unwrap(),
        "--gnubg",
        "/nonexistent/gnubg",
    ];
    args.extend_from_slice(extra);
    Session::start(&PTY, &args, state, 140, 40)
}

#[test]
fn the_match_list_orders_filters_and_opens_a_match_with_the_files_analysis() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    library(
        &lib,
        &[
            "import",
            &fixture("xg/hsbt_paris_7pt.xg"),
            &fixture("xg/match_with_comment.xg"),
            &fixture("xg/charlot_7pt.xg"),
        ],
    );
    let mut s = start(&lib, dir.path(), &[]);
    s.wait_for("? for help");
    s.send("\x0c");
    s.wait_for("Matches in the library");
    // Each row, newest first: date, players (the winner starred), score.
    s.wait_for("2025-11-08 charlot1*");
    s.wait_for("2024-10-24 Nicolas HARMAND");
    s.wait_for("Kévin UNGER*");
    s.wait_for("2023-11-26 Kévin Unger*");
    let screen = s.wait_for("3 matches of 3 · by date");
    assert!(screen.contains("XG Roller+ (file)"), "{screen}");
    assert!(screen.contains("4-10"), "{screen}");
    s.send("o");
    s.wait_for("3 matches of 3 · by pr");
    s.send("/");
    s.wait_for("Matches: player:NAME");
    s.keys("player:unger");
    s.send("\r");
    s.wait_for("Matches in the library of Kévin");
    s.wait_for("2 matches of 3 · by pr · filter: player:unger");
    // The HSBT match is the first by date among his: back to the date
    // order, then open the second row (the older match).
    s.send("o");
    s.send("o");
    s.send("o");
    s.send("o");
    s.wait_for("2 matches of 3 · by date");
    s.send("j");
    s.send("\r");
    s.wait_for("Opened match 1 from the library: the file's own analysis");
    s.wait_for("Match · hsbt_paris_7pt.xg");
    // The statistics from the file's analysis, no engine verdict needed.
    s.send("s");
    s.wait_for("the file's own analysis (XG");
    s.send("\x1b");
    s.wait_for("Back to the match");
    s.send("q");
    s.send("q");
    s.wait_exit();
}

#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn a_stored_match_opens_with_its_verdicts_and_the_editors_analysis_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    let file = fixture("selfplay/m3_selfplay.mat");
    library(&lib, &["import", &fixture("selfplay/m5_driven.mat")]);
    library(&lib, &["analyse", "--plies", "0"]);
    // The match list opens the analysed match with its 0-ply verdicts,
    // with no gnubg to ask.
    let mut s = start(&lib, dir.path(), &[]);
    s.wait_for("? for help");
    s.send("\x0c");
    s.wait_for("1 match of 1");
    s.send("\r");
    let decisions: i64 = rusqlite::Connection::open(&lib)
        .unwrap()
        .query_row("SELECT count(*) FROM decisions", [], |r| r.get(0))
        .unwrap();
    s.wait_for(&format!(
        "gnubg 0-ply verdicts on {decisions} of {decisions} decisions"
    ));
    let screen = s.wait_for("Match · m5_driven.mat");
    assert!(!screen.contains("analysing"), "{screen}");
    s.send("q");
    s.send("q");
    s.wait_exit();

    // The editor analyses a match the library does not hold yet (with the
    // real gnubg): the match is imported and each verdict kept as it
    // arrives.
    let gnubg = common::gnubg();
    let args = [
        "--new",
        "--library",
        lib.to_str().unwrap(),
        "--gnubg",
        gnubg.to_str().unwrap(),
        file.as_str(),
    ];
    let slow = Options {
        timeout: Duration::from_secs(240),
        ..PTY
    };
    let mut s = Session::start(&slow, &args, dir.path(), 140, 40);
    s.wait_for("Match analysed at 2-ply");
    s.send("q");
    s.send("q");
    s.wait_exit();
    let conn = rusqlite::Connection::open(&lib).unwrap();
    let (kept, of): (i64, i64) = conn
        .query_row(
            "SELECT (SELECT count(*) FROM analyses a JOIN decisions d ON d.id = a.decision_id \
             JOIN matches m ON m.id = d.match_id WHERE m.path LIKE '%m3_selfplay%' \
             AND a.engine = 'gnubg' AND a.plies = 2 AND NOT a.from_file), \
             (SELECT count(*) FROM decisions d JOIN matches m ON m.id = d.match_id \
             WHERE m.path LIKE '%m3_selfplay%')",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert!(of > 0 && kept == of, "{kept} of {of} verdicts kept");
    // Reopened with no gnubg: the kept verdicts show, nothing is asked.
    let mut s = start(&lib, dir.path(), &[&file]);
    s.wait_for("The library holds this match's gnubg 2-ply verdicts");
    s.send("q");
    s.send("q");
    s.wait_exit();
}

/// `P` in the library panel: a player found by part of a name, their
/// matches with the result from their side, and PR over time drawn for
/// the dated matches only (overall, checker, cube: a legend of its own
/// row), the undated one named as left out.
#[test]
fn the_player_chart_is_over_dated_matches_with_its_legend_apart() {
    let dir = tempfile::tempdir().unwrap();
    let lib = dir.path().join("lib.sqlite");
    // A third match of his with no date: the HSBT .mat without its
    // EventDate, his opponent's name written otherwise (another match).
    let real = std::fs::read_to_string(fixture("mat/xg_export_hsbt_paris_7pt.mat")).unwrap();
    let undated: String = real
        .lines()
        .filter(|l| !l.contains("EventDate"))
        .map(|l| format!("{}\n", l.replace("Maxence Job", "M. Job")))
        .collect();
    let copy = dir.path().join("undated.mat");
    std::fs::write(&copy, undated).unwrap();
    library(
        &lib,
        &[
            "import",
            &fixture("xg/hsbt_paris_7pt.xg"),
            &fixture("xg/match_with_comment.xg"),
            copy.to_str().unwrap(),
        ],
    );
    let mut s = start(&lib, dir.path(), &[]);
    s.wait_for("? for help");
    s.send("L");
    s.wait_for("Library · ");
    s.send("P");
    s.wait_for("of which player");
    s.send("\x15");
    s.keys("unger");
    s.send("\r");
    s.wait_for("Statistics of Kévin");
    s.wait_for("W 10-4");
    s.wait_for("W 7-4");
    // The undated .mat carries no analysis.
    s.wait_for("3 matches, 2 analysed; over all");
    s.wait_for("1 match undated, in n");
    let screen = s.wait_for("PR over time: 2 dated matches in date order");
    for want in [
        "1 match undated, not shown",
        "── overall PR",
        "── checker PR",
        "── cube PR",
    ] {
        assert!(screen.contains(want), "{want}:\n{screen}");
    }
    s.send("\x1b");
    s.wait_for("Back to the library");
    s.send("q");
    s.send("q");
    s.wait_exit();
}
