//! Match files, read in one place: which format a file holds (by its
//! content, never by its name), read within a size cap, and the one
//! dispatch. Every consumer (`bgedit match`, `convert --file --game
//! --move`, `library import`) comes here.
//!
//! The formats are one table, `FORMATS`: gnubg SGF (`(;`), Jellyfish
//! `.mat` (`; [` header lines or `N point match`), gnubg's `export match
//! text` (`Position ID:` followed by `Match ID`), XG's binary files (`RGMH`
//! magic). Detection, the dispatch and the messages that list the formats
//! all read it: a new format is its reader and one row there.

use super::error::IdError;
use super::mat::MatError;
use super::match_text::{self, Block};
use super::sgf;
use super::xg::XgError;
use crate::domain::match_record::{
    Action, ActionKind, FileAnalysis, MatchFormat, MatchRecord, ReadProblem,
};
use crate::domain::replay::{match_decisions, replay_game};
use crate::domain::{Player, Position};
use std::io::Read;
use std::path::Path;

/// Largest match file read: a long match with gnubg rollouts stored is a
/// few megabytes, an XG file less. Reading stops one byte past it, so a
/// huge file never costs more memory than this.
pub(crate) const MAX_MATCH_BYTES: u64 = sgf::MAX_LEN as u64;

/// How a format is known by its content.
#[derive(Clone, Copy)]
enum KnownBy {
    /// A binary file: its bytes start with this magic. Binary formats are
    /// tried first, on the bytes as they are (no line ends unified).
    Magic(&'static [u8]),
    /// A text file: a test of its first 64 KiB, read as UTF-8 where it is
    /// (a cut character or a Latin-1 name read as U+FFFD). Text formats
    /// are tried in the table's order.
    Text(fn(&str) -> bool),
}

/// One match format: how it is known, how the messages name it, and its
/// reader.
struct FormatEntry {
    /// What detection answers (the reader may say more: XG's `.xgp`).
    format: MatchFormat,
    /// Its name and marker in the "not a match file" message.
    described: &'static str,
    /// Its short name where a message lists the formats.
    short: &'static str,
    known_by: KnownBy,
    /// Whether a paste of it is read as one position too (`parse_any`
    /// reads SGF and the IDs of match text); `false`: only as a match.
    pasted_as_position: bool,
    /// Reads the file's bytes (a text format's with `\n` line ends).
    read: fn(&[u8]) -> Result<MatchFile, MatchFileError>,
}

/// Every match format bgedit reads, in the order the messages list them.
const FORMATS: &[FormatEntry] = &[
    FormatEntry {
        format: MatchFormat::Sgf,
        described: "gnubg SGF ('(;')",
        short: "SGF",
        // A byte-order mark may come first.
        known_by: KnownBy::Text(|text| sgf::looks_like(text.trim_start_matches('\u{feff}'))),
        pasted_as_position: true,
        read: read_sgf,
    },
    FormatEntry {
        format: MatchFormat::Mat,
        described: "Jellyfish .mat ('N point match')",
        short: ".mat",
        // gnubg's match text may hold a line that reads as a .mat marker
        // (a `Game 2` in a comment): its IDs win.
        known_by: KnownBy::Text(|text| {
            super::mat::looks_like(text) && !match_text::looks_like(text)
        }),
        pasted_as_position: false,
        read: read_mat,
    },
    FormatEntry {
        format: MatchFormat::MatchText,
        described: "gnubg match text ('Position ID:' and 'Match ID' lines)",
        short: "gnubg match text",
        known_by: KnownBy::Text(match_text::looks_like),
        pasted_as_position: true,
        read: read_match_text,
    },
    FormatEntry {
        // `.xg` and `.xgp` share the magic; the reader tells them apart.
        format: MatchFormat::Xg,
        described: "an XG file ('RGMH')",
        short: "XG",
        known_by: KnownBy::Magic(b"RGMH"),
        pasted_as_position: false,
        read: read_xg,
    },
];

/// Why a match file cannot be read at all. The messages do not name the
/// file: the caller puts it in front.
#[derive(Debug, thiserror::Error)]
pub enum MatchFileError {
    /// The message holds the I/O error's words: it is not a `source` too,
    /// so a chain printed whole does not say them twice.
    #[error("cannot read it: {0}")]
    Io(std::io::Error),
    #[error("larger than {MAX_MATCH_BYTES} bytes; a match file is read up to that size")]
    TooLarge,
    #[error("{0} bytes; a match file is read up to {MAX_MATCH_BYTES} bytes")]
    FileTooLarge(u64),
    /// The 1-based byte where the text stops being UTF-8.
    #[error("not UTF-8 text (byte {0})")]
    NotUtf8(usize),
    #[error("not a match file: {}", unrecognised())]
    NotAMatchFile,
    #[error(
        "SGF: match length {0}: bgedit reads matches of 1 to {max} points and money sessions",
        max = super::mat::MAX_MATCH_LENGTH
    )]
    SgfTooLong(u16),
    #[error(transparent)]
    Sgf(#[from] IdError),
    #[error(transparent)]
    Mat(#[from] MatError),
    #[error(transparent)]
    Xg(#[from] XgError),
}

/// "neither A, B, C nor D", from the table.
fn unrecognised() -> String {
    let names: Vec<&str> = FORMATS.iter().map(|f| f.described).collect();
    match names.split_last() {
        Some((last, [])) => format!("not {last}"),
        Some((last, rest)) => format!("neither {} nor {last}", rest.join(", ")),
        None => "no format is known".to_owned(),
    }
}

/// The formats' short names, listed for a message: `SGF, .mat, gnubg
/// match text, XG`.
pub fn format_names() -> String {
    let names: Vec<&str> = FORMATS.iter().map(|f| f.short).collect();
    names.join(", ")
}

/// Whether a file detected as `format` is only ever read as a whole match
/// (a `.mat`, an XG file): a paste of it is no one position.
pub fn only_as_match(format: MatchFormat) -> bool {
    FORMATS
        .iter()
        .any(|f| f.format == format && !f.pasted_as_position)
}

/// Whether `bytes` are a binary match file (by its magic): read as bytes,
/// never as text.
pub fn is_binary(bytes: &[u8]) -> bool {
    binary_format(bytes).is_some()
}

fn binary_format(bytes: &[u8]) -> Option<&'static FormatEntry> {
    FORMATS
        .iter()
        .find(|f| matches!(f.known_by, KnownBy::Magic(m) if bytes.starts_with(m)))
}

/// What a match file holds once read.
#[derive(Clone, Debug, PartialEq)]
pub enum Contents {
    /// A match in the model: positions come from the replay.
    Record(Box<MatchRecord>),
    /// Text of `Position ID:` blocks: each block's IDs are the position.
    Blocks(Vec<Block>),
}

/// A read match file and what was not right in it.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchFile {
    pub format: MatchFormat,
    pub contents: Contents,
    pub problems: Vec<ReadProblem>,
}

fn detect_entry(bytes: &[u8]) -> Option<&'static FormatEntry> {
    if let Some(binary) = binary_format(bytes) {
        return Some(binary);
    }
    let head = &bytes[..bytes.len().min(64 * 1024)];
    // A cut in the middle of a UTF-8 character, or Latin-1 names: the
    // markers are ASCII, so read what is valid.
    let text = String::from_utf8_lossy(head);
    FORMATS
        .iter()
        .find(|f| matches!(f.known_by, KnownBy::Text(known) if known(&text)))
}

/// The format `bytes` hold, by their content, or `None`.
pub fn detect(bytes: &[u8]) -> Option<MatchFormat> {
    detect_entry(bytes).map(|f| f.format)
}

/// Reads at most [`MAX_MATCH_BYTES`] from `reader`; more is an error, and
/// never more than the cap is held.
fn read_capped(reader: impl Read) -> Result<Vec<u8>, MatchFileError> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_MATCH_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(MatchFileError::Io)?;
    if bytes.len() as u64 > MAX_MATCH_BYTES {
        return Err(MatchFileError::TooLarge);
    }
    Ok(bytes)
}

/// Reads the file at `path` (`-`: standard input) within the cap. Errors
/// do not name the file: the caller puts it in front.
pub fn read_path(path: &Path) -> Result<MatchFile, MatchFileError> {
    read_bytes(&read_path_bytes(path)?)
}

/// The bytes of the file at `path` (`-`: standard input), within the cap,
/// for a caller that needs them as well as the match (the library's
/// content hash). Errors do not name the file.
pub fn read_path_bytes(path: &Path) -> Result<Vec<u8>, MatchFileError> {
    Ok(if path == Path::new("-") {
        read_capped(std::io::stdin().lock())?
    } else {
        // A FIFO or a device is refused before it is read (or blocks).
        let file = crate::regular_file::open(path).map_err(MatchFileError::Io)?;
        if let Ok(meta) = file.metadata()
            && meta.len() > MAX_MATCH_BYTES
        {
            return Err(MatchFileError::FileTooLarge(meta.len()));
        }
        read_capped(file)?
    })
}

/// `bytes` with each `\r\n` and lone `\r` turned into `\n`.
fn unified_line_end_bytes(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\r' => {
                out.push(b'\n');
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    out
}

fn utf8(bytes: &[u8]) -> Result<&str, MatchFileError> {
    std::str::from_utf8(bytes).map_err(|e| MatchFileError::NotUtf8(e.valid_up_to() + 1))
}

/// Reads a match file's bytes with the reader of the format they hold.
pub fn read_bytes(bytes: &[u8]) -> Result<MatchFile, MatchFileError> {
    // Text read alike with `\r\n`, `\r` (old Macs, and terminals' pastes)
    // and `\n` line ends, bytes kept (a `.mat` may be Latin-1).
    let unified;
    let bytes = if !is_binary(bytes) && bytes.contains(&b'\r') {
        unified = unified_line_end_bytes(bytes);
        unified.as_slice()
    } else {
        bytes
    };
    let entry = detect_entry(bytes).ok_or(MatchFileError::NotAMatchFile)?;
    (entry.read)(bytes)
}

fn read_sgf(bytes: &[u8]) -> Result<MatchFile, MatchFileError> {
    let (record, problems) = sgf::read_match(utf8(bytes)?)?;
    // gnubg analyses matches of 64 points at most (its MAXSCORE), as the
    // .mat and XG readers hold too: a longer one is refused here rather
    // than failing each decision later.
    let length = record.header.length;
    if length > super::mat::MAX_MATCH_LENGTH {
        return Err(MatchFileError::SgfTooLong(length));
    }
    Ok(MatchFile {
        format: MatchFormat::Sgf,
        contents: Contents::Record(Box::new(record)),
        problems,
    })
}

fn read_match_text(bytes: &[u8]) -> Result<MatchFile, MatchFileError> {
    let (blocks, problems) = match_text::blocks(utf8(bytes)?);
    Ok(MatchFile {
        format: MatchFormat::MatchText,
        contents: Contents::Blocks(blocks),
        problems,
    })
}

fn read_mat(bytes: &[u8]) -> Result<MatchFile, MatchFileError> {
    // Latin-1 names are common in .mat files: the reader decodes them.
    let read = super::mat::read_bytes(bytes)?;
    Ok(MatchFile {
        format: MatchFormat::Mat,
        contents: Contents::Record(Box::new(read.record)),
        problems: read.problems,
    })
}

fn read_xg(bytes: &[u8]) -> Result<MatchFile, MatchFileError> {
    let read = super::xg::read_bytes(bytes)?;
    Ok(MatchFile {
        format: read.record.format,
        contents: Contents::Record(Box::new(read.record)),
        problems: read.problems,
    })
}

/// One decision of a match file, whatever the format.
#[derive(Clone, Debug, PartialEq)]
pub struct FileDecision {
    /// 1-based game.
    pub game: usize,
    /// 1-based move: the action's number in its game (set-ups counted out),
    /// or gnubg's `Move number` in its match text; 0 for the position of a
    /// game that is set-ups alone (a saved position).
    pub number: usize,
    /// Who decides.
    pub player: Player,
    pub dice: Option<[u8; 2]>,
    /// What was played, in gnubg's words (`24/18 13/11`, `double`, `take`).
    pub played: String,
    /// The position at the decision.
    pub position: Position,
    /// The file's analysis of this decision (a move list, or the cube for a
    /// double, take or drop).
    pub analysis: Option<FileAnalysis>,
    /// The cube decision the file analysed before this move's roll.
    pub cube_analysis: Option<FileAnalysis>,
    /// The annotator's comment on the decision (SGF's `C`, XG's comments).
    pub comment: Option<String>,
}

// Positions and the file's analysis numbers are read finite: the editor's
// model, which holds an open match, stays `Eq`.
impl Eq for FileDecision {}

/// Every decision of a read file, in order, and the problems met on the way
/// (the file's own and the replay's).
pub fn decisions(file: &MatchFile) -> (Vec<FileDecision>, Vec<ReadProblem>) {
    let mut problems = file.problems.clone();
    let out = match &file.contents {
        Contents::Record(record) => {
            let (list, replay_problems) = match_decisions(record);
            problems.extend(replay_problems);
            // Problems count actions with the set-ups; the listing counts
            // decisions without them. Games found by number through a map:
            // a file of many games with a problem each stays linear.
            let by_number: std::collections::HashMap<
                usize,
                &crate::domain::match_record::GameRecord,
            > = record.games.iter().map(|g| (g.number, g)).collect();
            for p in &mut problems {
                if let (Some(g), Some(a)) = (p.game, p.action)
                    && let Some(game) = by_number.get(&g)
                {
                    let before = game.actions.iter().take(a.saturating_sub(1));
                    let plays = before
                        .filter(|x| !matches!(x.kind, ActionKind::SetUp(_)))
                        .count();
                    p.action = Some(plays + 1);
                }
            }
            let mut numbers = std::collections::HashMap::new();
            let out: Vec<FileDecision> = list
                .into_iter()
                .map(|d| {
                    let number = numbers.entry(d.game).or_insert(0usize);
                    *number += 1;
                    FileDecision {
                        game: d.game,
                        number: *number,
                        player: d.record.player,
                        dice: match d.record.kind {
                            ActionKind::Move { dice, .. } => Some(dice),
                            _ => None,
                        },
                        played: played_words(d.record, &d.position),
                        analysis: d.record.analysis.clone(),
                        cube_analysis: d.record.cube_analysis.clone(),
                        comment: d.record.comment.clone(),
                        position: d.position,
                    }
                })
                .collect();
            // A game of set-ups alone (gnubg's `save position`) is one
            // position: its end, put in its game's place in one pass.
            let mut listed = out.into_iter().peekable();
            let mut out = Vec::with_capacity(listed.len());
            for game in &record.games {
                while let Some(d) = listed.next_if(|d| d.game <= game.number) {
                    out.push(d);
                }
                let plays = game
                    .actions
                    .iter()
                    .any(|a| !matches!(a.kind, ActionKind::SetUp(_)));
                if plays {
                    continue;
                }
                if let Ok(r) = replay_game(&record.header, game) {
                    out.push(FileDecision {
                        game: game.number,
                        number: 0,
                        player: r.end.state.turn,
                        dice: r.end.state.dice,
                        played: String::new(),
                        position: r.end,
                        analysis: None,
                        cube_analysis: None,
                        comment: None,
                    });
                }
            }
            out.extend(listed);
            out
        }
        Contents::Blocks(blocks) => blocks
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let player = b.position.state.turn;
                let played = b.played.as_deref().map_or_else(String::new, text_played);
                FileDecision {
                    game: b.game,
                    number: b.move_number.unwrap_or(i + 1),
                    player,
                    dice: b.position.state.dice,
                    played,
                    position: b.position.clone(),
                    analysis: b.analysis.clone(),
                    cube_analysis: b.cube_analysis.clone(),
                    comment: None,
                }
            })
            .collect(),
    };
    problems.sort_by_key(|p| (p.game, p.action, p.line));
    (out, problems)
}

/// gnubg's `* root moves 24/18 13/11` line as the other formats' words.
fn text_played(line: &str) -> String {
    if let Some((_, m)) = line.split_once(" moves ") {
        return m.trim().to_owned();
    }
    for (tail, word) in [
        (" doubles", "double"),
        (" accepts", "take"),
        (" rejects", "drop"),
        (" beavers", "beaver"),
        (" cannot move", "cannot move"),
    ] {
        if line.trim_end().ends_with(tail) {
            return word.to_owned();
        }
    }
    line.trim().to_owned()
}

/// What an action did, in gnubg's words.
fn played_words(action: &Action, before: &Position) -> String {
    match &action.kind {
        ActionKind::Move { steps, .. } if steps.is_empty() => "cannot move".to_owned(),
        ActionKind::Move { steps, .. } => sgf::steps_notation(&before.board, action.player, steps),
        ActionKind::Double => "double".to_owned(),
        ActionKind::Take => "take".to_owned(),
        ActionKind::Drop => "drop".to_owned(),
        ActionKind::Beaver => "beaver".to_owned(),
        ActionKind::Resign(r) => format!("resign {}", r.words()),
        ActionKind::AcceptResign => "accept resignation".to_owned(),
        ActionKind::RejectResign => "reject resignation".to_owned(),
        ActionKind::SetUp(_) => "set-up".to_owned(),
    }
}

/// Why the position a `--game N --move M` selection names is not in a
/// read file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SelectionError {
    /// Not in the match: the SGF codec finds the position in every
    /// format's match and names itself; the file's own format is named.
    #[error("{}", in_format(*format, cause))]
    Record { format: MatchFormat, cause: IdError },
    #[error("game {game}: the text has no position of that game")]
    NoGame { game: usize },
    #[error("move {moves}: game {game} has {count} positions (moves 0–{})", count - 1)]
    NoMove {
        moves: usize,
        game: usize,
        count: usize,
    },
}

/// `cause`'s message with the format that named itself `SGF` renamed.
fn in_format(format: MatchFormat, cause: &IdError) -> String {
    let text = cause.to_string();
    match text.strip_prefix("SGF: ") {
        Some(rest) => format!("{}: {rest}", format.name()),
        None => text,
    }
}

/// The position `selection` chooses in a read file (`--game N --move M`):
/// after M moves of game N (the last game, the whole game, by default).
pub fn position_at(
    file: &MatchFile,
    selection: sgf::Selection,
) -> Result<Position, SelectionError> {
    match &file.contents {
        Contents::Record(record) => sgf::position_at(record, selection)
            .map(|(p, _, _)| p)
            .map_err(|cause| SelectionError::Record {
                format: file.format,
                cause,
            }),
        Contents::Blocks(blocks) => {
            let last = blocks.last().map_or(0, |b| b.game);
            let game = selection.game.unwrap_or(last);
            let of_game: Vec<&Block> = blocks.iter().filter(|b| b.game == game).collect();
            if of_game.is_empty() {
                return Err(SelectionError::NoGame { game });
            }
            let m = selection.moves.unwrap_or(of_game.len() - 1);
            let block = of_game.get(m).ok_or(SelectionError::NoMove {
                moves: m,
                game,
                count: of_game.len(),
            })?;
            let mut p = block.position.clone();
            if selection.moves.is_some() {
                // As after M moves of a replay: the next roll not yet shown.
                p.state.dice = None;
            }
            Ok(p)
        }
    }
}

/// A problem as the CLI prints it: `FILE: game N, move M: ...`.
pub fn describe(file: &str, p: &ReadProblem) -> String {
    let mut s = format!("{file}: ");
    if let Some(g) = p.game {
        s.push_str(&format!("game {g}, "));
    }
    if let Some(a) = p.action {
        s.push_str(&format!("move {a}, "));
    }
    if let Some(l) = p.line {
        s.push_str(&format!("line {l}, "));
    }
    s.truncate(s.len() - 2);
    s.push_str(": ");
    s.push_str(&p.message);
    // The file's name and the message's quotes of the file are printed.
    crate::quote::printable(&s).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_by_content() {
        assert_eq!(detect(b"(;FF[4]GM[6]"), Some(MatchFormat::Sgf));
        assert_eq!(detect(b"(\n;FF[4]GM[6]"), Some(MatchFormat::Sgf));
        assert_eq!(detect(b" ( \t;FF[4]"), Some(MatchFormat::Sgf));
        assert_eq!(detect(b"(x;FF[4]"), None);
        assert_eq!(detect(b"RGMH\x01\x00"), Some(MatchFormat::Xg));
        assert_eq!(
            detect(b"; [Site \"x\"]\n\n 5 point match\n"),
            Some(MatchFormat::Mat)
        );
        assert_eq!(
            detect(b"\n 11 point match\n\n Game 1\n"),
            Some(MatchFormat::Mat)
        );
        assert_eq!(
            detect(b" Position ID: 4HPwATDgc/ABMA\n Match ID   : cAilAAAAAAAE\n"),
            Some(MatchFormat::MatchText)
        );
        assert_eq!(detect(b"hello\nworld\n"), None);
        assert!(
            read_bytes(b"hello")
                .unwrap_err()
                .to_string()
                .contains("not a match file")
        );
    }

    #[test]
    fn messages_read_as_before() {
        assert_eq!(
            read_bytes(b"hello").unwrap_err().to_string(),
            "not a match file: neither gnubg SGF ('(;'), Jellyfish .mat \
             ('N point match'), gnubg match text ('Position ID:' and 'Match ID' \
             lines) nor an XG file ('RGMH')"
        );
        assert_eq!(format_names(), "SGF, .mat, gnubg match text, XG");
        let mat =
            read_bytes(b"1 point match\n\n Game 1\n a : 0  b : 0\n  1) 31: 8/5 6/5\n").unwrap();
        let far = sgf::Selection {
            game: Some(9),
            moves: None,
        };
        assert_eq!(
            position_at(&mat, far).unwrap_err().to_string(),
            "Jellyfish .mat: game 9: the file has 1 game"
        );
        let text =
            read_bytes(b" Position ID: 4HPwATDgc/ABMA\n Match ID   : cAilAAAAAAAE\n").unwrap();
        let past = sgf::Selection {
            game: Some(1),
            moves: Some(3),
        };
        assert_eq!(
            position_at(&text, past).unwrap_err(),
            SelectionError::NoMove {
                moves: 3,
                game: 1,
                count: 1
            }
        );
        assert_eq!(
            position_at(&text, past).unwrap_err().to_string(),
            "move 3: game 1 has 1 positions (moves 0–0)"
        );
    }

    #[test]
    fn text_formats_are_tried_in_the_order_they_always_were() {
        // Match text holding a line a .mat would start with is match text.
        let both = b"Game 1\n Position ID: 4HPwATDgc/ABMA\n Match ID   : cAilAAAAAAAE\n";
        assert_eq!(detect(both), Some(MatchFormat::MatchText));
        assert!(is_binary(b"RGMH\x01"));
        assert!(only_as_match(MatchFormat::Mat) && only_as_match(MatchFormat::Xg));
        assert!(!only_as_match(MatchFormat::Sgf) && !only_as_match(MatchFormat::MatchText));
    }

    #[test]
    fn reading_stops_past_the_cap() {
        let huge = std::io::repeat(b'x').take(MAX_MATCH_BYTES + 100);
        assert!(
            read_capped(huge)
                .unwrap_err()
                .to_string()
                .contains("larger than")
        );
    }
}
