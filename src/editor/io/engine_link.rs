//! The editor's gnubg: one long-lived process on a thread of its own. The
//! runtime hands it requests; answers go back through the runtime's one
//! channel as actions. A request arriving while a deeper one runs cancels
//! it (the process is stopped and restarted), so a new edit never waits
//! seconds behind an old 3-ply analysis. A rollout is stopped between two
//! of its chunks (a quarter of a second) by `stop_rollout` or by any newer
//! request, and says how far it got.

use super::worker::{Inbox, Worker};
use crate::editor::action::Action;
use crate::editor::action::AnalysisAction;
use crate::engine::{Engine, EngineError, Request, RolloutSettings, Waiter, time_limit};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use std::sync::{Arc, Mutex};
use std::time::Duration;

fn limit(plies: u8) -> Duration {
    time_limit(plies, Waiter::Editor)
}

/// What the engine thread is asked to do.
enum Job {
    Analyse(Request),
    Rollout(Request, RolloutSettings),
}

pub struct EngineLink {
    requests: Worker<Job>,
    /// The depth being analysed now, if any.
    busy: Arc<Mutex<Option<u8>>>,
    pid: Arc<AtomicU32>,
    /// Set when `ask` stopped gnubg: the death that follows is ours.
    killed: Arc<AtomicBool>,
    /// Set to stop the rollout running.
    stop: Arc<AtomicBool>,
    /// gnubg, for the score matrix's own process; and where actions go.
    program: Result<PathBuf, String>,
    send: Arc<dyn Fn(Action) -> bool + Send + Sync>,
    /// The score matrix wanted now: a worker for an older one stops.
    matrix: Arc<std::sync::atomic::AtomicU64>,
    /// The match analysis wanted now (its serial; 0 for none).
    match_run: Arc<std::sync::atomic::AtomicU64>,
    /// gnubg for the quiz's grades, started at the first answer and kept:
    /// a grade then waits only on gnubg's answer.
    grader: Arc<Mutex<Option<Engine>>>,
    /// Sage for the quiz's grades when the panel shows Sage.
    sage_grader: Arc<Mutex<Option<Engine>>>,
    /// Open Sage's thread, started when the panel first asks it.
    sage: std::sync::OnceLock<Worker<Job>>,
    /// Set to stop Sage's rollout running.
    sage_stop: Arc<AtomicBool>,
    /// `--sage-python`, if given: else `BGEDIT_SAGE_PYTHON`, then python3.
    sage_python: Option<PathBuf>,
}

impl EngineLink {
    /// Starts the thread. `program` is gnubg, or why there is none; `send`
    /// delivers an action to the runtime and says whether it is still there.
    pub fn start(
        program: Result<PathBuf, String>,
        send: impl Fn(Action) -> bool + Send + Sync + 'static,
    ) -> EngineLink {
        let send_all: Arc<dyn Fn(Action) -> bool + Send + Sync> = Arc::new(send);
        let (program2, send2) = (program.clone(), Arc::clone(&send_all));
        let send = move |a: Action| send2(a);
        let busy = Arc::new(Mutex::new(None));
        let pid = Arc::new(AtomicU32::new(0));
        let killed = Arc::new(AtomicBool::new(false));
        let stop = Arc::new(AtomicBool::new(false));
        let (busy2, pid2, killed2) = (Arc::clone(&busy), Arc::clone(&pid), Arc::clone(&killed));
        let stop2 = Arc::clone(&stop);
        let requests = Worker::spawn("bgedit-gnubg", move |mut inbox: Inbox<Job>| {
            let mut engine = program.map(Engine::new);
            if let Ok(e) = &mut engine {
                // Start now: the first answer should not wait for gnubg to load.
                let _ = e.warm_up();
            }
            // Only the newest request matters; older ones are stale.
            while let Some(job) = inbox.newest() {
                let req = match job {
                    Job::Analyse(req) => req,
                    Job::Rollout(req, settings) => {
                        stop2.store(false, Ordering::SeqCst);
                        let id = req.id;
                        let result = match &mut engine {
                            Err(why) => Err(EngineError::NotFound(why.clone())),
                            Ok(e) => {
                                pid2.store(e.pid().unwrap_or(0), Ordering::SeqCst);
                                let limit = limit(req.plies.max(settings.plies).saturating_add(1));
                                let mut on = |_: &crate::engine::Rollout,
                                              a: Option<&crate::engine::Analysis>| {
                                    if let Some(a) = a
                                        && !send(Action::Analysis(AnalysisAction::RolloutProgress(id, a.clone())))
                                    {
                                        return false;
                                    }
                                    // A newer request stops the rollout
                                    // and is served next.
                                    !inbox.newer_came() && !stop2.load(Ordering::SeqCst)
                                };
                                e.rollout(&req, &settings, limit, &mut on)
                            }
                        };
                        if !send(Action::Analysis(AnalysisAction::RolloutAnswer(id, result))) {
                            break;
                        }
                        continue;
                    }
                };
                let result = match &mut engine {
                    Err(why) => Err(EngineError::NotFound(why.clone())),
                    Ok(e) => {
                        if let Err(err) = e.warm_up() {
                            Err(err)
                        } else {
                            pid2.store(e.pid().unwrap_or(0), Ordering::SeqCst);
                            set(&busy2, Some(req.plies));
                            let mut r = e.analyse(&req, limit(req.plies));
                            if r == Err(EngineError::Died) && killed2.swap(false, Ordering::SeqCst)
                            {
                                // Stopped by `ask`, which sends the newer
                                // request before stopping: if it is there,
                                // this one was the old one; if not, the stop
                                // landed on this one, so it is asked again.
                                if !inbox.newer_came() {
                                    r = e.analyse(&req, limit(req.plies));
                                }
                            }
                            set(&busy2, None);
                            r
                        }
                    }
                };
                if !send(Action::Analysis(AnalysisAction::Answer(req.id, result))) {
                    break;
                }
            }
        });
        EngineLink {
            requests,
            busy,
            pid,
            killed,
            stop,
            program: program2,
            send: Arc::clone(&send_all),
            matrix: Arc::new(std::sync::atomic::AtomicU64::new(0)),
            match_run: Arc::new(std::sync::atomic::AtomicU64::new(0)),
            grader: Arc::new(Mutex::new(None)),
            sage_grader: Arc::new(Mutex::new(None)),
            sage: std::sync::OnceLock::new(),
            sage_stop: Arc::new(AtomicBool::new(false)),
            sage_python: None,
        }
    }

    /// Grades a quiz answer on a thread of its own, with the quiz's own
    /// gnubg or Sage (the analysis panel's are not disturbed); the grade
    /// comes back as `LibAction::Graded`.
    pub fn grade(
        &self,
        serial: u64,
        position: crate::domain::Position,
        answer: crate::engine::match_analysis::QuizAnswer,
        plies: u8,
        kind: crate::engine::EngineKind,
    ) {
        use crate::editor::library::state::LibAction;
        use crate::engine::EngineKind;
        let send = Arc::clone(&self.send);
        let (grader, program) = match kind {
            EngineKind::Gnubg => (Arc::clone(&self.grader), self.program.clone()),
            EngineKind::Sage => (Arc::clone(&self.sage_grader), self.sage_program()),
        };
        std::thread::spawn(move || {
            let result = match program {
                Err(why) => Err(why),
                Ok(program) => {
                    let mut slot = grader.lock().unwrap_or_else(|e| e.into_inner());
                    let engine =
                        slot.get_or_insert_with(|| Engine::of(kind, program, Default::default()));
                    crate::engine::match_analysis::grade(engine, &position, &answer, plies)
                        .map(Box::new)
                }
            };
            send(Action::Library(LibAction::Graded { serial, result }));
        });
    }

    /// Asks gnubg for each cell of a score matrix, on a thread and a gnubg
    /// process of its own so the analysis is not held up; the cells come
    /// back one by one, and a newer matrix stops this one.
    pub fn score_matrix(&self, serial: u64, cells: Vec<crate::domain::score_matrix::Cell>) {
        self.matrix.store(serial, Ordering::SeqCst);
        let (wanted, send) = (Arc::clone(&self.matrix), Arc::clone(&self.send));
        let program = self.program.clone();
        std::thread::spawn(move || {
            let mut engine = program.as_ref().ok().map(|p| Engine::new(p.clone()));
            for (i, cell) in cells.iter().enumerate() {
                if wanted.load(Ordering::SeqCst) != serial {
                    return;
                }
                let v = match &mut engine {
                    Some(e) => crate::engine::matrix::verdict(e, 0, i as u64 + 1, cell),
                    None => crate::engine::matrix::Verdict::Failed(
                        program.clone().err().unwrap_or_default(),
                    ),
                };
                if !send(Action::Analysis(AnalysisAction::MatrixCell(serial, i, v))) {
                    return;
                }
            }
        });
    }

    /// Analyses a whole match in the background, at 0-ply, with gnubg
    /// processes of its own (one core is left to the editor's gnubg, so
    /// typing never waits). Each verdict comes back in match order as
    /// `ReviewAction::Judged`, the end as `ReviewAction::AnalysisEnded`; a
    /// newer match, or `stop_match_analysis`, stops it.
    pub fn analyse_match(
        &self,
        serial: u64,
        decisions: Vec<crate::codec::match_file::FileDecision>,
        whole: Option<crate::engine::gnubg_match::MatchForGnubg>,
        engine: crate::engine::EngineKind,
    ) {
        use crate::editor::match_review::state::ReviewAction;
        use crate::engine::match_analysis::{self, Failed, RunOptions};
        self.match_run.store(serial, Ordering::SeqCst);
        let (wanted, send) = (Arc::clone(&self.match_run), Arc::clone(&self.send));
        let program = match engine {
            crate::engine::EngineKind::Gnubg => self.program.clone(),
            crate::engine::EngineKind::Sage => self.sage_program(),
        };
        std::thread::spawn(move || {
            let judged =
                |i: usize, outcome| send(Action::Review(ReviewAction::Judged(serial, i, outcome)));
            match program {
                Err(why) => {
                    for (i, d) in decisions.iter().enumerate() {
                        let failed = Failed {
                            game: d.game,
                            number: d.number,
                            why: why.clone(),
                        };
                        if !judged(i, Err(failed)) {
                            return;
                        }
                    }
                }
                Ok(gnubg) => {
                    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
                    let opts = RunOptions {
                        engine,
                        gnubg,
                        plies: 0,
                        jobs: cores.saturating_sub(1).max(1),
                        // The panel shows no luck.
                        luck: false,
                    };
                    let stop = AtomicBool::new(false);
                    match_analysis::run(
                        &decisions,
                        &opts,
                        whole.as_ref(),
                        &stop,
                        &mut |i, outcome| {
                            if wanted.load(Ordering::SeqCst) != serial || !judged(i, outcome) {
                                stop.store(true, Ordering::SeqCst);
                            }
                        },
                    );
                    if stop.load(Ordering::SeqCst) {
                        return;
                    }
                }
            }
            send(Action::Review(ReviewAction::AnalysisEnded(serial)));
        });
    }

    /// Stops the match analysis running, if any.
    pub fn stop_match_analysis(&self) {
        self.match_run.store(0, Ordering::SeqCst);
    }

    /// Rolls `req` out; answers so far come back as
    /// `Action::Analysis(AnalysisAction::RolloutProgress)`, the last as `Action::Analysis(AnalysisAction::RolloutAnswer)`.
    pub fn roll_out(&self, req: Request, settings: RolloutSettings) {
        let _ = self.requests.send(Job::Rollout(req, settings));
    }

    /// Stops the rollout running, if any, after its chunk.
    pub fn stop_rollout(&self) {
        self.stop.store(true, Ordering::SeqCst);
        self.sage_stop.store(true, Ordering::SeqCst);
    }

    /// Sage run by `python` (`--sage-python`) rather than the one found.
    pub fn with_sage_python(mut self, python: Option<PathBuf>) -> EngineLink {
        self.sage_python = python;
        self
    }

    /// The Python that runs Sage, or why there is none.
    fn sage_program(&self) -> Result<PathBuf, String> {
        crate::engine::sage::find_python_from_env(self.sage_python.as_deref())
    }

    /// Asks Open Sage for `req` (the panel's second opinion), on a thread
    /// and a process of its own, started at the first request; only the
    /// newest request waiting is answered. The answer comes back as
    /// `Action::Analysis(AnalysisAction::SageAnswer)`.
    pub fn ask_sage(&self, req: Request) {
        let _ = self.sage_jobs().send(Job::Analyse(req));
    }

    /// Rolls `req` out with Sage; answers so far come back as
    /// `Action::Analysis(AnalysisAction::RolloutProgress)`, the last as `Action::Analysis(AnalysisAction::RolloutAnswer)`, as
    /// gnubg's do. `stop_rollout` (or a newer request) stops it at once.
    pub fn roll_out_sage(&self, req: Request, settings: RolloutSettings) {
        self.sage_stop.store(false, Ordering::SeqCst);
        let _ = self.sage_jobs().send(Job::Rollout(req, settings));
    }

    /// Sage's thread and process, started at the first job: the newest
    /// job waiting is done, the older ones dropped.
    fn sage_jobs(&self) -> &Worker<Job> {
        self.sage.get_or_init(|| {
            let send = Arc::clone(&self.send);
            let stop = Arc::clone(&self.sage_stop);
            let program = self.sage_program();
            Worker::spawn("bgedit-sage", move |mut inbox: Inbox<Job>| {
                let mut engine = program.map(Engine::sage);
                while let Some(job) = inbox.newest() {
                    let sent = match job {
                        Job::Analyse(req) => {
                            let (result, version) = match &mut engine {
                                Err(why) => (Err(EngineError::NotFound(why.clone())), None),
                                Ok(e) => (e.analyse(&req, limit(req.plies)), e.version.clone()),
                            };
                            send(Action::Analysis(AnalysisAction::SageAnswer(req.id, result, version)))
                        }
                        Job::Rollout(req, settings) => {
                            let id = req.id;
                            let result = match &mut engine {
                                Err(why) => Err(EngineError::NotFound(why.clone())),
                                Ok(e) => {
                                    let limit =
                                        limit(req.plies.max(settings.plies).saturating_add(1));
                                    let mut trials = 0;
                                    let mut on = |r: &crate::engine::Rollout,
                                                  a: Option<&crate::engine::Analysis>| {
                                        let sent = match a {
                                            Some(a) => send(Action::Analysis(AnalysisAction::RolloutProgress(id, a.clone()))),
                                            // Trials without numbers yet:
                                            // the header counts them.
                                            None if r.trials != trials => {
                                                trials = r.trials;
                                                send(Action::Analysis(AnalysisAction::RolloutTick(id, Box::new(r.clone()))))
                                            }
                                            None => true,
                                        };
                                        if !sent {
                                            return false;
                                        }
                                        !inbox.newer_came() && !stop.load(Ordering::SeqCst)
                                    };
                                    e.rollout(&req, &settings, limit, &mut on)
                                }
                            };
                            send(Action::Analysis(AnalysisAction::RolloutAnswer(id, result)))
                        }
                    };
                    if !sent {
                        break;
                    }
                }
            })
        })
    }

    /// Asks for `req`, cancelling a deeper analysis still running.
    pub fn ask(&self, req: Request) {
        let running = self.busy.lock().map(|b| *b).unwrap_or(None);
        // Sent before the stop, so the engine thread finds it when it sees
        // gnubg die.
        let _ = self.requests.send(Job::Analyse(req));
        if running.is_some_and(|p| p > 0) {
            let pid = self.pid.load(Ordering::SeqCst);
            if pid != 0 {
                self.killed.store(true, Ordering::SeqCst);
                // The engine thread sees the process end, answers the old
                // request with an error (dropped as stale) and restarts.
                // (A signal, not a `kill` process: nothing to spawn, nothing
                // to fail on a system without one.)
                if let Ok(pid) = libc::pid_t::try_from(pid) {
                    // SAFETY: kill(2) takes two integers and touches no
                    // memory of ours.
                    unsafe {
                        libc::kill(pid, libc::SIGKILL);
                    }
                }
            }
        }
    }
}

fn set(busy: &Mutex<Option<u8>>, value: Option<u8>) {
    if let Ok(mut b) = busy.lock() {
        *b = value;
    }
}
