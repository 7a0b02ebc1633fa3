//! `library import FILE|DIR...`: match files kept as matches
//! (`matches.rs`), other files named on the command line read as
//! positions (`stream.rs`), directories walked for match files
//! (`inputs.rs`), with a count of what each file gave and of the whole.

mod inputs;
mod matches;
mod stream;

use super::Failure;
use super::progress::Progress;
use bgedit_core::codec::match_file;
use bgedit_library::store::Library;
use matches::import_match;
use std::io::{self, Read, Write};
use std::path::PathBuf;
pub(super) use stream::IMPORT_BATCH;
use stream::{HEAD_BYTES, import_stream};
pub use stream::{ImportReport, import_text};

// No doc comment: the subcommand's help is its variant's in `mod.rs`.
#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Match files: keep only decisions that gave away at least E
    /// equity by the file's own analysis (e.g. 0.05).
    #[arg(long, value_name = "E", value_parser = super::error_threshold)]
    errors: Option<f64>,
}

/// What one `import` did across its files, said at its end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Tally {
    pub files: u64,
    pub new_matches: u64,
    pub known_matches: u64,
    pub positions: u64,
    pub failed: u64,
    /// Match files imported with moves skipped as gnubg skips them (a
    /// move that is not legal, a roll before a resignation), and the moves.
    pub skipped_files: u64,
    pub skipped_moves: u64,
    /// Files in the directories given that hold no match.
    pub passed_over: u64,
}

/// Imports each file, and each match file under each directory; the exit
/// status: 0, 1 when a file or a line could not be read (the rest was
/// imported), 2 when the library failed part way.
pub(super) fn run(
    lib: &mut Library,
    args: ImportArgs,
    out: &mut impl Write,
) -> Result<u8, Failure> {
    let errors = args.errors;
    let mut tally = Tally::default();
    let inputs = inputs::expand(&args.files, &mut tally.failed);
    let mut code = u8::from(tally.failed > 0);
    let mut bar = inputs::FileProgress::new(inputs.len());
    for (n, input) in inputs.iter().enumerate() {
        bar.set(n);
        let step = import_one(lib, input, errors, &mut tally, out);
        let step = match step {
            Ok(c) => c,
            Err(e) => {
                bar.finish();
                return Err(e);
            }
        };
        code = code.max(step);
        if step == 2 {
            break;
        }
    }
    bar.finish();
    let plural = bgedit_core::words::count;
    let skipped = match tally.skipped_files {
        0 => String::new(),
        n => format!(
            ", {} imported with {} skipped as gnubg skips them",
            plural(n as usize, "file", "files"),
            plural(tally.skipped_moves as usize, "move", "moves")
        ),
    };
    bgedit_core::say!(
        "imported {}: {}, {} already there, {} added{skipped}, {} failed{}",
        plural(tally.files as usize, "file", "files"),
        plural(tally.new_matches as usize, "new match", "new matches"),
        tally.known_matches,
        plural(tally.positions as usize, "position", "positions"),
        tally.failed,
        if tally.passed_over > 0 {
            format!(", {} without a match passed over", tally.passed_over)
        } else {
            String::new()
        }
    );
    Ok(code)
}

/// Imports one file: a match file as a match, another file named on the
/// command line as positions (IDs one a line, XG's text export).
fn import_one(
    lib: &mut Library,
    input: &inputs::Input,
    errors: Option<f64>,
    tally: &mut Tally,
    out: &mut impl Write,
) -> Result<u8, Failure> {
    let file = &input.path;
    // A file's name is printed at the head of lines: escaped.
    let shown = bgedit_core::quote::printable(&file.display().to_string()).into_owned();
    // A FIFO or a device is refused before it is read (or blocks).
    let opened = match bgedit_core::regular_file::open(file) {
        Ok(f) => f,
        Err(e) => {
            bgedit_core::say!("{shown}: cannot read it: {e}");
            tally.failed += 1;
            return Ok(1);
        }
    };
    // A match file is known by its first bytes and read within the
    // match cap, never whole first.
    if is_match_file(&opened) {
        tally.files += 1;
        let code = import_match(lib, file, &shown, errors, tally, out)?;
        return Ok(code);
    }
    if input.found {
        tally.passed_over += 1;
        return Ok(0);
    }
    tally.files += 1;
    if let Err(e) = io::Seek::rewind(&mut (&opened)) {
        bgedit_core::say!("{shown}: cannot read it: {e}");
        tally.failed += 1;
        return Ok(1);
    }
    let total = opened.metadata().map_or(0, |m| m.len());
    let mut bar = Progress::new("importing", total);
    let mut done = ImportReport::default();
    let result = import_stream(lib, &shown, opened, |n| bar.set(n), &mut done);
    bar.finish();
    let report = match result {
        Ok(r) => r,
        Err(e) => {
            // What was written before the failure stays: say how much,
            // and stop (the next files would fail the same way).
            bgedit_core::say!(
                "{shown}: import stopped: {}; {} added and {} merged before it were kept",
                lib.describe(&e),
                done.added,
                done.merged
            );
            return Ok(2);
        }
    };
    tally.positions += report.added;
    if report.failed > 0 {
        tally.failed += 1;
    }
    writeln!(
        out,
        "{shown}: {} added, {} already there (merged), {} failed",
        report.added, report.merged, report.failed
    )?;
    Ok(u8::from(report.failed > 0))
}

/// Whether `file` starts as a match file does; read from its start.
fn is_match_file(file: &std::fs::File) -> bool {
    let mut head = Vec::new();
    file.take(HEAD_BYTES).read_to_end(&mut head).is_ok() && match_file::detect(&head).is_some()
}
