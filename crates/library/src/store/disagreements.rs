//! Two engines' verdicts on entries set side by side (`library
//! disagreements`, schema 10): which entries a pair of engines has not
//! compared at a depth, each comparison stored as it is done, and the
//! stored ones listed worst first.

use super::*;
use crate::filter::Query;
use bgedit_core::domain::Position;
use rusqlite::params;

/// One entry compared by a pair of engines at a depth.
#[derive(Clone, Debug, PartialEq)]
pub struct Compared {
    pub entry_id: i64,
    /// The pair's keys, comma-separated, in the registry's order.
    pub engines: String,
    /// The depth, in gnubg's count.
    pub plies: i64,
    /// `move`, `cube`, `take`, or `none` (nothing both engines rank).
    pub decision: String,
    /// Each engine's choice.
    pub picks: [String; 2],
    /// What the other engine's pick costs by each engine's numbers (0 when
    /// they pick alike; none when its list lacks the other's pick).
    pub gaps: [Option<f64>; 2],
}

impl Compared {
    /// How far apart the picks are by either engine's numbers: the larger
    /// gap; none when nothing was compared (or neither list priced the
    /// other's pick).
    pub fn gap(&self) -> Option<f64> {
        match self.gaps {
            [Some(a), Some(b)] => Some(a.max(b)),
            [a, b] => a.or(b),
        }
    }
}

/// A stored comparison with what the list shows of its entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Listed {
    pub compared: Compared,
    pub title: String,
    pub gnubg_id: String,
    pub xgid: String,
}

impl Library {
    /// The entries `query` selects that `engines` have not compared at
    /// `plies`, oldest first, with their positions.
    pub fn not_compared(
        &self,
        query: &Query,
        engines: &str,
        plies: i64,
    ) -> Result<Vec<(i64, Position)>> {
        let sel = self.selection(query)?;
        let sql = format!(
            "SELECT x.id, x.position_json FROM entries x WHERE x.id IN (SELECT e.id{}) \
             AND NOT EXISTS (SELECT 1 FROM disagreements d WHERE d.entry_id = x.id \
             AND d.engines = ? AND d.plies = ?) ORDER BY x.id",
            sel.from
        );
        let mut args = sel.args;
        args.push(Arg::Text(engines.to_owned()));
        args.push(Arg::Int(plies));
        let mut st = self.conn.prepare(&sql)?;
        let mut rows = st.query(rusqlite::params_from_iter(args.iter()))?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            let id: i64 = r.get(0)?;
            out.push((id, decode_position(id, &r.get::<_, String>(1)?)?));
        }
        Ok(out)
    }

    /// Stores comparisons in one transaction; one already there (another
    /// run's, at the same engines and depth) is kept. An entry removed
    /// meanwhile is passed over. The count written.
    pub fn put_compared(&mut self, rows: &[Compared]) -> Result<u64> {
        let now = now();
        let tx = self.write()?;
        let mut written = 0;
        {
            let mut st = tx.prepare_cached(
                "INSERT OR IGNORE INTO disagreements (entry_id, engines, plies, decision, \
                 pick_a, pick_b, gap_a, gap_b, gap, created) \
                 SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10 \
                 WHERE EXISTS (SELECT 1 FROM entries WHERE id = ?1)",
            )?;
            for c in rows {
                written += st.execute(params![
                    c.entry_id,
                    c.engines,
                    c.plies,
                    c.decision,
                    c.picks[0],
                    c.picks[1],
                    c.gaps[0],
                    c.gaps[1],
                    c.gap(),
                    now
                ])? as u64;
            }
        }
        tx.commit()?;
        Ok(written)
    }

    /// The comparisons `engines` made at `plies` of the entries `query`
    /// selects whose gap is at least `min`, the largest gap first (then
    /// the oldest entry).
    pub fn compared(
        &self,
        query: &Query,
        engines: &str,
        plies: i64,
        min: f64,
    ) -> Result<Vec<Listed>> {
        let sel = self.selection(query)?;
        let sql = format!(
            "SELECT d.entry_id, d.decision, d.pick_a, d.pick_b, d.gap_a, d.gap_b, x.title, \
             x.gnubg_id, x.xgid FROM disagreements d JOIN entries x ON x.id = d.entry_id \
             WHERE d.entry_id IN (SELECT e.id{}) AND d.engines = ? AND d.plies = ? \
             AND d.gap >= ? ORDER BY d.gap DESC, d.entry_id",
            sel.from
        );
        let mut args = sel.args;
        args.push(Arg::Text(engines.to_owned()));
        args.push(Arg::Int(plies));
        args.push(Arg::Real(min));
        let mut st = self.conn.prepare(&sql)?;
        let rows = st.query_map(rusqlite::params_from_iter(args.iter()), |r| {
            Ok(Listed {
                compared: Compared {
                    entry_id: r.get(0)?,
                    engines: engines.to_owned(),
                    plies,
                    decision: r.get(1)?,
                    picks: [r.get(2)?, r.get(3)?],
                    gaps: [r.get(4)?, r.get(5)?],
                },
                title: r.get(6)?,
                gnubg_id: r.get(7)?,
                xgid: r.get(8)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Puts the entries `ids` in collection `name` (made if new), in one
    /// transaction.
    pub fn collect(&mut self, ids: &[i64], name: &str) -> Result<()> {
        let tx = self.write()?;
        for &id in ids {
            add_collections(&tx, id, std::slice::from_ref(&name.to_owned()))?;
        }
        tx.commit()?;
        Ok(())
    }
}

/// Whether `name` can be a collection's name (checked before a long run
/// that ends by putting entries in it).
pub fn check_collection(name: &str) -> Result<()> {
    clean_name(name, "collection").map(|_| ())
}
