//! The GNUBG ID reader: finding the two IDs in pasted text (labels, header
//! lines, a whole `show board` block), then reading both.
#![no_main]

use bgedit_core::codec::detect::{self, Reading};
use bgedit_core::codec::{IdError, gnubg_id, match_id, position_id};
use bgedit_core::domain::{Board, MatchState};
use bgedit_fuzz::{round_trip, text};
use libfuzzer_sys::fuzz_target;

fn decode(text: &str) -> Result<(Board, MatchState), IdError> {
    let Reading::Gnubg {
        position_id: Some(p),
        match_id: Some(m),
    } = detect::detect(text)?.reading
    else {
        return Err(IdError::Empty);
    };
    let state = match_id::decode(m)?;
    Ok((position_id::decode(p, state.on_roll)?, state))
}

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    round_trip(
        text,
        decode,
        |(b, s)| gnubg_id::encode(b, s),
        |(b, _)| b.validate().is_ok(),
    );
});
