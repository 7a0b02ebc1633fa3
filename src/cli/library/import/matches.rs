//! `library import` of a match file: the match kept whole (its header,
//! games, every decision and the file's own verdicts, once per content
//! hash) and its decisions as position entries (those that gave away at
//! least `--errors E` by the file's analysis, when asked).

use super::Tally;
use crate::cli::library::Failure;
use bgedit_core::codec::match_file;
use bgedit_library::match_import;
use bgedit_library::store::{self, Library, MatchAdded};
use std::io::Write;
use std::path::Path;

/// What `--errors E` does with one decision: kept, below E, or not
/// analysed in the file (no error to compare: neither below nor above).
fn sorted(errors: Option<f64>, d: &match_file::FileDecision) -> Sorted {
    by_error(errors, match_import::decision_error(d))
}

/// What `--errors E` does with a decision of this error by the file's
/// analysis (`None`: not analysed).
fn by_error(errors: Option<f64>, error: Option<f64>) -> Sorted {
    let Some(min) = errors else {
        return Sorted::Kept;
    };
    match error {
        None => Sorted::Unanalysed,
        Some(e) if e < min => Sorted::Below,
        Some(_) => Sorted::Kept,
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Sorted {
    Kept,
    Below,
    Unanalysed,
}

/// Imports a match file: the match once (by its content hash), and its
/// decisions as entries (those with a stored error of at least `errors`,
/// when given). The exit code: 1 when the file could not be read or some
/// of it was not right.
pub(super) fn import_match(
    lib: &mut Library,
    path: &Path,
    shown: &str,
    errors: Option<f64>,
    tally: &mut Tally,
    out: &mut impl Write,
) -> Result<u8, Failure> {
    let read = match_file::read_path_bytes(path)
        .and_then(|bytes| match_file::read_bytes(&bytes).map(|f| (bytes, f)));
    let (bytes, file) = match read {
        Ok(r) => r,
        Err(e) => {
            bgedit_core::say!("{shown}: {e}; skipped");
            tally.failed += 1;
            return Ok(1);
        }
    };
    let (decisions, problems) = match_file::decisions(&file);
    for p in &problems {
        bgedit_core::say!("{}", match_file::describe(shown, p));
    }
    let mut m = match_import::new_match(shown, &bytes, &file, &decisions, |error| {
        by_error(errors, error) == Sorted::Kept
    });
    let rejected = leave_out_refused(&mut m, &decisions, shown);
    let added = match lib.add_match(&m) {
        Ok(a) => a,
        Err(e) if e.is_about_the_input() => {
            bgedit_core::say!("{shown}: {e}; skipped");
            tally.failed += 1;
            return Ok(1);
        }
        Err(e) => return Err(e.into()),
    };
    let count = |s: Sorted| decisions.iter().filter(|d| sorted(errors, d) == s).count();
    let skipped = problems.iter().filter(|p| p.read_as_gnubg()).count() as u64;
    let counts = Counts {
        failed: problems.len() as u64 - skipped + rejected,
        skipped,
        errors: errors.is_some(),
        below: count(Sorted::Below),
        unanalysed: count(Sorted::Unanalysed),
    };
    tell(lib, added, &m, &counts, shown, tally, out)?;
    if counts.errors && counts.unanalysed > 0 && counts.unanalysed == decisions.len() {
        bgedit_core::say!(
            "{shown}: the file carries no analysis, so --errors has no error to compare: \
             analyse it with gnubg and save it (gnubg: load match, analyse match, save match), or see each \
             decision's error with `bgedit analyse --file`; without --errors every decision \
             is imported"
        );
    }
    lib.optimize()?;
    // Moves gnubg skips too are no failure: the match is imported as
    // gnubg imports it, and each was said above.
    if skipped > 0 {
        tally.skipped_files += 1;
        tally.skipped_moves += skipped;
    }
    let bad = counts.failed > 0;
    tally.failed += u64::from(bad);
    Ok(u8::from(bad))
}

/// The entries the library would refuse, each said and left out (its
/// decision stays in the match): how many.
fn leave_out_refused(
    m: &mut store::NewMatch,
    decisions: &[match_file::FileDecision],
    shown: &str,
) -> u64 {
    let mut rejected = 0u64;
    for (nd, d) in m.decisions.iter_mut().zip(decisions) {
        if let Some(Err(e)) = nd.entry.as_ref().map(store::check_entry) {
            bgedit_core::say!("{shown}: game {}, move {}: {e}", d.game, d.number);
            nd.entry = None;
            rejected += 1;
        }
        // The cube's entry is the same position without the dice: refused
        // with it, said once.
        if nd
            .cube_entry
            .as_ref()
            .is_some_and(|e| store::check_entry(e).is_err())
        {
            nd.cube_entry = None;
        }
    }
    rejected
}

/// What the line about a match file counts besides the library's answer.
struct Counts {
    /// Problems of the file that gnubg would not pass over, and entries
    /// refused.
    failed: u64,
    /// Entries the reader skipped or mended as gnubg does (each said).
    skipped: u64,
    /// `--errors` was given.
    errors: bool,
    /// Decisions below the error threshold.
    below: usize,
    /// Decisions the file does not analyse.
    unanalysed: usize,
}

/// The line about a match file: a new match and what it added, or the
/// match already there (with the file's analysis added to it when it is
/// the same match from another file). Counted in `tally`.
fn tell(
    lib: &mut Library,
    added: MatchAdded,
    m: &store::NewMatch,
    c: &Counts,
    shown: &str,
    tally: &mut Tally,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let failed = c.failed;
    match added {
        MatchAdded::Existing(id) => {
            tally.known_matches += 1;
            writeln!(
                out,
                "{shown}: already there (the same file as match {id}): 0 added, {failed} failed"
            )?;
        }
        MatchAdded::SameMatch(id, from) => {
            tally.known_matches += 1;
            let kept = same_match_analysis(lib, id, m)?;
            write!(
                out,
                "{shown}: already there (the same match as match {id}, from {}): 0 added, \
                 {failed} failed",
                bgedit_core::quote::printable(&from)
            )?;
            if kept > 0 {
                write!(out, "; the file's analysis of {kept} decisions added to it")?;
            }
            writeln!(out)?;
        }
        MatchAdded::New {
            id,
            decisions: n,
            entries_new,
            entries_merged,
        } => {
            tally.new_matches += 1;
            tally.positions += entries_new;
            write!(
                out,
                "{shown}: {entries_new} added, {entries_merged} already there (merged), \
                 {failed} failed"
            )?;
            if c.skipped > 0 {
                write!(
                    out,
                    ", imported with {} skipped as gnubg skips them",
                    bgedit_core::words::count_s(c.skipped as usize, "move")
                )?;
            }
            if c.errors {
                write!(out, ", {} below the error threshold", c.below)?;
                if c.unanalysed > 0 {
                    write!(out, ", {} not analysed in the file", c.unanalysed)?;
                }
            }
            let analysed = m.decisions.iter().filter(|d| d.analysis.is_some()).count();
            writeln!(
                out,
                "; new match {id}: {n} decisions, {analysed} with the file's analysis"
            )?;
        }
    }
    Ok(())
}

/// The file's own analysis of a match already there from another file
/// (the same plays: `MatchAdded::SameMatch`), put on that match: the n-th
/// play's verdict on its n-th play, never over a verdict of the same
/// engine and depth the file there gave. The match's entries then follow
/// their deepest verdicts, as after `library analyse`. The count added.
///
/// Why: a player who imports the `.mat` exports first and gnubg's or XG's
/// analysed files later keeps that analysis, as the issue asks ("the
/// file's own analysis is kept").
fn same_match_analysis(lib: &mut Library, id: i64, m: &store::NewMatch) -> Result<u64, Failure> {
    let verdicts: Vec<(usize, store::Verdict)> = m
        .decisions
        .iter()
        .enumerate()
        .filter_map(|(seq, d)| Some((seq, d.analysis.clone()?)))
        .collect();
    if verdicts.is_empty() {
        return Ok(0);
    }
    let kinds: Vec<String> = m.decisions.iter().map(|d| d.kind.clone()).collect();
    let moved = match_import::by_play(&kinds, &lib.decision_kinds(id)?, verdicts);
    let kept = lib.put_verdicts(id, &moved, false)?;
    if kept > 0 {
        // The entries are the stored file's decisions, in its order.
        let (path, bytes) = lib.match_content(id)?;
        if let Ok(file) = match_file::read_bytes(&bytes) {
            let (decisions, _) = match_file::decisions(&file);
            let shown = bgedit_core::quote::printable(&path).into_owned();
            bgedit_library::mistakes::refresh(lib, id, &shown, &decisions)?;
        }
    }
    Ok(kept)
}
