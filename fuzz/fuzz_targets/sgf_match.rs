//! gnubg's SGF as a whole match: read into the model, every game replayed,
//! written back; what was written reads back to the same text again.
#![no_main]

use bgedit_core::codec::sgf;
use bgedit_core::domain::replay::match_decisions;
use bgedit_fuzz::text;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    let Ok((record, _)) = sgf::read_match(text) else { return };
    let _ = match_decisions(&record);
    let mut once = String::new();
    sgf::write_match(&record, &mut once);
    let (again, _) = sgf::read_match(&once).expect("bgedit reads the SGF it writes");
    let mut twice = String::new();
    sgf::write_match(&again, &mut twice);
    assert_eq!(once, twice, "writing what was read changes the match");
});
