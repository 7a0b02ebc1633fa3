//! The editor: its reducer, keys, screens (insta), and the real binary in a pseudo-terminal.
//!
//! One test binary for the area (each file below is a module): the tests
//! link once, not once a file.

#[path = "../common/mod.rs"]
mod common;

mod analysis_e2e;
mod analysis_reducer;
mod editor_copy_menu;
mod editor_e2e;
mod editor_edge;
mod editor_numbers;
mod editor_play;
mod editor_properties;
mod editor_reducer;
mod editor_robustness;
mod editor_screens;
mod pastes;
mod pictures;
mod save_file;
mod sensitivity;
mod sensitivity_e2e;
mod statistics;
