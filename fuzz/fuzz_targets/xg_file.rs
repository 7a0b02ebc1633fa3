//! XG's binary match files: any bytes never panic, through the archive
//! (`RGMH` files) or straight into the records behind a valid match header
//! (random bytes rarely pass the archive's checksum, so the records are
//! fuzzed on their own too, with a comments stream or without); the replay
//! of what is read never panics, and neither a problem message nor a name
//! carries a control character.
#![no_main]

use bgedit_core::codec::xg;
use bgedit_core::domain::replay::match_decisions;
use libfuzzer_sys::fuzz_target;

/// A match header record: kind 0, a 7-point match, version 32, XG's magic.
fn header() -> Vec<u8> {
    let mut r = vec![0u8; 2560];
    r[92..96].copy_from_slice(&7i32.to_le_bytes());
    r[552..556].copy_from_slice(&32i32.to_le_bytes());
    r[556..560].copy_from_slice(&0x494C_4D44i32.to_le_bytes());
    r
}

fuzz_target!(|data: &[u8]| {
    let read = if data.starts_with(b"RGMH") {
        xg::read_bytes(data)
    } else if let Some((&n, rest)) = data.split_first()
        && n & 0x80 != 0
    {
        // Comments too: the first byte says how much of the rest is the
        // comments stream (RTF), the records follow; every record may
        // name any comment (the comment bomb stays bounded).
        let cut = (usize::from(n & 0x7f) * 64).min(rest.len());
        let mut stream = header();
        stream.extend_from_slice(&rest[cut..]);
        xg::read_parts(&stream, &rest[..cut])
    } else {
        let mut stream = header();
        stream.extend_from_slice(data);
        xg::read_game_data(&stream)
    };
    let Ok(read) = read else { return };
    for p in &read.problems {
        assert!(!p.message.chars().any(char::is_control), "{:?}", p.message);
    }
    assert!(read.record.header.names.check().is_ok(), "{:?}", read.record.header.names);
    let _ = match_decisions(&read.record);
});
