//! `library import` of a text file of positions, streamed: IDs one a line,
//! or XG's text export a block at a time, written in batches of
//! [`IMPORT_BATCH`] (one transaction each), in bounded memory whatever the
//! file's size.

use crate::cli::input::{Line, LineReader, Refusal};
use bgedit_core::codec;
use bgedit_core::domain::Position;
use bgedit_library::import::{self, FileFormat};
use bgedit_library::store::{self, Added, Library, NewEntry, Source};
use std::io::{self, Read};

/// Positions written in one transaction by `import`.
pub(in crate::cli::library) const IMPORT_BATCH: usize = 10_000;

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
    fn fail(&mut self, line: usize, why: impl std::fmt::Display) {
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
                    Err(e) => self.fail(piece.line, e),
                }
            }
            Err(e) => self.fail(piece.line, e),
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
pub(super) const HEAD_BYTES: u64 = 64 * 1024;
/// The longest block of XG's text export (a position, its analysis and
/// comment) read; a longer one is refused.
const MAX_XG_BLOCK: usize = 1 << 20;

/// Imports a text file read a line at a time, each line at most 1 MiB as
/// in every batch command (`cli::input`), so a huge file, or one line
/// that never ends, costs no more memory than that: IDs one a line, or XG's
/// text export a block (an `XGID=` line and what follows it) at a time.
/// The format is told from the first [`HEAD_BYTES`]. `progress` is told
/// the bytes read.
pub(super) fn import_stream(
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
    let mut lines = LineReader::new(Counting {
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
                importer.fail(number + 1, format_args!("cannot read it: {e}"));
                break;
            }
        };
        let text = match line {
            Line::Text(t) => t,
            Line::Refused(why) => {
                number += 1;
                importer.fail(number, why);
                if why == Refusal::Endless {
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
                _ => ids_piece(number, part).map(Ok).into_iter().collect(),
            };
            for p in pieces {
                match p {
                    Ok(piece) => {
                        if importer.take(lib, piece, kept)? {
                            progress(read.get());
                        }
                    }
                    Err(e) => importer.fail(e.line, e),
                }
            }
        }
    }
    for p in block.end() {
        match p {
            Ok(piece) => {
                importer.take(lib, piece, kept)?;
            }
            Err(e) => importer.fail(e.line, e),
        }
    }
    importer.flush(lib, kept)?;
    progress(read.get());
    lib.optimize()?;
    Ok(importer.report)
}

/// The ID on line `number`, unless it is blank.
fn ids_piece(number: usize, line: &str) -> Option<import::Piece> {
    let t = line.trim();
    (!t.is_empty()).then(|| import::Piece {
        line: number,
        text: t.to_owned(),
        note: String::new(),
        analysis: None,
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

/// A block of XG's text export longer than [`MAX_XG_BLOCK`], by the line
/// it starts on.
#[derive(Debug, thiserror::Error)]
#[error("a position's block is longer than {MAX_XG_BLOCK} bytes; skipped")]
struct BlockTooLong {
    line: usize,
}

type PieceOrWhy = Result<import::Piece, BlockTooLong>;

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
            return vec![Err(BlockTooLong { line: block.first })];
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
fn count_added(added: Vec<Added>, report: &mut ImportReport) {
    for a in added {
        match a {
            Added::New(_) => report.added += 1,
            Added::Existing(_) => report.merged += 1,
        }
    }
}
