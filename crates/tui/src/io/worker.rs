//! The editor's one worker type: a named thread that owns something slow
//! (an engine, the library's SQLite connection) and does the jobs sent to
//! it one at a time, answering through the runtime's channel. Its
//! [`Inbox`] gives the jobs in order (the library), or only the newest one
//! waiting (an engine: an analysis of an old position is stale), and lets
//! a long job (a rollout) see that a newer one came, keeping it for next.

use std::sync::mpsc::{Receiver, Sender, channel};

/// The editor's end: jobs go in.
pub struct Worker<J> {
    jobs: Sender<J>,
}

impl<J: Send + 'static> Worker<J> {
    /// Starts a thread named `name` running `serve` with the jobs' inbox;
    /// it ends when `serve` returns (the editor gone: the inbox empty and
    /// closed, or an answer that could not be delivered).
    pub(crate) fn spawn(name: &str, serve: impl FnOnce(Inbox<J>) + Send + 'static) -> Worker<J> {
        let (jobs, rx) = channel::<J>();
        // A thread that cannot start leaves every job unanswered, which
        // the panels show as waiting; nothing to crash on.
        let _ = std::thread::Builder::new()
            .name(name.to_owned())
            .spawn(move || {
                #[cfg(debug_assertions)]
                panic_if_asked(&std::thread::current());
                serve(Inbox { rx, held: None })
            });
        Worker { jobs }
    }

    /// Hands `job` to the thread; false when it has ended.
    pub(crate) fn send(&self, job: J) -> bool {
        self.jobs.send(job).is_ok()
    }
}

/// Debug builds only (release builds have no such path), for the test that
/// a worker's panic leaves the terminal restored: the worker named by
/// `BGEDIT_DEBUG_PANIC_WORKER` panics as it starts.
#[cfg(debug_assertions)]
fn panic_if_asked(thread: &std::thread::Thread) {
    let name = thread.name().unwrap_or_default();
    if std::env::var("BGEDIT_DEBUG_PANIC_WORKER").is_ok_and(|asked| asked == name) {
        panic!("{name}: panicking as BGEDIT_DEBUG_PANIC_WORKER asks");
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
        let w = Worker::spawn("bgedit-test", move |mut inbox: Inbox<u32>| {
            while let Some(n) = inbox.next_in_order() {
                if answers_tx.send(n * 2).is_err() {
                    return;
                }
            }
        });
        assert!(w.send(21));
        assert_eq!(answers.recv().unwrap(), 42);
        drop(w);
        // The thread ends with the inbox: no more answers.
        assert!(answers.recv().is_err());
    }
}
