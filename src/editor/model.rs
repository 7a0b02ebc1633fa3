//! The editor's whole state. Only `reducer::update` makes a new one.

use super::messages::MessageLog;
use super::prompt::Prompt;
use crate::domain::{Place, Player, Position};

/// How many edits undo remembers.
pub const HISTORY_LIMIT: usize = 1000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    Normal,
    Help,
    Prompt(Prompt),
    /// The message log overlay (`H`): past messages and every warning.
    Messages,
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

/// Positions before (undo) and after (redo) the current one, each with a
/// short description of the edit that left it, for "undid: ..." messages.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct History {
    pub undo: Vec<Position>,
    pub redo: Vec<Position>,
    /// What each edit did, in step with `undo` and `redo`.
    pub undo_what: Vec<String>,
    pub redo_what: Vec<String>,
}

impl History {
    /// Remembers `previous` before the edit `what`; a new edit forgets what
    /// was undone.
    pub fn record(&mut self, previous: Position, what: &str) {
        if self.undo.len() == HISTORY_LIMIT {
            self.undo.remove(0);
            self.undo_what.remove(0);
        }
        self.undo.push(previous);
        self.undo_what.push(what.to_owned());
        self.redo.clear();
        self.redo_what.clear();
    }

    /// The position before `current` and what the edit undone did, keeping
    /// `current` for redo.
    pub fn back(&mut self, current: Position) -> Option<(Position, String)> {
        let previous = self.undo.pop()?;
        let what = self.undo_what.pop().unwrap_or_default();
        self.redo.push(current);
        self.redo_what.push(what.clone());
        Some((previous, what))
    }

    /// The position undone last and what its edit did, keeping `current`
    /// for undo.
    pub fn forward(&mut self, current: Position) -> Option<(Position, String)> {
        let next = self.redo.pop()?;
        let what = self.redo_what.pop().unwrap_or_default();
        self.undo.push(current);
        self.undo_what.push(what.clone());
        Some((next, what))
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
    /// Every status message so far, for the message log.
    pub log: MessageLog,
    /// The terminal is below 80×24: the screen asks to be enlarged and
    /// edits are ignored (the runtime reports the size).
    pub too_small: bool,
}

impl Model {
    pub fn new(position: Position, status: Status) -> Model {
        Model {
            position,
            cursor: Place::Point(6),
            brush: Player::X,
            mode: Mode::Normal,
            history: History::default(),
            log: {
                let mut log = MessageLog::default();
                log.push(&status);
                log
            },
            status,
            quitting: false,
            too_small: false,
        }
    }
}

impl Default for Model {
    fn default() -> Self {
        Model::new(Position::default(), Status::info("Press ? for help"))
    }
}
