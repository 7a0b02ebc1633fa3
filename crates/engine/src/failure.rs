//! How an engine fails and is given up on, below every kind of engine:
//! [`EngineError`] (which engine, and how: each way a variant with its
//! data, worded from the engine's `Spec` so that every engine's failures
//! read alike in its own names and options), the time an answer may take
//! ([`time_limit`]), and the [`StartRecord`] a run's engines share so that
//! a broken engine is given up on once.

use super::answer;
use super::registry::EngineKind;
use super::spec::Spec;
use std::fmt;
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// Failed starts in a row after which an engine is not started again: one
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

/// How long one answer may take at each depth before the engine is stopped
/// and restarted: one position's analysis, or a rollout's next report (its
/// first is one trial of every candidate, hence the margin). The one table:
/// docs/analysis.md quotes it and a test holds the two together.
pub fn time_limit(plies: u8, waiter: Waiter) -> Duration {
    let secs = match waiter {
        Waiter::Editor => [20, 30, 60, 300],
        Waiter::Batch => [30, 60, 120, 600],
    };
    Duration::from_secs(secs[usize::from(plies.min(3))])
}

/// The time every request of a match's decisions is given whatever it
/// asks: a restarted gnubg's first answer, a loaded machine's slow start.
const REQUEST_SECS: u64 = 3;

/// How long a request of `decisions` decisions of a match at `plies` may
/// take (gnubg's `analyse match` of a run of pieces, or one decision asked
/// on its own) before the engine is stopped and restarted: [`REQUEST_SECS`],
/// and each decision its time at that depth. The limit grows with the work
/// asked, so a hung gnubg is found within seconds of a small 0-ply request
/// (a 5-decision match: 8 s, where it was 180 s: 30 s a decision and one
/// more), and a long 3-ply request still has 10 minutes a decision. At
/// 0-ply gnubg judges a decision in about 10 ms, its luck included; the
/// second allowed covers a machine many times slower. docs/analysis.md
/// quotes it and a test holds the two together.
pub fn time_limit_for(plies: u8, decisions: usize) -> Duration {
    const EACH: [u64; 4] = [1, 10, 60, 600];
    let each = EACH[usize::from(plies.min(3))];
    let decisions = u64::try_from(decisions.max(1)).unwrap_or(u64::MAX);
    Duration::from_secs(REQUEST_SECS.saturating_add(each.saturating_mul(decisions)))
}

/// An engine failed: which one, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineError {
    pub engine: EngineKind,
    pub kind: EngineErrorKind,
}

/// How an engine failed. The words are the engine's ([`EngineError`]'s
/// `Display`): its name, the option and variable its program is given by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineErrorKind {
    /// Its program is not there.
    Missing(Missing),
    /// The data the user named for it (`--sage-data DIR`) is not whole, or
    /// its program could not say where its data is.
    Data(DataError),
    /// It could not be started (it is restarted for the next request).
    Start(StartError),
    /// It died while answering (it is restarted for the next request).
    Died,
    /// No answer came within this limit (it was stopped, and is
    /// restarted for the next request).
    Timeout(Duration),
    /// It answered something that is not an answer (it is restarted for
    /// the next request).
    Garbage(Garbage),
    /// It refused, or could not analyse, this position: its own words.
    Refused { said: String },
    /// It failed to start `tries` times in a row and is not started again
    /// with this program; the last failure.
    GaveUp {
        tries: u32,
        last: Box<EngineErrorKind>,
    },
    /// A batch stopped asking it (see [`StartRecord::batch`]).
    Unanswered(Lost),
    /// It was asked to answer inside bgedit, which it never does.
    OnlyAsProcess,
    /// It can answer inside bgedit, but not here.
    NotInProcessHere(NotHere),
    /// It was asked for whole games, which it does not analyse.
    NoWholeGames,
    /// Its core inside bgedit failed.
    Core(CoreError),
    /// Its core inside bgedit answered with no answer.
    NoAnswer,
    /// Its core inside bgedit answered something unreadable (read as its
    /// bridge's line would be; nothing to restart).
    Unreadable(answer::Garbage),
    /// A player needs more points than its match equity table holds: its
    /// numbers there are not equities, so it does not give them.
    PastTable(PastTable),
}

/// A match score past an engine's match equity table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PastTable {
    /// The points each player needs, the player on roll first.
    pub away: (u16, u16),
    /// The most its table holds.
    pub table: u16,
}

/// Why an engine's program was not found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Missing {
    /// The program the user named (by the engine's option or variable)
    /// does not exist.
    Named(Given),
    /// None where the engine is looked for.
    Nowhere,
    /// The program runs, but says the engine is not installed: what it
    /// said.
    NotInstalled { program: PathBuf, said: String },
}

/// How the user named a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Given {
    /// By the engine's option (`--gnubg PATH`).
    Option(PathBuf),
    /// By its environment variable (`BGEDIT_GNUBG=PATH`): the value.
    Env(String),
}

/// Why an engine could not be started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartError {
    /// Its bridge script could not be written where it runs from.
    Bridge(BridgeError),
    /// The program could not be run.
    Spawn { program: PathBuf, error: OsError },
    /// The program wrote this many lines without starting the bridge.
    Flooded { program: PathBuf, lines: u32 },
    /// The bridge did not say it was ready within this limit.
    NoBridge { program: PathBuf, limit: Duration },
    /// The program ended before the bridge was ready.
    ExitedAtStart { program: PathBuf },
}

/// Why a bridge script could not be written where it runs from.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BridgeError {
    #[error("{}: {error}", .path.display())]
    Io { path: PathBuf, error: OsError },
    #[error("{}: not a directory (a link?); the bridge is not written there", .0.display())]
    NotADirectory(PathBuf),
    #[error("{}: belongs to another user; the bridge is not written there", .0.display())]
    OtherUsers(PathBuf),
}

/// An operating system's error, kept so that it can be copied and
/// compared: its code (worded as the system words it) or its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OsError {
    code: Option<i32>,
    kind: std::io::ErrorKind,
}

impl From<&std::io::Error> for OsError {
    fn from(e: &std::io::Error) -> OsError {
        OsError {
            code: e.raw_os_error(),
            kind: e.kind(),
        }
    }
}

impl fmt::Display for OsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.code {
            Some(code) => std::io::Error::from_raw_os_error(code).fmt(f),
            None => std::io::Error::from(self.kind).fmt(f),
        }
    }
}

/// What an engine answered that is not an answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Garbage {
    /// A line of its bridge that is not a reply.
    Reply(answer::Garbage),
    /// Its answer for whole games, unreadable.
    Games(crate::gnubg_match::GameAnswerError),
    /// This many lines that were not the answer.
    Flooded { lines: u32 },
    /// A line that is not even JSON: its start.
    NotJson { start: String },
}

/// Why a batch stopped asking an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lost {
    /// It did not answer within this limit.
    Hung(Duration),
    /// It died or answered garbage this many times in a row; the last.
    Failing {
        times: u32,
        last: Box<EngineErrorKind>,
    },
}

/// Why an engine that can answer inside bgedit does not, here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotHere {
    /// The user asked for its process by this environment setting.
    Asked { by: &'static str },
    /// This bgedit was built without the engine's core.
    NotBuilt,
    /// The CPU lacks what the core needs.
    Cpu { lacks: &'static str },
    /// The core was not loaded.
    NotLoaded,
    /// Its data could not be found.
    Data(DataError),
}

/// Why an engine's data could not be found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DataError {
    /// The directory the user named lacks this file.
    Dir { dir: String, missing: PathBuf },
    /// Its program, asked where the data is, could not be run.
    Run { program: PathBuf, error: OsError },
    /// Its program failed, saying this (its last line).
    Said { program: PathBuf, said: String },
    /// Its program did not say where the data is.
    Unsaid { program: PathBuf },
    /// Its program has no data.
    NoData { program: PathBuf },
    /// Its program's data is laid out as bgedit does not read.
    Layout { program: PathBuf },
    /// Another version of the engine's package is installed than the one
    /// built in.
    Version { found: String },
    /// One of its files is damaged, or another version's: refused before
    /// the engine reads it.
    Damaged { file: PathBuf, fault: DataFault },
}

/// What is wrong inside one of an engine's data files (Sage's networks
/// and bear-off database, as bgsage writes them).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DataFault {
    #[error("it cannot be read: {0}")]
    Unreadable(OsError),
    #[error("{found} bytes, shorter than its {header}-byte header")]
    NoHeader { found: u64, header: u64 },
    #[error("{found} bytes where its header makes {want}: {}", cut_or_extra(*.found, *.want))]
    Size { found: u64, want: u64 },
    #[error(
        "its header says a network of {} hidden units, {} inputs and {} outputs where bgedit's Sage \
         takes {} hidden units, {} inputs and 5 outputs here (another version's file?)",
        .found[0], .found[1], .found[2], .want[0], .want[1]
    )]
    NetShape { found: [i32; 3], want: [i32; 2] },
    #[error("weight {index} of the network is {}: not a finite number", f32::from_bits(*.bits))]
    NotFinite { index: u64, bits: u32 },
    #[error(
        "weight {index} of the network is {}, past any trained network's (at most {} either way)",
        f32::from_bits(*.bits), .most
    )]
    TooLarge { index: u64, bits: u32, most: u32 },
    #[error("it does not start with BEAR: not a bear-off database")]
    NotBearoff,
    #[error("bear-off database version {found}; bgedit's Sage reads version {reads}")]
    BearoffVersion { found: u32, reads: u32 },
    #[error(
        "its header says {} points, {} checkers, {} rolls and {} positions where Sage's has \
         {} points, {} checkers, {} rolls and {} positions",
        .found[0], .found[1], .found[2], .found[3], .want[0], .want[1], .want[2], .want[3]
    )]
    BearoffShape { found: [u32; 4], want: [u32; 4] },
    #[error(
        "its header counts {gammons} gammon distributions, which make the file {want} bytes, \
         where it is {found}"
    )]
    BearoffSize { gammons: u32, found: u64, want: u64 },
    #[error("its header counts {found} gammon distributions where Sage's has {want}")]
    GammonCount { found: u32, want: u32 },
    #[error("position {position}'s distribution of rolls adds up to {sum}, not 65535")]
    Distribution { position: u32, sum: u32 },
    #[error(
        "position {position}'s mean number of rolls is {}: not a number from 0 to {most}",
        f32::from_bits(*.bits)
    )]
    MeanRolls { position: u32, bits: u32, most: u32 },
    #[error(
        "position {position}'s gammon index is {found}, past the {count} gammon distributions \
         the file holds"
    )]
    GammonIndexPast {
        position: u32,
        found: i32,
        count: u32,
    },
    #[error(
        "position {position}'s gammon index is {found} where {due} is due (they count up one by \
         one, -1 where a position has none)"
    )]
    GammonIndexOrder { position: u32, found: i32, due: u32 },
    #[error("its gammon indexes reach {used} of the {count} gammon distributions it holds")]
    GammonsLeft { used: u32, count: u32 },
    #[error("gammon distribution {index} does not start at 65535 and fall from there")]
    GammonDistribution { index: u32 },
}

fn cut_or_extra(found: u64, want: u64) -> String {
    if found < want {
        "cut short".to_owned()
    } else {
        format!("{} bytes more than its data", found - want)
    }
}

/// Why an engine's core inside bgedit failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoreError {
    /// What the core said.
    Said(String),
    /// A path it cannot take (not UTF-8, or with a NUL).
    Path(String),
}

impl std::error::Error for EngineError {}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.words(self.engine.spec(), f)
    }
}

impl EngineError {
    pub fn new(engine: EngineKind, kind: EngineErrorKind) -> EngineError {
        EngineError { engine, kind }
    }

    /// The engine is not there: every request would fail the same way.
    pub(crate) fn engine_missing(&self) -> bool {
        match &self.kind {
            EngineErrorKind::Missing(_) => true,
            EngineErrorKind::GaveUp { last, .. } => matches!(**last, EngineErrorKind::Missing(_)),
            _ => false,
        }
    }
}

/// `what` said in `spec`'s words.
struct Words<'a, T>(&'a T, &'static Spec);

impl fmt::Display for Words<'_, EngineErrorKind> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.words(self.1, f)
    }
}

impl fmt::Display for Words<'_, NotHere> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.words(self.1, f)
    }
}

impl EngineErrorKind {
    fn words(&self, s: &'static Spec, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = s.name;
        let again = "is restarted for the next request";
        match self {
            EngineErrorKind::Missing(m) => m.words(s, f),
            EngineErrorKind::Data(d) => d.words(s, f),
            EngineErrorKind::Start(e) => {
                write!(f, "{name} could not be started: ")?;
                e.words(s, f)
            }
            EngineErrorKind::Died => match s.died_note {
                Some(note) => write!(f, "{name} stopped while analysing ({note}); it {again}"),
                None => write!(f, "{name} stopped while analysing; it {again}"),
            },
            EngineErrorKind::Timeout(limit) => write!(
                f,
                "{name} took longer than {limit:?}; it was stopped and {again}"
            ),
            EngineErrorKind::Garbage(g) => {
                g.words(s, f)?;
                write!(f, "; {name} {again}")
            }
            EngineErrorKind::Refused { said } => f.write_str(said),
            EngineErrorKind::GaveUp { tries, last } => {
                let o = &s.options.program;
                write!(
                    f,
                    "{name} is not asked again: it failed to start {tries} times in a row (last: {}); give another {} with --{} {}",
                    Words(&**last, s),
                    o.noun,
                    o.long,
                    o.value_name,
                )?;
                match o.env {
                    Some(env) => write!(f, " or {env}"),
                    None => Ok(()),
                }
            }
            EngineErrorKind::Unanswered(lost) => {
                write!(f, "{name} is not asked again in this run: ")?;
                lost.words(s, f)
            }
            EngineErrorKind::OnlyAsProcess => {
                write!(f, "{name} answers only through a process of its own")
            }
            EngineErrorKind::NotInProcessHere(why) => {
                write!(f, "{name} cannot run in-process here: ")?;
                why.words(s, f)
            }
            EngineErrorKind::NoWholeGames => write!(f, "{name} does not analyse whole games"),
            EngineErrorKind::Core(e) => e.words(s, f),
            EngineErrorKind::NoAnswer => write!(f, "{name} gave no answer"),
            EngineErrorKind::Unreadable(g) => write!(f, "{g}"),
            EngineErrorKind::PastTable(PastTable { away, table }) => write!(
                f,
                "{name} cannot answer at this score ({}-away, {}-away): its match equity table \
                 stops at {table}-away, and past it its numbers are not equities",
                away.0, away.1
            ),
        }
    }
}

impl Missing {
    fn words(&self, s: &'static Spec, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let o = &s.options.program;
        match self {
            Missing::Named(Given::Option(path)) => write!(
                f,
                "--{} {}: no such program (install {} with {})",
                o.long,
                path.display(),
                s.full_name,
                s.install.how
            ),
            Missing::Named(Given::Env(value)) => write!(
                f,
                "{}={value}: no such program (install {} with {})",
                o.env.unwrap_or("the environment"),
                s.full_name,
                s.install.how
            ),
            Missing::Nowhere => {
                write!(
                    f,
                    "{} not found: install it with {}",
                    s.full_name, s.install.how
                )?;
                if let Some(note) = s.install.note {
                    write!(f, " ({note})")?;
                }
                write!(
                    f,
                    ", or give its {} with --{} {}",
                    o.noun, o.long, o.value_name
                )?;
                match o.env {
                    Some(env) => write!(f, " or {env}"),
                    None => Ok(()),
                }
            }
            Missing::NotInstalled { program, said } => {
                Missing::Nowhere.words(s, f)?;
                write!(f, " ({}: {said})", program.display())
            }
        }
    }
}

impl StartError {
    fn words(&self, s: &'static Spec, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Bridge(e) => write!(f, "{e}"),
            StartError::Spawn { program, error } => write!(f, "{}: {error}", program.display()),
            StartError::Flooded { program, lines } => write!(
                f,
                "{} printed {lines} lines without starting the bridge",
                program.display()
            ),
            StartError::NoBridge { program, limit } => write!(
                f,
                "{} did not start the bridge within {limit:?}",
                program.display()
            ),
            StartError::ExitedAtStart { program } => write!(
                f,
                "{} exited at start ({})",
                program.display(),
                s.bridge.exited_at_start
            ),
        }
    }
}

impl Garbage {
    fn words(&self, s: &'static Spec, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Garbage::Reply(g) => write!(f, "{g}"),
            Garbage::Games(g) => write!(f, "{g}"),
            Garbage::Flooded { lines } => {
                write!(f, "{} wrote {lines} lines that were not the answer", s.name)
            }
            Garbage::NotJson { start } => write!(f, "{} answered garbage: {start:?}", s.name),
        }
    }
}

impl Lost {
    fn words(&self, s: &'static Spec, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Lost::Hung(limit) => write!(f, "it did not answer within {limit:?}"),
            Lost::Failing { times, last } => write!(
                f,
                "it failed {times} times in a row (last: {})",
                Words(&**last, s)
            ),
        }
    }
}

impl NotHere {
    /// Why, in the words of `spec`'s engine.
    pub(crate) fn said_by(&self, spec: &'static Spec) -> impl fmt::Display + '_ {
        Words(self, spec)
    }

    fn words(&self, s: &'static Spec, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotHere::Asked { by } => f.write_str(by),
            NotHere::NotBuilt => write!(
                f,
                "this bgedit was built without a C++ compiler, so without {}'s core",
                s.name
            ),
            NotHere::Cpu { lacks } => write!(f, "this CPU lacks {lacks}"),
            NotHere::NotLoaded => write!(f, "{}'s core is not loaded", s.name),
            NotHere::Data(e) => e.words(s, f),
        }
    }
}

impl DataError {
    fn words(&self, s: &'static Spec, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let data = s.options.data.as_ref();
        let package = data.map_or(s.key, |d| d.package);
        match self {
            DataError::Dir { dir, missing } => {
                write!(
                    f,
                    "--{} {dir}: no {}",
                    data.map_or("data", |d| d.long),
                    missing.display()
                )?;
                match data {
                    Some(d) => write!(f, " (it should hold {})", d.holds),
                    None => Ok(()),
                }
            }
            DataError::Run { program, error } => write!(f, "{}: {error}", program.display()),
            DataError::Said { program, said } => write!(f, "{}: {said}", program.display()),
            DataError::Unsaid { program } => write!(
                f,
                "{}: it did not say where {package}'s weights are",
                program.display()
            ),
            DataError::NoData { program } => write!(
                f,
                "{}: {package} has no weights or bear-off data",
                program.display()
            ),
            DataError::Layout { program } => write!(
                f,
                "{}: {package}'s model list is not one bgedit reads",
                program.display()
            ),
            DataError::Version { found } => write!(
                f,
                "{package} {found} is installed; bgedit's built-in {} is {}",
                s.name,
                data.map_or("", |d| d.version)
            ),
            DataError::Damaged { file, fault } => {
                write!(
                    f,
                    "{}'s data file {}: {fault}; it is not used",
                    s.name,
                    bgedit_core::quote::printable(&file.display().to_string())
                )?;
                match data {
                    Some(d) => write!(
                        f,
                        " (reinstall {package} {}, or give a whole copy of its data with --{} {})",
                        d.version, d.long, d.value_name
                    ),
                    None => Ok(()),
                }
            }
        }
    }
}

impl CoreError {
    fn words(&self, s: &'static Spec, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoreError::Said(said) => write!(f, "{} (in-process): {said}", s.name),
            CoreError::Path(path) => write!(
                f,
                "{} (in-process): a path that is not valid UTF-8 or holds a NUL: {path}",
                s.name
            ),
        }
    }
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
    /// Failed starts in a row, and the last one.
    failed: u32,
    last: Option<EngineErrorKind>,
    /// Starts under way.
    running: u32,
    /// Whether lost answers give the engine up (a batch's record).
    give_up_lost: bool,
    /// Answers lost in a row, and why the engine was given up, once it is.
    lost: u32,
    gave_up: Option<Lost>,
}

/// How an answer was lost.
pub(super) enum LostAnswer {
    /// None came within this limit.
    Hung(Duration),
    /// The engine died or wrote garbage: how.
    Failed(EngineErrorKind),
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
    pub(crate) fn given_up(&self) -> Option<Lost> {
        self.lock().gave_up.clone()
    }

    /// An answer came (`None`), or was lost: `Hung` when none came in
    /// time, `Failed` when the engine died or wrote garbage.
    pub(super) fn answered(&self, lost: Option<LostAnswer>) {
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
            LostAnswer::Hung(limit) => Some(Lost::Hung(limit)),
            LostAnswer::Failed(last) if s.lost >= LOST_TRIES => Some(Lost::Failing {
                times: s.lost,
                last: Box::new(last),
            }),
            LostAnswer::Failed(_) => None,
        };
    }

    /// Starts `engine` with `spawn` unless it has failed `START_TRIES` times
    /// in a row. Jobs start side by side (a start is a tenth of a second
    /// that a run of two jobs would otherwise wait twice), each start
    /// counted as a try while it runs: a job that would make one try too
    /// many waits for those under way, and goes on only if one of them
    /// started.
    pub(super) fn start<T>(
        &self,
        engine: EngineKind,
        spawn: impl FnOnce() -> Result<T, EngineErrorKind>,
    ) -> Result<T, EngineError> {
        let (lock, changed) = &*self.0;
        let mut s = lock.lock().unwrap_or_else(|e| e.into_inner());
        while s.failed + s.running >= START_TRIES {
            if s.running == 0 {
                let last = s.last.clone().unwrap_or(EngineErrorKind::Died);
                return Err(EngineError::new(
                    engine,
                    EngineErrorKind::GaveUp {
                        tries: s.failed,
                        last: Box::new(last),
                    },
                ));
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
                s.last = None;
            }
            Err(e) => {
                s.failed += 1;
                s.last = Some(e.clone());
            }
        }
        changed.notify_all();
        started.map_err(|kind| EngineError::new(engine, kind))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(engine: EngineKind, kind: EngineErrorKind) -> String {
        EngineError::new(engine, kind).to_string()
    }

    /// Each failure in each engine's words, as the process's errors read
    /// before they were typed (gnubg's as they were, Sage's as its
    /// rewording made them), with the option that names another program.
    #[test]
    fn each_failure_reads_in_its_engines_words() {
        let (gnubg, sage) = (EngineKind::Gnubg, EngineKind::Sage);
        let program = PathBuf::from("/x/gnubg");
        let start = EngineErrorKind::Start(StartError::ExitedAtStart {
            program: program.clone(),
        });
        assert_eq!(
            said(gnubg, start.clone()),
            "gnubg could not be started: /x/gnubg exited at start (is it gnubg 1.07 with Python?)"
        );
        assert_eq!(
            said(sage, start.clone()),
            "Sage could not be started: /x/gnubg exited at start (is it Python 3 with bgsage?)"
        );
        assert_eq!(
            said(gnubg, EngineErrorKind::Died),
            "gnubg stopped while analysing (gnubg 1.07 crashes on some positions, such as large cubes in match play); it is restarted for the next request"
        );
        assert_eq!(
            said(sage, EngineErrorKind::Died),
            "Sage stopped while analysing; it is restarted for the next request"
        );
        let limit = Duration::from_secs(30);
        assert_eq!(
            said(sage, EngineErrorKind::Timeout(limit)),
            "Sage took longer than 30s; it was stopped and is restarted for the next request"
        );
        assert_eq!(
            said(
                gnubg,
                EngineErrorKind::Garbage(Garbage::Flooded { lines: 1000 })
            ),
            "gnubg wrote 1000 lines that were not the answer; gnubg is restarted for the next request"
        );
        let gave_up = EngineErrorKind::GaveUp {
            tries: START_TRIES,
            last: Box::new(start),
        };
        assert_eq!(
            said(gnubg, gave_up.clone()),
            "gnubg is not asked again: it failed to start 2 times in a row (last: gnubg could not be started: /x/gnubg exited at start (is it gnubg 1.07 with Python?)); give another path with --gnubg PATH or BGEDIT_GNUBG"
        );
        assert!(
            said(sage, gave_up)
                .ends_with("; give another Python with --sage-python PATH or BGEDIT_SAGE_PYTHON")
        );
        let lost = EngineErrorKind::Unanswered(Lost::Failing {
            times: 2,
            last: Box::new(EngineErrorKind::Died),
        });
        assert_eq!(
            said(sage, lost),
            "Sage is not asked again in this run: it failed 2 times in a row (last: Sage stopped while analysing; it is restarted for the next request)"
        );
        let missing = EngineErrorKind::Missing(Missing::NotInstalled {
            program: PathBuf::from("/usr/bin/python3"),
            said: "No module named 'bgsage'".to_owned(),
        });
        assert!(
            said(sage, missing)
                .ends_with("or BGEDIT_SAGE_PYTHON (/usr/bin/python3: No module named 'bgsage')")
        );
        let data = EngineErrorKind::Data(DataError::Dir {
            dir: "/d".to_owned(),
            missing: PathBuf::from("models/a.weights.best"),
        });
        assert_eq!(
            said(sage, data),
            "--sage-data /d: no models/a.weights.best (it should hold bgsage's models/ and data/)"
        );
        assert_eq!(
            said(
                sage,
                EngineErrorKind::NotInProcessHere(NotHere::Cpu { lacks: "AVX2/FMA" })
            ),
            "Sage cannot run in-process here: this CPU lacks AVX2/FMA"
        );
        assert_eq!(
            said(
                sage,
                EngineErrorKind::Core(CoreError::Said("no net".to_owned()))
            ),
            "Sage (in-process): no net"
        );
        let damaged = EngineErrorKind::Data(DataError::Damaged {
            file: PathBuf::from("/d/models/a.weights.best"),
            fault: DataFault::Size {
                found: 10,
                want: 20,
            },
        });
        assert_eq!(
            said(sage, damaged),
            "Sage's data file /d/models/a.weights.best: 10 bytes where its header makes 20: cut \
             short; it is not used (reinstall bgsage 2.0.20260907, or give a whole copy of its \
             data with --sage-data DIR)"
        );
        let past = EngineErrorKind::PastTable(PastTable {
            away: (30, 4),
            table: 25,
        });
        assert_eq!(
            said(sage, past),
            "Sage cannot answer at this score (30-away, 4-away): its match equity table stops at \
             25-away, and past it its numbers are not equities"
        );
    }

    /// An operating system's error reads as the system words it.
    #[test]
    fn an_os_error_reads_as_the_systems() {
        let e = std::io::Error::from_raw_os_error(2);
        assert_eq!(OsError::from(&e).to_string(), e.to_string());
    }
}
