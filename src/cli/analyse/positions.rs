//! `bgedit analyse`: the reference engine's verdict (or another's, or every
//! engine's side by side) for each ID, from the arguments or standard
//! input, in input order, with J engine processes working at once.

use crate::cli::input::{Line, LineReader, Refusal};
use crate::cli::output::OutputFormat;
use bgedit_core::codec::{self, IdError, IdFormat};
use bgedit_core::domain::Position;
use bgedit_engine::compare;
use bgedit_engine::text::{self, Units};
use bgedit_engine::{
    Analysis, Engine, EngineError, EngineErrorKind, EngineKind, Request, Rollout, RolloutSettings,
    StartRecord, Waiter, time_limit,
};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender, SyncSender, channel, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

#[derive(Clone, Debug)]
pub(crate) struct AnalyseOptions {
    /// The engines that answer, each with its program: one, or every
    /// engine side by side.
    pub engines: Vec<(EngineKind, PathBuf)>,
    /// Threads for each rollout (0: every core).
    pub threads: u8,
    pub plies: u8,
    /// Moves listed with dice; 0 for all.
    pub moves: usize,
    pub jobs: usize,
    pub format: OutputFormat,
    /// Draw a progress line on standard error.
    pub progress: bool,
    /// Roll out with these settings instead of evaluating.
    pub rollout: Option<RolloutSettings>,
}

/// Why an input has no answer, with its GNUBG ID when it was read, so a
/// JSON run can still write a line in its place.
#[derive(Debug)]
pub(crate) struct Failure {
    pub why: Why,
    pub gnubg_id: Option<String>,
}

/// Why an input has no answer.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Why {
    #[error(transparent)]
    Line(#[from] Refusal),
    #[error(transparent)]
    Id(#[from] IdError),
    /// The one engine asked failed.
    #[error(transparent)]
    Engine(EngineError),
    /// One of two engines failed: named.
    #[error("{}: {error}", engine.name())]
    OneOfTwo {
        engine: EngineKind,
        error: EngineError,
    },
    /// The engine found nothing to analyse (the game is over): its words.
    #[error("{}: {said}", engine.name())]
    Over { engine: EngineKind, said: String },
}

impl<T: Into<Why>> From<T> for Failure {
    fn from(why: T) -> Failure {
        Failure {
            why: why.into(),
            gnubg_id: None,
        }
    }
}

/// One engine's answer, with whether the engine ran inside bgedit.
type Answer = (EngineKind, Analysis, bool);

/// Each engine's answer, and beside them the engines that cannot answer
/// this position at all (a score past its match equity table): said,
/// while the others' answers still show.
struct Answers {
    answered: Vec<Answer>,
    cannot: Vec<EngineError>,
}

/// One input, analysed: the output text (with its newline) or the error.
/// A rollout reports its answers so far to `progress`.
pub(crate) fn analyse_one(
    engines: &mut [Box<dyn Engine>],
    opts: &AnalyseOptions,
    id: u64,
    line: &str,
    progress: &mut dyn FnMut(&Rollout),
) -> Result<String, Failure> {
    let position = codec::parse_any(line, &Position::default())?.position;
    let gnubg_id = codec::to_string_as(&position, IdFormat::GnubgId);
    let req = Request {
        id,
        position,
        plies: opts.plies,
        moves: opts.moves,
    };
    let failed = |why| Failure {
        why,
        gnubg_id: Some(gnubg_id.clone()),
    };
    let mut answers = ask(engines, opts, &req, progress).map_err(failed)?;
    equal_depths(engines, opts, &req, &mut answers).map_err(failed)?;
    let disagree = match answers.answered.as_slice() {
        [(_, g, _), (_, s, _)] => compare::compare(g, s),
        _ => None,
    };
    // A list asked again whole is shown as long as asked.
    for (_, a, _) in &mut answers.answered {
        if let (Analysis::Moves { moves, .. }, 1..) = (a, opts.moves) {
            moves.truncate(opts.moves);
        }
    }
    Ok(match opts.format {
        OutputFormat::Json => json_answer(&gnubg_id, &req, &answers, disagree.as_ref()),
        OutputFormat::Text => text_answer(&gnubg_id, &req, &answers, disagree.as_ref()),
    })
}

/// Each engine's answer to `req` (its rollout with `--rollout`), or why
/// one has none.
fn ask(
    engines: &mut [Box<dyn Engine>],
    opts: &AnalyseOptions,
    req: &Request,
    progress: &mut dyn FnMut(&Rollout),
) -> Result<Answers, Why> {
    let mut answers = Answers {
        answered: Vec::new(),
        cannot: Vec::new(),
    };
    for engine in engines.iter_mut() {
        let kind = engine.kind();
        let analysis = match &opts.rollout {
            None => engine.analyse(req, time_limit(opts.plies, Waiter::Batch)),
            Some(settings) => {
                // Per chunk: the first is one trial of every candidate.
                let limit = time_limit(
                    opts.plies.max(settings.plies).saturating_add(1),
                    Waiter::Batch,
                );
                engine.rollout(req, settings, limit, &mut |r, _| {
                    progress(r);
                    true
                })
            }
        };
        let analysis = match analysis {
            Ok(a) => a,
            // Beside the reference, an engine that cannot answer here is
            // said, not failed: the reference's answer still shows.
            Err(e)
                if opts.engines.len() > 1
                    && !kind.is_reference()
                    && matches!(e.kind, EngineErrorKind::PastTable(_)) =>
            {
                answers.cannot.push(e);
                continue;
            }
            // Two engines: say which one failed.
            Err(e) if opts.engines.len() > 1 => {
                return Err(Why::OneOfTwo {
                    engine: kind,
                    error: e,
                });
            }
            Err(e) => return Err(Why::Engine(e)),
        };
        if let Analysis::Over { reason } = &analysis {
            let said = reason.clone();
            return Err(Why::Over { engine: kind, said });
        }
        answers.answered.push((kind, analysis, engine.in_process()));
    }
    Ok(answers)
}

/// Two engines' move lists brought to one depth for their comparison:
/// an engine that lists the other's best move below the depth asked (gnubg
/// leaves its move filter's tail at 0-ply) or not at all is asked again
/// with that move at the full depth, as a match analysis has the move
/// played (gnubg widens its filter), so no gap compares two depths.
fn equal_depths(
    engines: &mut [Box<dyn Engine>],
    opts: &AnalyseOptions,
    req: &Request,
    answers: &mut Answers,
) -> Result<(), Why> {
    let [(ka, a, _), (kb, b, _)] = answers.answered.as_mut_slice() else {
        return Ok(());
    };
    let asks = [(*ka, compare::deepen(a, b)), (*kb, compare::deepen(b, a))];
    let whole = Request {
        moves: 0,
        ..req.clone()
    };
    for (kind, after) in asks {
        let Some(after) = after else { continue };
        let Some(engine) = engines.iter_mut().find(|e| e.kind() == kind) else {
            continue;
        };
        let again = engine
            .analyse_played(&whole, &after, time_limit(opts.plies, Waiter::Batch))
            .map_err(|error| Why::OneOfTwo {
                engine: kind,
                error,
            })?;
        if let Some(slot) = answers.answered.iter_mut().find(|(k, ..)| *k == kind) {
            slot.1 = again;
        }
    }
    Ok(())
}

/// The answers as one JSON line: one engine's, or both under their names
/// with where they disagree.
fn json_answer(
    gnubg_id: &str,
    req: &Request,
    answers: &Answers,
    disagree: Option<&compare::Disagreement>,
) -> String {
    // Each answer as one engine's line, with its engine and depth.
    let mut lines = answers.answered.iter().map(|(kind, a, inside)| {
        let mut v = json_line(gnubg_id, req, a);
        v["engine"] = json!(kind.key());
        if kind.spec().caps.in_process {
            v["in_process"] = json!(inside);
        }
        v["level"] = json!(kind.depth_label(a.plies().unwrap_or(req.plies)));
        (*kind, v)
    });
    let v = if answers.answered.len() == 1 && answers.cannot.is_empty() {
        lines.next().map(|(_, v)| v).unwrap_or_default()
    } else {
        // Both: one object, each engine's answer (or why it has none)
        // under its name.
        let mut v = json!({ "gnubg_id": gnubg_id, "disagree": disagree });
        for (kind, mut line) in lines {
            if let Some(o) = line.as_object_mut() {
                o.remove("gnubg_id");
            }
            v[kind.key()] = line;
        }
        for e in &answers.cannot {
            v[e.engine.key()] = json!({ "error": e.to_string() });
        }
        v
    };
    bgedit_core::quote::json(&v) + "\n"
}

/// The answers as gnubg-like text, each engine's under its name and depth
/// when there are two, then where they disagree; an empty line after.
fn text_answer(
    gnubg_id: &str,
    req: &Request,
    answers: &Answers,
    disagree: Option<&compare::Disagreement>,
) -> String {
    let one = answers.answered.len() == 1 && answers.cannot.is_empty();
    let mut out = format!("GNUBG ID: {gnubg_id}\n");
    if let Some(reason) = bgedit_engine::request::no_cube_action(&req.position) {
        out += &format!("No cube action: {reason}\n");
    }
    for note in bgedit_engine::request::sent_notes(&req.position) {
        out += &format!("{note}\n");
    }
    for (kind, a, inside) in &answers.answered {
        if !one || !kind.is_reference() {
            // Each engine's depth in its own count, and for one
            // that can run inside bgedit, whether it did.
            let depth = text::depth_words(*kind, a, a.plies().unwrap_or(req.plies));
            let road = match (kind.spec().caps.in_process, inside) {
                (false, _) => "",
                (true, true) => ", in-process",
                (true, false) => ", Python bridge",
            };
            out += &format!("{} ({depth}{road}):\n", kind.name());
        }
        out += &text::render_for(a, Units::Equity, usize::MAX, *kind);
    }
    for e in &answers.cannot {
        out += &format!("{}: {e}\n", e.engine.name());
    }
    if !one
        && !req.position.state.is_money()
        && answers
            .answered
            .iter()
            .any(|(_, a, _)| a.plies().is_some() && !matches!(a, Analysis::Moves { .. }))
    {
        out += &format!("Cubeless equities: {}\n", cubeless_unit(&req.position));
    }
    if let Some(d) = disagree {
        out += &format!("{}\n", d.describe());
    } else if answers.answered.len() > 1 {
        out += "The engines agree.\n";
    }
    out + "\n"
}

/// The unit of every engine's cubeless equity: Sage's chances are put in
/// gnubg's (the engine crate's reading of Sage's answers), so the engines'
/// numbers compare.
fn cubeless_unit(p: &Position) -> &'static str {
    if p.state.is_money() {
        "money equity"
    } else {
        "normalised match equity (gnubg's unit: each engine's chances through the Kazaross-XG2 match equity table)"
    }
}

/// The JSON line written in place of an answer: output lines stay aligned
/// with input lines.
fn json_failure(f: &Failure) -> String {
    let why = f.why.to_string();
    bgedit_core::quote::json(&json!({"gnubg_id": f.gnubg_id, "error": why})) + "\n"
}

fn json_line(gnubg_id: &str, req: &Request, a: &Analysis) -> Value {
    let mut v = json!({ "gnubg_id": gnubg_id, "plies": a.plies().unwrap_or(req.plies) });
    let rollout = a.rollout();
    if let Some(r) = rollout {
        v["rollout"] = json!({
            "trials": r.trials, "of": r.of, "seed": r.seed, "truncate": r.truncate,
            "truncate_plies": r.truncate_plies,
            "plies": r.plies, "cubeful": r.cubeful, "variance_reduction": r.vr,
            "quasi_random": r.quasi, "seconds": r.elapsed, "stopped": r.stopped,
            "threads": r.threads, "reproducible": r.reproducible,
        });
    }
    let unit = if req.position.state.is_money() {
        "money"
    } else {
        "normalised match equity"
    };
    if let Some(sent) = bgedit_engine::request::equivalent_cube(&req.position) {
        // The answer is the original position's; say which cube gnubg saw.
        v["cube_analysed_as"] = json!(sent);
    }
    match a {
        Analysis::Moves { moves, plies, .. } => {
            let list: Vec<Value> = moves
                .iter()
                .map(|m| {
                    let mut o = json!({
                        "move": m.notation, "equity": m.equity, "probs": m.probs,
                        "plies": m.depth(*plies),
                    });
                    if let Some(w) = m.mwc {
                        o["mwc"] = json!(w);
                    }
                    if let Some(se) = m.std_error {
                        o["std_error"] = json!(se);
                    }
                    if let Some(se) = m.mwc_std_error {
                        o["mwc_std_error"] = json!(se);
                    }
                    o
                })
                .collect();
            v["moves"] = json!(list);
        }
        Analysis::Cube {
            action,
            no_double,
            double_take,
            double_pass,
            no_double_mwc,
            double_take_mwc,
            double_pass_mwc,
            probs,
            cubeless,
            ..
        } => {
            let mut c = json!({
                "action": action, "no_double": no_double, "double_take": double_take,
                "double_pass": double_pass, "probs": probs, "cubeless": cubeless,
                "cubeless_unit": unit,
            });
            if let (Some(n), Some(t), Some(p)) = (no_double_mwc, double_take_mwc, double_pass_mwc) {
                c["mwc"] = json!({"no_double": n, "double_take": t, "double_pass": p});
            }
            if let Some(r) = rollout {
                // Double/pass is exact: it has no error.
                c["std_error"] =
                    json!({"no_double": r.no_double_se, "double_take": r.double_take_se});
            }
            v["cube"] = c;
        }
        Analysis::Take {
            take,
            pass,
            take_mwc,
            pass_mwc,
            proper,
            probs,
            cubeless,
            ..
        } => {
            let mut t = json!({
                "action": proper, "take": take, "pass": pass, "probs": probs, "cubeless": cubeless,
                "cubeless_unit": unit,
            });
            if let (Some(a), Some(b)) = (take_mwc, pass_mwc) {
                t["mwc"] = json!({"take": a, "pass": b});
            }
            if let Some(r) = rollout {
                t["std_error"] = json!({"take": r.double_take_se});
            }
            v["take"] = t;
        }
        Analysis::Eval {
            probs, cubeless, ..
        } => {
            let reason = bgedit_engine::request::no_cube_action(&req.position).unwrap_or_default();
            v["cube"] = json!({
                "action": format!("No cube action: {reason}"), "probs": probs, "cubeless": cubeless,
                "cubeless_unit": unit,
            });
        }
        Analysis::Over { .. } => {}
    }
    v
}

/// (sequence number, "line N", the line or why it cannot be read)
type Job = (u64, String, Result<String, Failure>);

/// What the writing loop hears: an answer (or a refused line) by its
/// sequence number, or the end of the input with how many inputs there
/// were and whether reading failed.
enum Event {
    Done(u64, String, Result<String, Failure>),
    End(u64, io::Result<()>),
    /// A rollout's progress: trials done and asked for, seconds left.
    Rolling(u64, u32, u32, Option<f64>),
}

fn worker(
    opts: AnalyseOptions,
    starts: Vec<StartRecord>,
    jobs: Arc<Mutex<Receiver<Job>>>,
    done: Sender<Event>,
) {
    // One record of failed starts for all the jobs, one an engine: a gnubg
    // that cannot start is given up on after two tries, not two tries per
    // job, and one that hangs once is not waited for line after line.
    let mut engines: Vec<Box<dyn Engine>> = opts
        .engines
        .iter()
        .zip(starts)
        .map(|((kind, program), starts)| {
            let mut e = kind.open(program.clone(), starts);
            // Each rollout's threads (0: every core).
            e.set_threads(opts.threads);
            e
        })
        .collect();
    loop {
        let next = jobs.lock().map(|rx| rx.recv());
        let Ok(Ok((seq, origin, line))) = next else {
            return;
        };
        let show = opts.progress;
        let mut progress = |r: &Rollout| {
            if show {
                let _ = done.send(Event::Rolling(seq, r.trials, r.of, r.seconds_left()));
            }
        };
        let result =
            line.and_then(|l| analyse_one(&mut engines, &opts, seq + 1, &l, &mut progress));
        if done.send(Event::Done(seq, origin, result)).is_err() {
            return;
        }
    }
}

/// Reads the inputs (the arguments, or the lines of `input` through the
/// shared bounded reader) and hands them out in order: lines to analyse to
/// the workers, refused lines straight to the writer. Each input takes a
/// credit first; the writer gives one back for every answer it writes, so
/// at most `window` inputs are ever read and not yet answered.
fn read_inputs<R: Read>(
    args: &[String],
    input: R,
    jobs: &SyncSender<Job>,
    events: &Sender<Event>,
    credits: &Receiver<()>,
) -> (u64, io::Result<()>) {
    let mut seq = 0u64;
    let mut hand_out = |origin: String, text: Result<String, Failure>| -> bool {
        if credits.recv().is_err() {
            return false;
        }
        let sent = match text {
            Ok(line) => jobs.send((seq, origin, Ok(line))).is_ok(),
            Err(why) => events.send(Event::Done(seq, origin, Err(why))).is_ok(),
        };
        seq += 1;
        sent
    };
    if !args.is_empty() {
        for (i, arg) in args.iter().enumerate() {
            if !hand_out(format!("argument {}", i + 1), Ok(arg.clone())) {
                break;
            }
        }
        return (seq, Ok(()));
    }
    let mut reader = LineReader::new(input);
    loop {
        // The writer flushes on its own; nothing here waits on output.
        let (number, line) = match reader.next_line(&mut || Ok(())) {
            Ok(Some(next)) => next,
            Ok(None) => return (seq, Ok(())),
            Err(e) => return (seq, Err(e)),
        };
        let text = match line {
            // Blank lines (between blocks of IDs) are not inputs.
            Line::Text(text) if text.trim().is_empty() => continue,
            Line::Text(text) => Ok(text.trim().to_owned()),
            Line::Refused(why) => Err(Failure::from(why)),
        };
        if !hand_out(format!("line {number}"), text) {
            return (seq, Ok(()));
        }
    }
}

/// How the run went: answers written and inputs refused.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Report {
    pub analysed: u64,
    pub failed: u64,
}

/// Analyses `args` (or, when empty, each line of `input`), writing answers to
/// `out` in input order and `line N:` / `argument N:` errors to `err`.
/// Lines are read by the shared bounded reader (`input.rs`) on a thread of
/// their own, so each answer is written (and flushed) as soon as it and
/// those before it are ready, even while the input waits.
pub fn run<R: Read + Send + 'static, W: Write, E: Write>(
    opts: &AnalyseOptions,
    args: &[String],
    input: R,
    mut out: W,
    mut err: E,
) -> io::Result<Report> {
    let (workers, events, credits) = start(opts, args, input);
    let mut answers = InOrder {
        waiting: BTreeMap::new(),
        next: 0,
        report: Report::default(),
        started: Instant::now(),
        rolling: false,
    };
    let mut total: Option<u64> = None;
    let mut read_result = Ok(());
    while total != Some(answers.next) {
        // Nothing more is ready: what is written goes out now.
        let event = match events.try_recv() {
            Ok(event) => event,
            Err(_) => {
                out.flush()?;
                match events.recv() {
                    Ok(event) => event,
                    Err(_) => break,
                }
            }
        };
        match event {
            Event::Done(seq, origin, result) => {
                answers.waiting.insert(seq, (origin, result));
            }
            Event::End(count, result) => {
                total = Some(count);
                read_result = result;
            }
            Event::Rolling(seq, trials, of, left) => {
                let left = left.map_or(String::new(), |s| format!(", about {s:.0} s left"));
                write!(err, "\r\x1b[Kinput {}: {trials}/{of} trials{left}", seq + 1)?;
                err.flush()?;
                answers.rolling = true;
            }
        }
        answers.write_ready(opts, &mut out, &mut err, &credits)?;
    }
    // Every input is answered: the job queue is closed and the workers
    // stop (and their gnubg processes with them).
    for w in workers {
        let _ = w.join();
    }
    read_result?;
    if opts.progress && answers.next >= 50 {
        writeln!(err)?;
    }
    out.flush()?;
    Ok(answers.report)
}

/// The workers and the reader started: the workers' threads, the events
/// the writer hears, and where it gives back a credit for each answer
/// written.
fn start<R: Read + Send + 'static>(
    opts: &AnalyseOptions,
    args: &[String],
    input: R,
) -> (Vec<JoinHandle<()>>, Receiver<Event>, Sender<()>) {
    let jobs_n = opts.jobs.max(1);
    // Bounded: a million lines never sit in memory at once.
    let window = 8 * jobs_n;
    let (job_tx, job_rx) = sync_channel::<Job>(window);
    let job_rx = Arc::new(Mutex::new(job_rx));
    let (event_tx, event_rx) = channel::<Event>();
    let (credit_tx, credit_rx) = channel::<()>();
    for _ in 0..window {
        let _ = credit_tx.send(());
    }
    let starts: Vec<StartRecord> = opts.engines.iter().map(|_| StartRecord::batch()).collect();
    let workers: Vec<_> = (0..jobs_n)
        .map(|_| {
            let (o, j, d) = (opts.clone(), Arc::clone(&job_rx), event_tx.clone());
            let s = starts.clone();
            std::thread::spawn(move || worker(o, s, j, d))
        })
        .collect();
    // The reader is a thread of its own (not scoped): when output fails,
    // the run ends at once even if it is waiting on a terminal for input.
    let events = event_tx;
    let args = args.to_vec();
    std::thread::spawn(move || {
        let (count, result) = read_inputs(&args, input, &job_tx, &events, &credit_rx);
        // Closing the job queue lets the workers finish.
        drop(job_tx);
        let _ = events.send(Event::End(count, result));
    });
    (workers, event_rx, credit_tx)
}

/// The answers come in any order and are written in input order.
struct InOrder {
    /// Answers (or refusals) by sequence number, not yet written.
    waiting: BTreeMap<u64, (String, Result<String, Failure>)>,
    /// The sequence number written next.
    next: u64,
    report: Report,
    started: Instant,
    /// A rollout's progress line is on standard error, to be cleared.
    rolling: bool,
}

impl InOrder {
    /// Writes the answers ready in order, each giving back its credit.
    fn write_ready(
        &mut self,
        opts: &AnalyseOptions,
        out: &mut impl Write,
        err: &mut impl Write,
        credits: &Sender<()>,
    ) -> io::Result<()> {
        while let Some((origin, result)) = self.waiting.remove(&self.next) {
            if std::mem::take(&mut self.rolling) {
                write!(err, "\r\x1b[K")?;
            }
            match result {
                Ok(text) => {
                    // The engine's words (its moves, its notes) are printed
                    // escaped; JSON is `quote::json`'s already.
                    out.write_all(bgedit_core::quote::printable(&text).as_bytes())?;
                    self.report.analysed += 1;
                }
                Err(f) => {
                    if opts.format == OutputFormat::Json {
                        out.write_all(json_failure(&f).as_bytes())?;
                    }
                    out.flush()?;
                    writeln!(err, "{origin}: {}", bgedit_core::quote::Shown(&f.why))?;
                    self.report.failed += 1;
                }
            }
            self.next += 1;
            let _ = credits.send(());
            if opts.progress && self.next.is_multiple_of(50) {
                let rate = self.next as f64 / self.started.elapsed().as_secs_f64().max(1e-3);
                write!(err, "\ranalysed {} ({rate:.0}/s)", self.next)?;
                err.flush()?;
            }
        }
        Ok(())
    }
}
