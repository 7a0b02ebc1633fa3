//! A signal in the middle of an analysis (SIGTERM, SIGHUP, SIGINT sent
//! with `kill`), and the editor quit while it analyses a match: no gnubg
//! is left running and no match copy is left in the temporary directory.
//! With the real gnubg (ignored without it unless BGEDIT_REQUIRE_GNUBG=1).

use crate::common;
use crate::common::pty::{Options, Session, state_dir};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Put in bgedit's environment, so inherited by every engine it starts:
/// how they are found after bgedit is gone (they would be init's then).
const MARKER: &str = "BGEDIT_SIGNAL_TEST";

/// The processes but `except` whose environment holds `MARKER=value`.
fn marked(value: &str, except: u32) -> Vec<u32> {
    let wanted = format!("{MARKER}={value}");
    std::fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| pid != except)
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.split(|&b| b == 0).any(|v| v == wanted.as_bytes()))
        })
        .collect()
}

/// bgedit's match copies in `dir`.
fn copies(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("bgedit-match-"))
        .collect()
}

/// Waits up to `secs` for `done`.
fn wait_until(secs: u64, mut done: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + Duration::from_secs(secs);
    while Instant::now() < end {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    done()
}

fn m7() -> String {
    format!(
        "{}/tests/fixtures/analysis/m7_noisy.sgf",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn start(args: &[&str], tmp: &Path, marker: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_bgedit"))
        .args(args)
        .env("TMPDIR", tmp)
        .env(MARKER, marker)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Kills what a failed case left, so one failure does not leave gnubgs.
fn kill_all(pids: &[u32]) {
    for &pid in pids {
        // SAFETY: kill touches no memory.
        unsafe { libc::kill(pid as i32, libc::SIGKILL) };
    }
}

#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn a_signal_mid_analysis_leaves_no_gnubg_and_no_match_copy() {
    common::gnubg();
    let m7 = m7();
    let commands: [(&str, Vec<&str>); 3] = [
        ("file", vec!["analyse", "--plies", "3", "--file", &m7]),
        (
            "rollout",
            vec![
                "analyse",
                "--rollout",
                "--trials",
                "100000",
                "4HPwATDgc/ABMA:cAkAAAAAAAAA",
            ],
        ),
        (
            "matrix",
            vec![
                "analyse",
                "--score-matrix",
                "--length",
                "9",
                "--plies",
                "3",
                "4HPwATDgc/ABMA:cAkAAAAAAAAA",
            ],
        ),
    ];
    let mut failures = Vec::new();
    for (name, args) in &commands {
        for signal in [libc::SIGTERM, libc::SIGHUP, libc::SIGINT] {
            let tmp = tempfile::tempdir().unwrap();
            let marker = format!("{name}-{signal}-{}", std::process::id());
            let mut child = start(args, tmp.path(), &marker);
            let me = child.id();
            let started = wait_until(30, || {
                !marked(&marker, me).is_empty()
                    && (*name != "file" || !copies(tmp.path()).is_empty())
            });
            assert!(started, "{name}: gnubg never started");
            // Into its work: a gnubg still starting ends at its first read.
            std::thread::sleep(Duration::from_secs(2));
            // SAFETY: kill touches no memory.
            unsafe { libc::kill(me as i32, signal) };
            let status = wait_until(10, || child.try_wait().unwrap().is_some());
            if !status {
                let _ = child.kill();
                failures.push(format!("{name}, signal {signal}: bgedit did not exit"));
            } else {
                let code = child.wait().unwrap().code();
                if code != Some(128 + signal) {
                    failures.push(format!("{name}, signal {signal}: exit {code:?}"));
                }
            }
            // Killed with bgedit, not when they next read their input (a
            // 3-ply game's analysis can take minutes).
            let gone = wait_until(1, || marked(&marker, me).is_empty());
            if !gone {
                let left = marked(&marker, me);
                failures.push(format!("{name}, signal {signal}: engines left: {left:?}"));
                kill_all(&left);
            }
            let left = copies(tmp.path());
            if !left.is_empty() {
                failures.push(format!("{name}, signal {signal}: copies left: {left:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
fn quitting_the_editor_mid_analysis_leaves_no_gnubg_and_no_match_copy() {
    common::gnubg();
    let tmp = tempfile::tempdir().unwrap();
    let state = state_dir("bgedit-signals", "quit");
    let marker = format!("editor-{}", std::process::id());
    let tmp_text = tmp.path().to_str().unwrap();
    let options = Options {
        timeout: Duration::from_secs(30),
        ..Options::DEFAULT
    };
    // A .mat carries no analysis: the editor asks gnubg at once.
    let m7 = m7().replace(".sgf", ".mat");
    let mut s = Session::start_with(
        &options,
        &[&m7],
        &state,
        120,
        45,
        &[("TMPDIR", tmp_text), (MARKER, &marker)],
    );
    s.wait_for("gnubg analysing");
    assert!(
        wait_until(30, || !copies(tmp.path()).is_empty()),
        "no copy made"
    );
    // q closes the match, the second q quits, the analysis still running.
    s.send("q");
    s.wait_for("Closed");
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
    let gone = wait_until(5, || marked(&marker, 0).is_empty());
    let left = marked(&marker, 0);
    kill_all(&left);
    assert!(gone, "engines left: {left:?}");
    assert_eq!(copies(tmp.path()), Vec::<String>::new());
    let _ = std::fs::remove_dir_all(state);
}

/// A signal in the middle of Sage's in-process rollout ends bgedit at once:
/// the exit stops the rollout before Sage's thread pool is joined (without
/// that, the exit waited for the rollout's end, minutes away).
#[test]
#[cfg_attr(not(bgedit_has_sage), ignore = "needs Open Sage (pip install bgsage)")]
fn a_signal_mid_in_process_rollout_ends_bgedit_at_once() {
    crate::common::sage_python();
    let tmp = tempfile::tempdir().unwrap();
    let args = [
        "analyse",
        "--engine",
        "sage",
        "--rollout",
        "--trials",
        "50000",
        "4HPwATDgc/ABMA:cAkFAAAAAAAE",
    ];
    let mut child = start(&args, tmp.path(), "sage-rollout");
    // Sage loaded and rolling out.
    std::thread::sleep(Duration::from_secs(3));
    assert!(
        child.try_wait().unwrap().is_none(),
        "ended before the signal"
    );
    // SAFETY: kill touches no memory.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let sent = Instant::now();
    let ended = wait_until(10, || child.try_wait().unwrap().is_some());
    if !ended {
        kill_all(&[child.id()]);
    }
    assert!(
        ended,
        "bgedit still runs {:?} after SIGTERM",
        sent.elapsed()
    );
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(128 + libc::SIGTERM), "{status:?}");
}
