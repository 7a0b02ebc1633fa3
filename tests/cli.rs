//! The `bgedit` binary's `show` and `convert`, run as a user runs them.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn bgedit(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bgedit"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bgedit runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// gnubg 1.07's `show board` for the manual's match example (names set to
/// alice and bob), trailing spaces included.
const MANUAL_EXAMPLE: &str = concat!(
    " GNU Backgammon  Position ID: 4NvBA0DGzooBBg\n",
    "                 Match ID   : QYkqASAAIAAA\n",
    " +13-14-15-16-17-18------19-20-21-22-23-24-+     O: alice (Cube: 2)\n",
    " | X           O  O | O | O     X          |     2 points\n",
    " | X           O  O |   | O     X          |     \n",
    " |             O    |   | O                |     \n",
    " |                  |   | O                |     \n",
    " |                  |   | O                |    \n",
    "v|                  |BAR|                  |     9 points match\n",
    " |                  |   |                  |    \n",
    " | O                |   |                  |     \n",
    " | O                |   | X                |     \n",
    " | O           X    |   | X  X        X    |     Rolled 52\n",
    " | O     X  X  X    |   | X  X        X    |     4 points\n",
    " +12-11-10--9--8--7-------6--5--4--3--2--1-+     X: bob\n",
    "\n",
);

#[test]
fn show_prints_gnubgs_board_for_an_argument() {
    let out = bgedit(
        &[
            "show",
            "--name-o",
            "alice",
            "--name-x",
            "bob",
            "4NvBA0DGzooBBg:QYkqASAAIAAA",
        ],
        "",
    );
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), MANUAL_EXAMPLE);
    assert_eq!(text(&out.stderr), "");
}

#[test]
fn show_reads_stdin_when_no_ids_are_given() {
    let out = bgedit(
        &["show", "--name-o", "alice", "--name-x", "bob"],
        "GNUBG ID: 4NvBA0DGzooBBg:QYkqASAAIAAA\nXGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10\n",
    );
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with(MANUAL_EXAMPLE));
    assert_eq!(stdout.lines().count(), 32);
    assert!(stdout.contains("Position ID: 4HPwATDgc/ABMA\n"));
}

#[test]
fn convert_writes_each_format() {
    let id = "4NvBA0DGzooBBg:QYkqASAAIAAA";
    let one = |to: &str| text(&bgedit(&["convert", "--to", to, id], "").stdout);
    assert_eq!(one("gnubg"), "4NvBA0DGzooBBg:QYkqASAAIAAA\n");
    assert_eq!(one("posid"), "4NvBA0DGzooBBg\n");
    assert_eq!(one("matchid"), "QYkqASAAIAAA\n");
    // gnubg's `set xgid` reads this back to the same board and IDs.
    assert_eq!(
        one("xgid"),
        "XGID=a-B--BC-BAA-dB---cbe-B----:1:-1:1:52:4:2:0:9:10\n"
    );
    let json = one("json");
    for field in [
        "\"cube\":{\"value\":2,\"owner\":\"O\",\"offered\":false}",
        "\"dice\":[5,2]",
        "\"match_length\":9",
        "\"score\":{\"O\":2,\"X\":4}",
        "\"pips\":{\"O\":145,\"X\":135}",
    ] {
        assert!(json.contains(field), "{field} in {json}");
    }
}

#[test]
fn xgid_from_convert_reads_back_to_the_same_gnubg_id() {
    let x = text(
        &bgedit(
            &["convert", "--to", "xgid", "4NvBA0DGzooBBg:QYkqASAAIAAA"],
            "",
        )
        .stdout,
    );
    let back = bgedit(&["convert", "--to", "gnubg", "-q"], &x);
    assert_eq!(
        text(&back.stdout),
        "4NvBA0DGzooBBg:QYkqASAAIAAE\n",
        "Jacoby bit off from a match XGID, as gnubg"
    );
}

#[test]
fn bad_lines_are_named_the_run_goes_on_and_the_exit_status_says_so() {
    let out = bgedit(
        &["convert", "--to", "posid"],
        "4HPwATDgc/ABMA:cAkAAAAAAAAA\n4HPwATDgc/ABM\n\n4HPwATDgc/ABMA:cAkAAAAAAAAA\nXGID=-b----E-C---eE---c-e----B-:0:3:1:00:0:0:3:0:10\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "4HPwATDgc/ABMA\n\n\n4HPwATDgc/ABMA\n\n");
    let err = text(&out.stderr);
    assert!(
        err.contains("line 2: Position ID: 13 characters; a Position ID has 14\n"),
        "{err}"
    );
    assert!(
        err.contains("line 5: XGID field 3 (cube owner) is '3'"),
        "{err}"
    );
}

#[test]
fn warnings_and_losses_go_to_stderr_and_quiet_silences_them() {
    // A 65-point match: legal, but more than gnubg accepts.
    let id = "4HPwATDgc/ABMA:cAkgCAAAAAAA";
    let out = bgedit(&["convert", "--to", "xgid", id], "");
    assert!(out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains(
            "argument 1: warning: a 65-point match is longer than the 64 points gnubg accepts"
        ),
        "{err}"
    );
    assert!(
        err.contains("argument 1: note: the Match ID's Jacoby bit"),
        "{err}"
    );
    let quiet = bgedit(&["convert", "-q", "--to", "xgid", id], "");
    assert_eq!(text(&quiet.stderr), "");
    assert_eq!(text(&quiet.stdout), text(&out.stdout));
}

#[test]
fn a_bad_argument_is_an_argument_not_a_line() {
    let out = bgedit(&["show", "nonsense"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).starts_with("argument 1: not an ID"));
}

#[test]
fn control_characters_in_names_are_refused() {
    let out = bgedit(&["show", "--name-o", "a\nb", "4HPwATDgc/ABMA"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("control character"));
}

#[test]
fn an_xgid_without_its_prefix_may_start_with_a_dash() {
    let out = bgedit(
        &[
            "convert",
            "--to",
            "gnubg",
            "-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "4HPwATDgc/ABMA:cAkAAAAAAAAA\n");
}

#[test]
fn json_carries_the_names_given_and_json_input_keeps_its_own() {
    let json = text(
        &bgedit(
            &[
                "convert",
                "--to",
                "json",
                "--name-o",
                "Kit",
                "4HPwATDgc/ABMA",
            ],
            "",
        )
        .stdout,
    );
    assert!(
        json.contains("\"names\":{\"O\":\"Kit\",\"X\":\"Black\"}"),
        "{json}"
    );
    let shown = text(&bgedit(&["show", "--name-o", "ignored"], &json).stdout);
    assert!(shown.contains("O: Kit\n"), "{shown}");
    let xgid = text(
        &bgedit(
            &["show", "--name-x", "Zed"],
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10\n",
        )
        .stdout,
    );
    assert!(xgid.contains("X: Zed\n"), "{xgid}");
}
