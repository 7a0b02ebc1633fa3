//! Open Sage as an engine: its bridge (`assets/sage_bridge.py`, run by a
//! Python that has `bgsage`, unbuffered), its lines (`super`'s), its
//! depths (one more than gnubg's) and its errors in its own words.

use super::super::EngineKind;
use super::super::failure::{EngineError, START_TRIES};
use super::super::request::{Request, RolloutSettings};
use super::super::spec::{Bridge, Capabilities, Codec, Spec};
use std::path::Path;

pub(crate) static SPEC: Spec = Spec {
    kind: EngineKind::Sage,
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
        reword,
    },
    locate: super::find_python_from_env,
    open: super::native::open,
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

/// The bridge says when bgsage cannot be imported.
fn missing(line: &str, program: &Path) -> Option<EngineError> {
    let why = serde_json::from_str::<serde_json::Value>(line)
        .ok()
        .and_then(|v| v.get("missing")?.as_str().map(str::to_owned))?;
    Some(EngineError::NotFound(format!(
        "{} ({}: {why})",
        super::INSTALL_HINT,
        program.display()
    )))
}

/// An error of Sage's process in Sage's words (the variants speak of gnubg).
fn reword(e: EngineError) -> EngineError {
    match e {
        EngineError::Start(why) => EngineError::Sage(format!("Sage could not be started: {why}")),
        EngineError::Died => EngineError::Sage(
            "Sage stopped while analysing; it is restarted for the next request".to_owned(),
        ),
        EngineError::Timeout(d) => EngineError::Sage(format!(
            "Sage took longer than {d:?}; it was stopped and is restarted for the next request"
        )),
        EngineError::Garbage(why) => {
            EngineError::Sage(format!("{why}; Sage is restarted for the next request"))
        }
        EngineError::GaveUp(why) => EngineError::Sage(format!(
            "Sage is not asked again: it failed to start {START_TRIES} times in a row (last: {why}); give another Python with --sage-python PATH or BGEDIT_SAGE_PYTHON"
        )),
        other => other,
    }
}
