//! How an engine fails and is given up on, below every kind of engine:
//! [`EngineError`] (each way, in words a user reads), the time an answer
//! may take ([`time_limit`]), and the [`StartRecord`] a run's engines
//! share so that a broken engine is given up on once.

use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// Failed starts in a row after which a gnubg is not started again: a gnubg
/// that hangs or prints garbage at start-up would otherwise cost every
/// request its start limit (a 500-line batch over two hours to fail).
pub(crate) const START_TRIES: u32 = 2;
/// Who waits for an answer, which sets how long it may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Waiter {
    /// The editor: a person is looking at the panel.
    Editor,
    /// A batch (`bgedit analyse`): nobody waits on one line, but a stuck
    /// gnubg must not hold the run for ever.
    Batch,
}

/// How long one answer may take at each depth before gnubg is stopped and
/// restarted. The one table: docs/analysis.md quotes it and a test holds
/// the two together.
pub fn time_limit(plies: u8, waiter: Waiter) -> Duration {
    let secs = match waiter {
        Waiter::Editor => [20, 30, 60, 300],
        Waiter::Batch => [30, 60, 120, 600],
    };
    Duration::from_secs(secs[usize::from(plies.min(3))])
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    #[error("{0}")]
    NotFound(String),
    /// Open Sage failed: started, died, hung or answered garbage (the text
    /// says which; it is restarted for the next request).
    #[error("{0}")]
    Sage(String),
    #[error("gnubg could not be started: {0}")]
    Start(String),
    #[error(
        "gnubg stopped while analysing (gnubg 1.07 crashes on some positions, such as large cubes in match play); it is restarted for the next request"
    )]
    Died,
    #[error("gnubg took longer than {0:?}; it was stopped and is restarted for the next request")]
    Timeout(Duration),
    #[error("{0}; gnubg is restarted for the next request")]
    Garbage(String),
    /// gnubg refused or could not analyse this position.
    #[error("{0}")]
    Refused(String),
    /// gnubg failed to start `START_TRIES` times in a row and is not
    /// started again with this path.
    #[error(
        "gnubg is not asked again: it failed to start {START_TRIES} times in a row (last: {0}); give another with --gnubg PATH or BGEDIT_GNUBG"
    )]
    GaveUp(String),
    /// In a batch, the engine hung or died [`LOST_TRIES`] times in a row:
    /// it is not asked again in this run.
    #[error("{0} is not asked again in this run: {1}")]
    Unanswered(&'static str, String),
}

/// Answers lost in a row (the engine died, or answered garbage) after which
/// a batch stops asking it; one that hung (no answer within its time
/// limit, a hundred times what an answer takes) is given up at once.
pub(crate) const LOST_TRIES: u32 = 2;

/// Failed starts in a row, shared by every engine of a run (the batch's
/// jobs, the editor's restarts), so that a broken gnubg is given up on once.
/// A batch's record also gives up on an engine that stops answering
/// ([`StartRecord::batch`]): a hung gnubg would otherwise cost every
/// request of the run its whole time limit.
#[derive(Clone, Debug, Default)]
pub struct StartRecord(Arc<(Mutex<Starts>, Condvar)>);

#[derive(Debug, Default)]
struct Starts {
    /// Failed starts in a row, and the last one's reason.
    failed: u32,
    last: String,
    /// Starts under way.
    running: u32,
    /// Whether lost answers give the engine up (a batch's record).
    give_up_lost: bool,
    /// Answers lost in a row, and why the engine was given up, once it is.
    lost: u32,
    gave_up: Option<String>,
}

/// How an answer was lost.
pub(super) enum Lost {
    /// None came within this limit.
    Hung(Duration),
    /// The engine died or wrote garbage; why, in its words.
    Failed(String),
}

impl StartRecord {
    /// The record of a batch: an engine that hangs, or dies or answers
    /// garbage [`LOST_TRIES`] times in a row, is not asked again.
    pub fn batch() -> StartRecord {
        let record = StartRecord::default();
        record.lock().give_up_lost = true;
        record
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Starts> {
        self.0.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Forgets the answers lost so far and the engine given up for them,
    /// for the next run of a batch that keeps its engines
    /// (`engine::pool`): failed starts are kept.
    pub(crate) fn forget_lost(&self) {
        let mut s = self.lock();
        s.lost = 0;
        s.gave_up = None;
    }

    /// Why the engine is no longer asked, once a batch gave it up.
    pub(crate) fn given_up(&self) -> Option<String> {
        self.lock().gave_up.clone()
    }

    /// An answer came (`None`), or was lost: `Lost::Hung` when none came
    /// in time, `Lost::Failed` when the engine died or wrote garbage.
    pub(super) fn answered(&self, lost: Option<Lost>) {
        let mut s = self.lock();
        let Some(lost) = lost else {
            s.lost = 0;
            return;
        };
        s.lost += 1;
        if !s.give_up_lost || s.gave_up.is_some() {
            return;
        }
        s.gave_up = match lost {
            Lost::Hung(limit) => Some(format!("it did not answer within {limit:?}")),
            Lost::Failed(why) if s.lost >= LOST_TRIES => {
                Some(format!("it failed {} times in a row (last: {why})", s.lost))
            }
            Lost::Failed(_) => None,
        };
    }

    /// Starts gnubg with `spawn` unless it has failed `START_TRIES` times in
    /// a row. Jobs start side by side (a start is a tenth of a second that
    /// a run of two jobs would otherwise wait twice), each start counted as
    /// a try while it runs: a job that would make one try too many waits for
    /// those under way, and goes on only if one of them started.
    pub(super) fn start<T>(
        &self,
        spawn: impl FnOnce() -> Result<T, EngineError>,
    ) -> Result<T, EngineError> {
        let (lock, changed) = &*self.0;
        let mut s = lock.lock().unwrap_or_else(|e| e.into_inner());
        while s.failed + s.running >= START_TRIES {
            if s.running == 0 {
                return Err(EngineError::GaveUp(s.last.clone()));
            }
            s = changed.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        s.running += 1;
        drop(s);
        let started = spawn();
        let mut s = lock.lock().unwrap_or_else(|e| e.into_inner());
        s.running -= 1;
        match &started {
            Ok(_) => {
                s.failed = 0;
                s.last.clear();
            }
            Err(e) => {
                s.failed += 1;
                s.last = e.to_string();
            }
        }
        changed.notify_all();
        started
    }
}
