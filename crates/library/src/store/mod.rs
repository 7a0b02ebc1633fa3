//! The library file: opening it safely, migrating it, and every query the
//! editor and the CLI make. All SQL lives here, split by table family:
//! `migrations.rs` (opening and the schema), `entries.rs` (an entry with its
//! tags, collections and decisions), `text_index.rs` (the full-text index),
//! `search.rs` (filters as SQL, counts and pages), `quiz.rs` (reviews and
//! their statistics), `matches.rs` (matches, their games, decisions and
//! verdicts by engine and depth), `disagreements.rs` (two engines' verdicts
//! on entries side by side), `claims.rs` (the matches `library analyse` runs
//! hold while they work), `like.rs` (positions like one another, on their
//! index), `reading.rs` (a library opened to be read only).
//! This file holds the open library and its errors.
//!
//! Safety: a file is checked before anything is written to it (its header,
//! application id and schema version), so a damaged or foreign file is
//! refused untouched. Writes run in `BEGIN IMMEDIATE` transactions with a
//! busy timeout, so two editors and the CLI can share one library.

mod claims;
mod disagreements;
mod entries;
mod like;
mod match_list;
mod matches;
mod migrations;
mod quiz;
mod reading;
mod search;
mod text_index;

pub use claims::*;
pub use disagreements::*;
pub use entries::*;
pub use like::{Like, Likes, MAX_LIKE};
pub use match_list::*;
pub use matches::*;
use migrations::*;
pub use search::*;
use text_index::*;

use super::schema::{APPLICATION_ID, LATEST};
use rusqlite::{Connection, ErrorCode, OpenFlags, TransactionBehavior};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long a write waits for another process's write to finish.
pub(crate) const BUSY_TIMEOUT: Duration = Duration::from_secs(30);

/// Longest title, tag or collection name kept, in bytes.
pub(crate) const MAX_NAME_LEN: usize = 200;

/// Longest note or analysis kept, in bytes.
pub const MAX_NOTE_LEN: usize = 64 * 1024;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LibraryError {
    #[error("no data directory for the library; start with --library FILE")]
    NoPlace,
    #[error("{path} is not a bgedit library ({why}); it was left untouched")]
    Foreign { path: String, why: String },
    #[error("{path} is damaged ({why}); it was left untouched")]
    Damaged { path: String, why: String },
    #[error("{path} was written by a newer bgedit (schema {found}, this one knows {LATEST})")]
    TooNew { path: String, found: i64 },
    #[error("the library is busy (another bgedit is writing) and stayed busy; nothing was changed")]
    Busy,
    #[error("no entry {0}")]
    NoEntry(i64),
    #[error("no match {0}")]
    NoMatch(i64),
    #[error("match {match_id} has no decision {seq}")]
    NoDecision { match_id: i64, seq: usize },
    #[error("the {what} is {bytes} bytes; at most {max} are kept")]
    TooLong {
        what: &'static str,
        bytes: usize,
        max: usize,
    },
    #[error("the {what} {text:?} has a control character; it is one line of text")]
    ControlCharacter { what: &'static str, text: String },
    #[error("the {what} {text:?} must be one word (use - or _ between words)")]
    NotOneWord { what: &'static str, text: String },
    #[error("that position is already entry {0}")]
    AlreadyEntry(i64),
    #[error("that position is back already, as entry {0}")]
    BackAlready(i64),
    #[error("{0}")]
    Filter(crate::filter::FilterError),
    #[error(
        "{path} is a library of schema {version}: open it once with this bgedit \
         (bgedit library --library FILE list) to bring it to schema {LATEST}"
    )]
    OldSchema { path: String, version: i64 },
    #[error("library: {0}")]
    Sql(String),
    #[error("library: {0}")]
    Io(String),
    #[error(
        "{path} is read-only ({why}): it can be listed, searched, shown and exported, not changed"
    )]
    ReadOnly { path: String, why: String },
    /// A command that reads a library was given one that is not there (a
    /// mistyped path): none is made for it.
    #[error(
        "there is no library at {path} (check the path; `bgedit library add` or `import` \
         makes one)"
    )]
    NotThere { path: String },
}

impl From<rusqlite::Error> for LibraryError {
    fn from(e: rusqlite::Error) -> LibraryError {
        match e.sqlite_error_code() {
            Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => LibraryError::Busy,
            Some(ErrorCode::DiskFull) => LibraryError::Io(DISK_FULL.to_owned()),
            Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase) => LibraryError::Damaged {
                path: "the library".to_owned(),
                why: e.to_string(),
            },
            _ => LibraryError::Sql(e.to_string()),
        }
    }
}

impl LibraryError {
    /// Whether this is about what was asked (an entry, a match, a name,
    /// a filter), not about the library's file: a batch names it and goes
    /// on with the next input.
    pub fn is_about_the_input(&self) -> bool {
        matches!(
            self,
            LibraryError::NoEntry(_)
                | LibraryError::NoMatch(_)
                | LibraryError::NoDecision { .. }
                | LibraryError::TooLong { .. }
                | LibraryError::ControlCharacter { .. }
                | LibraryError::NotOneWord { .. }
                | LibraryError::AlreadyEntry(_)
                | LibraryError::BackAlready(_)
                | LibraryError::Filter(_)
                | LibraryError::OldSchema { .. }
        )
    }
}

pub(crate) type Result<T> = std::result::Result<T, LibraryError>;

/// What a write that ran out of room did: SQLite rolls the transaction back.
const DISK_FULL: &str = "the disk is full: the change was not written (the file is as before)";

/// A library error as it crosses from the editor's library worker to the
/// reducer: the error itself (what the reducer may act on) and the message
/// naming the file, made on the worker's side (saying "disk full" asks the
/// file system).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct LibraryFailure {
    pub error: LibraryError,
    pub message: String,
}

impl LibraryFailure {
    /// `error` about the library at `path` (none: no library file).
    pub fn new(path: Option<&Path>, error: LibraryError) -> LibraryFailure {
        let message = match path {
            Some(p) => describe(p, &error),
            None => error.to_string(),
        };
        LibraryFailure { error, message }
    }
}

/// `e` as a message that names the library's file: every error about the
/// file does (an entry's own problem, or a missing entry, is not about it).
/// A disk I/O error on a disk with no room left says "disk full".
pub fn describe(path: &Path, e: &LibraryError) -> String {
    let shown = path.display().to_string();
    if e.is_about_the_input() {
        return e.to_string();
    }
    let mut text = e.to_string();
    if text.contains("disk I/O error") && no_room_left(path) {
        text = DISK_FULL.to_owned();
    }
    if text.contains(&shown) {
        return text;
    }
    format!(
        "{shown}: {}",
        text.strip_prefix("library: ").unwrap_or(&text)
    )
}

/// Whether the file system holding `path` has no block left for this user.
fn no_room_left(path: &Path) -> bool {
    let dir = match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(d) => d,
        None => Path::new("."),
    };
    let Ok(c) = std::ffi::CString::new(dir.as_os_str().as_encoded_bytes()) else {
        return false;
    };
    // SAFETY: `c` is a NUL-terminated path and `st` is written by statvfs.
    unsafe {
        let mut st: libc::statvfs = std::mem::zeroed();
        libc::statvfs(c.as_ptr(), &mut st) == 0 && st.f_bavail == 0
    }
}

/// Seconds since the epoch.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// `--library FILE` if given, else `$BGEDIT_DATA_DIR/library.sqlite`, else
/// `bgedit/library.sqlite` under `$XDG_DATA_HOME` (`~/.local/share`).
pub fn default_path() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("BGEDIT_DATA_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir).join("library.sqlite"));
    }
    dirs::data_dir().map(|d| d.join("bgedit").join("library.sqlite"))
}

/// An open library.
pub struct Library {
    conn: Connection,
    path: PathBuf,
    /// Whether this session has checked the file's pages before writing.
    checked: bool,
    /// Why the file can only be read (its directory or itself cannot be
    /// written), when so: every write is refused with it.
    read_only: Option<String>,
    /// The private copy read in its place, when it is (`reading`): removed
    /// when dropped, after the connection above.
    _copy: Option<tempfile::TempDir>,
}

impl Library {
    /// A write transaction. Before the first write of a session the file's
    /// pages are checked (`PRAGMA quick_check`): damage that reading alone
    /// may not meet would otherwise be written over, and the damaged file
    /// is then refused as it is, untouched.
    fn write(&mut self) -> Result<rusqlite::Transaction<'_>> {
        if let Some(why) = &self.read_only {
            return Err(LibraryError::ReadOnly {
                path: self.path.display().to_string(),
                why: why.clone(),
            });
        }
        if !self.checked {
            let verdict: String = self
                .conn
                .query_row("PRAGMA quick_check(1)", [], |r| r.get(0))
                .map_err(|e| self.named(e.into()))?;
            if verdict != "ok" {
                return Err(LibraryError::Damaged {
                    path: self.path.display().to_string(),
                    why: format!(
                        "SQLite's check found: {}",
                        bgedit_core::quote::clip(&verdict)
                    ),
                });
            }
            self.checked = true;
        }
        Ok(self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?)
    }

    /// An error with this library's file named in it.
    fn named(&self, e: LibraryError) -> LibraryError {
        match e {
            LibraryError::Damaged { why, .. } => LibraryError::Damaged {
                path: self.path.display().to_string(),
                why,
            },
            other => other,
        }
    }

    /// Opens (or creates) the library at `path`, migrating it to the latest
    /// schema. A foreign, damaged or newer file is refused and not written.
    pub fn open(path: &Path) -> Result<Library> {
        check_header(path)?;
        if let Some(why) = cannot_write(path) {
            return Library::open_read_only(path, why);
        }
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| LibraryError::Io(format!("cannot create {}: {e}", dir.display())))?;
        }
        let shown = path.display().to_string();
        let relabel = |e: LibraryError| match e {
            LibraryError::Damaged { why, .. } => LibraryError::Damaged {
                path: shown.clone(),
                why,
            },
            other => other,
        };
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_CREATE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| relabel(e.into()))?;
        conn.busy_timeout(BUSY_TIMEOUT)
            .map_err(|e| relabel(e.into()))?;
        let mut library = Library {
            conn,
            path: path.to_owned(),
            checked: false,
            read_only: None,
            _copy: None,
        };
        // Two processes opening a new file at once race to turn on WAL and
        // to migrate, and SQLite answers some of those steps "busy" at once
        // without calling its busy handler: tried again until the usual
        // busy timeout has passed.
        let started = std::time::Instant::now();
        loop {
            match library.prepare() {
                Err(LibraryError::Busy) if started.elapsed() < BUSY_TIMEOUT => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                done => break done.map_err(relabel)?,
            }
        }
        Ok(library)
    }

    /// Opens the library at `path` for a command that reads it (and may
    /// change what is in it): one that is not there is refused by name,
    /// not made empty, so a mistyped path says so.
    pub fn open_existing(path: &Path) -> Result<Library> {
        if std::fs::symlink_metadata(path).is_err() {
            return Err(LibraryError::NotThere {
                path: path.display().to_string(),
            });
        }
        Library::open(path)
    }

    /// Opens another library to read it only (a merge's source): its
    /// header, application id and schema are checked first, and a file
    /// that is not a bgedit library of this schema is refused by name.
    /// Nothing is written to it, and what a run killed left in its WAL was
    /// committed and is read, on read-only storage too (`reading`).
    pub fn open_to_read(path: &Path) -> Result<Library> {
        check_header(path)?;
        if !path.is_file() {
            return Err(LibraryError::Io(format!(
                "cannot read {}: no such file",
                path.display()
            )));
        }
        let shown = path.display().to_string();
        let reading::Reader { conn, copy } = reading::connect(path)?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        let app: i32 = conn.pragma_query_value(None, "application_id", |r| r.get(0))?;
        let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
        if app != APPLICATION_ID {
            return Err(LibraryError::Foreign {
                path: shown,
                why: format!("an SQLite database of another program (application id {app:#x})"),
            });
        }
        if version > LATEST {
            return Err(LibraryError::TooNew {
                path: shown,
                found: version,
            });
        }
        if version < LATEST {
            return Err(LibraryError::OldSchema {
                path: shown,
                version,
            });
        }
        let verdict: String = conn.query_row("PRAGMA quick_check(1)", [], |r| r.get(0))?;
        if verdict != "ok" {
            return Err(LibraryError::Damaged {
                path: shown,
                why: format!(
                    "SQLite's check found: {}",
                    bgedit_core::quote::clip(&verdict)
                ),
            });
        }
        Ok(Library {
            conn,
            path: path.to_owned(),
            checked: true,
            read_only: Some("it is only read here".to_owned()),
            _copy: copy,
        })
    }

    /// Opens an existing library that cannot be written, to read it: every
    /// committed write, those still in its WAL included, and nothing
    /// created beside it where its directory cannot be written
    /// (`reading`).
    fn open_read_only(path: &Path, why: String) -> Result<Library> {
        let shown = path.display().to_string();
        let reading::Reader { conn, copy } = reading::connect(path)?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        let app: i32 = conn.pragma_query_value(None, "application_id", |r| r.get(0))?;
        let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
        if app != APPLICATION_ID {
            return Err(LibraryError::Foreign {
                path: shown,
                why: "an SQLite database of another program".to_owned(),
            });
        }
        if version > LATEST {
            return Err(LibraryError::TooNew {
                path: shown,
                found: version,
            });
        }
        if version < LATEST {
            return Err(LibraryError::ReadOnly {
                path: shown,
                why: format!(
                    "{why}; its schema {version} needs updating to {LATEST}, which writes to it"
                ),
            });
        }
        Ok(Library {
            conn,
            path: path.to_owned(),
            checked: true,
            read_only: Some(why),
            _copy: copy,
        })
    }

    /// This library's error `e` as a message naming its file.
    pub fn describe(&self, e: &LibraryError) -> String {
        describe(&self.path, e)
    }
}
