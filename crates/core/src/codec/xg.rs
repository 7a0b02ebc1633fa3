//! eXtreme Gammon's binary match files (`.xg`) and position files
//! (`.xgp`, the same layout holding one game), read into the one match
//! model.
//!
//! The layout is XG's published one (`XG_format.pas`, `ZLibArchive.pas`):
//!
//! ```text
//! [RichGameHeader, 8232 bytes: 'RGMH', thumbnail offset and size, names]
//! [thumbnail JPEG][zlib streams of the archive's files][zlib registry]
//! [archive trailer, 36 bytes: CRC, file count, registry and data sizes]
//! ```
//!
//! The match is the archive's `temp.xg`: 2,560-byte records, the ninth byte
//! of each its kind (match header, game header, cube, move, game footer,
//! match footer). Boards are 26 signed bytes; points 1–24 from one side,
//! positive for that side's checkers; 25 its bar and 0 the other's. Cube and
//! move records keep the board before the decision in player 1's frame, the
//! analysis in the mover's.
//!
//! XG's player 1 is gnubg's player 0 (`O`): XG's own `.mat` export writes
//! player 1 in the left-hand column, which gnubg imports as player 0.
//!
//! The positions come from the one replay, as for every format; XG's own
//! board before each move is compared with it, and where XG's differs (a
//! position edited in XG) the game gets a set-up there, so what is shown is
//! what XG shows. Checker moves and XG's candidates are named by bgedit's
//! legal moves of the position (matched by the board they reach), so the
//! played move and the analysis say a move the same way.

use crate::domain::board::{Board, BoardError};
use crate::domain::match_record::{
    Action, ActionKind, Ending, FileAnalysis, GameRecord, GameResult, MatchFormat, MatchHeader,
    MatchRecord, RankedMove, ReadProblem, SetUp,
};
use crate::domain::match_state::{CubeOwner, Resignation};
use crate::domain::moves::{LegalMove, legal_moves, steps_reach};
use crate::domain::notation::Step;
use crate::domain::player::Player;
use crate::domain::position::Names;
use crate::domain::replay::replay_game;
use std::io::Read;

const RICH_HEADER_BYTES: usize = 8232;
const TRAILER_BYTES: usize = 36;
const REGISTRY_ENTRY_BYTES: usize = 532;
const RECORD_BYTES: usize = 2560;
/// The archive's files: XG writes four (`temp.xg`, `.xgi`, `.xgr`, `.xgc`).
const MAX_ARCHIVE_FILES: usize = 64;
/// `temp.xg` inflated: a record a decision, a long match a few thousand of
/// them; this is 25,000 records.
pub(crate) const MAX_GAME_DATA_BYTES: usize = 64 << 20;
/// `temp.xgc` inflated: the comments, in RTF.
const MAX_COMMENT_BYTES: usize = 8 << 20;
/// XG's match header carries this after the version.
const HEADER_MAGIC: i32 = 0x494C_4D44; // "DMLI"
/// gnubg's longest match.
const MAX_MATCH_LENGTH: i32 = 64;
/// XG's "unlimited" match length: a money session.
const MONEY_LENGTH: i32 = 99_999;

/// Why an XG file cannot be read at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum XgError {
    #[error("{0} bytes: too short for an XG file (its header alone is 8,232)")]
    TooShort(usize),
    #[error("not an XG file: it does not start with 'RGMH'")]
    NoMagic,
    #[error("the archive inside the XG file is damaged: {0}")]
    Archive(String),
    #[error(
        "the archive's checksum is {stored:08x} but its contents sum to {computed:08x}: the file is damaged"
    )]
    Checksum { stored: u32, computed: u32 },
    #[error("the archive holds no 'temp.xg', the match itself")]
    NoGameData,
    #[error("'{name}' does not inflate: {message}")]
    Inflate { name: String, message: String },
    #[error("'temp.xg' inflates to more than {MAX_GAME_DATA_BYTES} bytes")]
    TooLarge,
    #[error("the first record is not XG's match header")]
    NoMatchHeader,
    #[error("match length {0}: bgedit reads matches of 1 to 64 points and money sessions")]
    BadLength(i32),
    #[error("variation {0}: not backgammon (XG also plays nackgammon, hypergammon, longgammon)")]
    Variation(i32),
}

/// An XG file read: the match and what could not be read in it.
#[derive(Clone, Debug, PartialEq)]
pub struct XgRead {
    pub record: MatchRecord,
    pub problems: Vec<ReadProblem>,
}

/// Reads an XG file's bytes.
pub fn read_bytes(bytes: &[u8]) -> Result<XgRead, XgError> {
    let archive = Archive::open(bytes)?;
    let data = archive
        .file("temp.xg", MAX_GAME_DATA_BYTES)
        .ok_or(XgError::NoGameData)??;
    // The comments are XG's `temp.xgc`, when the match has any: a damaged
    // one costs the comments, not the match.
    let (notes, trouble) = match archive.file("temp.xgc", MAX_COMMENT_BYTES) {
        Some(Ok(text)) => (Notes::new(comments(&text)), None),
        Some(Err(e)) => (
            Notes::new(Vec::new()),
            Some(format!("the comments are not read: {e}")),
        ),
        None => (Notes::new(Vec::new()), None),
    };
    let mut read = read_records(&data, &notes)?;
    read.problems
        .extend(trouble.map(|m| problem(None, None, m)));
    Ok(read)
}

/// Reads the match from `temp.xg`'s records and `temp.xgc`'s comments as
/// they are once out of the archive (the fuzz target feeds both here
/// directly: random bytes rarely pass the archive's checksum).
pub fn read_parts(data: &[u8], comments_text: &[u8]) -> Result<XgRead, XgError> {
    read_records(data, &Notes::new(comments(comments_text)))
}

/// Reads the match from `temp.xg`'s records as they are once out of the
/// archive (the fuzz target feeds records here directly).
pub fn read_game_data(data: &[u8]) -> Result<XgRead, XgError> {
    if data.len() > MAX_GAME_DATA_BYTES {
        return Err(XgError::TooLarge);
    }
    read_records(data, &Notes::new(Vec::new()))
}

// ---------------------------------------------------------------------------
// The archive
// ---------------------------------------------------------------------------

fn le_i32(bytes: &[u8], at: usize) -> i32 {
    i32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// The archive inside an XG file: its data and its registry of files.
struct Archive<'a> {
    data: &'a [u8],
    /// (name, start in `data`, size, stored uncompressed)
    files: Vec<(Vec<u8>, usize, usize, bool)>,
}

impl<'a> Archive<'a> {
    fn open(bytes: &'a [u8]) -> Result<Archive<'a>, XgError> {
        if !bytes.starts_with(b"RGMH") {
            return Err(XgError::NoMagic);
        }
        if bytes.len() < RICH_HEADER_BYTES + TRAILER_BYTES {
            return Err(XgError::TooShort(bytes.len()));
        }
        let trailer = bytes.len() - TRAILER_BYTES;
        let stored_crc = le_i32(bytes, trailer) as u32;
        let files = le_i32(bytes, trailer + 4);
        let registry_size = le_i32(bytes, trailer + 12);
        let data_size = le_i32(bytes, trailer + 16);
        let registry_compressed = bytes[trailer + 20] != 0;
        let bad = |what: String| XgError::Archive(what);
        let files = usize::try_from(files)
            .ok()
            .filter(|n| (1..=MAX_ARCHIVE_FILES).contains(n))
            .ok_or_else(|| bad(format!("{files} files listed")))?;
        let registry_size = usize::try_from(registry_size)
            .map_err(|_| bad(format!("a registry of {registry_size} bytes")))?;
        let data_size =
            usize::try_from(data_size).map_err(|_| bad(format!("data of {data_size} bytes")))?;
        let registry_start = trailer
            .checked_sub(registry_size)
            .ok_or_else(|| bad(format!("a registry of {registry_size} bytes")))?;
        let data_start = registry_start
            .checked_sub(data_size)
            .filter(|&s| s >= RICH_HEADER_BYTES)
            .ok_or_else(|| bad(format!("data of {data_size} bytes")))?;
        let mut crc = flate2::Crc::new();
        crc.update(&bytes[data_start..trailer]);
        if crc.sum() != stored_crc {
            return Err(XgError::Checksum {
                stored: stored_crc,
                computed: crc.sum(),
            });
        }
        let registry_bytes = &bytes[registry_start..trailer];
        let want = files * REGISTRY_ENTRY_BYTES;
        let registry = if registry_compressed {
            inflate("the registry", registry_bytes, want)?
        } else {
            registry_bytes.to_vec()
        };
        if registry.len() < want {
            return Err(bad(format!(
                "a registry of {} bytes for {files} files",
                registry.len()
            )));
        }
        let data = &bytes[data_start..registry_start];
        let mut listed = Vec::with_capacity(files);
        for entry in registry.chunks_exact(REGISTRY_ENTRY_BYTES).take(files) {
            let name_len = usize::from(entry[0]).min(255);
            let name = entry[1..1 + name_len].to_vec();
            let size = le_i32(entry, 516);
            let start = le_i32(entry, 520);
            let shown = String::from_utf8_lossy(&name).into_owned();
            let (Ok(size), Ok(start)) = (usize::try_from(size), usize::try_from(start)) else {
                return Err(bad(format!("'{}' at {start}, {size} bytes", clip(&shown))));
            };
            if start.checked_add(size).is_none_or(|end| end > data.len()) {
                return Err(bad(format!(
                    "'{}' at {start}, {size} bytes, past the data",
                    clip(&shown)
                )));
            }
            listed.push((name, start, size, entry[528] != 0));
        }
        Ok(Archive {
            data,
            files: listed,
        })
    }

    /// The file `name`, inflated within `cap` bytes; `None` when the
    /// archive has none.
    fn file(&self, name: &str, cap: usize) -> Option<Result<Vec<u8>, XgError>> {
        let (_, start, size, stored) = self.files.iter().find(|f| f.0 == name.as_bytes())?;
        let blob = &self.data[*start..start + size];
        Some(if *stored {
            if blob.len() > cap {
                Err(XgError::Archive(format!("'{name}' is past {cap} bytes")))
            } else {
                Ok(blob.to_vec())
            }
        } else {
            inflate(name, blob, cap)
        })
    }
}

/// Text from the file with each control character read as '?'.
fn printable_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

/// A name from the file, printable and short, for messages.
fn clip(text: &str) -> String {
    crate::quote::clip(&printable_line(text))
}

// ---------------------------------------------------------------------------
// Comments
// ---------------------------------------------------------------------------

/// XG's comments (`temp.xgc`): one RTF document a comment, each ended by
/// CRLF, numbered by their order (the records' comment indexes); inside
/// one, `\x01\x02` stands for the RTF source's own line breaks.
fn comments(text: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let end = rest
            .windows(2)
            .position(|w| w == b"\r\n")
            .unwrap_or(rest.len());
        out.push(rtf_text(&rest[..end]));
        rest = &rest[(end + 2).min(rest.len())..];
    }
    out
}

/// Windows-1252, the code page XG's RTF declares (`\ansicpg1252`).
fn cp1252(b: u8) -> char {
    const HIGH: [char; 32] = [
        '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8d}', 'Ž',
        '\u{8f}', '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9d}',
        'ž', 'Ÿ',
    ];
    match b {
        0x80..=0x9f => HIGH[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

/// The text of an RTF comment: groups that are not text (font and colour
/// tables, `\*` destinations) left out, `\par` and `\line` as line breaks,
/// `\'hh` and `\uN` as their characters; control characters dropped, so
/// a comment never reaches the terminal raw.
fn rtf_text(rtf: &[u8]) -> String {
    const NOT_TEXT: [&[u8]; 8] = [
        b"fonttbl",
        b"colortbl",
        b"stylesheet",
        b"info",
        b"pict",
        b"header",
        b"footer",
        b"object",
    ];
    let mut out = String::new();
    if !rtf.starts_with(b"{\\rtf") {
        out.extend(rtf.iter().map(|&b| cp1252(b)));
    } else {
        let mut depth = 0usize;
        // The depth of the group being left out, if any.
        let mut hidden: Option<usize> = None;
        let mut first_in_group = false;
        // `\uN` is followed by `uc` characters for readers without Unicode.
        let (mut uc, mut skip) = (1usize, 0usize);
        let mut i = 0;
        let emit = |c: char, hidden: Option<usize>, skip: &mut usize, out: &mut String| {
            if hidden.is_some() {
                return;
            }
            if *skip > 0 {
                *skip -= 1;
            } else {
                out.push(c);
            }
        };
        while i < rtf.len() {
            let b = rtf[i];
            i += 1;
            let first = std::mem::replace(&mut first_in_group, false);
            match b {
                b'{' => {
                    depth += 1;
                    first_in_group = true;
                }
                b'}' => {
                    if hidden == Some(depth) {
                        hidden = None;
                    }
                    depth = depth.saturating_sub(1);
                }
                b'\\' => {
                    let Some(&c) = rtf.get(i) else { break };
                    if c.is_ascii_alphabetic() {
                        let start = i;
                        while i < rtf.len() && rtf[i].is_ascii_alphabetic() {
                            i += 1;
                        }
                        let word = &rtf[start..i];
                        let digits = i;
                        if rtf.get(i) == Some(&b'-') {
                            i += 1;
                        }
                        while i < rtf.len() && rtf[i].is_ascii_digit() && i - digits < 8 {
                            i += 1;
                        }
                        let param: Option<i32> = std::str::from_utf8(&rtf[digits..i])
                            .ok()
                            .and_then(|t| t.parse().ok());
                        if rtf.get(i) == Some(&b' ') {
                            i += 1;
                        }
                        if first && hidden.is_none() && NOT_TEXT.contains(&word) {
                            hidden = Some(depth);
                        }
                        match word {
                            b"par" | b"line" => emit('\n', hidden, &mut 0, &mut out),
                            b"tab" => emit('\t', hidden, &mut 0, &mut out),
                            b"uc" => uc = param.map_or(1, |n| n.clamp(0, 8) as usize),
                            b"u" => {
                                // A signed 16-bit code unit.
                                let unit = param.unwrap_or(0) as i16 as u16;
                                let c = char::from_u32(u32::from(unit)).unwrap_or('\u{fffd}');
                                emit(c, hidden, &mut 0, &mut out);
                                skip = uc;
                            }
                            _ => {}
                        }
                    } else {
                        i += 1;
                        match c {
                            b'\'' => {
                                let hex =
                                    rtf.get(i..i + 2).and_then(|h| std::str::from_utf8(h).ok());
                                if let Some(v) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                                    emit(cp1252(v), hidden, &mut skip, &mut out);
                                    i += 2;
                                }
                            }
                            b'*' if first && hidden.is_none() => hidden = Some(depth),
                            b'\\' | b'{' | b'}' => emit(char::from(c), hidden, &mut skip, &mut out),
                            b'~' => emit(' ', hidden, &mut skip, &mut out),
                            _ => {}
                        }
                    }
                }
                // Line breaks in the RTF source are not text.
                b'\r' | b'\n' | 1 | 2 => first_in_group = first,
                _ => emit(cp1252(b), hidden, &mut skip, &mut out),
            }
        }
    }
    let text: String = out
        .replace("\x01\x02", "\n")
        .chars()
        .filter(|c| !c.is_control() || *c == '\n' || *c == '\t')
        .collect();
    text.trim().to_owned()
}

/// Comment text handed out to the records, in all: records may all point
/// at one comment, and each gets a copy, so an 8 MiB comment that 363
/// records name would take some 6 GB with the decisions' copies.
const MAX_COMMENT_TEXT: usize = 8 << 20;

/// The comments and how much text the records may still be given.
struct Notes {
    texts: Vec<String>,
    left: std::cell::Cell<usize>,
    dropped: std::cell::Cell<usize>,
}

impl Notes {
    fn new(texts: Vec<String>) -> Notes {
        Notes {
            texts,
            left: std::cell::Cell::new(MAX_COMMENT_TEXT),
            dropped: std::cell::Cell::new(0),
        }
    }

    /// Said once when comments were dropped for the bound.
    fn problem(&self) -> Option<ReadProblem> {
        let n = self.dropped.get();
        (n > 0).then(|| {
            problem(
                None,
                None,
                format!(
                    "{n} comments are not read: the records' comments come to more than \
                     {MAX_COMMENT_TEXT} bytes in all"
                ),
            )
        })
    }
}

/// The comment numbered `index` by a record (-1: none), within the bound.
fn comment(notes: &Notes, index: i32) -> Option<String> {
    let note = notes.texts.get(usize::try_from(index).ok()?)?;
    if note.is_empty() {
        return None;
    }
    let Some(left) = notes.left.get().checked_sub(note.len()) else {
        notes.dropped.set(notes.dropped.get() + 1);
        return None;
    };
    notes.left.set(left);
    Some(note.clone())
}

/// Two comments as one, either missing.
fn joined(a: Option<String>, b: Option<String>) -> Option<String> {
    match (a, b) {
        (Some(a), Some(b)) => Some(format!("{a}\n{b}")),
        (a, b) => a.or(b),
    }
}

/// Inflates a zlib stream, never past `cap` bytes.
fn inflate(name: &str, blob: &[u8], cap: usize) -> Result<Vec<u8>, XgError> {
    let mut out = Vec::new();
    flate2::read::ZlibDecoder::new(blob)
        .take(cap as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|e| XgError::Inflate {
            name: name.to_owned(),
            message: e.to_string(),
        })?;
    if out.len() > cap {
        return Err(if name == "temp.xg" {
            XgError::TooLarge
        } else {
            XgError::Archive(format!("{name} inflates past {cap} bytes"))
        });
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------

/// One 2,560-byte record; every offset read is inside it.
#[derive(Clone, Copy)]
struct Rec<'a>(&'a [u8]);

impl Rec<'_> {
    fn kind(self) -> u8 {
        self.0[8]
    }
    fn i32(self, at: usize) -> i32 {
        le_i32(self.0, at)
    }
    fn i16(self, at: usize) -> i16 {
        i16::from_le_bytes([self.0[at], self.0[at + 1]])
    }
    fn f32(self, at: usize) -> f64 {
        f64::from(f32::from_le_bytes([
            self.0[at],
            self.0[at + 1],
            self.0[at + 2],
            self.0[at + 3],
        ]))
    }
    fn f64(self, at: usize) -> f64 {
        let mut b = [0u8; 8];
        b.copy_from_slice(&self.0[at..at + 8]);
        f64::from_le_bytes(b)
    }
    fn flag(self, at: usize) -> bool {
        self.0[at] != 0
    }
    fn cells(self, at: usize) -> [i32; 26] {
        std::array::from_fn(|i| i32::from(self.0[at + i] as i8))
    }
    /// A Delphi short string: a length byte, then that many bytes (ANSI,
    /// read as Latin-1).
    fn short_string(self, at: usize, max: usize) -> String {
        let len = usize::from(self.0[at]).min(max);
        self.0[at + 1..at + 1 + len]
            .iter()
            .map(|&b| char::from(b))
            .collect()
    }
    /// A UTF-16 string of at most `chars` units, ended by a 0.
    fn wide_string(self, at: usize, chars: usize) -> String {
        let units = (0..chars)
            .map(|i| u16::from_le_bytes([self.0[at + 2 * i], self.0[at + 2 * i + 1]]))
            .take_while(|&u| u != 0);
        char::decode_utf16(units)
            .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
            .collect()
    }
}

const KIND_MATCH_HEADER: u8 = 0;
const KIND_GAME_HEADER: u8 = 1;
const KIND_CUBE: u8 = 2;
const KIND_MOVE: u8 = 3;
const KIND_GAME_FOOTER: u8 = 4;
const KIND_MATCH_FOOTER: u8 = 5;

/// XG's ActiveP: 1 (or, in old files, 1 of 1/2) is player 1.
fn player_of(active: i32) -> Player {
    if active == 1 { Player::O } else { Player::X }
}

/// An XG evaluation `[lose bg, lose g, lose, win, win g, win bg, equity]` as
/// the model's `[win, win g, win bg, lose g, lose bg]`.
fn probs(r: Rec<'_>, at: usize) -> [f64; 5] {
    [
        r.f32(at + 12),
        r.f32(at + 16),
        r.f32(at + 20),
        r.f32(at + 4),
        r.f32(at),
    ]
}

/// XG's analysis level in its own words (XG counts plies one more than
/// gnubg: its 1-ply is gnubg's 0-ply).
fn level_words(level: i32) -> String {
    match level {
        0..=6 => format!("XG {}-ply", level + 1),
        12 => "XG 3-ply red".to_owned(),
        100 => "XG rollout".to_owned(),
        998 | 999 => "XG book".to_owned(),
        1000 => "XG Roller".to_owned(),
        1001 => "XG Roller+".to_owned(),
        1002 => "XG Roller++".to_owned(),
        n => format!("XG level {n}"),
    }
}

fn header(r: Rec<'_>, problems: &mut Vec<ReadProblem>) -> Result<MatchHeader, XgError> {
    let version = r.i32(552);
    if r.i32(556) != HEADER_MAGIC {
        return Err(XgError::NoMatchHeader);
    }
    let variation = r.i32(96);
    if variation != 0 {
        return Err(XgError::Variation(variation));
    }
    let length = match r.i32(92) {
        0 | MONEY_LENGTH.. => 0,
        n @ 1..=MAX_MATCH_LENGTH => n as u16,
        n => return Err(XgError::BadLength(n)),
    };
    // Version 24 on adds the names in UTF-16; older files have ANSI only.
    let wide = version >= 24;
    // Text from the file never carries a control character on (the one
    // rule for names, and the terminal's safety for the rest): each is
    // read as '?'.
    let text = |wide_at: usize, ansi_at: usize, max: usize| {
        let s = if wide {
            r.wide_string(wide_at, 128)
        } else {
            r.short_string(ansi_at, max)
        };
        let s = s.trim().to_owned();
        (!s.is_empty()).then_some(s)
    };
    let mut name = |player: Player, wide_at: usize, ansi_at: usize, default: &str| {
        let name = text(wide_at, ansi_at, 40).unwrap_or_else(|| default.to_owned());
        if crate::domain::check_name(player, &name).is_err() {
            problems.push(problem(
                None,
                None,
                format!(
                    "{player}'s name has control characters; they are read as '?' ('{}')",
                    clip(&name)
                ),
            ));
        }
        printable_line(&name)
    };
    let o = name(Player::O, 880, 9, "Player 1");
    let x = name(Player::X, 1138, 50, "Player 2");
    let text = |wide_at, ansi_at, max| text(wide_at, ansi_at, max).map(|s| printable_line(&s));
    Ok(MatchHeader {
        names: Names { o, x },
        length,
        crawford: length > 0 && r.flag(100),
        jacoby: length == 0 && r.flag(101),
        beavers: length == 0 && r.flag(102),
        event: text(622, 136, 128),
        round: text(1654, 417, 128),
        place: text(1396, 283, 128),
        date: delphi_date(r.f64(128)),
        application: Some("eXtreme Gammon".to_owned()),
        // Version 30 on: after the time setting (v25) and the rollout
        // marks (v26).
        annotator: (version >= 30)
            .then(|| printable_line(r.wide_string(1960, 128).trim()))
            .filter(|s| !s.is_empty()),
        comment: None,
    })
}

/// A Delphi `TDateTime` (days since 1899-12-30) as `YYYY-MM-DD`.
fn delphi_date(days: f64) -> Option<String> {
    if !days.is_finite() || !(1.0..=2_958_465.0).contains(&days) {
        return None;
    }
    let epoch = chrono::NaiveDate::from_ymd_opt(1899, 12, 30)?;
    let date = epoch.checked_add_days(chrono::Days::new(days.floor() as u64))?;
    Some(date.format("%Y-%m-%d").to_string())
}

/// A decision of XG's kept beside the action made of it, for the check
/// against the replay.
struct Pending {
    action: Action,
    /// XG's board before the decision, when the record has one.
    board: Option<Board>,
}

/// The game being read.
struct GameInProgress {
    record: GameRecord,
    actions: Vec<Pending>,
    /// The cube decision XG analysed before the next roll.
    cube_analysis: Option<FileAnalysis>,
    /// A comment on that cube decision, kept for the roll's move.
    cube_comment: Option<String>,
    /// Doublings so far (for a resignation's size).
    cube_log2: u32,
    /// XG says a position of this game was edited (files of version 24 on
    /// say so; older ones are always checked).
    edited: bool,
    /// The game starts from a set-up whose cube the first decision's
    /// record gives.
    start_cube: bool,
}

fn game_header(r: Rec<'_>, index: usize, problems: &mut Vec<ReadProblem>) -> GameInProgress {
    // Games are counted by their place in the file, as in every format
    // (`--game N`, the decisions' order); a header's own number that says
    // otherwise is named.
    let number = index;
    if usize::try_from(r.i32(48)).ok() != Some(index) {
        problems.push(problem(
            Some(index),
            None,
            format!(
                "the game's header says game {}; read as game {index}, games being counted in file order",
                r.i32(48)
            ),
        ));
    }
    let mut score = |at: usize| {
        u16::try_from(r.i32(at)).unwrap_or_else(|_| {
            problems.push(problem(
                Some(number),
                None,
                format!("a score of {}; read as 0", r.i32(at)),
            ));
            0
        })
    };
    let score = [score(12), score(16)];
    let mut record = GameRecord {
        number,
        score,
        crawford_game: r.flag(20),
        ..GameRecord::default()
    };
    // XG writes zeros for the usual start, and the board of a game set up
    // otherwise (a position file).
    let start = r.cells(21);
    if start.iter().any(|&c| c != 0) {
        match Board::from_mover_cells(&start, Player::O) {
            Ok(board) if board != Board::starting() => {
                record.actions.push(Action::new(
                    Player::O,
                    ActionKind::SetUp(SetUp {
                        board: Some(board),
                        ..SetUp::default()
                    }),
                ));
            }
            Ok(_) => {}
            Err(e) => problems.push(problem(
                Some(number),
                None,
                format!("the game's starting board: {e}"),
            )),
        }
    }
    let set_up = matches!(
        record.actions.first().map(|a| &a.kind),
        Some(ActionKind::SetUp(_))
    );
    GameInProgress {
        record,
        actions: Vec::new(),
        cube_analysis: None,
        cube_comment: None,
        cube_log2: 0,
        edited: false,
        start_cube: set_up,
    }
}

/// The cube as XG's records keep it (0 centred, +n: player 1 owns 2^n,
/// -n: player 2 owns it) onto a game that starts from a set-up.
fn start_cube(game: &mut GameInProgress, cube: i32) {
    if !std::mem::take(&mut game.start_cube) {
        return;
    }
    let log2 = cube.unsigned_abs().min(12);
    let owner = match cube {
        0 => CubeOwner::Centred,
        1.. => CubeOwner::Owned(Player::O),
        _ => CubeOwner::Owned(Player::X),
    };
    game.cube_log2 = log2;
    if let Some(Action {
        kind: ActionKind::SetUp(set),
        ..
    }) = game.record.actions.first_mut()
    {
        set.cube_log2 = Some(log2 as u8);
        set.cube_owner = Some(owner);
    }
}

fn problem(game: Option<usize>, action: Option<usize>, message: String) -> ReadProblem {
    ReadProblem {
        game,
        action,
        line: None,
        message,
    }
}

/// A cube record's analysis, from the side of the player on roll.
fn cube_analysis(r: Rec<'_>) -> Option<FileAnalysis> {
    const AT: usize = 64; // EngineStructDoubleAction
    // -100: XG did not analyse this cube decision.
    if r.i16(AT + 56) == -100 {
        return None;
    }
    let values = [r.f32(AT + 88), r.f32(AT + 92), r.f32(AT + 96)];
    if values.iter().any(|v| !v.is_finite()) {
        return None;
    }
    Some(FileAnalysis::Cube {
        no_double: values[0],
        double_take: values[1],
        double_pass: values[2],
        probs: Some(probs(r, AT + 60)).filter(|p| p.iter().all(|v| v.is_finite())),
        depth: level_words(r.i32(AT + 28)),
    })
}

fn cube_record(
    r: Rec<'_>,
    at: u32,
    game: &mut GameInProgress,
    problems: &mut Vec<ReadProblem>,
    note: Option<String>,
) {
    let player = player_of(r.i32(12));
    game.edited |= r.flag(296);
    start_cube(game, r.i32(32));
    let analysis = cube_analysis(r);
    if r.i32(16) != 1 {
        // No double (0), no access to the cube (-2, -1): what XG found is
        // the cube decision before the roll that follows.
        game.cube_analysis = analysis;
        game.cube_comment = note;
        return;
    }
    let board = Board::from_mover_cells(&r.cells(36), Player::O).ok();
    let push = |kind: ActionKind,
                who: Player,
                analysis: Option<FileAnalysis>,
                game: &mut GameInProgress| {
        let mut action = Action::new(who, kind);
        action.analysis = analysis;
        action.origin = Some(at);
        game.actions.push(Pending {
            action,
            board: board.clone(),
        });
    };
    push(ActionKind::Double, player, analysis.clone(), game);
    if let Some(double) = game.actions.last_mut() {
        double.action.comment = note;
    }
    game.cube_log2 += 1;
    let taker = player.opponent();
    match r.i32(20) {
        1 => push(ActionKind::Take, taker, analysis, game),
        0 => push(ActionKind::Drop, taker, analysis, game),
        2 => {
            push(ActionKind::Beaver, taker, analysis, game);
            game.cube_log2 += 1;
            if r.i32(28) == 1 {
                problems.push(problem(
                    Some(game.record.number),
                    Some(game.actions.len()),
                    "a raccoon: gnubg has none; read as the beaver alone".to_owned(),
                ));
            }
        }
        // -1: the double is not answered yet (a game in progress).
        _ => {}
    }
}

/// A move's steps as XG writes them: (from, to) pairs in the mover's
/// frame, points 0–23, the bar 24, off below 0; a from of -1 ends the list.
fn steps(codes: impl Iterator<Item = i32>) -> Vec<Step> {
    let codes: Vec<i32> = codes.collect();
    // A bear-off's "to" is below 0 by the pips to spare (-1, -2, ...).
    let point = |c: i32| match c {
        24 => Some(25u8),
        ..0 => Some(0),
        0..=23 => Some(c as u8 + 1),
        _ => None,
    };
    codes
        .chunks_exact(2)
        .take_while(|pair| pair[0] != -1)
        .filter_map(|pair| {
            Some(Step {
                from: point(pair[0])?,
                to: point(pair[1])?,
            })
        })
        .collect()
}

/// Why a move record is skipped; the reader puts the record in front.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
enum MoveRecordError {
    #[error("dice {}-{}", .0[0], .0[1])]
    Dice([i32; 2]),
    #[error("the board before the move: {0}")]
    Board(BoardError),
}

fn move_record(
    r: Rec<'_>,
    at: u32,
    game: &mut GameInProgress,
    problems: &mut Vec<ReadProblem>,
    note: Option<String>,
) -> Result<(), MoveRecordError> {
    let note = joined(game.cube_comment.take(), note);
    let player = player_of(r.i32(64));
    game.edited |= r.flag(2528);
    start_cube(game, r.i32(108));
    let dice = [r.i32(100), r.i32(104)];
    if dice.iter().any(|d| !(1..=6).contains(d)) {
        return Err(MoveRecordError::Dice(dice));
    }
    let dice = [dice[0] as u8, dice[1] as u8];
    let before = Board::from_mover_cells(&r.cells(9), Player::O).map_err(MoveRecordError::Board)?;
    let legal = legal_moves(&before, player, dice);
    if !r.flag(2308) {
        // Rolled, then resigned without moving (XG's `.mat` export writes
        // `????`): as gnubg imports that, a forced move is played, no move
        // is a dance, and otherwise the roll alone is recorded.
        let kind = match legal.as_slice() {
            [] => ActionKind::Move {
                dice,
                steps: Vec::new(),
            },
            [only] => ActionKind::Move {
                dice,
                steps: only.steps().to_vec(),
            },
            _ => ActionKind::SetUp(SetUp {
                dice: Some(dice),
                ..SetUp::default()
            }),
        };
        let mut action = Action::new(player, kind);
        action.origin = Some(at);
        action.comment = note;
        game.cube_analysis = None;
        game.actions.push(Pending {
            action,
            board: Some(before),
        });
        return Ok(());
    }
    let by_result = |cells: [i32; 26]| -> Option<&LegalMove> {
        let after = Board::from_mover_cells(&cells, player).ok()?;
        legal.iter().find(|m| m.result == after)
    };
    // The move played: the legal move reaching XG's board after it (so it
    // is named as the analysis names it); where it is none, XG's own
    // steps, which the replay then judges.
    let played = if legal.is_empty() {
        Vec::new()
    } else {
        let own = steps((0..8).map(|i| r.i32(68 + 4 * i)));
        match by_result(r.cells(35)) {
            // XG's own steps when they play that move (`10/9/6` and
            // `10/7/6` are one move; gnubg keeps the file's).
            Some(m) if steps_reach(&before, player, &own).as_ref() == Some(&m.result) => own,
            Some(m) => m.steps().to_vec(),
            None => own,
        }
    };
    let mut action = Action::new(
        player,
        ActionKind::Move {
            dice,
            steps: played,
        },
    );
    action.origin = Some(at);
    action.comment = note;
    action.cube_analysis = game.cube_analysis.take();
    const DM: usize = 124; // EngineStructBestMove
    // A dance has nothing to rank (XG lists the unchanged board).
    let candidates = if legal.is_empty() {
        0
    } else {
        usize::try_from(r.i32(DM + 64)).unwrap_or(0).min(32)
    };
    let mut moves = Vec::with_capacity(candidates);
    let mut unnamed = 0;
    for i in 0..candidates {
        let Some(m) = by_result(r.cells(DM + 68 + 26 * i)) else {
            unnamed += 1;
            continue;
        };
        let eval = DM + 1284 + 28 * i;
        let equity = r.f32(eval + 24);
        if !equity.is_finite() {
            unnamed += 1;
            continue;
        }
        moves.push(RankedMove {
            notation: m.notation(),
            equity,
            probs: Some(probs(r, eval)).filter(|p| p.iter().all(|v| v.is_finite())),
            depth: level_words(i32::from(r.i16(DM + 1156 + 4 * i))),
        });
    }
    if unnamed > 0 {
        problems.push(problem(
            Some(game.record.number),
            Some(game.record.actions.len() + game.actions.len() + 1),
            format!("{unnamed} of XG's {candidates} candidate moves are not legal moves of the position; left out"),
        ));
    }
    if !moves.is_empty() {
        action.analysis = Some(FileAnalysis::Moves { moves });
    }
    game.actions.push(Pending {
        action,
        board: Some(before),
    });
    Ok(())
}

fn footer(r: Rec<'_>, game: &mut GameInProgress, problems: &mut Vec<ReadProblem>) {
    let winner = match r.i32(24) {
        1 => Player::O,
        -1 => Player::X,
        n => {
            problems.push(problem(
                Some(game.record.number),
                None,
                format!("the game's footer names winner {n}; the game is read unfinished"),
            ));
            return;
        }
    };
    let Ok(points) = u32::try_from(r.i32(28)) else {
        return;
    };
    let termination = r.i32(32);
    let ending = match termination {
        0 => Ending::Dropped,
        1..=3 => Ending::BoreOff,
        _ => {
            // A resignation (100 on) or, in money play, a settlement (1000
            // on; gnubg has none): the loser resigned what the winner
            // scored, at the cube of the game's end.
            let cube = 1u32 << game.cube_log2.min(15);
            let level = match points / cube {
                0 | 1 => Resignation::Single,
                2 => Resignation::Gammon,
                _ => Resignation::Backgammon,
            };
            if termination >= 1000 {
                problems.push(problem(
                    Some(game.record.number),
                    None,
                    format!("settled for {points} points: gnubg has no settlement; read as a resignation"),
                ));
            }
            game.actions.push(Pending {
                action: Action::new(winner.opponent(), ActionKind::Resign(level)),
                board: None,
            });
            game.actions.push(Pending {
                action: Action::new(winner, ActionKind::AcceptResign),
                board: None,
            });
            Ending::Resigned
        }
    };
    game.record.result = Some(GameResult {
        winner,
        points,
        ending: Some(ending),
    });
}

/// Moves the read actions into the game, with a set-up wherever XG's board
/// before a decision is not the replay's (a position edited in XG).
fn finish(header: &MatchHeader, mut game: GameInProgress, check: bool) -> GameRecord {
    let pending = std::mem::take(&mut game.actions);
    let mut record = game.record;
    let mut expected: Vec<Option<Board>> = vec![None; record.actions.len()];
    for p in pending {
        record.actions.push(p.action);
        expected.push(p.board);
    }
    // Each pass fixes the first difference; a file edited at every move
    // needs as many passes as edits, never more than its actions. Where XG
    // says nothing was edited, its boards are the replay's (the tests
    // check every one of the real files').
    let passes = if check || game.edited {
        record.actions.len() + 1
    } else {
        0
    };
    for _ in 0..passes {
        // A replay stopped by an impossible move still gives the position
        // before it (`end`): where XG's board is likely to differ.
        let before = match replay_game(header, &record) {
            Ok(r) => r.before,
            Err(e) => {
                let partial = *e.partial;
                let mut before = partial.before;
                before.push(partial.end);
                before
            }
        };
        let differs = before
            .iter()
            .zip(&expected)
            .position(|(at, want)| want.as_ref().is_some_and(|b| *b != at.board));
        let Some(i) = differs else { break };
        let board = expected[i].clone();
        let player = record.actions[i].player;
        record.actions.insert(
            i,
            Action::new(
                player,
                ActionKind::SetUp(SetUp {
                    board,
                    on_roll: Some(player),
                    ..SetUp::default()
                }),
            ),
        );
        expected.insert(i, None);
    }
    // A game without its end is a match saved in play, or a position file.
    record
}

fn read_records(data: &[u8], notes: &Notes) -> Result<XgRead, XgError> {
    let mut records = data.chunks_exact(RECORD_BYTES).map(Rec);
    let first = records.next().ok_or(XgError::NoMatchHeader)?;
    if first.kind() != KIND_MATCH_HEADER {
        return Err(XgError::NoMatchHeader);
    }
    let mut problems = Vec::new();
    let mut header = header(first, &mut problems)?;
    // Files before version 24 do not mark edited positions: check them all.
    let check_all = first.i32(552) < 24;
    header.comment = joined(
        comment(notes, first.i32(576)),
        comment(notes, first.i32(580)),
    );
    let mut games: Vec<GameRecord> = Vec::new();
    let mut game: Option<GameInProgress> = None;
    let mut match_footer = false;
    let mut game_footers = 0usize;
    for (i, r) in records.enumerate() {
        // Record numbers count from 1 with the match header.
        let at = (i + 2) as u32;
        match r.kind() {
            KIND_GAME_HEADER => {
                if let Some(g) = game.take() {
                    games.push(finish(&header, g, check_all));
                }
                let mut g = game_header(r, games.len() + 1, &mut problems);
                g.record.comment = joined(comment(notes, r.i32(56)), comment(notes, r.i32(60)));
                game = Some(g);
            }
            KIND_CUBE | KIND_MOVE | KIND_GAME_FOOTER => {
                let Some(g) = game.as_mut() else {
                    problems.push(problem(
                        None,
                        None,
                        format!("record {at}: a decision before any game header; skipped"),
                    ));
                    continue;
                };
                match r.kind() {
                    KIND_CUBE => cube_record(r, at, g, &mut problems, comment(notes, r.i32(292))),
                    KIND_MOVE => {
                        let note = comment(notes, r.i32(2524));
                        if let Err(message) = move_record(r, at, g, &mut problems, note) {
                            problems.push(problem(
                                Some(g.record.number),
                                Some(g.record.actions.len() + g.actions.len() + 1),
                                format!("record {at}: {message}; the move is skipped"),
                            ));
                        }
                    }
                    _ => {
                        game_footers += 1;
                        footer(r, g, &mut problems);
                    }
                }
            }
            KIND_MATCH_FOOTER => match_footer = true,
            KIND_MATCH_HEADER => {}
            // Other kinds (XG's "missing" entries) carry no decision.
            _ => {}
        }
    }
    if let Some(g) = game.take() {
        games.push(finish(&header, g, check_all));
    }
    problems.extend(notes.problem());
    if !data.len().is_multiple_of(RECORD_BYTES) {
        problems.push(problem(
            None,
            None,
            format!(
                "'temp.xg' ends with {} bytes that are not a whole record; ignored",
                data.len() % RECORD_BYTES
            ),
        ));
    }
    Ok(XgRead {
        record: MatchRecord {
            // XG's position files (`.xgp`) are the same archive holding one
            // game that never ends: the position and XG's analysis of it.
            format: if games.len() == 1 && game_footers == 0 && !match_footer {
                MatchFormat::Xgp
            } else {
                MatchFormat::Xg
            },
            header,
            games,
        },
        problems,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_named_in_xgs_count() {
        assert_eq!(level_words(0), "XG 1-ply");
        assert_eq!(level_words(2), "XG 3-ply");
        assert_eq!(level_words(998), "XG book");
        assert_eq!(level_words(1002), "XG Roller++");
    }

    #[test]
    fn a_move_record_with_bad_dice_says_them_as_before() {
        assert_eq!(MoveRecordError::Dice([0, 7]).to_string(), "dice 0-7");
    }

    #[test]
    fn steps_end_at_the_first_minus_one() {
        let s = steps([23, 22, 12, 7, -1, -1, -1, -1].into_iter());
        assert_eq!(s, vec![Step { from: 24, to: 23 }, Step { from: 13, to: 8 }]);
        let s = steps([24, 20, 3, -1, -1, -1, -1, -1].into_iter());
        assert_eq!(s, vec![Step { from: 25, to: 21 }, Step { from: 4, to: 0 }]);
    }

    #[test]
    fn dates_are_days_since_1899_12_30() {
        assert_eq!(delphi_date(45256.395).as_deref(), Some("2023-11-26"));
        assert_eq!(delphi_date(f64::NAN), None);
        assert_eq!(delphi_date(-3.0), None);
    }

    /// An XG archive of `files` (name, bytes), each stored uncompressed.
    fn archive(files: &[(&str, &[u8])]) -> Vec<u8> {
        let mut out = b"RGMH".to_vec();
        out.resize(RICH_HEADER_BYTES, 0);
        let mut data = Vec::new();
        let mut registry = Vec::new();
        for (name, bytes) in files {
            let mut entry = vec![0u8; REGISTRY_ENTRY_BYTES];
            entry[0] = name.len() as u8;
            entry[1..1 + name.len()].copy_from_slice(name.as_bytes());
            entry[516..520].copy_from_slice(&(bytes.len() as i32).to_le_bytes());
            entry[520..524].copy_from_slice(&(data.len() as i32).to_le_bytes());
            entry[528] = 1;
            registry.extend(entry);
            data.extend_from_slice(bytes);
        }
        let mut crc = flate2::Crc::new();
        crc.update(&data);
        crc.update(&registry);
        let mut trailer = vec![0u8; TRAILER_BYTES];
        trailer[0..4].copy_from_slice(&crc.sum().to_le_bytes());
        trailer[4..8].copy_from_slice(&(files.len() as i32).to_le_bytes());
        trailer[12..16].copy_from_slice(&(registry.len() as i32).to_le_bytes());
        trailer[16..20].copy_from_slice(&(data.len() as i32).to_le_bytes());
        out.extend(data);
        out.extend(registry);
        out.extend(trailer);
        out
    }

    /// A file whose every record names one comment of 7 MiB (the bomb: a
    /// small file, gigabytes once each decision has its copy): the
    /// comments handed out stay within the bound, and the rest are said
    /// to be dropped.
    #[test]
    fn one_huge_comment_named_by_every_record_is_read_within_a_bound() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/xg/match_with_comment.xg"
        );
        let bytes = std::fs::read(path).unwrap();
        let mut records = Archive::open(&bytes)
            .unwrap()
            .file("temp.xg", MAX_GAME_DATA_BYTES)
            .unwrap()
            .unwrap();
        let mut named = 0;
        for r in records.chunks_exact_mut(RECORD_BYTES) {
            let fields: &[usize] = match r[8] {
                KIND_MATCH_HEADER => &[576, 580],
                KIND_GAME_HEADER => &[56, 60],
                KIND_CUBE => &[292],
                KIND_MOVE => &[2524],
                _ => &[],
            };
            for &at in fields {
                r[at..at + 4].copy_from_slice(&0i32.to_le_bytes());
                named += 1;
            }
        }
        assert!(named >= 20, "{named}");
        let mut xgc = b"{\\rtf1 ".to_vec();
        xgc.resize(7 << 20, b'a');
        xgc.extend_from_slice(b"}\r\n");
        let file = archive(&[("temp.xg", &records), ("temp.xgc", &xgc)]);
        let read = read_bytes(&file).unwrap();
        let record = &read.record;
        let texts = record
            .header
            .comment
            .iter()
            .chain(record.games.iter().flat_map(|g| {
                g.comment
                    .iter()
                    .chain(g.actions.iter().filter_map(|a| a.comment.as_ref()))
            }));
        let total: usize = texts.map(String::len).sum();
        assert!(total > 6 << 20, "{total}");
        assert!(total <= 8 << 20, "{total}");
        assert!(
            read.problems
                .iter()
                .any(|p| p.message.contains("comments are not read")),
            "{:?}",
            read.problems
        );
    }

    #[test]
    fn comments_are_the_text_of_their_rtf() {
        let xgc = b"{\\rtf1\\ansi\\ansicpg1252{\\fonttbl{\\f0\\fcharset0 Arial;}}\x01\x02{\\colortbl;}\x01\x02{\\*\\generator Wine Riched20 2.0;}\x01\x02\\pard\\fs20\\f0 les double 66 sont \\'e0 trouver\\par\x01\x02}\r\n\r\n{\\rtf1 a\\par b\\u8364?\x1b[31m}\r\n";
        let notes = Notes::new(comments(xgc));
        assert_eq!(
            notes.texts,
            vec![
                "les double 66 sont à trouver".to_owned(),
                String::new(),
                "a\nb€[31m".to_owned()
            ]
        );
        assert_eq!(comment(&notes, 1), None);
        assert_eq!(comment(&notes, -1), None);
        assert_eq!(comment(&notes, 7), None);
    }

    /// A name or event with a control character (an escape sequence) is
    /// read with '?' in its place, and the name's is reported.
    #[test]
    fn control_characters_in_the_header_are_read_as_question_marks() {
        let mut r = vec![0u8; RECORD_BYTES];
        r[92..96].copy_from_slice(&7i32.to_le_bytes());
        r[552..556].copy_from_slice(&32i32.to_le_bytes());
        r[556..560].copy_from_slice(&HEADER_MAGIC.to_le_bytes());
        let put = |r: &mut Vec<u8>, at: usize, text: &str| {
            for (i, u) in text.encode_utf16().enumerate() {
                r[at + 2 * i..at + 2 * i + 2].copy_from_slice(&u.to_le_bytes());
            }
        };
        put(&mut r, 880, "Ann\u{1b}]52;c;x\u{7}");
        put(&mut r, 1138, "Ben");
        put(&mut r, 622, "Club\u{1b}[2J night");
        let read = read_game_data(&r).unwrap();
        let h = &read.record.header;
        assert_eq!(h.names.o, "Ann?]52;c;x?");
        assert_eq!(h.names.x, "Ben");
        assert_eq!(h.event.as_deref(), Some("Club?[2J night"));
        assert_eq!(read.problems.len(), 1, "{:?}", read.problems);
        assert!(
            read.problems[0]
                .message
                .contains("O's name has control characters")
        );
        assert!(!read.problems[0].message.chars().any(char::is_control));
    }

    #[test]
    fn damaged_files_are_clear_errors() {
        assert_eq!(read_bytes(b"hello"), Err(XgError::NoMagic));
        assert_eq!(read_bytes(b"RGMH"), Err(XgError::TooShort(4)));
        let mut bytes = b"RGMH".to_vec();
        bytes.resize(RICH_HEADER_BYTES + TRAILER_BYTES, 0);
        assert!(matches!(read_bytes(&bytes), Err(XgError::Archive(_))));
    }
}

#[cfg(test)]
mod edited_tests {
    use super::*;
    use crate::codec::match_file::{Contents, MatchFile, decisions};

    /// A position edited in XG: a move record replaced by a later one of the
    /// same player (its board not the replay's) and marked edited. The
    /// reading sets the board up there, so every decision shows XG's board.
    #[test]
    fn an_edited_position_is_set_up_where_xg_edited_it() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/xg/charlot_7pt.xg"
        );
        let bytes = std::fs::read(path).unwrap();
        let archive = Archive::open(&bytes).unwrap();
        let mut data = archive
            .file("temp.xg", MAX_GAME_DATA_BYTES)
            .unwrap()
            .unwrap();
        let moves: Vec<usize> = (0..data.len() / RECORD_BYTES)
            .filter(|&i| data[i * RECORD_BYTES + 8] == KIND_MOVE)
            .collect();
        let (k, later) = (moves[6], moves[10]);
        let copy = data[later * RECORD_BYTES..(later + 1) * RECORD_BYTES].to_vec();
        data[k * RECORD_BYTES..(k + 1) * RECORD_BYTES].copy_from_slice(&copy);
        data[k * RECORD_BYTES + 2528] = 1;
        let read = read_game_data(&data).unwrap();
        let game = &read.record.games[0];

        let set_ups = game
            .actions
            .iter()
            .filter(|a| matches!(a.kind, ActionKind::SetUp(_)))
            .count();
        assert!(set_ups >= 1, "{set_ups}");
        let file = MatchFile {
            format: MatchFormat::Xg,
            contents: Contents::Record(Box::new(read.record.clone())),
            problems: Vec::new(),
        };
        let (list, _) = decisions(&file);
        // Every move of game 1 is on XG's own board.
        let mut at = 0;
        for i in 0..data.len() / RECORD_BYTES {
            let r = Rec(&data[i * RECORD_BYTES..(i + 1) * RECORD_BYTES]);
            if r.kind() == KIND_GAME_HEADER && i > 1 {
                break;
            }
            if r.kind() != KIND_MOVE || !r.flag(2308) {
                continue;
            }
            let want = Board::from_mover_cells(&r.cells(9), Player::O).unwrap();
            let d = list
                .iter()
                .filter(|d| d.game == 1 && d.dice.is_some())
                .nth(at)
                .unwrap();
            assert_eq!(d.position.board, want, "move record {i}");
            at += 1;
        }
        assert!(at > 20);
    }
}

#[cfg(test)]
mod position_file_tests {
    use super::*;
    use crate::codec::match_file::{Contents, MatchFile, decisions};

    /// XG's position files hold one game that starts from the position and
    /// never ends: built here from a real match's records (a game header
    /// whose starting board is a mid-game one, the cube record and the move
    /// there, with XG's analysis), it reads as that position, with the cube
    /// the records give (2, O's) and XG's candidates.
    #[test]
    fn a_position_file_is_its_position_and_analysis() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/xg/charlot_7pt.xg"
        );
        let bytes = std::fs::read(path).unwrap();
        let archive = Archive::open(&bytes).unwrap();
        let data = archive
            .file("temp.xg", MAX_GAME_DATA_BYTES)
            .unwrap()
            .unwrap();
        let rec = |i: usize| &data[i * RECORD_BYTES..(i + 1) * RECORD_BYTES];
        let n = data.len() / RECORD_BYTES;
        let cube = (2..n - 1)
            .find(|&i| {
                let r = Rec(rec(i));
                r.kind() == KIND_CUBE
                    && r.i32(16) == 0
                    && r.i32(32) == 1
                    && Rec(rec(i + 1)).kind() == KIND_MOVE
            })
            .unwrap();
        let mut game = rec(1).to_vec();
        game[21..47].copy_from_slice(&rec(cube)[36..62]);
        let mut stream = rec(0).to_vec();
        stream.extend_from_slice(&game);
        stream.extend_from_slice(rec(cube));
        stream.extend_from_slice(rec(cube + 1));
        let read = read_game_data(&stream).unwrap();
        assert_eq!(read.record.format, MatchFormat::Xgp);
        assert!(read.problems.is_empty(), "{:?}", read.problems);
        let file = MatchFile {
            format: MatchFormat::Xgp,
            contents: Contents::Record(Box::new(read.record)),
            problems: Vec::new(),
        };
        let (list, problems) = decisions(&file);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(list.len(), 1);
        let d = &list[0];
        let want = Board::from_mover_cells(&Rec(rec(cube)).cells(36), Player::O).unwrap();
        assert_eq!(d.position.board, want);
        assert_eq!(d.position.state.cube_log2, 1);
        assert_eq!(d.position.state.cube_owner, CubeOwner::Owned(Player::O));
        assert!(matches!(d.analysis, Some(FileAnalysis::Moves { .. })));
        assert!(matches!(d.cube_analysis, Some(FileAnalysis::Cube { .. })));
    }
}
