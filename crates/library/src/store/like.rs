//! Positions like this one (`library like`, the editor's key): the nearest
//! entries by the distance of `crate::like`, found on the `entries_like`
//! index cell by cell, nearest bound first; and the same answer by reading
//! every entry, for the tests and the benchmark to compare with.

use super::*;
use crate::like::{CellWalk, LikeKind, Shape, cell_of, distance, shape};
use bgedit_core::domain::Position;
use rusqlite::params;
use std::collections::BinaryHeap;

/// How many index entries reading costs about what looking up one cell
/// does (measured on a million positions: docs/performance.md).
const ROWS_PER_CELL: usize = 16;

/// The most positions one query gives.
pub const MAX_LIKE: usize = 1000;

/// One entry like the query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Like {
    pub id: i64,
    pub gnubg_id: String,
    /// In checker-pips.
    pub distance: u32,
    pub kind: LikeKind,
}

/// The answer and what finding it read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Likes {
    /// Nearest first; ties by kind (the query's own first), then by entry.
    pub positions: Vec<Like>,
    /// The index's cells looked up.
    pub cells: usize,
    /// The index entries read (the entries, when scanned).
    pub rows: usize,
    /// Whether the answer was finished by reading every entry (more cells
    /// to look up than a scan costs).
    pub scanned: bool,
}

/// The query: what it is near to, and what it keeps.
struct Query {
    shape: Shape,
    kind: LikeKind,
    same_kind: bool,
    /// The query's own entry, left out.
    itself: Option<i64>,
    limit: usize,
}

/// An entry's order in the answer: distance, then the query's kind first,
/// then the entry's number.
type Rank = (u32, bool, i64);

impl Query {
    fn rank(&self, id: i64, kind: LikeKind, stored: &[u8]) -> Option<Rank> {
        if Some(id) == self.itself || (self.same_kind && kind != self.kind) {
            return None;
        }
        Some((distance(&self.shape.0, stored), kind != self.kind, id))
    }
}

/// The best `limit` ranks seen, the worst on top.
struct Best {
    heap: BinaryHeap<Rank>,
    limit: usize,
}

impl Best {
    fn offer(&mut self, rank: Rank) {
        if self.heap.len() < self.limit {
            self.heap.push(rank);
        } else if self.heap.peek().is_some_and(|worst| rank < *worst) {
            self.heap.pop();
            self.heap.push(rank);
        }
    }

    /// The distance past which nothing can enter, once full.
    fn bar(&self) -> Option<u32> {
        (self.heap.len() == self.limit)
            .then(|| self.heap.peek().map(|r| r.0))
            .flatten()
    }
}

/// A position's index columns, as the store binds them: cell, kind, shape.
pub(super) fn like_params(position: &Position) -> [rusqlite::types::Value; 3] {
    use rusqlite::types::Value;
    let s = shape(position);
    [
        Value::Integer(cell_of(&s)),
        Value::Integer(LikeKind::of(position) as i64),
        Value::Blob(s.0.to_vec()),
    ]
}

/// Writes a position's index columns (its position changed, or the
/// schema had none yet); a new row takes them with its insert.
pub(super) fn write_like(
    tx: &rusqlite::Transaction<'_>,
    id: i64,
    position: &Position,
) -> Result<()> {
    let [cell, kind, shape] = like_params(position);
    tx.prepare_cached(
        "UPDATE entries SET like_cell = ?2, like_kind = ?3, like_shape = ?4 WHERE id = ?1",
    )?
    .execute(params![id, cell, kind, shape])?;
    Ok(())
}

/// Fills the index columns of the rows there before the schema had them.
pub(super) fn fill_like(tx: &rusqlite::Transaction<'_>) -> Result<()> {
    let mut read = tx.prepare("SELECT id, position_json FROM entries")?;
    let mut rows = read.query([])?;
    while let Some(r) = rows.next()? {
        let id: i64 = r.get(0)?;
        write_like(tx, id, &decode_position(id, &r.get::<_, String>(1)?)?)?;
    }
    Ok(())
}

impl Library {
    fn like_query(&self, position: &Position, limit: usize, same_kind: bool) -> Result<Query> {
        Ok(Query {
            shape: shape(position),
            kind: LikeKind::of(position),
            same_kind,
            itself: self.find(position)?,
            limit: limit.min(MAX_LIKE),
        })
    }

    /// The `limit` entries nearest `position` (at most [`MAX_LIKE`]; the
    /// position's own entry left out), of its kind only when `same_kind`.
    ///
    /// Cells are looked up nearest first until the next one's bound passes
    /// the k-th best distance. A cell costs about as much as reading
    /// [`ROWS_PER_CELL`] entries, so once the cells looked up would cost
    /// more than reading every entry (a library smaller than the limit, or
    /// a query far from all of it), the rest is read by a scan instead:
    /// the same answer, at worst about twice a scan's time.
    pub fn like(&self, position: &Position, limit: usize, same_kind: bool) -> Result<Likes> {
        let size: i64 =
            self.conn
                .query_row("SELECT coalesce(max(id), 0) FROM entries", [], |r| r.get(0))?;
        let budget = (size as usize / ROWS_PER_CELL).max(64);
        self.like_within(position, limit, same_kind, budget)
    }

    /// [`Library::like`] looking up at most `budget` cells before it reads
    /// every entry instead (the tests give it room to use the index alone).
    pub fn like_within(
        &self,
        position: &Position,
        limit: usize,
        same_kind: bool,
        budget: usize,
    ) -> Result<Likes> {
        let q = self.like_query(position, limit, same_kind)?;
        let mut best = Best {
            heap: BinaryHeap::new(),
            limit: q.limit,
        };
        let (mut cells, mut rows) = (0, 0);
        if q.limit == 0 {
            return Ok(Likes {
                positions: Vec::new(),
                cells,
                rows,
                scanned: false,
            });
        }
        let mut all = self
            .conn
            .prepare_cached("SELECT id, like_kind, like_shape FROM entries WHERE like_cell = ?1")?;
        let mut kind_only = self.conn.prepare_cached(
            "SELECT id, like_kind, like_shape FROM entries WHERE like_cell = ?1 AND like_kind = ?2",
        )?;
        for (bound, cell) in CellWalk::new(&q.shape) {
            // Ties at the bar may still come first by kind or number.
            if best.bar().is_some_and(|bar| bound > bar) {
                break;
            }
            if cells == budget {
                let scanned = self.like_by_scan(position, limit, same_kind)?;
                return Ok(Likes { cells, ..scanned });
            }
            cells += 1;
            let mut found = if same_kind {
                kind_only.query(params![cell, q.kind as i64])?
            } else {
                all.query([cell])?
            };
            while let Some(r) = found.next()? {
                rows += 1;
                let stored = r.get_ref(2)?.as_blob().map_err(rusqlite::Error::from)?;
                if let Some(rank) = q.rank(r.get(0)?, LikeKind::from_code(r.get(1)?), stored) {
                    best.offer(rank);
                }
            }
        }
        let positions = self.with_ids(best.heap.into_sorted_vec(), q.kind)?;
        Ok(Likes {
            positions,
            cells,
            rows,
            scanned: false,
        })
    }

    /// The same answer as [`Library::like`], by reading every entry's
    /// shape: what the index is measured and tested against.
    pub fn like_by_scan(
        &self,
        position: &Position,
        limit: usize,
        same_kind: bool,
    ) -> Result<Likes> {
        let q = self.like_query(position, limit, same_kind)?;
        let mut best = Best {
            heap: BinaryHeap::new(),
            limit: q.limit,
        };
        let mut st = self
            .conn
            .prepare_cached("SELECT id, like_kind, like_shape FROM entries")?;
        let mut found = st.query([])?;
        let mut rows = 0;
        while let Some(r) = found.next()? {
            rows += 1;
            let stored = r.get_ref(2)?.as_blob().map_err(rusqlite::Error::from)?;
            if let Some(rank) = q.rank(r.get(0)?, LikeKind::from_code(r.get(1)?), stored) {
                best.offer(rank);
            }
        }
        let positions = self.with_ids(best.heap.into_sorted_vec(), q.kind)?;
        Ok(Likes {
            positions,
            cells: 0,
            rows,
            scanned: true,
        })
    }

    /// The ranks found, with their GNUBG IDs.
    fn with_ids(&self, ranks: Vec<Rank>, kind: LikeKind) -> Result<Vec<Like>> {
        let mut st = self
            .conn
            .prepare_cached("SELECT gnubg_id FROM entries WHERE id = ?1")?;
        ranks
            .into_iter()
            .map(|(distance, other, id)| {
                let kind = if other { kind.other() } else { kind };
                Ok(Like {
                    id,
                    gnubg_id: st.query_row([id], |r| r.get(0))?,
                    distance,
                    kind,
                })
            })
            .collect()
    }
}

impl Library {
    /// The entries found, as the panel lists them, each with its distance.
    pub fn like_summaries(&self, likes: &Likes) -> Result<Vec<(u32, super::Summary)>> {
        let mut st = self.conn.prepare_cached(&format!(
            "SELECT {} FROM entries e WHERE e.id = ?1",
            super::search::SUMMARY_COLUMNS
        ))?;
        likes
            .positions
            .iter()
            .map(|l| {
                Ok((
                    l.distance,
                    st.query_row([l.id], |r| Ok(super::search::summary(r)))??,
                ))
            })
            .collect()
    }
}
