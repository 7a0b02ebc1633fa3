//! The input line: what is being asked, and how the typed text is read.
//!
//! - `state.rs`: what is asked and the text being typed (`Prompt`, and its
//!   `Line`, the one line editor the library's questions use too), and the
//!   line's actions (pure data, edited in place)
//! - `update.rs`: the line's edits, and the typed text read into the action
//!   to apply, or a message (pure)
//! - `keys.rs`: the line's key table (resolution, hints, help)
//!
//! The line is drawn by the footer (`view/footer.rs`), with the question
//! its feature words (the library's, the move line's).

pub(crate) mod keys;
pub mod state;
pub mod update;
