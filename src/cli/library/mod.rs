//! `bgedit library …`: the study library from the command line. Each
//! subcommand opens the library, does its job and reports per input line as
//! `show` and `convert` do (`line N:` / `argument N:`, exit 1 on any bad one).

use crate::cli::output::OutputFormat;
use bgedit_core::codec::text_board;
use bgedit_core::codec::{self, match_file};
use bgedit_core::domain::Position;
use bgedit_library::export::{self, ExportFormat};
use bgedit_library::filter;
use bgedit_library::import::{self, FileFormat};
use bgedit_library::store::{self, Added, Entry, Library, NewEntry, Source};
use clap::{Subcommand, ValueEnum};

mod analyse;
mod disagreements;
mod inputs;
mod matches;
mod merge;
use matches::import_match;
use std::io::{self, BufRead, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

/// Longest input line read, in bytes.
const MAX_LINE: usize = 1 << 20;
/// Positions written in one transaction by `import`.
const IMPORT_BATCH: usize = 10_000;

#[derive(clap::Args, Debug)]
pub struct LibraryArgs {
    /// The library file [default: $BGEDIT_DATA_DIR/library.sqlite, else
    /// $XDG_DATA_HOME/bgedit/library.sqlite].
    #[arg(long, value_name = "FILE")]
    pub library: Option<PathBuf>,
    #[command(subcommand)]
    pub command: LibraryCommand,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportArg {
    Xgid,
    Gnubg,
    Jsonl,
    Csv,
    Anki,
}

impl From<ExportArg> for ExportFormat {
    fn from(f: ExportArg) -> ExportFormat {
        match f {
            ExportArg::Xgid => ExportFormat::Xgid,
            ExportArg::Gnubg => ExportFormat::Gnubg,
            ExportArg::Jsonl => ExportFormat::Jsonl,
            ExportArg::Csv => ExportFormat::Csv,
            ExportArg::Anki => ExportFormat::Anki,
        }
    }
}

/// `--sort`: the list's order.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum SortArg {
    /// The newest entry first.
    Newest,
    /// The largest error first (entries without one last).
    Error,
}

impl From<SortArg> for store::Order {
    fn from(s: SortArg) -> store::Order {
        match s {
            SortArg::Newest => store::Order::Newest,
            SortArg::Error => store::Order::Error,
        }
    }
}

#[derive(Subcommand, Debug)]
pub enum LibraryCommand {
    /// Add positions (IDs in any format; standard input when none).
    Add {
        #[arg(long)]
        title: Option<String>,
        /// A tag (repeatable).
        #[arg(long = "tag")]
        tags: Vec<String>,
        /// A collection to put the positions in (repeatable).
        #[arg(long = "collection")]
        collections: Vec<String>,
        #[arg(allow_hyphen_values = true)]
        ids: Vec<String>,
    },
    /// List every entry, newest first.
    List {
        #[arg(long, value_enum, default_value = "text")]
        format: OutputFormat,
        /// The order: newest first, or the largest error first (match
        /// decisions without an error last).
        #[arg(long, value_enum, default_value = "newest")]
        sort: SortArg,
    },
    /// List the entries a filter matches (see the README's filter language).
    Search {
        #[arg(long, value_enum, default_value = "text")]
        format: OutputFormat,
        #[arg(long, value_enum, default_value = "newest")]
        sort: SortArg,
        /// The filter, as one or more words.
        #[arg(required = true, allow_hyphen_values = true)]
        query: Vec<String>,
    },
    /// Show an entry: by number, or by any ID of its position.
    Show { entry: String },
    /// Remove entries: by number, or by any ID of their position.
    Rm {
        #[arg(required = true)]
        entries: Vec<String>,
    },
    /// Import files: IDs one per line, XG text exports, and match files
    /// (gnubg SGF, Jellyfish .mat, gnubg's match text, XG): every decision
    /// of every game, each with its source `FILE game N move M`.
    Import {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Match files: keep only decisions that gave away at least E
        /// equity by the file's own analysis (e.g. 0.05).
        #[arg(long, value_name = "E", value_parser = error_threshold)]
        errors: Option<f64>,
    },
    /// Analyse the library's matches not yet analysed by the engine at the
    /// depth, storing each game's verdicts as they are done: stopped (even
    /// killed), run it again and it goes on where it stopped.
    Analyse {
        /// The depth, in gnubg's count (0-ply is its quickest).
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=4))]
        plies: u8,
        /// The engine (one; the reference when not given), and each
        /// engine's program and data.
        #[command(flatten)]
        engines: crate::cli::engine_args::EngineArgs,
        /// Engine processes at work at once (one a core when not given).
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..))]
        jobs: Option<u8>,
        /// Only the K-th of N disjoint parts of the matches (by their
        /// content hash), e.g. 1/2 here and 2/2 on another machine.
        #[arg(long, value_name = "K/N", value_parser = analyse::shard)]
        shard: Option<analyse::Shard>,
        /// Only the matches with every word among their players, event,
        /// date or file name.
        #[arg(allow_hyphen_values = true)]
        query: Vec<String>,
    },
    /// Where two engines disagree: the positions whose best moves or cube
    /// actions differ by at least GAP by either engine's numbers, worst
    /// first.
    ///
    /// Evaluates the positions QUERY selects (all when none) with both
    /// engines, each comparison stored as it is done (keyed by entry,
    /// engines and depth): stopped, even killed, run it again and it goes
    /// on where it stopped. The filter word `disagree>=GAP` selects by
    /// them.
    Disagreements {
        /// The two engines, by their keys [default: every engine, the
        /// reference first].
        #[arg(long, value_name = "A,B", value_parser = disagreements::pair)]
        engines: Option<disagreements::Pair>,
        /// The depth, in gnubg's count (as `library analyse`).
        #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=3))]
        plies: u8,
        /// The least gap listed: what the other engine's pick costs by an
        /// engine's own numbers (money equity, or normalised equity in
        /// match play).
        #[arg(long, value_name = "GAP", default_value_t = 0.05, value_parser = error_threshold)]
        min: f64,
        /// Jobs at once, each with both engines (one a core when not
        /// given).
        #[arg(long, value_parser = clap::value_parser!(u8).range(1..))]
        jobs: Option<u8>,
        /// Put the listed positions in this collection (for rollouts).
        #[arg(long, value_name = "NAME")]
        collection: Option<String>,
        /// Each engine's program and data.
        #[command(flatten)]
        programs: crate::cli::engine_args::EnginePrograms,
        #[arg(long, value_enum, default_value = "text")]
        format: OutputFormat,
        /// The filter (the filter language), as one or more words.
        #[arg(allow_hyphen_values = true)]
        query: Vec<String>,
    },
    /// Merge other libraries' matches and analyses into this one (a match
    /// once by its content, each verdict once by its decision, engine and
    /// depth): the shards of `analyse --shard` made one.
    Merge {
        #[arg(required = true)]
        libraries: Vec<PathBuf>,
    },
    /// Export the entries a filter matches (all when none).
    Export {
        #[arg(long, value_enum, default_value = "xgid")]
        format: ExportArg,
        /// With `--format anki`: draw each position as a PNG (as `bgedit
        /// image` draws it) into this folder (Anki's `collection.media`,
        /// or one whose files are copied there); the notes show the
        /// pictures instead of text boards.
        #[arg(long, value_name = "DIR")]
        media: Option<PathBuf>,
        #[arg(allow_hyphen_values = true)]
        query: Vec<String>,
    },
}

/// `--errors E`: an equity lost, a finite number, 0 or more (`NaN` would
/// compare false with every error and keep nothing without a word).
fn error_threshold(text: &str) -> Result<f64, String> {
    let e: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{}' is not a number", bgedit_core::quote::printable(text)))?;
    if !e.is_finite() || e < 0.0 {
        return Err(format!(
            "{e} is not an equity lost: give a number 0 or more, such as 0.05"
        ));
    }
    Ok(e)
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
    let mut lib = match Library::open(&path) {
        Ok(l) => l,
        Err(e) => {
            bgedit_core::say!("bgedit: {}", store::describe(&path, &e));
            return 2;
        }
    };
    let stdout = io::stdout().lock();
    let mut out = io::BufWriter::with_capacity(64 * 1024, stdout);
    // A library from before schema 9 learns its matches' identities before
    // anything compares them (the same match in another format, shards).
    let by_identity = matches!(
        args.command,
        LibraryCommand::Import { .. }
            | LibraryCommand::Analyse { .. }
            | LibraryCommand::Merge { .. }
    );
    if by_identity && let Err(e) = bgedit_library::match_import::fill_identities(&mut lib) {
        bgedit_core::say!("bgedit: {}", lib.describe(&e));
        return 2;
    }
    let result = match args.command {
        LibraryCommand::Add {
            title,
            tags,
            collections,
            ids,
        } => add(&mut lib, title, tags, collections, &ids, &mut out),
        LibraryCommand::List { format, sort } => list(&lib, "", format, sort.into(), &mut out),
        LibraryCommand::Search {
            format,
            query,
            sort,
        } => list(&lib, &query.join(" "), format, sort.into(), &mut out),
        LibraryCommand::Show { entry } => show(&lib, &entry, &mut out),
        LibraryCommand::Rm { entries } => rm(&mut lib, &entries, &mut out),
        LibraryCommand::Import { files, errors } => {
            import_files(&mut lib, &files, errors, &mut out)
        }
        LibraryCommand::Analyse {
            plies,
            engines,
            jobs,
            shard,
            query,
        } => {
            let engine = match engines.one("library analyse") {
                Ok(kind) => kind,
                Err(e) => {
                    bgedit_core::say!("bgedit: {e}");
                    return 2;
                }
            };
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            let opts = analyse::AnalyseOptions {
                engine,
                setup: engines.setup,
                plies,
                jobs: jobs.map_or(cores, usize::from),
                shard,
                query,
            };
            if let Err(e) = super::signals::clean_up_on_signals() {
                bgedit_core::say!("bgedit: installing signal handlers: {e}");
            }
            analyse::analyse(&mut lib, &opts, &mut out)
        }
        LibraryCommand::Disagreements {
            engines,
            plies,
            min,
            jobs,
            collection,
            programs,
            format,
            query,
        } => {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            let opts = disagreements::Options {
                engines: engines.unwrap_or_else(disagreements::Pair::every),
                setup: programs.setup,
                plies,
                min,
                jobs: jobs.map_or(cores, usize::from),
                collection,
                format,
                query: query.join(" "),
            };
            if let Err(e) = super::signals::clean_up_on_signals() {
                bgedit_core::say!("bgedit: installing signal handlers: {e}");
            }
            disagreements::disagreements(&mut lib, &opts, &mut out)
        }
        LibraryCommand::Merge { libraries } => merge::merge(&mut lib, &libraries, &mut out),
        LibraryCommand::Export {
            format,
            media,
            query,
        } => export_entries(
            &lib,
            &query.join(" "),
            format.into(),
            media.as_deref(),
            &mut out,
        ),
    };
    let flushed = out.flush();
    match (result, flushed) {
        (Ok(code), Ok(())) => code,
        // Output not delivered never exits 0, as every command.
        (Err(Failure::Pipe), _) => super::output::BROKEN_PIPE,
        (_, Err(e)) => super::output::write_failed_status(&e),
        (Err(Failure::Message(m)), _) => {
            bgedit_core::say!("bgedit: {m}");
            2
        }
        (Err(Failure::Library(e)), _) => {
            bgedit_core::say!("bgedit: {}", store::describe(&path, &e));
            2
        }
    }
}

/// Why a command stopped.
pub(crate) enum Failure {
    /// The reader went away (`| head`): stop quietly.
    Pipe,
    Message(String),
    /// The library failed: printed naming its file.
    Library(store::LibraryError),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        if super::output::is_broken_pipe(&e) {
            Failure::Pipe
        } else {
            Failure::Message(e.to_string())
        }
    }
}

impl From<store::LibraryError> for Failure {
    fn from(e: store::LibraryError) -> Failure {
        Failure::Library(e)
    }
}

/// Calls `each` on every argument, or every line of standard input when
/// there are none, reporting errors as `argument N:` / `line N:`. Returns
/// how many failed.
pub(crate) fn each_input(
    args: &[String],
    each: impl FnMut(&str) -> Result<Option<String>, String>,
    out: &mut impl Write,
) -> Result<u64, Failure> {
    each_input_batched(args, each, |done| done.into_iter().map(Ok).collect(), out)
}

/// Lines answered per batch at most: as many as an import writes in one
/// transaction.
const LINE_BATCH: usize = IMPORT_BATCH;

/// Like [`each_input`], with the answers given by `commit` for a batch of
/// what `parse` made of the lines (a batch of writes is one transaction).
/// A batch is committed when it is full or when no more input is waiting
/// to be read: a script feeding one line at a time gets each answer before
/// it sends the next, and a file piped in is written ten thousand lines at a
/// time.
pub(crate) fn each_input_batched<T>(
    args: &[String],
    parse: impl FnMut(&str) -> Result<T, String>,
    commit: impl FnMut(Vec<T>) -> Vec<Result<Option<String>, String>>,
    out: &mut impl Write,
) -> Result<u64, Failure> {
    let mut b = Batcher {
        parse,
        commit,
        batch: Vec::new(),
        failed: 0,
    };
    if !args.is_empty() {
        for (i, a) in args.iter().enumerate() {
            b.take(format!("argument {}", i + 1), a, out)?;
            if b.batch.len() >= LINE_BATCH {
                b.answer(out)?;
            }
        }
        b.answer(out)?;
        return Ok(b.failed);
    }
    // A reader of its own, to see whether more input is already waiting.
    let mut input = io::BufReader::with_capacity(64 * 1024, io::stdin().lock());
    let mut raw = Vec::new();
    let mut number = 0u64;
    loop {
        raw.clear();
        let n = (&mut input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut raw)?;
        if n == 0 {
            break;
        }
        number += 1;
        if raw.len() > MAX_LINE && !raw.ends_with(b"\n") {
            // Skip the rest of an over-long line.
            let mut rest = Vec::new();
            input.read_until(b'\n', &mut rest)?;
            b.fail(
                format!("line {number}: longer than {MAX_LINE} bytes; skipped"),
                out,
            )?;
            continue;
        }
        match std::str::from_utf8(&raw) {
            Ok(line) => b.take(format!("line {number}"), line.trim_end(), out)?,
            Err(e) => b.fail(
                format!(
                    "line {number}: not UTF-8 text (byte {})",
                    e.valid_up_to() + 1
                ),
                out,
            )?,
        }
        if b.batch.len() >= LINE_BATCH || input.buffer().is_empty() {
            b.answer(out)?;
        }
    }
    b.answer(out)?;
    Ok(b.failed)
}

/// The inputs parsed and not yet answered, and how many failed.
struct Batcher<T, P, C> {
    parse: P,
    commit: C,
    batch: Vec<(String, T)>,
    failed: u64,
}

impl<T, P, C> Batcher<T, P, C>
where
    P: FnMut(&str) -> Result<T, String>,
    C: FnMut(Vec<T>) -> Vec<Result<Option<String>, String>>,
{
    /// Answers the batch, in input order.
    fn answer(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.batch.is_empty() {
            return Ok(());
        }
        let (origins, items): (Vec<String>, Vec<T>) = self.batch.drain(..).unzip();
        for (origin, answer) in origins.iter().zip((self.commit)(items)) {
            match answer {
                Ok(Some(line)) => writeln!(out, "{}", bgedit_core::quote::printable(&line))?,
                Ok(None) => {}
                Err(e) => {
                    bgedit_core::say!("{origin}: {e}");
                    self.failed += 1;
                }
            }
        }
        out.flush()
    }

    /// A bad input, reported after the answers to those before it.
    fn fail(&mut self, message: String, out: &mut dyn Write) -> io::Result<()> {
        self.answer(out)?;
        bgedit_core::say!("{message}");
        self.failed += 1;
        Ok(())
    }

    fn take(&mut self, origin: String, text: &str, out: &mut dyn Write) -> io::Result<()> {
        if text.trim().is_empty() {
            return Ok(());
        }
        match (self.parse)(text) {
            Ok(item) => {
                self.batch.push((origin, item));
                Ok(())
            }
            Err(e) => self.fail(format!("{origin}: {e}"), out),
        }
    }
}

fn added_text(added: Added, lib: &Library) -> String {
    match added {
        Added::New(id) => format!("added entry {id}"),
        Added::Existing(id) => {
            let title = lib.get(id).map(|e| e.title).unwrap_or_default();
            if title.is_empty() {
                format!("already in the library as entry {id}")
            } else {
                format!("already in the library as entry {id} ({title})")
            }
        }
    }
}

fn add(
    lib: &mut Library,
    title: Option<String>,
    tags: Vec<String>,
    collections: Vec<String>,
    ids: &[String],
    out: &mut impl Write,
) -> Result<u8, Failure> {
    let base = Position::default();
    let failed = each_input_batched(
        ids,
        |text| {
            let imported = codec::parse_any(text, &base).map_err(|e| e.to_string())?;
            let mut entry = NewEntry::new(imported.position, Source::Typed);
            entry.title = title.clone().unwrap_or_default();
            entry.tags = tags.clone();
            entry.collections = collections.clone();
            store::check_entry(&entry).map_err(|e| e.to_string())?;
            Ok(entry)
        },
        |entries| {
            // One transaction for the batch, as `import` writes; should it
            // fail, each entry alone, so the failure is the right line's.
            match lib.add_all(&entries) {
                Ok(added) => added
                    .into_iter()
                    .map(|a| Ok(Some(added_text(a, lib))))
                    .collect(),
                Err(_) => entries
                    .iter()
                    .map(|entry| {
                        let added = lib.add(entry);
                        let added = added.map_err(|e| lib.describe(&e))?;
                        Ok(Some(added_text(added, lib)))
                    })
                    .collect(),
            }
        },
        out,
    )?;
    Ok(u8::from(failed > 0))
}

/// `text` in exactly `width` characters: padded, or cut with `…` so that a
/// long title never pushes the columns after it out of line.
fn column(text: &str, width: usize) -> String {
    let count = text.chars().count();
    if count <= width {
        return format!("{text}{}", " ".repeat(width - count));
    }
    let mut cut: String = text.chars().take(width - 1).collect();
    cut.push('…');
    cut
}

/// A decision's error and gnubg's mark, as the list shows it: `0.083 ?`.
fn error_text(error: Option<f64>) -> String {
    error.map_or_else(String::new, |e| {
        format!("{e:.3} {}", bgedit_core::domain::skill::Skill::of(e).mark())
    })
}

fn list(
    lib: &Library,
    query: &str,
    format: OutputFormat,
    order: store::Order,
    out: &mut impl Write,
) -> Result<u8, Failure> {
    let query = filter::parse(query).map_err(|e| Failure::Message(e.to_string()))?;
    let mut write_error = None;
    lib.for_each_summary(&query, order, |s| {
        let written = match format {
            OutputFormat::Text => writeln!(
                out,
                "{}",
                bgedit_core::quote::Shown(format_args!(
                    "{:>6}  {}  {}  {:<10}  O {:>3} X {:>3}  {} on roll{}",
                    s.id,
                    column(&s.title, 24),
                    column(&s.tags, 16),
                    s.match_text(),
                    s.derived.pips_o,
                    s.derived.pips_x,
                    s.derived.on_roll,
                    s.error
                        .map_or_else(String::new, |e| format!("  error {}", error_text(Some(e))))
                ))
            ),
            OutputFormat::Json => writeln!(
                out,
                "{}",
                bgedit_core::quote::json(&serde_json::json!({
                    "id": s.id,
                    "title": s.title,
                    "tags": s.tags.split_whitespace().collect::<Vec<_>>(),
                    "match_length": s.derived.match_length,
                    "score": {"O": s.score[0], "X": s.score[1]},
                    "crawford": s.derived.crawford,
                    "pips": {"O": s.derived.pips_o, "X": s.derived.pips_x},
                    "on_roll": s.derived.on_roll.to_string(),
                    "gnubg_id": codec::to_string_as(&s.position, codec::IdFormat::GnubgId),
                    "xgid": codec::to_string_as(&s.position, codec::IdFormat::Xgid),
                    "error": s.error,
                    "mark": s.error.map(|e| bgedit_core::domain::skill::Skill::of(e).mark()),
                }))
            ),
        };
        written.map_err(|e| {
            write_error = Some(e);
            store::LibraryError::Io("output closed".to_owned())
        })
    })
    .map_err(|e| match write_error.take() {
        Some(w) => Failure::from(w),
        None => Failure::from(e),
    })?;
    Ok(0)
}

/// Why a name given for an entry names none.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Unresolved {
    #[error("{name:?} is neither an entry number nor an ID ({why})")]
    NotAName { name: String, why: String },
    /// The library failed, said with its file's name.
    #[error("{0}")]
    Library(String),
    #[error("that position is not in the library")]
    NotThere,
}

/// An entry named by its number or by an ID of its position.
fn resolve(lib: &Library, name: &str) -> Result<i64, Unresolved> {
    let name = name.trim().trim_start_matches('#');
    if let Ok(id) = name.parse::<i64>() {
        return Ok(id);
    }
    let imported =
        codec::parse_any(name, &Position::default()).map_err(|e| Unresolved::NotAName {
            name: name.to_owned(),
            why: e.to_string(),
        })?;
    lib.find(&imported.position)
        .map_err(|e| Unresolved::Library(lib.describe(&e)))?
        .ok_or(Unresolved::NotThere)
}

pub(crate) fn describe(entry: &Entry) -> String {
    let mut s = format!("Entry {}", entry.id);
    if !entry.title.is_empty() {
        s.push_str(&format!(": {}", entry.title));
    }
    s.push('\n');
    s.push_str(&format!("GNUBG ID: {}\n{}\n", entry.gnubg_id, entry.xgid));
    s.push_str(&format!("Tags: {}\n", entry.tags.join(" ")));
    s.push_str(&format!("Collections: {}\n", entry.collections.join(" ")));
    s.push_str(&format!("Source: {}\n", entry.source.to_text()));
    if let Some(d) = &entry.decision {
        s.push_str(&format!(
            "Decision: {} ({}) played {}{}\n",
            d.player,
            d.kind.name(),
            d.played,
            d.error()
                .map_or_else(String::new, |e| format!(", error {}", error_text(Some(e))))
        ));
    }
    s.push('\n');
    s.push_str(&text_board::render(&entry.position));
    if !entry.note.is_empty() {
        s.push_str(&format!("\nNote:\n{}\n", entry.note));
    }
    if let Some(a) = &entry.analysis {
        s.push_str(&format!("\nAnalysis ({}):\n{}\n", a.depth, a.text));
    }
    s
}

fn show(lib: &Library, name: &str, out: &mut impl Write) -> Result<u8, Failure> {
    let id = resolve(lib, name).map_err(|e| Failure::Message(e.to_string()))?;
    let entry = lib.get(id)?;
    // Notes and analyses come from files and pastes: never raw to a terminal.
    write!(out, "{}", bgedit_core::quote::printable(&describe(&entry)))?;
    Ok(0)
}

fn rm(lib: &mut Library, names: &[String], out: &mut impl Write) -> Result<u8, Failure> {
    let failed = each_input(
        names,
        |name| {
            let id = resolve(lib, name).map_err(|e| e.to_string())?;
            let gone = lib.delete(id);
            let gone = gone.map_err(|e| lib.describe(&e))?;
            Ok(Some(
                format!(
                    "removed entry {id} {}",
                    bgedit_core::quote::printable(&gone.title)
                )
                .trim_end()
                .to_owned(),
            ))
        },
        out,
    )?;
    Ok(u8::from(failed > 0))
}

/// A progress bar on standard error, drawn only when it is a terminal.
struct Progress {
    total: u64,
    shown: u64,
    on: bool,
    what: &'static str,
}

impl Progress {
    fn new(what: &'static str, total: u64) -> Progress {
        Progress {
            total,
            shown: u64::MAX,
            on: io::stderr().is_terminal() && total > 0,
            what,
        }
    }

    fn set(&mut self, done: u64) {
        if !self.on {
            return;
        }
        let percent = done.min(self.total) * 100 / self.total;
        if percent == self.shown {
            return;
        }
        self.shown = percent;
        let filled = (percent / 5) as usize;
        eprint!(
            "\r{} [{}{}] {percent:>3}%",
            self.what,
            "#".repeat(filled),
            " ".repeat(20 - filled)
        );
    }

    fn finish(&mut self) {
        if self.on {
            eprint!("\r{}\r", " ".repeat(40));
        }
    }
}

/// Counts of one import.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImportReport {
    pub added: u64,
    pub merged: u64,
    pub failed: u64,
}

/// Positions of one file read and written in batches of [`IMPORT_BATCH`],
/// each batch one transaction (a crash keeps every batch committed before
/// it); a position that cannot be read is said at once, never kept.
struct Importer<'a> {
    file: &'a str,
    base: Position,
    batch: Vec<NewEntry>,
    report: ImportReport,
}

impl<'a> Importer<'a> {
    fn new(file: &'a str) -> Importer<'a> {
        Importer {
            file,
            base: Position::default(),
            batch: Vec::with_capacity(IMPORT_BATCH),
            report: ImportReport::default(),
        }
    }

    /// A line or piece that could not be read.
    fn fail(&mut self, line: usize, why: &str) {
        self.report.failed += 1;
        bgedit_core::say!("{}: line {line}: {why}", self.file);
    }

    /// Reads `piece`; a full batch is written and `kept` told.
    fn take(
        &mut self,
        lib: &mut Library,
        piece: import::Piece,
        kept: &mut ImportReport,
    ) -> Result<bool, store::LibraryError> {
        match codec::parse_any(&piece.text, &self.base) {
            Ok(imported) => {
                let source = Source::Imported(self.file.to_owned());
                let mut entry = NewEntry::new(imported.position, source);
                entry.note = piece.note;
                entry.analysis = piece.analysis;
                match store::check_entry(&entry) {
                    Ok(()) => self.batch.push(entry),
                    Err(e) => self.fail(piece.line, &e.to_string()),
                }
            }
            Err(e) => self.fail(piece.line, &e.to_string()),
        }
        if self.batch.len() < IMPORT_BATCH {
            return Ok(false);
        }
        self.flush(lib, kept)?;
        Ok(true)
    }

    fn flush(
        &mut self,
        lib: &mut Library,
        kept: &mut ImportReport,
    ) -> Result<(), store::LibraryError> {
        count_added(lib.add_all(&self.batch)?, &mut self.report);
        self.batch.clear();
        *kept = self.report;
        Ok(())
    }
}

/// Imports a text held whole (IDs one a line, or XG's text export) as a
/// file is imported; `progress` is told the bytes read.
pub fn import_text(
    lib: &mut Library,
    file: &str,
    text: &str,
    progress: impl FnMut(u64),
    kept: &mut ImportReport,
) -> Result<ImportReport, store::LibraryError> {
    import_stream(lib, file, text.as_bytes(), progress, kept)
}

/// How much of a file is looked at to tell its format.
const HEAD_BYTES: u64 = 64 * 1024;
/// The longest block of XG's text export (a position, its analysis and
/// comment) read; a longer one is refused.
const MAX_XG_BLOCK: usize = 1 << 20;

/// Imports a text file read a line at a time, each line at most 1 MiB as
/// in every batch command (`cli::input`), so a huge file, or one line
/// that never ends, costs no more memory than that: IDs one a line, or XG's
/// text export a block (an `XGID=` line and what follows it) at a time.
/// The format is told from the first [`HEAD_BYTES`]. `progress` is told
/// the bytes read.
fn import_stream(
    lib: &mut Library,
    file: &str,
    input: impl Read,
    mut progress: impl FnMut(u64),
    kept: &mut ImportReport,
) -> Result<ImportReport, store::LibraryError> {
    let read = std::cell::Cell::new(0u64);
    let mut input = input;
    let mut head = Vec::new();
    // A read error here is met again, and said, by the line reader.
    let _ = (&mut input).take(HEAD_BYTES).read_to_end(&mut head);
    let head_text = String::from_utf8_lossy(&head);
    let cut = head_text.rfind('\n').map_or(head_text.len(), |n| n + 1);
    let format = match import::detect(&head_text[..cut]) {
        FileFormat::XgText => FileFormat::XgText,
        _ => FileFormat::Ids,
    };
    let mut importer = Importer::new(file);
    let mut lines = super::input::LineReader::new(Counting {
        inner: head.as_slice().chain(input),
        read: &read,
    });
    let mut block = XgBlock::default();
    let mut number = 0usize;
    let mut no_wait = || Ok(());
    loop {
        let (_, line) = match lines.next_line(&mut no_wait) {
            Ok(Some(l)) => l,
            Ok(None) => break,
            Err(e) => {
                importer.fail(number + 1, &format!("cannot read it: {e}"));
                break;
            }
        };
        let text = match line {
            super::input::Line::Text(t) => t,
            other => {
                number += 1;
                let why = other.refusal().unwrap_or_default();
                importer.fail(number, &why);
                if other == super::input::Line::Endless {
                    break;
                }
                continue;
            }
        };
        // A lone CR ends a line too (old Macs).
        for part in text.split('\r') {
            number += 1;
            let pieces = match format {
                FileFormat::XgText => block.line(number, part),
                _ => ids_piece(number, part).into_iter().collect(),
            };
            for p in pieces {
                match p {
                    Ok(piece) => {
                        if importer.take(lib, piece, kept)? {
                            progress(read.get());
                        }
                    }
                    Err((line, why)) => importer.fail(line, &why),
                }
            }
        }
    }
    for p in block.end() {
        match p {
            Ok(piece) => {
                importer.take(lib, piece, kept)?;
            }
            Err((line, why)) => importer.fail(line, &why),
        }
    }
    importer.flush(lib, kept)?;
    progress(read.get());
    lib.optimize()?;
    Ok(importer.report)
}

/// The ID on line `number`, unless it is blank.
fn ids_piece(number: usize, line: &str) -> Option<Result<import::Piece, (usize, String)>> {
    let t = line.trim();
    (!t.is_empty()).then(|| {
        Ok(import::Piece {
            line: number,
            text: t.to_owned(),
            note: String::new(),
            analysis: None,
        })
    })
}

/// Lines of XG's text export gathered into blocks, each from an `XGID=`
/// line to the next, and read as the whole file would be.
#[derive(Default)]
struct XgBlock {
    /// The line the block starts on (its `XGID=` line); 0 before the first.
    first: usize,
    text: String,
    /// The block grew past [`MAX_XG_BLOCK`]: its lines are dropped.
    too_long: bool,
}

type PieceOrWhy = Result<import::Piece, (usize, String)>;

impl XgBlock {
    /// Adds a line; a new `XGID=` line hands on the block before it.
    fn line(&mut self, number: usize, line: &str) -> Vec<PieceOrWhy> {
        let mut out = Vec::new();
        if line.contains("XGID=") {
            out = self.end();
            self.first = number;
        }
        if self.first == 0 || self.too_long {
            return out;
        }
        if self.text.len() + line.len() >= MAX_XG_BLOCK {
            self.too_long = true;
            self.text = String::new();
            return out;
        }
        self.text.push_str(line);
        self.text.push('\n');
        out
    }

    /// The block read (its pieces' lines counted in the file), and a new
    /// one begun.
    fn end(&mut self) -> Vec<PieceOrWhy> {
        let block = std::mem::take(self);
        if block.first == 0 {
            return Vec::new();
        }
        if block.too_long {
            let why = format!("a position's block is longer than {MAX_XG_BLOCK} bytes; skipped");
            return vec![Err((block.first, why))];
        }
        import::pieces(&block.text, FileFormat::XgText)
            .map(|mut p| {
                p.line += block.first - 1;
                Ok(p)
            })
            .collect()
    }
}

/// A reader that counts the bytes read through it, for the progress bar.
struct Counting<'c, R> {
    inner: R,
    read: &'c std::cell::Cell<u64>,
}

impl<R: Read> Read for Counting<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.set(self.read.get() + n as u64);
        Ok(n)
    }
}

/// What one `import` did across its files, said at its end.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Tally {
    pub files: u64,
    pub new_matches: u64,
    pub known_matches: u64,
    pub positions: u64,
    pub failed: u64,
    /// Files in the directories given that hold no match.
    pub passed_over: u64,
}

fn import_files(
    lib: &mut Library,
    files: &[PathBuf],
    errors: Option<f64>,
    out: &mut impl Write,
) -> Result<u8, Failure> {
    let mut tally = Tally::default();
    let inputs = inputs::expand(files, &mut tally.failed);
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
    bgedit_core::say!(
        "imported {} files: {} new matches, {} already there, {} positions added, {} failed{}",
        tally.files,
        tally.new_matches,
        tally.known_matches,
        tally.positions,
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

fn count_added(added: Vec<Added>, report: &mut ImportReport) {
    for a in added {
        match a {
            Added::New(_) => report.added += 1,
            Added::Existing(_) => report.merged += 1,
        }
    }
}

fn export_entries(
    lib: &Library,
    query: &str,
    format: ExportFormat,
    media: Option<&Path>,
    out: &mut impl Write,
) -> Result<u8, Failure> {
    if media.is_some() && format != ExportFormat::Anki {
        return Err(Failure::Message(
            "--media is for --format anki (the notes' pictures)".to_owned(),
        ));
    }
    if let Some(dir) = media {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::Message(format!("{}: {e}", dir.display())))?;
    }
    let options = bgedit_picture::Options::natural(bgedit_picture::Theme::Light, false);
    let mut picture_error = None;
    let query = filter::parse(query).map_err(|e| Failure::Message(e.to_string()))?;
    let mut bar = Progress::new("exporting", lib.count(&query)?);
    out.write_all(export::header(format).as_bytes())?;
    let mut buf = String::new();
    let mut n = 0;
    let mut write_error = None;
    lib.for_each(&query, |entry| {
        buf.clear();
        let picture = match media {
            None => None,
            Some(dir) => {
                let name = bgedit_picture::file_name(&entry.position);
                let path = dir.join(&name);
                let written = bgedit_picture::png::render(&entry.position, &options)
                    .map_err(|e| e.to_string())
                    .and_then(|png| std::fs::write(&path, png).map_err(|e| e.to_string()));
                if let Err(e) = written {
                    picture_error = Some(format!("{}: {e}", path.display()));
                    return Err(store::LibraryError::Io("picture not written".to_owned()));
                }
                Some(name)
            }
        };
        export::write_entry_with(&mut buf, &entry, format, picture.as_deref());
        if let Err(e) = out.write_all(buf.as_bytes()) {
            write_error = Some(e);
            return Err(store::LibraryError::Io("output closed".to_owned()));
        }
        n += 1;
        bar.set(n);
        Ok(())
    })
    .map_err(|e| match (write_error.take(), picture_error.take()) {
        (Some(w), _) => Failure::from(w),
        (None, Some(p)) => Failure::Message(p),
        (None, None) => Failure::from(e),
    })?;
    bar.finish();
    Ok(0)
}

#[cfg(test)]
mod column_tests {
    use super::column;

    #[test]
    fn long_titles_are_cut_to_their_column() {
        assert_eq!(column("short", 8), "short   ");
        assert_eq!(column("a title far too long", 8), "a title…");
        assert_eq!(column("évènement", 9), "évènement");
        assert_eq!(column("", 3), "   ");
    }
}
