//! The JSON reader (`convert --to json`'s output, read back).
#![no_main]

use bgedit_core::codec::json;
use bgedit_fuzz::{legal, round_trip, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    round_trip(text, json::decode, json::encode, legal);
});
