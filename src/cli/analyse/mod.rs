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

use crate::cli::engine_args::NotOne;
use crate::cli::input::{Messages, Tally, exit_code};
use crate::cli::output::exit_status;
use args::AnalyseArgs;
use bgedit_engine::{EngineError, RolloutSettings};
use std::io::{self, IsTerminal};
use std::process::ExitCode;

pub(crate) use positions::AnalyseOptions;

/// Why the arguments cannot be run (an engine not found, arguments that do
/// not go together): a usage error, exit 2.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Refused {
    #[error("'{0}' comes after an ID: give the options first (bgedit analyse [OPTIONS] [IDS]...)")]
    OptionAfterId(String),
    #[error("analyse --file takes no IDs")]
    FileTakesNoIds,
    #[error(transparent)]
    NotOne(#[from] NotOne),
    #[error(transparent)]
    Engine(#[from] EngineError),
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
        return Err(Refused::OptionAfterId(
            bgedit_core::quote::printable(word).into_owned(),
        ));
    }
    if args.score_matrix {
        return matrix(args, ids);
    }
    if let Some(path) = &args.file {
        return match_in_file(args, path, ids);
    }
    if args.sensitivity {
        return views(args, ids);
    }
    positions_of(args, ids)
}

/// The engine processes at work at once: `--jobs`, else one a core.
fn jobs(args: &AnalyseArgs) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    args.jobs.map_or(cores, usize::from)
}

/// `--score-matrix`: one engine's cube decision at every score.
fn matrix(args: &AnalyseArgs, ids: &[String]) -> Result<ExitCode, Refused> {
    let engine = args.engines.one("analyse --score-matrix")?;
    let opts = score_matrix::MatrixOptions {
        engine,
        program: args.engines.setup.program(engine)?,
        plies: args.depth(),
        length: args.length,
        owner: args.owner,
        jobs: jobs(args),
        format: args.format,
        colour: io::stdout().is_terminal(),
    };
    let stdout = io::BufWriter::new(io::stdout().lock());
    Ok(exit_status(score_matrix::run(
        &opts,
        ids,
        stdout,
        io::stderr(),
    )))
}

/// `--file`: every decision of a match, by one engine.
fn match_in_file(
    args: &AnalyseArgs,
    path: &std::path::Path,
    ids: &[String],
) -> Result<ExitCode, Refused> {
    if !ids.is_empty() {
        return Err(Refused::FileTakesNoIds);
    }
    let engine = args.engines.one("analyse --file")?;
    let program = args.engines.setup.program(engine)?;
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
fn views(args: &AnalyseArgs, ids: &[String]) -> Result<ExitCode, Refused> {
    let engine = args.engines.one("analyse --sensitivity")?;
    let program = args.engines.setup.program(engine)?;
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
        truncate_plies: args.truncate_plies,
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
fn positions_of(args: &AnalyseArgs, ids: &[String]) -> Result<ExitCode, Refused> {
    let mut engines = Vec::new();
    for kind in args.engines.choice.kinds() {
        engines.push((kind, args.engines.setup.program(kind)?));
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
