//! The editor's edges: everything that touches the world outside the model.
//! The reducer and the features are pure; these perform their effects and
//! answer with actions.
//!
//! - `runtime.rs`: the terminal, the event loop, performing effects
//! - `capped.rs`: the terminal's size capped, so its buffers stay small
//! - `clipboard.rs`, `clipboard_holder.rs`: the system clipboard and OSC 52
//! - `job.rs`: the one background-job helper: slow work on a named thread
//!   of its own, answering as actions, the newest start of a kind wanted,
//!   a panic caught and reported (and `spawn`, the thread under every job
//!   and worker)
//! - `engine_link.rs`: the engines' threads for the analysis panel
//! - `live_engine.rs`: the engine that answers in-process, for the live
//!   views: loaded on a thread, then asked inline before the next frame
//! - `files.rs`: the effects that read or write files, each a job
//! - `persist.rs`: the saved position and the state directory
//! - `picture_file.rs`: pictures written for the copy menu
//! - `signals.rs`: the handlers of SIGTERM, SIGHUP and SIGINT (the signals
//!   themselves are `bgedit_core::signals`, shared with the CLI)
//! - `worker.rs`: the one worker type, the jobs' long-lived sibling: a
//!   thread doing jobs (each engine's, the library's), in order or newest
//!   first, started, caught and reported as a job is
//!
//! The library's worker thread is its feature's (`library/worker.rs`), as
//! the match analysis's processes are the engine's (`engine::match_analysis`).

pub(crate) mod capped;
pub mod clipboard;
pub mod clipboard_holder;
pub mod engine_link;
pub(crate) mod files;
pub(crate) mod job;
pub mod live_engine;
pub mod persist;
pub(crate) mod picture_file;
pub mod runtime;
pub(crate) mod signals;
pub mod worker;
