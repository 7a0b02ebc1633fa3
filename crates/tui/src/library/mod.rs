//! The library panel and review mode in the editor: its state, its actions
//! and its pure update. The database is reached only through
//! [`Request`]s the runtime hands to [`worker`], whose answers come back as
//! [`LibAction`]s. The state holds one page of rows, never the library.
//!
//! - `state.rs`: what the panel holds, and its modes
//! - `update.rs`: the panel's part of the reducer
//! - `keys.rs`: keys inside the panel
//! - `snapshot.rs`: what the panel shows (its part of the snapshot) and
//!   how its rows are laid out, for `view.rs`
//! - `view.rs`: drawing the panel (composed by `editor/view/`)
//! - `worker.rs`: the thread that owns the SQLite connection

pub(crate) mod keys;
pub mod snapshot;
pub mod state;
pub(crate) mod update;
pub mod view;
pub mod worker;
