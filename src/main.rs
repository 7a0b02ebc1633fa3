//! The `bgedit` binary: the editor when run with no command, `show` and
//! `convert` for scripts.

use bgedit::cli::args::{ImageArgs, NameArgs};
use bgedit::cli::input::{Messages, exit_code, run_lines};
use bgedit::cli::moves::{LineOutput, as_job};
use bgedit::cli::stats::{StatsFormat, StatsOptions, as_job as stats_job};
use bgedit::cli::{BatchOptions, Cli, Command, Job, files, image, run_batch};
use bgedit::codec::sgf::Selection;
use bgedit::codec::{IdFormat, met_xml};
use bgedit::domain::Names;
use bgedit::domain::equity::Probabilities;
use bgedit::editor::numbers_state::MetHandle;
use bgedit::editor::runtime::{self, Start};
use clap::{CommandFactory, Parser};
use std::io::{self, ErrorKind, Write};
use std::process::ExitCode;

fn batch(job: Job, names: NameArgs, quiet: bool, ids: &[String]) -> ExitCode {
    let names = Names {
        o: names.name_o,
        x: names.name_x,
    };
    if let Err(e) = names.check() {
        bgedit::say!("bgedit: {e}");
        return ExitCode::from(2);
    }
    let opts = BatchOptions { job, names, quiet };
    let stdin = io::stdin().lock();
    let stdout = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let stderr = Messages::new(io::BufWriter::new(io::stderr().lock()));
    exit_code(run_batch(&opts, ids, stdin, stdout, stderr))
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
        bgedit::say!("bgedit: --game and --move choose a position in a file: give it with --file");
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
        let shown = bgedit::quote::printable(shown);
        let result = files::read_bytes(path)
            .and_then(|bytes| files::convert_bytes(&bytes, to, &names, selection));
        match result {
            Ok(c) => {
                if !quiet {
                    for note in c.notes {
                        bgedit::say!("file {shown}: {note}");
                    }
                }
                // A name or comment of the file's may hold control
                // characters: escaped like everything else printed.
                if let Err(e) = writeln!(out, "{}", bgedit::quote::printable(&c.output)) {
                    // Output not delivered never exits 0 (141: as a shell
                    // reports SIGPIPE).
                    return match e.kind() {
                        ErrorKind::BrokenPipe => ExitCode::from(141),
                        _ => ExitCode::from(1),
                    };
                }
            }
            Err(e) => {
                bgedit::say!("file {shown}: {e}");
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
            bgedit::say!("bgedit: {e}");
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
            bgedit::say!("bgedit: {e}");
            ExitCode::from(1)
        }
    }
}

/// `moves` and `play`: one output line per input, exit 1 when any failed.
fn lines(ids: &[String], work: impl Fn(&str) -> Result<LineOutput, String>) -> ExitCode {
    let stdin = io::stdin().lock();
    let stdout = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let stderr = Messages::new(io::BufWriter::new(io::stderr().lock()));
    exit_code(run_lines(ids, stdin, stdout, stderr, as_job(work)))
}

fn quiz(args: &bgedit::cli::quiz::QuizArgs) -> ExitCode {
    use bgedit::engine::match_analysis::QuizAnswer;
    if args.stats {
        let mut out = io::BufWriter::new(io::stdout().lock());
        let code = bgedit::cli::quiz::stats(args, &mut out);
        let _ = io::Write::flush(&mut out);
        return ExitCode::from(code);
    }
    let found = match args.engine {
        bgedit::cli::quiz::QuizEngine::Gnubg => {
            bgedit::engine::locate::find_from_env(args.gnubg.as_deref()).map(|p| {
                bgedit::engine::EngineKind::Gnubg
                    .spec()
                    .open(p, Default::default())
            })
        }
        bgedit::cli::quiz::QuizEngine::Sage => {
            bgedit::engine::sage::find_python_from_env(args.sage_python.as_deref()).map(|p| {
                bgedit::engine::EngineKind::Sage
                    .spec()
                    .open(p, Default::default())
            })
        }
    };
    let engine = match found {
        Ok(e) => std::cell::RefCell::new(e),
        Err(e) => {
            bgedit::say!("bgedit: {e}");
            return ExitCode::from(2);
        }
    };
    let answer = QuizAnswer::parse(args.answer.as_deref().unwrap_or_default());
    lines(&args.ids, |l| {
        bgedit::cli::quiz::quiz_line(&engine, &answer, args.plies, args.format, l)
    })
}

fn analyse(args: bgedit::cli::args::AnalyseArgs, ids: &[String]) -> ExitCode {
    use bgedit::cli::analyse::{self, AnalyseOptions, Format};
    use std::io::IsTerminal;
    let sage_only = args.engine == bgedit::cli::args::EngineArg::Sage;
    let gnubg = match bgedit::engine::locate::find_from_env(args.gnubg.as_deref()) {
        Ok(p) => p,
        // Sage alone needs no gnubg.
        Err(_) if sage_only => std::path::PathBuf::from("gnubg"),
        Err(e) => {
            bgedit::say!("bgedit: {e}");
            return ExitCode::from(2);
        }
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let format = match args.format {
        bgedit::cli::args::AnalyseFormat::Text => Format::Text,
        bgedit::cli::args::AnalyseFormat::Json => Format::Json,
    };
    if args.score_matrix {
        use bgedit::cli::score_matrix::{self, MatrixOptions};
        let opts = MatrixOptions {
            gnubg,
            plies: args.depth(),
            length: args.length,
            owner: args.owner,
            jobs: args.jobs.map_or(cores, usize::from),
            format,
            colour: io::stdout().is_terminal(),
        };
        let stdout = io::BufWriter::new(io::stdout().lock());
        return match score_matrix::run(&opts, ids, stdout, io::stderr()) {
            Ok(code) => ExitCode::from(code),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::from(141),
            Err(e) => {
                bgedit::say!("bgedit: {e}");
                ExitCode::from(1)
            }
        };
    }
    if let Some(path) = &args.file {
        use bgedit::cli::match_analysis::{self, FileOptions};
        if !ids.is_empty() {
            bgedit::say!("bgedit: analyse --file takes no IDs");
            return ExitCode::from(2);
        }
        if args.engine == bgedit::cli::args::EngineArg::Both {
            bgedit::say!(
                "bgedit: analyse --file takes one engine: --engine gnubg or --engine sage"
            );
            return ExitCode::from(2);
        }
        let opts = FileOptions {
            run: bgedit::engine::match_analysis::RunOptions {
                engine: if args.engine == bgedit::cli::args::EngineArg::Sage {
                    bgedit::engine::EngineKind::Sage
                } else {
                    bgedit::engine::EngineKind::Gnubg
                },
                program: if args.engine == bgedit::cli::args::EngineArg::Sage {
                    match bgedit::engine::sage::find_python_from_env(args.sage_python.as_deref()) {
                        Ok(python) => python,
                        Err(e) => {
                            bgedit::say!("bgedit: {e}");
                            return ExitCode::from(2);
                        }
                    }
                } else {
                    gnubg
                },
                plies: args.depth(),
                jobs: args.jobs.map_or(cores, usize::from),
                luck: true,
            },
            format: match format {
                Format::Text => match_analysis::Format::Text,
                Format::Json => match_analysis::Format::Json,
            },
            progress: io::stderr().is_terminal(),
        };
        let stdout = io::BufWriter::new(io::stdout().lock());
        return match match_analysis::run(&opts, path, stdout, io::stderr()) {
            Ok(code) => ExitCode::from(code),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::from(141),
            Err(e) => {
                bgedit::say!("bgedit: {e}");
                ExitCode::from(1)
            }
        };
    }
    let rollout = args.rollout.then_some(bgedit::engine::RolloutSettings {
        trials: args.trials,
        seed: args.seed,
        truncate: args.truncate,
        plies: args.rollout_plies,
        cubeful: !args.cubeless,
        variance_reduction: !args.no_vr,
        quasi_random: !args.random_dice,
        candidates: if args.moves == 0 { 10_000 } else { args.moves },
        // A batch reads only the last answer: fewer, longer chunks (each
        // chunk costs gnubg's threads a wait at its end and the bridge a few
        // of gnubg's Python calls); a second a chunk where the progress is
        // shown, five where nobody watches (well within the 60 s a chunk
        // may take at 0-ply).
        chunk_ms: if io::stderr().is_terminal() {
            1000
        } else {
            5000
        },
    });
    let choice = bgedit::engine::Choice::from(args.engine);
    let mut engines = Vec::new();
    for kind in choice.kinds() {
        match kind {
            bgedit::engine::EngineKind::Gnubg => engines.push((kind, gnubg.clone())),
            bgedit::engine::EngineKind::Sage => {
                match bgedit::engine::sage::find_python_from_env(args.sage_python.as_deref()) {
                    Ok(python) => engines.push((kind, python)),
                    Err(e) => {
                        bgedit::say!("bgedit: {e}");
                        return ExitCode::from(2);
                    }
                }
            }
        }
    }
    let opts = AnalyseOptions {
        engines,
        threads: args.threads,
        plies: args.depth(),
        moves: args.moves,
        jobs: args.jobs.map_or(cores, usize::from),
        format,
        progress: io::stderr().is_terminal(),
        rollout,
    };
    let stdout = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let stderr = Messages::new(io::stderr());
    let outcome = analyse::run(&opts, ids, io::stdin(), stdout, stderr);
    exit_code(outcome.map(|r| bgedit::cli::input::Tally {
        converted: 0,
        failed: r.failed,
    }))
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
            bgedit::say!("bgedit: --met: {e}");
            return ExitCode::from(2);
        }
    };
    let stdin = io::stdin().lock();
    let stdout = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let stderr = Messages::new(io::BufWriter::new(io::stderr().lock()));
    let opts = StatsOptions {
        met: &met,
        format,
        eval,
    };
    exit_code(run_lines(ids, stdin, stdout, stderr, stats_job(&opts)))
}

fn editor(
    start: Start,
    gnubg: Option<std::path::PathBuf>,
    met: Option<&std::path::Path>,
    library: Option<std::path::PathBuf>,
    sage_python: Option<std::path::PathBuf>,
) -> ExitCode {
    let met = match met.map(met_xml::load_file) {
        None => None,
        Some(Ok(met)) => Some(MetHandle::new(met)),
        Some(Err(e)) => {
            bgedit::say!("bgedit: --met: {e}");
            return ExitCode::from(2);
        }
    };
    match runtime::run_with(
        start,
        runtime::Options {
            gnubg,
            met,
            library,
            sage_python,
        },
    ) {
        Ok(exit) => {
            // After the terminal is restored, so the IDs stay in the
            // scrollback. After a hang-up there may be no terminal left to
            // print to; that must not turn into a panic.
            use std::io::Write;
            let _ = io::stdout().write_all(runtime::farewell(&exit.position).as_bytes());
            let _ = io::stdout().flush();
            match (exit.signal, exit.save_failed) {
                (Some(signal), _) => ExitCode::from(bgedit::editor::signals::exit_status(signal)),
                // The last position was not saved: a script (or the user)
                // must not take the run for a clean one.
                (None, Some(why)) => {
                    bgedit::say!("bgedit: the last position was not saved: {why}");
                    ExitCode::from(1)
                }
                (None, None) => ExitCode::SUCCESS,
            }
        }
        Err(e) => {
            bgedit::say!("bgedit: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// clap's refusal (or its help): an error quotes the argument it refuses,
/// which is printed escaped like any other; help and version are ours.
fn clap_refusal(e: &clap::Error) -> ExitCode {
    let code = ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
    if e.use_stderr() {
        bgedit::say!("{}", e.render().to_string().trim_end());
    } else {
        let _ = e.print();
    }
    code
}

fn main() -> ExitCode {
    let code = run();
    // The editor may quit while its worker still holds the match copy
    // gnubg reads: nothing is left in the temporary directory.
    bgedit::engine::gnubg_match::remove_private_copies();
    code
}

/// A command that runs engines: a signal ends it cleanly (its match copies
/// removed, its engines gone).
fn with_engines(run: impl FnOnce() -> ExitCode) -> ExitCode {
    if let Err(e) = bgedit::cli::signals::clean_up_on_signals() {
        bgedit::say!("bgedit: installing signal handlers: {e}");
        return ExitCode::from(1);
    }
    run()
}

fn run() -> ExitCode {
    // A mistyped command is named as one before clap reads the rest.
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let command = Cli::command();
    // Hidden commands (`__hold-clipboard`) are not offered to users.
    let commands: Vec<&str> = command
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| c.get_name())
        .collect();
    if let Some(message) = bgedit::cli::suggest::check_first_words(&args, &commands) {
        bgedit::say!("{message}");
        return ExitCode::from(2);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_refusal(&e),
    };
    if let Some(dir) = &cli.sage_data {
        bgedit::engine::sage::native::set_data_dir(dir.clone());
    }
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
        Some(Command::Moves { format, ids }) => {
            lines(&ids, |l| bgedit::cli::moves::moves_line(l, format))
        }
        Some(Command::Play { play, ids })
            if let Some(message) = bgedit::cli::moves::unquoted_move(&play, &ids) =>
        {
            bgedit::say!("bgedit: {message}");
            ExitCode::from(2)
        }
        Some(Command::Play { play, ids }) => match bgedit::domain::notation::parse(&play) {
            Ok(typed) => lines(&ids, |l| bgedit::cli::moves::play_line(&typed, l)),
            Err(e) => {
                bgedit::say!("bgedit: the move {play:?}: {e}");
                ExitCode::from(2)
            }
        },
        Some(Command::HoldClipboard) => match bgedit::editor::clipboard_holder::hold_from_stdin() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                bgedit::say!("bgedit: holding the clipboard: {e}");
                ExitCode::from(1)
            }
        },
        Some(Command::Analyse { analyse: a, ids }) => with_engines(|| analyse(a, &ids)),
        Some(Command::Stats {
            met,
            format,
            eval,
            ids,
        }) => stats(met.as_deref(), format, eval, &ids),
        Some(Command::Image(args)) => image(&args),
        Some(Command::Library(args)) => ExitCode::from(bgedit::cli::library::run(args)),
        Some(Command::Match(args)) => ExitCode::from(bgedit::cli::matches::run(&args)),
        Some(Command::Quiz(args)) if args.answer.is_none() && !args.stats => editor(
            Start::Quiz(
                args.ids.join(" "),
                args.plies,
                match args.engine {
                    bgedit::cli::quiz::QuizEngine::Gnubg => {
                        bgedit::engine::Choice::only(bgedit::engine::EngineKind::Gnubg)
                    }
                    bgedit::cli::quiz::QuizEngine::Sage => {
                        bgedit::engine::Choice::only(bgedit::engine::EngineKind::Sage)
                    }
                },
            ),
            cli.gnubg.or(args.gnubg),
            cli.met.as_deref(),
            args.library.or(cli.library),
            cli.sage_python.or(args.sage_python),
        ),
        Some(Command::Quiz(args)) => with_engines(|| quiz(&args)),
        None => editor(
            match (cli.id.is_empty(), cli.new) {
                // gnubg prints its two IDs apart; given as two words, they
                // are read together.
                // A file: a match to review (an ID is never a file's name).
                (false, _) if cli.id.len() == 1 && std::path::Path::new(&cli.id[0]).is_file() => {
                    Start::Match(cli.id[0].clone())
                }
                (false, _) => Start::Id(cli.id.join(" ")),
                (true, true) => Start::Fresh,
                (true, false) => Start::Saved,
            },
            cli.gnubg,
            cli.met.as_deref(),
            cli.library,
            cli.sage_python,
        ),
    }
}
