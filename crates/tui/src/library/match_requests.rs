//! The worker's answers that are the match list's and the match panel's:
//! the list of matches, a stored match with its kept verdicts, the file
//! the panel opened found in (or imported into) the library, and the
//! editor's verdicts kept. On the worker's thread: the file is read and
//! replayed here, never on the event loop.

use crate::action::Action;
use crate::match_list::state::{ListFailure, MatchListAction};
use crate::match_review::state::{Attached, OpenError, ReviewAction, Stored};
use bgedit_core::codec::match_file;
use bgedit_library::listing::{self, SortBy};
use bgedit_library::store::{Library, LibraryError, LibraryFailure, Verdict};
use std::path::Path;

type Lib<'a> = Result<&'a mut Library, LibraryFailure>;

/// A failure about `what` (a file, a match), in words naming the library
/// where it is the library's.
fn failed(what: &str, reason: impl std::fmt::Display) -> OpenError {
    OpenError {
        path: what.to_owned(),
        reason: reason.to_string(),
    }
}

/// The library's error about `what`, naming the library's file.
fn library(what: &str, path: Option<&Path>, e: LibraryError) -> OpenError {
    failed(what, LibraryFailure::new(path, e).message)
}

pub(super) fn matches(lib: Lib<'_>, path: Option<&Path>, filter: &str, sort: SortBy) -> Action {
    let result = lib.map_err(ListFailure::Library).and_then(|l| {
        listing::list(l, filter, sort)
            .map(Box::new)
            .map_err(|e| match e {
                listing::ListError::Library(e) => {
                    ListFailure::Library(LibraryFailure::new(path, e))
                }
                e => ListFailure::Filter(e),
            })
    });
    Action::MatchList(MatchListAction::Listed(result))
}

pub(super) fn open_stored(lib: Lib<'_>, path: Option<&Path>, id: i64) -> Action {
    let what = format!("match {id}");
    let result = lib.map_err(|e| failed(&what, e.message)).and_then(|l| {
        let (shown, bytes) = l.match_content(id).map_err(|e| library(&what, path, e))?;
        let file = match_file::read_bytes(&bytes).map_err(|e| failed(&what, e))?;
        let loaded = crate::match_review::loaded(&shown, file, None);
        let kept = l.kept_analysis(id).map_err(|e| library(&what, path, e))?;
        Ok(Box::new(Stored {
            loaded,
            match_id: id,
            kept,
        }))
    });
    Action::Review(ReviewAction::OpenedStored(result))
}

pub(super) fn attach(lib: Lib<'_>, path: Option<&Path>, serial: u64, file: &str) -> Action {
    let shown = bgedit_core::quote::printable(file).into_owned();
    let result = lib.map_err(|e| failed(&shown, e.message)).and_then(|l| {
        let bytes = match_file::read_path_bytes(Path::new(file)).map_err(|e| failed(&shown, e))?;
        let (match_id, imported) = bgedit_library::match_import::attach(l, &shown, &bytes)
            .map_err(|e| match e {
                bgedit_library::match_import::AttachError::Library(e) => library(&shown, path, e),
                e => failed(&shown, e),
            })?;
        let kept = l
            .kept_analysis(match_id)
            .map_err(|e| library(&shown, path, e))?;
        Ok(Box::new(Attached {
            match_id,
            imported,
            kept,
        }))
    });
    Action::Review(ReviewAction::Attached(serial, result))
}

pub(super) fn keep(
    lib: Lib<'_>,
    path: Option<&Path>,
    match_id: i64,
    verdicts: &[(usize, Verdict)],
) -> Action {
    let what = format!("match {match_id}");
    let result = lib.map_err(|e| failed(&what, e.message)).and_then(|l| {
        l.put_verdicts(match_id, verdicts, false)
            .map(|_| ())
            .map_err(|e| library(&what, path, e))
    });
    Action::Review(ReviewAction::Kept(result))
}

/// The match's entries after the editor's analysis, as after `library
/// analyse`: each error its deepest verdict's, the mistakes kept out made
/// entries.
pub(super) fn refresh(lib: Lib<'_>, path: Option<&Path>, match_id: i64) -> Action {
    let what = format!("match {match_id}");
    let result = lib.map_err(|e| failed(&what, e.message)).and_then(|l| {
        let (shown, bytes) = l
            .match_content(match_id)
            .map_err(|e| library(&what, path, e))?;
        let file = match_file::read_bytes(&bytes).map_err(|e| failed(&what, e))?;
        let (decisions, _) = match_file::decisions(&file);
        let shown = bgedit_core::quote::printable(&shown).into_owned();
        bgedit_library::mistakes::refresh(l, match_id, &shown, &decisions)
            .map(|_| ())
            .map_err(|e| library(&what, path, e))
    });
    Action::Review(ReviewAction::Kept(result))
}
