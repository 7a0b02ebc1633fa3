//! The library's mistakes: each match decision's error is the error of the
//! deepest verdict the library holds on it (the most plies; bgedit's own
//! before the file's at the same depth), so a match imported without
//! analysis shows its mistakes once `library analyse` has judged it. A
//! decision kept out of the positions at import (`--errors E`) that the
//! analysis finds at gnubg's doubtful mark or worse is made a position
//! entry then, so asking for mistakes never silently misses one.

use super::filter::DecisionKind;
use super::match_import::{self, StoredJudgement};
use super::store::{self, Decision, Library, Link, NewEntry, Verdict};
use bgedit_core::codec::match_file::FileDecision;
use bgedit_core::domain::match_stats;
use bgedit_core::domain::skill::DOUBTFUL;

/// The error a verdict gives a decision of `kind` (`checker`, `cube`,
/// `take`): the file's verdict's as stored; bgedit's own, summed over its
/// judgements of that kind only (a checker play's verdict also judges the
/// cube before the roll, which is not the checker play's mistake). None
/// when the verdict does not rank what was played.
pub(crate) fn kind_error(kind: &str, v: &Verdict) -> Option<f64> {
    if v.from_file {
        return v.error;
    }
    let want = match DecisionKind::from_name(kind) {
        Some(DecisionKind::Checker) => match_stats::DecisionKind::Checker,
        Some(DecisionKind::Cube) => match_stats::DecisionKind::Cube,
        Some(DecisionKind::Take) => match_stats::DecisionKind::Take,
        None => return v.error,
    };
    let judged: Vec<StoredJudgement> = serde_json::from_str(&v.text).ok()?;
    let of_kind: Vec<f64> = judged
        .iter()
        .filter(|j| j.judgement.kind == want)
        .map(|j| j.judgement.error)
        .collect();
    (!of_kind.is_empty()).then(|| of_kind.iter().sum())
}

/// What [`refresh`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Refreshed {
    /// Entries whose error is now their deepest verdict's.
    pub judged: u64,
    /// Decisions kept out at import made entries (at the doubtful mark or
    /// worse).
    pub added: u64,
}

/// Sets the errors of match `match_id`'s entries to their deepest
/// verdicts', and makes entries of the decisions without one that give
/// away [`DOUBTFUL`] or more: a roll, a double, a take or a pass, and the
/// cube decision before a roll that was not doubled (a double missed,
/// which a checker play's verdict judges beside the play). `decisions` are
/// the match file's, in the match's order (the stored decisions' `seq`);
/// `shown` names the file in the new entries' source, as an import does.
pub fn refresh(
    lib: &mut Library,
    match_id: i64,
    shown: &str,
    decisions: &[FileDecision],
) -> store::Result<Refreshed> {
    let mut new: Vec<(usize, Link, NewEntry)> = Vec::new();
    let mut errors = Vec::new();
    for d in lib.deepest_verdicts(match_id)? {
        let Some(v) = d.verdict.as_ref() else {
            continue;
        };
        let fd = decisions.get(d.seq);
        if let Some(error) = kind_error(&d.kind, v) {
            match (d.entry, fd) {
                (Some(_), _) => errors.push((d.seq, Link::Own, error)),
                (None, Some(fd)) if error >= DOUBTFUL => {
                    let mut entry = match_import::entry(shown, fd);
                    entry.decision = entry
                        .decision
                        .map(|k| Decision::new(k.player, k.kind, k.played, Some(error)));
                    // A position the store refuses stays out, as at import.
                    if entry.decision.is_some() && store::check_entry(&entry).is_ok() {
                        new.push((d.seq, Link::Own, entry));
                        errors.push((d.seq, Link::Own, error));
                    }
                }
                _ => {}
            }
        }
        if d.kind != "checker" {
            continue;
        }
        let cube = if v.from_file {
            fd.and_then(match_import::no_double_error)
        } else {
            kind_error("cube", v)
        };
        let Some(error) = cube else {
            continue;
        };
        match (d.cube_entry, fd) {
            (Some(_), _) => errors.push((d.seq, Link::CubeBefore, error)),
            (None, Some(fd)) if error >= DOUBTFUL => {
                let entry = match_import::cube_entry(shown, fd, Some(error));
                if store::check_entry(&entry).is_ok() {
                    new.push((d.seq, Link::CubeBefore, entry));
                    errors.push((d.seq, Link::CubeBefore, error));
                }
            }
            _ => {}
        }
    }
    let added = lib.keep_mistakes(match_id, &new, &errors)?;
    Ok(Refreshed {
        judged: errors.len() as u64,
        added,
    })
}
