//! What every command shares about its output: the one text-or-JSON
//! choice (`--format text|json`) and the one rule for output that could not
//! be delivered.

use clap::ValueEnum;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use std::io::{self, Write};
use std::process::ExitCode;

/// How a command writes its answers: readable text, or JSON (one object per
/// input, or one document).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OutputFormat {
    #[default]
    Text,
    Json,
}

impl OutputFormat {
    /// `--format`'s reader for a command that says, in its help, what each
    /// choice writes (`text: …`, `json: …`): the same two values, with the
    /// command's own words.
    pub(crate) fn described(
        text: &'static str,
        json: &'static str,
    ) -> impl TypedValueParser<Value = OutputFormat> {
        PossibleValuesParser::new([
            PossibleValue::new("text").help(text),
            PossibleValue::new("json").help(json),
        ])
        .map(|chosen| {
            if chosen == "json" {
                OutputFormat::Json
            } else {
                OutputFormat::Text
            }
        })
    }
}

/// The exit status when standard output was closed by its reader
/// (`bgedit show | head`): the shell's status for SIGPIPE, since output
/// that was not delivered never exits 0.
pub(crate) const BROKEN_PIPE: u8 = 141;

/// Whether a write failed because the reader went away.
pub(crate) fn is_broken_pipe(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::BrokenPipe
}

/// The exit status of a command whose output could not be written: 141
/// without a word when the reader went away (it asked for no more), else 1
/// with the error said on standard error.
pub(crate) fn write_failed(e: &io::Error) -> ExitCode {
    ExitCode::from(write_failed_status(e))
}

/// [`write_failed`] as a number, for a command that returns its status.
pub(crate) fn write_failed_status(e: &io::Error) -> u8 {
    if is_broken_pipe(e) {
        BROKEN_PIPE
    } else {
        // A closed standard error loses the message, never the status.
        let _ = writeln!(io::stderr(), "bgedit: {}", bgedit_core::quote::Shown(e));
        1
    }
}

/// The exit status of a command that returns its status, or stopped
/// because its output could not be written.
pub(crate) fn exit_status(outcome: io::Result<u8>) -> ExitCode {
    match outcome {
        Ok(code) => ExitCode::from(code),
        Err(e) => write_failed(&e),
    }
}
