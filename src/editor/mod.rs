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
//! - the place under the cursor, in words: `place_info.rs`
//! - away scores and the Crawford offer: `scores.rs`
//! - playing moves (move line, pick up and drop, dice): `play.rs`
//! - each widget: `view/*.rs`
//! - terminal, clipboard and files: `runtime.rs`, `clipboard.rs`, `persist.rs`
//! - signals from `kill`: `signals.rs`; pastes that arrive as keys: `burst.rs`
//! - keeping X11/Wayland copies after quit: `clipboard_holder.rs`
//! - the message log (`H`): `messages.rs`, drawn by `view/messages.rs`
//! - features with their own folder (state, update, keys, view): the study
//!   library (`library/`) and the match being reviewed (`match_review/`)
//! - gnubg for the editor, the score matrix and the match analysis in the
//!   background: `engine_link.rs`

pub mod action;
pub mod analysis;
pub mod burst;
pub mod clipboard;
pub mod clipboard_holder;
pub mod config;
pub mod copy_menu;
pub mod cursor;
pub mod dice;
pub mod edits;
pub mod effect;
pub mod engine_link;
pub mod keymap;
pub mod library;
pub mod match_review;
pub mod messages;
pub mod model;
pub mod numbers_state;
pub mod numbers_text;
pub mod panels;
pub mod persist;
pub mod picture_file;
pub mod place_info;
pub mod play;
pub mod prompt;
pub mod reducer;
pub mod runtime;
pub mod score_matrix;
pub mod scores;
pub mod signals;
pub mod snapshot;
pub mod transition;
pub mod view;

/// "on" or "off", as the status line and the match panel say a flag.
pub(crate) fn on_off(flag: bool) -> &'static str {
    if flag { "on" } else { "off" }
}
