//! A library file a merge reads (`bgedit library merge LIB`): any bytes,
//! written to a file and opened to be read, never panic; a file that is
//! not a bgedit library of this schema is refused with a message naming
//! it, and what opens has its matches, files and verdicts read without a
//! panic (a damaged page is an error, a changed file a hash mismatch).
#![no_main]

use bgedit_library::store::Library;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("source.sqlite");
    std::fs::write(&path, data).unwrap();
    let source = match Library::open_to_read(&path) {
        Ok(s) => s,
        Err(e) => {
            let said = bgedit_library::store::describe(&path, &e);
            assert!(!said.is_empty());
            return;
        }
    };
    let Ok(matches) = source.matches() else {
        return;
    };
    for m in matches.iter().take(16) {
        if let Ok((_, bytes)) = source.match_content(m.id) {
            let _ = bgedit_core::codec::match_file::read_bytes(&bytes);
        }
        let _ = source.own_verdicts(m.id);
    }
    // Nothing was written to it.
    assert_eq!(std::fs::read(&path).unwrap(), data);
});
