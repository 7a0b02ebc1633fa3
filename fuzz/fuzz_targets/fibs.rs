//! The FIBS `board:` line reader.
#![no_main]

use bgedit_core::codec::fibs;
use bgedit_fuzz::{legal, stable, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    stable(text, fibs::read, |p| { let mut s = String::new(); fibs::write(p, &mut s); s }, legal);
});
