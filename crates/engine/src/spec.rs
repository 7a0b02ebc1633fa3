//! An engine as a value: what bgedit needs to know of one to run it, talk
//! to it, word its failures and let the user name its program. Each
//! engine's folder (`gnubg/`, `sage/`) holds one [`Spec`]; `registry.rs`
//! lists them; `process.rs` runs any of them the same way; the CLI builds
//! its engine options from their [`UserOptions`].

use super::answer::{Garbage, Reply};
use super::request::{Request, RolloutSettings};
use std::path::PathBuf;

/// One engine, as data.
pub struct Spec {
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
    /// What the user gives the engine on the command line: its program
    /// (and where it is looked for otherwise), its data.
    pub options: UserOptions,
    /// How to get the engine, for a user without it.
    pub install: Install,
    /// What is known of the engine's deaths, said when it dies.
    pub died_note: Option<&'static str>,
}

/// The options a user gives an engine (the CLI makes one of each for
/// every command that runs engines).
pub struct UserOptions {
    pub program: ProgramOption,
    pub data: Option<DataOption>,
}

/// The option naming the program that runs an engine's bridge, and where
/// the program is looked for without it: the option, its environment
/// variable, `on_path` on PATH, then `also`.
pub struct ProgramOption {
    /// The option's name, without its dashes (`gnubg`, `sage-python`).
    pub long: &'static str,
    pub value_name: &'static str,
    /// What the program is, where a message asks for another ("path",
    /// "Python").
    pub noun: &'static str,
    /// The option's help.
    pub help: &'static str,
    /// The environment variable read when the option is not given.
    pub env: Option<&'static str>,
    /// The program's name on PATH.
    pub on_path: &'static str,
    /// Where it is looked for after PATH (gnubg's Debian place, often off
    /// PATH).
    pub also: &'static [&'static str],
}

/// The option naming an engine's data (its weights), for an engine that
/// reads it itself.
pub struct DataOption {
    /// The option's name, without its dashes (`sage-data`).
    pub long: &'static str,
    pub value_name: &'static str,
    pub help: &'static str,
    /// What the directory should hold, said when it does not.
    pub holds: &'static str,
    /// The package whose data it is, and its version built into bgedit.
    pub package: &'static str,
    pub version: &'static str,
    /// Tells the engine where its data is (once, before it starts).
    pub set: fn(PathBuf),
}

/// How to get an engine: the command (`apt-get install gnubg`), and a
/// note after it.
pub struct Install {
    pub how: &'static str,
    pub note: Option<&'static str>,
}

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
    /// A line the bridge writes at start saying the engine is missing:
    /// what it says of why.
    pub missing: fn(line: &str) -> Option<String>,
}

/// How requests are written as lines and answers read.
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
}
