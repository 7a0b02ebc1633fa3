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

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The file `name` as the generator `script` (in `tests/fixtures/`) writes
/// it with this machine's gnubg (its standard output when `name` is `-`).
/// Generated once per test binary and run, whoever asks first.
pub fn generated(script: &str, name: &str) -> String {
    generated_by(Path::new("python3"), script, name)
}

/// As [`generated`], with the Python `python` (Open Sage's generator needs
/// the one that has bgsage: [`super::sage_python`]).
pub fn generated_by(python: &Path, script: &str, name: &str) -> String {
    static RUNS: OnceLock<Mutex<HashMap<String, PathBuf>>> = OnceLock::new();
    let runs = RUNS.get_or_init(Default::default);
    // One generator at a time: two would only share the same two cores.
    let mut runs = runs.lock().unwrap_or_else(|e| e.into_inner());
    let dir = runs
        .entry(script.to_owned())
        .or_insert_with(|| run_generator(python, script))
        .clone();
    drop(runs);
    std::fs::read_to_string(dir.join(if name == "-" { "stdout" } else { name }))
        .unwrap_or_else(|e| panic!("{script} wrote no {name}: {e}"))
}

fn run_generator(python: &Path, script: &str) -> PathBuf {
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
        let mut c = Command::new(super::gnubg());
        c.args(["-t", "-q", "-r", "-p"]).arg(&path);
        c
    } else {
        let mut c = Command::new(python);
        c.arg(&path);
        c
    };
    // gnubg's generators run the one found here (their callers checked
    // there is one); Sage's does without.
    if let Ok(gnubg) = bgedit_engine::EngineKind::Gnubg.locate(None) {
        command.env("GNUBG", gnubg);
    }
    let out = command
        .current_dir(fixtures())
        .env("BGEDIT_FIXTURE_DIR", &dir)
        .env("LC_ALL", "C")
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{} {script}: {e}", python.display()));
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
    let mut child = Command::new(super::gnubg())
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

/// gnubg's `hint` text for `id` (a GNUBG ID, or an XGID with its `XGID=`)
/// with chequer play and cube decisions at `plies`, after `double` when it
/// is set: asked as gen_gnubg_hints.py asks it, of the gnubg found here.
pub fn hint(id: &str, plies: u8, double: bool) -> String {
    let set = if id.starts_with("XGID=") {
        "xgid"
    } else {
        "gnubgid"
    };
    let mut commands = format!(
        "set player 0 human\nset player 1 human\n\
         set evaluation chequerplay evaluation plies {plies}\n\
         set evaluation cubedecision evaluation plies {plies}\n\
         set {set} {id}\n"
    );
    if double {
        commands.push_str("double\n");
    }
    commands.push_str("hint 1000\n");
    gnubg_says(&commands)
}

/// The moves and equities of gnubg's `hint` for `id` at `plies`.
pub fn hint_list(id: &str, plies: u8) -> Vec<(String, f64)> {
    let text = hint(id, plies, false);
    let moves = hint_moves(&text);
    assert!(!moves.is_empty(), "gnubg listed no move for {id}:\n{text}");
    moves
}

/// gnubg's cube analysis as `hint` prints it (three decimals; after a
/// double, from the side of the player doubled).
#[derive(Debug, Clone)]
pub struct CubeHint {
    pub cubeless: f64,
    /// As gnubg lists them: win, gammon, backgammon, then lose, gammon
    /// loss, backgammon loss.
    pub probs: Vec<f64>,
    pub no_double: f64,
    pub double_take: f64,
    pub double_pass: f64,
    /// "Double, take", "No double, beaver": the words, without gnubg's
    /// text-mode share of the way to the next decision.
    pub action: String,
}

/// The cube analysis of gnubg's `hint` for `id` at `plies` (after a double
/// when `double`).
pub fn hint_cube(id: &str, plies: u8, double: bool) -> CubeHint {
    let text = hint(id, plies, double);
    cube_of(&text).unwrap_or_else(|| panic!("no cube analysis for {id}:\n{text}"))
}

/// Checks that `text` shows gnubg's double/take for `id` at 0-ply, asked
/// now (to the three decimals both print), and gives gnubg's analysis.
pub fn assert_shows_double_take(text: &str, id: &str) -> CubeHint {
    let cube = hint_cube(id, 0, false);
    let shown = number_after(text, "double/take ").unwrap_or_else(|| panic!("{text}"));
    assert!(
        (shown - cube.double_take).abs() < SHOWN_EQUITY,
        "{shown} against gnubg's {cube:?}:\n{text}"
    );
    cube
}

fn cube_of(text: &str) -> Option<CubeHint> {
    let number = |s: &str| s.split_whitespace().next().and_then(|n| n.parse().ok());
    let (mut cubeless, mut probs, mut action) = (None, Vec::new(), None);
    let (mut nd, mut dt, mut dp) = (None, None, None);
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if let Some((_, rest)) = line.split_once("-ply cubeless equity ") {
            cubeless = number(rest);
            // "  0.722 0.000 0.000 - 0.278 0.000 0.000"
            probs = lines
                .next()?
                .split_whitespace()
                .filter_map(|w| w.parse().ok())
                .collect();
        } else if let Some(rest) = line.strip_prefix("Proper cube action: ") {
            let words = rest.split(" (").next().unwrap_or(rest);
            action = Some(words.trim().to_owned());
        } else if let Some((_, rest)) = line.split_once(". ") {
            let rest = rest.trim_start();
            for (name, slot) in [
                ("No double", &mut nd),
                ("Double, take", &mut dt),
                ("Double, pass", &mut dp),
            ] {
                if let Some(v) = rest.strip_prefix(name) {
                    *slot = number(v);
                }
            }
        }
    }
    Some(CubeHint {
        cubeless: cubeless?,
        probs,
        no_double: nd?,
        double_take: dt?,
        double_pass: dp?,
        action: action?,
    })
}

/// How far an equity bgedit shows to three decimals may be from gnubg's
/// `hint` for it, also to three: the same equity, reached by the bridge
/// and by gnubg's command line (within 0.0001 of each other), may round
/// to either side of a last digit.
pub const SHOWN_EQUITY: f64 = 0.0011;

/// How far an error bgedit shows to three decimals may be from the
/// difference of two of gnubg's three-decimal equities: 0.0005 for each of
/// gnubg's roundings, 0.0005 for bgedit's own, and a margin for the
/// floating point of the subtraction.
pub const SHOWN_ERROR: f64 = 0.002;

/// The number in `text` right after the first `before` (a sign, digits
/// and a point), if there is one.
pub fn number_after(text: &str, before: &str) -> Option<f64> {
    let (_, rest) = text.split_once(before)?;
    let end = rest
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_digit() || c == '.' || (i == 0 && (c == '-' || c == '+'))))
        .map_or(rest.len(), |(i, _)| i);
    rest[..end].parse().ok()
}
