//! Open Sage's network loader as bgedit uses it: any bytes as a network
//! file, held to its layout by bgedit's check (`sage/native/data.rs`) and,
//! when the check takes it, loaded by Sage's own C++ loader and asked a few
//! positions (built with AddressSanitizer under cargo-fuzz). Whatever the
//! check takes, Sage loads and answers with finite chances, never a fault.
//!
//! The first byte sets the network's shape (1 to 4 hidden units; the pure
//! race's 196 inputs or the others' 244), the rest is the file. Seeds:
//! `fuzz/make_sage_seeds.py`.
#![no_main]

use bgedit_engine::internals::{SageProbed, probe_sage_data};
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

/// Where an accepted file is written for Sage's loader, which reads a path.
fn scratch() -> PathBuf {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().unwrap())
        .path()
        .join("net.weights")
}

fuzz_target!(|data: &[u8]| {
    let Some((&shape, file)) = data.split_first() else {
        return;
    };
    let hidden = i32::from(shape & 3) + 1;
    let inputs = if shape & 4 == 0 { 196 } else { 244 };
    match probe_sage_data(file, Some((hidden, inputs)), &scratch()) {
        Ok(SageProbed::Answered(p)) => assert!(p.iter().all(|x| x.is_finite()), "{p:?}"),
        Ok(SageProbed::Refused(_) | SageProbed::NoCore) => {}
        Err(e) => panic!("Sage failed on a network bgedit's check took: {e}"),
    }
});
