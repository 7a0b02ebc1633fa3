//! The editor's one worker type, the long-lived sibling of `io/job.rs`'s
//! jobs: a named thread that owns something slow (an engine, the library's
//! SQLite connection) and does the jobs sent to it one at a time,
//! answering through the runtime's channel. Its [`Inbox`] gives the jobs
//! in order (the library), or only the newest one waiting (an engine: an
//! analysis of an old position is stale), and lets a long job (a rollout)
//! see that a newer one came, keeping it for next. It is started by
//! `job::spawn`, as a job is: a panic in it is caught and reported as
//! `Action::JobFailed`, and the next job sent starts it again (a worker is
//! not a job because what it owns outlives each job: the connection stays
//! open, the engine loaded).

use super::job::{self, Deliver};
use crate::action::{Action, JobFailed};
use std::sync::mpsc::{Receiver, SendError, Sender, channel};
use std::sync::{Arc, Mutex, PoisonError};

/// The editor's end: jobs go in.
pub struct Worker<J> {
    name: String,
    /// What it serves, for the message when it stops ("the library").
    what: String,
    deliver: Deliver,
    serve: Arc<dyn Fn(Inbox<J>) + Send + Sync>,
    jobs: Mutex<Sender<J>>,
}

impl<J: Send + 'static> Worker<J> {
    /// Starts a thread named `name` running `serve` with the jobs' inbox;
    /// it ends when `serve` returns (the editor gone: the inbox empty and
    /// closed, or an answer that could not be delivered), or on a panic,
    /// reported through `deliver` as `what` having stopped.
    pub(crate) fn spawn(
        name: &str,
        what: &str,
        deliver: Deliver,
        serve: impl Fn(Inbox<J>) + Send + Sync + 'static,
    ) -> Worker<J> {
        let (jobs, _) = channel();
        let worker = Worker {
            name: name.to_owned(),
            what: what.to_owned(),
            deliver,
            serve: Arc::new(serve),
            jobs: Mutex::new(jobs),
        };
        *worker.jobs.lock().unwrap_or_else(PoisonError::into_inner) = worker.start();
        worker
    }

    /// A thread serving a new inbox; its end of the jobs.
    fn start(&self) -> Sender<J> {
        let (jobs, rx) = channel::<J>();
        let serve = Arc::clone(&self.serve);
        let (deliver, what) = (Arc::clone(&self.deliver), self.what.clone());
        // A thread that cannot start says so, and the next job tries again.
        let _ = job::spawn(
            &self.name,
            move || serve(Inbox { rx, held: None }),
            move |why| {
                deliver(Action::JobFailed(JobFailed { what, why }));
            },
        );
        jobs
    }

    /// Hands `job` to the thread, starting it again if it has ended (a
    /// panic, reported when it happened); false when even a new one
    /// cannot take it.
    pub(crate) fn send(&self, job: J) -> bool {
        let mut jobs = self.jobs.lock().unwrap_or_else(PoisonError::into_inner);
        match jobs.send(job) {
            Ok(()) => true,
            Err(SendError(job)) => {
                *jobs = self.start();
                jobs.send(job).is_ok()
            }
        }
    }
}

/// The worker's end: the jobs, as the worker wants them.
pub(crate) struct Inbox<J> {
    rx: Receiver<J>,
    /// A job that came while another ran and stopped it: served next.
    held: Option<J>,
}

impl<J> Inbox<J> {
    /// The next job, in order, waiting for it; `None` once the editor is
    /// gone.
    pub(crate) fn next_in_order(&mut self) -> Option<J> {
        self.held.take().or_else(|| self.rx.recv().ok())
    }

    /// The newest job waiting (the older ones dropped), waiting for one;
    /// `None` once the editor is gone.
    pub(crate) fn newest(&mut self) -> Option<J> {
        let mut job = self.next_in_order()?;
        while let Ok(newer) = self.rx.try_recv() {
            job = newer;
        }
        Some(job)
    }

    /// Whether a job came while the current one runs (it is kept and
    /// served next): a long job stops for it.
    pub(crate) fn newer_came(&mut self) -> bool {
        if self.held.is_some() {
            return true;
        }
        match self.rx.try_recv() {
            Ok(job) => {
                self.held = Some(job);
                true
            }
            Err(_) => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_in_order_newest_only_and_a_newer_one_kept() {
        let (tx, rx) = channel();
        let mut inbox = Inbox { rx, held: None };
        for n in 1..=3 {
            tx.send(n).unwrap();
        }
        assert_eq!(inbox.next_in_order(), Some(1));
        assert_eq!(inbox.newest(), Some(3));
        assert!(!inbox.newer_came());
        tx.send(4).unwrap();
        tx.send(5).unwrap();
        // Seen while a job runs, kept, and served before the rest.
        assert!(inbox.newer_came());
        assert_eq!(inbox.next_in_order(), Some(4));
        assert_eq!(inbox.newest(), Some(5));
        drop(tx);
        assert_eq!(inbox.next_in_order(), None);
    }

    #[test]
    fn a_worker_thread_answers_and_ends_with_the_editor() {
        let (answers_tx, answers) = channel();
        let deliver: Deliver = Arc::new(|_| true);
        let w = Worker::spawn(
            "bgedit-test",
            "the test",
            deliver,
            move |mut inbox: Inbox<u32>| {
                while let Some(n) = inbox.next_in_order() {
                    if answers_tx.send(n * 2).is_err() {
                        return;
                    }
                }
            },
        );
        assert!(w.send(21));
        assert_eq!(answers.recv().unwrap(), 42);
        drop(w);
        // The thread ends with the inbox: no more answers.
        assert!(answers.recv().is_err());
    }

    #[test]
    fn a_worker_that_panics_is_reported_and_started_again_by_the_next_job() {
        let (failures_tx, failures) = channel();
        let deliver: Deliver = Arc::new(move |a| failures_tx.send(a).is_ok());
        let (answers_tx, answers) = channel();
        let answers_tx = Mutex::new(answers_tx);
        let w = Worker::spawn(
            "bgedit-test-restart",
            "the test's worker",
            deliver,
            move |mut inbox: Inbox<u32>| {
                while let Some(n) = inbox.next_in_order() {
                    assert!(n != 0, "zero is refused");
                    let _ = answers_tx.lock().unwrap().send(n);
                }
            },
        );
        assert!(w.send(0));
        let wait = std::time::Duration::from_secs(10);
        let Action::JobFailed(f) = failures.recv_timeout(wait).unwrap() else {
            panic!("no failure")
        };
        assert_eq!(f.what, "the test's worker");
        assert_eq!(f.why, "bgedit-test-restart: zero is refused");
        // Once the thread is gone, the next job starts a new one.
        assert!(w.send(7));
        assert_eq!(answers.recv_timeout(wait).unwrap(), 7);
    }
}
