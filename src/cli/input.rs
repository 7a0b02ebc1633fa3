//! How every batch command reads its input and reports, in one place:
//!
//! - **Where an input came from** ([`Origin`]): `line N` of standard input or
//!   `argument N`, the prefix of every message about it.
//! - **Bounded lines** ([`LineReader`]): a line longer than
//!   [`MAX_LINE_BYTES`] (1 MiB) is refused as [`Refusal::TooLong`] and skipped
//!   to its end without being kept, so memory stays bounded whatever comes
//!   in. A "line" with no end within [`MAX_SKIP_BYTES`] (64 MiB; `<
//!   /dev/zero`) ends the input: [`Refusal::Endless`].
//! - **Flushing**: before each read that may wait for more input, the reader
//!   calls the caller's `before_wait`, which flushes standard output and
//!   the messages. A reader at the other end of a pipe sees each answer (and
//!   each `line N:` message) as soon as its line is read, while a file or a
//!   fast producer still gets 64 KiB writes.
//! - **Messages that cannot end the run** ([`Messages`]): a closed standard
//!   error (`2>&1 >out | head -1`) loses the messages, never the output.
//! - **The exit status** ([`exit_code`]): 0 when every input was read, 1
//!   when any was refused (or output could not be written), 141 when
//!   standard output was closed by its reader (as a shell reports SIGPIPE):
//!   output that was not delivered never exits 0.
//!
//! [`run_lines`] puts these together for a command that maps each input to
//! some output (`moves`, `analyse`, ...): give it a function from one input
//! to its output or an error message.

use std::fmt;
use std::io::{self, ErrorKind, Read, Write};
use std::process::ExitCode;

/// The longest line read; longer ones are refused and skipped.
pub const MAX_LINE_BYTES: usize = 1 << 20;
/// How far a refused line is skipped looking for its end before the input
/// is given up.
pub(crate) const MAX_SKIP_BYTES: u64 = 64 << 20;
/// The read buffer: reads of standard input are this large.
const CHUNK: usize = 64 * 1024;

/// Where an input came from, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Origin {
    Line(u64),
    Argument(u64),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Line(n) => write!(f, "line {n}"),
            Origin::Argument(n) => write!(f, "argument {n}"),
        }
    }
}

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Line<'a> {
    /// The text, without its line ending (`\n` or `\r\n`).
    Text(&'a str),
    /// Not read as text: why.
    Refused(Refusal),
}

/// Why a line is not read as text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Refusal {
    /// Longer than [`MAX_LINE_BYTES`]; skipped.
    #[error("longer than 1 MiB ({MAX_LINE_BYTES} bytes); skipped")]
    TooLong,
    /// Longer than [`MAX_SKIP_BYTES`] with no end: the input stops here.
    #[error(
        "longer than 1 MiB and no end of line in {} MiB; stopped reading",
        MAX_SKIP_BYTES >> 20
    )]
    Endless,
    /// Not UTF-8; `byte` is the first bad byte (1-based).
    #[error("not UTF-8 text (byte {byte})")]
    NotUtf8 { byte: usize },
}

/// Reads lines of at most [`MAX_LINE_BYTES`] from `R`, in bounded memory.
pub(crate) struct LineReader<R> {
    input: R,
    buf: Box<[u8]>,
    start: usize,
    end: usize,
    /// A line that spans reads is gathered here.
    line: Vec<u8>,
    number: u64,
    eof: bool,
    /// The last line ended with a carriage return: a line feed next is
    /// the same line end (CR LF), not an empty line.
    after_cr: bool,
}

/// Where the current line's bytes are.
enum Held {
    Buffer(usize, usize),
    Gathered,
}

impl<R: Read> LineReader<R> {
    pub(crate) fn new(input: R) -> Self {
        LineReader {
            input,
            buf: vec![0; CHUNK].into_boxed_slice(),
            start: 0,
            end: 0,
            line: Vec::new(),
            number: 0,
            eof: false,
            after_cr: false,
        }
    }

    /// Fills the buffer; false at the end of the input.
    fn refill(&mut self, before_wait: &mut impl FnMut() -> io::Result<()>) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        before_wait()?;
        loop {
            match self.input.read(&mut self.buf) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(false);
                }
                Ok(n) => {
                    self.start = 0;
                    self.end = n;
                    return Ok(true);
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// The next line and its number, `None` at the end of the input.
    /// `before_wait` runs before any read that may wait: flush output there.
    pub(crate) fn next_line(
        &mut self,
        before_wait: &mut impl FnMut() -> io::Result<()>,
    ) -> io::Result<Option<(u64, Line<'_>)>> {
        self.line.clear();
        let mut held = Held::Gathered;
        let mut any = false;
        let mut skipped: Option<u64> = None;
        loop {
            if self.start == self.end && !self.refill(before_wait)? {
                break;
            }
            if std::mem::take(&mut self.after_cr) && self.buf[self.start] == b'\n' {
                self.start += 1;
                continue;
            }
            any = true;
            let avail = &self.buf[self.start..self.end];
            // A line ends with LF, CR LF, or a lone CR (a terminal's paste,
            // an old Mac file).
            let (chunk, ended) = match memchr::memchr2(b'\n', b'\r', avail) {
                Some(i) => {
                    self.after_cr = avail[i] == b'\r';
                    (&avail[..i], true)
                }
                None => (avail, false),
            };
            let taken = chunk.len() + usize::from(ended);
            if let Some(n) = skipped.as_mut() {
                *n += chunk.len() as u64;
            } else if self.line.len() + chunk.len() > MAX_LINE_BYTES {
                skipped = Some((self.line.len() + chunk.len()) as u64);
                self.line = Vec::new();
            } else if ended && self.line.is_empty() {
                // The common case: the whole line is in the buffer.
                held = Held::Buffer(self.start, self.start + chunk.len());
            } else {
                self.line.extend_from_slice(chunk);
            }
            self.start += taken;
            if ended {
                break;
            }
            if skipped.is_some_and(|n| n > MAX_SKIP_BYTES) {
                self.eof = true;
                self.number += 1;
                return Ok(Some((self.number, Line::Refused(Refusal::Endless))));
            }
        }
        if !any {
            return Ok(None);
        }
        self.number += 1;
        if skipped.is_some() {
            return Ok(Some((self.number, Line::Refused(Refusal::TooLong))));
        }
        let bytes = match held {
            Held::Buffer(s, e) => &self.buf[s..e],
            Held::Gathered => &self.line[..],
        };
        Ok(Some((
            self.number,
            // Most lines are ASCII (IDs), checked a word at a time.
            match bgedit_core::codec::ascii::as_str(bytes)
                .map_or_else(|| std::str::from_utf8(bytes), Ok)
            {
                Ok(text) => Line::Text(text),
                Err(e) => Line::Refused(Refusal::NotUtf8 {
                    byte: e.valid_up_to() + 1,
                }),
            },
        )))
    }
}

/// Standard error for messages: a failed write (a closed pipe) is dropped
/// rather than ending the run, since the output still matters.
pub struct Messages<E: Write> {
    inner: E,
    broken: bool,
}

impl<E: Write> Messages<E> {
    pub(crate) fn new(inner: E) -> Self {
        Messages {
            inner,
            broken: false,
        }
    }
}

impl<E: Write> Write for Messages<E> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if !self.broken && self.inner.write_all(buf).is_err() {
            self.broken = true;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if !self.broken && self.inner.flush().is_err() {
            self.broken = true;
        }
        Ok(())
    }
}

/// How a batch went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub converted: u64,
    pub failed: u64,
}

/// The exit status of a batch run; a write error is said on standard error.
pub(crate) fn exit_code(outcome: io::Result<Tally>) -> ExitCode {
    match outcome {
        Ok(t) if t.failed == 0 => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(1),
        // The reader went away (`bgedit show | head`): no message, but not
        // success either, since output was not delivered.
        Err(e) => super::output::write_failed(&e),
    }
}

/// Runs `job` on each argument, or on each line of `input` when there are
/// none: `job` appends the output for one input (one line, with its
/// newline) and may return a note for standard error, or returns why it
/// failed, written as `line N: why`. Output stays aligned with input:
/// a blank or refused input gets an empty output line. Write errors on
/// `out` end the run.
pub(crate) fn run_lines<R: Read, W: Write, E: Write, Why: fmt::Display>(
    args: &[String],
    input: R,
    mut out: W,
    mut err: E,
    mut job: impl FnMut(&str, &mut String) -> Result<Option<String>, Why>,
) -> io::Result<Tally> {
    let mut tally = Tally::default();
    let mut buf = String::new();
    let mut answer = |origin: Origin,
                      text: &str,
                      out: &mut W,
                      err: &mut E,
                      tally: &mut Tally|
     -> io::Result<()> {
        if text.trim().is_empty() {
            return out.write_all(b"\n");
        }
        buf.clear();
        match job(text, &mut buf) {
            Ok(note) => {
                // An answer may quote its input (a move typed, a name):
                // printed escaped. JSON answers are `quote::json`'s, with
                // nothing left to escape.
                out.write_all(bgedit_core::quote::printable(&buf).as_bytes())?;
                if let Some(note) = note {
                    writeln!(err, "{origin}: {}", bgedit_core::quote::Shown(note))?;
                }
                tally.converted += 1;
            }
            Err(why) => {
                writeln!(err, "{origin}: {}", bgedit_core::quote::Shown(why))?;
                out.write_all(b"\n")?;
                tally.failed += 1;
            }
        }
        Ok(())
    };
    if args.is_empty() {
        let mut reader = LineReader::new(input);
        // Answers and their messages go out before waiting for more input.
        while let Some((number, line)) = reader.next_line(&mut || {
            out.flush()?;
            err.flush()
        })? {
            match line {
                Line::Text(text) => {
                    answer(Origin::Line(number), text, &mut out, &mut err, &mut tally)?;
                }
                Line::Refused(why) => {
                    writeln!(err, "line {number}: {why}")?;
                    out.write_all(b"\n")?;
                    tally.failed += 1;
                }
            }
        }
    } else {
        for (i, arg) in args.iter().enumerate() {
            let origin = Origin::Argument(i as u64 + 1);
            answer(origin, arg, &mut out, &mut err, &mut tally)?;
        }
    }
    out.flush()?;
    err.flush()?;
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<String> {
        let mut r = LineReader::new(input);
        let mut v = Vec::new();
        while let Some((n, line)) = r.next_line(&mut || Ok(())).unwrap() {
            v.push(match line {
                Line::Text(t) => format!("{n}:{t}"),
                Line::Refused(why) => format!("{n}!{why}"),
            });
        }
        v
    }

    #[test]
    fn lines_end_with_lf_or_crlf_and_the_last_may_have_none() {
        assert_eq!(lines(b"a\r\nb\n\nc"), ["1:a", "2:b", "3:", "4:c"]);
        assert!(lines(b"").is_empty());
    }

    #[test]
    fn a_lone_cr_ends_a_line_as_a_pasted_block_sends_it() {
        assert_eq!(lines(b"a\rb\r\rc\r"), ["1:a", "2:b", "3:", "4:c"]);
        assert_eq!(lines(b"a\r\n\r\nb"), ["1:a", "2:", "3:b"]);
        // CR LF split across two reads is one line end.
        let mut r = LineReader::new(io::Read::chain(&b"a\r"[..], &b"\nb\n"[..]));
        let mut got = Vec::new();
        while let Some((n, Line::Text(t))) = r.next_line(&mut || Ok(())).unwrap() {
            got.push(format!("{n}:{t}"));
        }
        assert_eq!(got, ["1:a", "2:b"]);
    }

    #[test]
    fn a_line_over_the_limit_is_refused_and_the_next_is_read() {
        let mut input = vec![b'x'; MAX_LINE_BYTES + 1];
        input.extend_from_slice(b"\nok\n");
        assert_eq!(
            lines(&input),
            ["1!longer than 1 MiB (1048576 bytes); skipped", "2:ok"]
        );
        // Exactly the limit is fine.
        let mut input = vec![b'y'; MAX_LINE_BYTES];
        input.push(b'\n');
        assert_eq!(lines(&input)[0].len(), MAX_LINE_BYTES + 2);
    }

    #[test]
    fn an_endless_line_stops_the_input() {
        let zeros = io::repeat(0).take(MAX_SKIP_BYTES + 2 * MAX_LINE_BYTES as u64);
        let mut r = LineReader::new(zeros);
        let (n, line) = r.next_line(&mut || Ok(())).unwrap().unwrap();
        assert_eq!((n, line), (1, Line::Refused(Refusal::Endless)));
        assert!(r.next_line(&mut || Ok(())).unwrap().is_none());
    }

    #[test]
    fn bad_utf8_names_its_byte() {
        assert_eq!(lines(b"ok\n\xff\n"), ["1:ok", "2!not UTF-8 text (byte 1)"]);
    }

    /// A test job's refusal.
    #[derive(Debug, thiserror::Error)]
    #[error("'{0}' is not a number")]
    struct NotANumber(String);

    #[test]
    fn run_lines_reports_by_origin_and_counts() {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let tally = run_lines(&[], &b"1\nx\n\n2\n"[..], &mut out, &mut err, |t, o| {
            let n: u32 = t.parse().map_err(|_| NotANumber(t.to_owned()))?;
            o.push_str(&format!("{}\n", n * 2));
            Ok::<_, NotANumber>(None)
        })
        .unwrap();
        assert_eq!(
            tally,
            Tally {
                converted: 2,
                failed: 1
            }
        );
        // Aligned with the input: the refused and the blank line stay empty.
        assert_eq!(out, b"2\n\n\n4\n");
        assert_eq!(err, b"line 2: 'x' is not a number\n");
    }

    #[test]
    fn a_closed_message_stream_does_not_end_the_run() {
        struct Closed;
        impl Write for Closed {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> io::Result<()> {
                Err(ErrorKind::BrokenPipe.into())
            }
        }
        let mut out = Vec::new();
        let tally = run_lines(
            &[],
            &b"x\n1\n"[..],
            &mut out,
            Messages::new(Closed),
            |t, o| -> Result<_, std::num::ParseIntError> {
                t.parse::<u8>()?;
                o.push_str(t);
                Ok(None)
            },
        )
        .unwrap();
        assert_eq!(tally.failed, 1);
        assert_eq!(out, b"\n1");
    }
}
