//! The Match ID reader.
#![no_main]

use bgedit_core::codec::match_id;
use bgedit_fuzz::{round_trip, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    round_trip(text, match_id::decode, match_id::encode, |_| true);
});
