//! The real `bgedit` binary in a pseudo-terminal: keys in, screen read back
//! through a terminal emulator (vt100), exactly as a user would see it.

use crate::common;

use common::pty::{Options, Session};
use std::path::PathBuf;

const PTY: Options = Options::DEFAULT;

fn state_dir(name: &str) -> PathBuf {
    common::pty::state_dir("bgedit-e2e", name)
}

/// The Japanese page's position and the manual's match state, built from an
/// empty board by keys alone, then read off the screen.
#[test]
fn builds_the_documents_example_by_keys_and_shows_its_ids() {
    let dir = state_dir("build");
    let mut s = Session::start(&PTY, &["--new"], &dir, 100, 30);
    s.wait_for("Position ID 4HPwATDgc/ABMA");
    s.send("E");
    s.wait_for("Position ID AAAAAAAAAAAAAA");
    // X (on roll; points as the labels count them): 2 on 2, 2 on 5, 3 on
    // 6, 2 on 8, 1 on 9, 1 on 10, 2 on 13, 2 on 21.
    for (point, count) in [
        ("2", "2"),
        ("5", "2"),
        ("6", "3"),
        ("8", "2"),
        ("9", "1"),
        ("10", "1"),
        ("13", "2"),
        ("21", "2"),
    ] {
        s.prompt("g", point);
        s.send(count);
    }
    // O: 5 on its 6 point (X's 19), 2 on 7 (18), 3 on 8 (17), 4 on 13 (12).
    for (point, count) in [("19", "o5"), ("18", "o2"), ("17", "o3"), ("12", "o4")] {
        s.prompt("g", point);
        s.prompt("=", count);
    }
    // One O checker on O's bar: right of X's 18 point.
    s.prompt("g", "18");
    s.send("l");
    s.send("o");
    s.wait_for("Position ID 4NvBA0DGzooBBg");
    // 9-point match, 2-4, O holds a 2-cube, X rolled 52.
    s.prompt("m", "9");
    s.prompt("s", "2-4");
    s.send("c");
    s.send("n");
    s.prompt("d", "52");
    let screen = s.wait_for("GNUBG ID    4NvBA0DGzooBBg:QYkqASAAIAAA");
    assert!(screen.contains("Match ID    QYkqASAAIAAA"), "{screen}");
    assert!(
        screen.contains("XGID        XGID=a-B--BC-BAA-dB---cbe-B----:1:-1:1:52:4:2:0:9:10"),
        "{screen}"
    );
    assert!(screen.contains("Pips     O 145  X 135"), "{screen}");

    // Undo takes back the dice.
    s.send("u");
    s.wait_for("Match ID    QQkgASAAIAAA");
    s.send("U");
    s.wait_for("Match ID    QYkqASAAIAAA");

    // Quit: the terminal is restored and the IDs printed.
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
    let raw = s.raw_text();
    let after = raw.rsplit("\x1b[?1049l").next().unwrap();
    assert!(
        after.contains("GNUBG ID: 4NvBA0DGzooBBg:QYkqASAAIAAA"),
        "{after:?}"
    );
    assert!(
        after.contains("XGID=a-B--BC-BAA-dB---cbe-B----:1:-1:1:52:4:2:0:9:10"),
        "{after:?}"
    );
    for restore in ["\x1b[?1000l", "\x1b[?2004l", "\x1b[?1049l"] {
        assert!(
            raw.contains(restore),
            "terminal not restored: {restore:?} missing"
        );
    }

    // The position was saved and reopens with no arguments.
    let mut again = Session::start(&PTY, &[], &dir, 100, 30);
    again.wait_for("GNUBG ID    4NvBA0DGzooBBg:QYkqASAAIAAA");
    again.wait_for("Reopened the last position");
    again.send("q");
    assert_eq!(again.wait_exit(), 0);
}

#[test]
fn a_bad_id_shows_the_message_and_changes_nothing() {
    let dir = state_dir("bad");
    let mut s = Session::start(&PTY, &["--new"], &dir, 100, 30);
    s.wait_for("GNUBG ID    4HPwATDgc/ABMA:cAkAAAAAAAAA");
    s.prompt("i", "4HPwATDgc/ABM");
    let screen = s.wait_for("error: Position ID: 13 characters; a Position ID has 14");
    assert!(screen.contains("GNUBG ID    4HPwATDgc/ABMA:cAkAAAAAAAAA"));
    s.send("\x1b");
    // Wait for the Esc alone to be read before the paste's own escapes.
    s.wait_for("Cancelled");
    // A terminal paste (bracketed) of something that is not an ID.
    s.send("\x1b[200~hello there\x1b[201~");
    s.wait_for("error: not an ID: no GNUBG ID, Position ID, Match ID or XGID found");
    // And a good one pasted the same way.
    s.send("\x1b[200~XGID=-b----E-C---eE---c-e----B-:1:1:1:52:0:0:3:0:10\x1b[201~");
    s.wait_for("XGID read");
    s.wait_for("Cube     2, X owns");
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
}

#[test]
fn copying_without_a_display_uses_osc52_and_says_so() {
    let dir = state_dir("copy");
    let mut s = Session::start(&PTY, &["--new"], &dir, 100, 30);
    s.wait_for("Position ID");
    s.send("y");
    s.wait_for("GNUBG ID sent to the terminal's clipboard (OSC 52");
    let expected = bgedit_tui::io::clipboard::osc52("4HPwATDgc/ABMA:cAkAAAAAAAAA");
    assert!(
        s.raw_text().contains(&expected),
        "no OSC 52 sequence in the output"
    );
    s.send("p");
    s.wait_for("error: could not read the clipboard: there is no display");
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
}

#[test]
fn a_small_terminal_asks_to_be_enlarged_and_resizing_redraws() {
    let dir = state_dir("resize");
    let s = Session::start(&PTY, &["--new"], &dir, 100, 30);
    s.wait_for("BAR");
    s.resize(70, 20);
    s.wait_for("Terminal too small: enlarge to 80×24 (now 70×20)");
    s.resize(80, 24);
    s.wait_for("BAR");
}

#[test]
fn a_damaged_save_file_is_reported_and_ignored() {
    let dir = state_dir("damaged");
    std::fs::write(dir.join("position.json"), "{ this is not a position").unwrap();
    let mut s = Session::start(&PTY, &[], &dir, 100, 30);
    let screen = s.wait_for("error: the saved position was ignored");
    assert!(
        screen.contains("GNUBG ID    4HPwATDgc/ABMA:cAkAAAAAAAAA"),
        "{screen}"
    );
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
}

#[test]
fn a_bad_id_on_the_command_line_is_an_error_before_the_screen() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bgedit"))
        .arg("4HPwATDgc/ABMA:cAkAAAAAAAA")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "bgedit: Match ID: 11 characters; a Match ID has 12\n"
    );
}

/// The mouse, as the terminal reports it (SGR encoding): right-click takes a
/// checker off X's 13 point, a click puts one back, scrolling down takes one.
#[test]
fn the_mouse_selects_and_changes_counts() {
    let dir = state_dir("mouse");
    let mut s = Session::start(&PTY, &["--new"], &dir, 100, 30);
    s.wait_for("Pips     O 167  X 167");
    // X's 13 point: board columns 2–4 of the first checker row, which is
    // screen row 2 (1-based: column 4, row 3).
    s.send("\x1b[<2;4;3M");
    s.wait_for("Pips     O 167  X 154");
    s.wait_for("Checker removed from point 13");
    s.send("\x1b[<0;4;3M");
    s.wait_for("Pips     O 167  X 167");
    s.send("\x1b[<65;4;3M");
    s.wait_for("Pips     O 167  X 154");
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
}

/// The input line edits at its cursor with the real keys: Left, Home, End,
/// ^W; a value offered (the dice) is replaced by typing; a rule refusal
/// keeps the line open with the message.
#[test]
fn the_input_line_edits_at_the_cursor() {
    let dir = state_dir("inputline");
    let mut s = Session::start(&PTY, &["--new"], &dir, 100, 30);
    s.wait_for("Position ID 4HPwATDgc/ABMA");
    s.send("i");
    s.wait_for("Esc cancel");
    // "4HPwATDgc/ABMA:cAkAAAAAAAAA" typed without its first character and
    // with a stray word at the end, then fixed with cursor keys.
    s.keys("HPwATDgc/ABMA:cAkAAAAAAAAA junk");
    s.send("\x17"); // ^W: deletes "junk"
    s.send("\x1b[H"); // Home
    s.send("4");
    s.send("\x1b[F"); // End
    s.send("\x1b[D"); // Left, then type before the last character
    s.wait_for("4HPwATDgc/ABMA:cAkAAAAAAAAA");
    s.send("\r");
    s.wait_for("GNUBG ID read");
    // The dice prompt offers the current roll; typing replaces it.
    s.prompt("d", "52");
    s.wait_for("Dice     5 2");
    s.send("d");
    s.wait_for(": 52█");
    s.keys("63\r");
    s.wait_for("Dice     6 3");
    // A rule refusal (an O count on X's point) keeps the line open.
    s.prompt("=", "o3");
    let screen = s.wait_for("error: point 6 holds X's checkers");
    assert!(
        screen.contains("Checkers here (e.g. 5, x12, o3): o3"),
        "{screen}"
    );
    s.send("\x1b");
    s.wait_for("Cancelled");
    // The cursor's place is always shown under the board.
    s.wait_for("Cursor point 6 (X's 6, O's 19) · 5 X");
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
}

/// `#` shows the numbers at the score beside the board and `T` loads
/// another MET file; a bad file is refused with its reason.
#[test]
fn the_numbers_panel_follows_edits_and_loads_a_met_file() {
    let dir = state_dir("numbers");
    // 0-3 to 7, X on roll (gnubg: O 30.08%, X 69.92% with Kazaross-XG2).
    let mut s = Session::start(&PTY, &["4HPwATDgc/ABMA:cAngAAAAGAAA"], &dir, 100, 30);
    s.wait_for("GNUBG ID    4HPwATDgc/ABMA:cAngAAAAGAAA");
    s.send("#");
    s.wait_for("MET Kazaross XG2 25 point MET");
    // The take points first; the MET's rows a page down.
    s.wait_for("X 24.7%/20.8%  O 30.3%/22.4%");
    s.wait_for("PgUp/PgDn");
    s.send("\x1b[6~");
    s.wait_for("now    69.9");
    let woolsey = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/met/woolsey.xml"
    );
    s.prompt("T", woolsey);
    s.wait_for("MET: Kit Woolsey");
    // Woolsey's 4-away 7-away: 70%.
    s.wait_for("now    70.0");
    s.prompt("T", "/nonexistent/met.xml");
    s.wait_for("error: MET not loaded: cannot read /nonexistent/met.xml");
    s.send("\x1b");
    // Still Woolsey's 70%.
    s.wait_for("now    70.0");
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
}

/// A click selects without editing; a second click on it adds; an Alt-click
/// adds at once; the cursor line says where it is.
#[test]
fn a_click_selects_and_a_second_click_adds() {
    let dir = state_dir("click");
    let mut s = Session::start(&PTY, &["--new"], &dir, 100, 30);
    s.wait_for("Pips     O 167  X 167");
    // Two X checkers to the tray (right-clicks on X's 13) for adding.
    s.send("\x1b[<2;4;3M");
    s.send("\x1b[<2;4;3M");
    s.wait_for("Pips     O 167  X 141");
    // O's 11 point (X's 14): board columns 5–7 of the top row, screen
    // column 6 (1-based), row 3.
    s.send("\x1b[<0;6;3M");
    s.wait_for("Cursor point 14 (X's 14, O's 11) · empty");
    s.wait_for("Selected point 14");
    assert!(s.contents().contains("Pips     O 167  X 141"));
    s.send("\x1b[<0;6;3M");
    s.wait_for("Cursor point 14 (X's 14, O's 11) · 1 X");
    // Alt-click (modifier bit 8) on X's 16 adds at once.
    s.send("\x1b[<8;12;3M");
    s.wait_for("Cursor point 16 (X's 16, O's 9) · 1 X");
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
}

/// Moves in the real binary: `d` sets 3-1, `M` opens the move line with the
/// dice and the count, Tab completes, Enter plays (gnubg's ID after `move
/// 8/5 6/5`), `u` takes it back; Space picks up and drops; `r` rolls.
#[test]
fn moves_are_typed_completed_played_and_dropped() {
    let dir = state_dir("moves");
    let mut s = Session::start(&PTY, &["--new"], &dir, 100, 30);
    s.wait_for("Pips     O 167  X 167");
    s.prompt("d", "31");
    s.send("M");
    s.wait_for("Move for X 3-1 (16 legal moves; Tab completes)");
    s.keys("8/5 6");
    s.send("\t");
    s.wait_for("8/5 6/5");
    s.send("\r");
    s.wait_for("GNUBG ID    sGfwATDgc/ABMA:MAEAAAAAAAAA");
    s.wait_for("X played 8/5 6/5; O on roll");
    s.send("u");
    s.wait_for("GNUBG ID    4HPwATDgc/ABMA:cIkFAAAAAAAA");
    // A refusal keeps the line open.
    s.send("M");
    s.wait_for("Move for X 3-1");
    s.keys("13/10\r");
    s.wait_for("error: must use both dice");
    s.send("\x1b");
    // Space picks up on X's 8 point and drops on its 5.
    s.prompt("g", "8");
    s.send(" ");
    s.wait_for("Holding X's checker from point 8");
    s.prompt("g", "5");
    s.send(" ");
    s.wait_for("part of");
    s.send("r");
    s.wait_for("X rolled");
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
}

/// Scores as players say them, and the Crawford question answered by one
/// key.
#[test]
fn away_scores_and_the_crawford_question() {
    let dir = state_dir("away");
    let mut s = Session::start(&PTY, &["--new"], &dir, 100, 30);
    s.wait_for("Position ID");
    s.prompt("m", "7");
    s.wait_for("7-point match");
    s.prompt("s", "-3 -5");
    s.wait_for("Away     O 3-away X 5-away");
    s.wait_for("Score    O 4 X 2 to 7");
    s.prompt("s", "x 1-away");
    s.wait_for("X is 1-away: is this the Crawford game? y/n");
    s.send("y");
    s.wait_for("Crawford on");
    s.send("u");
    s.wait_for("Undid: Crawford game on");
    s.wait_for("Crawford off");
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
}

/// The mouse drags a checker (SGR press, motion with the button held,
/// release): one of X's checkers from its 13 point to its 14.
#[test]
fn the_mouse_drags_a_checker() {
    let dir = state_dir("drag");
    let mut s = Session::start(&PTY, &["--new"], &dir, 100, 30);
    s.wait_for("Pips     O 167  X 167");
    s.send("\x1b[<0;4;3M");
    s.send("\x1b[<32;7;3M");
    s.send("\x1b[<0;7;3m");
    s.wait_for("Pips     O 167  X 168");
    s.wait_for("X 13/14");
    s.send("u");
    s.wait_for("Pips     O 167  X 167");
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
}

/// gnubg prints its two IDs apart; given as two arguments, they open the
/// editor on the position together.
#[test]
fn opens_on_gnubgs_two_ids_given_as_two_arguments() {
    let dir = state_dir("pair");
    let mut s = Session::start(&PTY, &["4NvBA0DGzooBBg", "QYkqASAAIAAA"], &dir, 100, 30);
    let screen = s.wait_for("GNUBG ID    4NvBA0DGzooBBg:QYkqASAAIAAA");
    assert!(
        screen.contains("GNUBG ID read from the command line"),
        "{screen}"
    );
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
}

/// `bgedit --met FILE` opens the editor with that table in the numbers
/// panel; a bad file stops before the screen.
#[test]
fn the_met_option_chooses_the_table_for_the_editor() {
    let dir = state_dir("met-option");
    let woolsey = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/met/woolsey.xml"
    );
    let mut s = Session::start(
        &PTY,
        &["--met", woolsey, "4HPwATDgc/ABMA:cAngAAAAGAAA"],
        &dir,
        100,
        30,
    );
    s.wait_for("GNUBG ID    4HPwATDgc/ABMA:cAngAAAAGAAA");
    s.send("#");
    s.wait_for("MET Kit Woolsey");
    s.send("q");
    assert_eq!(s.wait_exit(), 0);

    let mut bad = Session::start(&PTY, &["--met", "/nonexistent/met.xml"], &dir, 100, 30);
    assert_eq!(bad.wait_exit(), 2);
    assert!(
        bad.raw_text()
            .contains("--met: cannot read /nonexistent/met.xml")
    );
}

#[test]
fn a_failed_last_save_makes_the_exit_status_non_zero() {
    let dir = state_dir("savefail");
    // A directory where the save file should be: every save fails.
    std::fs::create_dir_all(dir.join("position.json")).unwrap();
    let mut s = Session::start(&PTY, &["--new"], &dir, 100, 30);
    s.wait_for("GNUBG ID    4HPwATDgc/ABMA:cAkAAAAAAAAA");
    s.send("E");
    s.wait_for("Position ID AAAAAAAAAAAAAA");
    s.send("q");
    assert_eq!(s.wait_exit(), 1, "the last position was not saved");
    assert!(s.raw_text().contains("the last position was not saved"));
}

/// A panic on the event loop's thread (made to panic by a debug-build-only
/// variable) restores the terminal before its message and ends the
/// editor, rather than drawing on over the restored screen.
#[test]
fn a_panic_on_the_event_loop_restores_the_terminal_and_ends_the_editor() {
    let dir = state_dir("panic");
    let mut s = Session::start_with(
        &PTY,
        &["4HPwATDgc/ABMA:cAkAAAAAAAAA"],
        &dir,
        100,
        30,
        &[("BGEDIT_DEBUG_PANIC_THREAD", "main")],
    );
    assert_eq!(s.wait_exit(), 101);
    let raw = s.raw_text();
    let message = raw
        .find("panicking as BGEDIT_DEBUG_PANIC_THREAD asks")
        .unwrap_or_else(|| panic!("no panic message: {raw:?}"));
    let (before, after) = raw.split_at(message);
    for restore in ["\x1b[?1000l", "\x1b[?2004l", "\x1b[?1049l"] {
        assert!(
            before.contains(restore),
            "{restore:?} not before the message: {raw:?}"
        );
    }
    // Nothing drawn after it: no alternate screen again, no cursor moves.
    assert!(
        !after.contains("\x1b[?1049h") && !after.contains("\x1b[H"),
        "{after:?}"
    );
}

/// A panic in the library's worker or in a job (each made to panic by a
/// debug-build-only variable) is reported on the status line: the
/// terminal stays the editor's, the editor goes on, the worker starts
/// again at the next request, and quitting is clean.
#[test]
fn a_panic_in_a_worker_or_a_job_is_reported_and_the_editor_goes_on() {
    let asks = "panicking as BGEDIT_DEBUG_PANIC_THREAD asks";
    for (thread, said) in [
        (
            "bgedit-library",
            "the library: stopped on an internal error",
        ),
        (
            "bgedit-met",
            "cannot read /no/such.xml: reading stopped on an internal error",
        ),
    ] {
        let dir = state_dir(&format!("panic-{thread}"));
        let data = dir.to_str().unwrap();
        let mut s = Session::start_with(
            &PTY,
            &["4HPwATDgc/ABMA:cAkAAAAAAAAA"],
            &dir,
            160,
            30,
            &[
                ("BGEDIT_DEBUG_PANIC_THREAD", thread),
                ("BGEDIT_DATA_DIR", data),
            ],
        );
        s.wait_for("GNUBG ID    4HPwATDgc/ABMA:cAkAAAAAAAAA");
        if thread == "bgedit-library" {
            // It panicked as it started; after an edit (a status of its
            // own), the request starts it again, and it panics again.
            s.wait_for(said);
            s.send("E");
            s.wait_for("Position ID AAAAAAAAAAAAAA");
            s.send("L");
            let screen = s.wait_for(said);
            assert!(screen.contains(asks), "{screen}");
            s.send("\x1b");
            s.wait_for("Back to the board");
        } else {
            s.prompt("T", "/no/such.xml");
            let screen = s.wait_for(said);
            assert!(screen.contains(asks), "{screen}");
            s.send("E");
            s.wait_for("Position ID AAAAAAAAAAAAAA");
        }
        assert!(!s.raw_text().contains("\x1b[?1049l"), "{thread}: restored");
        s.send("q");
        assert_eq!(s.wait_exit(), 0, "{thread}");
    }
}

/// A file slow to read (a MET file here; a debug-build-only variable makes
/// its job sleep, standing in for a slow disk) does not hold up the
/// editor: keys typed meanwhile are done at once, and the table comes
/// when it is read.
#[test]
fn a_slow_file_does_not_hold_up_the_editor() {
    let dir = state_dir("slow-met");
    let mut s = Session::start_with(
        &PTY,
        &["4HPwATDgc/ABMA:cAngAAAAGAAA"],
        &dir,
        100,
        30,
        &[("BGEDIT_DEBUG_SLOW_THREAD", "bgedit-met")],
    );
    s.wait_for("GNUBG ID    4HPwATDgc/ABMA:cAngAAAAGAAA");
    let woolsey = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/met/woolsey.xml"
    );
    s.prompt("T", woolsey);
    s.wait_for("Reading the MET file");
    let asked = std::time::Instant::now();
    s.send("E");
    let screen = s.wait_for("Position ID AAAAAAAAAAAAAA");
    // The job sleeps four seconds before it reads: the edit came first,
    // and the table's message after it.
    assert!(
        asked.elapsed() < std::time::Duration::from_secs(4),
        "the edit waited for the file: {:?}",
        asked.elapsed()
    );
    assert!(!screen.contains("MET: Kit Woolsey"), "{screen}");
    s.wait_for("MET: Kit Woolsey");
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
}

/// `--view O`: the board's points are counted for O though X is on roll
/// (gnubg's text counts them for the player on roll); the Position ID is
/// the same.
#[test]
fn view_keeps_the_board_from_one_side() {
    let dir = state_dir("view");
    let mut s = Session::start(&PTY, &["--new", "--view", "O"], &dir, 100, 30);
    let screen = s.wait_for("Position ID 4HPwATDgc/ABMA");
    let top = screen
        .lines()
        .find(|l| l.contains("-+"))
        .expect("the board's top labels");
    assert!(top.starts_with(" +12-11-10"), "{screen}");
    assert!(screen.contains("X on roll"), "{screen}");
    s.send("q");
    s.wait_exit();
    let mut s = Session::start(&PTY, &["--new"], &dir, 100, 30);
    let screen = s.wait_for("Position ID 4HPwATDgc/ABMA");
    let top = screen.lines().find(|l| l.contains("-+")).unwrap();
    assert!(top.starts_with(" +13-14-15"), "{screen}");
    s.send("q");
    s.wait_exit();
}
