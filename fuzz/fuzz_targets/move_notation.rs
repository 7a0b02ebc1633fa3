//! The move notation reader (`13/7 8/7`, `bar/22*`, `6/off(2)`, ...): no
//! panic, and an accepted move's checker steps are whole (each from a place
//! to another, at most four checkers moved).
#![no_main]

use bgedit_core::domain::notation;
use bgedit_fuzz::text;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    if let Ok(typed) = notation::parse(text) {
        let _ = typed.hops();
        let _ = typed.checkers();
    }
});
