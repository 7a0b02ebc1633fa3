//! The lines of `library add` and `library rm`: each argument, or each line
//! of standard input, answered or refused as `argument N:` / `line N:` as
//! every batch command does, and written a batch (one transaction) at a
//! time.

use super::Failure;
use std::io::{self, BufRead, Read, Write};

/// Longest input line read, in bytes.
const MAX_LINE: usize = 1 << 20;

/// Calls `each` on every argument, or every line of standard input when
/// there are none, reporting errors as `argument N:` / `line N:`. Returns
/// how many failed.
pub(super) fn each_input(
    args: &[String],
    each: impl FnMut(&str) -> Result<Option<String>, String>,
    out: &mut impl Write,
) -> Result<u64, Failure> {
    each_input_batched(args, each, |done| done.into_iter().map(Ok).collect(), out)
}

/// Lines answered per batch at most: as many as an import writes in one
/// transaction.
const LINE_BATCH: usize = super::import::IMPORT_BATCH;

/// Like [`each_input`], with the answers given by `commit` for a batch of
/// what `parse` made of the lines (a batch of writes is one transaction).
/// A batch is committed when it is full or when no more input is waiting
/// to be read: a script feeding one line at a time gets each answer before
/// it sends the next, and a file piped in is written ten thousand lines at a
/// time.
pub(super) fn each_input_batched<T>(
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
