//! eXtreme Gammon's text export reader.
#![no_main]

use bgedit_core::codec::xg_text;
use bgedit_core::domain::Names;
use bgedit_fuzz::{legal, stable, text};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    stable(text, |t| xg_text::read(t, &Names::default()), |p| { let mut s = String::new(); xg_text::write(p, &mut s); s }, legal);
});
