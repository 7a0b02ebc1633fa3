//! The editor's whole state. Only `reducer::update` makes a new one.

use super::analysis::state::AnalysisState;
use super::library::state::{LibMode, LibState};
use super::messages::MessageLog;
use super::numbers::state::NumbersState;
use super::panels::PanelToggles;
use super::prompt::state::Prompt;
use bgedit_core::domain::{Place, Player, Position};

/// How many edits undo remembers.
pub const HISTORY_LIMIT: usize = 1000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    Normal,
    Help,
    Prompt(Prompt),
    /// The message log overlay (`H`): past messages and every warning.
    Messages,
    /// The copy menu (`F`) is open.
    CopyMenu,
    /// The library panel, review or note editor has the keys.
    Library(LibMode),
    /// The match panel has the keys.
    Review,
    /// The statistics view of the open match is open.
    Statistics,
    /// The match list (`^L`, `M` in the library panel) is open.
    Matches,
}

// The status line's message is the message log's kind of entry.
pub use super::messages::{Status, Tone};

/// How much memory undo and redo may hold together, in bytes of positions
/// (names included). Older steps go first; the last step is always kept.
pub const HISTORY_BYTES: usize = 16 << 20;

/// What a remembered position costs: its fields and its names' text.
pub fn position_bytes(p: &Position) -> usize {
    std::mem::size_of::<Position>() + p.names.o.capacity() + p.names.x.capacity()
}

/// Positions before (undo) and after (redo) the current one, each with a
/// short description of the edit that left it, for "undid: ..." messages;
/// bounded by [`HISTORY_LIMIT`] steps and [`HISTORY_BYTES`] of memory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct History {
    pub undo: Vec<Position>,
    pub redo: Vec<Position>,
    /// What each edit did, in step with `undo` and `redo`.
    pub undo_what: Vec<String>,
    pub redo_what: Vec<String>,
    /// The bytes of every position in `undo` and `redo`.
    bytes: usize,
}

impl History {
    /// Remembers `previous` before the edit `what`; a new edit forgets what
    /// was undone.
    pub(crate) fn record(&mut self, previous: Position, what: &str) {
        for p in self.redo.drain(..) {
            self.bytes -= position_bytes(&p);
        }
        self.redo_what.clear();
        self.bytes += position_bytes(&previous);
        self.undo.push(previous);
        self.undo_what.push(what.to_owned());
        while self.undo.len() > 1 && (self.undo.len() > HISTORY_LIMIT || self.bytes > HISTORY_BYTES)
        {
            let oldest = self.undo.remove(0);
            self.undo_what.remove(0);
            self.bytes -= position_bytes(&oldest);
        }
    }

    /// Forgets the last edit without keeping it for redo: a click that
    /// turned out to start a drag.
    pub(crate) fn forget_last(&mut self) {
        if let Some(p) = self.undo.pop() {
            self.undo_what.pop();
            self.bytes -= position_bytes(&p);
        }
    }

    /// The position before `current` and what the edit undone did, keeping
    /// `current` for redo.
    pub(crate) fn back(&mut self, current: Position) -> Option<(Position, String)> {
        let previous = self.undo.pop()?;
        let what = self.undo_what.pop().unwrap_or_default();
        self.bytes = self.bytes - position_bytes(&previous) + position_bytes(&current);
        self.redo.push(current);
        self.redo_what.push(what.clone());
        Some((previous, what))
    }

    /// The position undone last and what its edit did, keeping `current`
    /// for undo.
    pub(crate) fn forward(&mut self, current: Position) -> Option<(Position, String)> {
        let next = self.redo.pop()?;
        let what = self.redo_what.pop().unwrap_or_default();
        self.bytes = self.bytes - position_bytes(&next) + position_bytes(&current);
        self.undo.push(current);
        self.undo_what.push(what.clone());
        Some((next, what))
    }

    /// The memory the history holds, as [`position_bytes`] counts it.
    pub fn bytes(&self) -> usize {
        self.bytes
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
    /// The help overlay's page (small screens show the keys in pages).
    pub help_page: u16,
    /// The mode the help was opened from, which closing it returns to
    /// (the library's list, the match panel), so `?` costs no place.
    pub before_help: Mode,
    /// Every status message so far, for the message log.
    pub log: MessageLog,
    /// The terminal is below 80×24: the screen asks to be enlarged and
    /// edits are ignored (the runtime reports the size).
    pub too_small: bool,
    /// The Jacoby bit of the match came from a Match ID the user gave (so a
    /// match XGID, which cannot hold it, loses something of theirs).
    pub jacoby_from_match_id: bool,
    /// gnubg's analysis of the position, and the panel's own state.
    pub analysis: AnalysisState,
    /// The panels the user turned on.
    pub panels: PanelToggles,
    /// Moves being played: the checker held, steps dropped so far.
    pub play: super::play::state::PlayState,
    /// The numbers panel: the table in use, its scroll, the last
    /// evaluation.
    pub numbers: NumbersState,
    /// The study library's panel (one page of rows, never the library).
    pub library: LibState,
    /// The last position read from a pasted ID (clipboard, bracketed or
    /// burst paste, an ID typed into the input line). The position on the
    /// board came from a paste while it is this one: any edit makes it typed,
    /// undoing back to it makes it pasted again.
    pub pasted: Option<Position>,
    /// The score matrix (`V`), shown in the analysis panel's place.
    pub matrix: super::analysis::state::MatrixState,
    /// The match being reviewed, if one is open.
    pub review: super::match_review::state::ReviewState,
    /// The statistics view's scroll (open when the mode says so).
    pub statistics: super::statistics::state::StatisticsState,
    /// The match list (open when the mode says so).
    pub matches: super::match_list::state::MatchListState,
    /// The side the board's points are counted for (`--view`, `f` in the
    /// match panel); `None`: the player on roll's, as gnubg prints it.
    pub view_from: Option<Player>,
    /// The live views (`~`), shown in the analysis panel's place.
    pub sensitivity: super::sensitivity::state::SensitivityState,
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
            help_page: 0,
            before_help: Mode::Normal,
            too_small: false,
            jacoby_from_match_id: false,
            analysis: AnalysisState::default(),
            panels: PanelToggles::default(),
            play: super::play::state::PlayState::default(),
            numbers: NumbersState::default(),
            library: LibState::default(),
            pasted: None,
            matrix: Default::default(),
            review: Default::default(),
            statistics: Default::default(),
            matches: Default::default(),
            view_from: None,
            sensitivity: Default::default(),
        }
    }
}

impl Default for Model {
    fn default() -> Self {
        Model::new(Position::default(), Status::info("Press ? for help"))
    }
}
