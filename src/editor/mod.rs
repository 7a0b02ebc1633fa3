//! The terminal editor, in the Elm Architecture: a [`model::Model`] changed
//! only by [`reducer::update`] (model + action → model + effects), key and
//! mouse events turned into actions by the pure [`keymap`], a [`view`] that
//! draws from a [`snapshot::Snapshot`] of the model, and a [`runtime`] at the
//! edge that reads events and performs the effects (clipboard, save, quit).
//!
//! Where things are:
//! - a key's meaning: `keymap.rs` (the one table of bindings); a panel's
//!   keys in its folder's `keys.rs`
//! - what an action does: `reducer.rs` (the router), with board edits in
//!   `edits.rs` and the shared transitions (`commit`, `done`, `refuse`) in
//!   `transition.rs`, below every feature
//! - the panel scheme and the smallest screen: `panels.rs`
//! - cursor movement over the board: `cursor.rs`
//! - the place under the cursor, in words: `place_info.rs`
//! - away scores and the Crawford offer: `scores.rs`
//! - playing moves (move line, pick up and drop, dice): `play.rs`
//! - each widget: `view/*.rs`
//! - the edges, in `io/`: terminal and event loop (`io/runtime.rs`), the
//!   clipboard (`io/clipboard.rs`, and `io/clipboard_holder.rs` keeping
//!   X11/Wayland copies after quit), files (`io/persist.rs`,
//!   `io/picture_file.rs`), signals (`io/signals.rs`), gnubg for the editor,
//!   the score matrix and the match analysis (`io/engine_link.rs`)
//! - pastes that arrive as keys: `burst.rs`
//! - the message log (`H`): `messages.rs`, drawn by `view/messages.rs`
//! - features with their own folder (state, update, keys, view): the study
//!   library (`library/`) and the match being reviewed (`match_review/`)

pub mod action;
pub mod analysis;
pub mod bindings;
pub mod board;
pub mod burst;
pub mod config;
pub mod copy_menu;
pub mod effect;
pub mod io;
pub mod keymap;
pub mod library;
pub mod match_review;
pub mod messages;
pub mod model;
pub mod numbers;
pub mod panels;
pub mod play;
pub mod prompt;
pub mod reducer;
pub mod scores;
pub mod snapshot;
pub mod transition;
pub mod ui;
pub mod view;

/// "on" or "off", as the status line and the match panel say a flag.
pub(crate) fn on_off(flag: bool) -> &'static str {
    if flag { "on" } else { "off" }
}
