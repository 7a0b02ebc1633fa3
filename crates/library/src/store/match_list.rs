//! The library's matches as a player lists them (schema 12): each with its
//! games, the analyses it holds (`match_depths`) and each side's kept rates,
//! in one query; a match's date set by hand; names grouped as one person.

use super::*;
use rusqlite::{OptionalExtension, params};

/// A match as the match list shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct ListedMatch {
    pub m: StoredMatch,
    /// Games the file holds.
    pub games: u32,
    /// The analyses held: engine, plies (as stored: XG's levels 1000 to
    /// 1002, a rollout 2000, -1 unknown) and whether the file's.
    pub analyses: Vec<(String, i64, bool)>,
    /// Each side's kept rates (O's, X's), when kept.
    pub rates: Option<[MatchRates; 2]>,
}

/// Each side's rates as `match_rates` holds them, read from the columns
/// starting at `at` (`RATE_COLUMNS`), when kept.
fn rates_at(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<Option<MatchRates>> {
    let Some(from_file) = r.get::<_, Option<bool>>(at + 2)? else {
        return Ok(None);
    };
    Ok(Some(MatchRates {
        engine: r.get(at)?,
        plies: r.get(at + 1)?,
        from_file,
        pr: r.get(at + 3)?,
        error: r.get(at + 4)?,
        checker: r.get(at + 5)?,
        cube: r.get(at + 6)?,
        luck: r.get(at + 7)?,
        checker_n: r.get::<_, Option<u32>>(at + 8)?.unwrap_or(0),
        cube_n: r.get::<_, Option<u32>>(at + 9)?.unwrap_or(0),
        moves_n: r.get::<_, Option<u32>>(at + 10)?.unwrap_or(0),
        partial: match r.get::<_, Option<String>>(at + 11)? {
            Some(engine) => Some(Partial {
                engine,
                plies: r.get(at + 12)?,
                judged: r.get::<_, i64>(at + 13)? as u64,
                decisions: r.get::<_, i64>(at + 14)? as u64,
            }),
            None => None,
        },
    }))
}

/// The columns of one side's `match_rates` row (`t`: its alias).
fn rate_columns(t: &str) -> String {
    [
        "engine",
        "plies",
        "from_file",
        "pr",
        "error",
        "checker",
        "cube",
        "luck",
        "checker_n",
        "cube_n",
        "moves_n",
        "partial_engine",
        "partial_plies",
        "judged",
        "decisions",
    ]
    .iter()
    .map(|c| format!("{t}.{c}"))
    .collect::<Vec<_>>()
    .join(", ")
}

const RATE_COLUMN_COUNT: usize = 15;

/// Both sides' rates from a row that holds them after the match's columns.
pub(super) fn both_rates(r: &rusqlite::Row<'_>) -> rusqlite::Result<Option<[MatchRates; 2]>> {
    Ok(
        match (
            rates_at(r, MATCH_COLUMN_COUNT)?,
            rates_at(r, MATCH_COLUMN_COUNT + RATE_COLUMN_COUNT)?,
        ) {
            (Some(o), Some(x)) => Some([o, x]),
            _ => None,
        },
    )
}

/// The select list and joins that read a match with both sides' rates.
pub(super) fn with_rates_sql(extra: &str) -> String {
    format!(
        "SELECT {MATCH_COLUMNS}, {}, {}{extra} FROM matches m \
         LEFT JOIN match_rates o ON o.match_id = m.id AND o.side = 0 \
         LEFT JOIN match_rates x ON x.match_id = m.id AND x.side = 1",
        rate_columns("o"),
        rate_columns("x")
    )
}

impl Library {
    /// Every match as the match list shows it, in the order imported.
    pub fn listed_matches(&self) -> Result<Vec<ListedMatch>> {
        let extra = ", (SELECT count(*) FROM games g WHERE g.match_id = m.id), \
             (SELECT group_concat(engine || char(9) || plies || char(9) || from_file, char(10)) \
              FROM match_depths a WHERE a.match_id = m.id)";
        let mut st = self
            .conn
            .prepare(&format!("{} ORDER BY m.id", with_rates_sql(extra)))?;
        let after = MATCH_COLUMN_COUNT + 2 * RATE_COLUMN_COUNT;
        let rows = st.query_map([], |r| {
            let analyses = r
                .get::<_, Option<String>>(after + 1)?
                .map(|t| depths(&t))
                .unwrap_or_default();
            Ok(ListedMatch {
                m: stored_match(r)?,
                games: r.get(after)?,
                analyses,
                rates: both_rates(r)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// One match as the match list shows it.
    pub fn listed_match(&self, match_id: i64) -> Result<Option<ListedMatch>> {
        Ok(self
            .listed_matches()?
            .into_iter()
            .find(|l| l.m.id == match_id))
    }

    /// Sets match `match_id`'s date (`YYYY-MM-DD`) by hand; false when
    /// there is no such match.
    pub fn set_date(&mut self, match_id: i64, date: &str) -> Result<bool> {
        let tx = self.write()?;
        let n = tx.execute(
            "UPDATE matches SET date = ?2, date_from = 'set' WHERE id = ?1",
            params![match_id, date],
        )?;
        tx.commit()?;
        Ok(n > 0)
    }

    /// Groups the name `name` (folded: see `names::fold`) under `person`;
    /// an alias of the name is replaced.
    pub fn set_alias(&mut self, name: &str, person: &str) -> Result<()> {
        let tx = self.write()?;
        tx.execute(
            "INSERT OR REPLACE INTO aliases (name, person) VALUES (?1, ?2)",
            params![name, clean_line(person, "person")?],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// Removes the alias of `name` (folded); whether there was one.
    pub fn remove_alias(&mut self, name: &str) -> Result<bool> {
        let tx = self.write()?;
        let n = tx.execute("DELETE FROM aliases WHERE name = ?1", [name])?;
        tx.commit()?;
        Ok(n > 0)
    }

    /// Every alias: the name (folded) and its person.
    pub fn aliases(&self) -> Result<Vec<(String, String)>> {
        let mut st = self
            .conn
            .prepare_cached("SELECT name, person FROM aliases ORDER BY person, name")?;
        let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// Every player's name as the matches write it, each once.
    pub fn player_names(&self) -> Result<Vec<String>> {
        let mut st = self.conn.prepare(
            "SELECT player_o FROM matches UNION SELECT player_x FROM matches ORDER BY 1",
        )?;
        let rows = st.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
    }

    /// The id of the match whose file (by content hash) or whose match (by
    /// identity) is this one, if stored.
    pub fn match_by_hash_or_identity(&self, hash: &str, identity: &str) -> Result<Option<i64>> {
        Ok(self
            .conn
            .query_row(
                "SELECT id FROM matches WHERE hash = ?1 OR identity = ?2 ORDER BY hash = ?1 DESC, \
                 id LIMIT 1",
                params![hash, identity],
                |r| r.get(0),
            )
            .optional()?)
    }
}

/// `match_depths` rows as `group_concat` joined them.
fn depths(text: &str) -> Vec<(String, i64, bool)> {
    let mut out: Vec<(String, i64, bool)> = text
        .lines()
        .filter_map(|l| {
            let mut f = l.split('\t');
            Some((
                f.next()?.to_owned(),
                f.next()?.parse().ok()?,
                f.next()? == "1",
            ))
        })
        .collect();
    out.sort_by(|a, b| a.2.cmp(&b.2).then(b.1.cmp(&a.1)).then(a.0.cmp(&b.0)));
    out
}

impl StoredMatch {
    /// The final score (O's points, X's) as the file's games add up, when
    /// a game says who won.
    pub fn score(&self) -> Option<[u32; 2]> {
        let (o, x) = self.result.split_once('-')?;
        Some([o.trim().parse().ok()?, x.trim().parse().ok()?])
    }

    /// Who won: in a match, the side that reached the length (none while
    /// neither has: the file stops before the end); in money play, the
    /// side ahead (none when even).
    pub fn winner(&self) -> Option<bgedit_core::domain::Player> {
        use bgedit_core::domain::Player;
        let [o, x] = self.score()?;
        let length = u32::from(self.length);
        if length > 0 {
            return if o >= length && o > x {
                Some(Player::O)
            } else if x >= length && x > o {
                Some(Player::X)
            } else {
                None
            };
        }
        match o.cmp(&x) {
            std::cmp::Ordering::Greater => Some(Player::O),
            std::cmp::Ordering::Less => Some(Player::X),
            std::cmp::Ordering::Equal => None,
        }
    }
}

/// bgedit's most complete analysis of a match, as kept: the engine, the
/// plies, and each decision's verdict (its place in the match and the
/// judgements' JSON).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptAnalysis {
    pub engine: String,
    pub plies: i64,
    pub verdicts: Vec<(usize, String)>,
}

impl Library {
    /// bgedit's most complete analysis of match `match_id` (the most
    /// decisions; the deeper of two as complete), with its verdicts in
    /// the match's order; `None` when bgedit has not analysed it.
    pub fn kept_analysis(&self, match_id: i64) -> Result<Option<KeptAnalysis>> {
        let Some((engine, plies, _)) = self.best_own_analysis(match_id)? else {
            return Ok(None);
        };
        let mut st = self.conn.prepare_cached(
            "SELECT d.seq, a.analysis FROM analyses a JOIN decisions d ON d.id = a.decision_id \
             WHERE d.match_id = ?1 AND a.engine = ?2 AND a.plies = ?3 AND NOT a.from_file \
             ORDER BY d.seq",
        )?;
        let verdicts = st
            .query_map(params![match_id, engine, plies], |r| {
                Ok((r.get::<_, i64>(0)? as usize, r.get(1)?))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(Some(KeptAnalysis {
            engine,
            plies,
            verdicts,
        }))
    }
}
