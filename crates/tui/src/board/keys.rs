//! The board's keys: the cursor, checkers, the whole board, cube, dice and
//! match, as rows of the normal mode's bindings.

use crate::action::{Action, BoardAction, Direction};
use crate::bindings::{
    KeyPattern::{Char, Code, Digit},
    NormalBinding as Binding, Section,
};
use crate::prompt::state::PromptKind;
use bgedit_core::domain::Player;
use ratatui::crossterm::event::{KeyCode, KeyEvent};

fn direction(key: &KeyEvent) -> Action {
    Action::Board(BoardAction::Move(match key.code {
        KeyCode::Left | KeyCode::Char('h') => Direction::Left,
        KeyCode::Right | KeyCode::Char('l') => Direction::Right,
        KeyCode::Up | KeyCode::Char('k') => Direction::Up,
        _ => Direction::Down,
    }))
}

fn digit(key: &KeyEvent) -> Action {
    match key.code {
        KeyCode::Char(c) => Action::Board(BoardAction::SetCount(
            None,
            c.to_digit(10).unwrap_or(0) as u8,
        )),
        _ => Action::Board(BoardAction::SetCount(None, 0)),
    }
}

pub(crate) static BINDINGS: &[Binding] = &[
    Binding {
        keys: &[
            Code(KeyCode::Left),
            Code(KeyCode::Right),
            Code(KeyCode::Up),
            Code(KeyCode::Down),
            Char('h'),
            Char('l'),
            Char('k'),
            Char('j'),
        ],
        label: "←→↑↓ hljk",
        help: "move (↑↓ switch rows)",
        section: Section::Cursor,
        hint: None,
        action: direction,
    },
    Binding {
        keys: &[Char('g')],
        label: "g",
        help: "go to point (25 bar, 0 off)",
        section: Section::Cursor,
        hint: None,
        action: |_| Action::OpenPrompt(PromptKind::GoTo),
    },
    Binding {
        keys: &[Char('x'), Char('o')],
        label: "x o",
        help: "add an X / O (from its tray)",
        section: Section::Checkers,
        hint: Some(("x o", "add")),
        action: |k| {
            Action::Board(BoardAction::AddChecker(if k.code == KeyCode::Char('o') {
                Player::O
            } else {
                Player::X
            }))
        },
    },
    Binding {
        keys: &[Char('-'), Code(KeyCode::Backspace)],
        label: "- ⌫",
        help: "remove one (to its tray)",
        section: Section::Checkers,
        hint: Some(("-", "remove")),
        action: |_| Action::Board(BoardAction::RemoveChecker),
    },
    Binding {
        keys: &[Code(KeyCode::Delete), Char('0')],
        label: "Del 0",
        help: "clear the place (a tray too)",
        section: Section::Checkers,
        hint: None,
        action: |_| Action::Board(BoardAction::ClearPlace),
    },
    Binding {
        keys: &[Digit],
        label: "1–9",
        help: "set the count (a tray: how many off)",
        section: Section::Checkers,
        hint: None,
        action: digit,
    },
    Binding {
        keys: &[Char('=')],
        label: "=",
        help: "type a count: x12, o3",
        section: Section::Checkers,
        hint: None,
        action: |_| Action::OpenPrompt(PromptKind::Count),
    },
    Binding {
        keys: &[Char('S')],
        label: "S",
        help: "starting position",
        section: Section::Board,
        hint: None,
        action: |_| Action::Board(BoardAction::StartingPosition),
    },
    Binding {
        keys: &[Char('E')],
        label: "E",
        help: "empty board (all off)",
        section: Section::Board,
        hint: None,
        action: |_| Action::Board(BoardAction::EmptyBoard),
    },
    Binding {
        keys: &[Char('W')],
        label: "W",
        help: "swap players (mirror all)",
        section: Section::Board,
        hint: None,
        action: |_| Action::Board(BoardAction::SwapPlayers),
    },
    Binding {
        keys: &[Char('t')],
        label: "t",
        help: "switch player on roll",
        section: Section::Board,
        hint: None,
        action: |_| Action::Board(BoardAction::SwitchOnRoll),
    },
    Binding {
        keys: &[Char('c'), Char('C')],
        label: "c C",
        help: "cube value up / down",
        section: Section::Match,
        hint: None,
        action: |k| {
            if k.code == KeyCode::Char('C') {
                Action::Board(BoardAction::CubeDown)
            } else {
                Action::Board(BoardAction::CubeUp)
            }
        },
    },
    Binding {
        keys: &[Char('n')],
        label: "n",
        help: "cube owner: centred/O/X",
        section: Section::Match,
        hint: None,
        action: |_| Action::Board(BoardAction::NextCubeOwner),
    },
    Binding {
        keys: &[Char('f')],
        label: "f",
        help: "double offered on/off",
        section: Section::Match,
        hint: None,
        action: |_| Action::Board(BoardAction::ToggleDoubleOffered),
    },
    Binding {
        keys: &[Char('d')],
        label: "d",
        help: "dice (e.g. 52)",
        section: Section::Match,
        hint: None,
        action: |_| Action::OpenPrompt(PromptKind::Dice),
    },
    Binding {
        keys: &[Char('D')],
        label: "D",
        help: "clear the dice",
        section: Section::Match,
        hint: None,
        action: |_| Action::Board(BoardAction::SetDice(None)),
    },
    Binding {
        keys: &[Char('m')],
        label: "m",
        help: "match length (0 = money)",
        section: Section::Match,
        hint: None,
        action: |_| Action::OpenPrompt(PromptKind::MatchLength),
    },
    Binding {
        keys: &[Char('s')],
        label: "s",
        help: "score: 2-4, -3 -5, x5",
        section: Section::Match,
        hint: None,
        action: |_| Action::OpenPrompt(PromptKind::Score),
    },
    Binding {
        keys: &[Char('K')],
        label: "K",
        help: "Crawford game on/off",
        section: Section::Match,
        hint: None,
        action: |_| Action::Board(BoardAction::ToggleCrawford),
    },
    Binding {
        keys: &[Char('J')],
        label: "J",
        help: "Jacoby rule on/off",
        section: Section::Match,
        hint: None,
        action: |_| Action::Board(BoardAction::ToggleJacoby),
    },
    Binding {
        keys: &[Char('B')],
        label: "B",
        help: "beavers on/off",
        section: Section::Match,
        hint: None,
        action: |_| Action::Board(BoardAction::ToggleBeavers),
    },
    Binding {
        keys: &[Char('N')],
        label: "N",
        help: "player names",
        section: Section::Match,
        hint: None,
        action: |_| Action::OpenPrompt(PromptKind::Name(Player::O)),
    },
    Binding {
        keys: &[Char('R')],
        label: "R",
        help: "resignation offered",
        section: Section::Match,
        hint: None,
        action: |_| Action::Board(BoardAction::NextResignation),
    },
    Binding {
        keys: &[Char('G')],
        label: "G",
        help: "game state",
        section: Section::Match,
        hint: None,
        action: |_| Action::Board(BoardAction::NextGameState),
    },
];
