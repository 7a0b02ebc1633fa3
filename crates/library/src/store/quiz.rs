//! The quiz's tables: what is due in a collection, the reviews kept with
//! their FSRS schedule, the analysis kept for grading, and the statistics.

use super::*;
use crate::review::{Missed, QuizResult, QuizStats, Rating, Schedule, WeekStats};
use rusqlite::{OptionalExtension, params};

impl Library {
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
        let query = crate::filter::parse(&format!("{name} due")).map_err(LibraryError::Filter)?;
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
