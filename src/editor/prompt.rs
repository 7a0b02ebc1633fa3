//! The input line: what is being asked, and how the typed text is read.
//! Parsing is pure and returns the action to apply, or a message.

use super::action::Action;
use crate::domain::match_state::larger_first;
use crate::domain::{Place, Player};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromptKind {
    /// Any ID: GNUBG ID, Position ID, Match ID, XGID, gnubg's header lines.
    Import,
    GoTo,
    Count,
    Dice,
    MatchLength,
    Score,
    Name(Player),
    /// A gnubg match equity table file.
    MetFile,
}

impl PromptKind {
    /// The question shown before the text.
    pub fn label(self) -> &'static str {
        match self {
            PromptKind::Import => "ID (GNUBG ID, XGID, Position or Match ID)",
            PromptKind::GoTo => "Go to point (1–24, 25 bar, 0 off, for the player on roll)",
            PromptKind::Count => "Checkers here (e.g. 5, x12, o3)",
            PromptKind::Dice => "Dice (e.g. 52; empty for not rolled)",
            PromptKind::MatchLength => "Match length (0 for money)",
            PromptKind::Score => "Score: O then X (2-4), or one player's (x5, o3)",
            PromptKind::Name(Player::O) => "Name of O (top)",
            PromptKind::Name(Player::X) => "Name of X (bottom)",
            PromptKind::MetFile => "MET file (gnubg XML; empty for the built-in Kazaross-XG2)",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompt {
    pub kind: PromptKind,
    pub text: String,
}

/// Longest text the input line takes (an XGID with prefix is 57).
pub const MAX_PROMPT_LEN: usize = 400;

fn number(text: &str, what: &str, max: u32) -> Result<u32, String> {
    let t = text.trim();
    match t.parse::<u32>() {
        Ok(n) if n <= max => Ok(n),
        Ok(n) => Err(format!("{what} {n} is above {max}")),
        Err(_) => Err(format!(
            "'{t}' is not a number; {what} is a whole number from 0 to {max}"
        )),
    }
}

/// Reads the prompt's text into the action it asks for. `on_roll` gives
/// point numbers their meaning, as the board's labels do.
pub fn parse(kind: PromptKind, text: &str, on_roll: Player) -> Result<Action, String> {
    let t = text.trim();
    match kind {
        PromptKind::Import => Ok(Action::Import(text.to_owned())),
        PromptKind::MetFile => Ok(Action::LoadMet(t.to_owned())),
        PromptKind::GoTo => {
            let n = number(t, "a point", 25)? as u8;
            Ok(Action::GoTo(match n {
                0 => Place::Off(on_roll),
                25 => Place::Bar(on_roll),
                own => Place::own_point(on_roll, own),
            }))
        }
        PromptKind::Count => {
            let lower = t.to_ascii_lowercase();
            let (player, digits) = if let Some(rest) = lower.strip_prefix('x') {
                (Some(Player::X), rest.to_owned())
            } else if let Some(rest) = lower.strip_prefix('o') {
                (Some(Player::O), rest.to_owned())
            } else if let Some(rest) = lower.strip_suffix('x') {
                (Some(Player::X), rest.to_owned())
            } else if let Some(rest) = lower.strip_suffix('o') {
                (Some(Player::O), rest.to_owned())
            } else {
                (None, lower)
            };
            Ok(Action::SetCount(
                player,
                number(&digits, "a count", 15)? as u8,
            ))
        }
        PromptKind::Dice => {
            let digits: Vec<u8> = t
                .chars()
                .filter(|c| !matches!(c, ' ' | '-' | ',' | '/'))
                .map(|c| c.to_digit(10).map(|d| d as u8).ok_or(c))
                .collect::<Result<_, _>>()
                .map_err(|c| format!("'{c}' is not a die; type two digits 1–6, like 52"))?;
            match digits.as_slice() {
                [] | [0, 0] => Ok(Action::SetDice(None)),
                [a @ 1..=6, b @ 1..=6] => Ok(Action::SetDice(Some(larger_first(*a, *b)))),
                [a, b] => Err(format!("dice {a} and {b}: each die is 1–6")),
                _ => Err(format!(
                    "{} digits; dice are two digits 1–6, like 52",
                    digits.len()
                )),
            }
        }
        PromptKind::MatchLength => Ok(Action::SetMatchLength(
            number(t, "the match length", 32767)? as u16,
        )),
        PromptKind::Score => {
            let parts: Vec<&str> = t
                .split(|c: char| matches!(c, '-' | ':' | ',' | '/') || c.is_whitespace())
                .filter(|s| !s.is_empty())
                .collect();
            let lower = t.to_ascii_lowercase();
            let one = |player, digits: &str| {
                Ok(Action::SetPlayerScore(
                    player,
                    number(digits, "a score", 32767)? as u16,
                ))
            };
            if let Some(d) = lower.strip_prefix('x') {
                return one(Player::X, d);
            }
            if let Some(d) = lower.strip_prefix('o') {
                return one(Player::O, d);
            }
            match parts.as_slice() {
                [o, x] => Ok(Action::SetScore([
                    number(o, "a score", 32767)? as u16,
                    number(x, "a score", 32767)? as u16,
                ])),
                _ => {
                    Err("type both scores, O's then X's (2-4), or one player's (x5, o3)".to_owned())
                }
            }
        }
        PromptKind::Name(player) => {
            if t.is_empty() {
                Err("a name cannot be empty".to_owned())
            } else if t.chars().any(char::is_control) {
                Err("a name is one line of text".to_owned())
            } else {
                Ok(Action::SetName(player, t.to_owned()))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_are_counted_for_the_player_on_roll() {
        assert_eq!(
            parse(PromptKind::GoTo, "6", Player::X),
            Ok(Action::GoTo(Place::Point(6)))
        );
        assert_eq!(
            parse(PromptKind::GoTo, "6", Player::O),
            Ok(Action::GoTo(Place::Point(19)))
        );
        assert_eq!(
            parse(PromptKind::GoTo, "25", Player::O),
            Ok(Action::GoTo(Place::Bar(Player::O)))
        );
        assert_eq!(
            parse(PromptKind::GoTo, "0", Player::X),
            Ok(Action::GoTo(Place::Off(Player::X)))
        );
        assert!(
            parse(PromptKind::GoTo, "26", Player::X)
                .unwrap_err()
                .contains("above 25")
        );
    }

    #[test]
    fn counts_take_an_optional_colour() {
        assert_eq!(
            parse(PromptKind::Count, "x12", Player::X),
            Ok(Action::SetCount(Some(Player::X), 12))
        );
        assert_eq!(
            parse(PromptKind::Count, "3O", Player::X),
            Ok(Action::SetCount(Some(Player::O), 3))
        );
        assert_eq!(
            parse(PromptKind::Count, "0", Player::X),
            Ok(Action::SetCount(None, 0))
        );
        assert!(parse(PromptKind::Count, "16", Player::X).is_err());
    }

    #[test]
    fn dice_are_stored_larger_first() {
        assert_eq!(
            parse(PromptKind::Dice, "25", Player::X),
            Ok(Action::SetDice(Some([5, 2])))
        );
        assert_eq!(
            parse(PromptKind::Dice, "6-6", Player::X),
            Ok(Action::SetDice(Some([6, 6])))
        );
        assert_eq!(
            parse(PromptKind::Dice, "", Player::X),
            Ok(Action::SetDice(None))
        );
        assert!(
            parse(PromptKind::Dice, "07", Player::X)
                .unwrap_err()
                .contains("dice 0 and 7")
        );
        assert!(parse(PromptKind::Dice, "5", Player::X).is_err());
    }

    #[test]
    fn scores_and_lengths() {
        assert_eq!(
            parse(PromptKind::Score, "2-4", Player::X),
            Ok(Action::SetScore([2, 4]))
        );
        assert_eq!(
            parse(PromptKind::Score, "x5", Player::X),
            Ok(Action::SetPlayerScore(Player::X, 5))
        );
        assert_eq!(
            parse(PromptKind::Score, "O 3", Player::X),
            Ok(Action::SetPlayerScore(Player::O, 3))
        );
        assert_eq!(
            parse(PromptKind::Score, " 2 4 ", Player::X),
            Ok(Action::SetScore([2, 4]))
        );
        assert!(parse(PromptKind::Score, "2", Player::X).is_err());
        assert_eq!(
            parse(PromptKind::MatchLength, "7", Player::X),
            Ok(Action::SetMatchLength(7))
        );
        assert!(
            parse(PromptKind::MatchLength, "seven", Player::X)
                .unwrap_err()
                .contains("not a number")
        );
    }
}
