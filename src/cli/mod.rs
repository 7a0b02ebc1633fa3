//! The scriptable side of bgedit: `show` prints gnubg's board text for IDs,
//! `convert` turns IDs into another format, `moves` and `play` apply gnubg's
//! move rules, `analyse` asks gnubg (one position a line, a score matrix, a
//! rollout, or a whole match with `--file`: `analyse/match_file.rs`), `stats`
//! gives the numbers at the score, `image` draws, `match` lists a match
//! file's decisions and `library` keeps positions. Position commands read
//! their IDs from the arguments, or from standard input one per line,
//! streaming.

pub mod analyse;
pub(crate) mod args;
pub(crate) mod batch;
pub mod convert;
pub mod editor;
pub mod engine_args;
pub(crate) mod files;
pub mod image;
pub mod input;
pub mod library;
pub mod matches;
pub mod moves;
pub(crate) mod output;
pub mod plans;
pub mod play;
pub(crate) mod player_stats;
pub mod quiz;
pub(crate) mod shared_args;
pub mod show;
pub mod signals;
pub mod stats;
pub mod suggest;
pub(crate) mod theme_stats;
pub(crate) mod thresholds;

pub use args::{Cli, Command};
pub use batch::{BatchOptions, BatchReport, Job, run_batch};
