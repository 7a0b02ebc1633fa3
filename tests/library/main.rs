//! The study library: the store, the CLI and the editor's panel.
//!
//! One test binary for the area (each file below is a module): the tests
//! link once, not once a file.

#[path = "../common/mod.rs"]
mod common;

mod analyse;
mod cube_entries;
mod disagreements;

mod library;
mod library_e2e;
mod library_panel;
mod like;
mod matches;
mod matches_e2e;
mod mistakes;
mod players;
mod themes;
