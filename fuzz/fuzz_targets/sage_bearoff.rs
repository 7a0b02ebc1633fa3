//! Open Sage's bear-off database loader as bgedit uses it: a file held to
//! Sage's layout by bgedit's check (`sage/native/data.rs`) and, when the
//! check takes it, loaded by Sage's own C++ loader, every position's
//! distributions read and a few bear-offs asked (built with
//! AddressSanitizer under cargo-fuzz). Whatever the check takes, Sage loads
//! and answers with finite chances, never a fault.
//!
//! The database is 4.9 MB, past any input the fuzzer makes, so the first
//! byte picks how the file is made: even, the rest of the input is the
//! file (headers, sizes, truncations); odd, the rest is edits to a whole
//! database in Sage's layout (`internals::sage_sample_bearoff`), each a
//! 4-byte offset (wrapped into the file), a length byte and that many
//! bytes, or a length of 255 to cut the file there. Seeds:
//! `fuzz/make_sage_seeds.py`.
#![no_main]

use bgedit_engine::internals::{SageProbed, probe_sage_data, sage_sample_bearoff};
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

fn scratch() -> PathBuf {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().unwrap())
        .path()
        .join("bearoff.db")
}

fn sample() -> &'static [u8] {
    static SAMPLE: OnceLock<Vec<u8>> = OnceLock::new();
    SAMPLE.get_or_init(sage_sample_bearoff)
}

/// The sample database with `edits` made to it.
fn edited(mut edits: &[u8]) -> Vec<u8> {
    let mut file = sample().to_vec();
    while let [a, b, c, d, len, rest @ ..] = edits {
        if file.is_empty() {
            break;
        }
        let at = u32::from_le_bytes([*a, *b, *c, *d]) as usize % file.len();
        if *len == 255 {
            file.truncate(at);
            edits = rest;
            continue;
        }
        let n = usize::from(*len).min(rest.len());
        let end = (at + n).min(file.len());
        file[at..end].copy_from_slice(&rest[..end - at]);
        edits = &rest[n..];
    }
    file
}

fuzz_target!(|data: &[u8]| {
    let Some((&how, rest)) = data.split_first() else {
        return;
    };
    let file = if how & 1 == 0 {
        rest.to_vec()
    } else {
        edited(rest)
    };
    match probe_sage_data(&file, None, &scratch()) {
        Ok(SageProbed::Answered(p)) => assert!(p.iter().all(|x| x.is_finite()), "{p:?}"),
        Ok(SageProbed::Refused(_) | SageProbed::NoCore) => {}
        Err(e) => panic!("Sage failed on a bear-off database bgedit's check took: {e}"),
    }
});
