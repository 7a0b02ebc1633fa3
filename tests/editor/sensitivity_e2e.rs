//! The live views in the real binary, in a pseudo-terminal, with Sage
//! in-process: a key that changes the board changes the views in the same
//! frame. Every frame the editor drew is replayed (ratatui ends each with
//! a hide-cursor sequence): none shows the new board beside the old views.
//! Ignored without Sage (build.rs), failing under BGEDIT_REQUIRE_SAGE=1.

use crate::common;
use common::pty::{Options, Session, nz};
use std::time::Duration;

const PTY: Options = Options {
    timeout: Duration::from_secs(30),
    ..Options::DEFAULT
};

/// X on roll with 52, 5-away/7-away: the table of best moves.
const ID: &str = "4HPwATDgc/ABMA:QYkqASAAIAAA";

/// The screen after each frame of `raw`, in a `cols`×`rows` terminal.
fn frames(raw: &[u8], cols: u16, rows: u16) -> Vec<String> {
    const END: &[u8] = b"\x1b[?25l";
    let mut parser = vt100::Parser::new(nz(rows), nz(cols), 0);
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = raw[from..].windows(END.len()).position(|w| w == END) {
        let end = from + at + END.len();
        parser.process(&raw[from..end]);
        out.push(parser.screen().contents());
        from = end;
    }
    out
}

#[test]
#[cfg_attr(not(bgedit_has_sage), ignore = "needs Open Sage (pip install bgsage)")]
fn a_key_that_changes_the_board_changes_the_live_views_in_the_same_frame() {
    common::sage_python();
    let dir = common::pty::state_dir("bgedit-live", "same-frame");
    let (cols, rows) = (120, 40);
    let mut s = Session::start(&PTY, &[ID], &dir, cols, rows);
    s.wait_for("GNUBG ID");
    s.send("~");
    let first = s.wait_for("best move by score and cube");
    if first.contains("not available") {
        panic!("no in-process engine:\n{first}");
    }
    assert!(first.contains("Sage 1-ply in-process"), "{first}");
    assert!(first.contains("GS 1a-2a C"), "{first}");
    // D clears the dice: the position is a cube decision, the views the
    // doubling window.
    let mut cleared = bgedit_core::codec::parse_any(ID, &Default::default())
        .unwrap()
        .position;
    cleared.state.dice = None;
    let new_id = bgedit_core::codec::to_string_as(&cleared, bgedit_core::codec::IdFormat::GnubgId);
    s.send("D");
    let after = s.wait_for("doubling window by score");
    assert!(after.contains(&new_id), "{after}");
    s.send("q");
    s.wait_exit();
    let raw = s.raw.lock().unwrap().clone();
    let screens = frames(&raw, cols, rows);
    let new_board: Vec<&String> = screens.iter().filter(|f| f.contains(&new_id)).collect();
    assert!(!new_board.is_empty(), "no frame shows {new_id}");
    for f in &new_board {
        assert!(
            f.contains("doubling window by score") && !f.contains("best move by score"),
            "a frame shows the new board beside old views:\n{f}"
        );
    }
    // And before the key, the old board had its own table in view.
    assert!(
        screens
            .iter()
            .any(|f| !f.contains(&new_id) && f.contains("best move by score"))
    );
}

/// Where no engine can answer in-process (here the bridge is forced, as on
/// a CPU without AVX2/FMA), the views say so and the editor goes on.
#[test]
fn without_an_in_process_engine_the_views_say_why_and_keys_go_on() {
    let dir = common::pty::state_dir("bgedit-live", "no-engine");
    let env = [("BGEDIT_SAGE_BRIDGE", "1")];
    let mut s = Session::start_with(&PTY, &[ID], &dir, 120, 40, &env);
    s.wait_for("GNUBG ID");
    s.send("~");
    let screen = s.wait_for("Live views: not available");
    assert!(
        screen.contains("No engine answers in-process here"),
        "{screen}"
    );
    // Keys still change the board.
    s.send("D");
    s.wait_for("Dice cleared");
    s.send("q");
    s.wait_exit();
}
