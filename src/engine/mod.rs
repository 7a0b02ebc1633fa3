//! gnubg as the analysis engine: an edge of the program, like the clipboard.
//!
//! - `locate.rs`: where gnubg is (`--gnubg`, `BGEDIT_GNUBG`, PATH, /usr/games)
//! - `request.rs`: what is asked for a position (pure: IDs, checks, reasons)
//! - `answer.rs`: what comes back, parsed and checked (pure)
//! - `process.rs`: one gnubg process running the bridge script; restarts,
//!   time limits, stale answers
//! - `compare.rs`: where gnubg and Sage disagree on a position, and by how much
//! - `gnubg_match.rs`: a whole match handed to gnubg, one game analysed by
//!   its own `analyse game`, its records read
//! - `luck.rs`: the luck of the dice, added up from those games
//! - `match_analysis.rs`: a match judged decision by decision, as gnubg
//!   judges it
//! - `matrix.rs`: a score matrix's cells asked of gnubg
//! - `sage.rs`: Open Sage, the second engine: its board, its requests, its
//!   answers named as gnubg names moves (the process is `process.rs`'s)
//! - `text.rs`: an analysis as gnubg-like text, for the clipboard and the CLI
//!
//! The bridge scripts are `assets/gnubg_bridge.py` and `assets/sage_bridge.py`,
//! built into the binary and written to the cache directory at run time.

pub mod answer;
pub mod compare;
pub mod gnubg;
pub mod gnubg_match;
pub mod interface;
pub mod locate;
pub mod luck;
pub mod match_analysis;
pub mod matrix;
pub mod process;
pub mod registry;
pub mod request;
pub mod sage;
pub mod spec;
pub mod text;

pub use answer::{Analysis, MoveLine, Rollout};
pub use interface::Engine;
pub use process::{EngineError, Process, StartRecord, Waiter, time_limit};
pub use registry::{Choice, EngineKind};
pub use request::{Request, RolloutSettings};
pub use spec::Spec;
