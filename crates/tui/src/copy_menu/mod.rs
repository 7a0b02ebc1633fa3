//! The copy menu (`F`) and the copy keys: every format bgedit writes, each
//! with its letter.
//!
//! - `state.rs`: the actions, the targets, and `ENTRIES`, the menu's one
//!   table (the overlay, the key resolution inside the menu and the texts
//!   copied all read it)
//! - `update.rs`: what a copy does, and the texts copied
//! - `keys.rs`: the copy keys of the normal mode, and the menu's letters
//! - `view.rs`: the overlay

pub(crate) mod keys;
pub mod state;
pub(crate) mod update;
pub mod view;
