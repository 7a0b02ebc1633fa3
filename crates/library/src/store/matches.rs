//! Matches in the library (schema 8): a match with its games and every
//! decision, each decision linked to the position entry it makes, and the
//! verdicts on each decision keyed by the engine and depth that gave them.

use super::*;
use crate::schema::ROLLOUT_PLIES;
use rusqlite::{OptionalExtension, params};

/// SHA-256 of a match file's bytes, in hex: the match's identity in the
/// library (the same file imported twice is one match).
pub(crate) fn content_hash(bytes: &[u8]) -> String {
    use sha2::Digest;
    use std::fmt::Write;
    sha2::Sha256::digest(bytes)
        .iter()
        .fold(String::with_capacity(64), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// A match as it is stored, before it has an id.
#[derive(Clone, Debug, PartialEq)]
pub struct NewMatch {
    /// SHA-256 of the file's bytes, in hex: the same file is one match.
    pub hash: String,
    /// SHA-256 of the match in a canonical form (`match_import::identity`):
    /// the same match in another format is one match.
    pub identity: String,
    /// The players' names: O's, then X's.
    pub players: [String; 2],
    pub event: Option<String>,
    pub place: Option<String>,
    /// `YYYY-MM-DD` where it reads as a date (else as the file writes it).
    pub date: Option<String>,
    /// Where the date came from; `None` without one.
    pub date_from: Option<crate::dates::DateFrom>,
    /// Points to win; 0 for money play.
    pub length: u16,
    /// Points won by O, then X, as the file's games add up (`3-7`); empty
    /// when no game says who won.
    pub result: String,
    /// The file's format, by name (`SGF`, `Jellyfish .mat`, ...).
    pub format: String,
    /// The file's path as it was given.
    pub path: String,
    /// The file's bytes, kept so the match can be analysed later.
    pub content: Vec<u8>,
    pub games: Vec<NewGame>,
    pub decisions: Vec<NewDecision>,
}

/// A game of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewGame {
    pub number: usize,
    /// Score at the start: O's, then X's.
    pub score: [u16; 2],
    pub crawford: bool,
    /// `X` or `O`, and the points won, when the file says.
    pub winner: Option<(char, u32)>,
}

/// A decision of a match, in the file's order.
#[derive(Clone, Debug, PartialEq)]
pub struct NewDecision {
    pub game: usize,
    pub number: usize,
    /// `X` or `O`.
    pub player: char,
    pub name: String,
    /// `checker`, `cube`, `take`, or what else was done (`resign`).
    pub kind: String,
    pub dice: Option<[u8; 2]>,
    pub played: String,
    /// The position entry, when the decision is kept as one.
    pub entry: Option<NewEntry>,
    /// The entry of the cube decision before the roll (a double missed),
    /// when it is kept as one.
    pub cube_entry: Option<NewEntry>,
    /// The position's gnubg ID and XGID (the entry's, when there is one).
    pub ids: (String, String),
    /// The file's own verdict, when it has one.
    pub analysis: Option<Verdict>,
}

/// One engine's verdict on a decision at one depth.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// The engine's key (`gnubg`), or the analyser a file names (`XG`).
    pub engine: String,
    /// The search depth; XG's Roller levels 1000 to 1002, [`ROLLOUT_PLIES`]
    /// for a rollout, -1 when unknown (XG's book).
    pub plies: i64,
    /// The depth in the analyser's own words (`gnubg 2-ply`, `XG 3-ply red`).
    pub depth: String,
    /// Whether the verdict came with the file (not computed by bgedit).
    pub from_file: bool,
    /// Equity given away; `None` when the verdict does not rank the play.
    pub error: Option<f64>,
    /// The verdict as text (the candidates or the cube's equities).
    pub text: String,
}

// The error is an engine's checked answer or the store's finite value:
// the editor's requests, which carry verdicts, stay `Eq`.
impl Eq for Verdict {}

impl Verdict {
    /// The engine and plies a depth's words name: `gnubg 2-ply` is
    /// (`gnubg`, 2), `XG 3-ply red` (`XG`, 3), `XG rollout` (`XG`,
    /// rollout); words without a depth keep the first word and -1.
    pub(crate) fn engine_and_plies(depth: &str) -> (String, i64) {
        let mut words = depth.split_whitespace();
        let engine = words.next().unwrap_or("unknown").to_owned();
        let mut plies = -1;
        for w in words {
            if let Some(n) = w.strip_suffix("-ply").and_then(|n| n.parse::<i64>().ok()) {
                plies = n;
                break;
            }
            // XG's rollouts, deeper than any search: its Roller levels
            // (1000, 1001, 1002 as XG numbers them), a full rollout above.
            plies = match w {
                "Roller" => 1000,
                "Roller+" => 1001,
                "Roller++" => 1002,
                w if w.eq_ignore_ascii_case("rollout") => ROLLOUT_PLIES,
                _ => continue,
            };
            break;
        }
        (engine, plies)
    }
}

/// A game's luck as kept: engine, plies, the game (its piece's place in
/// the match), O's and X's luck.
pub(crate) type GameLuck = (String, i64, usize, [f64; 2]);

/// What adding a match did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchAdded {
    /// A new match: its id, its decisions, and the position entries they
    /// made (new ones and ones already there).
    New {
        id: i64,
        decisions: u64,
        entries_new: u64,
        entries_merged: u64,
    },
    /// The same file (by its hash) was imported before: nothing written.
    Existing(i64),
    /// The same match from another file (by its identity) is there:
    /// nothing written. Its id and the path it was imported from.
    SameMatch(i64, String),
}

/// A stored match, as listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMatch {
    pub id: i64,
    pub hash: String,
    /// The match's identity apart from its format; empty when not yet
    /// computed (a match stored before schema 9).
    pub identity: String,
    pub players: [String; 2],
    pub event: Option<String>,
    /// `YYYY-MM-DD` where it reads as a date (else as the file writes it).
    pub date: Option<String>,
    pub date_from: Option<crate::dates::DateFrom>,
    pub length: u16,
    pub result: String,
    pub format: String,
    pub path: String,
    pub decisions: u64,
}

/// A decision with the entry it made and its deepest verdict.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct DeepestVerdict {
    pub seq: usize,
    /// `checker`, `cube`, `take`, or what else was done.
    pub kind: String,
    pub entry: Option<i64>,
    /// The entry of the cube decision before the roll, if one was made.
    pub cube_entry: Option<i64>,
    pub verdict: Option<Verdict>,
}

/// Which of a decision's entries: the decision's own (a roll played, a
/// double, a take), or the cube decision before its roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Link {
    Own,
    CubeBefore,
}

impl Link {
    /// The column of `decisions` that links it.
    fn column(self) -> &'static str {
        match self {
            Link::Own => "entry_id",
            Link::CubeBefore => "cube_entry_id",
        }
    }
}

/// A player's rates in one match as `stats --player` shows them (kept in
/// `match_rates`): from bgedit's most complete analysis of the match, else
/// from the file's own; a rate the analysis cannot give is `None`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchRates {
    /// The analysis the rates come from; `None` when the match has none.
    pub engine: Option<String>,
    pub plies: Option<i64>,
    /// The file's own analysis (not bgedit's).
    pub from_file: bool,
    /// Rates in mEMG (XG's PR: half the error rate).
    pub pr: Option<f64>,
    pub error: Option<f64>,
    pub checker: Option<f64>,
    pub cube: Option<f64>,
    pub luck: Option<f64>,
    /// The decisions the rates are over: unforced moves (the checker
    /// rate's), close cube decisions (the cube rate's; both together the
    /// error rate's and PR's), every move (the luck's).
    pub checker_n: u32,
    pub cube_n: u32,
    pub moves_n: u32,
    /// bgedit's analysis of the match when it judged only some of its
    /// decisions (a run stopped part way): the rates are never a part's.
    pub partial: Option<Partial>,
}

/// bgedit's most complete analysis of a match, stopped part way: its
/// engine and depth, and the decisions it judged of the match's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partial {
    pub engine: String,
    pub plies: i64,
    pub judged: u64,
    pub decisions: u64,
}

/// A decision with the file's own verdict on it, if any: what the rates
/// of a match bgedit has not analysed come from.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FileJudged {
    /// `X` or `O`.
    pub player: char,
    pub kind: String,
    pub gnubg_id: String,
    /// The file's verdict: its engine, plies and error.
    pub verdict: Option<(String, i64, Option<f64>)>,
}

/// A verdict as stored, with the decision it is on.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredVerdict {
    pub game: usize,
    pub number: usize,
    pub verdict: Verdict,
}

fn insert_match(tx: &rusqlite::Transaction<'_>, m: &NewMatch, now: i64) -> Result<i64> {
    let line = |t: &Option<String>, what: &'static str| -> Result<Option<String>> {
        t.as_deref().map(|t| clean_line(t, what)).transpose()
    };
    tx.prepare_cached(
        "INSERT INTO matches (hash, player_o, player_x, event, place, date, length, result, \
         format, path, imported, content, identity, date_from) VALUES (?1, ?2, ?3, ?4, ?5, ?6, \
         ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
    )?
    .execute(params![
        m.hash,
        clean_line(&m.players[0], "player")?,
        clean_line(&m.players[1], "player")?,
        line(&m.event, "event")?,
        line(&m.place, "place")?,
        line(&m.date, "date")?,
        m.length,
        m.result,
        m.format,
        bounded(&m.path, MAX_NOTE_LEN, "path")?,
        now,
        m.content,
        m.identity,
        m.date_from.map(crate::dates::DateFrom::word)
    ])?;
    let id = tx.last_insert_rowid();
    let mut game = tx.prepare_cached(
        "INSERT OR IGNORE INTO games (match_id, number, score_o, score_x, crawford, winner, \
         points) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    for g in &m.games {
        game.execute(params![
            id,
            g.number as i64,
            g.score[0],
            g.score[1],
            g.crawford,
            g.winner.map(|w| w.0.to_string()),
            g.winner.map(|w| w.1)
        ])?;
    }
    Ok(id)
}

/// Stores `v` on decision `decision`: a verdict at the same engine and
/// depth is kept unless `replace`. Whether it was written.
fn put_verdict(
    tx: &rusqlite::Transaction<'_>,
    decision: i64,
    v: &Verdict,
    replace: bool,
    now: i64,
) -> Result<bool> {
    let verb = if replace {
        "INSERT OR REPLACE"
    } else {
        "INSERT OR IGNORE"
    };
    let n = tx
        .prepare_cached(&format!(
            "{verb} INTO analyses (decision_id, engine, plies, depth, from_file, error, \
             analysis, created) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
        ))?
        .execute(params![
            decision,
            clean_line(&v.engine, "engine")?,
            v.plies,
            clean_line(&v.depth, "depth")?,
            v.from_file,
            v.error.filter(|e| e.is_finite()),
            bounded(&v.text, MAX_NOTE_LEN, "analysis")?,
            now
        ])?;
    Ok(n > 0)
}

/// The columns of a match as `stored_match` reads them (`m`: `matches`).
pub(super) const MATCH_COLUMNS: &str = "m.id, m.hash, coalesce(m.identity, ''), m.player_o, m.player_x, \
     m.event, m.date, m.length, m.result, m.format, m.path, m.date_from";
pub(super) const MATCH_COLUMN_COUNT: usize = 12;

/// A match read from the first `MATCH_COLUMNS` of a row, its decisions
/// not counted (0).
pub(super) fn stored_match(r: &rusqlite::Row<'_>) -> rusqlite::Result<StoredMatch> {
    Ok(StoredMatch {
        id: r.get(0)?,
        hash: r.get(1)?,
        identity: r.get(2)?,
        players: [r.get(3)?, r.get(4)?],
        event: r.get(5)?,
        date: r.get(6)?,
        length: r.get(7)?,
        result: r.get(8)?,
        format: r.get(9)?,
        path: r.get(10)?,
        date_from: r
            .get::<_, Option<String>>(11)?
            .as_deref()
            .and_then(crate::dates::DateFrom::from_word),
        decisions: 0,
    })
}

/// One of bgedit's verdicts with its decision's themes
/// ([`Library::themed_verdicts_at`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ThemedVerdict {
    pub gnubg_id: String,
    /// The verdict's judgements (JSON).
    pub analysis: String,
    /// Who decided in the match's record (`O` or `X`).
    pub decider: String,
    /// The decider's plan and the other side's, when known.
    pub plans: Option<(String, String)>,
    pub class: String,
    pub score_class: String,
}

impl Library {
    /// Adds a match with its games, decisions, their entries and the file's
    /// verdicts, in one transaction: all or nothing. A match whose hash is
    /// already stored is not written again.
    pub fn add_match(&mut self, m: &NewMatch) -> Result<MatchAdded> {
        let now = now();
        let tx = self.write()?;
        let existing: Option<i64> = tx
            .query_row("SELECT id FROM matches WHERE hash = ?1", [&m.hash], |r| {
                r.get(0)
            })
            .optional()?;
        if let Some(id) = existing {
            return Ok(MatchAdded::Existing(id));
        }
        let same: Option<(i64, String)> = tx
            .query_row(
                "SELECT id, path FROM matches WHERE identity = ?1 ORDER BY id LIMIT 1",
                [&m.identity],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        if let Some((id, path)) = same {
            return Ok(MatchAdded::SameMatch(id, path));
        }
        let id = insert_match(&tx, m, now)?;
        let (mut entries_new, mut entries_merged) = (0, 0);
        {
            let mut insert = tx.prepare_cached(
                "INSERT INTO decisions (match_id, seq, game, number, player, name, kind, dice, \
                 played, gnubg_id, xgid, entry_id, cube_entry_id) VALUES (?1, ?2, ?3, ?4, ?5, \
                 ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
            )?;
            for (seq, d) in m.decisions.iter().enumerate() {
                let entry = match &d.entry {
                    Some(e) => {
                        let added = add_in(&tx, e, now)?;
                        match added {
                            Added::New(_) => entries_new += 1,
                            Added::Existing(_) => entries_merged += 1,
                        }
                        Some(added.id())
                    }
                    None => None,
                };
                let cube_entry = match &d.cube_entry {
                    Some(e) => {
                        let added = add_in(&tx, e, now)?;
                        match added {
                            Added::New(_) => entries_new += 1,
                            Added::Existing(_) => entries_merged += 1,
                        }
                        Some(added.id())
                    }
                    None => None,
                };
                insert.execute(params![
                    id,
                    seq as i64,
                    d.game as i64,
                    d.number as i64,
                    d.player.to_string(),
                    clean_line(&d.name, "player")?,
                    d.kind,
                    d.dice.map(|[a, b]| format!("{a}{b}")),
                    bounded(&d.played, MAX_NAME_LEN, "played")?,
                    d.ids.0,
                    d.ids.1,
                    entry,
                    cube_entry
                ])?;
                if let Some(v) = &d.analysis {
                    put_verdict(&tx, tx.last_insert_rowid(), v, false, now)?;
                }
            }
        }
        // The new decisions' themes, found by the partial indexes.
        fill_themes(&tx)?;
        tx.commit()?;
        Ok(MatchAdded::New {
            id,
            decisions: m.decisions.len() as u64,
            entries_new,
            entries_merged,
        })
    }

    /// Stores verdicts on decisions of match `match_id`, each `(seq,
    /// verdict)`, in one transaction. A verdict at an engine and depth the
    /// decision already has is kept unless `replace`; the count written.
    pub fn put_verdicts(
        &mut self,
        match_id: i64,
        verdicts: &[(usize, Verdict)],
        replace: bool,
    ) -> Result<u64> {
        let now = now();
        let tx = self.write()?;
        let mut written = 0;
        for (seq, v) in verdicts {
            let decision: Option<i64> = tx
                .prepare_cached("SELECT id FROM decisions WHERE match_id = ?1 AND seq = ?2")?
                .query_row(params![match_id, *seq as i64], |r| r.get(0))
                .optional()?;
            let Some(decision) = decision else {
                return Err(LibraryError::NoDecision {
                    match_id,
                    seq: *seq,
                });
            };
            written += u64::from(put_verdict(&tx, decision, v, replace, now)?);
        }
        tx.commit()?;
        Ok(written)
    }

    /// Every stored match, in the order imported.
    pub fn matches(&self) -> Result<Vec<StoredMatch>> {
        let mut st = self.conn.prepare(&format!(
            "SELECT {MATCH_COLUMNS}, \
             (SELECT count(*) FROM decisions d WHERE d.match_id = m.id) \
             FROM matches m ORDER BY m.id"
        ))?;
        let rows = st.query_map([], |r| {
            let decisions = r.get::<_, i64>(MATCH_COLUMN_COUNT)? as u64;
            Ok(StoredMatch {
                decisions,
                ..stored_match(r)?
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// Every stored match's id, in the order imported: a merge reads each
    /// match on its own ([`Library::stored_match`]), so that a bad row
    /// leaves out its match alone.
    pub fn match_ids(&self) -> Result<Vec<i64>> {
        let mut st = self.conn.prepare("SELECT id FROM matches ORDER BY id")?;
        let rows = st.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// Match `match_id` as [`Library::matches`] lists it.
    pub fn stored_match(&self, match_id: i64) -> Result<StoredMatch> {
        self.conn
            .query_row(
                &format!(
                    "SELECT {MATCH_COLUMNS}, \
                     (SELECT count(*) FROM decisions d WHERE d.match_id = m.id) \
                     FROM matches m WHERE m.id = ?1"
                ),
                [match_id],
                |r| {
                    let decisions = r.get::<_, i64>(MATCH_COLUMN_COUNT)? as u64;
                    Ok(StoredMatch {
                        decisions,
                        ..stored_match(r)?
                    })
                },
            )
            .optional()?
            .ok_or(LibraryError::NoMatch(match_id))
    }

    /// The verdicts on match `match_id`'s decisions, in the decisions'
    /// order, deepest first for each decision (bgedit's before the file's
    /// at the same depth).
    pub fn verdicts(&self, match_id: i64) -> Result<Vec<StoredVerdict>> {
        let mut st = self.conn.prepare(
            "SELECT d.game, d.number, a.engine, a.plies, a.depth, a.from_file, a.error, \
             a.analysis FROM analyses a JOIN decisions d ON d.id = a.decision_id \
             WHERE d.match_id = ?1 ORDER BY d.seq, a.plies DESC, a.from_file, a.engine",
        )?;
        let rows = st.query_map([match_id], |r| {
            Ok(StoredVerdict {
                game: r.get::<_, i64>(0)? as usize,
                number: r.get::<_, i64>(1)? as usize,
                verdict: Verdict {
                    engine: r.get(2)?,
                    plies: r.get(3)?,
                    depth: r.get(4)?,
                    from_file: r.get(5)?,
                    error: r.get(6)?,
                    text: r.get(7)?,
                },
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// A stored match's file: its path as imported and its bytes, checked
    /// against the hash it was stored under.
    pub fn match_content(&self, match_id: i64) -> Result<(String, Vec<u8>)> {
        let (hash, path, content): (String, String, Vec<u8>) = self
            .conn
            .query_row(
                "SELECT hash, path, content FROM matches WHERE id = ?1",
                [match_id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()?
            .ok_or(LibraryError::NoMatch(match_id))?;
        if content_hash(&content) != hash {
            return Err(LibraryError::Damaged {
                path: self.path.display().to_string(),
                why: format!("match {match_id}'s file does not have the hash it was stored under"),
            });
        }
        Ok((path, content))
    }

    /// The decisions (by their place in the match) of match `match_id` that
    /// have bgedit's own verdict by `engine` at `plies` (the file's own
    /// analysis does not count: it holds no judgements to count).
    pub fn analysed_at(
        &self,
        match_id: i64,
        engine: &str,
        plies: i64,
    ) -> Result<std::collections::BTreeSet<usize>> {
        let mut st = self.conn.prepare_cached(
            "SELECT d.seq FROM decisions d JOIN analyses a ON a.decision_id = d.id \
             WHERE d.match_id = ?1 AND a.engine = ?2 AND a.plies = ?3 AND NOT a.from_file",
        )?;
        let rows = st.query_map(params![match_id, engine, plies], |r| {
            r.get::<_, i64>(0).map(|s| s as usize)
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// bgedit's own verdicts on match `match_id`'s decisions, each with
    /// the decision's place in the match, for a merge.
    pub fn own_verdicts(&self, match_id: i64) -> Result<Vec<(usize, Verdict)>> {
        let mut st = self.conn.prepare(
            "SELECT d.seq, a.engine, a.plies, a.depth, a.error, a.analysis FROM analyses a \
             JOIN decisions d ON d.id = a.decision_id WHERE d.match_id = ?1 AND NOT a.from_file \
             ORDER BY d.seq, a.engine, a.plies",
        )?;
        let rows = st.query_map([match_id], |r| {
            Ok((
                r.get::<_, i64>(0)? as usize,
                Verdict {
                    engine: r.get(1)?,
                    plies: r.get(2)?,
                    depth: r.get(3)?,
                    from_file: false,
                    error: r.get(4)?,
                    text: r.get(5)?,
                },
            ))
        })?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// Each decision of match `match_id`, in order, with its kind, the
    /// entry it is linked to and its deepest verdict (the most plies;
    /// bgedit's own before the file's at the same depth): what the
    /// library's mistakes are judged by.
    pub(crate) fn deepest_verdicts(&self, match_id: i64) -> Result<Vec<DeepestVerdict>> {
        let mut st = self.conn.prepare(
            "SELECT d.seq, d.kind, d.entry_id, a.engine, a.plies, a.depth, a.from_file, a.error, \
             a.analysis, d.cube_entry_id FROM decisions d \
             LEFT JOIN analyses a ON a.decision_id = d.id \
             WHERE d.match_id = ?1 ORDER BY d.seq, a.plies DESC, a.from_file, a.engine",
        )?;
        let rows = st.query_map([match_id], |r| {
            let verdict = match r.get::<_, Option<String>>(3)? {
                Some(engine) => Some(Verdict {
                    engine,
                    plies: r.get(4)?,
                    depth: r.get(5)?,
                    from_file: r.get(6)?,
                    error: r.get(7)?,
                    text: r.get(8)?,
                }),
                None => None,
            };
            Ok(DeepestVerdict {
                seq: r.get::<_, i64>(0)? as usize,
                kind: r.get(1)?,
                entry: r.get(2)?,
                cube_entry: r.get(9)?,
                verdict,
            })
        })?;
        let mut out: Vec<DeepestVerdict> = Vec::new();
        for row in rows {
            let row = row?;
            // The first row of each decision is its deepest verdict.
            if out.last().is_none_or(|d| d.seq != row.seq) {
                out.push(row);
            }
        }
        Ok(out)
    }

    /// Keeps match `match_id`'s mistakes as the panel lists them, in one
    /// transaction: each `(seq, link, entry)` of `new` added (or merged) as
    /// a position entry and linked to its decision, then each `(seq, link,
    /// error)` of `errors` set as the error of the entry so linked. The
    /// count of entries added.
    pub(crate) fn keep_mistakes(
        &mut self,
        match_id: i64,
        new: &[(usize, Link, NewEntry)],
        errors: &[(usize, Link, f64)],
    ) -> Result<u64> {
        let now = now();
        let tx = self.write()?;
        let mut added = 0;
        for (seq, link, entry) in new {
            let id = add_in(&tx, entry, now)?;
            added += u64::from(matches!(id, Added::New(_)));
            tx.prepare_cached(&format!(
                "UPDATE decisions SET {} = ?1 WHERE match_id = ?2 AND seq = ?3",
                link.column()
            ))?
            .execute(params![id.id(), match_id, *seq as i64])?;
        }
        for (seq, link, error) in errors.iter().filter(|(_, _, e)| e.is_finite()) {
            tx.prepare_cached(&format!(
                "UPDATE entries SET error = ?1 WHERE id = (SELECT {} FROM decisions \
                 WHERE match_id = ?2 AND seq = ?3)",
                link.column()
            ))?
            .execute(params![error, match_id, *seq as i64])?;
        }
        tx.commit()?;
        Ok(added)
    }

    /// The engine and depth of bgedit's most complete analysis of match
    /// `match_id` (the most decisions; the deeper of two as complete),
    /// with bgedit's verdicts at it, in the match's order.
    pub(crate) fn best_own_analysis(
        &self,
        match_id: i64,
    ) -> Result<Option<(String, i64, Vec<String>)>> {
        let best: Option<(String, i64)> = self
            .conn
            .query_row(
                "SELECT a.engine, a.plies FROM analyses a JOIN decisions d ON d.id = a.decision_id \
                 WHERE d.match_id = ?1 AND NOT a.from_file GROUP BY a.engine, a.plies \
                 ORDER BY count(*) DESC, a.plies DESC, a.engine LIMIT 1",
                [match_id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        let Some((engine, plies)) = best else {
            return Ok(None);
        };
        let mut st = self.conn.prepare_cached(
            "SELECT a.analysis FROM analyses a JOIN decisions d ON d.id = a.decision_id \
             WHERE d.match_id = ?1 AND a.engine = ?2 AND a.plies = ?3 AND NOT a.from_file \
             ORDER BY d.seq",
        )?;
        let texts = st
            .query_map(params![match_id, engine, plies], |r| r.get(0))?
            .collect::<rusqlite::Result<Vec<String>>>()?;
        Ok(Some((engine, plies, texts)))
    }

    /// bgedit's verdicts on match `match_id` by `engine` at `plies`, in
    /// the match's order, each with its decision's gnubg ID (the position
    /// decided).
    pub(crate) fn own_verdicts_at(
        &self,
        match_id: i64,
        engine: &str,
        plies: i64,
    ) -> Result<Vec<(String, String)>> {
        let mut st = self.conn.prepare_cached(
            "SELECT d.gnubg_id, a.analysis FROM analyses a JOIN decisions d ON \
             d.id = a.decision_id WHERE d.match_id = ?1 AND a.engine = ?2 AND a.plies = ?3 \
             AND NOT a.from_file ORDER BY d.seq",
        )?;
        let rows = st.query_map(params![match_id, engine, plies], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// As [`Library::own_verdicts_at`], each verdict with its decision's
    /// themes as stored (schema 13): who decided, the plans (theirs, the
    /// other side's; `None` where not known), gnubg's class, the score
    /// class.
    pub(crate) fn themed_verdicts_at(
        &self,
        match_id: i64,
        engine: &str,
        plies: i64,
    ) -> Result<Vec<ThemedVerdict>> {
        let mut st = self.conn.prepare_cached(
            "SELECT d.gnubg_id, a.analysis, d.player, d.plan, d.opp_plan, \
             coalesce(d.class, ''), coalesce(d.score_class, '') FROM analyses a JOIN decisions d \
             ON d.id = a.decision_id WHERE d.match_id = ?1 AND a.engine = ?2 AND a.plies = ?3 \
             AND NOT a.from_file ORDER BY d.seq",
        )?;
        let rows = st.query_map(params![match_id, engine, plies], |r| {
            Ok(ThemedVerdict {
                gnubg_id: r.get(0)?,
                analysis: r.get(1)?,
                decider: r.get(2)?,
                plans: r
                    .get::<_, Option<String>>(3)?
                    .zip(r.get::<_, Option<String>>(4)?),
                class: r.get(5)?,
                score_class: r.get(6)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// Keeps the luck of the dice of match `match_id` by `engine` at
    /// `plies` (each player's total: O's, X's), unless there is one.
    pub fn put_luck(
        &mut self,
        match_id: i64,
        engine: &str,
        plies: i64,
        luck: [f64; 2],
    ) -> Result<()> {
        if !luck.iter().all(|l| l.is_finite()) {
            return Ok(());
        }
        let tx = self.write()?;
        tx.execute(
            "INSERT OR IGNORE INTO match_luck (match_id, engine, plies, luck_o, luck_x) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![match_id, engine, plies, luck[0], luck[1]],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// The luck of match `match_id` by `engine` at `plies`, if kept.
    pub(crate) fn luck(&self, match_id: i64, engine: &str, plies: i64) -> Result<Option<[f64; 2]>> {
        Ok(self
            .conn
            .query_row(
                "SELECT luck_o, luck_x FROM match_luck WHERE match_id = ?1 AND engine = ?2 \
                 AND plies = ?3",
                params![match_id, engine, plies],
                |r| Ok([r.get(0)?, r.get(1)?]),
            )
            .optional()?)
    }

    /// Keeps the luck of game `game` of match `match_id` by `engine` at
    /// `plies` (O's, X's), unless there is one.
    pub fn put_game_luck(
        &mut self,
        match_id: i64,
        engine: &str,
        plies: i64,
        game: usize,
        luck: [f64; 2],
    ) -> Result<()> {
        if !luck.iter().all(|l| l.is_finite()) {
            return Ok(());
        }
        let tx = self.write()?;
        tx.execute(
            "INSERT OR IGNORE INTO game_luck (match_id, game, engine, plies, luck_o, luck_x) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![match_id, game as i64, engine, plies, luck[0], luck[1]],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// Every game's luck kept for match `match_id`: engine, plies, game,
    /// O's and X's, in game order.
    pub fn game_lucks(&self, match_id: i64) -> Result<Vec<GameLuck>> {
        let mut st = self.conn.prepare_cached(
            "SELECT engine, plies, game, luck_o, luck_x FROM game_luck WHERE match_id = ?1 \
             ORDER BY engine, plies, game",
        )?;
        let rows = st.query_map([match_id], |r| {
            Ok((
                r.get(0)?,
                r.get(1)?,
                r.get::<_, i64>(2)? as usize,
                [r.get(3)?, r.get(4)?],
            ))
        })?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// Every luck kept for match `match_id`: engine, plies, O's, X's.
    pub fn lucks(&self, match_id: i64) -> Result<Vec<(String, i64, [f64; 2])>> {
        let mut st = self.conn.prepare(
            "SELECT engine, plies, luck_o, luck_x FROM match_luck WHERE match_id = ?1 \
             ORDER BY engine, plies",
        )?;
        let rows = st.query_map([match_id], |r| {
            Ok((r.get(0)?, r.get(1)?, [r.get(2)?, r.get(3)?]))
        })?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// The id of the match stored with content hash `hash`, if any.
    pub fn match_by_hash(&self, hash: &str) -> Result<Option<i64>> {
        Ok(self
            .conn
            .query_row("SELECT id FROM matches WHERE hash = ?1", [hash], |r| {
                r.get(0)
            })
            .optional()?)
    }

    /// Every match with each side's kept rates (O's, X's), when kept; the
    /// matches' decisions are not counted here (0). One query, for
    /// `stats --player` over many matches.
    pub(crate) fn matches_with_rates(&self) -> Result<Vec<(StoredMatch, Option<[MatchRates; 2]>)>> {
        let mut st = self
            .conn
            .prepare(&format!("{} ORDER BY m.id", match_list::with_rates_sql("")))?;
        let rows = st.query_map([], |r| Ok((stored_match(r)?, match_list::both_rates(r)?)))?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// Keeps the rates of matches (each side's: O's, X's), in one
    /// transaction; they stay until the match's verdicts or luck change.
    pub(crate) fn put_rates(&mut self, rates: &[(i64, [MatchRates; 2])]) -> Result<()> {
        if rates.is_empty() {
            return Ok(());
        }
        let tx = self.write()?;
        {
            let mut st = tx.prepare_cached(
                "INSERT OR REPLACE INTO match_rates (match_id, side, engine, plies, from_file, \
                 pr, error, checker, cube, luck, checker_n, cube_n, moves_n, partial_engine, \
                 partial_plies, judged, decisions) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)",
            )?;
            for (id, sides) in rates {
                for (side, r) in sides.iter().enumerate() {
                    let f = |v: Option<f64>| v.filter(|v| v.is_finite());
                    let part = r.partial.as_ref();
                    st.execute(params![
                        id,
                        side as i64,
                        r.engine,
                        r.plies,
                        r.from_file,
                        f(r.pr),
                        f(r.error),
                        f(r.checker),
                        f(r.cube),
                        f(r.luck),
                        r.checker_n,
                        r.cube_n,
                        r.moves_n,
                        part.map(|p| &p.engine),
                        part.map(|p| p.plies),
                        part.map(|p| p.judged as i64),
                        part.map(|p| p.decisions as i64)
                    ])?;
                }
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Match `match_id`'s decisions in order, each with the file's own
    /// verdict on it, if any.
    pub(crate) fn file_judged(&self, match_id: i64) -> Result<Vec<FileJudged>> {
        let mut st = self.conn.prepare_cached(
            "SELECT d.player, d.kind, d.gnubg_id, a.engine, a.plies, a.error FROM decisions d \
             LEFT JOIN analyses a ON a.decision_id = d.id AND a.from_file \
             WHERE d.match_id = ?1 ORDER BY d.seq",
        )?;
        let rows = st.query_map([match_id], |r| {
            let engine: Option<String> = r.get(3)?;
            Ok(FileJudged {
                player: r.get::<_, String>(0)?.chars().next().unwrap_or('O'),
                kind: r.get(1)?,
                gnubg_id: r.get(2)?,
                verdict: match engine {
                    Some(e) => Some((e, r.get(4)?, r.get(5)?)),
                    None => None,
                },
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// The matches stored before schema 9, whose identity is not yet known.
    pub(crate) fn matches_without_identity(&self) -> Result<Vec<i64>> {
        let mut st = self
            .conn
            .prepare("SELECT id FROM matches WHERE identity IS NULL ORDER BY id")?;
        let rows = st.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// Sets match `match_id`'s identity (computed from its kept file).
    pub(crate) fn set_identity(&mut self, match_id: i64, identity: &str) -> Result<()> {
        let tx = self.write()?;
        tx.execute(
            "UPDATE matches SET identity = ?2 WHERE id = ?1",
            params![match_id, identity],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// How many decisions match `match_id` has.
    pub(crate) fn decision_count(&self, match_id: i64) -> Result<u64> {
        let n: i64 = self.conn.query_row(
            "SELECT count(*) FROM decisions WHERE match_id = ?1",
            [match_id],
            |r| r.get(0),
        )?;
        Ok(n as u64)
    }

    /// The kind of each decision of match `match_id`, in order.
    pub fn decision_kinds(&self, match_id: i64) -> Result<Vec<String>> {
        let mut st = self
            .conn
            .prepare_cached("SELECT kind FROM decisions WHERE match_id = ?1 ORDER BY seq")?;
        let rows = st.query_map([match_id], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// The entry ids match `match_id`'s decisions are linked to, in order
    /// (`None` for a decision kept out of the positions).
    pub fn decision_entries(&self, match_id: i64) -> Result<Vec<Option<i64>>> {
        let mut st = self
            .conn
            .prepare("SELECT entry_id FROM decisions WHERE match_id = ?1 ORDER BY seq")?;
        let rows = st.query_map([match_id], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_depth_in_words_names_its_engine_and_plies() {
        let e = |d: &str| Verdict::engine_and_plies(d);
        assert_eq!(e("gnubg 2-ply"), ("gnubg".to_owned(), 2));
        assert_eq!(e("XG 3-ply red"), ("XG".to_owned(), 3));
        assert_eq!(e("XG Roller++"), ("XG".to_owned(), 1002));
        assert_eq!(e("XG rollout"), ("XG".to_owned(), ROLLOUT_PLIES));
        assert_eq!(e("XG book"), ("XG".to_owned(), -1));
        assert_eq!(e("gnubg"), ("gnubg".to_owned(), -1));
        assert_eq!(e(""), ("unknown".to_owned(), -1));
    }
}
