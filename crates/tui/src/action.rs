//! Everything that can happen to the editor, as data. Keys, mouse, pastes and
//! the results of effects all become one of these before anything changes.

pub use super::analysis::state::AnalysisAction;
pub use super::board::state::{BoardAction, Direction};
pub use super::copy_menu::state::{CopyAction, CopyRoute, CopyTarget, PictureSaved};
use super::library::state::LibAction;
use super::panels::Panel;
pub use super::prompt::state::PromptAction;
use super::prompt::state::PromptKind;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// The analysis panel's actions (keys, engines' answers, rollouts,
    /// the score matrix): `analysis::update` does them.
    Analysis(AnalysisAction),
    /// Editing the board and the match fields, by key or mouse
    /// (`board::update`).
    Board(BoardAction),

    // History
    Undo,
    Redo,

    // IDs in and out
    /// The copy keys and the copy menu, and what the runtime reports of
    /// them.
    Copy(CopyAction),
    Paste,
    /// Text to read as an ID (typed, pasted, or from the clipboard).
    Import(String),

    // The input line
    OpenPrompt(PromptKind),
    /// What is done to the open line: typing, editing, submitting,
    /// cancelling (`prompt::update`; a submitted line is applied by the
    /// reducer).
    Prompt(PromptAction),

    // Help
    ToggleHelp,
    /// The help's next (+1) or previous (-1) page, when it has more than
    /// one (small screens).
    HelpPage(i8),

    /// Numbers at the score: scrolling, loading a MET file, and what the
    /// runtime reports of it (`numbers::update`).
    Numbers(super::numbers::state::NumbersAction),

    /// The live views (`~`): on and off, the in-process engine loaded, the
    /// tables computed (`sensitivity::update`).
    Sensitivity(super::sensitivity::state::SensitivityAction),

    /// `A`: a panel on or off.
    TogglePanel(Panel),

    // Results of effects, reported back by the runtime
    /// What the clipboard held, or why it could not be read.
    Pasted(Result<String, super::copy_menu::state::ClipboardError>),
    /// The save file could not be written.
    SaveFailed(super::save_error::SaveError),
    /// Something the user should know about the save file (another editor
    /// changed it, a damaged one was moved aside).
    SaveNotice(String),
    /// The terminal's size, at start and on every resize.
    Resized {
        width: u16,
        height: u16,
    },
    /// A terminating signal (SIGTERM, SIGHUP, SIGINT from `kill`): save and
    /// leave as on quit.
    Terminated(i32),
    /// Work in the background (a job, a worker) stopped on an internal
    /// error (a panic) instead of answering.
    JobFailed(JobFailed),
    /// Show or hide the message log.
    ToggleMessages,

    /// Playing moves: the move line, pick up and drop, dice, pass.
    Play(super::play::state::PlayAction),

    /// The study library: the panel's keys and the worker's answers.
    Library(LibAction),

    /// The match being reviewed: its keys, the file read, gnubg's verdicts.
    Review(super::match_review::state::ReviewAction),

    /// The statistics view of the open match.
    Statistics(super::statistics::state::StatisticsAction),

    /// The match list.
    MatchList(super::match_list::state::MatchListAction),

    Quit,
}

/// Background work that stopped without its answer: a bug in bgedit, shown
/// rather than lost (`io::job` catches it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobFailed {
    /// What was being done, as the status line says it ("reading the MET
    /// file", "the library").
    pub what: String,
    /// The panic's words, after the thread's name.
    pub why: String,
}
