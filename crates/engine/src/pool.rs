//! Engines kept between the runs of one batch: `library analyse` runs the
//! match analysis once a match, and without a pool each run would start
//! its own gnubg (about 0.1 s a start, as long as a 0-ply match's whole
//! analysis takes) and stop it at the end. A pool hands each run's jobs
//! the engines the runs before left, and holds the batch to its number of
//! jobs when two runs overlap (the next match starts on an engine as soon
//! as the last one's job is done with it).

use super::failure::StartRecord;
use super::{Engine, EngineKind};
use std::path::Path;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// The engines one batch keeps, at most `jobs` of them, and the record of
/// their starts that they share.
#[derive(Clone)]
pub struct Engines(Arc<Kept>);

struct Kept {
    state: Mutex<State>,
    freed: Condvar,
    jobs: usize,
    starts: StartRecord,
}

#[derive(Default)]
struct State {
    idle: Vec<Box<dyn Engine>>,
    /// Engines made so far (idle or at work).
    made: usize,
}

impl std::fmt::Debug for Engines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = self.state();
        write!(f, "Engines({} of {} idle)", s.idle.len(), s.made)
    }
}

impl Engines {
    /// An empty pool of at most `jobs` engines, given up on as a batch's
    /// are ([`StartRecord::batch`]).
    pub fn new(jobs: usize) -> Engines {
        Engines(Arc::new(Kept {
            state: Mutex::new(State::default()),
            freed: Condvar::new(),
            jobs: jobs.max(1),
            starts: StartRecord::batch(),
        }))
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.0.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The record a new run's engines share: the pool's, with the answers
    /// lost by the runs before forgotten (a match that hung gnubg does not
    /// give it up for the next match; a gnubg that cannot start stays
    /// given up).
    pub(crate) fn starts(&self) -> StartRecord {
        self.0.starts.forget_lost();
        self.0.starts.clone()
    }

    /// An idle engine of `kind`, a new one run by `program` while fewer
    /// than `jobs` are made, or else the next one freed.
    pub(crate) fn take(&self, kind: EngineKind, program: &Path) -> Box<dyn Engine> {
        let mut s = self.state();
        loop {
            if let Some(at) = s.idle.iter().position(|e| e.kind() == kind) {
                return s.idle.swap_remove(at);
            }
            if s.made < self.0.jobs {
                s.made += 1;
                drop(s);
                return kind.open(program.to_path_buf(), self.0.starts.clone());
            }
            // One of another kind is idle: it makes room for this one.
            if let Some(other) = s.idle.pop() {
                drop(other);
                s.made -= 1;
                continue;
            }
            s = self.0.freed.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// `engine` kept for the next run, or the next job waiting.
    pub(crate) fn keep(&self, engine: Box<dyn Engine>) {
        self.state().idle.push(engine);
        self.0.freed.notify_one();
    }
}

impl Drop for Kept {
    /// The engines stopped side by side at the batch's end: each takes
    /// gnubg some milliseconds to die.
    fn drop(&mut self) {
        let state = self.state.get_mut().unwrap_or_else(|e| e.into_inner());
        let idle = std::mem::take(&mut state.idle);
        std::thread::scope(|s| {
            for engine in idle {
                // A thread that cannot be made drops its engine here.
                let _ = std::thread::Builder::new().spawn_scoped(s, move || drop(engine));
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pool_makes_at_most_its_jobs_and_hands_back_what_is_kept() {
        // Engines are made lazily: nothing starts until asked.
        let pool = Engines::new(2);
        let program = Path::new("/nonexistent/gnubg");
        let a = pool.take(EngineKind::Gnubg, program);
        let b = pool.take(EngineKind::Gnubg, program);
        assert_eq!(pool.state().made, 2);
        let waiting = {
            let pool = pool.clone();
            std::thread::spawn(move || pool.take(EngineKind::Gnubg, Path::new("/x")))
        };
        std::thread::sleep(std::time::Duration::from_millis(50));
        assert!(
            !waiting.is_finished(),
            "a third job waits for a freed engine"
        );
        pool.keep(a);
        let c = waiting.join().unwrap();
        assert_eq!(pool.state().made, 2, "the freed engine was handed on");
        pool.keep(b);
        pool.keep(c);
        assert_eq!(pool.state().idle.len(), 2);
    }
}
