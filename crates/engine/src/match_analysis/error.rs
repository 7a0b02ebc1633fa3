//! Why a match's decision, or a quiz answer, could not be judged, and why
//! a match's luck could not be rated: each case named, its words the ones
//! the user reads (`Failed::why`, the CLI's `no luck analysis:`).

use crate::EngineError;
use crate::gnubg_match::CopyError;

/// Why a decision (or a game of them, or a quiz answer) was not judged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JudgeError {
    /// The engine failed (in its own words).
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The engine answered another question than the one asked.
    #[error("the engine gave {what} ({why})")]
    Unexpected { what: &'static str, why: String },
    #[error("the move played ({0}) is not among gnubg's legal moves")]
    NotLegal(String),
    /// A score past the match equity table's reach.
    #[error(transparent)]
    TooFarAway(#[from] crate::scale::TooFarAway),
    #[error("the beaver's double is not in the file")]
    NoBeaverDouble,
    #[error("the double taken is not in the file")]
    NoDoubleTaken,
    // Where gnubg's records of a game part from the file's decisions: the
    // game is then judged decision by decision.
    #[error("gnubg's analysis has no cube decision here")]
    NoCubeRecord,
    #[error("gnubg has no record of this move")]
    NoRecord,
    #[error("gnubg's game ends before move {0}")]
    GameEndsBefore(usize),
    #[error("gnubg's record of move {number} is not the file's ({action} {played})")]
    NotTheFiles {
        number: usize,
        action: String,
        played: String,
    },
    #[error("gnubg's game goes on after the file's")]
    GoesOn,
    /// A move given where the position asks another question.
    #[error("{answer:?} is a move, but {asked}")]
    MoveNotAsked { answer: String, asked: Question },
    /// An answer of another kind than the position's question.
    #[error("{0}")]
    NotAsked(Question),
    /// A move that cannot be read.
    #[error("the move {answer:?}: {why}")]
    UnreadableMove {
        answer: String,
        why: bgedit_core::domain::notation::MoveError,
    },
    /// A move the dice do not allow: the rule it breaks.
    #[error("the move {answer:?}: {why}")]
    IllegalMove {
        answer: String,
        why: bgedit_core::domain::moves::MoveRuleError,
    },
    #[error("a beaver is allowed only in money play with beavers on")]
    NoBeaverHere,
    #[error("gnubg judged nothing")]
    NothingJudged,
    #[error("a beaver's take is not a quiz question")]
    BeaverTakeAsked,
}

/// The question a quiz position asks, said when an answer is to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Question {
    #[error("a double is offered: take, pass (or beaver)")]
    TakeOrPass,
    #[error("the dice are rolled: the answer is a move")]
    Move,
    #[error("no dice: the answer is double or no double")]
    Double,
}

/// Why a match's luck was not rated.
#[derive(Debug, thiserror::Error)]
pub enum NoLuck {
    /// Sage, or positions without their match.
    #[error("the luck of the dice is gnubg's analysis of a match")]
    NotAMatch,
    /// The match could not be written for gnubg to read.
    #[error(transparent)]
    Copy(CopyError),
    /// The match read is not the one the decisions come from.
    #[error("the match is not the decisions'")]
    NotTheDecisions,
    #[error("game {0}: {1}")]
    Game(usize, JudgeError),
}
