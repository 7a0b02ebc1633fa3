//! A match file replayed once into what every analysis of it needs: its
//! decisions, the problems met on the way, and, for an engine that reads
//! whole games itself (gnubg), the match as it is to read it, cut from
//! those same decisions. The CLI's `analyse --file`, `match --analyse`,
//! `library analyse` and the editor's match review all start from it and
//! hold nothing else of the match an engine reads: no caller replays the
//! file twice, pairs decisions with another replay's match, or knows which
//! engine reads what.

use super::judge::Outcome;
use super::judge::piece_runs;
use super::schedule::{Pieces, Ran, RunOptions, run, run_pieces};
use crate::gnubg_match::{MatchForGnubg, PIECE};
use bgedit_core::codec::match_file::{self, FileDecision, MatchFile};
use bgedit_core::domain::match_record::{FileAnalysis, ReadProblem};
use std::ops::Range;
use std::sync::atomic::AtomicBool;

/// A match file, replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayedMatch {
    /// Every decision, in match order.
    decisions: Vec<FileDecision>,
    /// What was not right in the file or its replay (the rest is there).
    problems: Vec<ReadProblem>,
    /// The match as an engine that reads whole games is to read it (none
    /// for gnubg's match text, which holds positions, not a match).
    whole: Option<MatchForGnubg>,
}

impl ReplayedMatch {
    /// Replays `file` once.
    pub fn of(file: &MatchFile) -> ReplayedMatch {
        ReplayedMatch::cut(file, PIECE)
    }

    /// The same, the match handed whole in pieces of about `size`
    /// decisions (0: whole games) rather than the analysis's own size: how
    /// a match is cut, tried at other sizes.
    pub fn cut(file: &MatchFile, size: usize) -> ReplayedMatch {
        let (decisions, problems) = match_file::decisions(file);
        let whole = MatchForGnubg::in_pieces(file, &decisions, size);
        ReplayedMatch {
            decisions,
            problems,
            whole,
        }
    }

    /// Every decision, in match order.
    pub fn decisions(&self) -> &[FileDecision] {
        &self.decisions
    }

    /// What was not right in the file or its replay.
    pub fn problems(&self) -> &[ReadProblem] {
        &self.problems
    }

    /// The same decisions with nothing handed whole: each decision is
    /// asked on its own, whatever the engine (the road a game takes when
    /// an engine's records of it part from the file's).
    pub fn decision_by_decision(&self) -> ReplayedMatch {
        ReplayedMatch {
            whole: None,
            ..self.clone()
        }
    }

    /// The file's own analysis of each decision changed by `relabel` (its
    /// moves and positions stay: the match handed whole is cut from them).
    pub fn relabel_file_analysis(&mut self, mut relabel: impl FnMut(&mut FileAnalysis)) {
        for d in &mut self.decisions {
            d.analysis.iter_mut().for_each(&mut relabel);
            d.cube_analysis.iter_mut().for_each(&mut relabel);
        }
    }

    /// Judges every decision (see [`run`]): whole games by an engine that
    /// reads them when the match is there, else decision by decision.
    pub fn analyse(
        &self,
        opts: &RunOptions,
        stop: &AtomicBool,
        each: &mut dyn FnMut(usize, Outcome),
    ) -> Ran {
        run(&self.decisions, opts, self.whole.as_ref(), stop, each)
    }

    /// The decisions `which` (places in the match, in order) judged each on
    /// its own, as a match not handed whole is: what a run stopped part
    /// way left, when the match is not handed whole. Outcomes come with
    /// their places in the match.
    pub fn analyse_each(
        &self,
        which: &[usize],
        opts: &RunOptions,
        stop: &AtomicBool,
        each: &mut dyn FnMut(usize, Outcome),
    ) -> Ran {
        let subset: Vec<FileDecision> = which
            .iter()
            .filter_map(|&i| self.decisions.get(i).cloned())
            .collect();
        run(&subset, opts, None, stop, &mut |k, o| each(which[k], o))
    }

    /// The decisions of each piece an engine that reads whole games is
    /// handed (a game, or part of one), in match order; `None` when the
    /// match is not handed whole.
    pub fn pieces(&self) -> Option<Vec<Range<usize>>> {
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
