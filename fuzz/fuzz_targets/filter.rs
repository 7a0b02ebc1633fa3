//! The library's filter language (the panel's `/`, `bgedit library search`,
//! the quiz's filter): any text never panics; an accepted query becomes SQL
//! that SQLite runs (a word the parser accepts and the store cannot turn
//! into a statement is a bug), and a refused one names a column inside the
//! text.
#![no_main]

use bgedit_library::filter;
use bgedit_library::store::{Library, Order};
use bgedit_fuzz::text;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// One empty library for every input: the statements are what is tested,
/// not the rows (opening a file per input would be most of the time).
fn library() -> &'static std::sync::Mutex<Library> {
    static LIBRARY: OnceLock<(tempfile::TempDir, std::sync::Mutex<Library>)> = OnceLock::new();
    let (_, lib) = LIBRARY.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let lib = Library::open(&dir.path().join("library.sqlite")).unwrap();
        (dir, std::sync::Mutex::new(lib))
    });
    lib
}

fuzz_target!(|data: &[u8]| {
    let Some(text) = text(data) else { return };
    match filter::parse(text) {
        Ok(query) => {
            let lib = library().lock().unwrap();
            for order in [Order::Newest, Order::Error] {
                if let Err(e) = lib.search_page(&query, order, 0, 10, 10) {
                    panic!("{text:?} was accepted but its SQL failed: {e}");
                }
            }
        }
        Err(e) => assert!(e.column <= text.len().max(filter::MAX_QUERY_LEN), "{e}"),
    }
});
