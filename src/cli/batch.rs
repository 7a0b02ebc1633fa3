//! Streaming over many IDs: one input at a time, in and out through buffers,
//! so a million lines take no more memory than one. Lines are read, bounded
//! and reported the way every command does (`input.rs`).

use super::input::{LineReader, Messages, Origin, exit_code};
use bgedit_core::codec::text_board;
use bgedit_core::codec::{self, IdFormat};
use bgedit_core::domain::{Names, Position};
use bgedit_core::quote::{self, Shown};
use std::io::{self, Read, Write};
use std::process::ExitCode;

/// What to do with each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    /// gnubg's board text and an empty line.
    Show,
    /// One line in the given format.
    Convert(IdFormat),
}

#[derive(Clone, Debug)]
pub struct BatchOptions {
    pub job: Job,
    pub names: Names,
    /// Leave out warnings and notes (errors are always reported).
    pub quiet: bool,
}

/// How a batch went.
pub type BatchReport = super::input::Tally;

/// `show` and `convert` on the IDs (standard input when none), through
/// the process's standard streams: the exit status of the run.
pub(crate) fn run_job(
    job: Job,
    names: super::shared_args::NameArgs,
    quiet: bool,
    ids: &[String],
) -> ExitCode {
    let names = names.into_names();
    if let Err(e) = names.check() {
        bgedit_core::say!("bgedit: {e}");
        return ExitCode::from(2);
    }
    let opts = BatchOptions { job, names, quiet };
    let stdin = io::stdin().lock();
    let stdout = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let stderr = Messages::new(io::BufWriter::new(io::stderr().lock()));
    exit_code(run_batch(&opts, ids, stdin, stdout, stderr))
}

fn is_position_header(line: &str) -> bool {
    // The label has a space and IDs have none: most lines of a stream are
    // told apart by one fast byte search.
    memchr::memchr(b' ', line.as_bytes()).is_some()
        && line.contains("Position ID")
        && !line.contains("Match ID")
}

fn is_match_header(line: &str) -> bool {
    line.trim_start().starts_with("Match ID")
}

struct Runner<'a, W: Write, E: Write> {
    opts: &'a BatchOptions,
    base: Position,
    out: W,
    err: E,
    buf: String,
    /// Whether the command line's names need no escape (told once).
    options_names_clean: bool,
    report: BatchReport,
}

impl<W: Write, E: Write> Runner<'_, W, E> {
    /// `convert` writes one output line per input line; an input line with
    /// no output of its own gets an empty one.
    fn keep_aligned(&mut self) -> io::Result<()> {
        match self.opts.job {
            Job::Convert(_) => self.out.write_all(b"\n"),
            Job::Show => Ok(()),
        }
    }

    fn handle(&mut self, origin: Origin, text: &str) -> io::Result<()> {
        self.buf.clear();
        if text.trim().is_empty() {
            // Blank lines keep convert's output aligned and are not errors.
            self.keep_aligned()?;
            return Ok(());
        }
        match codec::parse_any(text, &self.base) {
            Ok(imported) => {
                let position = &imported.position;
                if !self.opts.quiet {
                    if let Some(note) = &imported.note {
                        writeln!(self.err, "{origin}: note: {}", Shown(note))?;
                    }
                    self.report_notes(origin, position, imported.format)?;
                }
                match self.opts.job {
                    Job::Show => {
                        let names = if imported.format.carries_names() {
                            &position.names
                        } else {
                            &self.opts.names
                        };
                        text_board::write_board_parts(
                            &mut self.buf,
                            &position.board,
                            &position.state,
                            names,
                        );
                        self.buf.push('\n');
                    }
                    Job::Convert(format) => {
                        // A format that holds names gets the command
                        // line's when the input had none.
                        let named;
                        let position = if format.carries_names() && !imported.format.carries_names()
                        {
                            named = Position {
                                names: self.opts.names.clone(),
                                ..position.clone()
                            };
                            &named
                        } else {
                            position
                        };
                        if format == IdFormat::Json {
                            let line = super::plans::json_line(position, self.opts.quiet);
                            self.buf.push_str(&line);
                        } else {
                            codec::write_as(position, format, &mut self.buf);
                        }
                        self.buf.push('\n');
                    }
                }
                self.write_escaped(&position.names)?;
                self.report.converted += 1;
            }
            Err(e) => {
                writeln!(self.err, "{origin}: {}", Shown(e))?;
                self.keep_aligned()?;
                self.report.failed += 1;
            }
        }
        Ok(())
    }

    /// Writes the answer in `buf`, escaped as everything printed is. The
    /// names (the input's, `names`, or the command line's) are the only
    /// text a board or an ID takes from outside: the rest is bgedit's own,
    /// drawn from tables. So the answer is looked through only when a name
    /// holds a character to escape, and a million boards cost no scan.
    fn write_escaped(&mut self, names: &Names) -> io::Result<()> {
        let clean = |n: &Names| quote::is_printable(&n.o) && quote::is_printable(&n.x);
        if self.options_names_clean && clean(names) {
            debug_assert!(quote::is_printable(&self.buf), "{:?}", self.buf);
            self.out.write_all(self.buf.as_bytes())
        } else {
            self.out.write_all(quote::printable(&self.buf).as_bytes())
        }
    }

    fn report_notes(
        &mut self,
        origin: Origin,
        position: &Position,
        from: IdFormat,
    ) -> io::Result<()> {
        // The decoder checked the rules; only the warnings are left to find.
        for w in position.warnings() {
            writeln!(self.err, "{origin}: warning: {}", Shown(w))?;
        }
        if let Job::Convert(to) = self.opts.job {
            for note in codec::conversion_losses(position, from, to) {
                writeln!(self.err, "{origin}: note: {}", Shown(note))?;
            }
        }
        Ok(())
    }
}

/// Runs `opts.job` on each argument, or on each line of `input` when there
/// are no arguments. gnubg's two header lines (`Position ID: …` then
/// `Match ID   : …`) are read as one position. Output is flushed whenever
/// the input has nothing more ready, so a reader at the end of a pipe sees
/// each answer at once. Output errors (a closed pipe) end the run early and
/// are returned; `err` should not fail (see `input::Messages`).
pub fn run_batch<R: Read, W: Write, E: Write>(
    opts: &BatchOptions,
    args: &[String],
    input: R,
    out: W,
    err: E,
) -> io::Result<BatchReport> {
    // Names are added when a board is drawn, so reading a line allocates
    // none (empty names clone for free); JSON brings its own.
    let base = Position {
        names: Names {
            o: String::new(),
            x: String::new(),
        },
        ..Position::default()
    };
    let mut runner = Runner {
        opts,
        base,
        out,
        err,
        buf: String::with_capacity(2048),
        options_names_clean: quote::is_printable(&opts.names.o)
            && quote::is_printable(&opts.names.x),
        report: BatchReport::default(),
    };
    if !args.is_empty() {
        for (i, arg) in args.iter().enumerate() {
            runner.handle(Origin::Argument(i as u64 + 1), arg)?;
        }
        runner.out.flush()?;
        runner.err.flush()?;
        return Ok(runner.report);
    }

    let mut reader = LineReader::new(input);
    // A `Position ID:` header line waiting to see if a `Match ID` line follows.
    let mut pending: Option<(u64, String)> = None;
    // Answers and their messages go out before waiting for more input.
    let flush = |r: &mut Runner<'_, W, E>| -> io::Result<()> {
        r.out.flush()?;
        r.err.flush()
    };
    while let Some((number, line)) = reader.next_line(&mut || flush(&mut runner))? {
        let line = match line {
            super::input::Line::Text(text) => text,
            super::input::Line::Refused(why) => {
                if let Some((n, p)) = pending.take() {
                    runner.handle(Origin::Line(n), &p)?;
                }
                writeln!(runner.err, "line {number}: {why}")?;
                runner.keep_aligned()?;
                runner.report.failed += 1;
                continue;
            }
        };
        if let Some((n, p)) = pending.take() {
            if is_match_header(line) {
                let joined = format!("{p}\n{line}");
                runner.handle(Origin::Line(n), &joined)?;
                // Two input lines made one position: keep outputs aligned.
                runner.keep_aligned()?;
                continue;
            }
            runner.handle(Origin::Line(n), &p)?;
        }
        if is_position_header(line) {
            pending = Some((number, line.to_owned()));
            continue;
        }
        runner.handle(Origin::Line(number), line)?;
    }
    if let Some((n, p)) = pending.take() {
        runner.handle(Origin::Line(n), &p)?;
    }
    runner.out.flush()?;
    runner.err.flush()?;
    Ok(runner.report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(job: Job, input: &str) -> (String, String, BatchReport) {
        let opts = BatchOptions {
            job,
            names: Names::default(),
            quiet: false,
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let report = run_batch(&opts, &[], input.as_bytes(), &mut out, &mut err).unwrap();
        (
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
            report,
        )
    }

    #[test]
    fn bad_lines_are_reported_and_the_run_continues() {
        let (out, err, report) = run(
            Job::Convert(IdFormat::Xgid),
            "4HPwATDgc/ABMA:cAkAAAAAAAAA\nnonsense\n4HPwATDgc/ABMA:cAkAAAAAAAAA\n",
        );
        assert_eq!(
            report,
            BatchReport {
                converted: 2,
                failed: 1
            }
        );
        assert_eq!(
            out,
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10\n\nXGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10\n"
        );
        assert_eq!(
            err,
            "line 2: not an ID: 'nonsense' is not a Position ID (14 characters), a Match ID (12) or an XGID\n"
        );
    }

    #[test]
    fn gnubg_header_lines_are_one_position() {
        let (out, err, report) = run(
            Job::Convert(IdFormat::GnubgId),
            " GNU Backgammon  Position ID: 4NvBA0DGzooBBg\n                 Match ID   : QYkqASAAIAAA\n",
        );
        assert_eq!(err, "");
        assert_eq!(report.converted, 1);
        assert_eq!(out, "4NvBA0DGzooBBg:QYkqASAAIAAA\n\n");
    }

    #[test]
    fn show_prints_fifteen_lines_and_a_blank() {
        let (out, _, _) = run(Job::Show, "4HPwATDgc/ABMA:cAkAAAAAAAAA\n");
        assert_eq!(out.lines().count(), 16);
        assert!(out.ends_with("X: Black\n\n"));
    }

    #[test]
    fn invalid_utf8_is_an_error_not_a_panic() {
        let opts = BatchOptions {
            job: Job::Show,
            names: Names::default(),
            quiet: false,
        };
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let report = run_batch(&opts, &[], &b"\xff\xfe\n"[..], &mut out, &mut err).unwrap();
        assert_eq!(report.failed, 1);
        assert_eq!(
            String::from_utf8(err).unwrap(),
            "line 1: not UTF-8 text (byte 1)\n"
        );
    }

    #[test]
    fn warnings_and_losses_are_notes_not_failures() {
        let (_, err, report) = run(
            Job::Convert(IdFormat::Xgid),
            "4HPwATDgc/ABMA:cGsAAAAAAAAA\n",
        );
        assert_eq!(report.failed, 0);
        assert!(
            err.contains("note: the resignation on offer (backgammon) is not kept"),
            "{err}"
        );
    }
}
