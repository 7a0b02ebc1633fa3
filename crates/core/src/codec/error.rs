//! Why an ID was refused. Every message names the rule that was broken and
//! where: which format, which character, bit, field or point.

use crate::domain::{BoardError, MatchError, NameError, Player};

/// The kind of text being read, for messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdKind {
    PositionId,
    MatchId,
    GnubgId,
    Xgid,
    Json,
    Sgf,
    Fibs,
    Snowie,
}

impl std::fmt::Display for IdKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            IdKind::PositionId => "Position ID",
            IdKind::MatchId => "Match ID",
            IdKind::GnubgId => "GNUBG ID",
            IdKind::Xgid => "XGID",
            IdKind::Json => "JSON",
            IdKind::Sgf => "SGF",
            IdKind::Fibs => "FIBS board",
            IdKind::Snowie => "Snowie text",
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IdError {
    #[error("nothing to read: the input is empty")]
    Empty,
    #[error("{kind}: {found} characters; a {kind} has {expected}")]
    WrongLength {
        kind: IdKind,
        expected: usize,
        found: usize,
    },
    #[error("{kind}: character {position} '{ch}' is not Base64 (A–Z, a–z, 0–9, + and /)")]
    BadCharacter {
        kind: IdKind,
        position: usize,
        ch: char,
    },
    #[error("{kind}: bit {bit} is set past the end of the key")]
    BitsPastEnd { kind: IdKind, bit: usize },
    #[error("{kind}: {detail}")]
    Malformed { kind: IdKind, detail: String },
    #[error("{kind}: {player} has more than 15 checkers")]
    TooManyCheckers { kind: IdKind, player: Player },
    #[error("{kind}: {source}")]
    Board { kind: IdKind, source: BoardError },
    #[error("{kind}: {source}")]
    Match { kind: IdKind, source: MatchError },
    #[error("{kind}: {source}")]
    Name { kind: IdKind, source: NameError },
    #[error(
        "Match ID: dice {first} and {second} (bits 16–21); each die is 1–6, or both 0 for not rolled"
    )]
    Dice { first: u8, second: u8 },
    #[error("Match ID: cube owner code {0} (bits 5–6); 0 is O, 1 is X, 3 is centred")]
    CubeOwnerCode(u8),
    #[error("Match ID: game state {0} (bits 9–11); only 0–4 are defined")]
    GameStateCode(u8),
    #[error(
        "XGID: {found} fields; an XGID has 10 (board:cube:cube owner:turn:dice:X score:O score:rules:match length:max cube)"
    )]
    XgidFieldCount { found: usize },
    #[error("XGID field {index} ({field}) is '{value}': {expected}")]
    XgidField {
        index: usize,
        field: &'static str,
        value: String,
        expected: &'static str,
    },
    #[error("XGID board character {position} '{ch}': {reason}")]
    XgidBoard {
        position: usize,
        ch: char,
        reason: &'static str,
    },
    #[error("not an ID: {0}")]
    Unrecognized(String),
}
