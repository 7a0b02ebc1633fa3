//! `bgedit play MOVE`: each position after the move, or the rule it breaks.

use super::moves::{each_line, play_line};
use std::process::ExitCode;

// No doc comment: the command's help is its variant's in `args.rs`.
#[derive(clap::Args, Debug, Clone)]
pub struct PlayArgs {
    /// The move, as gnubg writes it or players type it (`13-7 8-7`, `b/20`).
    #[arg(value_name = "MOVE", allow_hyphen_values = true)]
    pub play: String,
    /// IDs in any accepted format; standard input when none.
    #[arg(allow_hyphen_values = true)]
    pub ids: Vec<String>,
}

/// Plays the move in each position (standard input when no IDs).
pub fn run(args: PlayArgs) -> ExitCode {
    if let Some(message) = unquoted_move(&args.play, &args.ids) {
        bgedit_core::say!("bgedit: {message}");
        return ExitCode::from(2);
    }
    match bgedit_core::domain::notation::parse(&args.play) {
        Ok(typed) => each_line(&args.ids, |l| play_line(&typed, l)),
        Err(e) => {
            bgedit_core::say!("bgedit: the move {:?}: {e}", args.play);
            ExitCode::from(2)
        }
    }
}

/// `bgedit play 8/5 6/5 ID`: the shell split the move, and its second half
/// would be read as an ID. Says how to write it, or `None` when the words
/// after the move start with an ID.
pub(crate) fn unquoted_move(play: &str, ids: &[String]) -> Option<String> {
    let base = bgedit_core::domain::Position::default();
    let rest: Vec<&str> = ids
        .iter()
        .map(String::as_str)
        .take_while(|w| {
            bgedit_core::codec::parse_any(w, &base).is_err()
                && bgedit_core::domain::notation::parse(w).is_ok()
        })
        .collect();
    if rest.is_empty() {
        return None;
    }
    let whole = std::iter::once(play)
        .chain(rest.iter().copied())
        .collect::<Vec<_>>()
        .join(" ");
    Some(format!(
        "the move must be one argument: quote it, as in bgedit play \"{}\" ID",
        bgedit_core::quote::Clipped(&whole)
    ))
}

#[cfg(test)]
mod unquoted_tests {
    use super::unquoted_move;

    #[test]
    fn a_move_split_by_the_shell_is_named_with_the_quoting() {
        let ids = ["6/5".to_owned(), "4HPwATDgc/ABMA:cAkAAAAAAAAA".to_owned()];
        let m = unquoted_move("8/5", &ids).expect("a message");
        assert!(m.contains("bgedit play \"8/5 6/5\" ID"), "{m}");
        let ids = ["4HPwATDgc/ABMA:cAkAAAAAAAAA".to_owned()];
        assert_eq!(unquoted_move("8/5 6/5", &ids), None);
        assert_eq!(unquoted_move("8/5 6/5", &[]), None);
    }
}
