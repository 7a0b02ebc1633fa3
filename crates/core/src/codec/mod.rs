//! Text formats for positions: gnubg's Position ID, Match ID and GNUBG ID,
//! eXtreme Gammon's XGID, and JSON; and the exchange formats: gnubg's SGF,
//! FIBS board lines, Snowie text, XG's text export and gnubg's header lines.
//! [`parse_any`] reads whichever the user pasted; [`write_as`] writes one.
//!
//! Match files (gnubg's SGF, Jellyfish `.mat`, gnubg's match text, XG's
//! binary `.xg` and `.xgp`) are read into the one match model through
//! [`match_file`], whose table of formats is where a new one is added;
//! gnubg's match equity table files are [`met_xml`].

pub mod ascii;
mod base64_text;
pub mod detect;
pub(crate) mod error;
pub mod fibs;
pub mod gnubg_id;
pub mod header;
pub mod json;
#[cfg(test)]
pub(crate) mod key_bits;
pub mod mat;
pub mod match_file;
pub mod match_id;
pub mod match_text;
mod match_text_analysis;
pub mod met_xml;
pub mod position_id;
pub mod sgf;
pub mod snowie;
pub mod text_board;
pub mod xg;
pub mod xg_text;
pub mod xgid;

pub use error::{IdError, IdKind};

use crate::domain::Position;

/// The one rule for names (no control characters), applied by every reader
/// whose format carries names, as JSON's and the command line's are.
pub(crate) fn checked_names(position: Position, kind: IdKind) -> Result<Position, IdError> {
    position
        .names
        .check()
        .map_err(|source| IdError::Name { kind, source })?;
    Ok(position)
}

/// A format bgedit reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IdFormat {
    /// `POSITIONID:MATCHID`
    GnubgId,
    PositionId,
    MatchId,
    Xgid,
    Json,
    /// gnubg's SGF (`save position`; `save match` is read too).
    Sgf,
    /// A FIBS `board:` line (gnubg's raw board).
    Fibs,
    /// Snowie's `;`-separated text.
    Snowie,
    /// eXtreme Gammon's text export (XGID, names, board, pips, cube).
    XgText,
    /// gnubg's two `Position ID:` / `Match ID   :` lines.
    Header,
}

impl IdFormat {
    pub fn name(self) -> &'static str {
        match self {
            IdFormat::GnubgId => "GNUBG ID",
            IdFormat::PositionId => "Position ID",
            IdFormat::MatchId => "Match ID",
            IdFormat::Xgid => "XGID",
            IdFormat::Json => "JSON",
            IdFormat::Sgf => "SGF",
            IdFormat::Fibs => "FIBS board",
            IdFormat::Snowie => "Snowie text",
            IdFormat::XgText => "XG text",
            IdFormat::Header => "header lines",
        }
    }

    /// Whether the format holds the players' names.
    pub fn carries_names(self) -> bool {
        matches!(
            self,
            IdFormat::Json | IdFormat::Sgf | IdFormat::Fibs | IdFormat::Snowie | IdFormat::XgText
        )
    }
}

/// A position read from text, and the format it was in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    pub position: Position,
    pub format: IdFormat,
    /// Said when the text held more than one ID: which one was read.
    pub note: Option<String>,
}

/// Reads any format bgedit knows. What the text does not carry comes from
/// `base`: the match state for a lone Position ID (which also says who is on
/// roll, and so how to read it), the board for a lone Match ID, the names
/// for everything but JSON.
pub fn parse_any(text: &str, base: &Position) -> Result<Imported, IdError> {
    // Terminals send a pasted block's line breaks as carriage returns, and
    // Windows files end lines with CR LF: every reader below sees `\n`.
    if memchr::memchr(b'\r', text.as_bytes()).is_some() {
        return parse_lines(&unified_line_ends(text), base);
    }
    parse_lines(text, base)
}

/// `\r\n` and a lone `\r` as `\n`.
pub fn unified_line_ends(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\r', "\n")
}

fn parse_lines(text: &str, base: &Position) -> Result<Imported, IdError> {
    let detection = detect::detect(text)?;
    let note = detection.note();
    let (position, format) = match detection.reading {
        detect::Reading::Json(text) => (json::decode(text)?, IdFormat::Json),
        detect::Reading::Exchange(kind, text) => match kind {
            detect::Exchange::Sgf => (sgf::read(text)?, IdFormat::Sgf),
            detect::Exchange::Fibs => (fibs::read(text)?, IdFormat::Fibs),
            detect::Exchange::Snowie => (snowie::read(text)?, IdFormat::Snowie),
            detect::Exchange::XgText => (xg_text::read(text, &base.names)?, IdFormat::XgText),
        },
        detect::Reading::Xgid(token) => {
            let (board, state) = xgid::decode(token)?;
            let names = base.names.clone();
            (
                Position {
                    board,
                    state,
                    names,
                },
                IdFormat::Xgid,
            )
        }
        detect::Reading::Gnubg {
            position_id: p,
            match_id: m,
        } => {
            let (state, format) = match (m, p) {
                (Some(m), Some(_)) => (match_id::decode(m)?, IdFormat::GnubgId),
                (Some(m), None) => (match_id::decode(m)?, IdFormat::MatchId),
                (None, _) => (base.state.clone(), IdFormat::PositionId),
            };
            let board = match p {
                Some(p) => position_id::decode(p, state.on_roll)?,
                None => base.board.clone(),
            };
            let names = base.names.clone();
            (
                Position {
                    board,
                    state,
                    names,
                },
                format,
            )
        }
    };
    Ok(Imported {
        position,
        format,
        note,
    })
}

/// Appends `position` in `format` to `out` (no newline).
pub fn write_as(position: &Position, format: IdFormat, out: &mut String) {
    let (board, state) = (&position.board, &position.state);
    match format {
        IdFormat::GnubgId => gnubg_id::encode_into(board, state, out),
        IdFormat::PositionId => position_id::encode_into(board, state.on_roll, out),
        IdFormat::MatchId => match_id::encode_into(state, out),
        IdFormat::Xgid => xgid::encode_into(board, state, out),
        IdFormat::Json => out.push_str(&json::encode(position)),
        IdFormat::Sgf => sgf::write(position, out),
        IdFormat::Fibs => fibs::write(position, out),
        IdFormat::Snowie => snowie::write(position, out),
        IdFormat::XgText => xg_text::write(position, out),
        IdFormat::Header => header::write(position, out),
    }
}

pub fn to_string_as(position: &Position, format: IdFormat) -> String {
    let mut s = String::new();
    write_as(position, format, &mut s);
    s
}

/// What is lost when `position`, read as `from`, is written as `to`: one
/// sentence each, empty when nothing is.
pub fn conversion_losses(position: &Position, from: IdFormat, to: IdFormat) -> Vec<String> {
    let state = &position.state;
    let mut notes = Vec::new();
    let from_carries_xgid_extras = matches!(from, IdFormat::Xgid | IdFormat::Json);
    let from_carries_match_key = !matches!(from, IdFormat::Xgid | IdFormat::PositionId);
    match to {
        IdFormat::GnubgId | IdFormat::MatchId if from_carries_xgid_extras => {
            notes.extend(xgid::dropped_by_gnubg_id(state));
        }
        IdFormat::Xgid if from_carries_match_key => notes.extend(xgid::dropped_by_xgid(state)),
        _ => {}
    }
    match to {
        IdFormat::PositionId if !matches!(from, IdFormat::PositionId) => {
            notes.push("only the checkers are kept: a Position ID holds no match state".to_owned());
        }
        IdFormat::MatchId if !matches!(from, IdFormat::MatchId) => {
            notes.push("only the match state is kept: a Match ID holds no checkers".to_owned());
        }
        IdFormat::Sgf if from != IdFormat::Sgf => notes.extend(sgf::losses(state)),
        IdFormat::Fibs if from != IdFormat::Fibs => notes.extend(fibs::losses(position)),
        IdFormat::Snowie if from != IdFormat::Snowie => notes.extend(snowie::losses(position)),
        // XG text carries the XGID, and loses what it loses.
        IdFormat::XgText if from_carries_match_key => notes.extend(xgid::dropped_by_xgid(state)),
        _ => {}
    }
    if matches!(to, IdFormat::Sgf | IdFormat::Fibs | IdFormat::Snowie)
        && from_carries_xgid_extras
        && state.max_cube_log2 != crate::domain::match_state::DEFAULT_MAX_CUBE_LOG2
    {
        notes.push(format!(
            "the maximum cube ({}) is not kept: {} has none",
            1u32 << state.max_cube_log2.min(31),
            to.name()
        ));
    }
    if to == IdFormat::Fibs && from_carries_xgid_extras && state.is_money() && !state.beavers {
        notes.push("beavers off is not kept: a FIBS board has no beaver rule".to_owned());
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{MatchState, Player};

    #[test]
    fn every_format_is_recognised() {
        let base = Position::default();
        let cases = [
            ("4HPwATDgc/ABMA:cAkAAAAAAAAA", IdFormat::GnubgId),
            ("GNUBG ID: 4NvBA0DGzooBBg:QYkqASAAIAAA", IdFormat::GnubgId),
            ("4NvBA0DGzooBBg", IdFormat::PositionId),
            ("QYkqASAAIAAA", IdFormat::MatchId),
            (
                "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10",
                IdFormat::Xgid,
            ),
            (
                "-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10",
                IdFormat::Xgid,
            ),
        ];
        for (text, format) in cases {
            assert_eq!(parse_any(text, &base).unwrap().format, format, "{text}");
        }
        let json = json::encode(&base);
        assert_eq!(parse_any(&json, &base).unwrap().format, IdFormat::Json);
    }

    #[test]
    fn lone_ids_take_the_rest_from_the_base() {
        let base = Position::default();
        let p = parse_any("QYkqASAAIAAA", &base).unwrap().position;
        assert_eq!(p.board, base.board);
        assert_eq!(p.state.match_length, 9);
        let p = parse_any("4NvBA0DGzooBBg", &base).unwrap().position;
        assert_eq!(p.state, MatchState::default());
        assert_eq!(p.board.pip_count(Player::X), 135);
    }

    #[test]
    fn gnubg_id_and_xgid_agree_on_the_manual_example() {
        let base = Position::default();
        let p = parse_any("4NvBA0DGzooBBg:QYkqASAAIAAA", &base)
            .unwrap()
            .position;
        let x = to_string_as(&p, IdFormat::Xgid);
        let back = parse_any(&x, &base).unwrap().position;
        assert_eq!(back.board, p.board);
        assert_eq!(to_string_as(&back, IdFormat::PositionId), "4NvBA0DGzooBBg");
        assert_eq!(back.state.dice, Some([5, 2]));
        assert_eq!(back.state.score, [2, 4]);
    }

    #[test]
    fn empty_input_is_an_error() {
        assert_eq!(parse_any("   ", &Position::default()), Err(IdError::Empty));
    }

    #[test]
    fn names_with_control_characters_are_refused_in_every_format() {
        let position = Position {
            names: crate::domain::Names {
                o: "NAMEO".into(),
                x: "NAMEX".into(),
            },
            ..Position::default()
        };
        // SGF is not here: its SimpleText values turn control characters into
        // spaces as they are read (the SGF text rules), so no name keeps one.
        for format in [IdFormat::Fibs, IdFormat::Snowie, IdFormat::XgText] {
            let text = to_string_as(&position, format).replace("NAMEO", "NA\u{1b}MEO");
            assert!(text.contains('\u{1b}'), "{format:?}: {text}");
            match parse_any(&text, &Position::default()) {
                Err(IdError::Name { .. }) => {}
                other => panic!("{format:?}: {other:?}"),
            }
        }
    }
}

#[cfg(test)]
mod line_end_tests {
    use super::*;

    const XG_EXPORT: &str = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10\n\nX:Kazaross   O:Mochy\n\
         Score is X:0 O:0. Unlimited Game\nX to play 52\n\n    \
         1. XG Roller+  13/11 13/8     eq:+0.011\n\neXtreme Gammon Version: 2.19\n";

    #[test]
    fn a_paste_with_carriage_returns_reads_as_one_with_line_feeds() {
        let base = Position::default();
        let lf = parse_any(XG_EXPORT, &base).unwrap();
        assert_eq!(lf.format, IdFormat::XgText);
        assert_eq!(lf.position.names.x, "Kazaross");
        for ending in ["\r", "\r\n"] {
            let pasted = XG_EXPORT.replace('\n', ending);
            let read = parse_any(&pasted, &base).unwrap();
            assert_eq!(read.format, IdFormat::XgText, "{ending:?}");
            assert_eq!(read.position, lf.position, "{ending:?}");
        }
    }
}
