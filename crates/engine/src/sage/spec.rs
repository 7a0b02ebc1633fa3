//! Open Sage as an engine: its bridge (`assets/sage_bridge.py`, run by a
//! Python that has `bgsage`, unbuffered), its lines (`super`'s), its
//! depths (one more than gnubg's) and its errors in its own words.

use super::super::request::{Request, RolloutSettings};
use super::super::spec::{
    Bridge, Capabilities, Codec, DataOption, Install, ProgramOption, Spec, UserOptions,
};

pub(crate) static SPEC: Spec = Spec {
    key: "sage",
    name: "Sage",
    full_name: "Open Sage",
    depth_label: super::level,
    depth_note: Some("its depths in its own count (gnubg's 0-ply is Sage's 1-ply)"),
    version_label: Some("bgsage"),
    caps: Capabilities {
        whole_games: false,
        cancels_rollouts: true,
        // Python loads bgsage for seconds: a deep analysis runs to its end.
        stopped_for_newer: false,
        gives_mwc: false,
        in_process: true,
    },
    bridge: Bridge {
        name: "sage_bridge",
        script: include_str!("../../../../assets/sage_bridge.py"),
        // -u: unbuffered, each answer leaves at once.
        args: &["-u"],
        exited_at_start: "is it Python 3 with bgsage?",
        missing,
    },
    codec: Codec {
        request,
        played,
        rollout,
        parse: super::parse_line,
    },
    options: UserOptions {
        program: ProgramOption {
            long: "sage-python",
            value_name: "PATH",
            noun: "Python",
            help: "The Python that has Open Sage (bgsage), the second engine (else BGEDIT_SAGE_PYTHON, then python3)",
            env: Some("BGEDIT_SAGE_PYTHON"),
            on_path: "python3",
            also: &[],
        },
        data: Some(DataOption {
            long: "sage-data",
            value_name: "DIR",
            help: "Open Sage's weights and bear-off data (a copy of bgsage's `_assets`: models/, data/) for the Sage built into bgedit, instead of asking Sage's Python where they are",
            holds: "bgsage's models/ and data/",
            package: "bgsage",
            version: super::data_dir::VERSION,
            set: super::data_dir::set,
        }),
    },
    install: Install {
        how: "`pip install bgsage`",
        // The version built in (`data_dir::VERSION`; a test holds the two
        // together).
        note: Some("bgedit is tested with bgsage==2.0.20260907"),
    },
    died_note: None,
};

fn request(req: &Request) -> String {
    super::request_line(req, None)
}

/// Sage's lists are kept whole: the played move is in them.
fn played(req: &Request, _played_after: &str) -> String {
    let all = Request {
        moves: 0,
        ..req.clone()
    };
    request(&all)
}

fn rollout(req: &Request, settings: &RolloutSettings, threads: u8) -> String {
    super::request_line(req, Some((settings, threads)))
}

/// The bridge says when bgsage cannot be imported: why.
fn missing(line: &str) -> Option<String> {
    serde_json::from_str::<serde_json::Value>(line)
        .ok()
        .and_then(|v| v.get("missing")?.as_str().map(str::to_owned))
}
