//! The editor's one way to do slow work off the UI thread (after gitui's
//! `AsyncSingleJob`): a [`Job`] is one kind of work (reading a match file,
//! grading a quiz answer, a score matrix); each start runs on a thread of
//! its own, named for the kind, and answers with actions through the
//! runtime's one channel. Only the newest start of a kind is wanted: an
//! older one still running finds itself superseded ([`Ticket::wanted`])
//! and whatever it sends is dropped. A panic in a job is caught and
//! reported as actions the job's starter chose (its feature's failure, or
//! [`Action::JobFailed`]), never lost and never ending the editor; the
//! runtime's panic hook leaves such a panic alone ([`caught_here`]).
//!
//! [`spawn`] is the thread under every job, and under the long-lived
//! threads beside them (each engine's and the library's worker,
//! `io/worker.rs`; the terminal's reader, `io/runtime.rs`), so they are
//! named, caught and reported the same way.

use crate::action::{Action, JobFailed};
use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Hands an action to the event loop (the runtime's one channel); false
/// once the event loop is gone.
pub(crate) type Deliver = Arc<dyn Fn(Action) -> bool + Send + Sync>;

/// One kind of background work, started as often as it is asked.
pub(crate) struct Job {
    name: &'static str,
    deliver: Deliver,
    /// The serial of the start wanted now; older starts are superseded.
    wanted: Arc<AtomicU64>,
    /// The threads started and maybe still running, for [`Job::finish`].
    running: Mutex<Vec<JoinHandle<()>>>,
}

/// What a running job holds: whether it is still the one wanted, and the
/// way to answer.
pub(crate) struct Ticket {
    serial: u64,
    wanted: Arc<AtomicU64>,
    deliver: Deliver,
}

impl Ticket {
    /// Whether no newer start of the job (and no cancel) came since this
    /// one: a long job stops when it is not.
    pub(crate) fn wanted(&self) -> bool {
        self.wanted.load(Ordering::SeqCst) == self.serial
    }

    /// Sends `action` to the event loop if this start is still wanted;
    /// false when it is not, or the event loop is gone (the job stops).
    pub(crate) fn send(&self, action: Action) -> bool {
        self.wanted() && (self.deliver)(action)
    }
}

impl Job {
    /// A kind of job whose threads are named `name`, answering through
    /// `deliver`.
    pub(crate) fn new(name: &'static str, deliver: Deliver) -> Job {
        Job {
            name,
            deliver,
            wanted: Arc::default(),
            running: Mutex::default(),
        }
    }

    /// Starts `work` on a thread of its own, superseding any older start.
    /// `work` answers through its ticket; if it panics (or the thread
    /// cannot start), the actions `failed` makes of the reason are
    /// delivered instead, superseded or not: a panic is a bug to show.
    pub(crate) fn start(
        &self,
        work: impl FnOnce(&Ticket) + Send + 'static,
        failed: impl FnOnce(String) -> Vec<Action> + Send + 'static,
    ) {
        let serial = self.wanted.fetch_add(1, Ordering::SeqCst) + 1;
        let ticket = Ticket {
            serial,
            wanted: Arc::clone(&self.wanted),
            deliver: Arc::clone(&self.deliver),
        };
        let deliver = Arc::clone(&self.deliver);
        let report = move |why: String| {
            for action in failed(why) {
                if !deliver(action) {
                    return;
                }
            }
        };
        let thread = spawn(self.name, move || work(&ticket), report);
        let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        running.retain(|t| !t.is_finished());
        running.extend(thread);
    }

    /// Starts `work`, whose one answer is delivered if it is still wanted
    /// when it comes (see [`Job::start`]).
    pub(crate) fn run(
        &self,
        work: impl FnOnce() -> Action + Send + 'static,
        failed: impl FnOnce(String) -> Vec<Action> + Send + 'static,
    ) {
        self.start(
            move |ticket| {
                ticket.send(work());
            },
            failed,
        );
    }

    /// Nothing started so far is wanted any more: its answers are dropped
    /// and a long job stops at its next look.
    pub(crate) fn cancel(&self) {
        self.wanted.fetch_add(1, Ordering::SeqCst);
    }

    /// Waits at most `within` for the job's threads to end; whether they
    /// all did. For work the user expects done when the editor is gone (a
    /// file being written).
    pub(crate) fn finish(&self, within: Duration) -> bool {
        let deadline = Instant::now() + within;
        let mut running = self.running.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            running.retain(|t| !t.is_finished());
            if running.is_empty() || Instant::now() >= deadline {
                return running.is_empty();
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// The failure of a job with no action of its own for it: the status line
/// says what was being done and the panic's words.
pub(crate) fn failed(what: &'static str) -> impl FnOnce(String) -> Vec<Action> + Send + 'static {
    move |why| {
        vec![Action::JobFailed(JobFailed {
            what: what.to_owned(),
            why,
        })]
    }
}

thread_local! {
    /// Set on the threads `spawn` starts: their panics are caught there.
    static CATCHING: Cell<bool> = const { Cell::new(false) };
}

/// Whether a panic on this thread is caught by [`spawn`] and reported as
/// an action: the runtime's panic hook then neither restores the terminal
/// nor ends the editor.
pub(crate) fn caught_here() -> bool {
    CATCHING.with(Cell::get)
}

/// Runs `body` on a thread named `name`. A panic in it is caught and its
/// message handed to `panicked`, as is the reason when the thread cannot
/// start (then there is no thread to return).
pub(crate) fn spawn(
    name: &str,
    body: impl FnOnce() + Send + 'static,
    panicked: impl FnOnce(String) + Send + 'static,
) -> Option<JoinHandle<()>> {
    // Shared with the thread, so that a thread that never starts still
    // reports.
    let report = Arc::new(Mutex::new(Some(panicked)));
    let in_thread = Arc::clone(&report);
    let started = std::thread::Builder::new()
        .name(name.to_owned())
        .spawn(move || {
            CATCHING.with(|c| c.set(true));
            let ran = catch_unwind(AssertUnwindSafe(|| {
                #[cfg(debug_assertions)]
                debug_hooks();
                body()
            }));
            if let Err(payload) = ran {
                let taken = in_thread.lock().map(|mut r| r.take());
                if let Ok(Some(report)) = taken {
                    report(message(payload.as_ref()));
                }
            }
        });
    match started {
        Ok(thread) => Some(thread),
        Err(e) => {
            let taken = report.lock().map(|mut r| r.take());
            if let Ok(Some(report)) = taken {
                report(format!("the thread {name} could not start: {e}"));
            }
            None
        }
    }
}

/// A panic's words: its message, as `panic!` was given it.
fn message(payload: &(dyn std::any::Any + Send)) -> String {
    let text = match (
        payload.downcast_ref::<&str>(),
        payload.downcast_ref::<String>(),
    ) {
        (Some(s), _) => s,
        (_, Some(s)) => s.as_str(),
        _ => "a panic without a message",
    };
    let thread = std::thread::current();
    format!("{}: {text}", thread.name().unwrap_or("a thread"))
}

/// Debug builds only (release builds have no such paths), for the tests
/// that a panic is reported and that slow work does not hold up the
/// event loop: the thread named by `BGEDIT_DEBUG_PANIC_THREAD` panics as
/// it starts, and the one named by `BGEDIT_DEBUG_SLOW_THREAD` first sleeps
/// for [`DEBUG_SLOW`].
#[cfg(debug_assertions)]
pub(crate) fn debug_hooks() {
    let thread = std::thread::current();
    let name = thread.name().unwrap_or_default();
    let asks = |var: &str| std::env::var(var).is_ok_and(|asked| asked == name);
    if asks("BGEDIT_DEBUG_PANIC_THREAD") {
        panic!("panicking as BGEDIT_DEBUG_PANIC_THREAD asks");
    }
    if asks("BGEDIT_DEBUG_SLOW_THREAD") {
        std::thread::sleep(DEBUG_SLOW);
    }
}

/// How long the thread `BGEDIT_DEBUG_SLOW_THREAD` names sleeps.
#[cfg(debug_assertions)]
const DEBUG_SLOW: Duration = Duration::from_secs(4);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Action;
    use std::sync::mpsc;

    fn job(name: &'static str) -> (Job, mpsc::Receiver<Action>) {
        let (tx, rx) = mpsc::channel();
        let deliver: Deliver = Arc::new(move |a| tx.send(a).is_ok());
        (Job::new(name, deliver), rx)
    }

    const WAIT: Duration = Duration::from_secs(10);

    #[test]
    fn a_job_answers_on_a_named_thread_without_holding_up_the_caller() {
        let (job, answers) = job("bgedit-test-answer");
        let (release, gate) = mpsc::channel::<()>();
        let asked = Instant::now();
        job.run(
            move || {
                // Held until the caller has gone on: the start did not wait.
                gate.recv().unwrap();
                let name = std::thread::current().name().unwrap().to_owned();
                Action::Import(name)
            },
            failed("the test"),
        );
        assert!(asked.elapsed() < Duration::from_secs(1));
        release.send(()).unwrap();
        assert_eq!(
            answers.recv_timeout(WAIT).unwrap(),
            Action::Import("bgedit-test-answer".to_owned())
        );
        assert!(job.finish(WAIT));
    }

    #[test]
    fn a_newer_start_supersedes_an_older_one_and_cancel_drops_both() {
        let (job, answers) = job("bgedit-test-newest");
        let (release, gate) = mpsc::channel::<()>();
        job.run(
            move || {
                gate.recv().unwrap();
                Action::Import("old".to_owned())
            },
            failed("the test"),
        );
        job.run(|| Action::Import("new".to_owned()), failed("the test"));
        assert_eq!(
            answers.recv_timeout(WAIT).unwrap(),
            Action::Import("new".to_owned())
        );
        release.send(()).unwrap();
        assert!(job.finish(WAIT));
        // The old one ended; its answer was dropped.
        assert!(answers.try_recv().is_err());
        // Cancelled while it runs: what it sends after is dropped.
        let (release, gate) = mpsc::channel::<()>();
        let (sent_tx, sent) = mpsc::channel();
        job.start(
            move |ticket| {
                gate.recv().unwrap();
                sent_tx.send(ticket.send(Action::Quit)).unwrap();
            },
            failed("the test"),
        );
        job.cancel();
        release.send(()).unwrap();
        assert!(!sent.recv_timeout(WAIT).unwrap(), "sent though cancelled");
        assert!(job.finish(WAIT));
        assert!(answers.try_recv().is_err());
    }

    #[test]
    fn a_panic_is_reported_as_the_failure_action() {
        let (job, answers) = job("bgedit-test-panic");
        job.run(|| panic!("the work broke"), failed("reading the test file"));
        let Action::JobFailed(f) = answers.recv_timeout(WAIT).unwrap() else {
            panic!("no failure")
        };
        assert_eq!(f.what, "reading the test file");
        assert_eq!(f.why, "bgedit-test-panic: the work broke");
        // Reported on the job's thread, not on this one.
        assert!(!caught_here());
    }
}
