//! The Snowie text reader.
#![no_main]

use bgedit_core::codec::snowie;
use bgedit_fuzz::{legal, stable, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    stable(text, snowie::read, |p| { let mut s = String::new(); snowie::write(p, &mut s); s }, legal);
});
