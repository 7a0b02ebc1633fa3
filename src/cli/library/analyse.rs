//! `library analyse`: the library's matches analysed by an engine at a
//! depth, with the match analysis `analyse --file` runs, each game's (or
//! batch's) verdicts stored as soon as they are done, so a run stopped
//! (even by kill -9) goes on where it stopped and nothing is analysed
//! twice. `--shard K/N` takes a fixed, disjoint Nth of the matches. Each
//! match is claimed in the library while a run works on it, so two runs
//! on one library share the work out; a signal stops the run, which says
//! what it kept.

use super::Failure;
use bgedit_core::codec::match_file;
use bgedit_engine::EngineKind;
use bgedit_engine::match_analysis::{Judged, Outcome, Pieces, ReplayedMatch, RunOptions};
use bgedit_engine::pool::Engines;
use bgedit_library::match_import::StoredJudgement;
use bgedit_library::store::{Claim, Library, StoredMatch, Verdict};
use std::collections::BTreeSet;
use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

/// Verdicts written in one transaction at most (a game's end writes too).
const BATCH: usize = 32;

/// How long a run's claim on a match lasts unless renewed: a run killed
/// (SIGKILL) before it drops its claims leaves their matches to others
/// after this.
const LEASE: Duration = Duration::from_secs(60);

/// How often a run renews its claims while it works.
const RENEW: Duration = Duration::from_secs(20);

/// `--shard K/N`: the K-th (1-based) of N disjoint parts of the matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub k: u64,
    pub n: u64,
}

impl Shard {
    /// Whether the match with identity `hash` is in this shard: the
    /// hash's first 64 bits modulo N, so a match's shard depends on the
    /// match alone (not on the library it is in, the order imported, or
    /// the format of its file: the identity, not the file's hash).
    pub(crate) fn holds(self, hash: &str) -> bool {
        let head = hash.get(..16).and_then(|h| u64::from_str_radix(h, 16).ok());
        head.unwrap_or(0) % self.n == self.k - 1
    }
}

/// A `--shard` or `--engine` that cannot be read (the text as given,
/// escaped).
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ArgError {
    #[error("'{0}' is not a shard: give K/N with 1 <= K <= N, such as 1/2")]
    NotAShard(String),
    #[error("'{0}' is not an engine: give one of {1}")]
    NotAnEngine(String, String),
}

/// Reads `K/N` with 1 ≤ K ≤ N.
pub(crate) fn shard(text: &str) -> Result<Shard, ArgError> {
    let bad = || ArgError::NotAShard(bgedit_core::quote::printable(text).into_owned());
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (k, n): (u64, u64) = (
        k.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if k == 0 || n == 0 || k > n {
        return Err(bad());
    }
    Ok(Shard { k, n })
}

/// `--engine KEY`: an engine by its key.
pub(crate) fn engine(text: &str) -> Result<EngineKind, ArgError> {
    EngineKind::by_key(text.trim()).ok_or_else(|| {
        let keys: Vec<&str> = bgedit_engine::registry::ALL
            .iter()
            .map(|k| k.key())
            .collect();
        ArgError::NotAnEngine(
            bgedit_core::quote::printable(text).into_owned(),
            keys.join(", "),
        )
    })
}

// No doc comment: the subcommand's help is its variant's in `mod.rs`.
#[derive(clap::Args, Debug)]
pub struct AnalyseArgs {
    /// The depth, in gnubg's count (0-ply is its quickest).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=4))]
    plies: u8,
    /// The engine (one; the reference when not given), and each
    /// engine's program and data.
    #[command(flatten)]
    engines: crate::cli::engine_args::EngineArgs,
    /// Engine processes at work at once (one a core when not given).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..))]
    jobs: Option<u8>,
    /// Only the K-th of N disjoint parts of the matches (by their
    /// content hash), e.g. 1/2 here and 2/2 on another machine.
    #[arg(long, value_name = "K/N", value_parser = shard)]
    shard: Option<Shard>,
    /// Only the matches with every word among their players, event,
    /// date or file name.
    #[arg(allow_hyphen_values = true)]
    query: Vec<String>,
}

/// Runs `library analyse` as asked, a signal ending it cleaning up.
pub(super) fn run(
    lib: &mut Library,
    args: AnalyseArgs,
    out: &mut impl Write,
) -> Result<u8, Failure> {
    let AnalyseArgs {
        plies,
        engines,
        jobs,
        shard,
        query,
    } = args;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let opts = AnalyseOptions {
        engine: engines.one("library analyse")?,
        setup: engines.setup,
        plies,
        jobs: jobs.map_or(cores, usize::from),
        shard,
        query,
    };
    let stop = match crate::cli::signals::stop_on_signals() {
        Ok(s) => s,
        Err(e) => {
            bgedit_core::say!("bgedit: installing signal handlers: {e}");
            return Ok(1);
        }
    };
    analyse(lib, &opts, stop, out)
}

/// What `library analyse` was asked.
pub(crate) struct AnalyseOptions {
    pub engine: EngineKind,
    /// Each engine's program and data, as the user named them.
    pub setup: bgedit_engine::Setup,
    pub plies: u8,
    pub jobs: usize,
    pub shard: Option<Shard>,
    /// Words every chosen match has among its players, event, date, path.
    pub query: Vec<String>,
}

/// Whether match `m` is one `opts` asks for.
fn chosen(m: &StoredMatch, opts: &AnalyseOptions) -> bool {
    let text = format!(
        "{} {} {} {} {}",
        m.players[0],
        m.players[1],
        m.event.as_deref().unwrap_or(""),
        m.date.as_deref().unwrap_or(""),
        m.path
    )
    .to_lowercase();
    // A match whose file could not be read again has no identity: its
    // file's hash splits it.
    let key = if m.identity.is_empty() {
        &m.hash
    } else {
        &m.identity
    };
    opts.shard.is_none_or(|s| s.holds(key))
        && opts.query.iter().all(|w| text.contains(&w.to_lowercase()))
}

/// How the run went.
#[derive(Default)]
struct Totals {
    matches: u64,
    done_before: u64,
    decisions: u64,
    failed: u64,
    /// Matches this run analysed to the end.
    whole: u64,
    /// Matches another run on the library held the whole time.
    elsewhere: u64,
}

/// Runs `library analyse`; the exit status: 0, 1 when a match or decision
/// could not be analysed (the rest was), 2 when the engine or the library
/// could not be used, 128 + the signal that stopped it.
fn analyse(
    lib: &mut Library,
    opts: &AnalyseOptions,
    stop: &crate::cli::signals::Stop,
    out: &mut impl Write,
) -> Result<u8, Failure> {
    let program = opts.setup.program(opts.engine)?;
    let run = RunOptions {
        engine: opts.engine,
        program,
        plies: opts.plies,
        jobs: opts.jobs,
        // gnubg rates the dice as it analyses whole games: kept with the
        // match for `stats --player`.
        luck: true,
        // One engine a job for the whole run, not one a match.
        engines: Some(Engines::new(opts.jobs)),
        min_runs: None,
    };
    let (key, plies) = (opts.engine.key(), i64::from(opts.plies));
    let mut totals = Totals::default();
    let todo = to_do(lib, opts, &mut totals)?;
    let total: u64 = todo
        .iter()
        .map(|(m, done)| m.decisions - done.len() as u64)
        .sum();
    let mut progress = Progress::new(total, "decisions");
    let started = Instant::now();
    let chosen: Vec<(i64, u64)> = todo.iter().map(|(m, _)| (m.id, m.decisions)).collect();
    let mut batch = Batch {
        lib,
        run: &run,
        progress: &mut progress,
        totals: &mut totals,
        flights: Vec::new(),
        stop: stop.flag(),
        owner: bgedit_library::store::claimant(),
        renewed: Instant::now(),
        held: Vec::new(),
    };
    let ran = batch.analyse(todo);
    // Whatever happened, this run's claims go: another run may take them.
    let released = batch.lib.release_claims(&batch.owner, None);
    ran?;
    released?;
    progress.finish();
    if let Some(signal) = stop.signal() {
        let to_go = unfinished(lib, &chosen, key, plies)?;
        bgedit_core::say!(
            "bgedit: stopped ({}): {} kept, {to_go} to go (run it again to go on)",
            bgedit_core::signals::name(signal),
            bgedit_core::words::count(totals.whole as usize, "match", "matches")
        );
        return Ok(bgedit_core::signals::exit_status(signal));
    }
    said(out, opts, &totals, started)?;
    Ok(u8::from(totals.failed > 0))
}

/// The matches `opts` asks for that lack a verdict at its engine and depth,
/// each with the decisions that have one, the most work first (so that the
/// last matches are short and the jobs end together: longest-first
/// scheduling); those done already are counted in `totals`.
fn to_do(
    lib: &Library,
    opts: &AnalyseOptions,
    totals: &mut Totals,
) -> Result<Vec<(StoredMatch, BTreeSet<usize>)>, Failure> {
    let (key, plies) = (opts.engine.key(), i64::from(opts.plies));
    let mut todo = Vec::new();
    for m in lib.matches()?.into_iter().filter(|m| chosen(m, opts)) {
        let done = lib.analysed_at(m.id, key, plies)?;
        if done.len() as u64 >= m.decisions {
            totals.done_before += 1;
        } else {
            todo.push((m, done));
        }
    }
    todo.sort_by_key(|(m, done)| std::cmp::Reverse(m.decisions - done.len() as u64));
    Ok(todo)
}

/// The run's last line: what it analysed, what was done before, what
/// failed, and what another run held.
fn said(
    out: &mut impl Write,
    opts: &AnalyseOptions,
    totals: &Totals,
    started: Instant,
) -> std::io::Result<()> {
    let depth = opts.engine.depth_label(opts.plies);
    let elsewhere = match totals.elsewhere {
        0 => String::new(),
        n => format!("; {n} being analysed by another run"),
    };
    writeln!(
        out,
        "analysed {} of {} ({} {depth}) in {:.1} s; {} analysed \
         before; {} failed{elsewhere}",
        bgedit_core::words::count_s(totals.decisions as usize, "decision"),
        bgedit_core::words::count(totals.matches as usize, "match", "matches"),
        opts.engine.name(),
        started.elapsed().as_secs_f64(),
        bgedit_core::words::count(totals.done_before as usize, "match", "matches"),
        totals.failed
    )
}

/// How many of the matches `chosen` (id, decisions) lack a verdict by
/// `key` at `plies` on some decision.
fn unfinished(
    lib: &Library,
    chosen: &[(i64, u64)],
    key: &str,
    plies: i64,
) -> Result<usize, Failure> {
    let mut left = 0;
    for &(id, decisions) in chosen {
        if (lib.analysed_at(id, key, plies)?.len() as u64) < decisions {
            left += 1;
        }
    }
    Ok(left)
}

/// Matches analysed at once: the next one's analysis starts while the
/// last one's ends (its last piece still with gnubg on one job while the
/// other job is free, its verdicts stored and its mistakes refreshed), so
/// the jobs are not left idle between matches. The engines' pool holds the
/// run to its number of jobs.
const IN_FLIGHT: usize = 2;

/// How a match's analysis is made when `waiting` matches still wait for
/// the engines: while enough wait to keep every job busy, the match goes
/// to gnubg in as few requests as its depth allows; the last ones are cut
/// for every job, so that the jobs end together.
fn share(run: &RunOptions, waiting: usize) -> RunOptions {
    RunOptions {
        min_runs: (waiting >= run.jobs).then_some(1),
        ..run.clone()
    }
}

/// What a match's analysis, running in a thread of its own, tells the
/// main thread, which alone writes the library. Each carries the match's
/// place in [`Batch::flights`].
enum Event {
    /// Decision `i`'s outcome.
    Outcome(usize, usize, Outcome),
    /// Piece `g` done: its verdicts are all told, with each player's luck.
    Piece(usize, usize, Option<[f64; 2]>),
    /// The analysis ended; whether gnubg analysed the match whole.
    Finished(usize, bool),
}

/// A match whose analysis runs: what the main thread keeps of it.
struct Flight {
    id: i64,
    /// Its decisions: all judged, it is whole.
    decisions: u64,
    shown: String,
    replayed: Arc<ReplayedMatch>,
    done: Arc<BTreeSet<usize>>,
    store: Storer,
}

/// A `library analyse` run: the matches analysed [`IN_FLIGHT`] at a time,
/// their verdicts stored by the main thread as they come.
struct Batch<'a> {
    lib: &'a mut Library,
    run: &'a RunOptions,
    progress: &'a mut Progress,
    totals: &'a mut Totals,
    flights: Vec<Option<Flight>>,
    /// Set by a signal (or a failure of the library): no match is taken
    /// off any more, and those in flight stop.
    stop: &'a AtomicBool,
    /// This run's name on its claims.
    owner: String,
    /// When the claims were last renewed.
    renewed: Instant,
    /// The matches another run held when this one came to them: tried
    /// again once the rest is done.
    held: Vec<(StoredMatch, BTreeSet<usize>)>,
}

/// What taking a match off gave.
enum TakeOff {
    /// Its analysis runs, in this place of the flights.
    Flying(usize),
    /// Its file could not be read again (said).
    Unreadable,
    /// Another run holds it (the match, as listed).
    Held(Box<(StoredMatch, BTreeSet<usize>)>),
    /// Every decision has its verdict already (another run did it).
    Done,
}

impl Batch<'_> {
    /// Analyses the matches `todo` (each with the decisions already done
    /// at this depth).
    fn analyse(&mut self, todo: Vec<(StoredMatch, BTreeSet<usize>)>) -> Result<(), Failure> {
        let stop = self.stop;
        let (tx, rx) = channel::<Event>();
        let mut queue = todo.into_iter();
        let mut retried = false;
        let run = self.run;
        std::thread::scope(|scope| {
            let mut running = 0;
            let ended = 'run: loop {
                while running < IN_FLIGHT && !stop.load(Ordering::Relaxed) {
                    let Some((m, done)) = queue.next() else { break };
                    match self.take_off(m, done) {
                        Ok(TakeOff::Flying(slot)) => {
                            let f = self.flight(slot);
                            let (id, replayed, done) = (f.id, f.replayed.clone(), f.done.clone());
                            let lucky = match self.lucky(id) {
                                Ok(l) => l,
                                Err(e) => break 'run Err(e),
                            };
                            let tx = tx.clone();
                            let own = share(run, queue.len());
                            scope.spawn(move || {
                                fly(slot, &replayed, &done, &lucky, &own, stop, &tx)
                            });
                            running += 1;
                        }
                        Ok(TakeOff::Unreadable) => self.totals.failed += 1,
                        Ok(TakeOff::Done) => self.totals.done_before += 1,
                        Ok(TakeOff::Held(m)) => self.held.push(*m),
                        Err(e) => break 'run Err(e),
                    }
                }
                if running == 0 {
                    // The matches other runs held: once more, as theirs
                    // may have ended (or been killed, their lease run out).
                    if !retried && !self.held.is_empty() && !stop.load(Ordering::Relaxed) {
                        retried = true;
                        queue = std::mem::take(&mut self.held).into_iter();
                        continue;
                    }
                    self.totals.elsewhere = self.held.len() as u64;
                    break Ok(());
                }
                // Woken at least every RENEW, to keep this run's claims.
                let landed = match rx.recv_timeout(RENEW) {
                    Ok(event) => self.land(event, stop),
                    Err(RecvTimeoutError::Timeout) => Ok(false),
                    Err(RecvTimeoutError::Disconnected) => break Ok(()),
                };
                match landed.and_then(|ended| self.renew().map(|()| ended)) {
                    Ok(true) => running -= 1,
                    Ok(false) => {}
                    Err(e) => break Err(e),
                }
            };
            // A failure stops the matches in flight; the scope waits for them.
            if ended.is_err() {
                stop.store(true, Ordering::Relaxed);
            }
            ended
        })
    }

    /// The games of match `id` whose luck this engine and depth gave
    /// already.
    fn lucky(&self, id: i64) -> Result<BTreeSet<usize>, Failure> {
        let (key, plies) = (self.run.engine.key(), i64::from(self.run.plies));
        Ok(self
            .lib
            .game_lucks(id)?
            .into_iter()
            .filter(|(e, p, _, _)| e == key && *p == plies)
            .map(|(_, _, g, _)| g)
            .collect())
    }

    /// Renews this run's claims, when they are due.
    fn renew(&mut self) -> Result<(), Failure> {
        if self.renewed.elapsed() >= RENEW {
            self.lib.renew_claims(&self.owner, LEASE)?;
            self.renewed = Instant::now();
        }
        Ok(())
    }

    /// Match `m` claimed, read and replayed: its place in the flights, or
    /// why it is not analysed here. Claimed first, then what it has done
    /// read again: another run may have analysed it since the list was
    /// made.
    fn take_off(&mut self, m: StoredMatch, done: BTreeSet<usize>) -> Result<TakeOff, Failure> {
        let (key, plies) = (self.run.engine.key(), i64::from(self.run.plies));
        if let Claim::Held { .. } = self.lib.claim(m.id, key, plies, &self.owner, LEASE)? {
            return Ok(TakeOff::Held(Box::new((m, done))));
        }
        let done = self.lib.analysed_at(m.id, key, plies)?;
        if done.len() as u64 >= m.decisions {
            self.lib.release_claims(&self.owner, Some(m.id))?;
            return Ok(TakeOff::Done);
        }
        let (path, bytes) = self.lib.match_content(m.id)?;
        let shown = bgedit_core::quote::printable(&path).into_owned();
        let file = match match_file::read_bytes(&bytes) {
            Ok(f) => f,
            Err(e) => {
                bgedit_core::say!("match {} ({shown}): {e}; skipped", m.id);
                self.lib.release_claims(&self.owner, Some(m.id))?;
                return Ok(TakeOff::Unreadable);
            }
        };
        self.totals.matches += 1;
        self.flights.push(Some(Flight {
            id: m.id,
            decisions: m.decisions,
            shown,
            replayed: Arc::new(ReplayedMatch::of(&file)),
            done: Arc::new(done),
            store: Storer::default(),
        }));
        Ok(TakeOff::Flying(self.flights.len() - 1))
    }

    /// One event handled; whether it ended its match.
    fn land(&mut self, event: Event, stop: &AtomicBool) -> Result<bool, Failure> {
        match event {
            Event::Outcome(slot, i, outcome) => {
                self.outcome(slot, i, outcome);
                if self.flight(slot).store.error.is_some() {
                    stop.store(true, Ordering::Relaxed);
                }
                Ok(false)
            }
            Event::Piece(slot, g, luck) => {
                let (key, plies) = (self.run.engine.key(), i64::from(self.run.plies));
                let f = self.flights[slot].as_mut().expect("in flight");
                f.store.flush(self.lib, f.id);
                if let (Some(l), None) = (luck, &f.store.error)
                    && let Err(e) = self.lib.put_game_luck(f.id, key, plies, g, l)
                {
                    f.store.error = Some(e);
                }
                Ok(false)
            }
            Event::Finished(slot, whole) => {
                let f = self.flights[slot].take().expect("in flight");
                let code = self.finish(f, whole)?;
                self.totals.failed += u64::from(code);
                Ok(true)
            }
        }
    }

    fn flight(&mut self, slot: usize) -> &mut Flight {
        self.flights[slot].as_mut().expect("in flight")
    }

    /// Decision `i` of the match in `slot`: stored unless it was before.
    fn outcome(&mut self, slot: usize, i: usize, outcome: Outcome) {
        let run = self.run;
        let f = self.flights[slot].as_mut().expect("in flight");
        if f.done.contains(&i) {
            return;
        }
        // Stopping: an engine ended on the way out failed no decision.
        if outcome.is_err() && self.stop.load(Ordering::Relaxed) {
            return;
        }
        let game = f.replayed.decisions()[i].game;
        match outcome {
            Ok(list) => f.store.take(self.lib, f.id, i, game, verdict(run, &list)),
            Err(e) => {
                bgedit_core::say!(
                    "match {} ({}): game {}, move {}: {}",
                    f.id,
                    f.shown,
                    e.game,
                    e.number,
                    bgedit_core::quote::printable(&e.why)
                );
                f.store.failed = true;
            }
        }
        self.totals.decisions += 1;
        self.progress.step();
    }

    /// The match of flight `f` ended: its last verdicts stored, its
    /// entries' errors refreshed and, analysed whole without a failure,
    /// its luck added up; 1 when a decision failed.
    fn finish(&mut self, mut f: Flight, whole: bool) -> Result<u8, Failure> {
        f.store.flush(self.lib, f.id);
        if let Some(e) = f.store.error {
            return Err(e.into());
        }
        let lib = &mut *self.lib;
        // The entries' errors follow the deepest verdict now held, and the
        // mistakes kept out at import become entries.
        bgedit_library::mistakes::refresh(lib, f.id, &f.shown, f.replayed.decisions())?;
        if whole && self.run.luck && !f.store.failed {
            add_up_luck(
                lib,
                f.id,
                self.run,
                f.replayed.pieces().map_or(0, |p| p.len()),
            )?;
        }
        let (key, plies) = (self.run.engine.key(), i64::from(self.run.plies));
        if lib.analysed_at(f.id, key, plies)?.len() as u64 >= f.decisions {
            self.totals.whole += 1;
        }
        lib.release_claims(&self.owner, Some(f.id))?;
        Ok(u8::from(f.store.failed))
    }
}

/// The analysis of one match, in its own thread: the decisions not in
/// `done` told to the main thread through `tx`. With gnubg and the match
/// at hand, every piece (a game, or part of one) that lacks a verdict or
/// its luck is asked whole, as an uninterrupted run asks it, and only the
/// decisions without a verdict are stored: a run stopped part way (even
/// killed) and resumed ends with the verdicts and the luck of one
/// uninterrupted run. Another engine, or a match gnubg is not handed
/// whole, is asked decision by decision.
fn fly(
    slot: usize,
    replayed: &ReplayedMatch,
    done: &BTreeSet<usize>,
    lucky: &BTreeSet<usize>,
    run: &RunOptions,
    stop: &AtomicBool,
    tx: &Sender<Event>,
) {
    // The end is told however the analysis ends, a panic included: the
    // main thread waits for it.
    let mut end = Told {
        slot,
        tx,
        whole: false,
    };
    // A send fails only once the main thread has stopped listening.
    let mut each = |i: usize, outcome: Outcome| {
        let _ = tx.send(Event::Outcome(slot, i, outcome));
    };
    let ranges = replayed.pieces().unwrap_or_default();
    let wanted = |g: usize| {
        ranges[g].clone().any(|i| !done.contains(&i)) || (run.luck && !lucky.contains(&g))
    };
    let mut piece_done = |g: usize, luck: Option<[f64; 2]>| {
        let _ = tx.send(Event::Piece(slot, g, luck));
    };
    let mut pieces = Pieces {
        wanted: &wanted,
        done: &mut piece_done,
    };
    let whole = replayed.analyse_pieces(run, stop, &mut each, &mut pieces);
    if whole.is_none() {
        let left: Vec<usize> = (0..replayed.decisions().len())
            .filter(|i| !done.contains(i))
            .collect();
        replayed.analyse_each(&left, run, stop, &mut each);
    }
    end.whole = whole.is_some();
}

/// Tells the main thread that the analysis of the match in `slot` ended,
/// when dropped.
struct Told<'a> {
    slot: usize,
    tx: &'a Sender<Event>,
    /// Whether gnubg analysed the match whole.
    whole: bool,
}

impl Drop for Told<'_> {
    fn drop(&mut self) {
        let _ = self.tx.send(Event::Finished(self.slot, self.whole));
    }
}

/// The luck of a whole match analysed without a failure: its `games`
/// pieces' added up in match order, as one uninterrupted run adds them.
fn add_up_luck(lib: &mut Library, id: i64, run: &RunOptions, games: usize) -> Result<(), Failure> {
    let (key, plies) = (run.engine.key(), i64::from(run.plies));
    let lucks: Vec<[f64; 2]> = lib
        .game_lucks(id)?
        .into_iter()
        .filter(|(e, p, _, _)| e == key && *p == plies)
        .map(|(_, _, _, l)| l)
        .collect();
    if lucks.len() == games {
        let mut total = [0.0, 0.0];
        for l in &lucks {
            total[0] += l[0];
            total[1] += l[1];
        }
        lib.put_luck(id, key, plies, total)?;
    }
    Ok(())
}

/// Verdicts gathered and written a game or a batch at a time.
#[derive(Default)]
struct Storer {
    pending: Vec<(usize, Verdict)>,
    game: Option<usize>,
    /// The library failed: the run stops.
    error: Option<bgedit_library::LibraryError>,
    failed: bool,
}

impl Storer {
    fn take(&mut self, lib: &mut Library, id: i64, seq: usize, game: usize, v: Verdict) {
        if self.game.is_some_and(|g| g != game) || self.pending.len() >= BATCH {
            self.flush(lib, id);
        }
        self.game = Some(game);
        self.pending.push((seq, v));
    }

    fn flush(&mut self, lib: &mut Library, id: i64) {
        if self.error.is_none()
            && !self.pending.is_empty()
            && let Err(e) = lib.put_verdicts(id, &self.pending, false)
        {
            self.error = Some(e);
        }
        self.pending.clear();
    }
}

/// The engine's judgements of one decision as the library keeps them: its
/// error the sum of the judgements' (the cube before a roll and the roll
/// are one decision of the file), none when nothing was judged.
fn verdict(run: &RunOptions, list: &[Judged]) -> Verdict {
    let stored: Vec<StoredJudgement> = list
        .iter()
        .map(|j| StoredJudgement {
            judgement: j.judgement,
            best: j.best.clone(),
            played: j.played.clone(),
            // Not kept here: a library of thousands of matches would
            // hold every candidate list (the editor keeps its own).
            analysis: None,
            equities: j.cube_equities(),
        })
        .collect();
    Verdict {
        engine: run.engine.key().to_owned(),
        plies: i64::from(run.plies),
        depth: format!("{} {}", run.engine.key(), run.engine.depth_label(run.plies)),
        from_file: false,
        error: (!list.is_empty()).then(|| list.iter().map(|j| j.judgement.error).sum()),
        text: serde_json::to_string(&stored).unwrap_or_default(),
    }
}

/// `analysed 120/900 decisions, 4.2/s, ETA 3:05` on standard error, when
/// it is a terminal, at most every tenth of a second (`library
/// disagreements` counts positions).
pub(super) struct Progress {
    what: &'static str,
    total: u64,
    done: u64,
    started: Instant,
    drawn: Option<Instant>,
    on: bool,
}

impl Progress {
    pub(super) fn new(total: u64, what: &'static str) -> Progress {
        Progress {
            what,
            total,
            done: 0,
            started: Instant::now(),
            drawn: None,
            on: std::io::stderr().is_terminal() && total > 0,
        }
    }

    pub(super) fn step(&mut self) {
        self.done += 1;
        if !self.on || self.drawn.is_some_and(|t| t.elapsed().as_millis() < 100) {
            return;
        }
        self.drawn = Some(Instant::now());
        eprint!(
            "\r{}\x1b[K",
            progress_line(self.done, self.total, self.started.elapsed(), self.what)
        );
    }

    pub(super) fn finish(&mut self) {
        if self.on {
            eprint!("\r\x1b[K");
        }
    }
}

fn progress_line(done: u64, total: u64, elapsed: std::time::Duration, what: &str) -> String {
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 { done as f64 / secs } else { 0.0 };
    let eta = if rate > 0.0 {
        let left = ((total.saturating_sub(done)) as f64 / rate).round() as u64;
        format!("ETA {}:{:02}", left / 60, left % 60)
    } else {
        "ETA --:--".to_owned()
    };
    format!("analysed {done}/{total} {what}, {rate:.1}/s, {eta}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_read_and_split_the_hashes() {
        assert_eq!(shard("2/3"), Ok(Shard { k: 2, n: 3 }));
        for bad in ["0/2", "3/2", "1", "a/b", "1/0"] {
            assert!(
                shard(bad)
                    .unwrap_err()
                    .to_string()
                    .contains("is not a shard"),
                "{bad}"
            );
        }
        let hash = format!("{:016x}{}", 7u64, "0".repeat(48));
        let in_shard: Vec<u64> = (1..=3)
            .filter(|&k| Shard { k, n: 3 }.holds(&hash))
            .collect();
        assert_eq!(in_shard, vec![2], "7 mod 3 is 1: the second shard");
    }

    #[test]
    fn the_progress_line_gives_the_rate_and_eta() {
        assert_eq!(
            progress_line(10, 100, std::time::Duration::from_secs(5), "decisions"),
            "analysed 10/100 decisions, 2.0/s, ETA 0:45"
        );
    }
}
