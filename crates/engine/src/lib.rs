//! The analysis engines, gnubg (the default and the reference) and Open
//! Sage: an edge of the program, like the clipboard. Each engine is a value
//! (`spec.rs`'s `Spec`) in one list (`registry.rs`), asked through one
//! interface (`interface.rs`'s `Engine` trait). The editor and the CLI see
//! this file's surface: an engine by its kind, the options the user gave
//! the engines (`Setup`), an engine handle (`Engine`), a replayed match
//! (`match_analysis::ReplayedMatch`); never an engine's own module.
//!
//! What an engine is, and the engines there are:
//! - `spec.rs`: what an engine is, as data: names, depth label,
//!   capabilities, bridge script, request/answer codec, the options a user
//!   gives it, how to get it
//! - `registry.rs`: `EngineKind`, `ALL` (the one list), `Choice` (a set of
//!   engines): data, which the errors are worded from
//! - `open.rs`: an engine started by its kind (`EngineKind::locate`,
//!   `EngineKind::open`), `open_in_process`
//! - `setup.rs`: `Setup`, what the user named for each engine
//! - `interface.rs`: the `Engine` trait every caller asks
//! - `failure.rs`: `EngineError` (which engine, and how), worded from the
//!   engine's `Spec`; `StartRecord`; `time_limit`, `time_limit_for`
//! - `gnubg/`: gnubg's `Spec`; `sage/`: Open Sage's board, lines and
//!   answers (`mod.rs`), its `Spec` (`spec.rs`) and its C++ core built in
//!   (`native/`), private
//!
//! Shared by every engine (private where no caller needs them):
//! - `locate.rs`: a program found as its engine's options say
//! - `request.rs`: what is asked for a position (pure: IDs, checks, reasons)
//! - `answer.rs`: what comes back, parsed and checked (pure)
//! - `process.rs`: `Process`, any engine run as a process of its own
//!   running its bridge script; restarts, time limits, stale answers
//! - `scale.rs`: gnubg's equity scale (MWC to normalised equity)
//!
//! Built on them:
//! - `compare.rs`: where two engines disagree on a position, and by how much
//! - `gnubg_match.rs` (private): a whole match handed to gnubg, a file of
//!   its games analysed by its own `analyse match`, their records read
//! - `pool.rs`: the engines a batch keeps from one match to the next
//! - `luck.rs`: the luck of the dice, added up from those games
//! - `match_analysis/`: a match judged decision by decision, as gnubg
//!   judges it (`replayed.rs`, `judge.rs`, `ask.rs`, `schedule.rs`)
//! - `matrix.rs`: a score matrix's cells asked of an engine
//! - `sensitivity.rs`: the live views' tables
//! - `plans.rs`: each side's game plan, by Sage's own classification
//! - `text.rs`: an analysis as gnubg-like text, for the clipboard and the CLI
//! - `internals.rs` (feature `internals`): the engines' own readers and
//!   boards, for the fuzz targets and the tests only
//!
//! The bridge scripts are `assets/gnubg_bridge.py` and `assets/sage_bridge.py`,
//! built into the binary and written to the cache directory at run time.

pub mod answer;
pub mod compare;
mod failure;
mod gnubg;
mod gnubg_match;
mod interface;
#[cfg(feature = "internals")]
pub mod internals;
mod locate;
pub mod luck;
pub mod match_analysis;
pub mod matrix;
mod open;
pub mod plans;
pub mod pool;
mod process;
pub mod registry;
pub mod request;
mod sage;
mod scale;
pub mod sensitivity;
mod setup;
mod spec;
pub mod stored_depth;
pub mod text;

pub use answer::{Analysis, MoveLine, Rollout};
pub use failure::{
    BridgeError, CoreError, DataError, DataFault, EngineError, EngineErrorKind, Garbage, Given,
    Lost, Missing, NotHere, OsError, PastTable, StartError, StartRecord, Waiter, time_limit,
    time_limit_for,
};
pub use interface::Engine;
pub use open::{InProcessError, open_in_process};
pub use plans::{PlansError, plans};
pub use process::{Process, end_engines, stop_engines};
pub use registry::{Choice, EngineKind};
pub use request::{Request, RolloutSettings};
pub use setup::Setup;
pub use spec::Spec;

/// Removes what the engines left on disk for this process (the match
/// files handed to an engine that reads whole games): called on the way
/// out, however the process ends (its last line, a signal, a panic in a
/// worker), whoever still holds them.
pub fn clean_up() {
    gnubg_match::remove_private_copies();
}
