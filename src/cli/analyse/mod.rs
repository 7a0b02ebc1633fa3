//! `bgedit analyse`: its four ways, chosen by the arguments: each ID's
//! verdict (`positions.rs`), one position at every score of a match
//! (`--score-matrix`, `score_matrix.rs`), every decision of a match file
//! (`--file`, `match_file.rs`), or the live views' tables for each ID
//! (`--sensitivity`, `sensitivity.rs`). This file finds the engines and reads the
//! arguments into each way's options.

pub(crate) mod args;
pub mod match_file;
pub(crate) mod positions;
pub(crate) mod score_matrix;
pub(crate) mod sensitivity;

use crate::cli::input::{Messages, Tally, exit_code};
use crate::cli::output::exit_status;
use args::{AnalyseArgs, EngineArg};
use bgedit_engine::locate::Missing;
use bgedit_engine::{Choice, EngineKind, RolloutSettings};
use std::io::{self, IsTerminal};
use std::path::PathBuf;
use std::process::ExitCode;

pub(crate) use positions::AnalyseOptions;

/// Why the arguments cannot be run (an engine not found, arguments that do
/// not go together): a usage error, exit 2.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Refused {
    /// An option after the IDs (the word as given).
    #[error(
        "'{}' comes after an ID: give the options first (bgedit analyse [OPTIONS] [IDS]...)",
        bgedit_core::quote::printable(.0)
    )]
    OptionAfterIds(String),
    #[error(transparent)]
    NotFound(#[from] Missing),
    #[error("analyse --file takes no IDs")]
    FileTakesNoIds,
    /// A way that takes one engine (`file`, `sensitivity`) asked for both.
    #[error("analyse --{0} takes one engine: --engine gnubg or --engine sage")]
    OneEngine(&'static str),
}

/// Runs `bgedit analyse` on `ids` (standard input when none).
pub fn run(args: AnalyseArgs, ids: &[String]) -> ExitCode {
    match ways(&args, ids) {
        Ok(code) => code,
        Err(e) => {
            bgedit_core::say!("bgedit: {e}");
            ExitCode::from(2)
        }
    }
}

fn ways(args: &AnalyseArgs, ids: &[String]) -> Result<ExitCode, Refused> {
    if let Some(word) = crate::cli::shared_args::misplaced_option(ids) {
        return Err(Refused::OptionAfterIds(word.to_owned()));
    }
    let sage_only = args.engine == EngineArg::Sage;
    let gnubg = match bgedit_engine::locate::find_from_env(args.gnubg.as_deref()) {
        Ok(p) => p,
        // Sage alone needs no gnubg.
        Err(_) if sage_only => PathBuf::from("gnubg"),
        Err(e) => return Err(e.into()),
    };
    if args.score_matrix {
        return Ok(matrix(args, gnubg, ids));
    }
    if let Some(path) = &args.file {
        return match_in_file(args, gnubg, path, ids);
    }
    if args.sensitivity {
        return views(args, gnubg, ids);
    }
    positions_of(args, gnubg, ids)
}

/// The engine processes at work at once: `--jobs`, else one a core.
fn jobs(args: &AnalyseArgs) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    args.jobs.map_or(cores, usize::from)
}

fn sage_python(args: &AnalyseArgs) -> Result<PathBuf, Refused> {
    Ok(bgedit_engine::sage::find_python_from_env(
        args.sage_python.as_deref(),
    )?)
}

/// `--score-matrix`: gnubg's cube decision at every score.
fn matrix(args: &AnalyseArgs, gnubg: PathBuf, ids: &[String]) -> ExitCode {
    let opts = score_matrix::MatrixOptions {
        gnubg,
        plies: args.depth(),
        length: args.length,
        owner: args.owner,
        jobs: jobs(args),
        format: args.format,
        colour: io::stdout().is_terminal(),
    };
    let stdout = io::BufWriter::new(io::stdout().lock());
    exit_status(score_matrix::run(&opts, ids, stdout, io::stderr()))
}

/// `--file`: every decision of a match, by one engine.
fn match_in_file(
    args: &AnalyseArgs,
    gnubg: PathBuf,
    path: &std::path::Path,
    ids: &[String],
) -> Result<ExitCode, Refused> {
    if !ids.is_empty() {
        return Err(Refused::FileTakesNoIds);
    }
    let (engine, program) = match args.engine {
        EngineArg::Both => return Err(Refused::OneEngine("file")),
        EngineArg::Sage => (EngineKind::Sage, sage_python(args)?),
        EngineArg::Gnubg => (EngineKind::Gnubg, gnubg),
    };
    let opts = match_file::FileOptions {
        run: bgedit_engine::match_analysis::RunOptions {
            engine,
            program,
            plies: args.depth(),
            jobs: jobs(args),
            luck: true,
            engines: None,
            min_runs: None,
        },
        format: args.format,
        progress: io::stderr().is_terminal(),
    };
    if let Some(report) = &args.output {
        return Ok(report_to_file(&opts, path, report));
    }
    let stdout = io::BufWriter::new(io::stdout().lock());
    Ok(exit_status(match_file::run(
        &opts,
        path,
        stdout,
        io::stderr(),
    )))
}

/// `--output REPORT`: the report made in memory and written whole once the
/// analysis is done (a report cut short by an error is not left behind).
fn report_to_file(
    opts: &match_file::FileOptions,
    path: &std::path::Path,
    report: &std::path::Path,
) -> ExitCode {
    if let Err(e) = bgedit_core::out_file::not_the_input(report, path) {
        bgedit_core::say!("bgedit: {e}");
        return ExitCode::from(2);
    }
    let mut text = Vec::new();
    let status = match match_file::run(opts, path, &mut text, io::stderr()) {
        Ok(s) => s,
        Err(e) => return exit_status(Err(e)),
    };
    // A file that could not be read (said on standard error) makes no
    // report.
    if text.is_empty() {
        return ExitCode::from(status);
    }
    match bgedit_core::out_file::write_whole(report, path, &text) {
        Ok(()) => ExitCode::from(status),
        Err(e) => {
            bgedit_core::say!("bgedit: {e}");
            ExitCode::from(1)
        }
    }
}

/// `--sensitivity`: the live views' tables, by one engine.
fn views(args: &AnalyseArgs, gnubg: PathBuf, ids: &[String]) -> Result<ExitCode, Refused> {
    let (engine, program) = match args.engine {
        EngineArg::Both => return Err(Refused::OneEngine("sensitivity")),
        EngineArg::Sage => (EngineKind::Sage, sage_python(args)?),
        EngineArg::Gnubg => (EngineKind::Gnubg, gnubg),
    };
    let opts = sensitivity::SensitivityOptions {
        engine,
        program,
        plies: args.depth(),
        format: args.format,
    };
    let stdout = io::BufWriter::new(io::stdout().lock());
    let outcome = sensitivity::run(&opts, ids, io::stdin(), stdout, io::stderr());
    Ok(exit_code(outcome))
}

/// The rollout asked for with `--rollout`, if any.
fn rollout_settings(args: &AnalyseArgs) -> Option<RolloutSettings> {
    args.rollout.then_some(RolloutSettings {
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
    })
}

/// Each ID's verdict, by the engines chosen.
fn positions_of(args: &AnalyseArgs, gnubg: PathBuf, ids: &[String]) -> Result<ExitCode, Refused> {
    let mut engines = Vec::new();
    for kind in Choice::from(args.engine).kinds() {
        match kind {
            EngineKind::Gnubg => engines.push((kind, gnubg.clone())),
            EngineKind::Sage => engines.push((kind, sage_python(args)?)),
        }
    }
    let opts = AnalyseOptions {
        engines,
        threads: args.threads,
        plies: args.depth(),
        moves: args.moves,
        jobs: jobs(args),
        format: args.format,
        progress: io::stderr().is_terminal(),
        rollout: rollout_settings(args),
    };
    let stdout = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let stderr = Messages::new(io::stderr());
    let outcome = positions::run(&opts, ids, io::stdin(), stdout, stderr);
    Ok(exit_code(outcome.map(|r| Tally {
        converted: 0,
        failed: r.failed,
    })))
}
