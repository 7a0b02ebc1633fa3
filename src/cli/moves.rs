//! `bgedit moves`: legal moves of positions, one input line at a time; and
//! the line machinery `play` (`play.rs`) and `quiz` share.
//!
//! Each line's work is a plain function (`moves_line`, `play_line`) from the
//! input text to the output line or why it has none, so any line reader can
//! drive it; [`crate::cli::input::run_lines`] streams them.

use crate::cli::input::{Messages, exit_code, run_lines};
use crate::cli::output::OutputFormat;
use bgedit_core::codec::{IdError, gnubg_id, parse_any};
use bgedit_core::domain::Position;
use bgedit_core::domain::moves::{MoveRuleError, apply, check_move, position_moves};
use bgedit_core::domain::notation::TypedMove;
use std::io;
use std::process::ExitCode;

/// What `moves --format` writes, as its help says it.
pub(crate) const FORMAT_TEXT_HELP: &str = "The moves on one line, separated by ` | `";
pub(crate) const FORMAT_JSON_HELP: &str =
    "`{\"gnubg_id\": …, \"moves\": [{\"move\": …, \"gnubg_id\": …}, …]}`";

// No doc comment: the command's help is its variant's in `args.rs`.
#[derive(clap::Args, Debug, Clone)]
pub struct MovesArgs {
    /// How to write the moves.
    #[arg(long, default_value = "text",
          value_parser = OutputFormat::described(FORMAT_TEXT_HELP, FORMAT_JSON_HELP))]
    pub format: OutputFormat,
    /// IDs in any accepted format; standard input when none.
    #[arg(allow_hyphen_values = true)]
    pub ids: Vec<String>,
}

/// `bgedit moves`: each position's legal moves.
pub fn run(args: MovesArgs) -> ExitCode {
    each_line(&args.ids, |l| moves_line(l, args.format))
}

/// Runs `work` on each ID (standard input when none) through the process's
/// standard streams: one output line per input, exit 1 when any failed.
/// `moves`, `play` and `quiz` share it.
pub(crate) fn each_line<Why: std::fmt::Display>(
    ids: &[String],
    work: impl Fn(&str) -> Result<LineOutput, Why>,
) -> ExitCode {
    let stdin = io::stdin().lock();
    let stdout = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let stderr = Messages::new(io::BufWriter::new(io::stderr().lock()));
    exit_code(run_lines(ids, stdin, stdout, stderr, as_job(work)))
}

/// What one line gave: its output line, and a note for standard error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LineOutput {
    pub line: String,
    pub note: Option<String>,
}

/// Why a line of `moves` or `play` has no answer.
#[derive(Debug, thiserror::Error)]
pub(crate) enum LineError {
    #[error(transparent)]
    Id(#[from] IdError),
    /// The move to play breaks a rule.
    #[error(transparent)]
    Move(#[from] MoveRuleError),
}

fn read_position(text: &str) -> Result<Position, IdError> {
    parse_any(text, &Position::default()).map(|i| i.position)
}

/// Every legal move of the position on `text`. No dice, a game not in play
/// or no legal move is not an error: the line is empty (text) or has
/// `"moves": []` and a `"reason"` (JSON), and the reason is the note.
pub(crate) fn moves_line(text: &str, format: OutputFormat) -> Result<LineOutput, IdError> {
    let position = read_position(text)?;
    let id = gnubg_id::encode(&position.board, &position.state);
    let moves = position_moves(&position);
    let reason = moves.as_ref().err().map(|r| r.to_string());
    let moves = moves.unwrap_or_default();
    let line = match format {
        OutputFormat::Text => moves
            .iter()
            .map(|m| m.notation())
            .collect::<Vec<_>>()
            .join(" | "),
        OutputFormat::Json => {
            // Written by hand to keep the documented key order.
            let quote = |t: &str| serde_json::Value::from(t).to_string();
            let mut json = format!("{{\"gnubg_id\":{},\"moves\":[", quote(&id));
            for (i, m) in moves.iter().enumerate() {
                let after = apply(&position, m);
                if i > 0 {
                    json.push(',');
                }
                json.push_str(&format!(
                    "{{\"move\":{},\"gnubg_id\":{}}}",
                    quote(&m.notation()),
                    quote(&gnubg_id::encode(&after.board, &after.state))
                ));
            }
            json.push(']');
            if let Some(reason) = &reason {
                json.push_str(&format!(",\"reason\":{}", quote(reason)));
            }
            json.push('}');
            json
        }
    };
    Ok(LineOutput {
        line,
        note: reason.map(|r| format!("no moves: {r}")),
    })
}

/// The GNUBG ID after playing `typed` in the position on `text`, or the
/// rule the move breaks.
pub(crate) fn play_line(typed: &TypedMove, text: &str) -> Result<LineOutput, LineError> {
    let position = read_position(text)?;
    let legal = check_move(&position, typed)?;
    let after = apply(&position, &legal);
    Ok(LineOutput {
        line: gnubg_id::encode(&after.board, &after.state),
        note: None,
    })
}

/// `work` as a job for [`crate::cli::input::run_lines`]: its line, and its
/// note for standard error.
pub(crate) fn as_job<Why>(
    work: impl Fn(&str) -> Result<LineOutput, Why>,
) -> impl FnMut(&str, &mut String) -> Result<Option<String>, Why> {
    move |text, buf| {
        let result = work(text)?;
        buf.push_str(&result.line);
        buf.push('\n');
        Ok(result.note)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bgedit_core::domain::notation::parse;

    const OPENING_31: &str = "4HPwATDgc/ABMA:cIkFAAAAAAAA";

    fn run<Why: std::fmt::Display>(
        args: &[&str],
        input: &str,
        work: impl Fn(&str) -> Result<LineOutput, Why>,
    ) -> (String, String, u64) {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let tally =
            crate::cli::input::run_lines(&args, input.as_bytes(), &mut out, &mut err, as_job(work))
                .unwrap();
        let failed = tally.failed;
        (
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
            failed,
        )
    }

    #[test]
    fn moves_lists_every_move_and_names_bad_lines() {
        let input = format!("{OPENING_31}\nnonsense\n4HPwATDgc/ABMA:cAkAAAAAAAAA\n");
        let (out, err, failed) = run(&[], &input, |l| moves_line(l, OutputFormat::Text));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0].split(" | ").count(), 16);
        assert!(lines[0].split(" | ").any(|m| m == "8/5 6/5"));
        assert_eq!(lines[1], "");
        assert_eq!(lines[2], "");
        assert_eq!(failed, 1);
        assert!(err.contains("line 2: "), "{err}");
        assert!(err.contains("line 3: no moves: no dice rolled"), "{err}");
    }

    #[test]
    fn json_gives_the_id_after_each_move_or_the_reason() {
        let out = moves_line(OPENING_31, OutputFormat::Json).unwrap().line;
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["gnubg_id"], OPENING_31);
        assert_eq!(v["moves"].as_array().unwrap().len(), 16);
        let none = moves_line("4HPwATDgc/ABMA:cAkAAAAAAAAA", OutputFormat::Json)
            .unwrap()
            .line;
        let v: serde_json::Value = serde_json::from_str(&none).unwrap();
        assert_eq!(v["moves"], serde_json::json!([]));
        assert_eq!(v["reason"], "no dice rolled");
    }

    #[test]
    fn play_gives_the_next_id_or_the_rule() {
        let typed = parse("8/5 6/5").unwrap();
        let out = play_line(&typed, OPENING_31).unwrap().line;
        // gnubg 1.07 after `move 8/5 6/5` from the opening 3-1.
        assert_eq!(out, "sGfwATDgc/ABMA:MAEAAAAAAAAA");
        let err = play_line(&parse("13/8").unwrap(), OPENING_31).unwrap_err();
        assert!(matches!(err, LineError::Move(_)), "{err}");
        assert!(err.to_string().contains("wrong dice"), "{err}");
    }
}
