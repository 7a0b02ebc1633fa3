//! gnubg as the analysis engine: an edge of the program, like the clipboard.
//!
//! - `locate.rs`: where gnubg is (`--gnubg`, `BGEDIT_GNUBG`, PATH, /usr/games)
//! - `request.rs`: what is asked for a position (pure: IDs, checks, reasons)
//! - `answer.rs`: what comes back, parsed and checked (pure)
//! - `process.rs`: one gnubg process running the bridge script; restarts,
//!   time limits, stale answers
//! - `matrix.rs`: a score matrix's cells asked of gnubg
//! - `text.rs`: an analysis as gnubg-like text, for the clipboard and the CLI
//!
//! The bridge script is `assets/gnubg_bridge.py`, built into the binary.

pub mod answer;
pub mod locate;
pub mod match_analysis;
pub mod matrix;
pub mod process;
pub mod request;
pub mod text;

pub use answer::{Analysis, MoveLine, Rollout};
pub use process::{Engine, EngineError, StartRecord, Waiter, time_limit};
pub use request::{Request, RolloutSettings};
