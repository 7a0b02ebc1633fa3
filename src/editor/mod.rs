//! The terminal editor, in the Elm Architecture: a [`model::Model`] changed
//! only by [`reducer::update`] (model + action → model + effects), key and
//! mouse events turned into actions by the pure [`keymap`], a [`view`] that
//! draws from a [`snapshot::Snapshot`] of the model, and a [`runtime`] at the
//! edge that reads events and performs the effects (clipboard, save, quit).
//!
//! Where things are:
//! - a key's meaning: `keymap.rs` (the one table of bindings)
//! - what an action does: `reducer.rs`, with board edits in `edits.rs`
//! - cursor movement over the board: `cursor.rs`
//! - each widget: `view/*.rs`
//! - terminal, clipboard and files: `runtime.rs`, `clipboard.rs`, `persist.rs`

pub mod action;
pub mod clipboard;
pub mod cursor;
pub mod edits;
pub mod effect;
pub mod keymap;
pub mod library;
pub mod model;
pub mod persist;
pub mod prompt;
pub mod reducer;
pub mod runtime;
pub mod snapshot;
pub mod view;

/// "on" or "off", as the status line and the match panel say a flag.
pub(crate) fn on_off(flag: bool) -> &'static str {
    if flag { "on" } else { "off" }
}
