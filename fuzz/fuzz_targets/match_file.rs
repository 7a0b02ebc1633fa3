//! Match files by content (gnubg's match text, SGF, the arms still to
//! come): detection, reading, every decision and a chosen position.
#![no_main]

use bgedit_core::codec::{match_file, sgf};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = match_file::detect(data);
    if let Ok(s) = std::str::from_utf8(data) {
        let _ = bgedit_core::codec::match_text::blocks(s);
    }
    let Ok(file) = match_file::read_bytes(data) else { return };
    let (decisions, problems) = match_file::decisions(&file);
    for p in &problems {
        let _ = match_file::describe("fuzz", p);
    }
    for d in decisions.iter().take(4) {
        let _ = bgedit_core::codec::gnubg_id::encode(&d.position.board, &d.position.state);
        let _ = bgedit_core::codec::xgid::encode(&d.position.board, &d.position.state);
    }
    let _ = match_file::position_at(
        &file,
        sgf::Selection {
            game: Some(1),
            moves: Some(1),
        },
    );
});
