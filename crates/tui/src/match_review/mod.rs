//! The match being reviewed: open a match file (`^O`, or `bgedit FILE`),
//! walk its decisions and games, jump from mistake to mistake as gnubg's
//! background analysis finds them, and keep decisions in the library.
//!
//! - `open.rs`: a match file or a pasted match read and replayed into a
//!   [`state::Loaded`] (the runtime reads files on a thread)
//! - `state.rs`: the open match, the cursor, gnubg's verdicts, the actions
//! - `update.rs`: the panel's part of the reducer (pure)
//! - `keys.rs`: the panel's keys, one table for resolution, hints and help
//! - `view.rs`: what the panel shows, as text (its part of the snapshot),
//!   and its drawing (composed by `editor/view/`)
//!
//! Reading the file, listing directories for Tab and the background
//! analysis (`engine::match_analysis`, its own gnubg processes) are the
//! runtime's, reached through effects.

pub(crate) mod keys;
pub mod open;
// What the library's worker reads a stored match into.
pub(crate) use open::loaded;
pub mod state;
pub mod stored;
pub(crate) mod update;
pub mod view;
