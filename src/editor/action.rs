//! Everything that can happen to the editor, as data. Keys, mouse, pastes and
//! the results of effects all become one of these before anything changes.

use super::library::LibAction;
use super::prompt::PromptKind;
use crate::domain::{Place, Player};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Left,
    Right,
    Up,
    Down,
}

/// What a copy key copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyTarget {
    GnubgId,
    Xgid,
    /// gnubg's `show board` text, for forums.
    BoardText,
}

impl CopyTarget {
    pub fn name(self) -> &'static str {
        match self {
            CopyTarget::GnubgId => "GNUBG ID",
            CopyTarget::Xgid => "XGID",
            CopyTarget::BoardText => "board text",
        }
    }
}

/// Which way copied text went, as the runtime reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CopyRoute {
    /// The system clipboard (X11 or Wayland) through arboard.
    System,
    /// An OSC 52 escape sequence asking the terminal to set its clipboard:
    /// the way over SSH or without a display. Whether it arrived, only the
    /// terminal knows.
    Osc52,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    // Cursor
    Move(Direction),
    GoTo(Place),

    // Checkers at the cursor
    AddChecker(Player),
    RemoveChecker,
    ClearPlace,
    /// Sets the count at the cursor; `None` keeps the colour there (or the
    /// last colour added, on an empty place).
    SetCount(Option<Player>, u8),

    // Whole board
    StartingPosition,
    EmptyBoard,
    SwapPlayers,
    SwitchOnRoll,

    // Match fields
    CubeUp,
    CubeDown,
    NextCubeOwner,
    ToggleDoubleOffered,
    SetDice(Option<[u8; 2]>),
    SetMatchLength(u16),
    /// Both scores, O's then X's.
    SetScore([u16; 2]),
    /// One player's score.
    SetPlayerScore(Player, u16),
    ToggleCrawford,
    ToggleJacoby,
    ToggleBeavers,
    SetName(Player, String),
    NextResignation,
    NextGameState,

    // History
    Undo,
    Redo,

    // IDs in and out
    Copy(CopyTarget),
    Paste,
    /// Text to read as an ID (typed, pasted, or from the clipboard).
    Import(String),

    // The input line
    OpenPrompt(PromptKind),
    PromptChar(char),
    PromptPaste(String),
    PromptBackspace,
    PromptClear,
    PromptSubmit,
    PromptCancel,

    // Help
    ToggleHelp,

    // Mouse
    Click(Place),
    RightClick(Place),
    Scroll(Place, i8),

    // Results of effects, reported back by the runtime
    Copied(CopyTarget, Result<CopyRoute, String>),
    Pasted(Result<String, String>),
    /// The save file could not be written.
    SaveFailed(String),

    /// The study library: the panel's keys and the worker's answers.
    Library(LibAction),

    Quit,
}
