//! `library disagreements`: the library's positions evaluated by two
//! engines at one depth, side by side (their best moves, or their cube
//! actions, and what each engine's numbers say the other's pick costs),
//! with J jobs each holding both engines. Each comparison is stored as
//! soon as it is done (a batch a transaction), so a run stopped in any way
//! goes on where it stopped and nothing is evaluated twice; a different
//! depth is another comparison. Then those apart by at least GAP by either
//! engine's numbers are listed, worst first, and can be put in a
//! collection.

use super::Failure;
use super::analyse::{ArgError, Progress};
use crate::cli::output::OutputFormat;
use bgedit_core::domain::Position;
use bgedit_engine::registry::ALL;
use bgedit_engine::{
    Analysis, Engine, EngineError, EngineErrorKind, EngineKind, Request, StartRecord, Waiter,
    compare, time_limit,
};
use bgedit_library::filter;
use bgedit_library::store::{self, Compared, Library, Listed};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::time::{Duration, Instant};

/// Comparisons written in one transaction at most; a batch is also written
/// once it is [`FLUSH_AFTER`] old, so a kill loses little at any speed.
const BATCH: usize = 32;
const FLUSH_AFTER: Duration = Duration::from_millis(250);

/// `--engines A,B`: two different engines, kept in the registry's order
/// (the reference first), so `B,A` is the same pair and the same results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair(pub [EngineKind; 2]);

impl Pair {
    /// The registry's first two engines: the reference and the other.
    pub(crate) fn every() -> Pair {
        Pair([ALL[0], ALL[1]])
    }

    /// How the library keys the pair: `gnubg,…`, the registry's order.
    pub(crate) fn key(self) -> String {
        format!("{},{}", self.0[0].key(), self.0[1].key())
    }
}

/// An `--engines` that is not two different engines.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum PairError {
    #[error(transparent)]
    Engine(#[from] ArgError),
    #[error("'{0}' is not two different engines: give two keys apart by a comma, such as {1}")]
    NotTwo(String, String),
}

/// Reads `A,B`.
pub(crate) fn pair(text: &str) -> Result<Pair, PairError> {
    let kinds = text
        .split(',')
        .map(super::analyse::engine)
        .collect::<Result<Vec<_>, _>>()?;
    match kinds.as_slice() {
        [a, b] if a != b => {
            let mut both = [*a, *b];
            both.sort_by_key(|k| k.index());
            Ok(Pair(both))
        }
        _ => Err(PairError::NotTwo(
            bgedit_core::quote::printable(text).into_owned(),
            Pair::every().key(),
        )),
    }
}

// No doc comment: the subcommand's help is its variant's in `mod.rs`.
#[derive(clap::Args, Debug)]
pub struct DisagreementsArgs {
    /// The two engines, by their keys [default: every engine, the
    /// reference first].
    #[arg(long, value_name = "A,B", value_parser = pair)]
    engines: Option<Pair>,
    /// The depth, in gnubg's count (as `library analyse`).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=3))]
    plies: u8,
    /// The least gap listed: what the other engine's pick costs by an
    /// engine's own numbers (money equity, or normalised equity in
    /// match play).
    #[arg(long, value_name = "GAP", default_value_t = 0.05, value_parser = super::error_threshold)]
    min: f64,
    /// Jobs at once, each with both engines (one a core when not
    /// given).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..))]
    jobs: Option<u8>,
    /// Put the listed positions in this collection (for rollouts).
    #[arg(long, value_name = "NAME")]
    collection: Option<String>,
    /// Each engine's program and data.
    #[command(flatten)]
    programs: crate::cli::engine_args::EnginePrograms,
    #[arg(long, value_enum, default_value = "text")]
    format: OutputFormat,
    /// The filter (the filter language), as one or more words.
    #[arg(allow_hyphen_values = true)]
    query: Vec<String>,
}

/// Runs `library disagreements` as asked, a signal ending it cleaning up.
pub(super) fn run(
    lib: &mut Library,
    args: DisagreementsArgs,
    out: &mut impl Write,
) -> Result<u8, Failure> {
    let DisagreementsArgs {
        engines,
        plies,
        min,
        jobs,
        collection,
        programs,
        format,
        query,
    } = args;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let opts = Options {
        engines: engines.unwrap_or_else(Pair::every),
        setup: programs.setup,
        plies,
        min,
        jobs: jobs.map_or(cores, usize::from),
        collection,
        format,
        query: query.join(" "),
    };
    if let Err(e) = crate::cli::signals::clean_up_on_signals() {
        bgedit_core::say!("bgedit: installing signal handlers: {e}");
    }
    disagreements(lib, &opts, out)
}

/// What `library disagreements` was asked.
pub(crate) struct Options {
    pub engines: Pair,
    /// Each engine's program and data, as the user named them.
    pub setup: bgedit_engine::Setup,
    /// The depth, in gnubg's count.
    pub plies: u8,
    /// The least gap listed.
    pub min: f64,
    pub jobs: usize,
    pub collection: Option<String>,
    pub format: OutputFormat,
    pub query: String,
}

/// How the evaluation went: positions compared, failed, and each engine's
/// time summed over the jobs.
#[derive(Default)]
struct Totals {
    compared: u64,
    failed: u64,
    /// Positions one engine cannot answer at all (a score past its match
    /// equity table): said, not failed, as asking again would not help.
    beyond: u64,
    spent: [Duration; 2],
}

/// Runs `library disagreements`; the exit status: 0, 1 when a position
/// could not be evaluated (the rest were; it is asked again next time), 2
/// when an engine or the library could not be used. A position an engine
/// cannot answer at all (past its match equity table) is said, and is no
/// failure.
fn disagreements(lib: &mut Library, opts: &Options, out: &mut impl Write) -> Result<u8, Failure> {
    let query = filter::parse(&opts.query)?;
    if let Some(name) = &opts.collection {
        store::check_collection(name)?;
    }
    let (key, plies) = (opts.engines.key(), i64::from(opts.plies));
    let matched = lib.count(&query)?;
    let todo = lib.not_compared(&query, &key, plies)?;
    let started = Instant::now();
    // The engines are looked for only when there is something to ask
    // (finding one may run a program): listing what is kept is immediate.
    let totals = if todo.is_empty() {
        Totals::default()
    } else {
        evaluate(lib, &todo, opts, programs(opts.engines, &opts.setup)?)?
    };
    let listed = lib.compared(&query, &key, plies, opts.min)?;
    // The collection first: it is filled even if nobody reads the list.
    if let Some(name) = &opts.collection {
        let ids: Vec<i64> = listed.iter().map(|l| l.compared.entry_id).collect();
        lib.collect(&ids, name)?;
    }
    write_list(&listed, opts, out)?;
    // Delivered before the summary: a reader gone (`| head -0`) ends the
    // command quietly, as every command.
    out.flush()?;
    summary(
        opts,
        &totals,
        // Another process may add entries meanwhile.
        matched.saturating_sub(todo.len() as u64),
        listed.len(),
        started,
    );
    Ok(u8::from(totals.failed > 0))
}

/// Each engine's program: the one named, else as the engine finds it.
fn programs(pair: Pair, setup: &bgedit_engine::Setup) -> Result<[PathBuf; 2], Failure> {
    let [a, b] = pair.0.map(|k| setup.program(k));
    Ok([a?, b?])
}

/// The closing line on standard error (standard output is the list):
/// `compared 200 positions (gnubg 0-ply, B 1-ply) in 2.1 s: gnubg 9.80 ms
/// a position, B 0.41 ms; 0 compared before; 0 failed; 7 apart by 0.05 or
/// more` (each engine's time summed over the jobs; none when nothing was
/// asked).
fn summary(opts: &Options, t: &Totals, before: u64, listed: usize, started: Instant) {
    let [a, b] = opts.engines.0;
    let asked = t.compared + t.failed + t.beyond;
    let each = |i: usize| t.spent[i].as_secs_f64() * 1000.0 / asked.max(1) as f64;
    let times = if asked > 0 {
        format!(
            ": {} {:.2} ms a position, {} {:.2} ms",
            a.name(),
            each(0),
            b.name(),
            each(1)
        )
    } else {
        String::new()
    };
    let beyond = if t.beyond > 0 {
        format!("; {} beyond an engine's reach", t.beyond)
    } else {
        String::new()
    };
    bgedit_core::say!(
        "compared {} ({} {}, {} {}) in {:.1} s{times}; {before} compared before; {} \
         failed{beyond}; {listed} apart by {} or more",
        bgedit_core::words::count_s(t.compared as usize, "position"),
        a.name(),
        a.depth_label(opts.plies),
        b.name(),
        b.depth_label(opts.plies),
        started.elapsed().as_secs_f64(),
        t.failed,
        opts.min
    );
}

/// One position's comparison (or why it failed), and the time each engine
/// took.
struct Done {
    entry: i64,
    result: Result<Compared, Failed>,
    spent: [Duration; 2],
}

/// An engine that could not answer, named.
#[derive(Debug, thiserror::Error)]
#[error("{}: {error}", engine.name())]
struct Failed {
    engine: EngineKind,
    error: EngineError,
}

/// Evaluates `todo` with `opts.jobs` jobs, each with both engines, storing
/// the comparisons as they come.
fn evaluate(
    lib: &mut Library,
    todo: &[(i64, Position)],
    opts: &Options,
    programs: [PathBuf; 2],
) -> Result<Totals, Failure> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    // One record of failed starts an engine for all the jobs: an engine
    // that cannot start is given up on once, not once a job.
    let starts = [StartRecord::batch(), StartRecord::batch()];
    let mut totals = Totals::default();
    let mut progress = Progress::new(todo.len() as u64, "positions");
    let (tx, rx) = channel::<Done>();
    let stored = std::thread::scope(|scope| {
        for _ in 0..opts.jobs.clamp(1, todo.len().max(1)) {
            let (tx, programs, starts) = (tx.clone(), &programs, &starts);
            let (next, stop) = (&next, &stop);
            scope.spawn(move || worker(opts, programs, starts, todo, next, stop, tx));
        }
        drop(tx);
        let stored = store_as_done(lib, &rx, &mut totals, &mut progress);
        if stored.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        stored
    });
    progress.finish();
    stored?;
    Ok(totals)
}

/// Stores what the jobs send, a batch at a time, until they are done.
fn store_as_done(
    lib: &mut Library,
    rx: &std::sync::mpsc::Receiver<Done>,
    totals: &mut Totals,
    progress: &mut Progress,
) -> Result<(), Failure> {
    let mut pending: Vec<Compared> = Vec::new();
    let mut oldest = Instant::now();
    loop {
        let done = rx.recv_timeout(FLUSH_AFTER);
        if let Ok(d) = &done {
            for (sum, t) in totals.spent.iter_mut().zip(d.spent) {
                *sum += t;
            }
            progress.step();
        }
        match done {
            Ok(Done { result: Ok(c), .. }) => {
                if pending.is_empty() {
                    oldest = Instant::now();
                }
                pending.push(c);
                totals.compared += 1;
            }
            Ok(Done {
                entry,
                result: Err(why),
                ..
            }) => {
                bgedit_core::say!(
                    "entry {entry}: {}",
                    bgedit_core::quote::printable(&why.to_string())
                );
                if matches!(why.error.kind, EngineErrorKind::PastTable(_)) {
                    totals.beyond += 1;
                } else {
                    totals.failed += 1;
                }
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
        }
        if pending.len() >= BATCH || (!pending.is_empty() && oldest.elapsed() >= FLUSH_AFTER) {
            lib.put_compared(&pending)?;
            pending.clear();
        }
    }
    lib.put_compared(&pending)?;
    Ok(())
}

/// One job: both engines of its own, positions taken in turn from `todo`.
fn worker(
    opts: &Options,
    programs: &[PathBuf; 2],
    starts: &[StartRecord; 2],
    todo: &[(i64, Position)],
    next: &AtomicUsize,
    stop: &AtomicBool,
    tx: Sender<Done>,
) {
    let mut engines: Vec<Box<dyn Engine>> = opts
        .engines
        .0
        .iter()
        .zip(programs.iter().zip(starts))
        .map(|(k, (program, starts))| k.open(program.clone(), starts.clone()))
        .collect();
    // Started (and an engine inside bgedit loaded) before the clock runs:
    // each engine's time a position is its answers'. An engine that cannot
    // start says so at its first position.
    for engine in &mut engines {
        let _ = engine.warm_up();
    }
    while !stop.load(Ordering::Relaxed) {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some((entry, position)) = todo.get(i) else {
            return;
        };
        let done = compare_one(&mut engines, opts, *entry, position, i as u64 + 1);
        if tx.send(done).is_err() {
            return;
        }
    }
}

/// Both engines' verdicts on one position, compared.
fn compare_one(
    engines: &mut [Box<dyn Engine>],
    opts: &Options,
    entry: i64,
    position: &Position,
    id: u64,
) -> Done {
    let req = Request {
        id,
        position: position.clone(),
        plies: opts.plies,
        // Every move: each engine prices the other's pick from its list.
        moves: 0,
    };
    let mut spent = [Duration::ZERO; 2];
    let mut answers: Vec<Analysis> = Vec::with_capacity(2);
    for (i, engine) in engines.iter_mut().enumerate() {
        let asked = Instant::now();
        let answer = engine.analyse(&req, time_limit(opts.plies, Waiter::Batch));
        spent[i] = asked.elapsed();
        match answer {
            Ok(a) => answers.push(a),
            Err(e) => {
                return Done {
                    entry,
                    result: Err(Failed {
                        engine: engine.kind(),
                        error: e,
                    }),
                    spent,
                };
            }
        }
    }
    // Each engine's price of the other's pick at the depth asked: one
    // that lists it below (gnubg's move filter leaves its tail at 0-ply)
    // is asked again with that move at the full depth.
    for i in 0..2 {
        let Some(after) = compare::deepen(&answers[i], &answers[1 - i]) else {
            continue;
        };
        let asked = Instant::now();
        let again = engines[i].analyse_played(&req, &after, time_limit(opts.plies, Waiter::Batch));
        spent[i] += asked.elapsed();
        match again {
            Ok(a) => answers[i] = a,
            Err(e) => {
                return Done {
                    entry,
                    result: Err(Failed {
                        engine: engines[i].kind(),
                        error: e,
                    }),
                    spent,
                };
            }
        }
    }
    let result = Ok(side_by_side(
        entry,
        opts.engines,
        opts.plies,
        &answers[0],
        &answers[1],
    ));
    Done {
        entry,
        result,
        spent,
    }
}

/// Two answers about entry `entry` as the library keeps them: each pick,
/// and what each engine's numbers say the other's costs (0 when they pick
/// alike); `none` when they do not rank the same kind of decision.
pub(crate) fn side_by_side(
    entry: i64,
    pair: Pair,
    plies: u8,
    a: &Analysis,
    b: &Analysis,
) -> Compared {
    let (pa, pb) = (compare::pick(a), compare::pick(b));
    let (decision, picks, gaps) = match (pa, pb) {
        (Some((on, pick_a)), Some((on_b, pick_b))) if on == on_b => {
            let gaps = match compare::compare(a, b) {
                Some(d) => [d.gap(pair.0[0]), d.gap(pair.0[1])],
                None => [Some(0.0), Some(0.0)],
            };
            (on, [pick_a, pick_b], gaps)
        }
        (pa, pb) => {
            let words = |p: Option<(&str, String)>| p.map(|(_, w)| w).unwrap_or_default();
            ("none", [words(pa), words(pb)], [None, None])
        }
    };
    Compared {
        entry_id: entry,
        engines: pair.key(),
        plies: i64::from(plies),
        decision: decision.to_owned(),
        picks,
        gaps,
    }
}

/// The list: one line (text) or object (JSON) a position.
fn write_list(listed: &[Listed], opts: &Options, out: &mut impl Write) -> Result<(), Failure> {
    for l in listed {
        match opts.format {
            OutputFormat::Text => writeln!(
                out,
                "{}",
                bgedit_core::quote::Shown(format_args!("{}", text_line(l, opts.engines)))
            )?,
            OutputFormat::Json => {
                writeln!(out, "{}", bgedit_core::quote::json(&json_line(l, opts)))?;
            }
        }
    }
    Ok(())
}

/// `#12 0.142 move: gnubg 24/18 13/8 (B's pick costs 0.031 by gnubg); B
/// 13/7 13/8 (gnubg's pick costs 0.142 by B)  GNUBG-ID  title`: the
/// entry, the larger gap, and each engine's pick with what the other's
/// costs by its numbers.
fn text_line(l: &Listed, pair: Pair) -> String {
    let c = &l.compared;
    let gap = |g: Option<f64>| g.map_or("not listed".to_owned(), |g| format!("{g:.3}"));
    let [a, b] = pair.0.map(EngineKind::name);
    let mut line = format!(
        "#{} {} {}: {a} {} ({b}'s pick costs {} by {a}); {b} {} ({a}'s pick costs {} by {b})  {}",
        c.entry_id,
        gap(c.gap()),
        c.decision,
        c.picks[0],
        gap(c.gaps[0]),
        c.picks[1],
        gap(c.gaps[1]),
        l.gnubg_id
    );
    if !l.title.is_empty() {
        line.push_str(&format!("  {}", l.title));
    }
    line
}

fn json_line(l: &Listed, opts: &Options) -> serde_json::Value {
    let c = &l.compared;
    let mut v = serde_json::json!({
        "entry": c.entry_id,
        "title": l.title,
        "gnubg_id": l.gnubg_id,
        "xgid": l.xgid,
        "engines": opts.engines.0.map(|k| k.key()),
        "plies": opts.plies,
        "decision": c.decision,
        "gap": c.gap(),
    });
    for (i, k) in opts.engines.0.into_iter().enumerate() {
        v[k.key()] = serde_json::json!({
            "pick": c.picks[i],
            "level": k.depth_label(opts.plies),
            "other_pick_costs": c.gaps[i],
        });
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_is_two_different_engines_in_the_registrys_order() {
        let [a, b] = [ALL[0].key(), ALL[1].key()];
        assert_eq!(pair(&format!("{a},{b}")), Ok(Pair::every()));
        assert_eq!(pair(&format!("{b},{a}")), Ok(Pair::every()));
        for bad in [a.to_owned(), format!("{a},{a}"), format!("{a},{b},{a}")] {
            let e = pair(&bad).unwrap_err().to_string();
            assert!(e.contains("is not two different engines"), "{bad}: {e}");
        }
        let e = pair(&format!("{a},deep")).unwrap_err().to_string();
        assert!(e.contains("'deep' is not an engine"), "{e}");
    }

    fn moves(list: &[(&str, f64)]) -> Analysis {
        let line = |(notation, equity): &(&str, f64)| bgedit_engine::MoveLine {
            notation: (*notation).to_owned(),
            equity: *equity,
            mwc: None,
            probs: [0.5, 0.1, 0.0, 0.1, 0.0],
            after: "4HPwATDgc/ABMA".to_owned(),
            plies: None,
            std_error: None,
            mwc_std_error: None,
        };
        Analysis::Moves {
            plies: 0,
            moves: list.iter().map(line).collect(),
            rollout: None,
        }
    }

    #[test]
    fn each_engine_prices_the_others_pick_by_its_own_list() {
        let a = moves(&[("24/18 13/8", 0.01), ("13/7 13/8", -0.02)]);
        let b = moves(&[("13/7 13/8", 0.03), ("24/18 13/8", -0.07)]);
        let c = side_by_side(7, Pair::every(), 0, &a, &b);
        assert_eq!((c.entry_id, c.plies, c.decision.as_str()), (7, 0, "move"));
        assert_eq!(c.picks, ["24/18 13/8".to_owned(), "13/7 13/8".to_owned()]);
        let [ga, gb] = c.gaps.map(Option::unwrap);
        assert!(
            (ga - 0.03).abs() < 1e-12 && (gb - 0.10).abs() < 1e-12,
            "{ga} {gb}"
        );
        assert!((c.gap().unwrap() - 0.10).abs() < 1e-12, "the larger");
        // Alike: no gap; nothing ranked: none.
        let same = side_by_side(7, Pair::every(), 0, &a, &a);
        assert_eq!(same.gaps, [Some(0.0), Some(0.0)]);
        let none = side_by_side(7, Pair::every(), 0, &a, &moves(&[]));
        assert_eq!((none.decision.as_str(), none.gap()), ("none", None));
    }
}
