//! The `bgedit` binary's `show` and `convert`, run as a user runs them.

use crate::common;

use common::MANUAL_SHOW_BOARD;
use common::run::{bgedit, text};
use std::io::Write;
use std::process::{Command, Output, Stdio};

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
    assert_eq!(text(&out.stdout), format!("{MANUAL_SHOW_BOARD}\n"));
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
    assert!(stdout.starts_with(&format!("{MANUAL_SHOW_BOARD}\n")));
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

fn bgedit_bytes(args: &[&str], stdin: Vec<u8>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bgedit"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bgedit runs");
    let mut input = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

#[test]
fn a_whole_show_board_block_converts_back_to_its_id() {
    let shown = bgedit(&["show", "4HPwATDgc/ABMA:cAkAAAAAAAAA"], "");
    let block = text(&shown.stdout);
    let out = bgedit(&["convert", "--to", "gnubg", &block], "");
    assert_eq!(text(&out.stderr), "");
    assert_eq!(text(&out.stdout), "4HPwATDgc/ABMA:cAkAAAAAAAAA\n");
}

#[test]
fn an_xg_export_line_with_text_after_the_xgid_is_read() {
    let out = bgedit(
        &[
            "convert",
            "--to",
            "gnubg",
            "-q",
            "XGID=a-B--BC-BAA-dB---cbe-B----:1:-1:1:52:4:2:0:9:10 X to play 52",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "4NvBA0DGzooBBg:QYkqASAAIAAE\n");
}

#[test]
fn a_long_match_id_is_named_as_the_wrong_part() {
    let out = bgedit(
        &["convert", "--to", "xgid", "4NvBA0DGzooBBg:QYkqASAAIAAAA"],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "argument 1: Match ID: 13 characters; a Match ID has 12\n"
    );
}

#[test]
fn two_ids_in_one_text_say_which_was_read() {
    let out = bgedit(
        &["convert", "--to", "gnubg"],
        "4HPwATDgc/ABMA:cAkAAAAAAAAA 4NvBA0DGzooBBg:QYkqASAAIAAA\n",
    );
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), "4HPwATDgc/ABMA:cAkAAAAAAAAA\n");
    assert_eq!(
        text(&out.stderr),
        "line 1: note: two IDs found; read the first (GNUBG ID 4HPwATDgc/ABMA:cAkAAAAAAAAA)\n"
    );
}

#[test]
fn a_mistyped_command_is_named_with_the_command_meant() {
    let out = bgedit(&["shwo"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("'shwo' is neither a command nor an ID"),
        "{err}"
    );
    assert!(err.contains("did you mean `bgedit show`"), "{err}");
    let out = bgedit(&["conver", "--to", "xgid"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("did you mean `bgedit convert`"), "{err}");
    assert!(!err.contains("-- --to"), "{err}");
}

#[test]
fn the_two_ids_as_gnubg_prints_them_are_accepted_as_the_editors_start() {
    // Without a terminal the editor refuses to start, but only after the
    // IDs were read: no complaint about the arguments.
    let out = bgedit(&["4NvBA0DGzooBBg", "QYkqASAAIAAA"], "");
    let err = text(&out.stderr);
    assert!(err.contains("the editor needs a terminal"), "{err}");
    // tests/editor_e2e.rs opens the editor on them in a pseudo-terminal.
}

#[test]
fn a_closed_stderr_loses_no_output_and_the_exit_status_stays_honest() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bgedit"))
        .args(["convert", "--to", "posid"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the reading end of stderr before anything is written to it.
    drop(child.stderr.take());
    let mut input = String::new();
    for i in 0..20_000 {
        input.push_str(if i % 2 == 0 {
            "4HPwATDgc/ABMA:cAkAAAAAAAAA\n"
        } else {
            "nonsense\n"
        });
    }
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert_eq!(out.status.code(), Some(1), "bad lines were read");
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), 20_000);
    assert_eq!(stdout.matches("4HPwATDgc/ABMA").count(), 10_000);
}

#[test]
fn a_closed_stdout_is_not_success() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bgedit"))
        .args(["show"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let input = "4HPwATDgc/ABMA:cAkAAAAAAAAA\n".repeat(10_000);
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(out.status.code(), Some(141));
    assert_eq!(text(&out.stderr), "");
}

#[test]
fn every_quoted_fragment_is_cut_the_same_way() {
    let long = "a".repeat(500_000);
    let json = format!(
        "{{\"board\":{{\"O\":{{\"points\":[0,0,0,0,0,5,0,3,0,0,0,0,5,0,0,0,0,0,0,0,0,0,0,2],\"bar\":0,\"off\":0}},\"X\":{{\"points\":[0,0,0,0,0,5,0,3,0,0,0,0,5,0,0,0,0,0,0,0,0,0,0,2],\"bar\":0,\"off\":0}}}},\"cube\":{{\"value\":1,\"owner\":\"{long}\",\"offered\":false}},\"on_roll\":\"X\",\"turn\":\"X\",\"dice\":null,\"resignation\":\"none\",\"game_state\":\"playing\",\"match_length\":0,\"score\":{{\"O\":0,\"X\":0}},\"crawford\":false,\"jacoby\":true,\"beavers\":true,\"max_cube\":1024,\"names\":{{\"O\":\"a\",\"X\":\"b\"}}}}"
    );
    let out = bgedit(&["convert", "--to", "gnubg"], &format!("{json}\n{long}\n"));
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    let cut = format!("'{}…'", "a".repeat(40));
    assert_eq!(err.lines().count(), 2, "{err}");
    for line in err.lines() {
        assert!(line.len() < 200, "{line}");
        assert!(line.contains(&cut), "{line}");
    }
    // serde's own messages are cut too.
    let typed = json.replace(
        "\"match_length\":0",
        &format!("\"match_length\":\"{long}\""),
    );
    let out = bgedit(&["convert", "--to", "gnubg"], &format!("{typed}\n"));
    let err = text(&out.stderr);
    assert!(err.len() < 200, "{err}");
    assert!(err.contains(&format!("\"{}…\"", "a".repeat(40))), "{err}");
}

#[test]
fn json_names_follow_the_same_rule_as_name_options() {
    let json = text(
        &bgedit(
            &["convert", "--to", "json", "--name-o", "Kit"],
            "4HPwATDgc/ABMA:cAkAAAAAAAAA\n",
        )
        .stdout,
    );
    let bad = json.replace("\"Kit\"", "\"Kit\\n\\u001b[2J\"");
    let out = bgedit(&["show"], &bad);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "");
    let err = text(&out.stderr);
    assert!(
        err.contains("O's name 'Kit\\n\\u{1b}[2J' has a control character (U+000A) at character 4"),
        "{err}"
    );
}

#[test]
fn a_line_over_one_mib_is_refused_and_the_run_goes_on() {
    let mut input = vec![b'A'; 2 << 20];
    input.extend_from_slice(b"\n4HPwATDgc/ABMA:cAkAAAAAAAAA\n");
    let out = bgedit_bytes(&["convert", "-q", "--to", "posid"], input);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "\n4HPwATDgc/ABMA\n");
    assert_eq!(
        text(&out.stderr),
        "line 1: longer than 1 MiB (1048576 bytes); skipped\n"
    );
}

#[test]
fn endless_input_without_a_line_end_stops_cleanly() {
    let out = Command::new(env!("CARGO_BIN_EXE_bgedit"))
        .args(["convert", "--to", "gnubg"])
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "line 1: longer than 1 MiB and no end of line in 64 MiB; stopped reading\n"
    );
}

#[test]
fn each_answer_is_flushed_while_the_next_line_is_awaited() {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_bgedit"))
        .args(["convert", "--to", "posid"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = stdout.read_line(&mut line);
        let _ = tx.send(line);
    });
    // One line, and the input stays open.
    stdin.write_all(b"4HPwATDgc/ABMA:cAkAAAAAAAAA\n").unwrap();
    stdin.flush().unwrap();
    let answer = rx.recv_timeout(std::time::Duration::from_secs(30));
    drop(stdin);
    let _ = child.wait();
    assert_eq!(answer.as_deref(), Ok("4HPwATDgc/ABMA\n"));
}

#[test]
fn each_message_is_flushed_while_the_next_line_is_awaited() {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_bgedit"))
        .args(["convert", "--to", "posid"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = stderr.read_line(&mut line);
        let _ = tx.send(line);
    });
    stdin.write_all(b"nonsense\n").unwrap();
    stdin.flush().unwrap();
    let message = rx.recv_timeout(std::time::Duration::from_secs(30));
    drop(stdin);
    let _ = child.wait();
    assert!(
        message
            .as_deref()
            .is_ok_and(|m| m.starts_with("line 1: not an ID")),
        "{message:?}"
    );
}

/// Lines pasted from a terminal end in carriage returns (xterm, VTE, tmux
/// `paste-buffer -p`): each is its own line, as with LF or CR LF.
#[test]
fn input_lines_ending_in_carriage_returns_are_each_read() {
    for input in [
        "4HPwATDgc/ABMA:cAkAAAAAAAAA\r4NvBA0DGzooBBg:QYkqASAAIAAA\r",
        "4HPwATDgc/ABMA:cAkAAAAAAAAA\r\n4NvBA0DGzooBBg:QYkqASAAIAAA\r\n",
    ] {
        let out = bgedit(&["convert", "--to", "xgid"], input);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(
            text(&out.stdout),
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10\n\
             XGID=a-B--BC-BAA-dB---cbe-B----:1:-1:1:52:4:2:0:9:10\n",
            "{input:?}"
        );
        assert!(
            !text(&out.stderr).contains("two IDs"),
            "{}",
            text(&out.stderr)
        );
    }
}

/// `bgedit PATH` with no file there says so, rather than that the path is
/// not an ID; a mistyped ID is still named as one.
#[test]
fn a_missing_match_file_is_named_as_missing() {
    for path in ["/nonexistent.mat", "no-such-dir/game.sgf", "match.mat"] {
        let out = bgedit(&[path], "");
        assert_eq!(out.status.code(), Some(2), "{path}");
        let err = text(&out.stderr);
        assert!(
            err.contains(&format!("{path}: no such file")),
            "{path}: {err}"
        );
        assert!(!err.contains("not an ID"), "{err}");
    }
    let out = bgedit(&["4HPwATDgc/ABM"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("Position ID") && !err.contains("no such file"),
        "{err}"
    );
}
