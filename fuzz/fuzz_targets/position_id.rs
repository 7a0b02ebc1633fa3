//! The Position ID reader, for either player on roll.
#![no_main]

use bgedit_core::codec::position_id;
use bgedit_core::domain::Player;
use bgedit_fuzz::{round_trip, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    for on_roll in Player::BOTH {
        round_trip(
            text,
            |t| position_id::decode(t, on_roll),
            |b| position_id::encode(b, on_roll),
            |b| b.validate().is_ok(),
        );
    }
});
