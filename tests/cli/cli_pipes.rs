//! Every command whose standard output is closed before it writes (`bgedit
//! … | head -0`) exits 141, the shell's SIGPIPE status, and says nothing:
//! output that was not delivered never exits 0, and the reader that went
//! away asked for no more.

use crate::common;
use std::io::Write;
use std::process::{Command, Stdio};

const OPENING: &str = "4HPwATDgc/ABMA:cAkFAAAAAAAE";
const OPENING_ROLLED: &str = "4HPwATDgc/ABMA:cIkRAAAAAAAE";

fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs `bgedit ARGS` with `stdin` and a standard output whose reader is
/// closed before the command starts (so even its first, short write fails,
/// whatever the timing): its exit status and standard error.
fn with_closed_stdout(args: &[&str], stdin: &str) -> (Option<i32>, String) {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let mut child = Command::new(env!("CARGO_BIN_EXE_bgedit"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_owned();
    let feeder = std::thread::spawn(move || {
        // A command that stops at its first write reads no more.
        let _ = input.write_all(stdin.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A one-game match without a problem in it (so nothing is said on
/// standard error), in a directory that goes with it.
fn short_match() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("short.mat");
    std::fs::write(
        &path,
        " 1 point match\n\n Game 1\n White : 0                  Black : 0\n  1) 31: 8/5 6/5           42: 8/4 6/4\n  2) 61: 13/7 8/7\n",
    )
    .unwrap();
    let path = path.to_str().unwrap().to_owned();
    (dir, path)
}

fn assert_quiet_141(args: &[&str], stdin: &str) {
    let (code, stderr) = with_closed_stdout(args, stdin);
    assert_eq!(code, Some(141), "bgedit {args:?}: {stderr}");
    assert_eq!(stderr, "", "bgedit {args:?}");
}

#[test]
fn every_command_exits_141_silently_on_a_closed_standard_output() {
    let mat = fixture("mat/galaxy_style.mat");
    // IDs as arguments and on standard input.
    assert_quiet_141(&["show", OPENING], "");
    assert_quiet_141(&["show"], &format!("{OPENING}\n"));
    assert_quiet_141(&["convert", "--to", "xgid", OPENING], "");
    assert_quiet_141(&["convert", "--to", "xgid", "--quiet", "--file", &mat], "");
    assert_quiet_141(&["moves", OPENING_ROLLED], "");
    assert_quiet_141(
        &["moves", "--format", "json"],
        &format!("{OPENING_ROLLED}\n"),
    );
    assert_quiet_141(&["play", "24/21 24/20", OPENING_ROLLED], "");
    assert_quiet_141(&["stats", OPENING], "");
    assert_quiet_141(&["stats", "--format", "json", OPENING], "");
    assert_quiet_141(&["image", OPENING], "");
    let (_dir, short) = short_match();
    assert_quiet_141(&["match", &short], "");
    assert_quiet_141(&["match", "--format", "json", &short], "");

    let dir = tempfile::tempdir().unwrap();
    let library = dir.path().join("library.db");
    let library = library.to_str().unwrap();
    let added = Command::new(env!("CARGO_BIN_EXE_bgedit"))
        .args(["library", "--library", library, "add", OPENING])
        .output()
        .unwrap();
    assert!(added.status.success(), "{added:?}");
    assert_quiet_141(&["library", "--library", library, "list"], "");
    assert_quiet_141(
        &[
            "library",
            "--library",
            library,
            "search",
            "--format",
            "json",
            "money",
        ],
        "",
    );
    assert_quiet_141(
        &[
            "library",
            "--library",
            library,
            "export",
            "--format",
            "xgid",
        ],
        "",
    );
    assert_quiet_141(&["quiz", "--stats", "--library", library], "");
    assert_quiet_141(
        &["quiz", "--stats", "--format", "json", "--library", library],
        "",
    );
}

#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn every_engine_command_exits_141_silently_on_a_closed_standard_output() {
    common::gnubg();
    assert_quiet_141(&["analyse", OPENING_ROLLED], "");
    assert_quiet_141(&["analyse", "--format", "json"], &format!("{OPENING}\n"));
    assert_quiet_141(&["analyse", "--score-matrix", "--length", "3", OPENING], "");
    assert_quiet_141(&["analyse", "--sensitivity", OPENING_ROLLED], "");
    assert_quiet_141(&["quiz", "--answer", "24/21 24/20", OPENING_ROLLED], "");
    let (_dir, short) = short_match();
    assert_quiet_141(&["analyse", "--jobs", "1", "--file", &short], "");
}

/// Both engines: the opening roll compared, then its line not delivered.
#[test]
#[cfg_attr(
    not(all(bgedit_has_gnubg, bgedit_has_sage)),
    ignore = "needs gnubg and Open Sage"
)]
fn disagreements_exit_141_silently_on_a_closed_standard_output() {
    common::gnubg();
    common::sage_python();
    let dir = tempfile::tempdir().unwrap();
    let library = dir.path().join("library.db");
    let library = library.to_str().unwrap();
    let added = Command::new(env!("CARGO_BIN_EXE_bgedit"))
        .args(["library", "--library", library, "add", OPENING_ROLLED])
        .output()
        .unwrap();
    assert!(added.status.success(), "{added:?}");
    let list = [
        "library",
        "--library",
        library,
        "disagreements",
        "--min",
        "0",
    ];
    assert_quiet_141(&list, "");
}
