//! gnubg's own answers asked on this machine, in this run.
//!
//! gnubg 1.07's numbers depend on the CPU (its SIMD code rounds differently:
//! the same 0-ply `hint` gave +0.725 on one machine and +0.729 on another),
//! so a test that checks bgedit's engine answers against gnubg compares with
//! what the gnubg found here says now, never with numbers committed from
//! another machine. Each committed generator (`tests/fixtures/gen_*.py`) is
//! run as the fixtures were made, with the gnubg bgedit finds (`GNUBG`) and
//! its output written to a private directory (`BGEDIT_FIXTURE_DIR`) instead
//! of over the committed files; its answers are kept for the rest of the run.
//! `.ci/run` runs the suite a second time with gnubg's weights nudged
//! (`.ci/perturbed_gnubg`) to show that none of these tests still reads a
//! committed engine number.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};

/// The gnubg bgedit runs here (as `--gnubg`, `BGEDIT_GNUBG`, `PATH` find it).
pub fn gnubg() -> PathBuf {
    bgedit::engine::locate::find_from_env(None).expect("gnubg (check have_gnubg first)")
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The file `name` as the generator `script` (in `tests/fixtures/`) writes
/// it with this machine's gnubg (its standard output when `name` is `-`).
/// Generated once per test binary and run, whoever asks first.
pub fn generated(script: &str, name: &str) -> String {
    static RUNS: OnceLock<Mutex<HashMap<String, PathBuf>>> = OnceLock::new();
    let runs = RUNS.get_or_init(Default::default);
    // One generator at a time: two would only share the same two cores.
    let mut runs = runs.lock().unwrap_or_else(|e| e.into_inner());
    let dir = runs
        .entry(script.to_owned())
        .or_insert_with(|| run_generator(script))
        .clone();
    drop(runs);
    std::fs::read_to_string(dir.join(if name == "-" { "stdout" } else { name }))
        .unwrap_or_else(|e| panic!("{script} wrote no {name}: {e}"))
}

fn run_generator(script: &str) -> PathBuf {
    // Under target/ (cargo runs one test binary at a time): each run
    // replaces the last one's answers.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("live")
        .join(script.trim_end_matches(".py"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = fixtures().join(script);
    // A generator that imports gnubg runs inside gnubg's own Python.
    let in_gnubg = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{script}: {e}"))
        .contains("\nimport gnubg\n");
    let mut command = if in_gnubg {
        let mut c = Command::new(gnubg());
        c.args(["-t", "-q", "-r", "-p"]).arg(&path);
        c
    } else {
        let mut c = Command::new("python3");
        c.arg(&path);
        c
    };
    let out = command
        .current_dir(fixtures())
        .env("GNUBG", gnubg())
        .env("BGEDIT_FIXTURE_DIR", &dir)
        .env("LC_ALL", "C")
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("python3 {script}: {e}"));
    assert!(
        out.status.success(),
        "{script} failed with this machine's gnubg: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::write(dir.join("stdout"), &out.stdout).unwrap();
    dir
}

/// JSON lines of a generated file.
pub fn generated_lines(script: &str, name: &str) -> Vec<serde_json::Value> {
    generated(script, name)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{script}: {e}: {l}")))
        .collect()
}

/// What gnubg's command line prints for `commands` (one a line), run as
/// `gnubg -t -q -r` with the gnubg bgedit finds.
pub fn gnubg_says(commands: &str) -> String {
    use std::io::Write;
    let mut child = Command::new(gnubg())
        .args(["-t", "-q", "-r"])
        .env("LC_ALL", "C")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("gnubg starts");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(commands.as_bytes()).unwrap();
    stdin.write_all(b"\nquit\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The moves and equities of the last `hint` list in gnubg's text: each
/// `N. Cubeful 0-ply  MOVE  Eq.: +0.123 (...)` line as (move, equity).
pub fn hint_moves(text: &str) -> Vec<(String, f64)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let t = line.trim_start();
        let Some((rank, rest)) = t.split_once(". ") else {
            continue;
        };
        if rank.parse::<u32>().is_err() {
            continue;
        }
        let Some((head, eq)) = rest.split_once("Eq.:") else {
            continue;
        };
        // `Cubeful 2-ply MOVE` or `Rollout MOVE`.
        let words: Vec<&str> = head.split_whitespace().collect();
        let skip = if words.first() == Some(&"Rollout") {
            1
        } else {
            2
        };
        let notation = words.get(skip..).unwrap_or_default().join(" ");
        let equity = eq.split_whitespace().next().and_then(|e| e.parse().ok());
        if let Some(equity) = equity {
            if rank == "1" {
                out.clear();
            }
            out.push((notation, equity));
        }
    }
    out
}
