//! Jellyfish `.mat` match files, read as gnubg 1.07's `import mat` reads
//! them (`ImportMat`, `ImportGame`, `ParseMatMove` in gnubg's `import.c`),
//! and written in the layout of gnubg's `export match mat`.
//!
//! Reading happens in two passes. The first is gnubg's line reader: the
//! header comments up to the `N point match` line, then per `Game N` line a
//! score line and move lines split into the left column (player 0, `O`) and
//! the right one (player 1, `X`). The second (`settle`) does what gnubg
//! does with the board in hand: it expands consolidated moves (`61: 11/4`),
//! skips moves whose checkers are not there (gnubg warns and goes on), turns
//! an empty roll into a dance, the forced move, or just the roll, and turns
//! `Wins N points` in a game still in play into a resignation.
//!
//! What this reader reports as a [`ReadProblem`] gnubg reports on its
//! console (`WARNING: Invalid move`, `Unrecognised move`) and skips the same
//! way; the rest of the file is read.

use crate::domain::match_record::{
    Action, ActionKind, Ending, GameRecord, GameResult, MatchFormat, MatchHeader, MatchRecord,
    ReadProblem, SetUp,
};
use crate::domain::moves::{free_move, legal_moves};
use crate::domain::notation::{Step, TypedMove};
use crate::domain::{Board, Names, Player, Resignation};
use crate::quote::clip;

/// Largest file read: a long session is a few hundred kilobytes.
pub(crate) const MAX_MAT_BYTES: usize = 32 << 20;
/// gnubg reads lines into a 1024-byte buffer; longer lines are refused here.
pub(crate) const MAX_LINE_BYTES: usize = 1023;
/// gnubg's longest match (`MAXSCORE`).
pub(crate) const MAX_MATCH_LENGTH: u16 = 64;
/// gnubg keeps names to `MAX_NAME_LEN - 1` characters.
const MAX_NAME_CHARS: usize = 31;

/// Why a file cannot be read as a `.mat` at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MatError {
    #[error("the file is {0} bytes; at most {MAX_MAT_BYTES} are read")]
    TooLarge(usize),
    #[error("no 'N point match' line: not a Jellyfish .mat file")]
    NoMatchLine,
    #[error(
        "line {line}: match length {length}; it must be 0 (money session) to {MAX_MATCH_LENGTH}"
    )]
    BadLength { line: u32, length: i64 },
}

/// A `.mat` file read: the match and what could not be read in it.
#[derive(Clone, Debug, PartialEq)]
pub struct MatRead {
    pub record: MatchRecord,
    pub problems: Vec<ReadProblem>,
}

/// Whether `text` looks like a `.mat`: among its first 200 lines, a `; [`
/// header line, an `N point match` line or a `Game N` line.
pub(crate) fn looks_like(text: &str) -> bool {
    text.lines().take(200).map(str::trim).any(|l| {
        l.starts_with("; [")
            || l.strip_suffix("point match").is_some_and(|n| {
                let n = n.trim();
                !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())
            })
            || l.strip_prefix("Game ")
                .is_some_and(|n| !n.is_empty() && n.trim().chars().all(|c| c.is_ascii_digit()))
    })
}

/// The text of a file: UTF-8 when it is, otherwise Latin-1 (FIBS and older
/// Windows programs write names in it).
pub fn decode(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => std::borrow::Cow::Borrowed(text),
        Err(_) => std::borrow::Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    }
}

/// Reads a `.mat` file's bytes.
pub fn read_bytes(bytes: &[u8]) -> Result<MatRead, MatError> {
    if bytes.len() > MAX_MAT_BYTES {
        return Err(MatError::TooLarge(bytes.len()));
    }
    read(&decode(bytes))
}

/// `sscanf(line, "%d %*1[Pp]oint %*1[Mm]atch%c")`: the match length.
fn match_length(line: &str) -> Option<i64> {
    let s = line.trim_start();
    let sign_len = usize::from(s.starts_with(['-', '+']));
    let digits = s[sign_len..].bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits + sign_len > 10 {
        return None;
    }
    let n: i64 = s[..sign_len + digits].parse().ok()?;
    let rest = s[sign_len + digits..].trim_start();
    let rest = rest
        .strip_prefix(['P', 'p'])?
        .strip_prefix("oint")?
        .trim_start();
    rest.strip_prefix(['M', 'm'])?.strip_prefix("atch")?;
    Some(n)
}

/// gnubg's `ParseMove`: numbers paired in order as source and destination
/// (`8 5 6 5` is `8/5 6/5`), a `/` after a destination making it the next
/// source (`24/18/14`), `b`/`bar` 25, `o`/`off` and `-` 0 (a `-` is *off*
/// to gnubg, not a separator), `*`, `,` and `)` ignored, `(n)` repeating
/// the path before it. At most four steps.
fn parse_move(text: &str) -> Result<Vec<Step>, &'static str> {
    let b = text.as_bytes();
    let mut user: Vec<u8> = Vec::with_capacity(8);
    // slash[c]: a '/' stands before user[c].
    let mut slash = [false; 17];
    let mut i = 0;
    while i < b.len() {
        let ch = b[i];
        if ch.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if ch.is_ascii_digit() {
            if user.len() == 8 {
                return Err("too many points");
            }
            let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
            let n: u32 = text[i..i + digits].parse().unwrap_or(u32::MAX);
            if n > 25 {
                return Err("a point is 0 to 25");
            }
            user.push(n as u8);
            i += digits;
            continue;
        }
        match ch {
            b'o' | b'O' | b'-' => {
                if user.len() == 8 {
                    return Err("too many points");
                }
                user.push(0);
                if ch != b'-' && matches!(b.get(i + 1), Some(b'f' | b'F')) {
                    i += 1;
                    if matches!(b.get(i + 1), Some(b'f' | b'F')) {
                        i += 1;
                    }
                }
            }
            b'b' | b'B' => {
                if user.len() == 8 {
                    return Err("too many points");
                }
                user.push(25);
                if matches!(b.get(i + 1), Some(b'a' | b'A')) {
                    i += 1;
                    if matches!(b.get(i + 1), Some(b'r' | b'R')) {
                        i += 1;
                    }
                }
            }
            b'/' => {
                if user.is_empty() || slash[user.len()] {
                    return Err("a '/' with no point before it");
                }
                slash[user.len()] = true;
            }
            b'*' | b',' | b')' => {}
            b'(' => {
                let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
                let n = text[i + 1..i + 1 + digits].parse::<i64>().unwrap_or(0) - 1;
                i += digits;
                let c = user.len();
                if n < 1 || c < 2 || slash[c] {
                    return Err("a bad repeat '(n)'");
                }
                let Some(begin) = (0..c).rev().find(|&j| !slash[j]) else {
                    return Err("a repeat with no move before it");
                };
                if c as i64 + (c - begin) as i64 * n > 8 {
                    return Err("too many steps");
                }
                for _ in 0..n {
                    for j in begin..c {
                        if slash[j] {
                            slash[user.len()] = true;
                        }
                        let v = user[j];
                        user.push(v);
                    }
                }
            }
            _ => return Err("a character that is not part of a move"),
        }
        i += 1;
    }
    if slash[user.len()] {
        return Err("a '/' at the end");
    }
    let mut an: Vec<u8> = Vec::with_capacity(8);
    for (j, &p) in user.iter().enumerate() {
        if an.len() == 8 {
            return Err("more than four steps");
        }
        let dest = an.len() % 2 == 1;
        if (dest && p == 25) || (!dest && p == 0) {
            return Err("a move from off the board or to the bar");
        }
        an.push(p);
        if dest && slash[j + 1] {
            if an.len() == 8 || p == 0 || p == 25 {
                return Err("more than four steps");
            }
            an.push(p);
        }
    }
    if an.len() % 2 == 1 {
        return Err("a step with no destination");
    }
    let mut steps: Vec<Step> = an
        .chunks(2)
        .map(|c| Step {
            from: c[0],
            to: c[1],
        })
        .collect();
    canonical_order(&mut steps);
    Ok(steps)
}

/// gnubg's `CanonicalMoveOrder`: steps by decreasing source, then
/// decreasing destination.
fn canonical_order(steps: &mut [Step]) {
    steps.sort_by(|a, b| b.from.cmp(&a.from).then(b.to.cmp(&a.to)));
}

/// File text for a message: cut as every quote is (`quote.rs`), control
/// characters written as escapes so none reaches a terminal raw.
fn shown(text: &str) -> String {
    let cut = clip(text);
    if cut.chars().any(char::is_control) {
        cut.chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_default().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect()
    } else {
        cut
    }
}

/// C's `atoi`: leading blanks, a sign, digits; 0 when there are none.
fn atoi(s: &str) -> i64 {
    let s = s.trim_start();
    let (neg, s) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let mut n: i64 = 0;
    for b in s.bytes().take_while(u8::is_ascii_digit) {
        n = (n * 10 + i64::from(b - b'0')).min(i64::from(i32::MAX));
    }
    if neg { -n } else { n }
}

/// One entry of a column, before the board is known.
#[derive(Clone, Debug)]
enum Raw {
    /// A roll and the move text's hops, as written (`None`: nothing
    /// written, `????`, `Cannot Move`).
    Roll {
        dice: [u8; 2],
        hops: Option<Vec<Step>>,
        text: String,
    },
    Double,
    Beaver,
    Take,
    Drop,
    Win(i64),
}

#[derive(Clone, Debug)]
struct RawAction {
    player: Player,
    raw: Raw,
    line: u32,
}

struct RawGame {
    number: usize,
    score: [u16; 2],
    crawford_game: bool,
    actions: Vec<RawAction>,
}

/// The reader's state across lines, as gnubg keeps it in statics.
struct Reader {
    problems: Vec<ReadProblem>,
    /// gnubg's `fBeaver`: a beaver waits for its take, written only as the
    /// next roll.
    beaver_by: Option<Player>,
}

impl Reader {
    fn problem(&mut self, game: Option<usize>, line: u32, message: String) {
        self.problems.push(ReadProblem {
            game,
            action: None,
            line: Some(line),
            message,
        });
    }

    /// `ParseMatMove`: one column's entry.
    fn entry(
        &mut self,
        text: &str,
        player: Player,
        game: usize,
        line: u32,
        out: &mut Vec<RawAction>,
    ) {
        let sz = text.trim_matches([' ', '\t']);
        if sz.is_empty() {
            return;
        }
        let b = sz.as_bytes();
        let push =
            |out: &mut Vec<RawAction>, player, raw| out.push(RawAction { player, raw, line });
        if b.len() >= 3
            && (b'1'..=b'6').contains(&b[0])
            && (b'1'..=b'6').contains(&b[1])
            && b[2] == b':'
        {
            if let Some(beaverer) = self.beaver_by.take() {
                push(out, beaverer.opponent(), Raw::Take);
            }
            let dice = [b[0] - b'0', b[1] - b'0'];
            let rest = sz[3..].trim_start_matches([' ', '\t']);
            let lower = rest.to_ascii_lowercase();
            if lower.starts_with("???") || lower.starts_with("cannot move") || rest.is_empty() {
                push(
                    out,
                    player,
                    Raw::Roll {
                        dice,
                        hops: None,
                        text: String::new(),
                    },
                );
                return;
            }
            if lower.starts_with("illegal play") {
                self.problem(
                    Some(game),
                    line,
                    format!(
                        "{player}'s 'Illegal play' entry (a Snowie position) is not read: '{}'",
                        shown(sz)
                    ),
                );
                return;
            }
            match parse_move(rest) {
                Ok(hops) => push(
                    out,
                    player,
                    Raw::Roll {
                        dice,
                        hops: if hops.is_empty() { None } else { Some(hops) },
                        text: rest.to_owned(),
                    },
                ),
                Err(e) => self.problem(
                    Some(game),
                    line,
                    format!(
                        "{player}'s move '{}' cannot be read ({e}); skipped",
                        shown(rest)
                    ),
                ),
            }
            return;
        }
        let lower = sz.get(..7).unwrap_or(sz).to_ascii_lowercase();
        if lower.starts_with("double") {
            push(out, player, Raw::Double);
            self.beaver_by = None;
        } else if lower.starts_with("beaver") {
            push(out, player, Raw::Beaver);
            self.beaver_by = Some(player);
        } else if lower.starts_with("raccoon") {
            push(out, player, Raw::Beaver);
            self.beaver_by = None;
        } else if lower.starts_with("take") {
            push(out, player, Raw::Take);
            self.beaver_by = None;
        } else if lower.starts_with("drop") {
            push(out, player, Raw::Drop);
        } else if lower.starts_with("win") {
            push(out, player, Raw::Win(atoi(sz.get(4..).unwrap_or(""))));
        } else if lower.starts_with("resign") {
            // A `.gam` line gnubg ignores.
        } else {
            self.problem(
                Some(game),
                line,
                format!(
                    "{player}'s entry '{}' is not a roll, cube action or result; skipped",
                    shown(sz)
                ),
            );
        }
    }
}

/// A player's name from the score line: inner blanks as spaces, a
/// GridGammon rating (`name,1650`) cut off, at most 31 characters, and
/// control characters (the one rule for names) replaced.
fn clean_name(raw: &str, player: Player, line: u32, problems: &mut Vec<ReadProblem>) -> String {
    let mut name: String = raw
        .trim()
        .chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .collect();
    if let Some(comma) = name.rfind(',')
        && atoi(&name[comma + 1..]) > 0
    {
        name.truncate(comma);
    }
    let name: String = name.chars().take(MAX_NAME_CHARS).collect();
    if crate::domain::check_name(player, &name).is_err() {
        problems.push(ReadProblem {
            game: None,
            action: None,
            line: Some(line),
            message: format!(
                "{player}'s name has control characters; they are read as '?' ('{}')",
                shown(&name)
            ),
        });
        return name
            .chars()
            .map(|c| if c.is_control() { '?' } else { c })
            .collect();
    }
    name
}

/// Why a game's score cannot be read in a match of `length` (0: money):
/// negative, or at or past the length (the match already over).
fn bad_score(n0: i64, n1: i64, length: u16) -> Option<String> {
    let worst = if n0 < 0 || n1 < 0 {
        n0.min(n1)
    } else {
        n0.max(n1)
    };
    if worst < 0 {
        return Some(format!("a negative score ({worst})"));
    }
    (length > 0 && worst >= i64::from(length))
        .then(|| format!("a score of {worst} in a {length}-point match, which it ends"))
}

/// The score line `name0 : n0   name1 : n1`, as gnubg splits it.
fn score_line(line: &str) -> Option<(&str, i64, &str, i64)> {
    let s = line.trim_start();
    let colon = s.find(':')?;
    let name0 = &s[..colon];
    let after = s[colon + 1..].trim_start();
    let n0 = atoi(after);
    let rest = after
        .trim_start_matches(|c: char| !c.is_whitespace())
        .trim_start();
    let colon = rest.find(':')?;
    Some((name0, n0, &rest[..colon], atoi(&rest[colon + 1..])))
}

/// Splits a move line into its columns as `ImportGame` does: the right
/// column starts two characters before a second colon (its dice), else at
/// the first double blank from character 15; the left one after the first
/// `)` (the move number).
fn columns(line: &str) -> (&str, Option<&str>) {
    let bytes = line.as_bytes();
    let mut left_end = line.len();
    let mut right = None;
    let second_colon = line
        .find(':')
        .and_then(|first| line[first + 1..].find(':').map(|i| first + 1 + i));
    match second_colon {
        Some(c) if c > 3 => {
            left_end = c - 3;
            // gnubg counts bytes: a cut inside a character moves past it.
            let mut start = c - 2;
            while !line.is_char_boundary(start) {
                start += 1;
            }
            right = Some(&line[start..]);
        }
        _ if second_colon.is_none() && bytes.len() > 15 => {
            if let Some(i) = bytes[15..].windows(2).position(|w| w == b"  ") {
                left_end = 15 + i;
                right = Some(&line[15 + i + 1..]);
            }
        }
        _ => {}
    }
    // A multi-byte character straddling the cut: keep the cut on a boundary.
    while !line.is_char_boundary(left_end) {
        left_end -= 1;
    }
    let left = &line[..left_end];
    let left = match left.find(')') {
        Some(p) => &left[p + 1..],
        None => left,
    };
    (left, right)
}

fn header_field(text: &str, key: &str) -> Option<String> {
    let value = text.strip_prefix(key)?;
    let value = value.strip_prefix('"').unwrap_or(value);
    let value = match value.rfind("\"]") {
        Some(end) => &value[..end],
        None => value,
    };
    Some(value.chars().filter(|c| !c.is_control()).collect())
}

/// Reads a `.mat` file's text.
pub fn read(text: &str) -> Result<MatRead, MatError> {
    if text.len() > MAX_MAT_BYTES {
        return Err(MatError::TooLarge(text.len()));
    }
    let mut reader = Reader {
        problems: Vec::new(),
        beaver_by: None,
    };
    let mut lines = usable_lines(text, &mut reader);
    let mut header = read_header(&mut lines, &mut reader)?;
    let games = read_games(&mut lines, &mut header, &mut reader);
    Ok(MatRead {
        record: MatchRecord {
            format: MatchFormat::Mat,
            header,
            games,
        },
        problems: reader.problems,
    })
}

/// The lines left to read, each with its number from 1.
type Lines<'a> = std::vec::IntoIter<(u32, &'a str)>;

/// The lines gnubg reads: each cut at its first CR or LF, blank ones
/// skipped, and (here) over-long ones skipped with a problem.
fn usable_lines<'a>(text: &'a str, reader: &mut Reader) -> Lines<'a> {
    text.split('\n')
        .enumerate()
        .map(|(i, l)| {
            (
                u32::try_from(i + 1).unwrap_or(u32::MAX),
                l.split('\r').next().unwrap_or(""),
            )
        })
        .filter(|(_, l)| !l.trim_matches([' ', '\t']).is_empty())
        .filter_map(|(n, l)| {
            if l.len() > MAX_LINE_BYTES {
                reader.problems.push(ReadProblem {
                    game: None,
                    action: None,
                    line: Some(n),
                    message: format!(
                        "line is {} bytes; at most {MAX_LINE_BYTES} are read; skipped ('{}')",
                        l.len(),
                        shown(l)
                    ),
                });
                None
            } else {
                Some((n, l))
            }
        })
        // Collected, so that every over-long line is said before the rest.
        .collect::<Vec<_>>()
        .into_iter()
}

/// The header: comments up to the `N point match` line, and the match's
/// settings from its length.
fn read_header(lines: &mut Lines<'_>, reader: &mut Reader) -> Result<MatchHeader, MatError> {
    let mut header = MatchHeader::default();
    let mut comments = String::new();
    let mut length = None;
    for (n, line) in lines.by_ref() {
        let line = line.strip_prefix('\u{feff}').unwrap_or(line);
        if let Some(body) = line.strip_prefix([';', '#']) {
            header_comment(body.trim_start(), n, &mut header, &mut comments, reader);
        } else if let Some(l) = match_length(line) {
            if !(0..=i64::from(MAX_MATCH_LENGTH)).contains(&l) {
                return Err(MatError::BadLength { line: n, length: l });
            }
            length = Some(l as u16);
            break;
        }
    }
    let length = length.ok_or(MatError::NoMatchLine)?;
    header.length = length;
    header.crawford = length > 0;
    // gnubg's defaults for money play: the Jacoby rule and beavers.
    header.jacoby = length == 0;
    header.beavers = length == 0;
    header.application = Some("Jellyfish .mat".to_owned());
    if !comments.is_empty() {
        header.comment = Some(comments);
    }
    Ok(header)
}

/// One header comment line (`body` after its `;` or `#`): a `[Key "value"]`
/// field gnubg keeps, one it discards, or a line of the match's comment.
fn header_comment(
    body: &str,
    n: u32,
    header: &mut MatchHeader,
    comments: &mut String,
    reader: &mut Reader,
) {
    if body.is_empty() {
        return;
    }
    if let Some(v) = header_field(body, "[Event ") {
        header.event = Some(v);
    } else if let Some(v) = header_field(body, "[Round ") {
        header.round = Some(v);
    } else if let Some(v) = header_field(body, "[Site ") {
        header.place = Some(v);
    } else if let Some(v) = header_field(body, "[EventDate ") {
        header.date = Some(v);
    } else if let Some(v) = header_field(body, "[Transcriber ") {
        header.annotator = Some(v);
    } else if let Some(v) = header_field(body, "[Variation ") {
        if !v.starts_with("Backgammon") {
            reader.problem(
                None,
                n,
                format!("variation '{}' is read as standard backgammon", shown(&v)),
            );
        }
    } else if [
        "[EventTime ",
        "[Unrated ",
        "[Player ",
        "[Match ID ",
        "[CubeLimit ",
        "[Crawford ",
        "[Jacoby ",
        "[Beaver ",
    ]
    .iter()
    .any(|k| body.starts_with(k))
    {
        // gnubg discards these.
    } else {
        comments.extend(body.chars().filter(|c| !c.is_control() || *c == '\t'));
        comments.push('\n');
    }
}

/// The games: per `Game N` line, its score line (whose names go in the
/// header) and move lines, each game settled with the board in hand; up to
/// the end of the file or of the match.
fn read_games(
    lines: &mut Lines<'_>,
    header: &mut MatchHeader,
    reader: &mut Reader,
) -> Vec<GameRecord> {
    let length = header.length;
    let mut games: Vec<GameRecord> = Vec::new();
    let mut names_set = false;
    let mut post_crawford = false;
    let mut pending: Option<(u32, &str)> = lines.next();
    while let Some((n, line)) = pending.take() {
        if !line.contains("Game ") {
            pending = lines.next();
            continue;
        }
        let number = atoi(line.trim_start().get(5..).unwrap_or(""));
        let Some((sn, score_text)) = lines.next() else {
            break;
        };
        let Some((name0, n0, name1, n1)) = score_line(score_text) else {
            reader.problem(
                None,
                sn,
                format!("no score line after line {n}: '{}'", shown(score_text)),
            );
            pending = Some((sn, score_text));
            continue;
        };
        let game_index = games.len() + 1;
        if let Some(why) = bad_score(n0, n1, length) {
            // gnubg stops reading at a score that ends the match (and reads
            // a negative one as it is): the rest is not read, and said so.
            let after = lines.by_ref().filter(|(_, l)| l.contains("Game ")).count();
            reader.problem(
                Some(game_index),
                sn,
                format!(
                    "{why}; this game and the {after} after it are not read ('{}')",
                    shown(score_text)
                ),
            );
            break;
        }
        let o = clean_name(name0, Player::O, sn, &mut reader.problems);
        let x = clean_name(name1, Player::X, sn, &mut reader.problems);
        // gnubg takes the names of each game; they are the same in a match.
        if !names_set || header.names.o != o || header.names.x != x {
            header.names = Names { o, x };
            names_set = true;
        }
        let l = i64::from(length);
        let crawford_game = !post_crawford && ((n0 == l - 1) ^ (n1 == l - 1));
        post_crawford |= crawford_game;
        let (actions, next) = move_lines(lines, game_index, reader);
        pending = next;
        // gnubg counts games by their place in the file, whatever their
        // labels (two matches joined, a label repeated): so does every
        // `--game N`.
        if usize::try_from(number).ok() != Some(game_index) {
            reader.problem(
                Some(game_index),
                n,
                format!(
                    "labelled '{}'; read as game {game_index}, games being counted in file order",
                    shown(line.trim())
                ),
            );
        }
        let raw = RawGame {
            number: game_index,
            score: [
                n0.clamp(0, i64::from(u16::MAX)) as u16,
                n1.clamp(0, i64::from(u16::MAX)) as u16,
            ],
            crawford_game,
            actions,
        };
        let game = settle(raw, game_index, length == 0, &mut reader.problems);
        // gnubg stops when a game's result (its own, not the file's words)
        // completes the match.
        let over = game.result.is_some_and(|r| {
            length > 0 && i64::from(game.score[r.winner.index()]) + i64::from(r.points) >= l
        });
        games.push(game);
        if pending.is_none() || over {
            break;
        }
    }
    games
}

/// A game's move lines, split into their columns' entries, up to the next
/// `Game` line, which is returned to be read next.
fn move_lines<'a>(
    lines: &mut Lines<'a>,
    game_index: usize,
    reader: &mut Reader,
) -> (Vec<RawAction>, Option<(u32, &'a str)>) {
    let mut actions = Vec::new();
    for (mn, ml) in lines.by_ref() {
        if ml.contains("Game ") {
            return (actions, Some((mn, ml)));
        }
        if ml.starts_with("; Set Pos=") {
            reader.problem(
                Some(game_index),
                mn,
                format!("XG's set-up line is not read: '{}'", shown(ml)),
            );
            continue;
        }
        if ml.trim_start().starts_with([';', '#']) {
            continue;
        }
        let (left, right) = columns(ml);
        reader.entry(left, Player::O, game_index, mn, &mut actions);
        if let Some(right) = right {
            reader.entry(right, Player::X, game_index, mn, &mut actions);
        }
    }
    (actions, None)
}

/// gnubg's `ApplyMove` with its check: each hop 1 to 6 pips, from a point
/// with a checker, not onto a point the opponent holds.
fn apply_hops(board: &Board, player: Player, hops: &[Step]) -> Option<Board> {
    if hops.is_empty() || hops.iter().any(|h| h.from <= h.to || h.from - h.to > 6) {
        return None;
    }
    free_move(board, player, &TypedMove::from_steps(hops)).ok()
}

/// `ExpandMatMove`: a consolidated move (`61: 11/4`, `65: 9/off`, `44:
/// 13/5`) as the die-sized hops gnubg plays, the board in hand.
fn expand(board: &Board, player: Player, dice: [u8; 2], hops: &[Step]) -> Vec<Step> {
    let opponent_on = |point: u8| {
        (1..=24).contains(&point) && board.side(player.opponent())[usize::from(24 - point)] > 0
    };
    if dice[0] != dice[1] {
        let Some(first) = hops.first() else {
            return hops.to_vec();
        };
        let span = i32::from(first.from) - i32::from(first.to);
        let sum = i32::from(dice[0]) + i32::from(dice[1]);
        // gnubg compares 0-based sources with the dice: a bear-off is
        // consolidated only from above both dice.
        let consolidated =
            span == sum || (first.to == 0 && first.from > dice[0] && first.from > dice[1]);
        if consolidated && first.from <= 25 {
            for die in dice {
                let mid = i32::from(first.from) - i32::from(die);
                if mid < 1 {
                    continue;
                }
                let mid = mid as u8;
                if opponent_on(mid) {
                    continue;
                }
                // gnubg keeps only the first hop and the second die.
                let an = if span == sum {
                    vec![
                        Step {
                            from: first.from,
                            to: mid,
                        },
                        Step {
                            from: mid,
                            to: first.to,
                        },
                    ]
                } else {
                    vec![
                        Step {
                            from: first.from,
                            to: mid,
                        },
                        Step { from: mid, to: 0 },
                    ]
                };
                if apply_hops(board, player, &an).is_some() {
                    return an;
                }
            }
        }
        hops.to_vec()
    } else {
        let die = dice[0];
        let mut out = Vec::with_capacity(4);
        for h in hops {
            let span = h.from.saturating_sub(h.to);
            let pieces = span.div_ceil(die);
            let mut from = h.from;
            for _ in 1..pieces {
                out.push(Step {
                    from,
                    to: from - die,
                });
                from -= die;
            }
            out.push(Step { from, to: h.to });
        }
        if out.len() > 4 {
            return hops.to_vec();
        }
        if out.len() != hops.len() {
            canonical_order(&mut out);
        }
        out
    }
}

/// Cube state and end of game, as the replay will have them, to settle what
/// gnubg decides with the board.
struct Walk {
    board: Board,
    cube: u32,
    doubled_by: Option<Player>,
    over: bool,
    /// Money play under the Jacoby rule, as gnubg imports a `.mat` (its
    /// default for money sessions, whatever the header says): a gammon or
    /// backgammon with the cube never turned scores a single game.
    jacoby: bool,
}

/// A game being settled: the walk, the actions and result so far, and the
/// file's problems, where a skipped entry is said.
struct Settling<'p> {
    w: Walk,
    index: usize,
    actions: Vec<Action>,
    result: Option<GameResult>,
    problems: &'p mut Vec<ReadProblem>,
}

/// The second pass: the raw entries of a game, with the board in hand, as
/// gnubg records them.
fn settle(raw: RawGame, index: usize, money: bool, problems: &mut Vec<ReadProblem>) -> GameRecord {
    let mut s = Settling {
        w: Walk {
            board: Board::starting(),
            cube: 1,
            doubled_by: None,
            over: false,
            jacoby: money,
        },
        index,
        actions: Vec::with_capacity(raw.actions.len()),
        result: None,
        problems,
    };
    for a in &raw.actions {
        let player = a.player;
        // An entry skipped is said as the action it would have been, even
        // after a take read into it.
        let n = s.actions.len();
        if s.w.over && !matches!(a.raw, Raw::Win(_)) {
            s.skip(
                a,
                n,
                format!("{player}'s entry after the game ended is skipped"),
            );
            continue;
        }
        match &a.raw {
            Raw::Roll { dice, hops, text } => s.roll(a, n, *dice, hops.as_deref(), text),
            Raw::Double | Raw::Beaver => s.double(a),
            Raw::Take => s.take(a, n),
            Raw::Drop => s.drop_double(a, n),
            Raw::Win(points) => s.win(a, *points),
        }
    }
    GameRecord {
        number: raw.number,
        score: raw.score,
        crawford_game: raw.crawford_game,
        actions: s.actions,
        result: s.result,
        comment: None,
    }
}

impl Settling<'_> {
    /// Says that `a`, which would have been action `n + 1`, is skipped.
    fn skip(&mut self, a: &RawAction, n: usize, message: String) {
        self.problems.push(ReadProblem {
            game: Some(self.index),
            action: Some(n + 1),
            line: Some(a.line),
            message,
        });
    }

    /// Records `player`'s `kind`, read from `a`'s line.
    fn push(&mut self, a: &RawAction, player: Player, kind: ActionKind) {
        let mut action = Action::new(player, kind);
        action.origin = Some(a.line);
        self.actions.push(action);
    }

    /// A roll: an unanswered double taken, the move written or the one
    /// gnubg finds, and the game's end if it bore off the last checker.
    fn roll(&mut self, a: &RawAction, n: usize, dice: [u8; 2], hops: Option<&[Step]>, text: &str) {
        let player = a.player;
        if let Some(doubler) = self.w.doubled_by.take() {
            // The file never answered the double: the roll says it was taken.
            self.skip(
                a,
                n,
                format!("{player} rolls with a double unanswered; read as taken"),
            );
            self.w.cube = self.w.cube.saturating_mul(2);
            self.push(a, doubler.opponent(), ActionKind::Take);
        }
        match hops {
            Some(hops) => {
                let steps = expand(&self.w.board, player, dice, hops);
                match apply_hops(&self.w.board, player, &steps) {
                    Some(board) => {
                        self.w.board = board;
                        self.push(a, player, ActionKind::Move { dice, steps });
                    }
                    None => {
                        self.skip(
                            a,
                            n,
                            format!(
                                "{player}'s move {}{}: '{}' cannot be played here; skipped, as gnubg does",
                                dice[0],
                                dice[1],
                                shown(text)
                            ),
                        );
                        return;
                    }
                }
            }
            None => self.unwritten_move(a, dice),
        }
        if self.w.board.on_board(player) == 0 {
            self.bore_off(player);
        }
    }

    /// A roll with no move written: a dance, the forced move, or the roll
    /// alone.
    fn unwritten_move(&mut self, a: &RawAction, dice: [u8; 2]) {
        let player = a.player;
        let legal = legal_moves(&self.w.board, player, dice);
        match legal.len() {
            0 => self.push(
                a,
                player,
                ActionKind::Move {
                    dice,
                    steps: Vec::new(),
                },
            ),
            1 => {
                self.w.board = legal[0].result.clone();
                let steps = legal[0].steps().to_vec();
                self.push(a, player, ActionKind::Move { dice, steps });
            }
            // gnubg records the roll alone (the player resigned after
            // rolling, XG's `????`).
            _ => self.push(
                a,
                player,
                ActionKind::SetUp(SetUp {
                    dice: Some(dice),
                    ..SetUp::default()
                }),
            ),
        }
    }

    /// `player` has borne off the last checker: the game is over, won by a
    /// single, gammon or backgammon.
    fn bore_off(&mut self, player: Player) {
        self.w.over = true;
        let loser = player.opponent();
        let mut per_cube: u32 = 1;
        // The cube is turned once a double is taken: it is 1 until then.
        let jacoby_single = self.w.jacoby && self.w.cube == 1;
        if self.w.board.borne_off(loser) == 0 && !jacoby_single {
            per_cube = 2;
            let far = (19..=25).any(|p| self.w.board.side(loser)[p - 1] > 0);
            if far {
                per_cube = 3;
            }
        }
        self.result = Some(GameResult {
            winner: player,
            points: per_cube.saturating_mul(self.w.cube),
            ending: Some(Ending::BoreOff),
        });
    }

    /// A double, or a beaver (a double with one on offer).
    fn double(&mut self, a: &RawAction) {
        let player = a.player;
        if self.w.doubled_by.is_some() {
            self.w.cube = self.w.cube.saturating_mul(2);
            self.w.doubled_by = Some(player);
            self.push(a, player, ActionKind::Beaver);
        } else {
            self.w.doubled_by = Some(player);
            self.push(a, player, ActionKind::Double);
        }
    }

    fn take(&mut self, a: &RawAction, n: usize) {
        let player = a.player;
        if self.w.doubled_by.take().is_none() {
            self.skip(
                a,
                n,
                format!("{player} takes with no double on offer; skipped, as gnubg does"),
            );
            return;
        }
        self.w.cube = self.w.cube.saturating_mul(2);
        self.push(a, player, ActionKind::Take);
    }

    fn drop_double(&mut self, a: &RawAction, n: usize) {
        let player = a.player;
        let Some(doubler) = self.w.doubled_by.take() else {
            self.skip(
                a,
                n,
                format!("{player} drops with no double on offer; skipped, as gnubg does"),
            );
            return;
        };
        self.w.over = true;
        self.push(a, player, ActionKind::Drop);
        self.result = Some(GameResult {
            winner: doubler,
            points: self.w.cube,
            ending: Some(Ending::Dropped),
        });
    }

    /// `Wins N points`.
    fn win(&mut self, a: &RawAction, points: i64) {
        let player = a.player;
        let points = u32::try_from(points).unwrap_or(0);
        if !self.w.over {
            // Neither a drop nor a bear-off: gnubg presumes the loser
            // resigned, as much as the points say.
            let level = if points <= self.w.cube {
                Resignation::Single
            } else if points <= self.w.cube.saturating_mul(2) {
                Resignation::Gammon
            } else {
                Resignation::Backgammon
            };
            self.push(a, player.opponent(), ActionKind::Resign(level));
            self.push(a, player, ActionKind::AcceptResign);
            self.w.over = true;
            self.result = Some(GameResult {
                winner: player,
                points: u32::from(level.code()).saturating_mul(self.w.cube),
                ending: Some(Ending::Resigned),
            });
        }
        // A game already over keeps gnubg's own count of it: the file's
        // words are not read.
    }
}

/// Writes `record` in the layout of gnubg 1.07's `export match mat`
/// (`ExportMatchMat` and `ExportGameJF` in gnubg's `export.c`): cells
/// filled left, right, left... in record order (a cell left empty where
/// a player acts twice in turn, as player 1's opening roll leaves the first
/// left cell empty), a left cell as `%3d) %-27s `, each
/// move's steps as gnubg records them with `*` where the board before the
/// move had an opposing checker, `Wins N points` where gnubg puts it. Two
/// changes, so that what is written reads back: a game that stops after a
/// left cell ends its line, where gnubg runs the next ` Game` line on; and
/// a roll recorded alone in the right column ends its line, where gnubg
/// runs the next row on.
pub fn write(record: &MatchRecord, out: &mut String) {
    use std::fmt::Write as _;
    let h = &record.header;
    for (key, value) in [
        ("Site", &h.place),
        ("Event", &h.event),
        ("Round", &h.round),
        ("EventDate", &h.date),
        ("Transcriber", &h.annotator),
    ] {
        if let Some(v) = value {
            let v: String = v.chars().filter(|c| !c.is_control() && *c != '"').collect();
            let _ = writeln!(out, "; [{key} \"{v}\"]");
        }
    }
    if let Some(comment) = h.comment.as_deref().filter(|c| !c.trim().is_empty()) {
        out.push_str("\n; ");
        let lines: Vec<&str> = comment.trim_end_matches('\n').split('\n').collect();
        out.push_str(&lines.join("\n; "));
        out.push('\n');
    }
    let _ = write!(out, "\n {} point match\n\n", h.length);
    let names = [one_line(&h.names.o), one_line(&h.names.x)];
    for game in &record.games {
        write_game(game, &names, out);
    }
}

/// One game, as `ExportGameJF` writes it: its heading, then each action's
/// cell in its player's column.
fn write_game(game: &GameRecord, names: &[String; 2], out: &mut String) {
    use std::fmt::Write as _;
    let _ = writeln!(out, " Game {}", game.number);
    let left = format!("{} : {}", names[0], game.score[0]);
    // gnubg's `%-31s` pads to 31 bytes, not characters; a long name
    // keeps one blank before the next (gnubg runs them together).
    let pad = 31usize.saturating_sub(left.len()).max(1);
    let _ = writeln!(out, " {left}{:pad$}{} : {}", "", names[1], game.score[1]);
    let mut play = Play::new();
    let mut columns = Columns::new();
    let mut previous: Option<&ActionKind> = None;
    for (k, action) in game.actions.iter().enumerate() {
        let before = previous.replace(&action.kind);
        let next = game.actions.get(k + 1).map(|a| &a.kind);
        if let Some(cell) = play.cell(action, before, next, columns.on_the_right()) {
            columns.write(out, action, &cell);
        }
    }
    columns.finish(out);
}

/// "s" after a number of points other than 1.
fn plural(n: u32) -> &'static str {
    if n > 1 { "s" } else { "" }
}

/// What one action writes in its cell, and the points a move that bore
/// off the last checker wins.
struct Cell {
    text: String,
    bear_off: Option<u32>,
}

/// The game as its actions go by, as far as a cell's words depend on it:
/// the board (for hits and a game's end) and the cube.
struct Play {
    board: Board,
    /// The cube last named (by a double or a beaver).
    cube: u32,
    /// The cube in play: the last one taken.
    live: u32,
    /// A beaver not yet taken: the reader counts its doubled cube as what
    /// a resignation then is worth, so the writer must too.
    beavered: bool,
}

impl Play {
    fn new() -> Play {
        Play {
            board: Board::starting(),
            cube: 1,
            live: 1,
            beavered: false,
        }
    }

    /// `action`'s cell, after `before` and followed by `next`, written in
    /// the right-hand column when `right`; `None` for an action gnubg
    /// writes no cell for.
    fn cell(
        &mut self,
        action: &Action,
        before: Option<&ActionKind>,
        next: Option<&ActionKind>,
        right: bool,
    ) -> Option<Cell> {
        let text = match &action.kind {
            ActionKind::Move { dice, steps } => {
                return Some(self.moved(action.player, dice, steps));
            }
            ActionKind::SetUp(SetUp {
                dice: Some(dice), ..
            }) => format!("{}{}: ", dice[0], dice[1]),
            ActionKind::Double => {
                self.cube = self.cube.saturating_mul(2);
                format!(" Doubles => {}", self.cube)
            }
            ActionKind::Beaver => {
                self.cube = self.cube.saturating_mul(2);
                self.beavered = true;
                format!(" Beavers => {}", self.cube)
            }
            ActionKind::Take => {
                self.live = self.cube;
                self.beavered = false;
                // gnubg 1.07 writes no take after a beaver: the next roll
                // is it (and a reader puts it back only there, so a take
                // followed by anything else is written).
                let implied = matches!(before, Some(ActionKind::Beaver))
                    && matches!(next, Some(ActionKind::Move { .. } | ActionKind::SetUp(_)));
                if implied {
                    return None;
                }
                " Takes".to_owned()
            }
            ActionKind::Drop => {
                let won = self.cube / 2;
                let gap = if right {
                    "\n      "
                } else {
                    "                       "
                };
                format!(" Drops{gap}Wins {won} point{}", plural(won))
            }
            ActionKind::Resign(level) => {
                // Only a resignation the file says was accepted is written.
                if !matches!(next, Some(ActionKind::AcceptResign)) {
                    return None;
                }
                self.resignation(action.player, *level, right)
            }
            ActionKind::SetUp(_) | ActionKind::AcceptResign | ActionKind::RejectResign => {
                return None;
            }
        };
        Some(Cell {
            text,
            bear_off: None,
        })
    }

    /// A move's cell (`31: 8/5* 6/5`), the board after it, and what the
    /// game is worth when it bore off the mover's last checker.
    fn moved(&mut self, player: Player, dice: &[u8; 2], steps: &[Step]) -> Cell {
        use std::fmt::Write as _;
        let mut text = format!("{}{}: ", dice[0], dice[1]);
        let opponent = self.board.side(player.opponent()).to_owned();
        for (n, step) in steps.iter().enumerate() {
            let _ = write!(text, "{}/{}", step.from, step.to);
            let first_landing = !steps[..n].iter().any(|s| s.to == step.to);
            if (1..=24).contains(&step.to)
                && opponent[usize::from(24 - step.to)] > 0
                && first_landing
            {
                text.push('*');
            }
            if n < 3 {
                text.push(' ');
            }
        }
        if let Some(b) = apply_hops_free(&self.board, player, steps) {
            self.board = b;
        }
        let bear_off = (self.board.on_board(player) == 0).then(|| {
            let loser = player.opponent();
            let per: u32 = if self.board.borne_off(loser) > 0 {
                1
            } else if (19..=25).any(|p| self.board.side(loser)[p - 1] > 0) {
                3
            } else {
                2
            };
            per.saturating_mul(self.live)
        });
        Cell { text, bear_off }
    }

    /// An accepted resignation's `Wins N points` line, by `player`, led
    /// to its column.
    fn resignation(&self, player: Player, level: Resignation, right: bool) -> String {
        // gnubg counts the cube on offer; the cube in play is what a
        // resignation is worth, and what the reader counts.
        let worth = if self.beavered {
            self.live.saturating_mul(2)
        } else {
            self.live
        };
        let won = u32::from(level.code()).saturating_mul(worth);
        // gnubg flips this after a roll recorded alone, which it leaves
        // unpadded; bgedit pads that cell, so the column is the turn's.
        let lead = match (player, right) {
            (Player::X, true) => "\n      ",
            (Player::X, false) => "      ",
            (Player::O, true) => " ",
            (Player::O, false) => "                                  ",
        };
        format!("{lead}Wins {won} point{}\n", plural(won))
    }
}

/// gnubg's two columns of cells, numbered by row: where the next cell
/// goes and whether its line is ended.
struct Columns {
    /// gnubg's `i`: cells written so far; odd is the right column.
    i: usize,
    at_line_start: bool,
}

impl Columns {
    fn new() -> Columns {
        Columns {
            i: 0,
            at_line_start: true,
        }
    }

    /// Whether the next cell falls in the right-hand column.
    fn on_the_right(&self) -> bool {
        !self.i.is_multiple_of(2)
    }

    /// Writes `action`'s cell in its player's column (a resignation's
    /// line where it stands), and a bear-off's `Wins` line after it.
    fn write(&mut self, out: &mut String, action: &Action, cell: &Cell) {
        use std::fmt::Write as _;
        let resign = matches!(action.kind, ActionKind::Resign(_));
        // A cell goes in its player's column. gnubg fills cells in turn
        // whoever acted (only player 1's opening roll skips a cell), which
        // is the same for a regular game but gives a skipped move's
        // neighbour to the wrong player: bgedit leaves the cell empty.
        let column = action.player.index();
        if !resign && self.i % 2 != column {
            if self.i.is_multiple_of(2) {
                let _ = write!(out, "{:3}) {:27} ", self.i / 2 + 1, "");
            } else {
                out.push('\n');
            }
            self.i += 1;
        }
        if self.on_the_right() || resign {
            out.push_str(&cell.text);
            // gnubg leaves a right-hand roll recorded alone unended, and the
            // next row runs on after it where its own reader cannot find
            // it: bgedit ends the line.
            out.push('\n');
            self.at_line_start = true;
        } else {
            // gnubg writes a left-hand roll recorded alone unpadded (`66:
            // 62: 24/18`), which its reader misses when a cube action
            // follows: bgedit pads it like every left cell.
            let _ = write!(out, "{:3}) {:<27} ", self.i / 2 + 1, cell.text);
            self.at_line_start = false;
        }
        if matches!(action.kind, ActionKind::Drop) {
            out.push('\n');
            if self.i.is_multiple_of(2) {
                out.push('\n');
            }
            self.at_line_start = true;
        }
        if let Some(won) = cell.bear_off {
            let lead = if self.on_the_right() {
                "                                  "
            } else {
                "\n      "
            };
            let _ = write!(out, "{lead}Wins {won} point{}\n\n", plural(won));
            self.at_line_start = true;
        }
        self.i += 1;
    }

    /// Ends the last line.
    fn finish(&self, out: &mut String) {
        if !self.at_line_start {
            out.push('\n');
        }
    }
}

/// A name as one `.mat` field: no colon (it ends the name), no line break.
fn one_line(name: &str) -> String {
    name.chars()
        .map(|c| if c == ':' || c.is_control() { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_owned()
}

/// A move's steps applied one by one, without dice (the writer's board, for
/// the `*` of each hit).
fn apply_hops_free(board: &Board, player: Player, steps: &[Step]) -> Option<Board> {
    free_move(board, player, &TypedMove::from_steps(steps)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(text: &str) -> Vec<(u8, u8)> {
        parse_move(text)
            .unwrap()
            .iter()
            .map(|s| (s.from, s.to))
            .collect()
    }

    #[test]
    fn moves_are_read_by_gnubgs_parse_move_rules() {
        // Numbers pair in order, slashes or not; canonical order.
        assert_eq!(steps("6/5 8/5"), [(8, 5), (6, 5)]);
        assert_eq!(steps("8 5 6 5"), [(8, 5), (6, 5)]);
        // A chain, a repeat, bar and off.
        assert_eq!(steps("24/18*/14"), [(24, 18), (18, 14)]);
        assert_eq!(steps("13/9(2)"), [(13, 9), (13, 9)]);
        assert_eq!(steps("bar/22 6/off"), [(25, 22), (6, 0)]);
        // '-' is off to gnubg, not a separator: 24-18 is 24/off 18/...
        assert!(parse_move("24-18").is_err());
        assert_eq!(steps("6-"), [(6, 0)]);
        assert!(parse_move("frob").is_err());
        assert!(parse_move("1/2 3/4 5/6 7/8 9/10").is_err());
        assert!(parse_move("off/3").is_err());
    }

    #[test]
    fn columns_split_where_gnubg_splits_them() {
        let (l, r) = columns("  2) 64: 24/18 13/9              52: 13/11 13/8 ");
        assert_eq!(
            (l.trim(), r.map(str::trim)),
            ("64: 24/18 13/9", Some("52: 13/11 13/8"))
        );
        let (l, r) = columns("  3) 62: 24/18 18/16              Doubles => 2");
        assert_eq!(
            (l.trim(), r.map(str::trim)),
            ("62: 24/18 18/16", Some("Doubles => 2"))
        );
        let (l, r) = columns("  6)  Doubles => 4                Drops");
        assert_eq!(
            (l.trim(), r.map(str::trim)),
            ("Doubles => 4", Some("Drops"))
        );
        let (l, r) = columns("  7)  Drops");
        assert_eq!((l.trim(), r), ("Drops", None));
    }

    #[test]
    fn columns_cut_inside_a_character_do_not_panic() {
        let (l, r) = columns("  1) Zoë:é: 31: 8/5");
        assert!(l.len() + r.map_or(0, str::len) <= 24);
        let (_, r) = columns("  1) 31: 8/5 6/5 ééééé  Doubles");
        assert_eq!(r.map(str::trim), Some("Doubles"));
    }

    #[test]
    fn consolidated_moves_expand_with_the_board() {
        let board = Board::starting();
        let expanded = expand(&board, Player::X, [6, 1], &[Step { from: 13, to: 6 }]);
        assert_eq!(
            expanded,
            [Step { from: 13, to: 7 }, Step { from: 7, to: 6 }]
        );
        let expanded = expand(&board, Player::X, [4, 4], &[Step { from: 13, to: 5 }]);
        assert_eq!(
            expanded,
            [Step { from: 13, to: 9 }, Step { from: 9, to: 5 }]
        );
        // 24/13 with 65 lands first on the opponent's 7 or 8 point: both
        // hold no opposing checker, the 6 comes first.
        let expanded = expand(&board, Player::X, [6, 5], &[Step { from: 24, to: 13 }]);
        assert_eq!(
            expanded,
            [Step { from: 24, to: 18 }, Step { from: 18, to: 13 }]
        );
    }

    #[test]
    fn the_match_line_is_gnubgs_sscanf() {
        assert_eq!(match_length(" 7 point match"), Some(7));
        assert_eq!(match_length("0 Point Match"), Some(0));
        assert_eq!(match_length("7 points match"), None);
        assert_eq!(match_length("point match"), None);
    }
}
