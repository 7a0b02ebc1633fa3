//! `bgedit show`: gnubg's board text (`show board`) for each ID.

use super::batch::{self, Job};
use super::shared_args::{CommonArgs, NameArgs};
use clap::Args;
use std::process::ExitCode;

// No doc comment: the command's help is its variant's in `args.rs`.
#[derive(Args, Debug, Clone)]
pub struct ShowArgs {
    #[command(flatten)]
    pub names: NameArgs,
    #[command(flatten)]
    pub common: CommonArgs,
    /// IDs in any accepted format; standard input when none.
    #[arg(allow_hyphen_values = true)]
    pub ids: Vec<String>,
}

/// Prints each board, from the arguments or standard input.
pub fn run(args: ShowArgs) -> ExitCode {
    batch::run_job(Job::Show, args.names, args.common.quiet, &args.ids)
}
