//! Against gnubg 1.07: its committed answers, and the real engine (ignored without it unless BGEDIT_REQUIRE_GNUBG=1).
//!
//! One test binary for the area (each file below is a module): the tests
//! link once, not once a file.

#[path = "../common/mod.rs"]
mod common;

mod engine;
mod equal_depths;
mod equity_examples;
mod gnubg_fixtures;
mod gnubg_formats;
mod gnubg_live_formats;
mod gnubg_moves;
mod gnubg_numbers;
mod plans;
mod position_class;
mod quiz_cli;
mod rollout;
mod sage;
mod sage_data;
mod sage_native;
mod selfplay_fixtures;
mod signals;
mod warning_fixtures;
