//! The thread that owns the library's SQLite connection. The runtime sends
//! it [`Request`]s and reads its answers as actions, so the event loop never
//! waits on the disk. The file is opened on the first request; a library
//! that cannot be opened is a message on every request, never a crash; a
//! panic in the thread is reported and the next request starts it again
//! (`io::worker`).

use super::state::{LibAction, Request, WorkerAnswer};
use crate::action::Action;
use crate::io::worker::{Inbox, Worker as Thread};
use crate::statistics::state::StatisticsAction;
use bgedit_library::review::Schedule;
use bgedit_library::store::{self, Library, LibraryFailure};
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver};

/// The editor's end of the worker: requests go in, answers go to the
/// runtime's one channel (the `send` given to [`Link::start`]).
pub(crate) struct Link {
    requests: Thread<Request>,
}

impl Link {
    /// Starts the thread for the library at `path` (`None`: no data
    /// directory, every request answers so); each answer is handed to
    /// `send`, which says whether the runtime is still there.
    pub(crate) fn start(
        path: Option<PathBuf>,
        send: impl Fn(Action) -> bool + Send + Sync + 'static,
    ) -> Link {
        let send: crate::io::job::Deliver = std::sync::Arc::new(send);
        let deliver = std::sync::Arc::clone(&send);
        // Every request, in order: none is stale (an edit of an entry, then
        // the list that shows it).
        let requests = Thread::spawn("bgedit-library", "the library", deliver, move |inbox| {
            serve(path.clone(), inbox, &*send)
        });
        Link { requests }
    }

    pub(crate) fn send(&self, request: Request) {
        let _ = self.requests.send(request);
    }
}

/// The worker with its answers on a channel of its own, for tests and
/// benchmarks that drive the reducer by hand.
pub struct Worker {
    link: Link,
    pub answers: Receiver<Action>,
    /// Requests sent and not yet answered.
    pub pending: usize,
}

impl Worker {
    pub fn start(path: Option<PathBuf>) -> Worker {
        let (outbox, answers) = mpsc::channel::<Action>();
        let link = Link::start(path, move |a| outbox.send(a).is_ok());
        Worker {
            link,
            answers,
            pending: 0,
        }
    }

    pub fn send(&mut self, request: Request) {
        self.link.send(request);
        self.pending += 1;
    }
}

/// Matches counted past the page asked for; the list asks again (and
/// counts further) when the selection leaves the page.
pub const COUNT_AHEAD: u64 = 1_000;

fn serve(path: Option<PathBuf>, mut inbox: Inbox<Request>, send: &dyn Fn(Action) -> bool) {
    let mut library: Option<Library> = None;
    while let Some(request) = inbox.next_in_order() {
        let lib = match (&mut library, &path) {
            (Some(l), _) => Ok(l),
            (None, Some(p)) => match Library::open(p) {
                Ok(l) => Ok(library.insert(l)),
                Err(e) => Err(LibraryFailure::new(Some(p), e)),
            },
            (None, None) => Err(LibraryFailure::new(None, store::LibraryError::NoPlace)),
        };
        let answer = answer(lib, path.as_deref(), request);
        if !send(answer) {
            return;
        }
    }
}

/// The answer to `request`: the panel's, but a player's statistics, which
/// the statistics view shows.
fn answer(
    lib: Result<&mut Library, LibraryFailure>,
    path: Option<&std::path::Path>,
    request: Request,
) -> Action {
    // Every message about the file names it (and says "disk full").
    let text = |e: store::LibraryError| LibraryFailure::new(path, e);
    let answer = match request {
        Request::Add(entry) => WorkerAnswer::Added(lib.and_then(|l| l.add(&entry).map_err(text))),
        Request::AddMany {
            entries,
            collection,
        } => WorkerAnswer::AddedMany {
            collection,
            result: lib
                .and_then(|l| l.add_all(&entries).map_err(text))
                .map(|added| {
                    let new = added
                        .iter()
                        .filter(|a| matches!(a, store::Added::New(_)))
                        .count();
                    (new, added.len() - new)
                }),
        },
        Request::Page {
            serial,
            query,
            order,
            offset,
            limit,
        } => WorkerAnswer::Paged {
            serial,
            result: lib.and_then(|l| {
                l.search_page(&query, order, offset, limit, COUNT_AHEAD)
                    .map_err(text)
            }),
        },
        Request::Get { id, purpose } => WorkerAnswer::Got {
            purpose,
            result: lib.and_then(|l| l.get(id).map(Box::new).map_err(text)),
        },
        Request::Update { id, edit, what } => WorkerAnswer::Updated(lib.and_then(|l| {
            l.update(id, &edit)
                .map(|()| format!("Entry {id}: {what} saved"))
                .map_err(text)
        })),
        Request::KeepAnalysis { position, analysis } => {
            WorkerAnswer::AnalysisKept(lib.and_then(|l| {
                let found = l.find(&position).map_err(text)?;
                if let Some(id) = found {
                    let edit = bgedit_library::EntryEdit {
                        analysis: Some(analysis),
                        ..bgedit_library::EntryEdit::default()
                    };
                    l.update(id, &edit).map_err(text)?;
                }
                Ok(found)
            }))
        }
        Request::Delete(id) => {
            WorkerAnswer::Deleted(lib.and_then(|l| l.delete(id).map(Box::new).map_err(text)))
        }
        Request::Restore(entry) => WorkerAnswer::Restored(
            lib.and_then(|l| l.restore(&entry).map(|()| entry.id).map_err(text)),
        ),
        Request::Due { collection, now } => WorkerAnswer::DueList(lib.and_then(|l| {
            let now = now.unwrap_or_else(store::now);
            l.quiz_queue(&collection, now, super::state::REVIEW_BATCH)
                .map(|q| (collection, q))
                .map_err(text)
        })),
        Request::QuizStats => WorkerAnswer::Stats(lib.and_then(|l| {
            let mut lines = Vec::new();
            let mut trend = Vec::new();
            let names = l.quizzed_collections().map_err(text)?;
            for scope in std::iter::once(None).chain(names.iter().map(|n| Some(n.as_str()))) {
                let s = l.quiz_stats(scope).map_err(text)?;
                lines.extend(s.text(scope.unwrap_or("all")).lines().map(str::to_owned));
                if scope.is_none() {
                    trend = s
                        .weeks
                        .iter()
                        .map(|w| w.mean_memg.unwrap_or(0.0).round().max(0.0) as u64)
                        .collect();
                }
            }
            Ok((lines, trend))
        })),
        Request::Matches { filter, sort } => {
            return super::match_requests::matches(lib, path, &filter, sort);
        }
        Request::OpenStored(id) => return super::match_requests::open_stored(lib, path, id),
        Request::Attach { serial, path: file } => {
            return super::match_requests::attach(lib, path, serial, &file);
        }
        Request::KeepVerdicts { match_id, verdicts } => {
            return super::match_requests::keep(lib, path, match_id, &verdicts);
        }
        Request::RefreshMistakes { match_id } => {
            return super::match_requests::refresh(lib, path, match_id);
        }
        Request::PlayerStats(name) => {
            let stats = lib.and_then(|l| {
                bgedit_library::player_stats::of(l, &name, None, true)
                    .map(Box::new)
                    .map_err(text)
            });
            return Action::Statistics(StatisticsAction::Player(stats));
        }
        Request::PlayerThemes { player, by } => {
            let stats = lib.and_then(|l| {
                bgedit_library::theme_stats::of(l, &player, None, by)
                    .map(Box::new)
                    .map_err(text)
            });
            return Action::Statistics(StatisticsAction::Themes(stats));
        }
        Request::QuizAnalysis(id) => WorkerAnswer::StoredAnalysis {
            id,
            result: lib.and_then(|l| l.quiz_analysis(id).map_err(text)),
        },
        Request::KeepQuizAnalysis { id, json } => WorkerAnswer::QuizAnalysisKept(
            lib.and_then(|l| l.keep_quiz_analysis(id, &json).map_err(text)),
        ),
        Request::Like { position, of } => WorkerAnswer::Liked {
            of,
            result: lib.and_then(|l| {
                let likes = l
                    .like(&position, super::state::LIKE_COUNT, false)
                    .map_err(text)?;
                l.like_summaries(&likes).map_err(text)
            }),
        },
        Request::Lookup(position) => {
            let result = lib.and_then(|l| {
                let Some(id) = l.find(&position).map_err(text)? else {
                    return Ok(None);
                };
                Ok(Some((id, l.get(id).map_err(text)?.title)))
            });
            WorkerAnswer::LookedUp { position, result }
        }
        Request::Review { id, rating, result } => WorkerAnswer::Reviewed(lib.and_then(|l| {
            l.review(id, rating, store::now(), Some(&result))
                .map_err(text)
                .map(|s: Schedule| s)
        })),
    };
    Action::Library(LibAction::Worker(answer))
}
