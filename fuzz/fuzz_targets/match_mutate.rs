//! Real match files mutated (the seeds are tests/fixtures' .mat, SGF, XG
//! and gnubg match text files; run_all.sh hands them in): every road a
//! file takes, never panicking. Detection and the one dispatch, every
//! decision and a chosen position, the pieces `analyse --file` hands gnubg
//! and the runs of decisions it slices for them (no engine: where two
//! matches joined once sliced backwards), and the library's import of the
//! decisions into a scratch SQLite store. run_all.sh bounds each input's
//! time and memory.
#![no_main]

use bgedit_core::codec::{match_file, sgf};
use bgedit_engine::match_analysis::ReplayedMatch;
use bgedit_library::match_import;
use bgedit_library::store::{self, Library};
use libfuzzer_sys::fuzz_target;
use std::sync::Mutex;

/// A scratch library of this process, begun anew every so often so it
/// stays small.
struct Scratch {
    dir: tempfile::TempDir,
    lib: Option<Library>,
    used: u32,
}

static SCRATCH: Mutex<Option<Scratch>> = Mutex::new(None);

fn import(decisions: &[match_file::FileDecision]) {
    let mut guard = SCRATCH.lock().unwrap_or_else(|e| e.into_inner());
    let scratch = guard.get_or_insert_with(|| Scratch {
        dir: tempfile::tempdir().expect("a scratch directory"),
        lib: None,
        used: 0,
    });
    scratch.used += 1;
    if scratch.used % 500 == 0 {
        scratch.lib = None;
        let _ = std::fs::remove_file(scratch.dir.path().join("lib.sqlite"));
    }
    let path = scratch.dir.path().join("lib.sqlite");
    let lib = match &mut scratch.lib {
        Some(lib) => lib,
        None => scratch.lib.insert(Library::open(&path).expect("the scratch library opens")),
    };
    let entries: Vec<_> = decisions
        .iter()
        .take(64)
        .map(|d| match_import::entry("fuzz", d))
        .filter(|e| store::check_entry(e).is_ok())
        .collect();
    // A write may fail (a full disk); a panic may not.
    let _ = lib.add_all(&entries);
}

fuzz_target!(|data: &[u8]| {
    let _ = match_file::detect(data);
    let Ok(file) = match_file::read_bytes(data) else { return };
    let (decisions, problems) = match_file::decisions(&file);
    for p in &problems {
        let said = match_file::describe("fuzz", p);
        assert!(!said.contains('\u{1b}'), "{said:?}");
    }
    for selection in [
        sgf::Selection::default(),
        sgf::Selection { game: Some(1), moves: Some(1) },
        sgf::Selection { game: Some(2), moves: None },
    ] {
        let _ = match_file::position_at(&file, selection);
    }
    for d in &decisions {
        let _ = match_import::decision_error(d);
    }
    // The pieces gnubg would be handed, and the runs of decisions for them.
    for size in [0, 3, 24] {
        let cut = ReplayedMatch::cut(&file, size);
        for run in cut.pieces().unwrap_or_default() {
            let _ = &cut.decisions()[run];
        }
    }
    import(&decisions);
});
