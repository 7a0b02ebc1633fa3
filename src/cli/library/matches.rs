//! `library import` of a match file: the match kept whole (its header,
//! games, every decision and the file's own verdicts, once per content
//! hash) and its decisions as position entries (those that gave away at
//! least `--errors E` by the file's analysis, when asked).

use super::{Failure, Tally};
use crate::codec::match_file;
use crate::library::match_import;
use crate::library::store::{self, Library, MatchAdded};
use std::io::Write;
use std::path::Path;

/// What `--errors E` does with one decision: kept, below E, or not
/// analysed in the file (no error to compare: neither below nor above).
fn sorted(errors: Option<f64>, d: &match_file::FileDecision) -> Sorted {
    let Some(min) = errors else {
        return Sorted::Kept;
    };
    match match_import::decision_error(d) {
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
            crate::say!("{shown}: {e}; skipped");
            tally.failed += 1;
            return Ok(1);
        }
    };
    let (decisions, problems) = match_file::decisions(&file);
    for p in &problems {
        crate::say!("{}", match_file::describe(shown, p));
    }
    let mut m = match_import::new_match(shown, &bytes, &file, &decisions, |d| {
        sorted(errors, d) == Sorted::Kept
    });
    let mut rejected = 0u64;
    for (nd, d) in m.decisions.iter_mut().zip(&decisions) {
        if let Some(Err(e)) = nd.entry.as_ref().map(store::check_entry) {
            crate::say!("{shown}: game {}, move {}: {e}", d.game, d.number);
            nd.entry = None;
            rejected += 1;
        }
    }
    let added = match lib.add_match(&m) {
        Ok(a) => a,
        Err(e @ store::LibraryError::Invalid(_)) => {
            crate::say!("{shown}: {e}; skipped");
            tally.failed += 1;
            return Ok(1);
        }
        Err(e) => return Err(e.into()),
    };
    let count = |s: Sorted| decisions.iter().filter(|d| sorted(errors, d) == s).count();
    let (below, unanalysed) = (count(Sorted::Below), count(Sorted::Unanalysed));
    let failed = problems.len() as u64 + rejected;
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
            writeln!(
                out,
                "{shown}: already there (the same match as match {id}, from {}): 0 added, \
                 {failed} failed",
                crate::quote::printable(&from)
            )?;
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
            if errors.is_some() {
                write!(out, ", {below} below the error threshold")?;
                if unanalysed > 0 {
                    write!(out, ", {unanalysed} not analysed in the file")?;
                }
            }
            let analysed = m.decisions.iter().filter(|d| d.analysis.is_some()).count();
            writeln!(
                out,
                "; new match {id}: {n} decisions, {analysed} with the file's analysis"
            )?;
        }
    }
    if errors.is_some() && unanalysed > 0 && unanalysed == decisions.len() {
        crate::say!(
            "{shown}: the file carries no analysis, so --errors has no error to compare: \
             analyse it with gnubg and save it (gnubg: load match, analyse match, save match), or see each \
             decision's error with `bgedit analyse --file`; without --errors every decision \
             is imported"
        );
    }
    lib.optimize()?;
    let bad = !problems.is_empty() || rejected > 0;
    tally.failed += u64::from(bad);
    Ok(u8::from(bad))
}
