//! The `bgedit` binary: the editor when run with no command, `show` and
//! `convert` for scripts.

use bgedit::cli::args::NameArgs;
use bgedit::cli::stats::{StatsFormat, StatsOptions, run_stats};
use bgedit::cli::{BatchOptions, Cli, Command, Job, run_batch};
use bgedit::codec::met_xml;
use bgedit::domain::Names;
use bgedit::domain::equity::Probabilities;
use bgedit::editor::numbers_state::MetHandle;
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

fn stats(
    met: Option<&std::path::Path>,
    format: StatsFormat,
    eval: Option<Probabilities>,
    ids: &[String],
) -> ExitCode {
    let met = match met.map(met_xml::load_file) {
        None => met_xml::default_met(),
        Some(Ok(met)) => met,
        Some(Err(e)) => {
            eprintln!("bgedit: --met: {e}");
            return ExitCode::from(2);
        }
    };
    let stdin = io::stdin().lock();
    let stdout = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let stderr = io::BufWriter::new(io::stderr().lock());
    let opts = StatsOptions {
        met: &met,
        format,
        eval,
    };
    match run_stats(&opts, ids, stdin, stdout, stderr) {
        Ok(report) if report.failed == 0 => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bgedit: {e}");
            ExitCode::from(1)
        }
    }
}

fn editor(start: Start, met: Option<&std::path::Path>) -> ExitCode {
    let met = match met.map(met_xml::load_file) {
        None => None,
        Some(Ok(met)) => Some(MetHandle::new(met)),
        Some(Err(e)) => {
            eprintln!("bgedit: --met: {e}");
            return ExitCode::from(2);
        }
    };
    match runtime::run_with(start, met) {
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
        Some(Command::Stats {
            met,
            format,
            eval,
            ids,
        }) => stats(met.as_deref(), format, eval, &ids),
        None => editor(
            match (cli.id, cli.new) {
                (Some(id), _) => Start::Id(id),
                (None, true) => Start::Fresh,
                (None, false) => Start::Saved,
            },
            cli.met.as_deref(),
        ),
    }
}
