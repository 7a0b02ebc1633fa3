//! The input line's part of the reducer: its edits, and the typed text
//! read into the action to apply, or a message for the status line.

use super::state::{PromptAction, PromptKind};
use crate::model::{Mode, Model, Status};

/// The open line's edits: the model changed, and an action to apply next
/// if the edit leads to one (the answer of a yes/no question, a
/// completion). Enter (`Submit`) is the reducer's: it applies the action
/// the line reads as.
pub(crate) fn update(mut model: Model, action: PromptAction) -> (Model, Option<Action>) {
    use PromptAction as P;
    let Mode::Prompt(p) = &mut model.mode else {
        return (model, None);
    };
    match action {
        P::Char(c) if p.kind.is_yes_no() => {
            // One key answers.
            p.line.text = c.to_string();
            return (model, Some(Action::Prompt(P::Submit)));
        }
        P::Char(c) if !c.is_control() => p.line.insert(&c.to_string()),
        P::Char(_) => {}
        P::Paste(text) => p.line.insert(&text),
        P::Backspace => p.line.backspace(),
        P::Delete => p.line.delete(),
        P::DeleteWord => p.line.delete_word(),
        P::Move(motion) => p.line.motion(motion),
        P::Clear => p.line.clear(),
        // Esc on a yes/no question is the answer no.
        P::Cancel if p.kind.is_yes_no() => {
            return (model, Some(Action::Prompt(P::Char('n'))));
        }
        P::Cancel => {
            model.mode = Mode::Normal;
            model.status = Status::info("Cancelled");
        }
        // Tab: the match panel completes a file name, the board's move
        // line a move.
        P::Complete if matches!(p.kind, PromptKind::MatchFile | PromptKind::SgfFile) => {
            return (
                model,
                Some(Action::Review(
                    crate::match_review::state::ReviewAction::Complete,
                )),
            );
        }
        P::Complete => {
            return (
                model,
                Some(Action::Play(crate::play::state::PlayAction::Complete)),
            );
        }
        // Enter is the reducer's (`reducer::submit`), never routed here.
        P::Submit => {}
    }
    (model, None)
}

use crate::action::{Action, BoardAction};
use bgedit_core::domain::match_state::larger_first;
use bgedit_core::domain::{MatchState, Place, Player, Position};

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

/// What the input line starts with: the current value, for the prompts that
/// change one value.
pub fn current_value(kind: PromptKind, position: &Position) -> String {
    let s = &position.state;
    match kind {
        PromptKind::Dice => s.dice.map(|[a, b]| format!("{a}{b}")).unwrap_or_default(),
        PromptKind::MatchLength => s.match_length.to_string(),
        PromptKind::Score => format!("{}-{}", s.score[0], s.score[1]),
        PromptKind::Name(p) => position.names.of(p).to_owned(),
        PromptKind::Import
        | PromptKind::GoTo
        | PromptKind::Count
        | PromptKind::Move
        | PromptKind::MetFile
        | PromptKind::MatchFile
        | PromptKind::MistakeThreshold
        | PromptKind::SgfFile
        | PromptKind::MatchFilter
        | PromptKind::ReplaceSgf
        | PromptKind::CrawfordOffer(_) => String::new(),
    }
}

/// Reads the prompt's text into the action it asks for. The player on roll
/// gives point numbers their meaning, as the board's labels do; the match
/// length gives "3-away" its score.
pub fn parse(kind: PromptKind, text: &str, state: &MatchState) -> Result<Action, String> {
    let on_roll = state.on_roll;
    let t = text.trim();
    match kind {
        PromptKind::Import => Ok(Action::Import(text.to_owned())),
        PromptKind::MetFile => Ok(Action::Numbers(
            crate::numbers::state::NumbersAction::LoadMet(t.to_owned()),
        )),
        PromptKind::MatchFile => Ok(Action::Review(
            crate::match_review::state::ReviewAction::Open(t.to_owned()),
        )),
        PromptKind::SgfFile => Ok(Action::Review(
            crate::match_review::state::ReviewAction::SaveSgf(t.to_owned()),
        )),
        PromptKind::MatchFilter => Ok(Action::MatchList(
            crate::match_list::state::MatchListAction::Filter(t.to_owned()),
        )),
        PromptKind::MistakeThreshold => {
            let e: f64 = t
                .parse()
                .ok()
                .filter(|e: &f64| (0.0..=3.0).contains(e))
                .ok_or_else(|| {
                    format!("{t:?} is not an equity from 0 to 3 (gnubg's bad is 0.06)")
                })?;
            Ok(Action::Review(
                crate::match_review::state::ReviewAction::SetThreshold((e * 1000.0).round() as u32),
            ))
        }
        PromptKind::GoTo => {
            let n = number(t, "a point", 25)? as u8;
            Ok(Action::Board(BoardAction::GoTo(match n {
                0 => Place::Off(on_roll),
                25 => Place::Bar(on_roll),
                own => Place::own_point(on_roll, own),
            })))
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
            Ok(Action::Board(BoardAction::SetCount(
                player,
                number(&digits, "a count", 15)? as u8,
            )))
        }
        PromptKind::Dice => {
            let digits: Vec<u8> = t
                .chars()
                .filter(|c| !matches!(c, ' ' | '-' | ',' | '/'))
                .map(|c| c.to_digit(10).map(|d| d as u8).ok_or(c))
                .collect::<Result<_, _>>()
                .map_err(|c| format!("'{c}' is not a die; type two digits 1–6, like 52"))?;
            match digits.as_slice() {
                [] | [0, 0] => Ok(Action::Board(BoardAction::SetDice(None))),
                [a @ 1..=6, b @ 1..=6] => Ok(Action::Board(BoardAction::SetDice(Some(
                    larger_first(*a, *b),
                )))),
                [a, b] => Err(format!("dice {a} and {b}: each die is 1–6")),
                _ => Err(format!(
                    "{} digits; dice are two digits 1–6, like 52",
                    digits.len()
                )),
            }
        }
        PromptKind::MatchLength => {
            Ok(Action::Board(BoardAction::SetMatchLength(
                number(t, "the match length", 32767)? as u16,
            )))
        }
        PromptKind::Score => score(t, state.match_length),
        PromptKind::Move => Ok(Action::Play(crate::play::state::PlayAction::Submit(
            text.to_owned(),
        ))),
        PromptKind::Name(player) => {
            if t.is_empty() {
                Err("a name cannot be empty".to_owned())
            } else {
                // The one rule for names, as for `--name-o` and JSON.
                bgedit_core::domain::check_name(player, t).map_err(|e| e.to_string())?;
                Ok(Action::Board(BoardAction::SetName(player, t.to_owned())))
            }
        }
        PromptKind::ReplaceSgf => match t.to_ascii_lowercase().as_str() {
            "y" | "yes" => Ok(Action::Review(
                crate::match_review::state::ReviewAction::ReplaceSgf(true),
            )),
            "n" | "no" => Ok(Action::Review(
                crate::match_review::state::ReviewAction::ReplaceSgf(false),
            )),
            _ => Err("answer y (replace the file) or n (keep it)".to_owned()),
        },
        PromptKind::CrawfordOffer(_) => match t.to_ascii_lowercase().as_str() {
            "y" | "yes" => Ok(Action::Board(BoardAction::SetCrawford(true))),
            "n" | "no" => Ok(Action::Board(BoardAction::SetCrawford(false))),
            _ => Err("answer y (Crawford game) or n (not)".to_owned()),
        },
    }
}

/// A score as players say it: points won (`2`) or points still needed
/// (`3-away`, `3away`, `3a`, `-3`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ScoreWord {
    Won(u32),
    Away(u32),
}

/// Splits score text into its values. A `-` starting a word marks an away
/// score (`-3`); between two numbers (`2-4`) it separates them.
fn score_words(text: &str) -> Result<Vec<ScoreWord>, String> {
    let lower = text.to_ascii_lowercase().replace("away", "a");
    let chars: Vec<char> = lower.chars().collect();
    let separator = |c: char| c.is_whitespace() || matches!(c, ',' | ':' | '/' | ';');
    let mut words = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next_is_digit = chars.get(i + 1).is_some_and(char::is_ascii_digit);
        if separator(c) || (c == '-' && ((i > 0 && !separator(chars[i - 1])) || !next_is_digit)) {
            i += 1;
            continue;
        }
        let away_before = c == '-';
        if away_before {
            i += 1;
        }
        let start = i;
        while i < chars.len() && chars[i].is_ascii_digit() {
            i += 1;
        }
        if start == i {
            let word: String = chars[start.min(chars.len() - 1)..]
                .iter()
                .take_while(|&&c| !separator(c))
                .collect();
            return Err(format!(
                "'{word}' is not a score; type points won (2) or points needed (3-away, -3)"
            ));
        }
        let digits: String = chars[start..i].iter().collect();
        let n = digits
            .parse::<u32>()
            .ok()
            .filter(|&n| n <= 32767)
            .ok_or(format!("score {digits} is above 32767"))?;
        // "3-away", "3 away", "3a".
        let mut j = i;
        while j < chars.len() && (chars[j] == '-' || chars[j] == ' ') {
            j += 1;
        }
        let away_after = chars.get(j) == Some(&'a');
        if away_after {
            i = j + 1;
        }
        words.push(if away_before || away_after {
            ScoreWord::Away(n)
        } else {
            ScoreWord::Won(n)
        });
    }
    Ok(words)
}

/// Points won for a score word; an away score needs a match.
fn points(word: ScoreWord, match_length: u16) -> Result<u16, String> {
    match word {
        ScoreWord::Won(n) => Ok(n as u16),
        ScoreWord::Away(_) if match_length == 0 => Err(
            "an away score needs a match length; this is a money game (set one with m)".to_owned(),
        ),
        ScoreWord::Away(n) if n == 0 || n > u32::from(match_length) => Err(format!(
            "{n}-away: in a {match_length}-point match a player is 1- to {match_length}-away"
        )),
        ScoreWord::Away(n) => Ok(match_length - n as u16),
    }
}

fn score(t: &str, match_length: u16) -> Result<Action, String> {
    let lower = t.to_ascii_lowercase();
    let player = match lower.chars().next() {
        Some('x') => Some(Player::X),
        Some('o') => Some(Player::O),
        _ => None,
    };
    let rest = if player.is_some() { &t[1..] } else { t };
    let words = score_words(rest.trim())?;
    match (player, words.as_slice()) {
        (Some(p), [w]) => Ok(Action::Board(BoardAction::SetPlayerScore(p, points(*w, match_length)?))),
        (None, [o, x]) => Ok(Action::Board(BoardAction::SetScore([
            points(*o, match_length)?,
            points(*x, match_length)?,
        ]))),
        _ => Err(
            "type both scores, O's then X's (2-4, 3-away 5-away, -3 -5), or one player's (x5, o -2)"
                .to_owned(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::prompt::state::{Motion, Prompt};

    fn on_roll(player: Player) -> MatchState {
        MatchState {
            on_roll: player,
            ..MatchState::default()
        }
    }

    #[test]
    fn points_are_counted_for_the_player_on_roll() {
        assert_eq!(
            parse(PromptKind::GoTo, "6", &on_roll(Player::X)),
            Ok(Action::Board(BoardAction::GoTo(Place::Point(6))))
        );
        assert_eq!(
            parse(PromptKind::GoTo, "6", &on_roll(Player::O)),
            Ok(Action::Board(BoardAction::GoTo(Place::Point(19))))
        );
        assert_eq!(
            parse(PromptKind::GoTo, "25", &on_roll(Player::O)),
            Ok(Action::Board(BoardAction::GoTo(Place::Bar(Player::O))))
        );
        assert_eq!(
            parse(PromptKind::GoTo, "0", &on_roll(Player::X)),
            Ok(Action::Board(BoardAction::GoTo(Place::Off(Player::X))))
        );
        assert!(
            parse(PromptKind::GoTo, "26", &on_roll(Player::X))
                .unwrap_err()
                .contains("above 25")
        );
    }

    #[test]
    fn counts_take_an_optional_colour() {
        assert_eq!(
            parse(PromptKind::Count, "x12", &on_roll(Player::X)),
            Ok(Action::Board(BoardAction::SetCount(Some(Player::X), 12)))
        );
        assert_eq!(
            parse(PromptKind::Count, "3O", &on_roll(Player::X)),
            Ok(Action::Board(BoardAction::SetCount(Some(Player::O), 3)))
        );
        assert_eq!(
            parse(PromptKind::Count, "0", &on_roll(Player::X)),
            Ok(Action::Board(BoardAction::SetCount(None, 0)))
        );
        assert!(parse(PromptKind::Count, "16", &on_roll(Player::X)).is_err());
    }

    #[test]
    fn dice_are_stored_larger_first() {
        assert_eq!(
            parse(PromptKind::Dice, "25", &on_roll(Player::X)),
            Ok(Action::Board(BoardAction::SetDice(Some([5, 2]))))
        );
        assert_eq!(
            parse(PromptKind::Dice, "6-6", &on_roll(Player::X)),
            Ok(Action::Board(BoardAction::SetDice(Some([6, 6]))))
        );
        assert_eq!(
            parse(PromptKind::Dice, "", &on_roll(Player::X)),
            Ok(Action::Board(BoardAction::SetDice(None)))
        );
        assert!(
            parse(PromptKind::Dice, "07", &on_roll(Player::X))
                .unwrap_err()
                .contains("dice 0 and 7")
        );
        assert!(parse(PromptKind::Dice, "5", &on_roll(Player::X)).is_err());
    }

    #[test]
    fn scores_and_lengths() {
        assert_eq!(
            parse(PromptKind::Score, "2-4", &on_roll(Player::X)),
            Ok(Action::Board(BoardAction::SetScore([2, 4])))
        );
        assert_eq!(
            parse(PromptKind::Score, "x5", &on_roll(Player::X)),
            Ok(Action::Board(BoardAction::SetPlayerScore(Player::X, 5)))
        );
        assert_eq!(
            parse(PromptKind::Score, "O 3", &on_roll(Player::X)),
            Ok(Action::Board(BoardAction::SetPlayerScore(Player::O, 3)))
        );
        assert_eq!(
            parse(PromptKind::Score, " 2 4 ", &on_roll(Player::X)),
            Ok(Action::Board(BoardAction::SetScore([2, 4])))
        );
        assert!(parse(PromptKind::Score, "2", &on_roll(Player::X)).is_err());
        assert_eq!(
            parse(PromptKind::MatchLength, "7", &on_roll(Player::X)),
            Ok(Action::Board(BoardAction::SetMatchLength(7)))
        );
        assert!(
            parse(PromptKind::MatchLength, "seven", &on_roll(Player::X))
                .unwrap_err()
                .contains("not a number")
        );
    }

    #[test]
    fn scores_as_players_say_them() {
        let nine = MatchState {
            match_length: 9,
            ..MatchState::default()
        };
        for (text, want) in [
            (
                "3-away 5-away",
                Action::Board(BoardAction::SetScore([6, 4])),
            ),
            ("-3 -5", Action::Board(BoardAction::SetScore([6, 4]))),
            (
                "3away, 5 away",
                Action::Board(BoardAction::SetScore([6, 4])),
            ),
            ("3a 5a", Action::Board(BoardAction::SetScore([6, 4]))),
            ("2 5-away", Action::Board(BoardAction::SetScore([2, 4]))),
            ("2-4", Action::Board(BoardAction::SetScore([2, 4]))),
            ("2 - 4", Action::Board(BoardAction::SetScore([2, 4]))),
            (
                "x -2",
                Action::Board(BoardAction::SetPlayerScore(Player::X, 7)),
            ),
            (
                "X 2-away",
                Action::Board(BoardAction::SetPlayerScore(Player::X, 7)),
            ),
            (
                "o-1",
                Action::Board(BoardAction::SetPlayerScore(Player::O, 8)),
            ),
            (
                "o 3",
                Action::Board(BoardAction::SetPlayerScore(Player::O, 3)),
            ),
        ] {
            assert_eq!(parse(PromptKind::Score, text, &nine), Ok(want), "{text}");
        }
        let err = parse(PromptKind::Score, "-10 -3", &nine).unwrap_err();
        assert!(err.contains("10-away"), "{err}");
        let err = parse(PromptKind::Score, "-3 -5", &MatchState::default()).unwrap_err();
        assert!(err.contains("money game"), "{err}");
        let err = parse(PromptKind::Score, "3-away five", &nine).unwrap_err();
        assert!(err.contains("'five' is not a score"), "{err}");
    }

    #[test]
    fn the_crawford_question_takes_y_or_n() {
        let s = MatchState::default();
        let kind = PromptKind::CrawfordOffer(Player::O);
        assert_eq!(
            parse(kind, "y", &s),
            Ok(Action::Board(BoardAction::SetCrawford(true)))
        );
        assert_eq!(
            parse(kind, "N", &s),
            Ok(Action::Board(BoardAction::SetCrawford(false)))
        );
        assert!(parse(kind, "q", &s).is_err());
    }

    fn typed(text: &str) -> Prompt {
        let mut p = Prompt::new(PromptKind::Import);
        p.line.insert(text);
        p
    }

    #[test]
    fn typing_goes_where_the_cursor_is() {
        let mut p = typed("4HPwATDgc/ABMA");
        p.line.motion(Motion::Home);
        p.line.insert("GNUBG ID: ");
        assert_eq!(p.line.text, "GNUBG ID: 4HPwATDgc/ABMA");
        assert_eq!(p.line.cursor, 10);
        p.line.motion(Motion::End);
        p.line.motion(Motion::Left);
        p.line.backspace();
        assert_eq!(p.line.text, "GNUBG ID: 4HPwATDgc/ABA");
        p.line.delete();
        assert_eq!(p.line.text, "GNUBG ID: 4HPwATDgc/AB");
        p.line.delete();
        assert_eq!(
            p.line.text, "GNUBG ID: 4HPwATDgc/AB",
            "nothing after the end"
        );
        p.line.delete_word();
        assert_eq!(p.line.text, "GNUBG ID: ");
        p.line.delete_word();
        assert_eq!(p.line.text, "GNUBG ");
        assert_eq!(p.line.cursor, 6);
        p.line.motion(Motion::Right);
        assert_eq!(p.line.cursor, 6, "no further than the end");
        // Characters, not bytes.
        let mut p = typed("é1");
        p.line.motion(Motion::Left);
        p.line.backspace();
        assert_eq!(p.line.text, "1");
    }

    #[test]
    fn a_current_value_is_replaced_by_typing_or_kept_by_a_cursor_key() {
        let mut p = Prompt::with_value(PromptKind::Dice, "52");
        assert!(p.line.selected);
        p.line.insert("6");
        assert_eq!(p.line.text, "6");
        let mut p = Prompt::with_value(PromptKind::Dice, "52");
        p.line.motion(Motion::Left);
        p.line.insert("3");
        assert_eq!(p.line.text, "532");
        let mut p = Prompt::with_value(PromptKind::Score, "2-4");
        p.line.backspace();
        assert_eq!(p.line.text, "");
    }

    #[test]
    fn long_text_scrolls_to_keep_the_cursor_visible() {
        let xgid = "XGID=a-B--BC-BAA-dB---cbe-B----:1:-1:1:52:4:2:0:9:10";
        let mut p = typed(xgid);
        let (shown, at) = p.line.window(20);
        assert_eq!(shown.chars().count(), 19);
        assert_eq!(at, 19, "the cursor after the last character");
        assert!(
            shown.starts_with('…') && shown.ends_with(":9:10"),
            "{shown}"
        );
        p.line.motion(Motion::Home);
        let (shown, at) = p.line.window(20);
        assert_eq!(at, 0);
        assert!(
            shown.starts_with("XGID=a-B") && shown.ends_with('…'),
            "{shown}"
        );
        for _ in 0..25 {
            p.line.motion(Motion::Right);
        }
        let (shown, at) = p.line.window(20);
        let chars: Vec<char> = shown.chars().collect();
        assert_eq!(chars[at], xgid.chars().nth(25).unwrap(), "{shown} {at}");
        assert!(at < 19);
        // Short text is shown whole.
        assert_eq!(typed("52").line.window(20), ("52".to_owned(), 2));
    }

    #[test]
    fn a_long_value_given_back_to_edit_is_kept_whole_and_typing_stops_at_the_limit() {
        use crate::prompt::state::{Line, MAX_PROMPT_LEN};
        // An entry's tags longer than the line takes: all of them, not cut
        // (the library's line saves what it holds).
        let long = "tag ".repeat(150);
        let mut line = Line::at_end(&long);
        assert_eq!(line.text, long);
        assert!(line.is_full());
        line.insert("x");
        assert_eq!(line.text, long, "a full line takes nothing more");
        // The board's input line, offered a current value, cuts it.
        let p = Prompt::with_value(PromptKind::Import, &long);
        assert_eq!(p.line.text.chars().count(), MAX_PROMPT_LEN);
    }
}
