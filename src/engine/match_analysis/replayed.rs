//! A match file replayed once into what every analysis of it needs: its
//! decisions, the problems met on the way, and the match as gnubg is to
//! read it, cut from those same decisions. The CLI's `analyse --file` and
//! the editor's match review both start from it, so no caller replays the
//! file twice or pairs decisions with another replay's match.

use super::{Outcome, Ran, RunOptions, run};
use crate::codec::match_file::{self, FileDecision, MatchFile};
use crate::domain::match_record::ReadProblem;
use crate::engine::gnubg_match::MatchForGnubg;
use std::sync::atomic::AtomicBool;

/// A match file, replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayedMatch {
    /// Every decision, in match order.
    pub decisions: Vec<FileDecision>,
    /// What was not right in the file or its replay (the rest is there).
    pub problems: Vec<ReadProblem>,
    /// The match as gnubg is to read it (none for gnubg's match text,
    /// which holds positions, not a match).
    pub whole: Option<MatchForGnubg>,
}

impl ReplayedMatch {
    /// Replays `file` once.
    pub fn of(file: &MatchFile) -> ReplayedMatch {
        let (decisions, problems) = match_file::decisions(file);
        let whole = MatchForGnubg::of(file, &decisions);
        ReplayedMatch {
            decisions,
            problems,
            whole,
        }
    }

    /// Judges every decision (see [`run`]): whole games by gnubg when the
    /// match is there, else decision by decision.
    pub fn analyse(
        &self,
        opts: &RunOptions,
        stop: &AtomicBool,
        each: &mut dyn FnMut(usize, Outcome),
    ) -> Ran {
        run(&self.decisions, opts, self.whole.as_ref(), stop, each)
    }
}
