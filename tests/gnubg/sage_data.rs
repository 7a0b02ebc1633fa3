//! Open Sage's data refused when damaged, and its answers refused past its
//! match equity table (issue 40). Sage's C++ runs inside bgedit and trusts
//! its files: each damage below once killed bgedit (SIGSEGV) or was dropped
//! for a silent answer through Sage's Python bridge; each is now refused,
//! naming the file and the fault, by the real binary and by the engine
//! asked through its public interface. Damaged copies are made here from
//! the installed bgsage's own data (the other files linked, not copied).
//! Skipped without bgsage unless BGEDIT_REQUIRE_SAGE=1.

use crate::common;
use bgedit_core::codec;
use bgedit_core::domain::Position;
use bgedit_engine::{
    Analysis, DataError, EngineErrorKind, EngineKind, PastTable, Request, RolloutSettings,
};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The opening of a 26-point match, X to act before the roll: past Sage's
/// table (25 points), and the same at 25 points, within it.
const OPENING_26: &str = "4HPwATDgc/ABMA:cAlAAwAAAAAE";
const OPENING_25: &str = "4HPwATDgc/ABMA:cAkgAwAAAAAE";
/// A race (Sage's pure-race network answers it) and a bear-off with 15
/// checkers a side (its gammon distributions answer it), money.
const RACE: &str = "8H0+AADwfT4AAA:cAkAAAAAAAAE";
const BEAROFF: &str = "d3cHAAB3dwcAAA:cAkAAAAAAAAE";

/// The installed bgsage's data (`_assets`: models/, data/).
fn assets(python: &Path) -> PathBuf {
    let out = std::process::Command::new(python)
        .args([
            "-c",
            "import bgsage, os; print(os.path.join(os.path.dirname(bgsage.__file__), '_assets'))",
        ])
        .output()
        .unwrap();
    PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
}

/// A copy of `assets` in a new directory whose file `damaged` (a path
/// under it) is `damage`'s bytes; every other file a link to the original.
fn damaged_copy(assets: &Path, damaged: &str, damage: fn(&mut Vec<u8>)) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["models", "data"] {
        std::fs::create_dir(dir.path().join(sub)).unwrap();
        for entry in std::fs::read_dir(assets.join(sub)).unwrap() {
            let from = entry.unwrap().path();
            let name = Path::new(sub).join(from.file_name().unwrap());
            let to = dir.path().join(&name);
            if name == Path::new(damaged) {
                let mut bytes = std::fs::read(&from).unwrap();
                damage(&mut bytes);
                std::fs::write(&to, bytes).unwrap();
            } else {
                std::os::unix::fs::symlink(&from, &to).unwrap();
            }
        }
    }
    dir
}

fn put(bytes: &mut [u8], at: usize, word: [u8; 4]) {
    bytes[at..at + 4].copy_from_slice(&word);
}

const PURERACE: &str = "models/sl_s9_purerace.weights.best";
const CONTACT: &str = "models/sl_s9_race_race.weights.best";
const BEAROFF_DB: &str = "data/bearoff_1sided.db";
/// The bear-off database's positions, and where its gammon indexes start.
const POSITIONS: usize = 54_264;
const GAMMON_INDEXES: usize = 28 + POSITIONS * 72 - POSITIONS * 4;

/// One damage: the file, what is done to it, a position that reaches it,
/// and the fault's words.
struct Damage {
    what: &'static str,
    file: &'static str,
    damage: fn(&mut Vec<u8>),
    id: &'static str,
    said: &'static str,
}

const DAMAGES: [Damage; 5] = [
    Damage {
        what: "a NaN among the pure-race network's output weights",
        file: PURERACE,
        // After the hidden layer's 100 x 197 weights: an output's.
        damage: |b| put(b, 12 + 4 * (100 * 197 + 3), f32::NAN.to_le_bytes()),
        id: RACE,
        said: "weight 19703 of the network is NaN: not a finite number",
    },
    Damage {
        what: "gammon indexes past the distributions held",
        file: BEAROFF_DB,
        damage: |b| {
            for p in 0..POSITIONS {
                let at = GAMMON_INDEXES + 4 * p;
                let i = i32::from_le_bytes(b[at..at + 4].try_into().unwrap());
                if i >= 0 {
                    put(b, at, (i + 100_000_000).to_le_bytes());
                }
            }
        },
        id: BEAROFF,
        said: "past the 15504 gammon distributions the file holds",
    },
    Damage {
        what: "a header's count of gammon distributions past the file (3.2 GB from 3.9 MB)",
        file: BEAROFF_DB,
        damage: |b| {
            put(b, 24, 50_000_000u32.to_le_bytes());
            b.truncate(28 + POSITIONS * 72);
        },
        id: BEAROFF,
        said: "its header counts 50000000 gammon distributions, which make the file 3203907036 bytes, where it is 3907036",
    },
    Damage {
        what: "a network cut short (a truncated download)",
        file: CONTACT,
        damage: |b| b.truncate(b.len() / 2),
        id: OPENING_25,
        said: "200016 bytes where its header makes 400032: cut short",
    },
    Damage {
        what: "another version's network (128 hidden units)",
        file: CONTACT,
        damage: |b| {
            let floats = 128 * 245 + 5 * 129;
            *b = [128i32, 244, 5]
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect();
            b.resize(12 + 4 * floats, 0);
        },
        id: OPENING_25,
        said: "its header says a network of 128 hidden units, 244 inputs and 5 outputs where bgedit's Sage takes 400 hidden units",
    },
];

/// `bgedit analyse --engine sage --sage-data DIR`: each damage refused,
/// the file and the fault named, no answer (through the Python bridge or
/// otherwise), no crash.
#[test]
#[cfg_attr(not(bgedit_has_sage), ignore = "needs Open Sage (pip install bgsage)")]
fn damaged_sage_data_is_refused_naming_the_file_and_the_fault() {
    let python = common::sage_python();
    let assets = assets(&python);
    for d in &DAMAGES {
        let dir = damaged_copy(&assets, d.file, d.damage);
        let data = dir.path().to_str().unwrap();
        let out = common::run::output_of(
            common::run::command()
                .args(["analyse", "--engine", "sage", "--sage-data", data, d.id])
                .env("BGEDIT_SAGE_PYTHON", &python),
            "",
        );
        let err = common::run::text(&out.stderr);
        let what = d.what;
        assert_eq!(
            out.status.code(),
            Some(1),
            "{what}: {:?}\n{err}",
            out.status
        );
        assert!(
            out.stdout.is_empty(),
            "{what}: an answer: {}",
            common::run::text(&out.stdout)
        );
        let file = dir.path().join(d.file);
        assert!(
            err.contains(&format!("Sage's data file {}: ", file.display())),
            "{what}: {err}"
        );
        assert!(err.contains(d.said), "{what}: {err}");
        assert!(err.contains("it is not used"), "{what}: {err}");
    }
}

/// Sage's data as its Python gives it, damaged: the engine asked through
/// its public interface refuses it, for this request and the next, and
/// never starts the bridge instead (whose Sage reads the same files).
#[test]
#[cfg_attr(not(bgedit_has_sage), ignore = "needs Open Sage (pip install bgsage)")]
fn damaged_data_from_sages_python_is_refused_not_answered_through_the_bridge() {
    let python = common::sage_python();
    let assets = assets(&python);
    let d = &DAMAGES[0];
    let dir = damaged_copy(&assets, d.file, d.damage);
    // A "Python" that says where bgsage's data is, as bgsage would, but
    // points at the damaged copy, and runs nothing else.
    let said = std::process::Command::new(&python)
        .args(["-c", WHERE])
        .output()
        .unwrap();
    let said = String::from_utf8(said.stdout)
        .unwrap()
        .replace(assets.to_str().unwrap(), dir.path().to_str().unwrap());
    let fake = dir.path().join("python");
    std::fs::write(&fake, format!("#!/bin/sh\ncat <<'EOF'\n{said}EOF\n")).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut engine = EngineKind::Sage.open(fake, Default::default());
    let req = request(d.id);
    for _ in 0..2 {
        let e = engine
            .analyse(&req, Duration::from_secs(60))
            .expect_err("an answer from damaged data");
        let EngineErrorKind::Data(DataError::Damaged { file, .. }) = &e.kind else {
            panic!("not refused as damaged: {e:?}");
        };
        assert_eq!(file, &dir.path().join(d.file));
        assert!(e.to_string().contains(d.said), "{e}");
        assert_eq!(engine.pid(), None, "the bridge was started");
        assert!(!engine.in_process());
    }
}

const WHERE: &str = r#"
import json
from importlib.metadata import version
from bgsage.weights import default_weights, bearoff_db_path
w = default_weights()
print(json.dumps({"version": version("bgsage"), "strategy": w.strategy_type,
    "paths": [str(p) for p in w.weight_paths_list], "hidden": list(w.hidden_sizes_list),
    "bearoff": bearoff_db_path()}))
"#;

fn request(id: &str) -> Request {
    Request {
        id: 1,
        position: codec::parse_any(id, &Position::default()).unwrap().position,
        plies: 0,
        moves: 0,
    }
}

const PAST: &str =
    "Sage cannot answer at this score (26-away, 26-away): its match equity table stops at 25-away";

/// The opening of a 26-point match, past Sage's 25-point table: Sage
/// refuses it on both roads (its answers there were all +0.000), and
/// answers the 25-point opening; asked beside gnubg, gnubg's answer still
/// shows with why Sage has none.
#[test]
#[cfg_attr(
    not(all(bgedit_has_gnubg, bgedit_has_sage)),
    ignore = "needs gnubg and Open Sage"
)]
fn sage_refuses_a_score_past_its_match_equity_table() {
    for bridge in ["0", "1"] {
        let out = common::run::output_of(
            common::run::command()
                .args(["analyse", "--engine", "sage", OPENING_26])
                .env("BGEDIT_SAGE_BRIDGE", bridge),
            "",
        );
        let err = common::run::text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "bridge {bridge}: {err}");
        assert!(err.contains(PAST), "bridge {bridge}: {err}");
        assert!(out.stdout.is_empty());
    }
    let within = common::run::bgedit(
        &[
            "analyse", "--engine", "sage", "--format", "json", OPENING_25,
        ],
        "",
    );
    assert!(within.status.success());
    let within: Value = serde_json::from_slice(&within.stdout).unwrap();
    assert_eq!(within["cube"]["double_pass"], 1.0, "{within}");
    let both = common::run::bgedit(&["analyse", "--engine", "both", OPENING_26], "");
    assert!(both.status.success());
    let text = common::run::text(&both.stdout);
    assert!(text.contains("gnubg (0-ply):\nCube analysis"), "{text}");
    assert!(text.contains("Proper cube action:"), "{text}");
    assert!(text.contains(&format!("Sage: {PAST}")), "{text}");
    assert!(!text.contains("The engines agree"), "{text}");
    let json = common::run::bgedit(
        &[
            "analyse", "--engine", "both", "--format", "json", OPENING_26,
        ],
        "",
    );
    assert!(json.status.success());
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(v["gnubg"]["cube"]["no_double"].is_f64(), "{v}");
    assert!(
        v["sage"]["error"].as_str().unwrap().starts_with(PAST),
        "{v}"
    );
    assert_eq!(v["disagree"], Value::Null);
}

/// The same refusal from the engine asked through its public interface:
/// an evaluation and a rollout, typed with the score and the table.
#[test]
#[cfg_attr(not(bgedit_has_sage), ignore = "needs Open Sage (pip install bgsage)")]
fn the_engine_refuses_a_score_past_its_table_with_the_score() {
    let python = common::sage_python();
    let mut engine = EngineKind::Sage.open(python, Default::default());
    let past = EngineErrorKind::PastTable(PastTable {
        away: (26, 26),
        table: 25,
    });
    let req = request(OPENING_26);
    let e = engine
        .analyse(&req, Duration::from_secs(60))
        .expect_err("an answer past the table");
    assert_eq!(e.kind, past);
    let settings = RolloutSettings {
        trials: 36,
        ..Default::default()
    };
    let e = engine
        .rollout(&req, &settings, Duration::from_secs(60), &mut |_, _| true)
        .expect_err("a rollout past the table");
    assert_eq!(e.kind, past);
    let Analysis::Cube { double_pass, .. } = engine
        .analyse(&request(OPENING_25), Duration::from_secs(60))
        .unwrap()
    else {
        panic!("not a cube decision");
    };
    assert_eq!(double_pass, 1.0);
}

/// A 26-point match analysed with Sage: each decision past its table is
/// named with why Sage cannot judge it, none is judged with its numbers
/// there, and the run ends (exit 1: decisions were left unjudged).
#[test]
#[cfg_attr(not(bgedit_has_sage), ignore = "needs Open Sage (pip install bgsage)")]
fn a_match_past_sages_table_is_analysed_saying_why_for_each_decision() {
    let dir = tempfile::tempdir().unwrap();
    let mat = dir.path().join("m26.mat");
    std::fs::write(
        &mat,
        " 26 point match\n\n Game 1\n alice : 0                        bob : 0\n  \
         1) 31: 8/5 6/5                   65: 24/13\n  \
         2) 44: 13/5 13/9(2)              21: 13/11 24/23\n  \
         3) Resigns                       Wins 2 points\n",
    )
    .unwrap();
    let out = common::run::bgedit(
        &[
            "analyse",
            "--file",
            mat.to_str().unwrap(),
            "--engine",
            "sage",
            "--format",
            "json",
        ],
        "",
    );
    let err = common::run::text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let said: Vec<&str> = err.lines().filter(|l| l.contains(PAST)).collect();
    assert_eq!(said.len(), 4, "{err}");
    assert!(said[0].contains("game 1, move 1: "), "{err}");
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["summary"]["X"]["total_moves"], 0, "{summary}");
    assert_eq!(summary["summary"]["O"]["total_moves"], 0, "{summary}");
}
