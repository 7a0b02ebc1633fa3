//! The editor's whole state. Only `reducer::update` makes a new one.

use super::library::{LibMode, LibState};
use super::prompt::Prompt;
use crate::domain::{Place, Player, Position};

/// How many edits undo remembers.
pub const HISTORY_LIMIT: usize = 1000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    Normal,
    Help,
    Prompt(Prompt),
    /// The library panel, review or note editor has the keys.
    Library(LibMode),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Info,
    Success,
    Error,
}

/// The message of the last action, shown on the status line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    pub text: String,
    pub tone: Tone,
}

impl Status {
    pub fn info(text: impl Into<String>) -> Status {
        Status {
            text: text.into(),
            tone: Tone::Info,
        }
    }
    pub fn success(text: impl Into<String>) -> Status {
        Status {
            text: text.into(),
            tone: Tone::Success,
        }
    }
    pub fn error(text: impl Into<String>) -> Status {
        Status {
            text: text.into(),
            tone: Tone::Error,
        }
    }
}

/// Positions before (undo) and after (redo) the current one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct History {
    pub undo: Vec<Position>,
    pub redo: Vec<Position>,
}

impl History {
    /// Remembers `previous` before an edit; a new edit forgets what was undone.
    pub fn record(&mut self, previous: Position) {
        if self.undo.len() == HISTORY_LIMIT {
            self.undo.remove(0);
        }
        self.undo.push(previous);
        self.redo.clear();
    }

    /// The position before `current`, keeping `current` for redo.
    pub fn back(&mut self, current: Position) -> Option<Position> {
        let previous = self.undo.pop()?;
        self.redo.push(current);
        Some(previous)
    }

    /// The position undone last, keeping `current` for undo.
    pub fn forward(&mut self, current: Position) -> Option<Position> {
        let next = self.redo.pop()?;
        self.undo.push(current);
        Some(next)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Model {
    pub position: Position,
    pub cursor: Place,
    /// The colour of the last checker added: used by count keys and clicks
    /// on an empty place.
    pub brush: Player,
    pub mode: Mode,
    pub history: History,
    pub status: Status,
    pub quitting: bool,
    /// The study library's panel (one page of rows, never the library).
    pub library: LibState,
}

impl Model {
    pub fn new(position: Position, status: Status) -> Model {
        Model {
            position,
            cursor: Place::Point(6),
            brush: Player::X,
            mode: Mode::Normal,
            history: History::default(),
            status,
            quitting: false,
            library: LibState::default(),
        }
    }
}

impl Default for Model {
    fn default() -> Self {
        Model::new(Position::default(), Status::info("Press ? for help"))
    }
}
