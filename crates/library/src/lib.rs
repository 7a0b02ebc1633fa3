//! The study library: positions kept with a title, a note, tags,
//! collections, an engine's answer and a review schedule, in an embedded
//! SQLite file.
//!
//! - [`store`]: the file, its migrations and every query (the only SQL);
//! - [`schema`]: the schema versions;
//! - [`filter`]: the filter language, pure;
//! - [`derive`]: the searchable facts of a position, pure;
//! - [`like`]: the distance of positions like one another and its index key, pure;
//! - [`review`]: the spaced-repetition schedule, pure;
//! - [`import`] and [`export`]: files in and out;
//! - [`player_stats`], [`theme_stats`] and [`thresholds`]: a player across
//!   the matches, by theme (game plan, class, score, kind), and their own
//!   cube thresholds.

pub mod dates;
pub mod derive;
pub mod export;
pub mod filter;
pub mod import;
pub mod like;
pub mod listing;
pub mod match_import;
pub mod mistakes;
pub mod names;
pub mod player_stats;
mod rates;
pub mod review;
pub mod schema;
pub mod store;
pub mod theme_stats;
pub mod thresholds;

pub use store::{
    Added, Analysis, Counted, Entry, EntryEdit, Library, LibraryError, NewEntry, Source, Summary,
};
