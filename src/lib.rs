//! bgedit: a keyboard-driven editor for backgammon positions, and the core it
//! stands on: the position and match model, gnubg's and XG's IDs, and gnubg's
//! board text.
//!
//! - [`domain`]: board, match state, players, validation, legal moves, the
//!   match model and its replay, equities and the MET, gnubg's statistics of
//!   an analysed match. No I/O.
//! - [`codec`]: Position ID, Match ID, GNUBG ID, XGID, JSON, SGF, FIBS,
//!   Snowie and XG text, both ways; match files (SGF, `.mat`, gnubg's match
//!   text, XG's binary `.xg` and `.xgp`) into the match model.
//! - [`regular_file`]: files opened to be read, refusing FIFOs and devices.
//! - [`out_file`]: a file written whole (temporary file, synced, renamed),
//!   never over the file it was made from.
//! - [`quote`]: user text in messages, cut to one length and escaped before
//!   it reaches a terminal.
//! - [`text_board`]: gnubg's `show board` text, byte for byte.
//! - [`engine`]: gnubg as a process (the bridge) and Open Sage as the second
//!   opinion, their answers, rollouts, the score matrix and a whole match
//!   analysed as gnubg's `analyse match`.
//! - [`library`]: the study library in SQLite (store, filters, imports).
//! - [`picture`]: the position as SVG and PNG.
//! - [`cli`]: the commands (`show`, `convert`, `moves`, `play`, `analyse`,
//!   `stats`, `image`, `match`, `library`, `quiz`) over streams.
//! - [`editor`]: the terminal editor (model, reducer, keymap, view, runtime).

pub mod cli;
pub mod codec;
pub mod domain;
pub mod editor;
pub mod engine;
pub mod library;
pub mod out_file;
pub mod picture;
pub mod quote;
pub mod regular_file;
pub mod text_board;
