//! Opening a library file safely and bringing it to the latest schema: the
//! header, application id and version checked before anything is written,
//! whether the file can be written at all, and the migrations.

use super::*;
use crate::derive::{derive, plans_known, themes};
use crate::schema::{APPLICATION_ID, LATEST, MIGRATIONS, THEMES_VERSION};
use bgedit_core::domain::{Player, Position};
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

/// Dates the matches a schema before 12 kept undated from their file's
/// name, where it carries one (migration 12; SQL cannot read the names).
pub(super) fn fill_dates(tx: &rusqlite::Transaction<'_>) -> Result<()> {
    let mut read = tx.prepare("SELECT id, path FROM matches WHERE date IS NULL")?;
    let mut write =
        tx.prepare("UPDATE matches SET date = ?2, date_from = 'file name' WHERE id = ?1")?;
    let mut rows = read.query([])?;
    while let Some(r) = rows.next()? {
        let path: String = r.get(1)?;
        if let Some(date) = crate::dates::from_file_name(&path) {
            write.execute(params![r.get::<_, i64>(0)?, date])?;
        }
    }
    Ok(())
}

/// The rows of `table` lacking their themes: every row without a class,
/// and without plans where the library has a classifier (so a library
/// filled by a bgedit without Sage's core gets its plans from the next
/// that has it). Each partial index holds only such rows.
fn unthemed(
    tx: &rusqlite::Transaction<'_>,
    table: &str,
    columns: &str,
) -> Result<Vec<(i64, String, String)>> {
    let mut sql = format!("SELECT id, {columns} FROM {table} WHERE class IS NULL");
    if plans_known() {
        sql.push_str(&format!(
            " UNION SELECT id, {columns} FROM {table} WHERE plan IS NULL"
        ));
    }
    let mut read = tx.prepare(&sql)?;
    let rows = read.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Fills the theme columns (plans, class, score class, decision) of the
/// entries and match decisions that lack them: after migration 13 added
/// them, and when a library that had no classifier is opened by a bgedit
/// that has one. A decision's ID that does not read (none the store lets
/// in) is marked with empty words so it is not read again.
pub(super) fn fill_themes(tx: &rusqlite::Transaction<'_>) -> Result<()> {
    let mut write = tx.prepare(
        "UPDATE entries SET plan = ?2, opp_plan = ?3, class = ?4, score_class = ?5, \
         decision = ?6 WHERE id = ?1",
    )?;
    for (id, json, _) in unthemed(tx, "entries", "position_json, ''")? {
        let t = themes(&decode_position(id, &json)?);
        let plan = t.plan_pair();
        write.execute(params![
            id,
            plan.map(|p| p.0),
            plan.map(|p| p.1),
            t.class.name(),
            t.score.name(),
            t.decision.word()
        ])?;
    }
    let mut write = tx.prepare(
        "UPDATE decisions SET plan = ?2, opp_plan = ?3, class = ?4, score_class = ?5 \
         WHERE id = ?1",
    )?;
    for (id, gnubg_id, player) in unthemed(tx, "decisions", "gnubg_id, player")? {
        let Ok(read) = bgedit_core::codec::parse_any(&gnubg_id, &Position::default()) else {
            write.execute(params![id, "", "", "", ""])?;
            continue;
        };
        let t = themes(&read.position);
        let who = if player == "O" { Player::O } else { Player::X };
        let plans = t
            .plans
            .map(|p| (p.of(who).name(), p.of(who.opponent()).name()));
        write.execute(params![
            id,
            plans.map(|p| p.0),
            plans.map(|p| p.1),
            t.class.name(),
            t.score.name()
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
        self.migrate()?;
        self.fill_plans()
    }

    /// Fills the plans a bgedit without a classifier left unknown, when
    /// this one has one (a look in a partial index when there are none).
    fn fill_plans(&mut self) -> Result<()> {
        if !plans_known() {
            return Ok(());
        }
        let missing: bool = self.conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM entries WHERE plan IS NULL) \
             OR EXISTS (SELECT 1 FROM decisions WHERE plan IS NULL)",
            [],
            |r| r.get(0),
        )?;
        if !missing {
            return Ok(());
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        fill_themes(&tx)?;
        tx.commit()?;
        Ok(())
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
            if i + 1 == 12 {
                fill_dates(&tx)?;
            }
            if i + 1 == THEMES_VERSION {
                fill_themes(&tx)?;
            }
            if i + 1 == 14 {
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
