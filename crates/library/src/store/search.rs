//! Finding entries: a filter (`library::filter::Query`) turned into SQL
//! (`select`), counted, paged and walked as summaries.

use super::*;
use crate::derive::{Derived, derive};
use crate::filter::{Condition, Field, Flag, Op, Query, Term};
use bgedit_core::domain::{Player, Position};
use rusqlite::OptionalExtension;
use std::fmt::Write as _;

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
    /// A match decision's error, when known: by the deepest verdict the
    /// library holds on it.
    pub error: Option<f64>,
    /// That verdict, when the entry is a match decision with one.
    pub error_by: Option<ErrorBy>,
    /// Who made the decision, for a match decision.
    pub player: Option<String>,
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

/// The verdict an entry's error is by: the deepest the library holds on
/// its decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorBy {
    /// The engine's key (`gnubg`), or the analyser a file names (`XG`).
    pub engine: String,
    /// gnubg's count of plies, as `analyses` keeps them.
    pub plies: i64,
    /// The depth in the analyser's words (`gnubg 0-ply`).
    pub depth: String,
}

impl ErrorBy {
    /// `engine TAB plies TAB depth`, as the summary's query joins them.
    fn read(text: &str) -> Option<ErrorBy> {
        let mut parts = text.splitn(3, '\t');
        Some(ErrorBy {
            engine: parts.next()?.to_owned(),
            plies: parts.next()?.parse().ok()?,
            depth: parts.next()?.to_owned(),
        })
    }
}

/// A row of `id, title, tags_text, position_json, score_o, score_x, error`.
/// The columns `summary` reads, in its order: the note's start (its first
/// line is shown) and the entry's collections come with the row, so a list
/// needs one query.
pub(super) const SUMMARY_COLUMNS: &str = "e.id, e.title, e.tags_text, e.position_json, e.score_o, \
     e.score_x, e.error, substr(e.note, 1, 200), (SELECT group_concat(c.name, ' ') FROM \
     entry_collections ec JOIN collections c ON c.id = ec.collection_id WHERE ec.entry_id = e.id), coalesce((SELECT a.engine || char(9) || a.plies || char(9) || \
     a.depth FROM decisions d JOIN analyses a ON a.decision_id = d.id WHERE d.entry_id = e.id AND a.error IS NOT NULL ORDER BY a.plies DESC, \
     a.from_file LIMIT 1), (SELECT a.engine || char(9) || a.plies || char(9) || a.depth FROM decisions d JOIN analyses a \
     ON a.decision_id = d.id WHERE d.cube_entry_id = e.id ORDER BY a.plies DESC, a.from_file LIMIT 1)), e.player";

pub(super) fn summary(r: &rusqlite::Row<'_>) -> Result<Summary> {
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
        error_by: r
            .get::<_, Option<String>>(9)?
            .as_deref()
            .and_then(ErrorBy::read),
        player: r.get(10)?,
    })
}

/// A value bound to a `?` in a filter's SQL.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Arg {
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
pub(crate) const MIN_INDEXED_TEXT: usize = 3;

/// A query as SQL over `entries e`: the FROM and WHERE part and its
/// arguments. Text of 3 characters or more is matched on the FTS5 trigram
/// index (`entries_text t`, joined to its entry by rowid); every structured
/// filter is a test on an indexed column; only 1–2 character text is a scan
/// (`LIKE` over the text columns).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Selection {
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
pub(super) fn fts_phrase(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

/// `INDEXED BY entries_facets` when the query has a structured filter and no
/// free text: its columns are all in that index, so SQLite counts and pages
/// from the index instead of reading rows.
pub(super) fn facets(query: &Query) -> &'static str {
    let structured = query.terms.iter().any(|t| {
        matches!(
            t.condition,
            Condition::Flag(_)
                | Condition::Compare(..)
                | Condition::Error(..)
                | Condition::Disagree(..)
                | Condition::Point { .. }
                | Condition::Kind(_)
                | Condition::Mistake(_)
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
pub(super) fn like_pattern(text: &str) -> String {
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
pub(super) fn id_order(sel: &Selection) -> &'static str {
    if sel.text_index { "t.rowid" } else { "e.id" }
}

/// Text in more than one entry in this many is "common" (see
/// `Library::selection`).
pub(super) const COMMON_TEXT_PARTS: i64 = 4;

pub(super) fn indexed_text(text: &str) -> bool {
    text.chars().count() >= MIN_INDEXED_TEXT
}

/// The FROM and WHERE of a query (see [`Selection`]), with the text of 3+
/// characters looked up in the trigram index (`use_index`) or tested row by
/// row in `entries_scan`, as 1–2 characters always are.
pub(crate) fn select(query: &Query, now: i64, use_index: bool) -> Selection {
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
        condition_sql(&mut sql, &mut args, term, now);
    }
    Selection {
        from: sql,
        args,
        text_index,
        restricted,
    }
}

/// One term's condition as SQL over `entries e` (its `NOT` already
/// written), its values pushed to `args`.
fn condition_sql(sql: &mut String, args: &mut Vec<Arg>, term: &Term, now: i64) {
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
        Condition::Disagree(op, value) => disagree_sql(sql, args, *op, *value),
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
        Condition::Mistake(m) => {
            sql.push_str("(e.kind = ? AND e.played IN (?, ?) AND e.error > 0)");
            let (kind, played) = m.decision();
            args.push(Arg::Text(kind.name().to_owned()));
            for p in played {
                args.push(Arg::Text((*p).to_owned()));
            }
        }
        Condition::Plan { opponent, plan } => {
            sql.push_str(if *opponent {
                "(e.opp_plan = ?)"
            } else {
                "(e.plan = ?)"
            });
            args.push(Arg::Text(plan.name().to_owned()));
        }
        Condition::Class(class) => {
            sql.push_str("(e.class = ?)");
            args.push(Arg::Text(class.name().to_owned()));
        }
        Condition::Score(score) => {
            sql.push_str("(e.score_class = ?)");
            args.push(Arg::Text(score.name().to_owned()));
        }
        Condition::Decision(kind) => {
            sql.push_str("(e.decision = ?)");
            args.push(Arg::Text(kind.name().to_owned()));
        }
        Condition::Player(name) => {
            sql.push_str("(e.player LIKE ? ESCAPE '\\')");
            args.push(Arg::Text(like_pattern(name)));
        }
        // The source, or the match the decision is from: its players,
        // event or file.
        Condition::Match(text) => {
            sql.push_str(
                "(e.source LIKE ? ESCAPE '\\' OR e.id IN (SELECT d.entry_id FROM decisions d \
                 JOIN matches m ON m.id = d.match_id WHERE m.player_o LIKE ? ESCAPE '\\' \
                 OR m.player_x LIKE ? ESCAPE '\\' OR m.event LIKE ? ESCAPE '\\' \
                 OR m.path LIKE ? ESCAPE '\\' UNION SELECT d.cube_entry_id FROM decisions d \
                 JOIN matches m ON m.id = d.match_id WHERE m.player_o LIKE ? ESCAPE '\\' \
                 OR m.player_x LIKE ? ESCAPE '\\' OR m.event LIKE ? ESCAPE '\\' \
                 OR m.path LIKE ? ESCAPE '\\'))",
            );
            for _ in 0..9 {
                args.push(Arg::Text(like_pattern(text)));
            }
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
            sql.push_str("(e.id IN (SELECT rowid FROM entries_text WHERE entries_text MATCH ?))");
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

/// `disagree OP value`: the deepest comparison kept for the entry (a deeper
/// one is the better judge), the largest gap among its engine pairs; NULL
/// when none is kept, so `!disagree>=…` too leaves out entries never
/// compared, as `!error>=…` leaves out entries without an error.
fn disagree_sql(sql: &mut String, args: &mut Vec<Arg>, op: Op, value: f64) {
    let _ = write!(
        sql,
        "((SELECT d.gap FROM disagreements d WHERE d.entry_id = e.id \
         ORDER BY d.plies DESC, d.gap DESC LIMIT 1) {} ?)",
        op.sql()
    );
    args.push(Arg::Real(value));
}

impl Library {
    /// The query as SQL. Text of 3+ characters is looked up in the trigram
    /// index, unless other terms restrict the search and the text is so
    /// common that the index would hand most of the library to them one by
    /// one (`AAAA race`: four in five random IDs hold `AAAA`): then each
    /// row of the narrow `entries_scan` is tested instead, newest first, and
    /// a page or a capped count stops at its last match. How common is
    /// bounded by the index's own statistics: no phrase is in more entries
    /// than its rarest trigram.
    pub(super) fn selection(&self, query: &Query) -> Result<Selection> {
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
        order: Order,
        offset: u64,
        limit: u64,
        ahead: u64,
    ) -> Result<(Counted, u64, Vec<Summary>)> {
        let mut rows = self.page_in(query, order, offset, limit)?;
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
            rows = self.page_in(query, order, offset, limit)?;
        }
        Ok((counted, offset, rows))
    }

    /// One page of matching entries, newest first.
    pub fn page(&self, query: &Query, offset: u64, limit: u64) -> Result<Vec<Summary>> {
        self.page_in(query, Order::Newest, offset, limit)
    }

    /// One page of matching entries in `order`.
    pub fn page_in(
        &self,
        query: &Query,
        order: Order,
        offset: u64,
        limit: u64,
    ) -> Result<Vec<Summary>> {
        let sel = self.selection(query)?;
        if order == Order::Error {
            // The worst first, then the newest; no error known, last.
            let sql = format!(
                "SELECT {SUMMARY_COLUMNS}{} ORDER BY e.error DESC, {} DESC LIMIT ? OFFSET ?",
                sel.from,
                id_order(&sel)
            );
            return self.summaries_of(
                &sql,
                rusqlite::params_from_iter(sel.page_args(offset, limit)),
            );
        }
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

    /// The summaries a query selects (its columns as `summary` reads them).
    pub(super) fn summaries_of(
        &self,
        sql: &str,
        args: impl rusqlite::Params,
    ) -> Result<Vec<Summary>> {
        let mut st = self.conn.prepare_cached(sql)?;
        let mut rows = st.query(args)?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            out.push(summary(r)?);
        }
        Ok(out)
    }

    /// One page of a selection, newest first.
    pub(super) fn summaries(
        &self,
        sel: Selection,
        offset: u64,
        limit: u64,
    ) -> Result<Vec<Summary>> {
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
}
