//! The review schedule: a small spaced-repetition rule (after SM-2). Each
//! entry has a due time, an interval and an ease; marking it known stretches
//! the interval by the ease, marking it not known brings it back tomorrow and
//! makes it a little harder. Pure: the caller passes the clock.

pub const DAY: i64 = 24 * 60 * 60;
pub const START_EASE: f64 = 2.5;
const MIN_EASE: f64 = 1.3;
const MAX_EASE: f64 = 3.5;
/// Longest gap between reviews: about a year.
const MAX_INTERVAL_DAYS: f64 = 365.0;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// Unix seconds from which the entry is due.
    pub due: i64,
    pub interval_days: f64,
    pub ease: f64,
    pub reviews: u32,
}

// The fields are never NaN (they come from `new` and `after`), so equality
// is total; this lets entries live in the editor's `Eq` model.
impl Eq for Schedule {}

impl Schedule {
    /// A new entry: due at once.
    pub fn new(now: i64) -> Schedule {
        Schedule {
            due: now,
            interval_days: 0.0,
            ease: START_EASE,
            reviews: 0,
        }
    }

    /// The schedule after a review at `now`.
    pub fn after(self, known: bool, now: i64) -> Schedule {
        let (interval_days, ease) = if known {
            let next = if self.interval_days < 1.0 {
                1.0
            } else {
                self.interval_days * self.ease
            };
            (next.min(MAX_INTERVAL_DAYS), (self.ease + 0.1).min(MAX_EASE))
        } else {
            (1.0, (self.ease - 0.2).max(MIN_EASE))
        };
        Schedule {
            due: now + (interval_days * DAY as f64).round() as i64,
            interval_days,
            ease,
            reviews: self.reviews.saturating_add(1),
        }
    }

    pub fn is_due(&self, now: i64) -> bool {
        self.due <= now
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_stretches_the_interval_by_the_ease() {
        let s = Schedule::new(0);
        assert!(s.is_due(0));
        let a = s.after(true, 0);
        assert_eq!((a.interval_days, a.due), (1.0, DAY));
        let b = a.after(true, DAY);
        assert!((b.interval_days - 2.6).abs() < 1e-9);
        assert_eq!(b.due, DAY + (2.6 * DAY as f64).round() as i64);
        assert_eq!(b.reviews, 2);
        assert!(!b.is_due(DAY * 2));
    }

    #[test]
    fn not_known_comes_back_tomorrow_and_lowers_the_ease() {
        let s = Schedule::new(0).after(true, 0).after(true, DAY);
        let c = s.after(false, 10 * DAY);
        assert_eq!(c.interval_days, 1.0);
        assert_eq!(c.due, 11 * DAY);
        assert!((c.ease - (s.ease - 0.2)).abs() < 1e-9);
        let mut worst = c;
        for _ in 0..20 {
            worst = worst.after(false, 0);
        }
        assert!((worst.ease - MIN_EASE).abs() < 1e-9);
    }

    #[test]
    fn intervals_stop_at_a_year() {
        let mut s = Schedule::new(0);
        for _ in 0..40 {
            s = s.after(true, 0);
        }
        assert_eq!(s.interval_days, MAX_INTERVAL_DAYS);
    }
}
