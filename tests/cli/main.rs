//! The command line, end to end, and the README's promises.
//!
//! One test binary for the area (each file below is a module): the tests
//! link once, not once a file.

#[path = "../common/mod.rs"]
mod common;

mod analyse_cli;
mod analyse_sensitivity;
mod bounds;
mod cli;
mod cli_formats;
mod cli_moves;
mod cli_pipes;
mod cli_stats;
mod convert_themes;
mod hostile_names;
mod hostile_output;
mod mat_files;
mod match_analysis;
mod match_text;
mod matches;
mod readme;
mod save_sgf;
mod xg_files;
