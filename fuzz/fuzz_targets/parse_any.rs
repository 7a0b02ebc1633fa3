//! `parse_any`, the reader of everything users paste: whatever it accepts
//! is written back in the format it was read as and read again the same.
#![no_main]

use bgedit_core::codec::{self, IdFormat};
use bgedit_core::domain::Position;
use bgedit_fuzz::{legal, round_trip, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    let base = Position::default();
    let Ok(first) = codec::parse_any(text, &base) else {
        return;
    };
    let format = first.format;
    round_trip(
        text,
        |t| codec::parse_any(t, &base).map(|i| i.position),
        |p| codec::to_string_as(p, format),
        legal,
    );
    // Every accepted position is also carried by the GNUBG ID and XGID
    // pair as far as those formats go: the checkers always survive.
    for other in [IdFormat::GnubgId, IdFormat::Xgid] {
        let written = codec::to_string_as(&first.position, other);
        let again = codec::parse_any(&written, &base)
            .unwrap_or_else(|e| panic!("{text:?} as {written:?} not read back: {e:?}"));
        assert_eq!(
            again.position.board, first.position.board,
            "{text:?} via {written:?}"
        );
    }
});
