//! The GNUBG ID, `POSITIONID:MATCHID`, and the forgiving reading of what
//! users paste: `GNUBG ID: …`, gnubg's two header lines (`Position ID: …` /
//! `Match ID   : …`), or either ID alone.

use super::error::{IdError, IdKind};
use super::{match_id, position_id};
use crate::domain::{Board, MatchState};

/// The IDs found in a pasted text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found<'a> {
    pub position_id: Option<&'a str>,
    pub match_id: Option<&'a str>,
}

/// Words of gnubg's labels, skipped when looking for the IDs.
const LABEL_WORDS: [&str; 7] = [
    "gnubg",
    "gnu",
    "backgammon",
    "id",
    "position",
    "match",
    "gnubgid",
];

/// Finds the Position ID and Match ID in `text` by their lengths, as gnubg's
/// own `set gnubgid` does, but refuses what it cannot place rather than
/// skipping it: a near miss gets the length error of the ID it resembles.
///
/// A text with gnubg's labels (`Position ID:`, `Match ID   :`) is read by
/// them alone, so a whole pasted `show board` block works too.
pub fn find(text: &str) -> Result<Found<'_>, IdError> {
    let labelled = ["Position ID", "Match ID"]
        .map(|label| text.lines().find_map(|line| after_label(line, label)));
    if labelled.iter().all(Option::is_none) {
        place_words(text.split(|c: char| c.is_whitespace() || c == ':'))
    } else {
        place_words(labelled.into_iter().flatten())
    }
}

/// The word after `label` and its colon on `line`.
fn after_label<'a>(line: &'a str, label: &str) -> Option<&'a str> {
    let rest = &line[line.find(label)? + label.len()..];
    rest.trim_start()
        .strip_prefix(':')?
        .split_whitespace()
        .next()
}

/// Places each word as a Position ID or a Match ID by its length.
fn place_words<'a>(words: impl Iterator<Item = &'a str>) -> Result<Found<'a>, IdError> {
    let mut found = Found {
        position_id: None,
        match_id: None,
    };
    let words = words
        .filter(|w| !w.is_empty())
        .filter(|w| !LABEL_WORDS.iter().any(|l| l.eq_ignore_ascii_case(w)));
    for word in words {
        let n = word.chars().count();
        let slot = match n {
            position_id::LEN => &mut found.position_id,
            match_id::LEN => &mut found.match_id,
            13 | 15 => {
                return Err(IdError::WrongLength {
                    kind: IdKind::PositionId,
                    expected: position_id::LEN,
                    found: n,
                });
            }
            11 => {
                return Err(IdError::WrongLength {
                    kind: IdKind::MatchId,
                    expected: match_id::LEN,
                    found: n,
                });
            }
            _ => {
                return Err(IdError::Unrecognized(format!(
                    "'{}' is not a Position ID (14 characters), a Match ID (12) or an XGID",
                    shorten(word)
                )));
            }
        };
        if slot.is_some() {
            return Err(IdError::Unrecognized(format!(
                "two IDs of {n} characters; expected one Position ID and one Match ID"
            )));
        }
        *slot = Some(word);
    }
    if found.position_id.is_none() && found.match_id.is_none() {
        return Err(IdError::Unrecognized(
            "no Position ID or Match ID found".to_owned(),
        ));
    }
    Ok(found)
}

fn shorten(word: &str) -> String {
    if word.chars().count() > 30 {
        format!("{}…", word.chars().take(30).collect::<String>())
    } else {
        word.to_owned()
    }
}

/// Appends `POSITIONID:MATCHID` to `out`.
pub fn encode_into(board: &Board, state: &MatchState, out: &mut String) {
    position_id::encode_into(board, state.on_roll, out);
    out.push(':');
    match_id::encode_into(state, out);
}

pub fn encode(board: &Board, state: &MatchState) -> String {
    let mut s = String::with_capacity(27);
    encode_into(board, state, &mut s);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_ids_in_every_pasted_form() {
        let both = Found {
            position_id: Some("4HPwATDgc/ABMA"),
            match_id: Some("cAkAAAAAAAAA"),
        };
        for text in [
            "4HPwATDgc/ABMA:cAkAAAAAAAAA",
            "  GNUBG ID: 4HPwATDgc/ABMA:cAkAAAAAAAAA ",
            "GNU Backgammon  Position ID: 4HPwATDgc/ABMA\n                 Match ID   : cAkAAAAAAAAA",
            "Position ID: 4HPwATDgc/ABMA\r\nMatch ID   : cAkAAAAAAAAA\r\n",
            "cAkAAAAAAAAA 4HPwATDgc/ABMA",
        ] {
            assert_eq!(find(text).unwrap(), both, "{text:?}");
        }
        assert_eq!(
            find("4HPwATDgc/ABMA").unwrap(),
            Found {
                position_id: Some("4HPwATDgc/ABMA"),
                match_id: None
            }
        );
        assert_eq!(
            find("Match ID: cAkAAAAAAAAA").unwrap().match_id,
            Some("cAkAAAAAAAAA")
        );
    }

    #[test]
    fn a_whole_show_board_block_is_read_by_its_labels() {
        let block = crate::text_board::render(&crate::domain::Position::default());
        assert_eq!(
            find(&block).unwrap(),
            Found {
                position_id: Some("4HPwATDgc/ABMA"),
                match_id: Some("cAkAAAAAAAAA")
            }
        );
        // A label with a damaged ID still names the problem.
        assert_eq!(
            find("Position ID: 4HPwATDgc/ABM\n +13-14-15-16-17-18------19-20-21-22-23-24-+")
                .unwrap_err()
                .to_string(),
            "Position ID: 13 characters; a Position ID has 14"
        );
    }

    #[test]
    fn near_misses_get_length_errors() {
        assert_eq!(
            find("4HPwATDgc/ABM").unwrap_err().to_string(),
            "Position ID: 13 characters; a Position ID has 14"
        );
        assert_eq!(
            find("4HPwATDgc/ABMA:cAkAAAAAAAA").unwrap_err().to_string(),
            "Match ID: 11 characters; a Match ID has 12"
        );
        assert!(matches!(find("hello"), Err(IdError::Unrecognized(_))));
        assert!(matches!(find("GNUBG ID:"), Err(IdError::Unrecognized(_))));
    }
}
