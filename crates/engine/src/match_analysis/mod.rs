//! A whole match analysed by an engine, decision by decision, as gnubg's
//! own `analyse match` does it, and a quiz answer graded the same way:
//!
//! - `replayed.rs`: the match file replayed once ([`ReplayedMatch`]), what
//!   every caller holds;
//! - `judge.rs`: the judging, pure: which decisions are judged and each
//!   one's verdict from an engine's answer or from gnubg's records of a
//!   whole game;
//! - `ask.rs`: one decision asked of an engine and judged;
//! - `schedule.rs`: the run: jobs on threads, pieces handed whole, the
//!   stop flag, the outcomes back in match order;
//! - `quiz.rs`: a quiz answer graded; `report.rs`: the statistics and luck
//!   with their text and JSON; `annotate.rs`: the verdicts put into the
//!   match model and an analysed SGF; `error.rs`: why a decision was not
//!   judged; `kept.rs`: verdicts that ask no engine (a file's own analysis
//!   judged the same way, a verdict the library kept).
//!
//! The counting into per-player statistics is `domain::match_stats`.

pub mod annotate;
mod ask;
mod error;
pub(crate) mod judge;
pub mod kept;
mod quiz;
mod replayed;
pub mod report;
mod schedule;

pub use error::{JudgeError, NoLuck, Question};
pub use judge::{Failed, Judged, Outcome};
pub use quiz::{QuizAnswer, check_answer, grade, grade_with, kept_grades_at_depth};
pub use replayed::ReplayedMatch;
pub use report::Report;
pub use schedule::{Pieces, Ran, RunOptions};
