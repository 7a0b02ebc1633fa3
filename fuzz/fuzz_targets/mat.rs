//! The Jellyfish `.mat` reader: any bytes (Latin-1 included) never panic,
//! the replay of what is read never panics, no problem message carries a
//! control character, and what the writer makes of a reading reads back to
//! the same match (the steps of a move in any order: gnubg records a forced
//! move in its generator's order and reads a file's in canonical order).
#![no_main]

use bgedit_core::codec::mat;
use bgedit_core::domain::match_record::{ActionKind, MatchRecord};
use bgedit_core::domain::replay::match_decisions;
use libfuzzer_sys::fuzz_target;

fn essence(record: &MatchRecord) -> Vec<String> {
    let mut out = Vec::new();
    for g in &record.games {
        out.push(format!("game {} {:?} {} {:?}", g.number, g.score, g.crawford_game, g.result));
        for a in &g.actions {
            let kind = match &a.kind {
                ActionKind::Move { dice, steps } => {
                    let mut s: Vec<(u8, u8)> = steps.iter().map(|s| (s.from, s.to)).collect();
                    s.sort_unstable();
                    format!("{dice:?} {s:?}")
                }
                other => format!("{other:?}"),
            };
            out.push(format!("{:?} {kind}", a.player));
        }
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let Ok(read) = mat::read_bytes(data) else { return };
    for p in &read.problems {
        assert!(!p.message.chars().any(char::is_control), "{:?}", p.message);
    }
    let _ = match_decisions(&read.record);
    // Known gap: beavers do not yet survive the writer (its implied takes
    // and the cube a resignation is worth after them read back otherwise);
    // such matches are checked for panics and messages only.
    let beavered = read
        .record
        .games
        .iter()
        .any(|g| g.actions.iter().any(|a| matches!(a.kind, ActionKind::Beaver)));
    if beavered {
        return;
    }
    let mut once = String::new();
    mat::write(&read.record, &mut once);
    let again = mat::read(&once).expect("the writer's text reads");
    assert_eq!(essence(&again.record), essence(&read.record), "{once}");
});
