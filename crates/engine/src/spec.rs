//! An engine as a value: what bgedit needs to know of one to run it, talk
//! to it and show its answers. Each engine's folder (`gnubg/`, `sage/`)
//! holds one [`Spec`]; `registry.rs` lists them; `process.rs` runs any
//! of them the same way.

use super::Engine;
use super::answer::{Garbage, Reply};
use super::failure::{EngineError, StartRecord};
use super::locate::Missing;
use super::request::{Request, RolloutSettings};
use std::path::{Path, PathBuf};

/// Which engine: the id the editor's effects and actions, the CLI's
/// options and the library's kept analyses carry. Everything else about
/// an engine is its [`Spec`].
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum EngineKind {
    /// gnubg 1.07: the default, the reference every other is set beside.
    #[default]
    Gnubg,
    Sage,
}

impl EngineKind {
    /// How many engines there are: `registry.rs`'s `ALL`
    /// lists them, in this order.
    pub(crate) const COUNT: usize = 2;

    /// Its place in `registry.rs`'s `ALL` (a test holds
    /// the two together).
    pub fn index(self) -> usize {
        self as usize
    }
}

/// One engine, as data.
pub struct Spec {
    pub kind: EngineKind,
    /// The lowercase name JSON answers and the library carry (`gnubg`,
    /// `sage`).
    pub key: &'static str,
    /// Its name in headers and messages ("gnubg", "Sage").
    pub name: &'static str,
    /// Its name where the panel introduces it ("gnubg", "Open Sage").
    pub full_name: &'static str,
    /// A depth given in gnubg's count, in the engine's own words.
    pub depth_label: fn(u8) -> String,
    /// What the panel says of its depths when it shows this engine alone,
    /// if they need a word.
    pub depth_note: Option<&'static str>,
    /// What its version is called in the panel's header (`bgsage 2.0`),
    /// if it is shown.
    pub version_label: Option<&'static str>,
    pub caps: Capabilities,
    pub bridge: Bridge,
    pub codec: Codec,
    /// The program that runs its bridge: the user's option, else the
    /// engine's own search (environment, PATH); or why there is none.
    pub locate: fn(Option<&Path>) -> Result<PathBuf, Missing>,
    /// How the engine is opened with the program [`Spec::locate`] found: a
    /// process running its bridge (`process::open`), or an engine inside
    /// bgedit that falls back on its bridge itself where it cannot run.
    pub open: OpenEngine,
}

/// How an engine is opened: its spec, its program and the record of
/// failed starts its process (or fallback bridge) shares.
pub type OpenEngine = fn(&'static Spec, PathBuf, StartRecord) -> Box<dyn Engine>;

/// What an engine can do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// It analyses whole games of a match it reads itself (gnubg's
    /// `analyse match` of a file of them), not only position by position.
    pub whole_games: bool,
    /// It stops a rollout at once when asked (its own cancellation), so a
    /// stop is asked for as often as [`Capabilities::STOP_POLL`], not only
    /// at each answer so far.
    pub cancels_rollouts: bool,
    /// A deep analysis is cut short for a newer request by stopping its
    /// process (it restarts in a moment); otherwise the analysis runs to
    /// its end and the newer one waits.
    pub stopped_for_newer: bool,
    /// Its answers carry match winning chances beside equities.
    pub gives_mwc: bool,
    /// It can answer inside bgedit, without a process (where the CPU and
    /// its data allow): output says which road an answer took.
    pub in_process: bool,
}

impl Capabilities {
    /// How often a rollout of an engine that [`cancels_rollouts`] is asked
    /// whether to go on.
    ///
    /// [`cancels_rollouts`]: Capabilities::cancels_rollouts
    pub(crate) const STOP_POLL: std::time::Duration = std::time::Duration::from_millis(25);
}

/// The bridge script a process-backed engine runs, and how it starts.
pub struct Bridge {
    /// The script's file name, without version and extension.
    pub name: &'static str,
    /// The script, built into the binary.
    pub script: &'static str,
    /// The program's arguments before the script's path.
    pub args: &'static [&'static str],
    /// Why a program that exits at start is probably the wrong one.
    pub exited_at_start: &'static str,
    /// A line the bridge writes at start saying the engine is missing, as
    /// the error to give (`program` is what ran the bridge).
    pub missing: fn(line: &str, program: &Path) -> Option<EngineError>,
}

/// How requests are written as lines and answers read, and how the
/// engine's errors are worded.
pub struct Codec {
    /// The line asking for an analysis of `req`.
    pub request: fn(&Request) -> String,
    /// The line asking for `req`'s moves with the move played (the
    /// Position ID after it) among them, evaluated at the full depth.
    pub played: fn(&Request, played_after: &str) -> String,
    /// The line asking for a rollout of `req` with `settings` on
    /// `threads` threads (0: the engine's choice).
    pub rollout: fn(&Request, &RolloutSettings, threads: u8) -> String,
    /// One line read from the bridge about `req`.
    pub parse: fn(&str, &Request) -> Result<Reply, Garbage>,
    /// An error of the process (worded as gnubg's) in this engine's words.
    pub reword: fn(EngineError) -> EngineError,
}

impl Spec {
    /// This engine run by `program` (or in-process, for an engine that
    /// can be), giving up with the others sharing `starts`.
    pub fn open(&'static self, program: PathBuf, starts: StartRecord) -> Box<dyn Engine> {
        (self.open)(self, program, starts)
    }
}
