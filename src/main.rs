//! The `bgedit` binary: the editor when run with no command, `show` and
//! `convert` for scripts.

use bgedit::cli::args::NameArgs;
use bgedit::cli::{BatchOptions, Cli, Command, Job, run_batch};
use bgedit::domain::Names;
use bgedit::editor::runtime::{self, Start};
use clap::Parser;
use std::io::{self, ErrorKind};
use std::process::ExitCode;

fn batch(job: Job, names: NameArgs, quiet: bool, ids: &[String]) -> ExitCode {
    let names = Names {
        o: names.name_o,
        x: names.name_x,
    };
    if let Some(bad) = [&names.o, &names.x]
        .into_iter()
        .find(|n| n.chars().any(char::is_control))
    {
        eprintln!("bgedit: the name {bad:?} has a control character; names are one line of text");
        return ExitCode::from(2);
    }
    let opts = BatchOptions { job, names, quiet };
    let stdin = io::stdin().lock();
    let stdout = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let stderr = io::BufWriter::new(io::stderr().lock());
    match run_batch(&opts, ids, stdin, stdout, stderr) {
        Ok(report) if report.failed == 0 => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        // The reader went away (`bgedit show | head`): stop quietly.
        Err(e) if e.kind() == ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bgedit: {e}");
            ExitCode::from(1)
        }
    }
}

fn editor(start: Start, library: Option<std::path::PathBuf>) -> ExitCode {
    match runtime::run(start, library) {
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
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Show { names, common, ids }) => batch(Job::Show, names, common.quiet, &ids),
        Some(Command::Convert {
            to,
            names,
            common,
            ids,
        }) => batch(Job::Convert(to.into()), names, common.quiet, &ids),
        Some(Command::Library(args)) => ExitCode::from(bgedit::cli::library::run(args)),
        None => editor(
            match (cli.id, cli.new) {
                (Some(id), _) => Start::Id(id),
                (None, true) => Start::Fresh,
                (None, false) => Start::Saved,
            },
            cli.library,
        ),
    }
}
