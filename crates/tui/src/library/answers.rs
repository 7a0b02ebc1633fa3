//! The worker's answers: the page of the list, an entry fetched for what
//! asked for it, what an addition, an edit or a deletion did, and the
//! quiz's due list, kept analyses and statistics.

use super::state::{Ask, LibMode, NoteEditor, Purpose, Review, WorkerAnswer};
use super::steps::{ask, back, error, reopen_page};
use crate::effect::Effect;
use crate::model::{Mode, Model, Status};
use crate::transition::{commit, done};
use bgedit_core::domain::Position;
use bgedit_library::store::LibraryFailure;
use bgedit_library::{Added, Entry, Summary};

pub(super) fn update(mut model: Model, answer: WorkerAnswer) -> (Model, Vec<Effect>) {
    match answer {
        WorkerAnswer::LookedUp { position, result } => looked_up(model, &position, result),
        WorkerAnswer::Added(result) => added(model, result),
        WorkerAnswer::AddedMany { collection, result } => added_many(model, &collection, result),
        WorkerAnswer::Paged { serial, result } => paged(model, serial, result),
        WorkerAnswer::Got { purpose, result } => match result {
            Ok(entry) => got(model, purpose, entry),
            Err(e) => error(model, format!("library: {e}")),
        },
        WorkerAnswer::AnalysisKept(result) => match result {
            Ok(Some(id)) => {
                model.status = Status::success(format!("Rollout saved with library entry {id}"));
                done(model)
            }
            Ok(None) => done(model),
            Err(e) => error(model, format!("rollout not saved in the library: {e}")),
        },
        WorkerAnswer::Updated(result) => match result {
            Ok(message) => {
                model.status = Status::success(message);
                reopen_page(model)
            }
            Err(e) => error(model, format!("not saved: {e}")),
        },
        WorkerAnswer::Deleted(result) => match result {
            Ok(entry) => {
                model.status =
                    Status::success(format!("Entry {} deleted · u brings it back", entry.id));
                model.library.deleted = Some(entry);
                // Those like one may hold it: back to the list.
                model.library.likes = None;
                reopen_page(model)
            }
            Err(e) => error(model, format!("not deleted: {e}")),
        },
        WorkerAnswer::Restored(result) => match result {
            Ok(id) => {
                model.status = Status::success(format!("Entry {id} is back"));
                reopen_page(model)
            }
            Err(e) => error(model, format!("could not bring it back: {e}")),
        },
        WorkerAnswer::DueList(result) => due_list(model, result),
        WorkerAnswer::Reviewed(result) => match result {
            Ok(_) => done(model),
            Err(e) => error(model, format!("the review was not recorded: {e}")),
        },
        WorkerAnswer::StoredAnalysis { id, result } => {
            if let Some(r) = &mut model.library.review
                && r.queue.get(r.index).is_some_and(|s| s.id == id)
                && let Ok(stored) = result
            {
                r.stored = stored;
            }
            done(model)
        }
        WorkerAnswer::QuizAnalysisKept(result) => match result {
            Ok(()) => done(model),
            Err(e) => error(model, format!("gnubg's analysis was not kept: {e}")),
        },
        WorkerAnswer::Liked { of, result } => super::like::liked(model, of, result),
        WorkerAnswer::Stats(result) => match result {
            Ok(stats) => {
                model.library.stats = Some(stats);
                done(model)
            }
            Err(e) => error(model, format!("library: {e}")),
        },
    }
}

/// Whether the library holds the position `+` adds: the questions say so.
fn looked_up(
    mut model: Model,
    position: &Position,
    result: Result<Option<(i64, String)>, LibraryFailure>,
) -> (Model, Vec<Effect>) {
    // An answer for a position since edited, or after other keys took the
    // editor elsewhere, asks nothing.
    if *position != model.position || model.mode != Mode::Normal {
        return done(model);
    }
    match result {
        Err(e) => error(model, format!("library: {e}")),
        Ok(None) => ask(model, Ask::AddTitle, String::new()),
        Ok(Some((id, title))) => {
            let titled = !title.is_empty();
            model.library.existing = Some((id, title));
            // A titled entry keeps its title: only tags are asked.
            let kind = if titled { Ask::AddTags } else { Ask::AddTitle };
            ask(model, kind, String::new())
        }
    }
}

fn added(mut model: Model, result: Result<Added, LibraryFailure>) -> (Model, Vec<Effect>) {
    match result {
        Ok(Added::New(id)) => {
            model.library.loaded = Some(id);
            model.status = Status::success(format!("Added to the library as entry {id}"));
            reopen_page(model)
        }
        Ok(Added::Existing(id)) => {
            model.library.loaded = Some(id);
            model.status = Status::info(format!(
                "This position is already in the library as entry {id}; its tags were merged"
            ));
            reopen_page(model)
        }
        Err(e) => error(model, format!("could not add to the library: {e}")),
    }
}

/// A match's mistakes added at once (`*`), in `collection`.
fn added_many(
    mut model: Model,
    collection: &str,
    result: Result<(usize, usize), LibraryFailure>,
) -> (Model, Vec<Effect>) {
    let (new, there) = match result {
        Ok(counts) => counts,
        Err(e) => return error(model, format!("could not add to the library: {e}")),
    };
    let entries = match new {
        1 => "1 entry".to_owned(),
        n => format!("{n} entries"),
    };
    model.status = Status::success(format!(
        "Added {entries} to the collection {collection}, {there} already there"
    ));
    reopen_page(model)
}

/// The page asked for last (an older one is dropped); a library that
/// cannot be listed says why in the panel, instead of an empty list.
fn paged(
    mut model: Model,
    serial: u64,
    result: Result<(bgedit_library::Counted, u64, Vec<Summary>), LibraryFailure>,
) -> (Model, Vec<Effect>) {
    if serial != model.library.serial {
        return done(model);
    }
    model.library.loading = false;
    match result {
        Ok((counted, offset, rows)) => {
            let s = &mut model.library;
            let total = counted.total;
            s.total = total;
            s.total_exact = counted.exact;
            s.offset = offset;
            s.rows = rows;
            s.selected = s.selected.min(total.saturating_sub(1));
            s.problem = None;
            done(model)
        }
        Err(e) => {
            model.library.problem = Some(e.clone());
            model.library.rows.clear();
            model.library.total = 0;
            error(model, format!("library: {e}"))
        }
    }
}

/// An entry fetched for `purpose`.
fn got(mut model: Model, purpose: Purpose, entry: Box<Entry>) -> (Model, Vec<Effect>) {
    match purpose {
        Purpose::Load => {
            // The keys go back to the board; the list stays beside it.
            model.library.loaded = Some(entry.id);
            model.mode = Mode::Normal;
            let title = if entry.title.is_empty() {
                String::new()
            } else {
                format!(" ({})", entry.title)
            };
            let message = format!("Entry {}{title} loaded · u undoes", entry.id);
            commit(model, entry.position, &message)
        }
        Purpose::Note => {
            model.library.note = Some(NoteEditor::new(&entry.note));
            model.mode = Mode::Library(LibMode::Note);
            model.status = Status::info(format!(
                "Editing the note of entry {} · Esc saves",
                entry.id
            ));
            done(model)
        }
        Purpose::Tags => ask(model, Ask::Tags, entry.tags.join(" ")),
        Purpose::Collections => ask(model, Ask::Collections, entry.collections.join(" ")),
        Purpose::Reveal => {
            let Some(r) = &mut model.library.review else {
                return done(model);
            };
            r.revealed = Some(entry);
            // Revealed with an answer: its grade says the rest.
            if r.answer.is_none() {
                model.status = Status::info("y known · n not yet");
            }
            done(model)
        }
    }
}

/// The entries due in a collection: the quiz starts on the first.
fn due_list(
    mut model: Model,
    result: Result<(String, Vec<Summary>), LibraryFailure>,
) -> (Model, Vec<Effect>) {
    let (collection, queue) = match result {
        Err(e) => return error(model, format!("library: {e}")),
        Ok((collection, queue)) if queue.is_empty() => {
            back(&mut model);
            return error(
                model,
                format!("nothing in the collection {collection} is due for review"),
            );
        }
        Ok(due) => due,
    };
    model.status = Status::info(format!(
        "Quiz of {collection}: {} due · answer, and {} grades it",
        queue.len(),
        model.analysis.engines.lead().name()
    ));
    let first = queue.first().map(|s| s.id);
    model.library.review = Some(Review {
        collection,
        queue,
        index: 0,
        revealed: None,
        known: 0,
        unknown: 0,
        answer: None,
        grade: None,
        serial: 0,
        stored: None,
        answer_ms: None,
        shown_at: None,
        response: None,
        grader: bgedit_engine::EngineKind::reference(),
    });
    model.mode = Mode::Library(LibMode::Review);
    (
        model,
        first
            .map(super::quiz::shown)
            .into_iter()
            .flatten()
            .collect(),
    )
}
