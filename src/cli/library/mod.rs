//! `bgedit library …`: the study library from the command line. Each
//! subcommand is a file of its own, its arguments beside its `run`; this
//! file holds the subcommands' enum and the dispatch: the library opened,
//! the subcommand run, its output flushed and its failure said. Each
//! subcommand reports per input line as `show` and `convert` do (`line N:`
//! / `argument N:`, exit 1 on any bad one).

mod add;
mod alias;
mod analyse;
mod date;
mod disagreements;
mod export;
mod import;
mod like;
mod lines;
mod list;
mod matches;
mod merge;
mod progress;
mod resolve;
mod rm;
mod show;

use bgedit_library::store::{self, Library};
use clap::Subcommand;
pub use import::{ImportReport, import_text};
use std::io::{self, Write};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct LibraryArgs {
    /// The library file [default: $BGEDIT_DATA_DIR/library.sqlite, else
    /// $XDG_DATA_HOME/bgedit/library.sqlite].
    #[arg(long, value_name = "FILE")]
    pub library: Option<PathBuf>,
    #[command(subcommand)]
    pub command: LibraryCommand,
}

/// The subcommands; each variant's doc comment is its help.
#[derive(Subcommand, Debug)]
pub enum LibraryCommand {
    /// Add positions (IDs in any format; standard input when none).
    Add(add::AddArgs),
    /// List every entry, newest first.
    List(list::ListArgs),
    /// List the entries a filter matches (see the README's filter language).
    Search(list::SearchArgs),
    /// Show an entry: by number, or by any ID of its position.
    Show(show::ShowArgs),
    /// Remove entries: by number, or by any ID of their position.
    Rm(rm::RmArgs),
    /// Import files: IDs one per line, XG text exports, and match files
    /// (gnubg SGF, Jellyfish .mat, gnubg's match text, XG): every decision
    /// of every game, each with its source `FILE game N move M`.
    Import(import::ImportArgs),
    /// Analyse the library's matches not yet analysed by the engine at the
    /// depth, storing each game's verdicts as they are done: stopped (even
    /// killed), run it again and it goes on where it stopped.
    Analyse(analyse::AnalyseArgs),
    /// Where two engines disagree: the positions whose best moves or cube
    /// actions differ by at least GAP by either engine's numbers, worst
    /// first.
    ///
    /// Evaluates the positions QUERY selects (all when none) with both
    /// engines, each comparison stored as it is done (keyed by entry,
    /// engines and depth): stopped, even killed, run it again and it goes
    /// on where it stopped. The filter word `disagree>=GAP` selects by
    /// them.
    Disagreements(disagreements::DisagreementsArgs),
    /// Merge other libraries' matches and analyses into this one (a match
    /// once by its content, each verdict once by its decision, engine and
    /// depth): the shards of `analyse --shard` made one.
    Merge(merge::MergeArgs),
    /// Export the entries a filter matches (all when none).
    Export(export::ExportArgs),
    /// List the matches: date, players, length, final score, winner, the
    /// analyses each has and each player's PR (see the README's "Matches
    /// in the library").
    Matches(matches::MatchesArgs),
    /// Set a match's date by hand (YYYY-MM-DD), for a match whose file
    /// carries none.
    Date(date::DateArgs),
    /// Group a player's names as one person (`nori`, `bgnori`, a team's
    /// name): `alias NAME --as PERSON`; `--remove` ungroups; no NAME lists
    /// the aliases.
    Alias(alias::AliasArgs),
    /// The positions nearest one (an entry's number or any ID), nearest
    /// first: by how far each side's checkers are from the other
    /// position's, in checker-pips (docs/library.md).
    Like(like::LikeArgs),
}

/// `--errors E` (`import`), `--min GAP` (`disagreements`): an equity lost,
/// a finite number, 0 or more (`NaN` would compare false with every error
/// and keep nothing without a word).
fn error_threshold(text: &str) -> Result<f64, ThresholdError> {
    let e: f64 = text
        .trim()
        .parse()
        .map_err(|_| ThresholdError::NotANumber(text.to_owned()))?;
    if !e.is_finite() || e < 0.0 {
        return Err(ThresholdError::NotAnEquityLost(e));
    }
    Ok(e)
}

/// An `--errors` or `--min` that is not an equity lost.
#[derive(Debug, thiserror::Error)]
enum ThresholdError {
    /// The text as given.
    #[error("'{}' is not a number", bgedit_core::quote::printable(.0))]
    NotANumber(String),
    #[error("{0} is not an equity lost: give a number 0 or more, such as 0.05")]
    NotAnEquityLost(f64),
}

/// Runs a library command; the exit code is 0, 1 (some input was bad), 2
/// (the library could not be used) or 141 (the output was closed).
pub fn run(args: LibraryArgs) -> std::process::ExitCode {
    std::process::ExitCode::from(status(args))
}

fn status(args: LibraryArgs) -> u8 {
    let Some(path) = args.library.or_else(store::default_path) else {
        bgedit_core::say!("bgedit: no data directory; give the library with --library FILE");
        return 2;
    };
    // Only what adds to a library makes one: a command that reads it (or
    // works on what is in it) given a path where none is, a mistyped one
    // most likely, says so instead of answering from an empty library.
    let makes = matches!(
        args.command,
        LibraryCommand::Add(_) | LibraryCommand::Import(_) | LibraryCommand::Merge(_)
    );
    let opened = if makes {
        Library::open(&path)
    } else {
        Library::open_existing(&path)
    };
    let mut lib = match opened {
        Ok(l) => l,
        Err(e) => {
            bgedit_core::say!("bgedit: {}", store::describe(&path, &e));
            return 2;
        }
    };
    // A library from before schema 9 learns its matches' identities before
    // anything compares them (the same match in another format, shards).
    let by_identity = matches!(
        args.command,
        LibraryCommand::Import(_) | LibraryCommand::Analyse(_) | LibraryCommand::Merge(_)
    );
    if by_identity && let Err(e) = bgedit_library::match_import::fill_identities(&mut lib) {
        bgedit_core::say!("bgedit: {}", lib.describe(&e));
        return 2;
    }
    let mut out = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let result = dispatch(&mut lib, args.command, &mut out);
    let flushed = out.flush();
    match (result, flushed) {
        (Ok(code), Ok(())) => code,
        // Output not delivered never exits 0, as every command.
        (Err(Failure::Pipe), _) => super::output::BROKEN_PIPE,
        (_, Err(e)) => super::output::write_failed_status(&e),
        (Err(Failure::Library(e)), _) => {
            bgedit_core::say!("bgedit: {}", store::describe(&path, &e));
            2
        }
        (Err(e), _) => {
            bgedit_core::say!("bgedit: {e}");
            2
        }
    }
}

/// Each subcommand to its `run`.
fn dispatch(
    lib: &mut Library,
    command: LibraryCommand,
    out: &mut impl Write,
) -> Result<u8, Failure> {
    match command {
        LibraryCommand::Add(args) => add::run(lib, args, out),
        LibraryCommand::List(args) => list::run(lib, args, out),
        LibraryCommand::Search(args) => list::search(lib, args, out),
        LibraryCommand::Show(args) => show::run(lib, args, out),
        LibraryCommand::Rm(args) => rm::run(lib, args, out),
        LibraryCommand::Import(args) => import::run(lib, args, out),
        LibraryCommand::Analyse(args) => analyse::run(lib, args, out),
        LibraryCommand::Disagreements(args) => disagreements::run(lib, args, out),
        LibraryCommand::Merge(args) => merge::run(lib, args, out),
        LibraryCommand::Export(args) => export::run(lib, args, out),
        LibraryCommand::Matches(args) => matches::run(lib, args, out),
        LibraryCommand::Date(args) => date::run(lib, args, out),
        LibraryCommand::Alias(args) => alias::run(lib, args, out),
        LibraryCommand::Like(args) => like::run(lib, args, out),
    }
}

/// Why a subcommand stopped: said once, by [`status`].
#[derive(Debug, thiserror::Error)]
enum Failure {
    /// The reader went away (`| head`): stop quietly.
    #[error("the output was closed")]
    Pipe,
    /// Reading the input or writing the output failed.
    #[error(transparent)]
    Io(io::Error),
    /// The library failed: said naming its file.
    #[error(transparent)]
    Library(#[from] store::LibraryError),
    #[error(transparent)]
    Filter(#[from] bgedit_library::filter::FilterError),
    /// An engine's program is not found.
    #[error(transparent)]
    NoEngine(#[from] bgedit_engine::EngineError),
    /// `--engine both` where one engine is asked.
    #[error(transparent)]
    NotOne(#[from] crate::cli::engine_args::NotOne),
    /// The entry named is none (`show`).
    #[error(transparent)]
    Unresolved(resolve::Unresolved),
    #[error(transparent)]
    Export(#[from] export::ExportError),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        if super::output::is_broken_pipe(&e) {
            Failure::Pipe
        } else {
            Failure::Io(e)
        }
    }
}

impl From<resolve::Unresolved> for Failure {
    fn from(e: resolve::Unresolved) -> Failure {
        match e {
            resolve::Unresolved::Library(e) => Failure::Library(e),
            e => Failure::Unresolved(e),
        }
    }
}
