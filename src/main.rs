//! The `bgedit` binary: the editor when run with no command, `show` and
//! `convert` for scripts.

use bgedit::cli::args::NameArgs;
use bgedit::cli::input::{Messages, exit_code};
use bgedit::cli::{BatchOptions, Cli, Command, Job, run_batch};
use bgedit::domain::Names;
use bgedit::editor::runtime::{self, Start};
use clap::{CommandFactory, Parser};
use std::io;
use std::process::ExitCode;

fn batch(job: Job, names: NameArgs, quiet: bool, ids: &[String]) -> ExitCode {
    let names = Names {
        o: names.name_o,
        x: names.name_x,
    };
    if let Err(e) = names.check() {
        eprintln!("bgedit: {e}");
        return ExitCode::from(2);
    }
    let opts = BatchOptions { job, names, quiet };
    let stdin = io::stdin().lock();
    let stdout = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let stderr = Messages::new(io::BufWriter::new(io::stderr().lock()));
    exit_code(run_batch(&opts, ids, stdin, stdout, stderr))
}

fn editor(start: Start) -> ExitCode {
    match runtime::run(start) {
        Ok(position) => {
            // After the terminal is restored, so the IDs stay in the scrollback.
            print!("{}", runtime::farewell(&position));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("bgedit: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    // A mistyped command is named as one before clap reads the rest.
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let command = Cli::command();
    let commands: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
    if let Some(message) = bgedit::cli::suggest::check_first_words(&args, &commands) {
        eprintln!("{message}");
        return ExitCode::from(2);
    }
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Show { names, common, ids }) => batch(Job::Show, names, common.quiet, &ids),
        Some(Command::Convert {
            to,
            names,
            common,
            ids,
        }) => batch(Job::Convert(to.into()), names, common.quiet, &ids),
        None => editor(match (cli.id.is_empty(), cli.new) {
            // gnubg prints its two IDs apart; given as two words, they are
            // read together.
            (false, _) => Start::Id(cli.id.join(" ")),
            (true, true) => Start::Fresh,
            (true, false) => Start::Saved,
        }),
    }
}
