//! The core bgedit stands on: the position and match model, gnubg's and
//! XG's IDs and files, gnubg's board text, and user text made safe to show.
//! No terminal, database, process or engine.
//!
//! - [`domain`]: board, match state, players, validation, legal moves, the
//!   match model and its replay, equities and the MET, gnubg's statistics of
//!   an analysed match. No I/O.
//! - [`codec`]: Position ID, Match ID, GNUBG ID, XGID, JSON, SGF, FIBS,
//!   Snowie and XG text, both ways; match files (SGF, `.mat`, gnubg's match
//!   text, XG's binary `.xg` and `.xgp`) into the match model; gnubg's `show
//!   board` text, byte for byte (`codec::text_board`).
//! - [`regular_file`]: files opened to be read, refusing FIFOs and devices.
//! - [`out_file`]: a file written whole (temporary file, synced, renamed),
//!   never over the file it was made from.
//! - [`quote`]: user text in messages, cut to one length and escaped before
//!   it reaches a terminal.
//! - [`words`]: counts in words, singular or plural.
//! - [`signals`]: the signals that end a bgedit process, and the exit
//!   status they leave (the editor's and the CLI's).

pub mod codec;
pub mod domain;
pub mod out_file;
pub mod quote;
pub mod regular_file;
pub mod signals;
pub mod words;
