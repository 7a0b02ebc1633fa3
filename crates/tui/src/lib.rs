//! The terminal editor, in the Elm Architecture: a [`model::Model`] changed
//! only by [`reducer::update`] (model + action → model + effects), key and
//! mouse events turned into actions by the pure [`keymap`], a [`view`] that
//! draws from a [`snapshot::Snapshot`] of the model, and a [`runtime`] at the
//! edge that reads events and performs the effects (clipboard, save, quit).
//!
//! Every feature is a folder of one template:
//! - `state.rs`: its state (pure data the model holds) and its own action
//!   enum, nested in [`action::Action`] (`Action::Board(BoardAction)`, ...)
//! - `update.rs`: what its actions do, its part of the reducer (pure)
//! - `keys.rs`: its `Binding`s (the one shape of `bindings.rs`)
//! - `view.rs`: its part of the snapshot and its drawing
//!
//! plus, where a feature needs them, helpers of its own beside them
//! (`board/edits.rs`, `library/worker.rs`, `match_review/open.rs`, ...).
//! The features: the board (`board/`), playing moves (`play/`), the input
//! line (`prompt/`), the copy menu (`copy_menu/`), the analysis panel
//! (`analysis/`), the numbers panel (`numbers/`), the live views of the
//! cube and the score (`sensitivity/`), the study library (`library/`) and
//! the match being reviewed (`match_review/`).
//!
//! Around them:
//! - what can happen and what it asks of the world: `action.rs`, `effect.rs`
//! - the state: `model.rs`; the only place it changes: `reducer.rs`, which
//!   routes each feature's actions to its `update` and runs the reactions
//!   to a changed position, declared once there (`ON_POSITION_CHANGED`)
//! - the transitions every update shares (`commit`, `done`, `refuse`):
//!   `transition.rs`, below every feature; why a save failed, as the
//!   model sees it: `save_error.rs` (the save file's I/O stays in `io/`)
//! - keys: each feature's `keys.rs`, put together for the normal mode and
//!   the input line by `keymap.rs` (which also resolves the mouse), all of
//!   the one shape of `bindings.rs`
//! - the panel scheme and the smallest screen: `panels.rs`
//! - away scores and the Crawford offer: `scores.rs`
//! - pastes that arrive as keys: `burst.rs`
//! - the message log (`H`): `messages.rs`, drawn by `view/messages.rs`
//! - what the screen shows: `snapshot.rs` (each feature's part from its
//!   `view.rs`); the colours, the layout and text wrapping every view
//!   uses: `ui/`, below the features; the screen put together from the
//!   features' views, and the widgets of no feature: `view/`
//! - the edges, in `io/`: terminal and event loop (`io/runtime.rs`), the
//!   clipboard (`io/clipboard.rs`, and `io/clipboard_holder.rs` keeping
//!   X11/Wayland copies after quit), files (`io/persist.rs`,
//!   `io/picture_file.rs`, and the file work done off the event loop,
//!   `io/files.rs`), signals (`io/signals.rs`), the engines for the
//!   editor, the score matrix and the match analysis (`io/engine_link.rs`),
//!   the one background-job helper (`io/job.rs`) and its long-lived
//!   sibling, the worker threads (`io/worker.rs`)
//!
//! No feature imports the reducer or `view/`; `ui/` imports no feature.

pub mod action;
pub mod analysis;
mod bindings;
mod board;
mod burst;
mod config;
pub mod copy_menu;
pub mod effect;
pub mod io;
pub mod keymap;
pub mod library;
pub mod match_list;
pub mod match_review;
mod messages;
pub mod model;
pub mod numbers;
pub mod panels;
pub mod play;
pub mod prompt;
pub mod reducer;
pub mod save_error;
mod scores;
pub mod sensitivity;
pub mod snapshot;
pub mod statistics;
mod transition;
pub mod ui;
pub mod view;

/// "on" or "off", as the status line and the match panel say a flag.
pub(crate) fn on_off(flag: bool) -> &'static str {
    if flag { "on" } else { "off" }
}
