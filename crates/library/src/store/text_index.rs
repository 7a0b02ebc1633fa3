//! The full-text index of entries (titles, notes, tags, collections,
//! names): kept in step with every write to an entry.

use super::*;
use rusqlite::{OptionalExtension, params};

/// The text columns of an entry as the index holds them.
pub(super) fn indexed_values(
    tx: &rusqlite::Transaction<'_>,
    id: i64,
) -> Result<Option<[String; 5]>> {
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
pub(super) fn index(tx: &rusqlite::Transaction<'_>, id: i64) -> Result<()> {
    if let Some([title, note, tags, gnubg, xgid]) = indexed_values(tx, id)? {
        index_text(tx, id, [&title, &note, &tags, &gnubg, &xgid])?;
    }
    Ok(())
}

/// Adds `[title, note, tags_text, gnubg_id, xgid]` under `id`: what the row
/// holds (an import knows it without reading the row back).
pub(super) fn index_text(tx: &rusqlite::Transaction<'_>, id: i64, text: [&str; 5]) -> Result<()> {
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
pub(super) fn unindex(tx: &rusqlite::Transaction<'_>, id: i64) -> Result<()> {
    if let Some([title, note, tags, gnubg, xgid]) = indexed_values(tx, id)? {
        tx.prepare_cached(
            "INSERT INTO entries_text (entries_text, rowid, title, note, tags_text, gnubg_id, \
             xgid) VALUES ('delete', ?1, ?2, ?3, ?4, ?5, ?6)",
        )?
        .execute(params![id, title, note, tags, gnubg, xgid])?;
    }
    Ok(())
}
