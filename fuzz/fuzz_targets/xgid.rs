//! The XGID reader.
#![no_main]

use bgedit_core::codec::xgid;
use bgedit_fuzz::{round_trip, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    round_trip(
        text,
        xgid::decode,
        |(b, s)| xgid::encode(b, s),
        |(b, _)| b.validate().is_ok(),
    );
});
