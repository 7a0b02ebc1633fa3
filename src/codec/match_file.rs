//! Match files, read in one place: which format a file holds (by its
//! content, never by its name), read within a size cap, and the one
//! dispatch with an arm per format. Every consumer (`bgedit match`,
//! `convert --file --game --move`, `library import`) comes here.
//!
//! Formats: gnubg SGF (`(;`), Jellyfish `.mat` (`; [` header lines or
//! `N point match`), gnubg's `export match text` (`Position ID:` followed
//! by `Match ID`), XG's binary files (`RGMH` magic).

use super::match_text::{self, Block};
use super::sgf;
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
pub const MAX_MATCH_BYTES: u64 = sgf::MAX_LEN as u64;

/// XG's files start with the `RichGameHeader` magic.
const XG_MAGIC: &[u8] = b"RGMH";

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

/// The format `bytes` hold, by their content, or `None`.
pub fn detect(bytes: &[u8]) -> Option<MatchFormat> {
    if bytes.starts_with(XG_MAGIC) {
        return Some(MatchFormat::Xg);
    }
    let head = &bytes[..bytes.len().min(64 * 1024)];
    // A cut in the middle of a UTF-8 character, or Latin-1 names: the
    // markers are ASCII, so read what is valid.
    let text = String::from_utf8_lossy(head);
    let start = text.trim_start_matches('\u{feff}').trim_start();
    if sgf::looks_like(start) {
        return Some(MatchFormat::Sgf);
    }
    if match_text::looks_like(&text) {
        return Some(MatchFormat::MatchText);
    }
    let mat = text.lines().take(200).map(str::trim).any(|l| {
        l.starts_with("; [")
            || l.strip_suffix("point match").is_some_and(|n| {
                let n = n.trim();
                !n.is_empty() && n.chars().all(|c| c.is_ascii_digit())
            })
            || l.strip_prefix("Game ")
                .is_some_and(|n| !n.is_empty() && n.trim().chars().all(|c| c.is_ascii_digit()))
    });
    mat.then_some(MatchFormat::Mat)
}

/// Reads at most [`MAX_MATCH_BYTES`] from `reader`; more is an error, and
/// never more than the cap is held.
pub fn read_capped(reader: impl Read) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_MATCH_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read it: {e}"))?;
    if bytes.len() as u64 > MAX_MATCH_BYTES {
        return Err(format!(
            "larger than {MAX_MATCH_BYTES} bytes; a match file is read up to that size"
        ));
    }
    Ok(bytes)
}

/// Reads the file at `path` (`-`: standard input) within the cap. Errors
/// do not name the file: the caller puts it in front.
pub fn read_path(path: &Path) -> Result<MatchFile, String> {
    let bytes = if path == Path::new("-") {
        read_capped(std::io::stdin().lock())?
    } else {
        // A FIFO or a device is refused before it is read (or blocks).
        let file = crate::regular_file::open(path).map_err(|e| format!("cannot read it: {e}"))?;
        if let Ok(meta) = file.metadata()
            && meta.len() > MAX_MATCH_BYTES
        {
            return Err(format!(
                "{} bytes; a match file is read up to {MAX_MATCH_BYTES} bytes",
                meta.len()
            ));
        }
        read_capped(file)?
    };
    read_bytes(&bytes)
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

fn utf8(bytes: &[u8]) -> Result<&str, String> {
    std::str::from_utf8(bytes).map_err(|e| format!("not UTF-8 text (byte {})", e.valid_up_to() + 1))
}

/// Reads a match file's bytes: one arm per format.
pub fn read_bytes(bytes: &[u8]) -> Result<MatchFile, String> {
    // Text read alike with `\r\n`, `\r` (old Macs, and terminals' pastes)
    // and `\n` line ends, bytes kept (a `.mat` may be Latin-1).
    let unified;
    let bytes = if !bytes.starts_with(XG_MAGIC) && bytes.contains(&b'\r') {
        unified = unified_line_end_bytes(bytes);
        unified.as_slice()
    } else {
        bytes
    };
    let Some(format) = detect(bytes) else {
        return Err(
            "not a match file: neither gnubg SGF ('(;'), Jellyfish .mat \
                    ('N point match'), gnubg match text ('Position ID:' and 'Match ID' \
                    lines) nor an XG file ('RGMH')"
                .to_owned(),
        );
    };
    match format {
        MatchFormat::Sgf => {
            let (record, problems) = sgf::read_match(utf8(bytes)?).map_err(|e| e.to_string())?;
            // gnubg analyses matches of 64 points at most (its MAXSCORE), as
            // the .mat and XG readers hold too: a longer one is refused here
            // rather than failing each decision later.
            let length = record.header.length;
            if length > super::mat::MAX_MATCH_LENGTH {
                return Err(format!(
                    "SGF: match length {length}: bgedit reads matches of 1 to {} points and money sessions",
                    super::mat::MAX_MATCH_LENGTH
                ));
            }
            Ok(MatchFile {
                format,
                contents: Contents::Record(Box::new(record)),
                problems,
            })
        }
        MatchFormat::MatchText => {
            let (blocks, problems) = match_text::blocks(utf8(bytes)?);
            Ok(MatchFile {
                format,
                contents: Contents::Blocks(blocks),
                problems,
            })
        }
        MatchFormat::Mat => {
            // Latin-1 names are common in .mat files: the reader decodes them.
            let read = super::mat::read_bytes(bytes).map_err(|e| e.to_string())?;
            Ok(MatchFile {
                format,
                contents: Contents::Record(Box::new(read.record)),
                problems: read.problems,
            })
        }
        MatchFormat::Xg | MatchFormat::Xgp => {
            let read = super::xg::read_bytes(bytes).map_err(|e| e.to_string())?;
            Ok(MatchFile {
                format: read.record.format,
                contents: Contents::Record(Box::new(read.record)),
                problems: read.problems,
            })
        }
    }
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
                    analysis: None,
                    cube_analysis: None,
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
pub fn played_words(action: &Action, before: &Position) -> String {
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

/// The position `selection` chooses in a read file (`--game N --move M`):
/// after M moves of game N (the last game, the whole game, by default).
pub fn position_at(file: &MatchFile, selection: sgf::Selection) -> Result<Position, String> {
    match &file.contents {
        Contents::Record(record) => sgf::position_at(record, selection)
            .map(|(p, _, _)| p)
            .map_err(|e| {
                // The SGF codec finds the position in every format's match
                // and names itself: the file's own format is named instead.
                let text = e.to_string();
                match text.strip_prefix("SGF: ") {
                    Some(rest) => format!("{}: {rest}", file.format.name()),
                    None => text,
                }
            }),
        Contents::Blocks(blocks) => {
            let last = blocks.last().map_or(0, |b| b.game);
            let game = selection.game.unwrap_or(last);
            let of_game: Vec<&Block> = blocks.iter().filter(|b| b.game == game).collect();
            if of_game.is_empty() {
                return Err(format!(
                    "game {game}: the text has no position of that game"
                ));
            }
            let m = selection.moves.unwrap_or(of_game.len() - 1);
            let block = of_game.get(m).ok_or_else(|| {
                format!(
                    "move {m}: game {game} has {} positions (moves 0–{})",
                    of_game.len(),
                    of_game.len() - 1
                )
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
                .contains("not a match file")
        );
    }

    #[test]
    fn reading_stops_past_the_cap() {
        let huge = std::io::repeat(b'x').take(MAX_MATCH_BYTES + 100);
        assert!(read_capped(huge).unwrap_err().contains("larger than"));
    }
}
