//! Which Sage data bgedit reads: the release whose C++ is built in, and the
//! directory the user named (`--sage-data`). A leaf of its own: the spec
//! declares the option with these, and the core reads them when it loads,
//! so neither needs the other.

use std::path::PathBuf;
use std::sync::OnceLock;

/// The bgsage release whose C++ is built in: its weights fit this code.
pub(crate) const VERSION: &str = "2.0.20260907";

static DATA_DIR: OnceLock<PathBuf> = OnceLock::new();

/// `--sage-data DIR`: read Sage's weights from `dir` rather than asking
/// its Python. Set once, at start.
pub fn set(dir: PathBuf) {
    let _ = DATA_DIR.set(dir);
}

/// The directory named with `--sage-data`, if one was.
pub(crate) fn named() -> Option<&'static PathBuf> {
    DATA_DIR.get()
}
