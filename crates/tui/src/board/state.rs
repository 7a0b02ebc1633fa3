//! The board's actions as data: moving the cursor, adding and removing
//! checkers, the whole board, the match fields, and the mouse on the board.
//! Pure data the action holds (`board::update` does them).

use bgedit_core::domain::{Place, Player};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Left,
    Right,
    Up,
    Down,
}

/// Editing the board and the match fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardAction {
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
    /// Sets the Crawford flag (the answer to the 1-away question).
    SetCrawford(bool),
    ToggleJacoby,
    ToggleBeavers,
    SetName(Player, String),
    NextResignation,
    NextGameState,

    // Mouse
    /// Selects a place; on the place already selected, adds a checker.
    Click(Place),
    /// Selects a place and adds a checker there (modifier-click, scroll up).
    AddAt(Place),
    RightClick(Place),
    Scroll(Place, i8),
}
