//! The analysis panel in the real binary, in a pseudo-terminal, with the
//! real gnubg: a position set up by keys shows gnubg's best move; keys typed
//! while a 3-ply analysis runs are answered at once. Ignored (with its
//! reason) without gnubg, failing under BGEDIT_REQUIRE_GNUBG=1.

use crate::common;

use common::live;
use common::pty::{Options, Session};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

const PTY: Options = Options {
    timeout: Duration::from_secs(30),
    // Fine-grained: the waits below are the measured figures.
    poll: Duration::from_millis(1),
    ..Options::DEFAULT
};

fn state_dir(name: &str) -> PathBuf {
    common::pty::state_dir("bgedit-e2e", name)
}

impl Session {
    /// Sends `keys` and returns how long until the screen shows `what`.
    fn timed(&mut self, keys: &str, what: &str) -> Duration {
        let t = Instant::now();
        self.writer.write_all(keys.as_bytes()).unwrap();
        self.writer.flush().unwrap();
        self.wait_for(what);
        t.elapsed()
    }
}

/// The GNUBG ID the editor shows.
fn gnubg_id(screen: &str) -> String {
    screen
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("GNUBG ID"))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no GNUBG ID on the screen:\n{screen}"))
        .to_owned()
}

#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn a_position_set_up_by_keys_shows_gnubgs_best_move_and_plays_it() {
    common::gnubg();
    let dir = state_dir("analysis-best");
    let mut s = Session::start(&PTY, &["--new"], &dir, 120, 40);
    // No dice: the cube decision.
    let before = gnubg_id(&s.wait_for("Proper cube action"));
    // X rolls 21: the first of gnubg's 0-ply hint, asked here (24/23 13/11
    // when written).
    s.prompt("d", "21");
    let rolled = gnubg_id(&s.wait_for("X rolled 21"));
    let best = &live::hint_list(&rolled, 0)[0].0;
    let screen = s.wait_for(&format!("1. {best}"));
    if std::env::var("SHOW_SCREEN").is_ok() {
        eprintln!("{screen}");
    }
    assert!(screen.contains("Analysis · gnubg"), "{screen}");
    // The cube decision before the roll, on its line above the moves, as
    // gnubg's hint gives it here (no double, beaver, +0.084 when written).
    let cube = live::hint_cube(&before, 0, false);
    let line = format!("Before the roll (0-ply): {} · ND ", cube.action);
    let screen = s.wait_for(&line);
    let shown = live::number_after(&screen, &line).unwrap_or_else(|| panic!("{screen}"));
    assert!(
        (shown - cube.no_double).abs() < live::SHOWN_EQUITY,
        "{screen}\nagainst gnubg's {cube:?}"
    );
    // Select the best move, preview it, play it; undo brings the roll back.
    s.send("]");
    s.wait_for("PREVIEW");
    s.send("\r");
    let screen = s.wait_for("played");
    assert!(screen.contains("O on roll"), "{screen}");
    s.send("u");
    s.wait_for("X on roll");
    s.send("q");
    s.wait_exit();
}

#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn keys_typed_while_a_3_ply_analysis_runs_are_answered_at_once() {
    common::gnubg();
    let dir = state_dir("analysis-busy");
    // A middle game with 6-5 to play: 3-ply takes gnubg seconds.
    let mut s = Session::start(
        &PTY,
        &["XGID=-b----E-C---eE---c-e----B-:0:0:1:65:0:0:0:0:10"],
        &dir,
        120,
        40,
    );
    s.wait_for("gnubg 0-ply");
    // Key → 0-ply answer on screen: the dice typed, then Enter, timed until
    // gnubg's best move for them shows (21: 24/23 13/11; 65: 24/13).
    let (mut answers, mut frames) = (Vec::new(), Vec::new());
    for (dice, best) in [
        ("21", "1. 24/23 13/11"),
        ("65", "1. 24/13"),
        ("21", "1. 24/23 13/11"),
        ("65", "1. 24/13"),
        ("21", "1. 24/23 13/11"),
    ] {
        s.send("d");
        s.wait_for("Dice (e.g. 52");
        s.keys(dice);
        let t = Instant::now();
        frames.push(s.timed("\r", &format!("rolled {dice}")));
        s.wait_for(best);
        answers.push(t.elapsed());
    }
    answers.sort();
    frames.sort();
    eprintln!(
        "Enter → its frame: median {:?}; Enter → 0-ply answer on screen: median {:?}, all {answers:?}",
        frames[frames.len() / 2],
        answers[answers.len() / 2]
    );
    s.send(">");
    s.wait_for("3-ply");
    s.send("a");
    s.wait_for("3-ply running");
    // Keys that leave the position alone, while gnubg is busy.
    let mut times = Vec::new();
    // Cursor moves: each frame names the new place, so every wait is for
    // what only that frame shows (toggling the help raced its own frames:
    // a title half drawn read as closed, and the next key was merged).
    for _ in 0..5 {
        times.push(s.timed("l", "Cursor point 5 "));
        times.push(s.timed("h", "Cursor point 6 "));
    }
    times.sort();
    let worst = *times.last().unwrap();
    let screen = s.contents();
    eprintln!(
        "key → frame while 3-ply runs: median {:?}, worst {worst:?}",
        times[times.len() / 2]
    );
    assert!(screen.contains("3-ply running"), "still running: {screen}");
    assert!(worst < Duration::from_secs(5), "{worst:?}");
    // An edit while the 3-ply runs supersedes it: the new position's 0-ply
    // answer comes (after a gnubg restart if the 3-ply was still running).
    s.send("d");
    s.wait_for("Dice (e.g. 52");
    s.keys("65");
    let t = Instant::now();
    s.send("\r");
    let screen = s.wait_for("1. 24/13");
    eprintln!("edit during 3-ply → new 0-ply answer in {:?}", t.elapsed());
    assert!(screen.contains("gnubg 0-ply"), "{screen}");
    s.send("q");
    s.wait_exit();
}

#[test]
fn without_gnubg_the_panel_says_how_to_install_it_and_editing_works() {
    let dir = state_dir("analysis-missing");
    let mut s = Session::start(
        &PTY,
        &["--new", "--gnubg", "/nonexistent/gnubg"],
        &dir,
        120,
        40,
    );
    // Wrapped in the panel under the board, not cut.
    s.wait_for("no such program (install gnubg with `apt-get install");
    s.wait_for("gnubg`)");
    s.send("E");
    s.wait_for("Position ID AAAAAAAAAAAAAA");
    s.send("q");
    s.wait_exit();
}

#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn the_score_matrix_fills_in_with_gnubgs_cube_decision_at_every_score() {
    common::gnubg();
    let dir = state_dir("score-matrix");
    // The opening position, X on roll, money: a 7-point matrix.
    let mut s = Session::start(
        &PTY,
        &["--new", "4HPwATDgc/ABMA:cAkAAAAAAAAA"],
        &dir,
        120,
        40,
    );
    s.wait_for("Proper cube action");
    s.send("V");
    s.wait_for("score matrix · 7-point match");
    let t = Instant::now();
    let mut screen = s.contents();
    while screen.contains("cells…") && t.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(50));
        screen = s.contents();
    }
    assert!(!screen.contains("cells…"), "{screen}");
    // gnubg's `hint` at each score (tests/fixtures/gnubg_score_matrix.jsonl):
    // X 2-away: double/take against O 2-away, no double against 3 and 4.
    let row: Vec<&str> = screen
        .lines()
        .find(|l| l.trim_start().starts_with("2a "))
        .unwrap_or_else(|| panic!("{screen}"))
        .split_whitespace()
        .collect();
    assert_eq!(&row[1..4], &["D/T", "ND", "ND"], "{screen}");
    // Double match point after the Crawford game, where gnubg says "You
    // cannot double": the post-Crawford row ends with "-" under the
    // post-Crawford column.
    let post: Vec<&str> = screen
        .lines()
        .find(|l| l.trim_start().starts_with("1a PC"))
        .and_then(|l| l.split('│').next())
        .unwrap_or_else(|| panic!("{screen}"))
        .split_whitespace()
        .collect();
    assert_eq!(post.len(), 2 + 6 + 1, "{screen}");
    assert_eq!(post.last(), Some(&"-"), "{screen}");
    // Typing goes on while it fills in; V gives the analysis back.
    s.send("V");
    s.wait_for("Proper cube action");
    s.send("q");
    s.wait_exit();
}

/// The opening of a 26-point match, past Sage's 25-point match equity
/// table: beside gnubg's answer the panel says why Sage has none; the live
/// views' doubling window stops at 25 points, and with dice their table of
/// best moves marks the match's own score (26-away) with why. Nothing
/// stops.
#[test]
#[cfg_attr(
    not(all(bgedit_has_gnubg, bgedit_has_sage)),
    ignore = "needs gnubg and Open Sage"
)]
fn sages_second_opinion_past_its_table_says_why_beside_gnubgs() {
    let dir = state_dir("sage-past-table");
    let mut s = Session::start(&PTY, &["4HPwATDgc/ABMA:cAlAAwAAAAAE"], &dir, 160, 50);
    s.wait_for("gnubg 0-ply");
    // z: Sage alone, then both side by side.
    s.send("z");
    s.send("z");
    let screen = s.wait_for("cannot answer at this score");
    assert!(screen.contains("No double"), "{screen}");
    s.send("~");
    let views = s.wait_for("doubling window by score");
    assert!(views.contains("25-point match"), "{views}");
    s.send("d");
    s.wait_for("Dice (e.g. 52");
    s.keys("31");
    s.send("\r");
    s.wait_for("best move by score and cube");
    // The other scores answered (8/5 6/5 at money), the match's own
    // marked `!`, and why.
    let table = s.wait_for("! Sage cannot answer at this score (26-away, 26-away)");
    assert!(table.contains("8/5 6/5"), "{table}");
    assert!(table.contains("=score 26a-26a  !"), "{table}");
    s.send("q");
    s.wait_exit();
}
