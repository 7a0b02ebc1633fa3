//! Which format a pasted text holds, decided in one place by what the text
//! contains: JSON by its brace, gnubg's labels (`Position ID:`,
//! `Match ID   :`), an `XGID=` token, and the shapes of the words (a
//! 14-character Position ID, a 12-character Match ID, the two joined by a
//! colon, a bare XGID's 26-character board and ten fields). Whatever else
//! surrounds them (a whole `show board` block, eXtreme Gammon's text export
//! in any of its languages, a sentence) is ignored.
//!
//! When a text holds more than one ID, the first one in the text is read and
//! [`Detection::note`] says so and which one it was.
//!
//! Adding a format (SGF, FIBS board lines, Snowie text, ...): add a variant
//! to [`Reading`], a detector to [`WHOLE_TEXT`] (formats recognised by the
//! whole text, tried in order before the ID scan) or a case to
//! `classify_word` (formats that are one word), and its arm in
//! `codec::parse_any`. This module only finds; the codecs decode.

use super::base64_text::is_id_byte;
use super::error::IdError;
use super::{match_id, position_id};
use crate::quote::Clipped;

/// What was found, borrowed from the text: the decoder to run and on what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading<'a> {
    /// A JSON object (`bgedit convert --to json`).
    Json(&'a str),
    /// An XGID token, with or without `XGID=`.
    Xgid(&'a str),
    /// gnubg's IDs: both (a GNUBG ID, or the two header lines) or either.
    Gnubg {
        position_id: Option<&'a str>,
        match_id: Option<&'a str>,
    },
    /// A whole exchange format (SGF, a FIBS board line, Snowie text, XG's
    /// text export), read by its own codec.
    Exchange(Exchange, &'a str),
}

/// The exchange formats recognised by the shape of the whole text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exchange {
    Sgf,
    Fibs,
    Snowie,
    XgText,
}

impl std::fmt::Display for Reading<'_> {
    /// The reading as a note names it: `GNUBG ID 4HPw…:cAk…`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Reading::Json(_) => f.write_str("JSON"),
            Reading::Exchange(kind, _) => write!(f, "{kind:?}"),
            Reading::Xgid(t) => write!(f, "XGID {}", Clipped(t.trim_start_matches("XGID="))),
            Reading::Gnubg {
                position_id: Some(p),
                match_id: Some(m),
            } => write!(f, "GNUBG ID {}:{}", Clipped(p), Clipped(m)),
            Reading::Gnubg {
                position_id: Some(p),
                ..
            } => write!(f, "Position ID {}", Clipped(p)),
            Reading::Gnubg {
                match_id: Some(m), ..
            } => write!(f, "Match ID {}", Clipped(m)),
            Reading::Gnubg { .. } => f.write_str("nothing"),
        }
    }
}

/// The reading chosen, and how many other IDs the text held.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Detection<'a> {
    pub reading: Reading<'a>,
    /// IDs found after the one read, and not read.
    pub others: usize,
}

impl Detection<'_> {
    /// Says which ID was read when the text held several; `None` otherwise.
    pub(crate) fn note(&self) -> Option<String> {
        let count = match self.others {
            0 => return None,
            1 => "two".to_owned(),
            n => (n + 1).to_string(),
        };
        Some(format!(
            "{count} IDs found; read the first ({})",
            self.reading
        ))
    }
}

/// Formats recognised by the whole (trimmed) text, tried in order before the
/// text is scanned for IDs.
/// The exchange formats come before the ID scan, which would take parts of
/// them for IDs (an XG export's XGID line, a FIBS line's numbers).
pub(crate) const WHOLE_TEXT: &[fn(&str) -> Option<Reading<'_>>] =
    &[json, sgf, fibs, snowie, xg_text];

fn json(text: &str) -> Option<Reading<'_>> {
    text.starts_with('{').then_some(Reading::Json(text))
}

fn sgf(text: &str) -> Option<Reading<'_>> {
    super::sgf::looks_like(text).then_some(Reading::Exchange(Exchange::Sgf, text))
}

fn fibs(text: &str) -> Option<Reading<'_>> {
    super::fibs::looks_like(text).then_some(Reading::Exchange(Exchange::Fibs, text))
}

fn snowie(text: &str) -> Option<Reading<'_>> {
    super::snowie::looks_like(text).then_some(Reading::Exchange(Exchange::Snowie, text))
}

fn xg_text(text: &str) -> Option<Reading<'_>> {
    super::xg_text::looks_like(text).then_some(Reading::Exchange(Exchange::XgText, text))
}

/// Words of gnubg's and XG's labels around IDs, skipped when a text holds
/// one word besides them.
const LABEL_WORDS: [&str; 8] = [
    "gnubg",
    "gnu",
    "backgammon",
    "id",
    "position",
    "match",
    "gnubgid",
    "xgid",
];

/// Decides what `text` holds. Errors only when no ID can be found; the
/// message then names the near miss (`Position ID: 13 characters; ...`).
pub fn detect(text: &str) -> Result<Detection<'_>, IdError> {
    if let Some(reading) = one_id(text) {
        return Ok(Detection { reading, others: 0 });
    }
    let text = text.trim();
    if text.is_empty() {
        return Err(IdError::Empty);
    }
    for detector in WHOLE_TEXT {
        if let Some(reading) = detector(text) {
            return Ok(Detection { reading, others: 0 });
        }
    }
    // One word (what a stream of IDs holds): read it by its shape, without
    // scanning; it runs millions of times a second in `bgedit convert`.
    let ascii_word = text.bytes().all(|b| b > b' ' && b < 0x80);
    if ascii_word || !text.contains(char::is_whitespace) {
        return one_word(text).map(|reading| Detection { reading, others: 0 });
    }
    scan(text)
}

/// The two shapes a stream of IDs is made of, told apart before anything
/// else is tried (this runs millions of times a second in `bgedit
/// convert`): `POSITIONID:MATCHID` in exactly 27 base64 characters and a
/// colon, and `XGID=` followed by printable ASCII without spaces. No other
/// format has either shape, so the answer is the one the full detection
/// gives; anything else (including a near miss) goes the long way.
fn one_id(text: &str) -> Option<Reading<'_>> {
    let b = text.as_bytes();
    if b.len() == 27 && b[14] == b':' {
        let all_base64 = b[..14]
            .iter()
            .chain(&b[15..])
            .fold(true, |ok, &c| ok & is_id_byte(c));
        return all_base64.then(|| Reading::Gnubg {
            position_id: Some(&text[..14]),
            match_id: Some(&text[15..]),
        });
    }
    let printable = b.iter().fold(true, |ok, &c| ok & (c > b' ') & (c < 0x7f));
    (has_xgid_prefix(text) && printable).then_some(Reading::Xgid(text))
}

fn is_base64(word: &str) -> bool {
    word.bytes().all(is_id_byte)
}

fn is_xgid_board(field: &str) -> bool {
    field.len() == 26
        && field
            .bytes()
            .all(|b| matches!(b, b'-' | b'a'..=b'p' | b'A'..=b'P'))
}

fn has_xgid_prefix(word: &str) -> bool {
    word.get(..5)
        .is_some_and(|p| p.eq_ignore_ascii_case("XGID="))
}

/// Reads a text that is one word: any ID alone, with near misses named.
fn one_word(word: &str) -> Result<Reading<'_>, IdError> {
    // The common case first: `POSITIONID:MATCHID`, 27 bytes.
    let b = word.as_bytes();
    if b.len() == 27 && b[14] == b':' && !b[15..].contains(&b':') && !b[..14].contains(&b':') {
        return Ok(Reading::Gnubg {
            position_id: Some(&word[..14]),
            match_id: Some(&word[15..]),
        });
    }
    if has_xgid_prefix(word) || word.bytes().filter(|&b| b == b':').count() >= 4 {
        return Ok(Reading::Xgid(word));
    }
    let gnubg = word.trim_matches(':');
    if let Some((p, m)) = gnubg.split_once(':')
        && !m.contains(':')
    {
        // The part before the colon is the Position ID and the part after
        // it the Match ID, whatever their lengths: a damaged part is named
        // by its place, not by its length.
        return Ok(Reading::Gnubg {
            position_id: Some(p),
            match_id: Some(m),
        });
    }
    let n = gnubg.chars().count();
    match n {
        position_id::LEN => Ok(Reading::Gnubg {
            position_id: Some(gnubg),
            match_id: None,
        }),
        match_id::LEN => Ok(Reading::Gnubg {
            position_id: None,
            match_id: Some(gnubg),
        }),
        13 | 15 if is_base64(gnubg) => Err(IdError::WrongLength {
            kind: super::IdKind::PositionId,
            expected: position_id::LEN,
            found: n,
        }),
        11 if is_base64(gnubg) => Err(IdError::WrongLength {
            kind: super::IdKind::MatchId,
            expected: match_id::LEN,
            found: n,
        }),
        _ => Err(IdError::Unrecognized(format!(
            "'{}' is not a Position ID (14 characters), a Match ID (12) or an XGID",
            Clipped(word)
        ))),
    }
}

/// A word of running text, without the punctuation that sentences and
/// quoting put around it.
fn strip_punctuation(word: &str) -> &str {
    word.trim_matches(|c: char| {
        matches!(
            c,
            '"' | '\''
                | '`'
                | '('
                | ')'
                | '['
                | ']'
                | '<'
                | '>'
                | '{'
                | '}'
                | ','
                | ';'
                | '«'
                | '»'
                | '“'
                | '”'
                | '‘'
                | '’'
        )
    })
    .trim_end_matches(['.', ':', '!', '?'])
}

/// Whether a base64 word of an ID's length looks like an ID rather than a
/// word of prose: IDs have digits, `+`, `/` or capitals after the first
/// letter; words rarely do.
fn id_like(word: &str) -> bool {
    is_base64(word)
        && word
            .bytes()
            .skip(1)
            .any(|b| b.is_ascii_digit() || b.is_ascii_uppercase() || b == b'+' || b == b'/')
}

/// One ID found in running text.
enum Found<'a> {
    Whole(Reading<'a>),
    LonePosition(&'a str),
    LoneMatch(&'a str),
}

/// The ID a word of running text is, if it is one.
fn classify_word(word: &str) -> Option<Found<'_>> {
    if has_xgid_prefix(word) {
        return Some(Found::Whole(Reading::Xgid(word)));
    }
    let colons = word.bytes().filter(|&b| b == b':').count();
    if colons >= 4 {
        return word
            .split(':')
            .next()
            .filter(|board| is_xgid_board(board))
            .map(|_| Found::Whole(Reading::Xgid(word)));
    }
    if colons == 1 {
        let (p, m) = word.split_once(':')?;
        return (p.len() == position_id::LEN
            && m.len() == match_id::LEN
            && is_base64(p)
            && is_base64(m))
        .then_some(Found::Whole(Reading::Gnubg {
            position_id: Some(p),
            match_id: Some(m),
        }));
    }
    match word.len() {
        _ if colons > 0 || !id_like(word) => None,
        position_id::LEN => Some(Found::LonePosition(word)),
        match_id::LEN => Some(Found::LoneMatch(word)),
        _ => None,
    }
}

/// The word after `label` and its colon on `line`, and where it starts.
fn after_label<'a>(text: &'a str, line: &'a str, label: &str) -> Option<(usize, &'a str)> {
    let rest = &line[line.find(label)? + label.len()..];
    let word = rest
        .trim_start()
        .strip_prefix(':')?
        .split_whitespace()
        .next()?;
    Some((offset_in(text, word), word))
}

/// Byte offset of `part`, a slice of `text`, in `text`.
fn offset_in(text: &str, part: &str) -> usize {
    part.as_ptr() as usize - text.as_ptr() as usize
}

/// Finds every ID in a text of several words and reads the first.
fn scan(text: &str) -> Result<Detection<'_>, IdError> {
    // (offset, reading) of each ID found, in text order once sorted.
    let mut found: Vec<(usize, Reading<'_>)> = Vec::new();

    // gnubg's header lines, as in a pasted `show board` block: read by their
    // labels, whatever the label's value looks like.
    let labelled = ["Position ID", "Match ID"]
        .map(|label| text.lines().find_map(|line| after_label(text, line, label)));
    if let Some(at) = labelled.iter().flatten().map(|&(at, _)| at).min() {
        found.push((
            at,
            Reading::Gnubg {
                position_id: labelled[0].map(|(_, w)| w),
                match_id: labelled[1].map(|(_, w)| w),
            },
        ));
    }
    let label_values = labelled.map(|l| l.map(|(at, _)| at));

    let mut lone_position = None;
    let mut lone_match = None;
    let mut lone_extra = 0;
    for raw in text.split_whitespace() {
        let word = strip_punctuation(raw);
        if word.is_empty() {
            continue;
        }
        let at = offset_in(text, word);
        if label_values.contains(&Some(at)) {
            continue;
        }
        match classify_word(word) {
            Some(Found::Whole(reading)) => found.push((at, reading)),
            Some(Found::LonePosition(w)) if lone_position.is_none() => {
                lone_position = Some((at, w));
            }
            Some(Found::LoneMatch(w)) if lone_match.is_none() => lone_match = Some((at, w)),
            Some(_) => lone_extra += 1,
            None => {}
        }
    }
    // A lone Position ID and a lone Match ID (gnubg's two IDs as it prints
    // them, in either order) make one position.
    if let Some(at) = [lone_position, lone_match]
        .iter()
        .flatten()
        .map(|&(at, _)| at)
        .min()
    {
        found.push((
            at,
            Reading::Gnubg {
                position_id: lone_position.map(|(_, w)| w),
                match_id: lone_match.map(|(_, w)| w),
            },
        ));
    }
    found.sort_by_key(|&(at, _)| at);
    match found.first() {
        Some(&(_, reading)) => Ok(Detection {
            reading,
            others: found.len() - 1 + lone_extra,
        }),
        None => Err(nothing_found(text)),
    }
}

/// The error for a text with no ID: the near miss if one word is one,
/// else what was looked for.
fn nothing_found(text: &str) -> IdError {
    let mut words = text
        .split_whitespace()
        .map(strip_punctuation)
        .filter(|w| !w.is_empty())
        .filter(|w| !LABEL_WORDS.iter().any(|l| l.eq_ignore_ascii_case(w)));
    match (words.next(), words.next()) {
        (None, _) => IdError::Unrecognized("no Position ID or Match ID found".to_owned()),
        (Some(only), None) => match one_word(only) {
            Err(e) => e,
            // A lone word that reads as an ID shape but was not taken as one
            // in running text (prose-like): read it as the one word it is.
            Ok(_) => IdError::Unrecognized(format!(
                "'{}' is not a Position ID (14 characters), a Match ID (12) or an XGID",
                Clipped(only)
            )),
        },
        _ => IdError::Unrecognized(format!(
            "no GNUBG ID, Position ID, Match ID or XGID found in '{}'",
            Clipped(text)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gnubg<'a>(p: Option<&'a str>, m: Option<&'a str>) -> Reading<'a> {
        Reading::Gnubg {
            position_id: p,
            match_id: m,
        }
    }

    #[test]
    fn one_word_is_read_by_its_shape() {
        assert_eq!(
            detect("4NvBA0DGzooBBg:QYkqASAAIAAA").unwrap().reading,
            gnubg(Some("4NvBA0DGzooBBg"), Some("QYkqASAAIAAA"))
        );
        assert_eq!(
            detect("4NvBA0DGzooBBg:QYkqASAAIAAAA").unwrap().reading,
            gnubg(Some("4NvBA0DGzooBBg"), Some("QYkqASAAIAAAA"))
        );
        assert!(matches!(
            detect("XGID=a:b").unwrap().reading,
            Reading::Xgid(_)
        ));
        assert!(matches!(
            detect("hello").unwrap_err(),
            IdError::Unrecognized(_)
        ));
    }

    #[test]
    fn prose_words_of_an_ids_length_are_not_ids() {
        // "Backgammonis" has 12 letters but nothing of a Match ID's look.
        let d = detect("Backgammonis fun: 4HPwATDgc/ABMA").unwrap();
        assert_eq!(d.reading, gnubg(Some("4HPwATDgc/ABMA"), None));
        assert_eq!(d.others, 0);
    }

    #[test]
    fn the_note_names_the_id_read() {
        let d = detect("4HPwATDgc/ABMA:cAkAAAAAAAAA 4NvBA0DGzooBBg:QYkqASAAIAAA").unwrap();
        assert_eq!(
            d.note().unwrap(),
            "two IDs found; read the first (GNUBG ID 4HPwATDgc/ABMA:cAkAAAAAAAAA)"
        );
    }
}
