//! The library file: opening it safely, migrating it, and every query the
//! editor and the CLI make. All SQL lives here.
//!
//! Safety: a file is checked before anything is written to it (its header,
//! application id and schema version), so a damaged or foreign file is
//! refused untouched. Writes run in `BEGIN IMMEDIATE` transactions with a
//! busy timeout, so two editors and the CLI can share one library.

use super::derive::{Derived, derive};
use super::filter::{Condition, DecisionKind, Field, Flag, Query};
use super::review::{Missed, QuizResult, QuizStats, Rating, Schedule, WeekStats};
use super::schema::{APPLICATION_ID, LATEST, MIGRATIONS};
use crate::codec::{self, IdFormat, json};
use crate::domain::{Player, Position};
use rusqlite::types::Value;
use rusqlite::{Connection, ErrorCode, OpenFlags, OptionalExtension, TransactionBehavior, params};
use std::fmt::Write as _;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long a write waits for another process's write to finish.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(30);
/// Longest title, tag or collection name kept, in bytes.
pub const MAX_NAME_LEN: usize = 200;
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
    #[error("{0}")]
    Invalid(String),
    #[error("library: {0}")]
    Sql(String),
    #[error("library: {0}")]
    Io(String),
    #[error(
        "{path} is read-only ({why}): it can be listed, searched, shown and exported, not changed"
    )]
    ReadOnly { path: String, why: String },
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

pub type Result<T> = std::result::Result<T, LibraryError>;

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
    if let LibraryError::NoEntry(_) | LibraryError::Invalid(_) = e {
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

/// Where an entry came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    Typed,
    Pasted,
    Imported(String),
}

impl Source {
    pub fn to_text(&self) -> String {
        match self {
            Source::Typed => "typed".to_owned(),
            Source::Pasted => "pasted".to_owned(),
            Source::Imported(file) => format!("imported from {file}"),
        }
    }

    pub fn from_text(text: &str) -> Source {
        match text {
            "pasted" => Source::Pasted,
            t => match t.strip_prefix("imported from ") {
                Some(file) => Source::Imported(file.to_owned()),
                None => Source::Typed,
            },
        }
    }
}

/// An engine's answer kept with the position: its text and the depth
/// (`2-ply`, `XG Roller++`, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub text: String,
    pub depth: String,
}

/// A decision from a match: who decided, what kind, what they played, and
/// the equity it gave away by its analysis (finite, when known).
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The decider's name as the match file gives it.
    pub player: String,
    pub kind: DecisionKind,
    /// What was played, in gnubg's notation or `double`, `take`, ...
    pub played: String,
    error: Option<f64>,
}

// The one float is kept finite by `Decision::new`.
impl Eq for Decision {}

impl Decision {
    pub fn new(player: String, kind: DecisionKind, played: String, error: Option<f64>) -> Self {
        Decision {
            player,
            kind,
            played,
            error: error.filter(|e| e.is_finite()),
        }
    }

    pub fn error(&self) -> Option<f64> {
        self.error
    }
}

/// What a new entry starts with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewEntry {
    pub position: Position,
    pub title: String,
    pub note: String,
    pub tags: Vec<String>,
    pub collections: Vec<String>,
    pub source: Source,
    pub analysis: Option<Analysis>,
    /// Set for a decision from a match.
    pub decision: Option<Decision>,
}

impl NewEntry {
    pub fn new(position: Position, source: Source) -> NewEntry {
        NewEntry {
            position,
            title: String::new(),
            note: String::new(),
            tags: Vec::new(),
            collections: Vec::new(),
            source,
            analysis: None,
            decision: None,
        }
    }
}

/// A whole entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub id: i64,
    pub position: Position,
    pub gnubg_id: String,
    pub xgid: String,
    pub title: String,
    pub note: String,
    pub tags: Vec<String>,
    pub collections: Vec<String>,
    pub source: Source,
    pub created: i64,
    pub updated: i64,
    pub analysis: Option<Analysis>,
    pub schedule: Schedule,
    pub decision: Option<Decision>,
}

/// A count that may stop early: `total` matches, or more than that when
/// not `exact`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counted {
    pub total: u64,
    pub exact: bool,
}

/// How a list is ordered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// The newest entry first.
    #[default]
    Newest,
    /// The match decision that gave away the most first.
    Error,
}

/// One line of the library list: enough to show and preview it.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub id: i64,
    pub title: String,
    pub tags: String,
    pub position: Position,
    pub derived: Derived,
    pub score: [u16; 2],
    /// A match decision's error, when known.
    pub error: Option<f64>,
    /// The note's first line that is not blank (from its first 200
    /// characters).
    pub note_line: String,
    /// The entry's collections, space-separated.
    pub collections: String,
}

// `error` comes from the store's finite values.
impl Eq for Summary {}

impl Summary {
    /// `money`, or the score in away terms as players say it, the player
    /// on roll first: `7pt 2a-4a` (on roll 2-away, the other 4-away), with
    /// `C` in the Crawford game.
    pub fn match_text(&self) -> String {
        let st = &self.position.state;
        if st.match_length == 0 {
            return "money".to_owned();
        }
        let away = |p: Player| st.match_length.saturating_sub(self.score[p.index()]);
        let roller = st.on_roll;
        format!(
            "{}pt {}a-{}a{}",
            st.match_length,
            away(roller),
            away(roller.opponent()),
            if st.crawford { " C" } else { "" }
        )
    }

    /// The player on roll and the dice (`X 52`), or the cube decision
    /// (`X dbl`: X doubled, the other to take or pass; `X cube`: not rolled).
    pub fn roll_text(&self) -> String {
        let st = &self.position.state;
        let what = match st.dice {
            Some([a, b]) => format!("{a}{b}"),
            None if st.double_offered => "dbl".to_owned(),
            None => "cube".to_owned(),
        };
        format!("{} {what}", st.on_roll)
    }
}

/// What adding did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Added {
    New(i64),
    /// The position was already there; new tags and collections were added
    /// to it, and a note or analysis where it had none.
    Existing(i64),
}

impl Added {
    pub fn id(self) -> i64 {
        match self {
            Added::New(id) | Added::Existing(id) => id,
        }
    }
}

/// Changes to an entry; `None` keeps a field.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EntryEdit {
    pub position: Option<Position>,
    pub title: Option<String>,
    pub note: Option<String>,
    pub tags: Option<Vec<String>>,
    pub collections: Option<Vec<String>>,
    /// Replaces the stored analysis (a rollout over an evaluation).
    pub analysis: Option<Box<Analysis>>,
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

fn be32(b: &[u8]) -> u32 {
    u32::from_be_bytes([b[0], b[1], b[2], b[3]])
}

/// Reads the file's first 100 bytes (SQLite's header) and refuses what is
/// not a sound bgedit library, before SQLite opens it for writing.
/// Why an existing library file cannot be written, if it cannot: the file
/// or its directory (where SQLite keeps its WAL and shared memory) is not
/// writable. A file still to be created is not looked at here.
fn cannot_write(path: &Path) -> Option<String> {
    if !path.is_file() {
        return None;
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let writable = |p: &Path| {
        std::ffi::CString::new(p.as_os_str().as_encoded_bytes())
            // SAFETY: a NUL-terminated path; access(2) only reads it.
            .is_ok_and(|c| unsafe { libc::access(c.as_ptr(), libc::W_OK) } == 0)
    };
    if !writable(path) {
        Some("the file cannot be written".to_owned())
    } else if !writable(dir) {
        Some(format!("its directory {} cannot be written", dir.display()))
    } else {
        None
    }
}

fn check_header(path: &Path) -> Result<()> {
    let shown = path.display().to_string();
    let foreign = |why: &str| LibraryError::Foreign {
        path: shown.clone(),
        why: why.to_owned(),
    };
    let damaged = |why: String| LibraryError::Damaged {
        path: shown.clone(),
        why,
    };
    // A FIFO or a device would block (or stream forever) on open: only a
    // regular file, looked at without opening it, is read.
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(LibraryError::Io(format!("cannot read {shown}: {e}"))),
        Ok(m) if !m.is_file() => {
            return Err(foreign(if m.is_dir() {
                "a directory"
            } else {
                "not a regular file (a FIFO, socket or device)"
            }));
        }
        Ok(_) => {}
    }
    let mut file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(LibraryError::Io(format!("cannot read {shown}: {e}"))),
    };
    let len = file
        .metadata()
        .map_err(|e| LibraryError::Io(format!("cannot read {shown}: {e}")))?
        .len();
    if len == 0 {
        return Ok(());
    }
    if len < 100 {
        return Err(foreign(&format!(
            "{len} bytes: too short for an SQLite database"
        )));
    }
    let mut header = [0u8; 100];
    file.read_exact(&mut header)
        .map_err(|e| LibraryError::Io(format!("cannot read {shown}: {e}")))?;
    if &header[..16] != b"SQLite format 3\0" {
        return Err(foreign("it does not start with SQLite's header"));
    }
    let page_size = match u16::from_be_bytes([header[16], header[17]]) {
        1 => 65536u64,
        n if n >= 512 && n.is_power_of_two() => u64::from(n),
        n => return Err(damaged(format!("page size {n} in the header"))),
    };
    let app = be32(&header[68..72]) as i32;
    let version = be32(&header[60..64]) as i32;
    if app != APPLICATION_ID && !(app == 0 && version == 0) {
        return Err(foreign(&format!(
            "another program's SQLite database: application id {app:#x}"
        )));
    }
    if len % page_size != 0 {
        return Err(damaged(format!(
            "{len} bytes is not a whole number of {page_size}-byte pages"
        )));
    }
    let counter_valid = header[24..28] == header[92..96];
    let pages = u64::from(be32(&header[28..32]));
    let wal = path.with_extension("sqlite-wal");
    let wal_present = {
        let mut name = path.as_os_str().to_owned();
        name.push("-wal");
        Path::new(&name).exists() || wal.exists()
    };
    // With a WAL beside it, the main file may lag its header during a
    // checkpoint; the WAL is authoritative then.
    if counter_valid && !wal_present && len < pages * page_size {
        return Err(damaged(format!(
            "the header says {pages} pages but the file holds {}",
            len / page_size
        )));
    }
    Ok(())
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
                    why: format!("SQLite's check found: {}", crate::quote::clip(&verdict)),
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

    /// Opens an existing library that cannot be written, to read it. SQLite
    /// keeps a WAL file's shared memory beside it, which a read-only
    /// directory cannot hold, so the file is opened as immutable: nothing
    /// is created next to it, and nothing can change it while this reads
    /// (the directory or the file forbids writing).
    fn open_read_only(path: &Path, why: String) -> Result<Library> {
        let shown = path.display().to_string();
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
        let conn = Connection::open_with_flags(
            &uri,
            OpenFlags::SQLITE_OPEN_READ_ONLY
                | OpenFlags::SQLITE_OPEN_URI
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| LibraryError::Io(format!("cannot read {shown}: {e}")))?;
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
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// This library's error `e` as a message naming its file.
    pub fn describe(&self, e: &LibraryError) -> String {
        describe(&self.path, e)
    }

    /// Why the library can only be read, when it can.
    pub fn read_only(&self) -> Option<&str> {
        self.read_only.as_deref()
    }

    /// Checks what SQLite sees (the header may have been fine while the
    /// schema is not ours), then turns on WAL and migrates.
    fn prepare(&mut self) -> Result<()> {
        let shown = self.path.display().to_string();
        let app: i32 = self
            .conn
            .pragma_query_value(None, "application_id", |r| r.get(0))?;
        let version: i64 = self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?;
        let tables: i64 = self
            .conn
            .query_row("SELECT count(*) FROM sqlite_schema", [], |r| r.get(0))?;
        if app != APPLICATION_ID && tables > 0 {
            return Err(LibraryError::Foreign {
                path: shown,
                why: format!("an SQLite database with {tables} tables of another program"),
            });
        }
        if version > LATEST {
            return Err(LibraryError::TooNew {
                path: shown,
                found: version,
            });
        }
        let mode: String = self
            .conn
            .pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(LibraryError::Io(format!(
                "{shown}: could not turn on WAL (journal mode stays {mode})"
            )));
        }
        self.conn.pragma_update(None, "synchronous", "NORMAL")?;
        // A bounded page cache (16 MiB): the indexes of a large library stay
        // in memory while importing, and memory stays flat beyond it.
        self.conn.pragma_update(None, "cache_size", -16384)?;
        // Checkpoint every ~40 MB of WAL rather than every 4 MB: far fewer
        // syncs during an import, and readers are never blocked by it.
        self.conn.pragma_update(None, "wal_autocheckpoint", 10000)?;
        self.conn.pragma_update(None, "foreign_keys", "ON")?;
        self.migrate()
    }

    /// Applies the migrations this file lacks, in one transaction, so a file
    /// is always at one whole version.
    fn migrate(&mut self) -> Result<()> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        // Read again inside the write lock: another process may have
        // migrated it meanwhile.
        let version: i64 = tx.pragma_query_value(None, "user_version", |r| r.get(0))?;
        for (i, step) in MIGRATIONS.iter().enumerate().skip(version as usize) {
            tx.execute_batch(step)
                .map_err(|e| LibraryError::Sql(format!("migration to schema {}: {e}", i + 1)))?;
            if i + 1 == 6 {
                fill_structure(&tx)?;
            }
        }
        if version < LATEST {
            tx.pragma_update(None, "application_id", APPLICATION_ID)?;
            tx.pragma_update(None, "user_version", LATEST)?;
        }
        tx.commit()?;
        Ok(())
    }

    pub fn schema_version(&self) -> Result<i64> {
        Ok(self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    /// `PRAGMA integrity_check`'s first line (`ok` when sound).
    pub fn integrity_check(&self) -> Result<String> {
        Ok(self
            .conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))?)
    }

    /// Adds one position (or merges it into its existing entry).
    pub fn add(&mut self, entry: &NewEntry) -> Result<Added> {
        self.add_all(std::slice::from_ref(entry))
            .map(|mut v| v.remove(0))
    }

    /// Adds positions in one transaction: all or none.
    pub fn add_all(&mut self, entries: &[NewEntry]) -> Result<Vec<Added>> {
        let now = now();
        let tx = self.write()?;
        let mut out = Vec::with_capacity(entries.len());
        for entry in entries {
            out.push(add_in(&tx, entry, now)?);
        }
        tx.commit()?;
        Ok(out)
    }

    pub fn get(&self, id: i64) -> Result<Entry> {
        let row = self
            .conn
            .query_row(
                "SELECT id, position_json, gnubg_id, xgid, title, note, source, created, \
                 updated, analysis, analysis_depth, due, interval_days, ease, reviews, \
                 error, player, kind, played, stability, difficulty, fsrs_state, lapses, \
                 last_review FROM entries WHERE id = ?1",
                [id],
                |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, String>(3)?,
                        r.get::<_, String>(4)?,
                        r.get::<_, String>(5)?,
                        r.get::<_, String>(6)?,
                        r.get::<_, i64>(7)?,
                        r.get::<_, i64>(8)?,
                        r.get::<_, Option<String>>(9)?,
                        r.get::<_, Option<String>>(10)?,
                        Schedule {
                            due: r.get(11)?,
                            interval_days: r.get(12)?,
                            reviews: r.get(14)?,
                            stability: r.get(19)?,
                            difficulty: r.get(20)?,
                            state: r.get(21)?,
                            lapses: r.get(22)?,
                            last_review: r.get(23)?,
                        },
                        DecisionKind::from_name(&r.get::<_, String>(17)?).map(|kind| {
                            Ok::<_, rusqlite::Error>(Decision::new(
                                r.get(16)?,
                                kind,
                                r.get(18)?,
                                r.get(15)?,
                            ))
                        }),
                    ))
                },
            )
            .optional()?
            .ok_or(LibraryError::NoEntry(id))?;
        let (id, pos, gnubg_id, xgid, title, note, source, created, updated, a, d, schedule, dec) =
            row;
        Ok(Entry {
            id,
            position: decode_position(id, &pos)?,
            gnubg_id,
            xgid,
            title,
            note,
            tags: self.tags_of(id)?,
            collections: self.collections_of(id)?,
            source: Source::from_text(&source),
            created,
            updated,
            analysis: a.map(|text| Analysis {
                text,
                depth: d.unwrap_or_default(),
            }),
            schedule,
            decision: dec.transpose()?,
        })
    }

    /// The entry holding this position, if any.
    pub fn find(&self, position: &Position) -> Result<Option<i64>> {
        let (gnubg, xgid) = ids_of(position);
        Ok(self
            .conn
            .query_row(
                "SELECT id FROM entries WHERE gnubg_id = ?1 AND xgid = ?2",
                params![gnubg, xgid],
                |r| r.get(0),
            )
            .optional()?)
    }

    fn tags_of(&self, id: i64) -> Result<Vec<String>> {
        let mut st = self
            .conn
            .prepare_cached("SELECT tag FROM tags WHERE entry_id = ?1 ORDER BY tag")?;
        let rows = st.query_map([id], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    fn collections_of(&self, id: i64) -> Result<Vec<String>> {
        let mut st = self.conn.prepare_cached(
            "SELECT c.name FROM entry_collections ec JOIN collections c ON c.id = ec.collection_id \
             WHERE ec.entry_id = ?1 ORDER BY c.name",
        )?;
        let rows = st.query_map([id], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// The query as SQL. Text of 3+ characters is looked up in the trigram
    /// index, unless other terms restrict the search and the text is so
    /// common that the index would hand most of the library to them one by
    /// one (`AAAA race`: four in five random IDs hold `AAAA`): then each
    /// row of the narrow `entries_scan` is tested instead, newest first, and
    /// a page or a capped count stops at its last match. How common is
    /// bounded by the index's own statistics: no phrase is in more entries
    /// than its rarest trigram.
    fn selection(&self, query: &Query) -> Result<Selection> {
        let texts: Vec<&str> = query
            .terms
            .iter()
            .filter_map(|t| match &t.condition {
                Condition::Text(text) if !t.negated && indexed_text(text) => Some(text.as_str()),
                _ => None,
            })
            .collect();
        let restricted = texts.len() < query.terms.len();
        if texts.is_empty() || !restricted {
            return Ok(select(query, now(), true));
        }
        let size: i64 = self
            .conn
            .prepare_cached("SELECT coalesce(max(id), 0) FROM entries")?
            .query_row([], |r| r.get(0))?;
        let mut vocab = self
            .conn
            .prepare_cached("SELECT doc FROM entries_vocab WHERE term = ?1")?;
        let mut bound = i64::MAX;
        for text in texts {
            let chars: Vec<char> = text.to_lowercase().chars().collect();
            for trigram in chars.windows(MIN_INDEXED_TEXT) {
                let term: String = trigram.iter().collect();
                let docs: i64 = vocab
                    .query_row([&term], |r| r.get(0))
                    .optional()?
                    .unwrap_or(0);
                bound = bound.min(docs);
            }
        }
        let common = bound.saturating_mul(COMMON_TEXT_PARTS) > size;
        Ok(select(query, now(), !common))
    }

    /// How many entries match.
    pub fn count(&self, query: &Query) -> Result<u64> {
        let sel = self.selection(query)?;
        let sql = format!("SELECT count(*){}", sel.count_from());
        let mut st = self.conn.prepare_cached(&sql)?;
        let n: i64 = st.query_row(rusqlite::params_from_iter(sel.args.iter()), |r| r.get(0))?;
        Ok(n as u64)
    }

    /// How many entries match, counting no further than `cap`: the panel
    /// needs the count only as far as its list can scroll before it asks
    /// again, and a count that stops early costs what the first matches
    /// cost, not the whole library.
    pub fn count_up_to(&self, query: &Query, cap: u64) -> Result<Counted> {
        let sel = self.selection(query)?;
        let sql = format!(
            "SELECT count(*) FROM (SELECT 1{} LIMIT ?)",
            sel.count_from()
        );
        let mut args = sel.args;
        // One more than the cap tells "exactly cap" from "more".
        args.push(Arg::Int(cap.saturating_add(1).min(i64::MAX as u64) as i64));
        let mut st = self.conn.prepare_cached(&sql)?;
        let n: i64 = st.query_row(rusqlite::params_from_iter(args.iter()), |r| r.get(0))?;
        let n = n as u64;
        Ok(Counted {
            total: n.min(cap),
            exact: n <= cap,
        })
    }

    /// What the panel shows for a filter: the page at `offset` (newest
    /// first) and the count. A first page that is not full is every match,
    /// so nothing more is counted; otherwise the count goes `ahead` entries
    /// past the page (the list asks again further on), so a filter that
    /// most of a large library matches answers as fast as a narrow one. An
    /// offset past the end (after a delete) gives the last page; the offset
    /// used is returned.
    pub fn search_page(
        &self,
        query: &Query,
        offset: u64,
        limit: u64,
        ahead: u64,
    ) -> Result<(Counted, u64, Vec<Summary>)> {
        let mut rows = self.page(query, offset, limit)?;
        let counted = if offset == 0 && (rows.len() as u64) < limit {
            Counted {
                total: rows.len() as u64,
                exact: true,
            }
        } else {
            let cap = offset.saturating_add(limit).saturating_add(ahead);
            self.count_up_to(query, cap)?
        };
        let mut offset = offset;
        if rows.is_empty() && counted.total > 0 {
            offset = (counted.total - 1) / limit.max(1) * limit.max(1);
            rows = self.page(query, offset, limit)?;
        }
        Ok((counted, offset, rows))
    }

    /// One page of matching entries, newest first.
    pub fn page(&self, query: &Query, offset: u64, limit: u64) -> Result<Vec<Summary>> {
        let sel = self.selection(query)?;
        if facets(query).is_empty() {
            return self.summaries(sel, offset, limit);
        }
        // Find the page's ids in the covering index, then read those rows.
        // Newest first in the order the outermost table yields (the text
        // index yields its ids newest first itself), so the page stops at
        // its last row instead of sorting every match.
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS} \
             FROM entries e WHERE e.id IN (SELECT e.id{} ORDER BY {} DESC LIMIT ? OFFSET ?) \
             ORDER BY e.id DESC",
            sel.from,
            id_order(&sel)
        );
        self.summaries_of(
            &sql,
            rusqlite::params_from_iter(sel.page_args(offset, limit)),
        )
    }

    /// Lets SQLite gather statistics where they are stale (after an import).
    pub fn optimize(&self) -> Result<()> {
        self.conn.execute_batch("PRAGMA optimize")?;
        Ok(())
    }

    /// Every matching entry's summary in `order`, one at a time (for
    /// `list`): one query, no offsets, memory flat.
    pub fn for_each_summary(
        &self,
        query: &Query,
        order: Order,
        mut f: impl FnMut(&Summary) -> Result<()>,
    ) -> Result<u64> {
        let sel = self.selection(query)?;
        let by = match order {
            Order::Newest => format!("{} DESC", id_order(&sel)),
            // NULLs (no error known) sort last in descending order.
            Order::Error => format!("e.error DESC, {} DESC", id_order(&sel)),
        };
        let sql = format!("SELECT {SUMMARY_COLUMNS}{} ORDER BY {by}", sel.from,);
        let mut st = self.conn.prepare(&sql)?;
        let mut rows = st.query(rusqlite::params_from_iter(sel.args.iter()))?;
        let mut n = 0;
        while let Some(r) = rows.next()? {
            let s = summary(r)?;
            f(&s)?;
            n += 1;
        }
        Ok(n)
    }

    /// Entries of `collection` due for review at `now`, the longest due first.
    /// What a quiz named `name` asks: a single word is a collection's due
    /// entries, longest due first; anything else is a filter (`tag:blitz
    /// race`, `col:drill error>=0.06`), whose due entries come newest
    /// first; nothing at all is every due entry.
    pub fn quiz_queue(&self, name: &str, now: i64, limit: u64) -> Result<Vec<Summary>> {
        let name = name.trim();
        let word = !name.is_empty()
            && !name.contains(|c: char| c.is_whitespace() || ":<>=!\"".contains(c));
        if word {
            return self.due(name, now, limit);
        }
        let query = super::filter::parse(&format!("{name} due"))
            .map_err(|e| LibraryError::Invalid(e.to_string()))?;
        self.page(&query, 0, limit)
    }

    pub fn due(&self, collection: &str, now: i64, limit: u64) -> Result<Vec<Summary>> {
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS} \
             FROM entries e WHERE e.due <= ?1 AND e.id IN (SELECT ec.entry_id FROM \
             entry_collections ec JOIN collections c ON c.id = ec.collection_id WHERE c.name = ?2) \
             ORDER BY e.due, e.id LIMIT ?3"
        );
        let limit = limit.min(i64::MAX as u64) as i64;
        self.summaries_of(&sql, params![now, collection, limit])
    }

    /// The summaries a query selects (its columns as `summary` reads them).
    fn summaries_of(&self, sql: &str, args: impl rusqlite::Params) -> Result<Vec<Summary>> {
        let mut st = self.conn.prepare_cached(sql)?;
        let mut rows = st.query(args)?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            out.push(summary(r)?);
        }
        Ok(out)
    }

    /// One page of a selection, newest first.
    fn summaries(&self, sel: Selection, offset: u64, limit: u64) -> Result<Vec<Summary>> {
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS}{} ORDER BY {} DESC LIMIT ? OFFSET ?",
            sel.from,
            id_order(&sel)
        );
        self.summaries_of(
            &sql,
            rusqlite::params_from_iter(sel.page_args(offset, limit)),
        )
    }

    /// Every matching entry, oldest first, one at a time (for export): the
    /// memory used does not grow with the library.
    pub fn for_each(&self, query: &Query, mut f: impl FnMut(Entry) -> Result<()>) -> Result<u64> {
        let sel = self.selection(query)?;
        let sql = format!("SELECT e.id{} ORDER BY {}", sel.from, id_order(&sel));
        let mut st = self.conn.prepare(&sql)?;
        let mut rows = st.query(rusqlite::params_from_iter(sel.args.iter()))?;
        let mut n = 0;
        while let Some(r) = rows.next()? {
            f(self.get(r.get(0)?)?)?;
            n += 1;
        }
        Ok(n)
    }

    /// Changes an entry. A new position that another entry already holds is
    /// refused.
    pub fn update(&mut self, id: i64, edit: &EntryEdit) -> Result<()> {
        let now = now();
        let tx = self.write()?;
        let exists: bool = tx
            .query_row("SELECT 1 FROM entries WHERE id = ?1", [id], |_| Ok(true))
            .optional()?
            .unwrap_or(false);
        if !exists {
            return Err(LibraryError::NoEntry(id));
        }
        unindex(&tx, id)?;
        if let Some(position) = &edit.position {
            let (gnubg, xgid) = ids_of(position);
            let other: Option<i64> = tx
                .query_row(
                    "SELECT id FROM entries WHERE gnubg_id = ?1 AND xgid = ?2 AND id <> ?3",
                    params![gnubg, xgid, id],
                    |r| r.get(0),
                )
                .optional()?;
            if let Some(other) = other {
                return Err(LibraryError::Invalid(format!(
                    "that position is already entry {other}"
                )));
            }
            let mut args = vec![
                Value::Integer(id),
                Value::Text(gnubg),
                Value::Text(xgid),
                Value::Text(stored_json(position)),
            ];
            args.extend(derived_params(position));
            tx.prepare_cached(concat!(
                "UPDATE entries SET gnubg_id = ?2, xgid = ?3, position_json = ?4, (",
                derived_columns!(),
                ") = (?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, \
                 ?21, ?22) WHERE id = ?1"
            ))?
            .execute(rusqlite::params_from_iter(args))?;
        }
        if let Some(title) = &edit.title {
            tx.execute(
                "UPDATE entries SET title = ?2 WHERE id = ?1",
                params![id, clean_line(title, "title")?],
            )?;
        }
        if let Some(note) = &edit.note {
            tx.execute(
                "UPDATE entries SET note = ?2 WHERE id = ?1",
                params![id, bounded(note, MAX_NOTE_LEN, "note")?],
            )?;
        }
        if let Some(a) = &edit.analysis {
            tx.execute(
                "UPDATE entries SET analysis = ?2, analysis_depth = ?3 WHERE id = ?1",
                params![
                    id,
                    bounded(&a.text, MAX_NOTE_LEN, "analysis")?,
                    clean_line(&a.depth, "analysis depth")?
                ],
            )?;
        }
        if let Some(tags) = &edit.tags {
            tx.execute("DELETE FROM tags WHERE entry_id = ?1", [id])?;
            // add_tags writes the tags' text only when there are some.
            tx.execute("UPDATE entries SET tags_text = '' WHERE id = ?1", [id])?;
            add_tags(&tx, id, tags)?;
        }
        if let Some(cols) = &edit.collections {
            tx.execute("DELETE FROM entry_collections WHERE entry_id = ?1", [id])?;
            add_collections(&tx, id, cols)?;
        }
        tx.execute(
            "UPDATE entries SET updated = ?2 WHERE id = ?1",
            params![id, now],
        )?;
        index(&tx, id)?;
        tx.commit()?;
        Ok(())
    }

    /// Deletes an entry and gives it back whole, so it can be restored.
    pub fn delete(&mut self, id: i64) -> Result<Entry> {
        let entry = self.get(id)?;
        let tx = self.write()?;
        unindex(&tx, id)?;
        let n = tx.execute("DELETE FROM entries WHERE id = ?1", [id])?;
        tx.commit()?;
        if n == 0 {
            return Err(LibraryError::NoEntry(id));
        }
        Ok(entry)
    }

    /// Puts a deleted entry back under its old id (undo of a delete).
    pub fn restore(&mut self, entry: &Entry) -> Result<()> {
        let tx = self.write()?;
        if let Some(other) = tx
            .query_row(
                "SELECT id FROM entries WHERE gnubg_id = ?1 AND xgid = ?2",
                params![entry.gnubg_id, entry.xgid],
                |r| r.get::<_, i64>(0),
            )
            .optional()?
        {
            return Err(LibraryError::Invalid(format!(
                "that position is back already, as entry {other}"
            )));
        }
        insert_row(
            &tx,
            Some(entry.id),
            (entry.gnubg_id.clone(), entry.xgid.clone()),
            &entry.position,
            &entry.title,
            &entry.note,
            &entry.source,
            entry.analysis.as_ref(),
            entry.created,
            &entry.schedule,
        )?;
        tx.execute(
            "UPDATE entries SET updated = ?2 WHERE id = ?1",
            params![entry.id, entry.updated],
        )?;
        if let Some(d) = &entry.decision {
            write_decision(&tx, entry.id, d)?;
        }
        add_tags(&tx, entry.id, &entry.tags)?;
        add_collections(&tx, entry.id, &entry.collections)?;
        index(&tx, entry.id)?;
        tx.commit()?;
        Ok(())
    }

    /// Records a review and returns the new schedule.
    /// Reschedules entry `id` after a review rated `rating` at `now`, and
    /// keeps the quiz's answer for the statistics when there is one.
    pub fn review(
        &mut self,
        id: i64,
        rating: Rating,
        now: i64,
        result: Option<&QuizResult>,
    ) -> Result<Schedule> {
        let tx = self.write()?;
        let old = tx
            .query_row(
                "SELECT due, interval_days, reviews, stability, difficulty, fsrs_state, lapses, \
                 last_review FROM entries WHERE id = ?1",
                [id],
                |r| {
                    Ok(Schedule {
                        due: r.get(0)?,
                        interval_days: r.get(1)?,
                        reviews: r.get(2)?,
                        stability: r.get(3)?,
                        difficulty: r.get(4)?,
                        state: r.get(5)?,
                        lapses: r.get(6)?,
                        last_review: r.get(7)?,
                    })
                },
            )
            .optional()?
            .ok_or(LibraryError::NoEntry(id))?;
        let next = old.after(rating, now);
        tx.execute(
            "UPDATE entries SET due = ?2, interval_days = ?3, reviews = ?4, stability = ?5, \
             difficulty = ?6, fsrs_state = ?7, lapses = ?8, last_review = ?9 WHERE id = ?1",
            params![
                id,
                next.due,
                next.interval_days,
                next.reviews,
                next.stability,
                next.difficulty,
                next.state,
                next.lapses,
                next.last_review
            ],
        )?;
        if let Some(r) = result {
            tx.execute(
                "INSERT INTO quiz_results (entry_id, collection, at, rating, grade, error) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![id, r.collection, now, rating.number(), r.grade, r.error],
            )?;
        }
        tx.commit()?;
        Ok(next)
    }

    /// gnubg's analysis a quiz of entry `id` was graded by (JSON), if any.
    pub fn quiz_analysis(&self, id: i64) -> Result<Option<String>> {
        Ok(self
            .conn
            .query_row(
                "SELECT quiz_analysis FROM entries WHERE id = ?1",
                [id],
                |r| r.get::<_, Option<String>>(0),
            )
            .optional()?
            .flatten())
    }

    /// Keeps gnubg's analysis a quiz of entry `id` was graded by.
    pub fn keep_quiz_analysis(&mut self, id: i64, json: &str) -> Result<()> {
        bounded(json, MAX_NOTE_LEN, "quiz analysis")?;
        let tx = self.write()?;
        tx.execute(
            "UPDATE entries SET quiz_analysis = ?2 WHERE id = ?1",
            params![id, json],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// The quiz's statistics: of one collection, or of every answer.
    pub fn quiz_stats(&self, collection: Option<&str>) -> Result<QuizStats> {
        let filter = "(?1 IS NULL OR collection = ?1)";
        let mut stats = self.conn.query_row(
            &format!(
                "SELECT count(*), count(error), coalesce(sum(grade = 'correct'), 0), \
                 avg(error) * 1000 FROM quiz_results WHERE {filter}"
            ),
            params![collection],
            |r| {
                Ok(QuizStats {
                    answers: r.get(0)?,
                    graded: r.get(1)?,
                    correct: r.get(2)?,
                    mean_memg: r.get(3)?,
                    ..QuizStats::default()
                })
            },
        )?;
        // Weeks from Monday: the Unix epoch was a Thursday.
        let mut st = self.conn.prepare(&format!(
            "SELECT (at - 345600) / 604800 * 604800 + 345600 AS week, count(*), \
             coalesce(sum(grade = 'correct'), 0), avg(error) * 1000 FROM quiz_results \
             WHERE {filter} GROUP BY week ORDER BY week"
        ))?;
        stats.weeks = st
            .query_map(params![collection], |r| {
                Ok(WeekStats {
                    start: r.get(0)?,
                    answers: r.get(1)?,
                    correct: r.get(2)?,
                    mean_memg: r.get(3)?,
                })
            })?
            .collect::<std::result::Result<_, _>>()?;
        let mut st = self.conn.prepare(&format!(
            "SELECT q.entry_id, e.title, sum(q.grade IN ('bad', 'very bad') OR q.rating = 1) \
             AS missed, count(*) FROM quiz_results q JOIN entries e ON e.id = q.entry_id \
             WHERE {filter} GROUP BY q.entry_id HAVING missed > 0 \
             ORDER BY missed DESC, q.entry_id LIMIT 5"
        ))?;
        stats.missed = st
            .query_map(params![collection], |r| {
                Ok(Missed {
                    id: r.get(0)?,
                    title: r.get(1)?,
                    missed: r.get(2)?,
                    answers: r.get(3)?,
                })
            })?
            .collect::<std::result::Result<_, _>>()?;
        Ok(stats)
    }

    /// The collections with quiz answers, by name.
    pub fn quizzed_collections(&self) -> Result<Vec<String>> {
        let mut st = self
            .conn
            .prepare("SELECT DISTINCT collection FROM quiz_results ORDER BY collection")?;
        let names = st
            .query_map([], |r| r.get(0))?
            .collect::<std::result::Result<_, _>>()?;
        Ok(names)
    }
}

/// A row of `id, title, tags_text, position_json, score_o, score_x, error`.
/// The columns `summary` reads, in its order: the note's start (its first
/// line is shown) and the entry's collections come with the row, so a list
/// needs one query.
const SUMMARY_COLUMNS: &str = "e.id, e.title, e.tags_text, e.position_json, e.score_o, \
     e.score_x, e.error, substr(e.note, 1, 200), (SELECT group_concat(c.name, ' ') FROM \
     entry_collections ec JOIN collections c ON c.id = ec.collection_id WHERE ec.entry_id = e.id)";

fn summary(r: &rusqlite::Row<'_>) -> Result<Summary> {
    let id: i64 = r.get(0)?;
    let position = decode_position(id, &r.get::<_, String>(3)?)?;
    Ok(Summary {
        id,
        title: r.get(1)?,
        tags: r.get(2)?,
        derived: derive(&position),
        position,
        score: [r.get(4)?, r.get(5)?],
        error: r.get::<_, Option<f64>>(6)?.filter(|e| e.is_finite()),
        note_line: r
            .get::<_, String>(7)?
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or_default()
            .to_owned(),
        collections: r.get::<_, Option<String>>(8)?.unwrap_or_default(),
    })
}

/// The model's JSON as stored: every field, without the derived pips and IDs
/// (the IDs have their own columns), so rows stay narrow.
fn stored_json(position: &Position) -> String {
    let mut value = json::to_json(position);
    value.pips = None;
    value.ids = None;
    serde_json::to_string(&value).unwrap_or_default()
}

fn decode_position(id: i64, text: &str) -> Result<Position> {
    json::decode(text).map_err(|e| LibraryError::Damaged {
        path: "the library".to_owned(),
        why: format!("entry {id}'s position cannot be read: {e}"),
    })
}

fn ids_of(position: &Position) -> (String, String) {
    (
        codec::to_string_as(position, IdFormat::GnubgId),
        codec::to_string_as(position, IdFormat::Xgid),
    )
}

/// Whether `entry` can be stored as it is: its note and analysis within
/// [`MAX_NOTE_LEN`], its title and names one bounded line. An import checks
/// each entry first, so that one entry too large fails alone instead of
/// aborting the batch (and the files after it).
pub fn check_entry(entry: &NewEntry) -> Result<()> {
    bounded(&entry.note, MAX_NOTE_LEN, "note")?;
    if let Some(a) = &entry.analysis {
        bounded(&a.text, MAX_NOTE_LEN, "analysis")?;
    }
    clean_line(&entry.title, "title")?;
    for tag in &entry.tags {
        clean_line(tag, "tag")?;
    }
    for c in &entry.collections {
        clean_line(c, "collection")?;
    }
    Ok(())
}

fn bounded(text: &str, max: usize, what: &str) -> Result<String> {
    if text.len() > max {
        return Err(LibraryError::Invalid(format!(
            "the {what} is {} bytes; at most {max} are kept",
            text.len()
        )));
    }
    Ok(text.to_owned())
}

/// A title, tag or collection name: one line, trimmed, bounded.
fn clean_line(text: &str, what: &str) -> Result<String> {
    let text = text.trim();
    if text.chars().any(char::is_control) {
        return Err(LibraryError::Invalid(format!(
            "the {what} {text:?} has a control character; it is one line of text"
        )));
    }
    bounded(text, MAX_NAME_LEN, what)
}

/// A tag or collection name: no spaces (the filter language splits on them).
fn clean_name(text: &str, what: &str) -> Result<String> {
    let text = clean_line(text, what)?;
    if text.is_empty() || text.contains(char::is_whitespace) {
        return Err(LibraryError::Invalid(format!(
            "the {what} {text:?} must be one word (use - or _ between words)"
        )));
    }
    Ok(text)
}

/// The derived filter columns, in the order [`derived_params`] gives them.
macro_rules! derived_columns {
    () => {
        "pips_o, pips_x, pips_on_roll, pip_diff, race, bar, match_length, score_o, score_x, \
         crawford, cube, on_roll, points, opp_points, blots, back, prime, home"
    };
}
use derived_columns;

/// The values of [`derived_columns`] for a position: the one place that
/// binds them, for a new row and for a changed position.
fn derived_params(position: &Position) -> [Value; 18] {
    let d = derive(position);
    let int = |v: i64| Value::Integer(v);
    let st = d.structure;
    [
        int(d.pips_o.into()),
        int(d.pips_x.into()),
        int(d.pips_on_roll.into()),
        int(d.pip_diff),
        int(d.race.into()),
        int(d.bar.into()),
        int(d.match_length.into()),
        int(position.state.score[0].into()),
        int(position.state.score[1].into()),
        int(d.crawford.into()),
        int(d.cube.into()),
        Value::Text(d.on_roll.to_string()),
        int(st.points.into()),
        int(st.opp_points.into()),
        int(st.blots.into()),
        int(st.back.into()),
        int(st.prime.into()),
        int(st.home.into()),
    ]
}

/// Writes a match decision's columns (kept apart from the insert: most
/// entries have none).
fn write_decision(tx: &rusqlite::Transaction<'_>, id: i64, d: &Decision) -> Result<()> {
    tx.prepare_cached(
        "UPDATE entries SET error = ?2, player = ?3, kind = ?4, played = ?5 WHERE id = ?1",
    )?
    .execute(params![
        id,
        d.error,
        clean_line(&d.player, "player")?,
        d.kind.name(),
        clean_line(&d.played, "played move")?
    ])?;
    Ok(())
}

/// Fills the structure columns of the rows a schema before 6 left at 0
/// (migration 6 adds them; SQL cannot read the position's JSON).
fn fill_structure(tx: &rusqlite::Transaction<'_>) -> Result<()> {
    let mut read = tx.prepare("SELECT id, position_json FROM entries")?;
    let mut write = tx.prepare(
        "UPDATE entries SET points = ?2, opp_points = ?3, blots = ?4, back = ?5, prime = ?6, \
         home = ?7 WHERE id = ?1",
    )?;
    let mut rows = read.query([])?;
    while let Some(r) = rows.next()? {
        let id: i64 = r.get(0)?;
        let st = derive(&decode_position(id, &r.get::<_, String>(1)?)?).structure;
        write.execute(params![
            id,
            st.points,
            st.opp_points,
            st.blots,
            st.back,
            st.prime,
            st.home
        ])?;
    }
    Ok(())
}

/// The text columns of an entry as the index holds them.
fn indexed_values(tx: &rusqlite::Transaction<'_>, id: i64) -> Result<Option<[String; 5]>> {
    Ok(tx
        .prepare_cached("SELECT title, note, tags_text, gnubg_id, xgid FROM entries WHERE id = ?1")?
        .query_row([id], |r| {
            Ok([r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?])
        })
        .optional()?)
}

/// Adds an entry's text to the index, after every change to the row. The
/// store keeps the index (see schema V4 for why not triggers); each is one
/// single-row statement, which FTS5 keeps in memory until the commit.
fn index(tx: &rusqlite::Transaction<'_>, id: i64) -> Result<()> {
    if let Some([title, note, tags, gnubg, xgid]) = indexed_values(tx, id)? {
        index_text(tx, id, [&title, &note, &tags, &gnubg, &xgid])?;
    }
    Ok(())
}

/// Adds `[title, note, tags_text, gnubg_id, xgid]` under `id`: what the row
/// holds (an import knows it without reading the row back).
fn index_text(tx: &rusqlite::Transaction<'_>, id: i64, text: [&str; 5]) -> Result<()> {
    let [title, note, tags, gnubg, xgid] = text;
    tx.prepare_cached(
        "INSERT INTO entries_text (rowid, title, note, tags_text, gnubg_id, xgid) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![id, title, note, tags, gnubg, xgid])?;
    Ok(())
}

/// Takes an entry's text out of the index, before its row changes or goes:
/// an external-content index must be told the values it indexed.
fn unindex(tx: &rusqlite::Transaction<'_>, id: i64) -> Result<()> {
    if let Some([title, note, tags, gnubg, xgid]) = indexed_values(tx, id)? {
        tx.prepare_cached(
            "INSERT INTO entries_text (entries_text, rowid, title, note, tags_text, gnubg_id, \
             xgid) VALUES ('delete', ?1, ?2, ?3, ?4, ?5, ?6)",
        )?
        .execute(params![id, title, note, tags, gnubg, xgid])?;
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn insert_row(
    tx: &rusqlite::Transaction<'_>,
    id: Option<i64>,
    (gnubg, xgid): (String, String),
    position: &Position,
    title: &str,
    note: &str,
    source: &Source,
    analysis: Option<&Analysis>,
    created: i64,
    schedule: &Schedule,
) -> Result<i64> {
    let mut args = vec![
        id.map_or(Value::Null, Value::Integer),
        Value::Text(gnubg),
        Value::Text(xgid),
        Value::Text(stored_json(position)),
        Value::Text(clean_line(title, "title")?),
        Value::Text(bounded(note, MAX_NOTE_LEN, "note")?),
        Value::Text(source.to_text()),
        Value::Integer(created),
        analysis.map_or(Value::Null, |a| Value::Text(a.text.clone())),
        analysis.map_or(Value::Null, |a| Value::Text(a.depth.clone())),
        Value::Integer(schedule.due),
        Value::Real(schedule.interval_days),
        // SM-2's ease, kept for files read by an older bgedit: unused now.
        Value::Real(2.5),
        Value::Integer(i64::from(schedule.reviews)),
    ];
    args.extend(derived_params(position));
    args.extend([
        Value::Real(schedule.stability),
        Value::Real(schedule.difficulty),
        Value::Integer(i64::from(schedule.state)),
        Value::Integer(i64::from(schedule.lapses)),
        Value::Integer(schedule.last_review),
    ]);
    tx.prepare_cached(concat!(
        "INSERT INTO entries (id, gnubg_id, xgid, position_json, title, note, source, created, \
         updated, analysis, analysis_depth, due, interval_days, ease, reviews, ",
        derived_columns!(),
        ", stability, difficulty, fsrs_state, lapses, last_review) VALUES (?1, ?2, ?3, ?4, ?5, \
         ?6, ?7, ?8, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, \
         ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, ?32, ?33, ?34, ?35, ?36, ?37)"
    ))?
    .execute(rusqlite::params_from_iter(args))?;
    Ok(tx.last_insert_rowid())
}

fn add_in(tx: &rusqlite::Transaction<'_>, entry: &NewEntry, now: i64) -> Result<Added> {
    if let Some(a) = &entry.analysis {
        bounded(&a.text, MAX_NOTE_LEN, "analysis")?;
    }
    let (gnubg, xgid) = ids_of(&entry.position);
    let existing: Option<i64> = tx
        .prepare_cached("SELECT id FROM entries WHERE gnubg_id = ?1 AND xgid = ?2")?
        .query_row(params![gnubg, xgid], |r| r.get(0))
        .optional()?;
    let added = match existing {
        Some(id) => {
            unindex(tx, id)?;
            // Merge: keep what is there, fill what is empty.
            tx.execute(
                "UPDATE entries SET \
                 title = CASE WHEN title = '' THEN ?2 ELSE title END, \
                 note = CASE WHEN note = '' THEN ?3 ELSE note END, \
                 analysis = coalesce(analysis, ?4), \
                 analysis_depth = CASE WHEN analysis IS NULL THEN ?5 ELSE analysis_depth END, \
                 updated = ?6 WHERE id = ?1",
                params![
                    id,
                    clean_line(&entry.title, "title")?,
                    bounded(&entry.note, MAX_NOTE_LEN, "note")?,
                    entry.analysis.as_ref().map(|a| a.text.as_str()),
                    entry.analysis.as_ref().map(|a| a.depth.as_str()),
                    now
                ],
            )?;
            if let Some(d) = &entry.decision {
                let has: bool =
                    tx.query_row("SELECT kind <> '' FROM entries WHERE id = ?1", [id], |r| {
                        r.get(0)
                    })?;
                if !has {
                    write_decision(tx, id, d)?;
                }
            }
            Added::Existing(id)
        }
        None => {
            let title = clean_line(&entry.title, "title")?;
            let id = insert_row(
                tx,
                None,
                (gnubg.clone(), xgid.clone()),
                &entry.position,
                &title,
                &entry.note,
                &entry.source,
                entry.analysis.as_ref(),
                now,
                &Schedule::new(now),
            )?;
            if let Some(d) = &entry.decision {
                write_decision(tx, id, d)?;
            }
            add_tags(tx, id, &entry.tags)?;
            add_collections(tx, id, &entry.collections)?;
            if entry.tags.is_empty() {
                index_text(tx, id, [&title, &entry.note, "", &gnubg, &xgid])?;
            } else {
                index(tx, id)?;
            }
            return Ok(Added::New(id));
        }
    };
    add_tags(tx, added.id(), &entry.tags)?;
    add_collections(tx, added.id(), &entry.collections)?;
    index(tx, added.id())?;
    Ok(added)
}

fn add_tags(tx: &rusqlite::Transaction<'_>, id: i64, tags: &[String]) -> Result<()> {
    if tags.is_empty() {
        return Ok(());
    }
    let mut st = tx.prepare_cached("INSERT OR IGNORE INTO tags (entry_id, tag) VALUES (?1, ?2)")?;
    for tag in tags {
        st.execute(params![id, clean_name(tag, "tag")?])?;
    }
    // The list shows tags as one text, kept beside the table.
    tx.execute(
        "UPDATE entries SET tags_text = coalesce((SELECT group_concat(tag, ' ') FROM \
         (SELECT tag FROM tags WHERE entry_id = ?1 ORDER BY tag)), '') WHERE id = ?1",
        [id],
    )?;
    Ok(())
}

fn add_collections(tx: &rusqlite::Transaction<'_>, id: i64, names: &[String]) -> Result<()> {
    let mut upsert = tx.prepare_cached("INSERT OR IGNORE INTO collections (name) VALUES (?1)")?;
    let mut link = tx.prepare_cached(
        "INSERT OR IGNORE INTO entry_collections (entry_id, collection_id) \
         SELECT ?1, id FROM collections WHERE name = ?2",
    )?;
    for name in names {
        let name = clean_name(name, "collection")?;
        upsert.execute([&name])?;
        link.execute(params![id, name])?;
    }
    Ok(())
}

/// A value bound to a `?` in a filter's SQL.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Int(i64),
    Real(f64),
    Text(String),
}

impl rusqlite::ToSql for Arg {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        match self {
            Arg::Int(i) => i.to_sql(),
            Arg::Real(r) => r.to_sql(),
            Arg::Text(t) => t.to_sql(),
        }
    }
}

/// Text of at least this many characters is looked up in the trigram index;
/// shorter text has no trigram to look up and is a scan.
pub const MIN_INDEXED_TEXT: usize = 3;

/// A query as SQL over `entries e`: the FROM and WHERE part and its
/// arguments. Text of 3 characters or more is matched on the FTS5 trigram
/// index (`entries_text t`, joined to its entry by rowid); every structured
/// filter is a test on an indexed column; only 1–2 character text is a scan
/// (`LIKE` over the text columns).
#[derive(Clone, Debug, PartialEq)]
pub struct Selection {
    /// ` FROM … WHERE …`, with a leading space.
    pub from: String,
    pub args: Vec<Arg>,
    /// Whether the rows come from the text index (its rowid order is the
    /// entries' id order).
    pub text_index: bool,
    /// Whether anything but the text index restricts the rows.
    pub restricted: bool,
}

impl Selection {
    /// The FROM and WHERE to count: text alone is counted in the index,
    /// without reading an entry.
    fn count_from(&self) -> &str {
        if self.text_index && !self.restricted {
            " FROM entries_text WHERE entries_text MATCH ?"
        } else {
            &self.from
        }
    }

    /// The arguments, then LIMIT and OFFSET.
    fn page_args(self, offset: u64, limit: u64) -> Vec<Arg> {
        let mut args = self.args;
        args.push(Arg::Int(limit.min(i64::MAX as u64) as i64));
        args.push(Arg::Int(offset.min(i64::MAX as u64) as i64));
        args
    }
}

/// `"…"`: one FTS5 string, so the text is matched as typed (a phrase of
/// trigrams: a substring, case-folded), whatever characters it holds.
fn fts_phrase(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

/// `INDEXED BY entries_facets` when the query has a structured filter and no
/// free text: its columns are all in that index, so SQLite counts and pages
/// from the index instead of reading rows.
fn facets(query: &Query) -> &'static str {
    let structured = query.terms.iter().any(|t| {
        matches!(
            t.condition,
            Condition::Flag(_)
                | Condition::Compare(..)
                | Condition::Error(..)
                | Condition::Point { .. }
                | Condition::Kind(_)
        )
    });
    // Who decided and the source are in `entries_scan`, not in the facets.
    let text = query.terms.iter().any(|t| {
        matches!(
            t.condition,
            Condition::Text(_) | Condition::Player(_) | Condition::Match(_)
        )
    });
    if structured && !text {
        " INDEXED BY entries_facets"
    } else if text {
        // Text of 1–2 characters is a scan: of this narrow index, in id
        // order, so a page stops at its last row.
        " INDEXED BY entries_scan"
    } else {
        ""
    }
}

/// `%`, `_` and `\` taken literally in a LIKE pattern.
fn like_pattern(text: &str) -> String {
    let mut p = String::with_capacity(text.len() + 2);
    p.push('%');
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            p.push('\\');
        }
        p.push(c);
    }
    p.push('%');
    p
}

/// The id to order by: the text index's rowid when it drives the query, so
/// FTS5 yields rows in order and a page stops after its last row.
fn id_order(sel: &Selection) -> &'static str {
    if sel.text_index { "t.rowid" } else { "e.id" }
}

/// Text in more than one entry in this many is "common" (see
/// `Library::selection`).
const COMMON_TEXT_PARTS: i64 = 4;

fn indexed_text(text: &str) -> bool {
    text.chars().count() >= MIN_INDEXED_TEXT
}

/// The FROM and WHERE of a query (see [`Selection`]), with the text of 3+
/// characters looked up in the trigram index (`use_index`) or tested row by
/// row in `entries_scan`, as 1–2 characters always are.
pub fn select(query: &Query, now: i64, use_index: bool) -> Selection {
    let looked_up = |text: &str| use_index && indexed_text(text);
    // Every positive text term of 3+ characters goes into one MATCH: the
    // index intersects them.
    let phrases: Vec<String> = query
        .terms
        .iter()
        .filter_map(|t| match &t.condition {
            Condition::Text(text) if !t.negated && looked_up(text) => Some(fts_phrase(text)),
            _ => None,
        })
        .collect();
    let text_index = !phrases.is_empty();
    let mut sql = String::new();
    let mut args = Vec::new();
    if text_index {
        // CROSS JOIN keeps the index outermost: it yields the matching ids
        // (newest first when asked), each entry is then read by its key in
        // `entries_scan`, which holds every column a filter tests.
        sql.push_str(
            " FROM entries_text t CROSS JOIN entries e INDEXED BY entries_scan \
             ON e.id = t.rowid WHERE t.entries_text MATCH ?",
        );
        args.push(Arg::Text(phrases.join(" AND ")));
    } else {
        let _ = write!(sql, " FROM entries e{}", facets(query));
    }
    let mut first = !text_index;
    let mut restricted = false;
    // Text tests last: SQLite tests a row's terms in the order written, and
    // a flag or a number is cheaper to test than text in five columns.
    let (texts, others): (Vec<_>, Vec<_>) = query
        .terms
        .iter()
        .partition(|t| matches!(t.condition, Condition::Text(_)));
    for term in others.into_iter().chain(texts) {
        if let Condition::Text(text) = &term.condition
            && !term.negated
            && looked_up(text)
        {
            continue;
        }
        restricted = true;
        sql.push_str(if first { " WHERE " } else { " AND " });
        first = false;
        if term.negated {
            sql.push_str("NOT ");
        }
        match &term.condition {
            Condition::Flag(flag) => sql.push_str(match flag {
                Flag::Race => "(e.race = 1)",
                Flag::Contact => "(e.race = 0)",
                Flag::Bar => "(e.bar = 1)",
                Flag::Money => "(e.match_length = 0)",
                Flag::Match => "(e.match_length > 0)",
                Flag::Crawford => "(e.crawford = 1)",
                Flag::Due => {
                    args.push(Arg::Int(now));
                    "(e.due <= ?)"
                }
            }),
            Condition::Compare(field, op, value) => {
                let column = match field {
                    Field::Cube => "e.cube",
                    Field::Pips => "e.pips_on_roll",
                    Field::Diff => "e.pip_diff",
                    Field::Length => "e.match_length",
                    Field::Blots => "e.blots",
                    Field::Back => "e.back",
                    Field::Prime => "e.prime",
                    Field::Home => "e.home",
                };
                let _ = write!(sql, "({column} {} ?)", op.sql());
                args.push(Arg::Int(*value));
            }
            Condition::Error(op, value) => {
                let _ = write!(sql, "(e.error {} ?)", op.sql());
                args.push(Arg::Real(*value));
            }
            Condition::Point { opponent, point } => {
                let column = if *opponent {
                    "e.opp_points"
                } else {
                    "e.points"
                };
                let _ = write!(sql, "({column} & ? <> 0)");
                args.push(Arg::Int(1 << (point - 1)));
            }
            Condition::Kind(kind) => {
                sql.push_str("(e.kind = ?)");
                args.push(Arg::Text(kind.name().to_owned()));
            }
            Condition::Player(name) => {
                sql.push_str("(e.player LIKE ? ESCAPE '\\')");
                args.push(Arg::Text(like_pattern(name)));
            }
            Condition::Match(text) => {
                sql.push_str("(e.source LIKE ? ESCAPE '\\')");
                args.push(Arg::Text(like_pattern(text)));
            }
            Condition::Tag(tag) => {
                sql.push_str("(e.id IN (SELECT entry_id FROM tags WHERE tag = ?))");
                args.push(Arg::Text(tag.clone()));
            }
            Condition::Collection(name) => {
                sql.push_str(
                    "(e.id IN (SELECT ec.entry_id FROM entry_collections ec JOIN collections c \
                     ON c.id = ec.collection_id WHERE c.name = ?))",
                );
                args.push(Arg::Text(name.clone()));
            }
            // `!text`: the index finds the entries to leave out.
            Condition::Text(text) if term.negated && indexed_text(text) => {
                sql.push_str(
                    "(e.id IN (SELECT rowid FROM entries_text WHERE entries_text MATCH ?))",
                );
                args.push(Arg::Text(fts_phrase(text)));
            }
            // 1–2 characters (no trigram to look up), or text so common that
            // the index would not narrow the search: tested in each row of
            // `entries_scan` (the cost is documented in the README).
            Condition::Text(text) => {
                sql.push_str(
                    "(e.title LIKE ? ESCAPE '\\' OR e.note LIKE ? ESCAPE '\\' OR \
                     e.tags_text LIKE ? ESCAPE '\\' OR e.gnubg_id LIKE ? ESCAPE '\\' OR \
                     e.xgid LIKE ? ESCAPE '\\')",
                );
                for _ in 0..5 {
                    args.push(Arg::Text(like_pattern(text)));
                }
            }
        }
    }
    Selection {
        from: sql,
        args,
        text_index,
        restricted,
    }
}

/// The player on roll as the list shows it.
pub fn on_roll_text(player: Player) -> &'static str {
    match player {
        Player::O => "O",
        Player::X => "X",
    }
}
