//! A match file replayed once into what every analysis of it needs: its
//! decisions, the problems met on the way, and the match as gnubg is to
//! read it, cut from those same decisions. The CLI's `analyse --file` and
//! the editor's match review both start from it, so no caller replays the
//! file twice or pairs decisions with another replay's match.

use super::{Outcome, Pieces, Ran, RunOptions, piece_runs, run, run_pieces};
use crate::gnubg_match::MatchForGnubg;
use bgedit_core::codec::match_file::{self, FileDecision, MatchFile};
use bgedit_core::domain::match_record::ReadProblem;
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

    /// The decisions of each piece gnubg is handed whole (a game, or part
    /// of one), in match order; `None` when gnubg is not handed the match.
    pub fn pieces(&self) -> Option<Vec<std::ops::Range<usize>>> {
        let whole = self.whole.as_ref()?;
        let runs = piece_runs(&self.decisions, whole.pieces())?;
        Some(runs.into_iter().map(|(_, r)| r).collect())
    }

    /// Judges the pieces `pieces.wanted` whole (see [`run_pieces`]).
    pub fn analyse_pieces(
        &self,
        opts: &RunOptions,
        stop: &AtomicBool,
        each: &mut dyn FnMut(usize, Outcome),
        pieces: &mut Pieces<'_>,
    ) -> Option<Ran> {
        run_pieces(
            &self.decisions,
            opts,
            self.whole.as_ref(),
            stop,
            each,
            pieces,
        )
    }
}
