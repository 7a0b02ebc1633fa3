//! The entries table and the tables hanging from it (tags, collections,
//! match decisions): what an entry is, adding, reading, editing, deleting
//! and restoring one, and the checks its text passes first.

use super::*;
use crate::derive::{derive, themes};
use crate::filter::DecisionKind;
use crate::review::Schedule;
use bgedit_core::codec::{self, IdFormat, json};
use bgedit_core::domain::Position;
use rusqlite::types::Value;
use rusqlite::{OptionalExtension, params};

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

    pub(crate) fn from_text(text: &str) -> Source {
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

/// The model's JSON as stored: every field, without the derived pips and IDs
/// (the IDs have their own columns), so rows stay narrow.
pub(super) fn stored_json(position: &Position) -> String {
    let mut value = json::to_json(position);
    value.pips = None;
    value.ids = None;
    serde_json::to_string(&value).unwrap_or_default()
}

pub(super) fn decode_position(id: i64, text: &str) -> Result<Position> {
    json::decode(text).map_err(|e| LibraryError::Damaged {
        path: "the library".to_owned(),
        why: format!("entry {id}'s position cannot be read: {e}"),
    })
}

pub(super) fn ids_of(position: &Position) -> (String, String) {
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

pub(super) fn bounded(text: &str, max: usize, what: &'static str) -> Result<String> {
    if text.len() > max {
        return Err(LibraryError::TooLong {
            what,
            bytes: text.len(),
            max,
        });
    }
    Ok(text.to_owned())
}

/// A title, tag or collection name: one line, trimmed, bounded.
pub(super) fn clean_line(text: &str, what: &'static str) -> Result<String> {
    let text = text.trim();
    if text.chars().any(char::is_control) {
        return Err(LibraryError::ControlCharacter {
            what,
            text: text.to_owned(),
        });
    }
    bounded(text, MAX_NAME_LEN, what)
}

/// A tag or collection name: no spaces (the filter language splits on them).
pub(super) fn clean_name(text: &str, what: &'static str) -> Result<String> {
    let text = clean_line(text, what)?;
    if text.is_empty() || text.contains(char::is_whitespace) {
        return Err(LibraryError::NotOneWord { what, text });
    }
    Ok(text)
}

/// The derived filter columns, in the order [`derived_params`] gives them.
macro_rules! derived_columns {
    () => {
        "pips_o, pips_x, pips_on_roll, pip_diff, race, bar, match_length, score_o, score_x, \
         crawford, cube, on_roll, points, opp_points, blots, back, prime, home, plan, opp_plan, \
         class, score_class, decision"
    };
}

/// The values of [`derived_columns`] for a position: the one place that
/// binds them, for a new row and for a changed position.
pub(super) fn derived_params(position: &Position) -> [Value; 23] {
    let d = derive(position);
    let t = themes(position);
    let word = |w: &str| Value::Text(w.to_owned());
    let plan = t.plan_pair();
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
        plan.map_or(Value::Null, |p| word(p.0)),
        plan.map_or(Value::Null, |p| word(p.1)),
        word(t.class.name()),
        word(t.score.name()),
        word(t.decision.word()),
    ]
}

/// Writes a match decision's columns (kept apart from the insert: most
/// entries have none).
pub(super) fn write_decision(tx: &rusqlite::Transaction<'_>, id: i64, d: &Decision) -> Result<()> {
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

#[allow(clippy::too_many_arguments)]
pub(super) fn insert_row(
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
    args.extend(super::like::like_params(position));
    tx.prepare_cached(concat!(
        "INSERT INTO entries (id, gnubg_id, xgid, position_json, title, note, source, created, \
         updated, analysis, analysis_depth, due, interval_days, ease, reviews, ",
        derived_columns!(),
        ", stability, difficulty, fsrs_state, lapses, last_review, like_cell, like_kind, \
         like_shape) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, ?9, ?10, ?11, ?12, ?13, ?14, \
         ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30, ?31, \
         ?32, ?33, ?34, ?35, ?36, ?37, ?38, ?39, ?40, ?41, ?42, ?43, ?44, ?45)"
    ))?
    .execute(rusqlite::params_from_iter(args))?;
    Ok(tx.last_insert_rowid())
}

pub(super) fn add_in(tx: &rusqlite::Transaction<'_>, entry: &NewEntry, now: i64) -> Result<Added> {
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

pub(super) fn add_tags(tx: &rusqlite::Transaction<'_>, id: i64, tags: &[String]) -> Result<()> {
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

pub(super) fn add_collections(
    tx: &rusqlite::Transaction<'_>,
    id: i64,
    names: &[String],
) -> Result<()> {
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

impl Library {
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

    pub(super) fn tags_of(&self, id: i64) -> Result<Vec<String>> {
        let mut st = self
            .conn
            .prepare_cached("SELECT tag FROM tags WHERE entry_id = ?1 ORDER BY tag")?;
        let rows = st.query_map([id], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    pub(super) fn collections_of(&self, id: i64) -> Result<Vec<String>> {
        let mut st = self.conn.prepare_cached(
            "SELECT c.name FROM entry_collections ec JOIN collections c ON c.id = ec.collection_id \
             WHERE ec.entry_id = ?1 ORDER BY c.name",
        )?;
        let rows = st.query_map([id], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
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
                return Err(LibraryError::AlreadyEntry(other));
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
                 ?21, ?22, ?23, ?24, ?25, ?26, ?27) WHERE id = ?1"
            ))?
            .execute(rusqlite::params_from_iter(args))?;
            super::like::write_like(&tx, id, position)?;
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
            return Err(LibraryError::BackAlready(other));
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
}
