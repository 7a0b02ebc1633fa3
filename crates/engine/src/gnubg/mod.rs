//! gnubg 1.07, the default engine and the reference: its bridge
//! (`assets/gnubg_bridge.py`, run by gnubg's own Python with `-t -q -r
//! -p`), its request lines (`request.rs`'s, the GNUBG ID and gnubg's
//! settings), its answers (`answer.rs`'s parser), its `--gnubg` option.

use super::answer::{Garbage, Reply, parse_reply};
use super::request::Request;
use super::spec::{Bridge, Capabilities, Codec, Install, ProgramOption, Spec, UserOptions};

pub(crate) static SPEC: Spec = Spec {
    key: "gnubg",
    name: "gnubg",
    full_name: "gnubg",
    depth_label,
    depth_note: None,
    version_label: None,
    caps: Capabilities {
        whole_games: true,
        // gnubg reads a stop between two chunks of its rollout.
        cancels_rollouts: false,
        // gnubg restarts in a quarter of a second.
        stopped_for_newer: true,
        gives_mwc: true,
        in_process: false,
    },
    bridge: Bridge {
        name: "gnubg_bridge",
        script: include_str!("../../../../assets/gnubg_bridge.py"),
        args: &["-t", "-q", "-r", "-p"],
        exited_at_start: "is it gnubg 1.07 with Python?",
        missing: never_missing,
    },
    codec: Codec {
        request: Request::to_line,
        played: Request::played_line,
        rollout: Request::rollout_line,
        parse,
    },
    options: UserOptions {
        program: ProgramOption {
            long: "gnubg",
            value_name: "PATH",
            noun: "path",
            help: "The gnubg to run (else BGEDIT_GNUBG, PATH, /usr/games)",
            env: Some("BGEDIT_GNUBG"),
            on_path: "gnubg",
            also: &["/usr/games/gnubg"],
        },
        data: None,
    },
    install: Install {
        how: "`apt-get install gnubg`",
        note: None,
    },
    died_note: Some("gnubg 1.07 crashes on some positions, such as large cubes in match play"),
};

fn depth_label(plies: u8) -> String {
    format!("{plies}-ply")
}

fn parse(text: &str, req: &Request) -> Result<Reply, Garbage> {
    parse_reply(text, &req.position)
}

/// gnubg's bridge runs inside gnubg: if it starts, gnubg is there.
fn never_missing(_: &str) -> Option<String> {
    None
}
