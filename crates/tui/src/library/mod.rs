//! The library panel and review mode in the editor: its state, its actions
//! and its pure update. The database is reached only through
//! [`Request`]s the runtime hands to [`worker`], whose answers come back as
//! [`LibAction::Worker`]s. The state holds one page of rows, never the
//! library.
//!
//! - `state.rs`: what the panel holds, its modes, and its actions nested
//!   by route (`LibAction::List`, `Line`, `Note`, `Quiz`, `Worker`)
//! - `update.rs`: the panel's part of the reducer, routing each group to
//!   its own update: `list.rs` (the list and the panel's commands),
//!   `line.rs` (the filter and the questions), `notes.rs` (the note
//!   editor), `quiz.rs` (the quiz's keys, clock and grades), `answers.rs`
//!   (the worker's answers), `like.rs` (positions like one, `Q`);
//!   `steps.rs` the steps they share
//! - `keys.rs`: keys inside the panel
//! - `snapshot.rs`: what the panel shows (its part of the snapshot) and
//!   how its rows are laid out, for `view.rs`
//! - `view.rs`: drawing the panel (composed by `editor/view/`)
//! - `worker.rs`: the thread that owns the SQLite connection

mod answers;
pub(crate) mod keys;
mod like;
mod line;
mod list;
mod match_requests;
mod notes;
pub(crate) mod quiz;
pub mod snapshot;
pub mod state;
mod steps;
pub(crate) mod update;
pub mod view;
pub mod worker;
