//! A library opened to be read only (a merge's source, a library that
//! cannot be written): every committed write read, its WAL included, and
//! nothing created beside a file in a directory that cannot be written.
//!
//! SQLite reads a WAL database through its shared-memory file (`-shm`),
//! which it creates beside the database when it is missing: a directory
//! that cannot be written refuses that ("unable to open database file").
//! Its documentation ("WAL databases on read-only media", wal.html) names
//! three ways to read one there: the `-shm` and `-wal` files exist already,
//! the directory can be written, or the database is opened `immutable`,
//! which ignores the WAL. So, by what lies beside the file:
//!
//! - a directory that can be written: SQLite's own way (its files may be
//!   made beside the database, as for any reader, and a writer at work is
//!   read safely);
//! - `-wal` and `-shm` both there: SQLite's own way again (it reads them
//!   and creates nothing; a `-shm` it cannot write is read through a
//!   private copy of its own);
//! - no WAL, or an empty one without its `-shm`: `immutable`, exact, as
//!   every committed write is in the file and nobody can start a writer
//!   where no `-wal` can be made;
//! - a WAL with writes in it but no `-shm` (left by a writer killed and
//!   copied without it, say): the file and its WAL copied to a private
//!   directory and read there, where SQLite makes its `-shm`; no writer
//!   can be at work without a `-shm`, so the copy is the library as
//!   committed.

use super::{LibraryError, Result};
use rusqlite::{Connection, OpenFlags};
use std::path::{Path, PathBuf};

/// How a library that is only read is opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Road {
    /// SQLite's own read-only open: the WAL read through its `-shm`.
    Shared,
    /// `immutable=1`: the file alone, nothing created or locked.
    Immutable,
    /// The file and its WAL copied to a private directory, read there.
    Copy,
}

/// What lies beside a library file, as [`road`] decides by it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Beside {
    /// The `-wal` file's length, when there is one.
    pub wal: Option<u64>,
    pub shm: bool,
    /// Whether files can be created in its directory.
    pub dir_writable: bool,
    /// Whether the library file itself can be written (so a writer could
    /// start while it is read).
    pub file_writable: bool,
}

/// The way to read a library with `beside` next to it (see the module's
/// comment).
pub(super) fn road(beside: Beside) -> Road {
    match beside.wal {
        Some(_) if beside.shm => Road::Shared,
        Some(len) if len > 0 => {
            if beside.dir_writable {
                Road::Shared
            } else {
                Road::Copy
            }
        }
        _ if beside.dir_writable && beside.file_writable => Road::Shared,
        _ => Road::Immutable,
    }
}

/// `path` with `suffix` after its name (`-wal`, `-shm`).
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Whether this process may write `p` (access(2), as the user bgedit runs
/// as).
pub(super) fn writable(p: &Path) -> bool {
    std::ffi::CString::new(p.as_os_str().as_encoded_bytes())
        // SAFETY: a NUL-terminated path; access(2) only reads it.
        .is_ok_and(|c| unsafe { libc::access(c.as_ptr(), libc::W_OK) } == 0)
}

/// The directory a library file is in.
pub(super) fn directory(path: &Path) -> &Path {
    path.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// What lies beside the library at `path` now.
fn beside(path: &Path) -> Beside {
    Beside {
        wal: std::fs::metadata(with_suffix(path, "-wal"))
            .ok()
            .map(|m| m.len()),
        shm: with_suffix(path, "-shm").exists(),
        dir_writable: writable(directory(path)),
        file_writable: writable(path),
    }
}

/// A library's file opened to be read, and the private copy it is read
/// from, when it is (removed when dropped, after the connection).
pub(super) struct Reader {
    pub conn: Connection,
    pub copy: Option<tempfile::TempDir>,
}

/// Opens the library at `path` to read it only, by the [`road`] what lies
/// beside it takes.
pub(super) fn connect(path: &Path) -> Result<Reader> {
    let shown = path.display().to_string();
    let cannot = |e: &dyn std::fmt::Display| LibraryError::Io(format!("cannot read {shown}: {e}"));
    let read_only = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    match road(beside(path)) {
        Road::Shared => {
            let conn = Connection::open_with_flags(path, read_only).map_err(|e| cannot(&e))?;
            Ok(Reader { conn, copy: None })
        }
        Road::Immutable => {
            let conn = Connection::open_with_flags(
                immutable_uri(path),
                read_only | OpenFlags::SQLITE_OPEN_URI,
            )
            .map_err(|e| cannot(&e))?;
            Ok(Reader { conn, copy: None })
        }
        Road::Copy => {
            let copy = tempfile::Builder::new()
                .prefix("bgedit-library-")
                .tempdir()
                .map_err(|e| cannot(&e))?;
            let name = copy.path().join("library.sqlite");
            std::fs::copy(path, &name).map_err(|e| cannot(&e))?;
            std::fs::copy(with_suffix(path, "-wal"), with_suffix(&name, "-wal"))
                .map_err(|e| cannot(&e))?;
            let conn = Connection::open_with_flags(&name, read_only).map_err(|e| cannot(&e))?;
            Ok(Reader {
                conn,
                copy: Some(copy),
            })
        }
    }
}

/// The `file:` URI that opens `path` immutable: `%`, `?` and `#` escaped.
fn immutable_uri(path: &Path) -> String {
    let mut uri = String::from("file:");
    for c in std::fs::canonicalize(path)
        .unwrap_or_else(|_| path.to_owned())
        .to_string_lossy()
        .chars()
    {
        match c {
            '%' | '?' | '#' => uri.push_str(&format!("%{:02X}", c as u32)),
            c => uri.push(c),
        }
    }
    uri.push_str("?immutable=1");
    uri
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_road_follows_what_lies_beside_the_file() {
        let dir = |wal, shm, dir_writable, file_writable| Beside {
            wal,
            shm,
            dir_writable,
            file_writable,
        };
        // A directory and file that can be written: a writer may be at
        // work, and SQLite's own way reads it safely.
        assert_eq!(road(dir(None, false, true, true)), Road::Shared);
        // Nothing can be made beside it: the file alone is the library.
        assert_eq!(road(dir(None, false, false, true)), Road::Immutable);
        assert_eq!(road(dir(Some(0), false, false, false)), Road::Immutable);
        // A file nobody here may write, in a directory that can be.
        assert_eq!(road(dir(None, false, true, false)), Road::Immutable);
        // Writes in the WAL: read through its -shm when it is there...
        assert_eq!(road(dir(Some(4152), true, false, false)), Road::Shared);
        // ...or one SQLite may make; else from a private copy.
        assert_eq!(road(dir(Some(4152), false, true, false)), Road::Shared);
        assert_eq!(road(dir(Some(4152), false, false, true)), Road::Copy);
    }
}
