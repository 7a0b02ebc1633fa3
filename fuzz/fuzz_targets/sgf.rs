//! gnubg's SGF reader (position and match files).
#![no_main]

use bgedit_core::codec::sgf;
use bgedit_fuzz::{legal, stable, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    stable(text, sgf::read, |p| { let mut s = String::new(); sgf::write(p, &mut s); s }, legal);
});
