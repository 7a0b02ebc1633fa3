//! bgedit: a keyboard-driven editor for backgammon positions, and the core it
//! stands on: the position and match model, gnubg's and XG's IDs, and gnubg's
//! board text.
//!
//! - [`domain`]: board, match state, players, validation. No I/O.
//! - [`codec`]: Position ID, Match ID, GNUBG ID, XGID and JSON, both ways.
//! - [`text_board`]: gnubg's `show board` text, byte for byte.
//! - [`cli`]: the `show` and `convert` commands over streams.
//! - [`editor`]: the terminal editor (model, reducer, keymap, view, runtime).

pub mod cli;
pub mod codec;
pub mod domain;
pub mod editor;
pub mod engine;
pub mod library;
pub mod picture;
pub mod quote;
pub mod text_board;
