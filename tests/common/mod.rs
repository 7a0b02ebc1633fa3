//! Helpers shared by the integration tests: the gnubg fixtures and the
//! proptest strategies.

#![allow(dead_code)]

pub mod keys;
pub mod live;
pub mod pty;
pub mod random;
pub mod run;
pub mod strategies;

use bgedit_core::domain::Names;
use serde::Deserialize;

/// gnubg 1.07's `show board` (and `bgedit show`'s) for the manual's match
/// example, names set to alice and bob, trailing spaces included.
pub const MANUAL_SHOW_BOARD: &str = concat!(
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
);

/// One case of `tests/fixtures/gnubg_boards.jsonl`, made by
/// `tests/fixtures/gen_gnubg_fixtures.py` from gnubg 1.07's own output.
#[derive(Deserialize, Debug)]
pub struct Fixture {
    pub kind: String,
    pub input: String,
    pub names: [String; 2],
    pub board: String,
    pub messages: Vec<String>,
}

impl Fixture {
    pub fn names(&self) -> Names {
        Names {
            o: self.names[0].clone(),
            x: self.names[1].clone(),
        }
    }

    /// The Position ID and Match ID gnubg printed above its board.
    pub fn printed_ids(&self) -> (&str, &str) {
        let mut lines = self.board.lines();
        let pos = lines
            .next()
            .and_then(|l| l.strip_prefix(" GNU Backgammon  Position ID: "));
        let mat = lines
            .next()
            .and_then(|l| l.strip_prefix("                 Match ID   : "));
        (pos.expect("position line"), mat.expect("match line"))
    }
}

pub fn fixtures() -> Vec<Fixture> {
    let text = include_str!("../fixtures/gnubg_boards.jsonl");
    text.lines()
        .map(|l| serde_json::from_str(l).expect("fixture line"))
        .collect()
}

// The engines the tests talk to. A test that needs one is marked, as
//     #[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg (apt-get install gnubg)")]
// (`bgedit_has_sage`, `bgedit_has_parallel` for the others): build.rs sets
// the cfg where it finds the engine, so without it `cargo test` reports the
// test ignored, with that reason. Where the cfg is set (the engine was found
// when the tests were built, or `BGEDIT_REQUIRE_GNUBG=1` and the like, as
// in CI, asked for it) the test runs and asks for the engine with these,
// which fail it, saying why, when the engine is missing.

/// The gnubg the binary runs (`BGEDIT_GNUBG`, PATH, `/usr/games/gnubg`).
pub fn gnubg() -> std::path::PathBuf {
    bgedit_engine::EngineKind::Gnubg
        .locate(None)
        .unwrap_or_else(|e| panic!("this test needs gnubg 1.07: {e}"))
}

/// The Python that has Open Sage (bgsage), as the binary finds it.
pub fn sage_python() -> std::path::PathBuf {
    let python = bgedit_engine::EngineKind::Sage
        .locate(None)
        .unwrap_or_else(|e| panic!("this test needs Open Sage's Python: {e}"));
    let imports = std::process::Command::new(&python)
        .args(["-c", "import bgsage"])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        imports,
        "this test needs Open Sage: {} does not import bgsage (pip install bgsage, or BGEDIT_SAGE_PYTHON=PATH)",
        python.display()
    );
    python
}

/// GNU parallel on PATH (moreutils' `parallel` is another program).
pub fn gnu_parallel() -> std::path::PathBuf {
    let found = std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join("parallel"))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("this test needs GNU parallel (apt-get install parallel)"));
    let version = std::process::Command::new(&found)
        .arg("--version")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", found.display()));
    assert!(
        version.stdout.starts_with(b"GNU parallel"),
        "this test needs GNU parallel; {} is another program",
        found.display()
    );
    found
}

/// A fake gnubg (`--gnubg`, `Engine::new`): a shell script that starts
/// like the bridge, reads the first request, then misbehaves with
/// `after_ready`. Only the failure paths are tested so.
pub fn fake_gnubg(name: &str, after_ready: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("bgedit-fake-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("gnubg");
    std::fs::write(&path, format!("#!/bin/sh\necho 'GNU Backgammon (fake)'\necho '{{\"ready\":true}}'\nread line\n{after_ready}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}
