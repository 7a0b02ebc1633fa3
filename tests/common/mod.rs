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

/// The Python that has Open Sage (bgsage), as the binary finds it; without
/// it the caller skips with a printed reason, but under BGEDIT_REQUIRE_SAGE=1
/// it fails.
pub fn sage_python() -> Option<std::path::PathBuf> {
    let found = bgedit_engine::EngineKind::Sage
        .locate(None)
        .map_err(|e| e.to_string())
        .and_then(|python| {
            let ok = std::process::Command::new(&python)
                .args(["-c", "import bgsage"])
                .stderr(std::process::Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            if ok {
                Ok(python)
            } else {
                Err(format!("{}: no bgsage", python.display()))
            }
        });
    match found {
        Ok(p) => Some(p),
        Err(e) if std::env::var("BGEDIT_REQUIRE_SAGE").as_deref() == Ok("1") => {
            panic!("BGEDIT_REQUIRE_SAGE=1 but {e}")
        }
        Err(e) => {
            eprintln!("skipped: Open Sage: {e}");
            None
        }
    }
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

/// Whether gnubg is found (as the binary finds it); without it the caller
/// skips with a printed reason, but under BGEDIT_REQUIRE_GNUBG=1 it fails.
pub fn have_gnubg() -> bool {
    match bgedit_engine::EngineKind::Gnubg.locate(None) {
        Ok(_) => true,
        Err(e) if std::env::var("BGEDIT_REQUIRE_GNUBG").as_deref() == Ok("1") => {
            panic!("BGEDIT_REQUIRE_GNUBG=1 but {e}")
        }
        Err(e) => {
            eprintln!("skipped: {e}");
            false
        }
    }
}
