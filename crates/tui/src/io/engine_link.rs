//! The editor's engines: each a long-lived engine on a thread of its own,
//! started when first asked (the reference engine at once). The runtime
//! hands them requests; answers go back through the runtime's one channel
//! as actions naming the engine. A request arriving while a deeper one
//! runs cancels it when the engine allows (`Capabilities::stopped_for_newer`:
//! the process is stopped and restarted), so a new edit never waits
//! seconds behind an old 3-ply analysis. A rollout is stopped by
//! `stop_rollout` or by any newer request (between two of its chunks, or at
//! once for an engine that cancels its rollouts), and says how far it got.
//! A quiz's grade, the score matrix and the match analysis are jobs
//! (`io/job.rs`), each on a thread of its own, the newest wanted.

use super::job;
use super::worker::{Inbox, Worker};
use crate::action::Action;
use crate::action::AnalysisAction;
use bgedit_engine::registry::ALL;
use bgedit_engine::{
    Analysis, Engine, EngineError, EngineErrorKind, EngineKind, Request, Rollout, RolloutSettings,
    Setup, Waiter, time_limit,
};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicUsize, Ordering};

use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

fn limit(plies: u8) -> Duration {
    time_limit(plies, Waiter::Editor)
}

/// What an engine's thread is asked to do.
enum Job {
    Analyse(Request),
    Rollout(Request, RolloutSettings),
}

/// One engine's thread, and what the link shares with it.
struct Line {
    requests: Worker<Job>,
    shared: Arc<Shared>,
}

/// What an engine's thread and the link both see.
#[derive(Default)]
struct Shared {
    /// The depth being analysed now, if any.
    busy: Mutex<Option<u8>>,
    pid: AtomicU32,
    /// Set when `ask` stopped the engine: the death that follows is ours.
    killed: AtomicBool,
    /// Set to stop the rollout running.
    stop: AtomicBool,
}

type Send = Arc<dyn Fn(Action) -> bool + std::marker::Send + Sync>;

/// A quiz's engine, started at its first grade and kept.
type Grader = Arc<Mutex<Option<Box<dyn Engine>>>>;

pub(crate) struct EngineLink {
    /// Each engine's thread, in `ALL`'s order, started at its first job.
    lines: [OnceLock<Line>; ALL.len()],
    /// Each engine's program as the user gave it on the command line;
    /// else the engine finds its own.
    setup: Setup,
    send: Send,
    /// The score matrix: a newer one stops an older one's job.
    matrix: job::Job,
    /// The match analysis wanted now (its serial; 0 for none), which
    /// `analyse_match_passes` compares, and its job.
    match_run: Arc<std::sync::atomic::AtomicU64>,
    match_analysis: job::Job,
    /// Grading a quiz's answer.
    grading: job::Job,
    /// The quiz's graders by engine, each started at its first answer and
    /// kept: a grade then waits only on the engine's answer.
    graders: [Grader; ALL.len()],
}

impl EngineLink {
    /// Starts the reference engine's thread. `setup` holds the programs
    /// the user named, by engine; `send` delivers an action to the runtime
    /// and says whether it is still there.
    pub(crate) fn start(
        setup: Setup,
        send: impl Fn(Action) -> bool + std::marker::Send + Sync + 'static,
    ) -> EngineLink {
        let send: Send = Arc::new(send);
        let link = EngineLink {
            lines: Default::default(),
            setup,
            matrix: job::Job::new("bgedit-matrix", Arc::clone(&send)),
            match_run: Arc::new(std::sync::atomic::AtomicU64::new(0)),
            match_analysis: job::Job::new("bgedit-match-analysis", Arc::clone(&send)),
            grading: job::Job::new("bgedit-grade", Arc::clone(&send)),
            send,
            graders: Default::default(),
        };
        // Start now: the first answer should not wait for the engine to load.
        link.line(EngineKind::reference());
        link
    }

    /// The program that runs `kind`, or why there is none.
    fn program(&self, kind: EngineKind) -> Result<PathBuf, EngineError> {
        self.setup.program(kind)
    }

    /// `kind`'s thread and engine, started at the first job (the reference
    /// engine warmed up at once): the newest job waiting is done, the
    /// older ones dropped.
    fn line(&self, kind: EngineKind) -> &Line {
        self.lines[kind.index()].get_or_init(|| {
            let shared = Arc::new(Shared::default());
            let program = self.program(kind);
            let (send, shared2) = (Arc::clone(&self.send), Arc::clone(&shared));
            let name = format!("bgedit-{}", kind.key());
            let deliver = Arc::clone(&self.send);
            let requests = Worker::spawn(&name, kind.name(), deliver, move |inbox| {
                let engine = program.clone().map(|p| kind.open(p, Default::default()));
                serve(kind, engine, inbox, &shared2, &send);
            });
            Line { requests, shared }
        })
    }

    /// Grades a quiz answer on a thread of its own, with the quiz's own
    /// engine of `kind` (the analysis panel's are not disturbed); the grade
    /// comes back as `QuizAction::Graded`.
    pub(crate) fn grade(
        &self,
        serial: u64,
        position: bgedit_core::domain::Position,
        answer: bgedit_engine::match_analysis::QuizAnswer,
        plies: u8,
        kind: bgedit_engine::EngineKind,
    ) {
        use crate::library::state::QuizAction;
        let (grader, program) = (Arc::clone(&self.graders[kind.index()]), self.program(kind));
        let work = move || {
            let result = match program {
                Err(why) => Err(why.into()),
                Ok(program) => {
                    // A grader left by a panic is started afresh.
                    let mut slot = grader.lock().unwrap_or_else(|poisoned| {
                        let mut slot = poisoned.into_inner();
                        *slot = None;
                        slot
                    });
                    let engine = slot.get_or_insert_with(|| kind.open(program, Default::default()));
                    bgedit_engine::match_analysis::grade(&mut **engine, &position, &answer, plies)
                        .map(Box::new)
                }
            };
            Action::Library(QuizAction::Graded { serial, result }.into())
        };
        self.grading
            .run(work, job::failed("grading the quiz's answer"));
    }

    /// Asks the reference engine for each cell of a score matrix, on a
    /// thread and an engine of its own so the analysis is not held up; the
    /// cells come back one by one, and a newer matrix stops this one.
    pub fn score_matrix(&self, serial: u64, cells: Vec<bgedit_core::domain::score_matrix::Cell>) {
        let kind = EngineKind::reference();
        let program = self.program(kind);
        // The cells answered so far: the rest fail with a panic's words.
        let (count, reached) = (cells.len(), Arc::new(AtomicUsize::new(0)));
        let answered = Arc::clone(&reached);
        let work = move |ticket: &job::Ticket| {
            let mut engine = program
                .as_ref()
                .ok()
                .map(|p| kind.open(p.clone(), Default::default()));
            for (i, cell) in cells.iter().enumerate() {
                if !ticket.wanted() {
                    return;
                }
                let v = match &mut engine {
                    Some(e) => bgedit_engine::matrix::verdict(&mut **e, 0, i as u64 + 1, cell),
                    None => bgedit_engine::matrix::Verdict::Failed(
                        program
                            .as_ref()
                            .err()
                            .map(EngineError::to_string)
                            .unwrap_or_default(),
                    ),
                };
                answered.store(i + 1, Ordering::SeqCst);
                if !ticket.send(Action::Analysis(AnalysisAction::MatrixCell(serial, i, v))) {
                    return;
                }
            }
        };
        let failed = move |why: String| {
            let failed = || bgedit_engine::matrix::Verdict::Failed(why.clone());
            (reached.load(Ordering::SeqCst)..count)
                .map(|i| Action::Analysis(AnalysisAction::MatrixCell(serial, i, failed())))
                .collect()
        };
        self.matrix.start(work, failed);
    }

    /// Analyses a whole match in the background, pass after pass at the
    /// depths `passes` gives (0-ply, then the panel's deeper depth), with
    /// engines of its own (one core is left to the editor's, so typing
    /// never waits): see [`analyse_match_passes`]. A newer match, or
    /// `stop_match_analysis`, stops it.
    pub fn analyse_match(
        &self,
        serial: u64,
        replayed: Arc<bgedit_engine::match_analysis::ReplayedMatch>,
        engine: bgedit_engine::EngineKind,
        passes: Vec<u8>,
    ) {
        self.match_run.store(serial, Ordering::SeqCst);
        let wanted = Arc::clone(&self.match_run);
        let program = self.program(engine);
        let work = move |ticket: &job::Ticket| {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            let run = MatchRun {
                serial,
                engine,
                program,
                jobs: cores.saturating_sub(1).max(1),
            };
            let send = |action| ticket.send(action);
            analyse_match_passes(&run, &replayed, &passes, &wanted, &send);
        };
        // Ended, so the panel can analyse again, and then why.
        let failed = move |why| {
            use crate::match_review::state::ReviewAction;
            let mut actions = vec![Action::Review(ReviewAction::AnalysisEnded(serial))];
            actions.extend(job::failed("analysing the match")(why));
            actions
        };
        self.match_analysis.start(work, failed);
    }

    /// Stops the match analysis running, if any.
    pub fn stop_match_analysis(&self) {
        self.match_run.store(0, Ordering::SeqCst);
        self.match_analysis.cancel();
    }

    /// Rolls `req` out with `kind`; answers so far come back as
    /// `Action::Analysis(AnalysisAction::RolloutProgress)` (or `RolloutTick`
    /// while no number is in), the last as
    /// `Action::Analysis(AnalysisAction::RolloutAnswer)`.
    pub(crate) fn roll_out(&self, kind: EngineKind, req: Request, settings: RolloutSettings) {
        let line = self.line(kind);
        line.shared.stop.store(false, Ordering::SeqCst);
        let _ = line.requests.send(Job::Rollout(req, settings));
    }

    /// Stops the rollouts running, if any.
    pub(crate) fn stop_rollout(&self) {
        for line in self.lines.iter().filter_map(OnceLock::get) {
            line.shared.stop.store(true, Ordering::SeqCst);
        }
    }

    /// Asks `kind` for `req`: only the newest request waiting is answered,
    /// as `Action::Analysis(AnalysisAction::Answer)`. A deeper analysis
    /// still running is cut short where the engine allows.
    pub(crate) fn ask(&self, kind: EngineKind, req: Request) {
        let line = self.line(kind);
        let running = line.shared.busy.lock().map(|b| *b).unwrap_or(None);
        // Sent before the stop, so the engine thread finds it when it sees
        // the engine die.
        let _ = line.requests.send(Job::Analyse(req));
        if !kind.spec().caps.stopped_for_newer || running.is_none_or(|p| p == 0) {
            return;
        }
        let pid = line.shared.pid.load(Ordering::SeqCst);
        if pid != 0 {
            line.shared.killed.store(true, Ordering::SeqCst);
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

/// An engine's thread: the newest job waiting is done, older ones dropped,
/// each answer sent as an action naming `kind`.
fn serve(
    kind: EngineKind,
    mut engine: Result<Box<dyn Engine>, EngineError>,
    mut inbox: Inbox<Job>,
    shared: &Shared,
    send: &Send,
) {
    if let (Ok(e), true) = (&mut engine, kind.is_reference()) {
        // The reference is asked at once: the first answer should not
        // wait for it to load.
        let _ = e.warm_up();
    }
    while let Some(job) = inbox.newest() {
        let action = match job {
            Job::Analyse(req) => {
                let (result, version) = match &mut engine {
                    Err(why) => (Err(why.clone()), None),
                    Ok(e) => (analyse(&mut **e, &req, &mut inbox, shared), e.version()),
                };
                AnalysisAction::Answer(kind, req.id, result, version)
            }
            Job::Rollout(req, settings) => {
                let result = match &mut engine {
                    Err(why) => Err(why.clone()),
                    Ok(e) => roll_out(&mut **e, &req, &settings, &mut inbox, shared, send),
                };
                AnalysisAction::RolloutAnswer(req.id, result)
            }
        };
        if !send(Action::Analysis(action)) {
            break;
        }
    }
}

/// One analysis, asked again if a stop meant for an older one landed on it.
fn analyse(
    e: &mut dyn Engine,
    req: &Request,
    inbox: &mut Inbox<Job>,
    shared: &Shared,
) -> Result<Analysis, EngineError> {
    e.warm_up()?;
    shared.pid.store(e.pid().unwrap_or(0), Ordering::SeqCst);
    set(&shared.busy, Some(req.plies));
    let mut r = e.analyse(req, limit(req.plies));
    let died = matches!(&r, Err(e) if e.kind == EngineErrorKind::Died);
    if died && shared.killed.swap(false, Ordering::SeqCst) {
        // Stopped by `ask`, which sends the newer request before stopping:
        // if it is there, this one was the old one; if not, the stop landed
        // on this one, so it is asked again.
        if !inbox.newer_came() {
            r = e.analyse(req, limit(req.plies));
        }
    }
    set(&shared.busy, None);
    r
}

/// One rollout, its answers so far sent as they come; a newer job or a
/// stop ends it.
fn roll_out(
    e: &mut dyn Engine,
    req: &Request,
    settings: &RolloutSettings,
    inbox: &mut Inbox<Job>,
    shared: &Shared,
    send: &Send,
) -> Result<Analysis, EngineError> {
    // The stop was cleared when the rollout was sent (`roll_out`): an Esc
    // pressed before this thread took the job still stops it.
    shared.pid.store(e.pid().unwrap_or(0), Ordering::SeqCst);
    let id = req.id;
    let limit = limit(req.plies.max(settings.plies).saturating_add(1));
    let mut trials = 0;
    let mut on = |r: &Rollout, a: Option<&Analysis>| {
        let sent = match a {
            Some(a) => send(Action::Analysis(AnalysisAction::RolloutProgress(
                id,
                a.clone(),
            ))),
            // Trials without numbers yet: the header counts them.
            None if r.trials != trials => {
                trials = r.trials;
                send(Action::Analysis(AnalysisAction::RolloutTick(
                    id,
                    Box::new(r.clone()),
                )))
            }
            None => true,
        };
        // A newer request stops the rollout and is served next.
        sent && !inbox.newer_came() && !shared.stop.load(Ordering::SeqCst)
    };
    e.rollout(req, settings, limit, &mut on)
}
fn set(busy: &Mutex<Option<u8>>, value: Option<u8>) {
    if let Ok(mut b) = busy.lock() {
        *b = value;
    }
}

/// A background analysis of the open match: its serial, the engine and its
/// program (or why there is none), the engine processes to use.
pub struct MatchRun {
    pub serial: u64,
    pub engine: EngineKind,
    pub program: Result<PathBuf, EngineError>,
    pub jobs: usize,
}

/// Analyses `replayed` once per depth of `passes`, in order, the same way
/// `bgedit analyse --file F --plies P` does (`ReplayedMatch::analyse`,
/// whole games with an engine that reads them): each verdict goes to `send` as
/// `ReviewAction::Judged` with its depth, in match order, and the end as
/// `ReviewAction::AnalysisEnded`. It stops, saying nothing more, once
/// `wanted` is no longer `run.serial` or the runtime is gone. Public so a
/// test can drive the reducer with what the runtime would send.
pub fn analyse_match_passes(
    run: &MatchRun,
    replayed: &bgedit_engine::match_analysis::ReplayedMatch,
    passes: &[u8],
    wanted: &std::sync::atomic::AtomicU64,
    send: &(dyn Fn(Action) -> bool + Sync),
) {
    use crate::match_review::state::{MatchLuckOf, ReviewAction};
    use bgedit_engine::match_analysis::{Failed, RunOptions};
    let serial = run.serial;
    let judged = |i: usize, plies: u8, outcome| {
        send(Action::Review(ReviewAction::Judged(
            serial, i, plies, outcome,
        )))
    };
    for (pass, &plies) in passes.iter().enumerate() {
        let last = pass + 1 == passes.len();
        match &run.program {
            Err(why) => {
                for (i, d) in replayed.decisions().iter().enumerate() {
                    let failed = Failed {
                        game: d.game,
                        number: d.number,
                        why: why.to_string(),
                    };
                    if !judged(i, plies, Err(failed)) {
                        return;
                    }
                }
                // The next pass would fail the same way.
                break;
            }
            Ok(program) => {
                let opts = RunOptions {
                    engine: run.engine,
                    program: program.clone(),
                    plies,
                    jobs: run.jobs,
                    // The luck of the dice with the last pass, as `analyse
                    // --file` rates it: the statistics view's luck rows.
                    luck: last,
                    engines: None,
                    min_runs: None,
                };
                let stop = AtomicBool::new(false);
                let ran = replayed.analyse(&opts, &stop, &mut |i, outcome| {
                    if wanted.load(Ordering::SeqCst) != serial || !judged(i, plies, outcome) {
                        stop.store(true, Ordering::SeqCst);
                    }
                });
                if stop.load(Ordering::SeqCst) {
                    return;
                }
                if let Some(Ok(luck)) = ran.luck {
                    let luck = MatchLuckOf(Box::new(luck));
                    if !send(Action::Review(ReviewAction::Luck(serial, luck))) {
                        return;
                    }
                }
            }
        }
    }
    send(Action::Review(ReviewAction::AnalysisEnded(serial)));
}
