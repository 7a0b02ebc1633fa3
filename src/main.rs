//! The `bgedit` binary: the editor when run with no command, `show` and
//! `convert` for scripts.

use bgedit::cli::args::{ImageArgs, NameArgs};
use bgedit::cli::{BatchOptions, Cli, Command, Job, files, image, run_batch};
use bgedit::codec::IdFormat;
use bgedit::codec::sgf::Selection;
use bgedit::domain::Names;
use bgedit::editor::runtime::{self, Start};
use clap::Parser;
use std::io::{self, ErrorKind, Write};
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

/// `convert --file`: the IDs given as arguments first, then each file as
/// one text.
fn convert_files(
    to: IdFormat,
    names: NameArgs,
    quiet: bool,
    ids: &[String],
    files: &[String],
    game: Option<usize>,
    moves: Option<usize>,
) -> ExitCode {
    if files.is_empty() {
        eprintln!("bgedit: --game and --move choose a position in a file: give it with --file");
        return ExitCode::from(2);
    }
    let mut ok = true;
    if !ids.is_empty() {
        ok = batch(Job::Convert(to), names.clone(), quiet, ids) == ExitCode::SUCCESS;
    }
    let names = Names {
        o: names.name_o,
        x: names.name_x,
    };
    let selection = Selection { game, moves };
    let mut out = io::stdout().lock();
    for path in files {
        let shown = if path == "-" { "standard input" } else { path };
        let result = files::read_text(path)
            .and_then(|text| files::convert_text(&text, to, &names, selection));
        match result {
            Ok(c) => {
                if !quiet {
                    for note in c.notes {
                        eprintln!("file {shown}: {note}");
                    }
                }
                if writeln!(out, "{}", c.output).is_err() {
                    return ExitCode::SUCCESS;
                }
            }
            Err(e) => {
                eprintln!("file {shown}: {e}");
                ok = false;
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn image(args: &ImageArgs) -> ExitCode {
    let picture = match image::make(args) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("bgedit: {e}");
            return ExitCode::from(1);
        }
    };
    let written = match &picture.path {
        Some(path) => std::fs::write(path, &picture.bytes).map_err(|e| format!("{path}: {e}")),
        None => io::stdout()
            .lock()
            .write_all(&picture.bytes)
            .map_err(|e| format!("standard output: {e}")),
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bgedit: {e}");
            ExitCode::from(1)
        }
    }
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
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Show { names, common, ids }) => batch(Job::Show, names, common.quiet, &ids),
        Some(Command::Convert {
            to,
            names,
            common,
            file,
            game,
            moves,
            ids,
        }) if !file.is_empty() || game.is_some() || moves.is_some() => {
            convert_files(to.into(), names, common.quiet, &ids, &file, game, moves)
        }
        Some(Command::Convert {
            to,
            names,
            common,
            ids,
            ..
        }) => batch(Job::Convert(to.into()), names, common.quiet, &ids),
        Some(Command::Image(args)) => image(&args),
        None => editor(match (cli.id, cli.new) {
            (Some(id), _) => Start::Id(id),
            (None, true) => Start::Fresh,
            (None, false) => Start::Saved,
        }),
    }
}
