//! Property tests of the codecs, moves and numbers.
//!
//! One test binary for the area (each file below is a module): the tests
//! link once, not once a file.

#[path = "../common/mod.rs"]
mod common;

mod format_properties;
mod like_properties;
mod move_properties;
mod numbers_properties;
mod properties;
