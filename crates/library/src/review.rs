//! The review schedule: FSRS, the Free Spaced Repetition Scheduler that
//! Anki uses, through the `rs-fsrs` crate with its default weights (90%
//! retention asked, no fuzz: the same answers give the same schedule). Each
//! entry keeps FSRS's memory state (stability, difficulty, its learning
//! state, repetitions and lapses) and the time of its last review; a quiz's
//! grade is the rating. Pure: the caller passes the clock.

use chrono::{DateTime, Utc};
use rs_fsrs::{Card, FSRS, State};

pub(crate) const DAY: i64 = 24 * 60 * 60;

/// How well an entry was known, as FSRS rates a review.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rating {
    /// Not known (a bad or very bad answer, or revealed without one).
    Again,
    /// Known with trouble (a doubtful answer).
    Hard,
    /// Known (a correct answer).
    Good,
    /// Known at once.
    Easy,
}

impl Rating {
    fn fsrs(self) -> rs_fsrs::Rating {
        match self {
            Rating::Again => rs_fsrs::Rating::Again,
            Rating::Hard => rs_fsrs::Rating::Hard,
            Rating::Good => rs_fsrs::Rating::Good,
            Rating::Easy => rs_fsrs::Rating::Easy,
        }
    }
}

impl Rating {
    /// FSRS's number for it (1 Again to 4 Easy), as the results keep it.
    pub(crate) fn number(self) -> i64 {
        self.fsrs() as i64
    }
}

/// A quiz answer, kept for the statistics.
#[derive(Clone, Debug, PartialEq)]
pub struct QuizResult {
    pub collection: String,
    /// gnubg's word for the answer (`correct`, `doubtful`, `bad`, `very
    /// bad`), or `ungraded` (revealed and rated by the player).
    pub grade: String,
    /// The equity lost, when graded.
    pub error: Option<f64>,
}

// The error is a finite grade (or none): equality is total, and requests
// live in the editor's `Eq` effects.
impl Eq for QuizResult {}

/// The quiz's statistics over a set of answers.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct QuizStats {
    pub answers: i64,
    /// Answers gnubg graded.
    pub graded: i64,
    pub correct: i64,
    /// The mean equity lost per graded answer, in thousandths (mEMG, as
    /// match analysis counts).
    pub mean_memg: Option<f64>,
    /// By week (Monday 00:00 UTC), oldest first: the trend.
    pub weeks: Vec<WeekStats>,
    /// The entries missed most (bad or very bad, or rated Again).
    pub missed: Vec<Missed>,
}

impl QuizStats {
    /// One scope's statistics as text: the totals, the trend by week with a
    /// bar of its mean error, the positions missed most.
    pub fn text(&self, name: &str) -> String {
        let s = self;
        let pct = |part: i64, of: i64| {
            if of > 0 {
                format!("{:.0}%", 100.0 * part as f64 / of as f64)
            } else {
                "-".to_owned()
            }
        };
        let memg = |m: Option<f64>| m.map_or("-".to_owned(), |m| format!("{m:.1}"));
        let mut t = format!(
            "{name}: {} answers, {} graded, {} correct ({}), {} mEMG a decision\n",
            s.answers,
            s.graded,
            s.correct,
            pct(s.correct, s.graded),
            memg(s.mean_memg)
        );
        let top = s
            .weeks
            .iter()
            .filter_map(|w| w.mean_memg)
            .fold(0.0f64, f64::max);
        for w in &s.weeks {
            let day = chrono::DateTime::from_timestamp(w.start, 0)
                .map_or(String::new(), |d| d.format("%Y-%m-%d").to_string());
            let bar = match w.mean_memg {
                Some(m) if top > 0.0 => {
                    let bars = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
                    bars[((m / top) * 7.0).round().clamp(0.0, 7.0) as usize].to_string()
                }
                _ => " ".to_owned(),
            };
            t.push_str(&format!(
                "  week of {day}: {bar} {} answers, {} correct, {} mEMG\n",
                w.answers,
                pct(w.correct, w.answers),
                memg(w.mean_memg)
            ));
        }
        for m in &s.missed {
            let title = if m.title.is_empty() {
                String::new()
            } else {
                format!(" ({})", bgedit_core::quote::printable(&m.title))
            };
            t.push_str(&format!(
                "  missed: entry {}{title}, {} of {} answers\n",
                m.id, m.missed, m.answers
            ));
        }
        t
    }
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct WeekStats {
    /// Unix seconds of the week's start.
    pub start: i64,
    pub answers: i64,
    pub correct: i64,
    pub mean_memg: Option<f64>,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Missed {
    pub id: i64,
    pub title: String,
    pub missed: i64,
    pub answers: i64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// Unix seconds from which the entry is due.
    pub due: i64,
    /// Days from the last review to `due`.
    pub interval_days: f64,
    /// Reviews so far.
    pub reviews: u32,
    /// FSRS's memory: days until recall falls to 90%.
    pub stability: f64,
    /// FSRS's difficulty, 1 (easy) to 10.
    pub difficulty: f64,
    /// FSRS's learning state: 0 new, 1 learning, 2 review, 3 relearning.
    pub state: u8,
    /// Times an entry in review was forgotten.
    pub lapses: u32,
    /// Unix seconds of the last review (the creation time before one).
    pub last_review: i64,
}

// The fields are never NaN (they come from FSRS's arithmetic on finite
// values), so equality is total; entries live in the editor's `Eq` model.
impl Eq for Schedule {}

fn time(unix: i64) -> DateTime<Utc> {
    DateTime::from_timestamp(unix, 0).unwrap_or_default()
}

impl Schedule {
    /// A new entry: due at once.
    pub(crate) fn new(now: i64) -> Schedule {
        Schedule {
            due: now,
            interval_days: 0.0,
            reviews: 0,
            stability: 0.0,
            difficulty: 0.0,
            state: 0,
            lapses: 0,
            last_review: now,
        }
    }

    fn card(&self) -> Card {
        Card {
            due: time(self.due),
            stability: self.stability,
            difficulty: self.difficulty,
            elapsed_days: 0,
            scheduled_days: self.interval_days.round() as i64,
            reps: i32::try_from(self.reviews).unwrap_or(i32::MAX),
            lapses: i32::try_from(self.lapses).unwrap_or(i32::MAX),
            state: match self.state {
                1 => State::Learning,
                2 => State::Review,
                3 => State::Relearning,
                _ => State::New,
            },
            last_review: time(self.last_review),
        }
    }

    /// The schedule after a review rated `rating` at `now`.
    pub(crate) fn after(self, rating: Rating, now: i64) -> Schedule {
        let next = FSRS::default()
            .next(self.card(), time(now), rating.fsrs())
            .card;
        let due = next.due.timestamp();
        Schedule {
            due,
            interval_days: (due - now) as f64 / DAY as f64,
            reviews: u32::try_from(next.reps).unwrap_or(0),
            stability: next.stability,
            difficulty: next.difficulty,
            state: next.state as u8,
            lapses: u32::try_from(next.lapses).unwrap_or(0),
            last_review: now,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The crate's own reference: a new card rated Good is learning, due in
    /// ten minutes, with FSRS's initial stability and difficulty for Good
    /// (w[2] = 3.1262, and D0(3) = w[4] - exp(w[5] * 2) + 1).
    #[test]
    fn a_new_entry_rated_good_takes_fsrss_initial_state() {
        let s = Schedule::new(0).after(Rating::Good, 0);
        assert_eq!(s.state, 1);
        assert_eq!(s.due, 10 * 60);
        assert!((s.stability - 3.1262).abs() < 1e-9, "{s:?}");
        let d0 = 7.2102 - (0.5316f64 * 2.0).exp() + 1.0;
        assert!((s.difficulty - d0).abs() < 1e-9, "{s:?}");
        assert_eq!(s.reviews, 1);
    }

    #[test]
    fn good_answers_stretch_the_interval_and_again_brings_it_back() {
        let mut s = Schedule::new(0);
        let mut now = 0;
        let mut gaps = Vec::new();
        for _ in 0..5 {
            s = s.after(Rating::Good, now);
            gaps.push(s.due - now);
            now = s.due;
        }
        assert!(gaps.windows(2).all(|w| w[1] >= w[0]), "{gaps:?}");
        assert!(s.interval_days > 10.0, "{s:?}");
        assert_eq!(s.state, 2);
        let forgot = s.after(Rating::Again, now);
        assert_eq!(forgot.state, 3, "relearning");
        assert_eq!(forgot.lapses, 1);
        assert!(forgot.due - now < DAY, "{forgot:?}");
        assert!(forgot.stability < s.stability);
        // Hard is between Again and Good; Easy beyond Good.
        let hard = s.after(Rating::Hard, now).due;
        let good = s.after(Rating::Good, now).due;
        let easy = s.after(Rating::Easy, now).due;
        assert!(forgot.due < hard && hard < good && good < easy);
    }
}
