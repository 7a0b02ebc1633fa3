//! Opening a library file safely and bringing it to the latest schema: the
//! header, application id and version checked before anything is written,
//! whether the file can be written at all, and the migrations.

use super::*;
use crate::derive::derive;
use crate::schema::{APPLICATION_ID, LATEST, MIGRATIONS};
use rusqlite::{TransactionBehavior, params};
use std::io::Read;
use std::path::Path;

pub(super) fn be32(b: &[u8]) -> u32 {
    u32::from_be_bytes([b[0], b[1], b[2], b[3]])
}

/// Why an existing library file cannot be written, if it cannot: the file
/// or its directory (where SQLite keeps its WAL and shared memory) is not
/// writable. A file still to be created is not looked at here.
pub(super) fn cannot_write(path: &Path) -> Option<String> {
    use super::reading::{directory, writable};
    if !path.is_file() {
        return None;
    }
    let dir = directory(path);
    if !writable(path) {
        Some("the file cannot be written".to_owned())
    } else if !writable(dir) {
        Some(format!("its directory {} cannot be written", dir.display()))
    } else {
        None
    }
}

/// Reads the file's first 100 bytes (SQLite's header) and refuses what is
/// not a sound bgedit library, before SQLite opens it for writing.
pub(super) fn check_header(path: &Path) -> Result<()> {
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

/// Fills the structure columns of the rows a schema before 6 left at 0
/// (migration 6 adds them; SQL cannot read the position's JSON).
pub(super) fn fill_structure(tx: &rusqlite::Transaction<'_>) -> Result<()> {
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

impl Library {
    /// Checks what SQLite sees (the header may have been fine while the
    /// schema is not ours), then turns on WAL and migrates.
    pub(super) fn prepare(&mut self) -> Result<()> {
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
    pub(super) fn migrate(&mut self) -> Result<()> {
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
            // By its text, not its number: the step is renumbered when the
            // versions before it land.
            if *step == crate::schema::V14 {
                super::like::fill_like(&tx)?;
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
}
