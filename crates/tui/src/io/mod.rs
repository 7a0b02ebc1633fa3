//! The editor's edges: everything that touches the world outside the model.
//! The reducer and the features are pure; these perform their effects and
//! answer with actions.
//!
//! - `runtime.rs`: the terminal, the event loop, performing effects
//! - `clipboard.rs`, `clipboard_holder.rs`: the system clipboard and OSC 52
//! - `engine_link.rs`: the engines' threads for the analysis panel
//! - `live_engine.rs`: the engine that answers in-process, for the live
//!   views: loaded on a thread, then asked inline before the next frame
//! - `persist.rs`: the saved position and the state directory
//! - `picture_file.rs`: pictures written for the copy menu
//! - `signals.rs`: SIGINT, SIGTERM, SIGHUP, SIGTSTP and SIGWINCH
//! - `worker.rs`: the one worker type: a thread doing jobs (each engine's,
//!   the library's), in order or newest first
//!
//! The library's worker thread is its feature's (`library/worker.rs`), as
//! the match analysis's processes are the engine's (`engine::match_analysis`).

pub mod clipboard;
pub mod clipboard_holder;
pub mod engine_link;
pub mod live_engine;
pub mod persist;
pub(crate) mod picture_file;
pub mod runtime;
pub(crate) mod signals;
pub mod worker;
