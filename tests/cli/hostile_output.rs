//! One hostile string through every output path: names, events, comments,
//! moves, file names and arguments holding ESC, BEL, CSI as one C1 byte
//! (U+009B) and bidi overrides (U+202E, U+2066). Whatever bgedit prints
//! (text, JSON, messages, the editor's screen), none of it may reach the
//! terminal raw: `quote::printable` and `quote::json` are the one rule.

use crate::common;
use crate::common::pty::{Options, Session, state_dir};
use crate::common::run::command;
use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};

/// Sets the window title, then a C1 CSI, then turns the line around.
const HOSTILE: &str = "\x1b]0;owned\x07\u{9b}31m\u{202e}gpj\u{2066}x\x7f";

/// The first character that must not reach a terminal, if any.
fn raw_control(text: &str) -> Option<char> {
    text.chars().find(|&c| {
        (c.is_control() && c != '\n' && c != '\t')
            || ('\u{202a}'..='\u{202e}').contains(&c)
            || ('\u{2066}'..='\u{2069}').contains(&c)
    })
}

/// What reached stdout or stderr raw, with the line it is in.
fn dirty(what: &str, out: &Output) -> Vec<String> {
    let mut found = Vec::new();
    for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        let text = String::from_utf8_lossy(bytes);
        if let Some(line) = text.lines().find(|l| raw_control(l).is_some()) {
            found.push(format!("{what}: {stream}: {line:?}"));
        }
    }
    found
}

/// Every case's leaks, all named at once.
fn assert_none(found: &[String]) {
    assert!(
        found.is_empty(),
        "raw controls reached the terminal:\n{}",
        found.join("\n")
    );
}

fn run(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = command();
    cmd.args(args).stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

/// Names may hold no control character (a reader refuses them), but may
/// turn the text around.
const BIDI: &str = "\u{202e}gpj\u{2066}x\u{2069}";

/// A gnubg SGF match: names that turn around, event, place and comments
/// hostile.
fn sgf() -> String {
    // SGF escapes its closing bracket.
    let hostile = HOSTILE.replace(']', "\\]");
    format!(
        "(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:1][game:0][ws:0][bs:0]\
         PW[{b}]PB[{b}]EV[{h}]PC[{h}]GC[{h}]RU[]\n;B[31qtst]C[{h}]\n;W[64xrrn]C[{h}]\n;B[52tsqn])\n",
        h = hostile,
        b = BIDI
    )
}

/// A Jellyfish .mat with hostile names.
fn mat() -> String {
    format!(
        " 1 point match\n\n Game 1\n {h} : 0                      bob : 0\n  \
         1) 61: 13/7 8/7                43: 24/21 24/20\n  2) 52: 24/22 13/8\n",
        h = HOSTILE
    )
}

/// gnubg's match text with hostile text after `* NAME moves`.
fn match_text() -> String {
    let text = include_str!("../fixtures/mat/selfplay_1pt_seed37.gnubg-text.txt");
    text.replacen(
        "* gnubg moves 13/7 8/7",
        &format!("* gnubg moves 13/7 8/7 {HOSTILE}"),
        1,
    )
}

struct Files {
    _dir: tempfile::TempDir,
    sgf: PathBuf,
    mat: PathBuf,
    text: PathBuf,
    /// A file whose own name is hostile.
    named: PathBuf,
}

fn files() -> Files {
    let dir = tempfile::tempdir().unwrap();
    let sgf_path = dir.path().join("hostile.sgf");
    std::fs::write(&sgf_path, sgf()).unwrap();
    let mat_path = dir.path().join("hostile.mat");
    std::fs::write(&mat_path, mat()).unwrap();
    let text_path = dir.path().join("hostile.txt");
    std::fs::write(&text_path, match_text()).unwrap();
    let named = dir.path().join(format!("{HOSTILE}.sgf"));
    std::fs::write(&named, sgf()).unwrap();
    Files {
        _dir: dir,
        sgf: sgf_path,
        mat: mat_path,
        text: text_path,
        named,
    }
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn no_command_prints_a_hostile_string_raw() {
    let f = files();
    let missing = f.named.with_extension("gone");
    let all = [s(&f.sgf), s(&f.mat), s(&f.text), s(&f.named), s(&missing)];
    let mut cases: Vec<Vec<&str>> = vec![
        [&["match"][..], &all].concat(),
        [&["match", "--format", "json"][..], &all].concat(),
        vec!["match", s(&f.named)],
        vec!["show", HOSTILE],
        vec!["convert", "--to", "xgid", HOSTILE],
        vec!["stats", HOSTILE],
        vec!["moves", HOSTILE],
        vec!["play", "8/5", HOSTILE],
        vec!["image", HOSTILE],
        // clap's refusals and the typo check quote the argument.
        vec!["match", "--format", HOSTILE, "x"],
        vec![HOSTILE],
        vec!["library", HOSTILE],
        vec!["analyse", "--file", s(&missing)],
    ];
    for file in all {
        for to in ["sgf", "xgid", "gnubg", "json"] {
            cases.push(vec!["convert", "--to", to, "--file", file]);
        }
        cases.push(vec![
            "convert", "--to", "xgid", "--game", "1", "--move", "1", "--file", file,
        ]);
    }
    let found: Vec<String> = cases
        .iter()
        .flat_map(|args| dirty(&format!("{args:?}"), &run(args, &[])))
        .collect();
    assert_none(&found);
}

#[test]
fn the_library_and_the_quiz_print_no_hostile_string_raw() {
    let f = files();
    let lib = tempfile::tempdir().unwrap();
    let db = lib.path().join("lib.sqlite");
    let with = |args: &[&str]| -> Output {
        run(&[&["library", "--library", s(&db)][..], args].concat(), &[])
    };
    let mut found = Vec::new();
    for file in [&f.sgf, &f.mat, &f.text, &f.named] {
        found.extend(dirty("library import", &with(&["import", s(file)])));
    }
    let gone = f.named.with_extension("gone");
    let cases: Vec<Vec<&str>> = vec![
        vec!["list"],
        vec!["list", "--format", "json"],
        vec!["search", HOSTILE],
        vec!["search", "--format", "json", "title:x"],
        vec!["show", "1"],
        vec!["show", "2"],
        vec!["show", HOSTILE],
        vec!["rm", HOSTILE],
        vec!["import", s(&gone)],
        vec!["export", "--format", "csv"],
        vec!["export", "--format", "jsonl"],
        vec!["export", "--format", "anki"],
    ];
    for args in &cases {
        found.extend(dirty(&format!("library {args:?}"), &with(args)));
    }
    for args in [
        &["quiz", "--stats", "--collection", HOSTILE][..],
        &[
            "quiz",
            "--stats",
            "--format",
            "json",
            "--collection",
            HOSTILE,
        ],
    ] {
        let out = run(&[args, &["--library", s(&db)]].concat(), &[]);
        found.extend(dirty(&format!("{args:?}"), &out));
    }
    assert_none(&found);
}

#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn analyse_file_prints_no_hostile_string_raw() {
    common::gnubg();
    let f = files();
    let mut found = Vec::new();
    for file in [&f.sgf, &f.mat, &f.text, &f.named] {
        for format in ["text", "json"] {
            let out = run(
                &[
                    "analyse",
                    "--plies",
                    "0",
                    "--format",
                    format,
                    "--file",
                    s(file),
                ],
                &[],
            );
            found.extend(dirty(&format!("analyse --file {file:?} {format}"), &out));
        }
    }
    assert_none(&found);
}

#[test]
fn the_editor_shows_no_hostile_string_raw() {
    let f = files();
    for file in [&f.sgf, &f.mat, &f.named] {
        let state = state_dir("bgedit-hostile", "editor");
        let options = Options::default();
        let mut session = Session::start(&options, &[s(file)], &state, 100, 32);
        let screen = session.wait_for("Match");
        // q closes a match under review, a second q quits.
        session.keys("q");
        let gone = session.wait_exit_within(std::time::Duration::from_secs(2));
        if gone.is_none() {
            session.keys("q");
        }
        if gone.is_none()
            && session
                .wait_exit_within(std::time::Duration::from_secs(10))
                .is_none()
        {
            panic!(
                "{file:?}: bgedit did not quit:\n{screen}\n{}",
                session.contents()
            );
        }
        let raw = String::from_utf8_lossy(&session.raw.lock().unwrap()).into_owned();
        // The terminal's own sequences are ESC [ and ESC ( ...; the file's
        // title sequence (ESC ] 0) and its one-byte CSI must not be there.
        assert!(!raw.contains("\x1b]0;owned"), "{file:?}: {raw:?}");
        assert!(!raw.contains('\u{9b}'), "{file:?}: {raw:?}");
        assert!(
            !raw.contains('\u{202e}') && !raw.contains('\u{2066}'),
            "{file:?}"
        );
        assert!(!raw.contains('\x07'), "{file:?}: {raw:?}");
        let _ = std::fs::remove_dir_all(state);
    }
}
