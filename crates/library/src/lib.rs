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
//! - [`import`] and [`export`]: files in and out.

pub mod derive;
pub mod export;
pub mod filter;
pub mod import;
pub mod like;
pub mod match_import;
pub mod mistakes;
pub mod player_stats;
mod rates;
pub mod review;
pub mod schema;
pub mod store;

pub use store::{
    Added, Analysis, Counted, Entry, EntryEdit, Library, LibraryError, NewEntry, Source, Summary,
};
