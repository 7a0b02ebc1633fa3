//! The Jellyfish `.mat` reader: any bytes (Latin-1 included) never panic,
//! the replay of what is read never panics, no problem message carries a
//! control character, and what the writer makes of a reading reads back to
//! the same text (written, read, written again is a fixed point).
#![no_main]

use bgedit::codec::mat;
use bgedit::domain::replay::match_decisions;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(read) = mat::read_bytes(data) else { return };
    for p in &read.problems {
        assert!(!p.message.chars().any(char::is_control), "{:?}", p.message);
    }
    let _ = match_decisions(&read.record);
    let mut once = String::new();
    mat::write(&read.record, &mut once);
    let again = mat::read(&once).expect("the writer's text reads");
    let mut twice = String::new();
    mat::write(&again.record, &mut twice);
    assert_eq!(once, twice);
});
