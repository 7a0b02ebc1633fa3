//! What the library panel holds: a page of rows around the selection, the
//! filter, the text being asked for, the note being edited, the review.

use crate::prompt::state::Line;
use bgedit_core::domain::Position;
use bgedit_engine::match_analysis::{JudgeError, Judged, QuizAnswer};
use bgedit_library::filter::Query;
use bgedit_library::review::{QuizResult, Rating, Schedule};
use bgedit_library::store::LibraryFailure;
use bgedit_library::store::Order;
use bgedit_library::{Added, Counted, Entry, EntryEdit, NewEntry, Summary};
use ratatui_textarea::{Input, TextArea};

/// Rows fetched per page query: the panel holds at most this many.
pub const PAGE: u64 = 100;
/// Most entries one review session steps through.
pub(crate) const REVIEW_BATCH: u64 = 200;

/// The panel's modes (inside `Mode::Library`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LibMode {
    List,
    /// Typing the filter; results follow each key.
    Filter,
    Ask(Ask),
    /// The multi-line note editor.
    Note,
    Review,
}

/// A question on the input line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    AddTitle,
    AddTags,
    Tags,
    Collections,
    ConfirmDelete,
    ReviewCollection,
    /// The quiz's move, typed.
    QuizMove,
    /// Whose statistics across the library's matches (`P`).
    Player,
}

impl Ask {
    /// The question, saying which entry holds the position being added
    /// when one does.
    pub(crate) fn question(self, existing: Option<&(i64, String)>) -> String {
        match (self, existing) {
            (Ask::AddTitle, Some((id, _))) => {
                format!("Entry {id} holds this position, untitled: its title (Enter for none)")
            }
            (Ask::AddTags, Some((id, title))) if !title.is_empty() => format!(
                "Already in the library as entry {id} ({}): tags to add (Enter for none)",
                bgedit_core::quote::printable(title)
            ),
            _ => self.label().to_owned(),
        }
    }

    pub(crate) fn label(self) -> &'static str {
        match self {
            Ask::AddTitle => "Title (Enter for none)",
            Ask::AddTags => "Tags, space-separated (Enter for none)",
            Ask::Tags => "Tags, space-separated",
            Ask::Collections => "Collections, space-separated",
            Ask::ConfirmDelete => "Delete this entry? y to delete, anything else keeps it",
            Ask::ReviewCollection => "Quiz which collection (or filter)?",
            Ask::QuizMove => "Your move (13/7 8/7, 13-7 8-7; Tab completes)",
            Ask::Player => "Statistics across the library's matches of which player?",
        }
    }
}

/// What the quiz reads the clock for (`Effect::Now`): how long an answer
/// took is the time from the question shown to the entry revealed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuizClock {
    /// A question is shown (its stored analysis asked for).
    Shown,
    /// The entry is revealed (by an answer, or by the player).
    Revealed,
}

/// What a fetched entry is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    Load,
    Note,
    Tags,
    Collections,
    Reveal,
}

/// The note editor: ratatui-textarea's widget, compared by its text and
/// cursor so the model stays comparable.
#[derive(Clone, Debug)]
pub struct NoteEditor(pub TextArea<'static>);

impl PartialEq for NoteEditor {
    fn eq(&self, other: &Self) -> bool {
        self.0.lines() == other.0.lines() && self.0.cursor() == other.0.cursor()
    }
}

impl Eq for NoteEditor {}

impl NoteEditor {
    pub(crate) fn new(text: &str) -> NoteEditor {
        NoteEditor(TextArea::new(text.lines().map(str::to_owned).collect()))
    }

    pub fn text(&self) -> String {
        self.0.lines().join("\n")
    }
}

/// One review session: the due entries of a collection, one at a time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Review {
    pub collection: String,
    pub queue: Vec<Summary>,
    pub index: usize,
    /// The note and analysis, once revealed.
    pub revealed: Option<Box<Entry>>,
    pub known: u32,
    pub unknown: u32,
    /// The answer given to the current entry's question, in gnubg's words
    /// once graded.
    pub answer: Option<QuizAnswer>,
    /// gnubg's grade of it: `None` while gnubg works (or before an answer).
    pub grade: Option<Result<Box<Judged>, JudgeError>>,
    /// Answers to older questions are dropped.
    pub serial: u64,
    /// gnubg's analysis a former quiz of the current entry was graded by
    /// (its JSON): the answer is graded from it at once.
    pub stored: Option<String>,
    /// How long the answer took, in milliseconds.
    pub answer_ms: Option<u64>,
    /// The runtime's clock (milliseconds) when the question was shown;
    /// taken by the first reveal after it.
    pub shown_at: Option<u64>,
    /// Having doubled, what the player says the opponent should do.
    pub response: Option<QuizAnswer>,
    /// The engine grading the current answer: the analysis panel's lead
    /// engine as the answer is given.
    pub grader: bgedit_engine::EngineKind,
}

impl Review {
    /// The current question's position, if any is left.
    pub(crate) fn question(&self) -> Option<&bgedit_core::domain::Position> {
        self.queue.get(self.index).map(|s| &s.position)
    }

    /// Having doubled, the player is still to say what the opponent should
    /// do.
    pub(crate) fn awaiting_response(&self) -> bool {
        self.answer == Some(QuizAnswer::Double) && self.response.is_none()
    }

    /// The current question still waits for an answer (or, after a double,
    /// for the opponent's): nothing may give it away.
    pub(crate) fn unanswered(&self) -> bool {
        self.question().is_some() && (self.answer.is_none() || self.awaiting_response())
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LibState {
    pub open: bool,
    /// The library was opened from the match panel: `Esc` gives the keys
    /// back to it, not to the board.
    pub from_review: bool,
    /// The filter being typed (`/`), on `prompt::Line`.
    pub filter: Line,
    pub filter_error: Option<String>,
    pub query: Query,
    /// The list's order (`o` cycles it): newest first, or the worst
    /// mistake first.
    pub order: Order,
    /// Matching entries, counted as far as the list can scroll before it
    /// asks again (the page and a thousand more); more than that when not
    /// `total_exact`.
    pub total: u64,
    pub total_exact: bool,
    /// Index (among the matches) of `rows[0]`.
    pub offset: u64,
    pub rows: Vec<Summary>,
    /// Index of the highlighted entry among the matches.
    pub selected: u64,
    /// Answers to older page queries are dropped.
    pub serial: u64,
    pub loading: bool,
    /// The entry the editor's position was loaded from (for saving back).
    pub loaded: Option<i64>,
    /// The input line while asking (`prompt::Line`, as the board's).
    pub input: Line,
    pub pending_title: String,
    /// The entry already holding the position being added (`+`), with its
    /// title: the questions say so, and a titled entry is not asked again.
    pub existing: Option<(i64, String)>,
    /// The entry being edited (note, tags, collections, deletion).
    pub editing: Option<i64>,
    pub note: Option<NoteEditor>,
    /// The last entry deleted, for undo.
    pub deleted: Option<Box<Entry>>,
    pub review: Option<Review>,
    /// The quiz's statistics on show in the panel: lines, and the weekly
    /// mean error (mEMG) for the trend.
    pub stats: Option<(Vec<String>, Vec<u64>)>,
    /// Where Tab stands in the quiz's move line (as the board's has it).
    pub completion: Option<(String, usize)>,
    /// The quiz's question while it is played on the board: the move that
    /// reaches a legal result from it is the answer.
    pub quiz_board: Option<Position>,
    /// gnubg's depth for the quiz's grades (`bgedit quiz --plies`; 0 else).
    pub quiz_plies: u8,
    /// The quiz `bgedit quiz QUERY` starts once the editor is up.
    pub pending_quiz: Option<String>,
    /// Why the library cannot be listed (a damaged, foreign or unreadable
    /// file): the panel shows it instead of an empty list.
    pub problem: Option<LibraryFailure>,
    /// The positions like one (`Q`), shown in the list's place until `Esc`.
    pub likes: Option<LikeList>,
}

/// The entries nearest a position (`library like`), nearest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LikeList {
    /// What they are like, as the header says it: `entry 12`, `the board`.
    pub of: String,
    /// Each entry with its distance in checker-pips.
    pub rows: Vec<(u32, Summary)>,
    pub selected: usize,
}

/// How many positions like one the panel lists.
pub const LIKE_COUNT: usize = 20;

impl LibState {
    /// Whether the panel is on screen (a review shows in it too).
    pub fn visible(&self) -> bool {
        self.open || self.review.is_some()
    }

    /// The highlighted row, if its page is loaded.
    pub fn selected_row(&self) -> Option<&Summary> {
        let i = self.selected.checked_sub(self.offset)?;
        self.rows.get(usize::try_from(i).ok()?)
    }

    /// The position the board shows instead of the editor's while the panel
    /// has the keys (see `snapshot::focused`): the review's or the highlighted
    /// entry's.
    pub fn preview(&self) -> Option<&Position> {
        if let Some(r) = &self.review {
            return r.queue.get(r.index).map(|s| &s.position);
        }
        if let Some(l) = self.likes.as_ref().filter(|_| self.open) {
            return l.rows.get(l.selected).map(|(_, s)| &s.position);
        }
        if self.open {
            return self.selected_row().map(|s| &s.position);
        }
        None
    }
}

/// The list's order as the header and the status say it.
pub(crate) fn order_words(order: Order) -> &'static str {
    match order {
        Order::Newest => "newest first",
        Order::Error => "worst mistake first",
    }
}

/// What the runtime asks the library worker to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    Add(Box<NewEntry>),
    /// Several entries at once (a match's mistakes, `*`), in one
    /// transaction, answered with one count.
    AddMany {
        entries: Vec<NewEntry>,
        collection: String,
    },
    Page {
        serial: u64,
        query: Query,
        order: Order,
        offset: u64,
        limit: u64,
    },
    Get {
        id: i64,
        purpose: Purpose,
    },
    Update {
        id: i64,
        edit: EntryEdit,
        what: &'static str,
    },
    Delete(i64),
    Restore(Box<Entry>),
    /// Store `analysis` with the entry holding `position`, if there is one
    /// (a finished rollout).
    KeepAnalysis {
        position: Box<bgedit_core::domain::Position>,
        analysis: Box<bgedit_library::Analysis>,
    },
    Due {
        collection: String,
        now: Option<i64>,
    },
    Review {
        id: i64,
        rating: Rating,
        /// The quiz's answer, kept for the statistics.
        result: QuizResult,
    },
    /// Which entry, if any, holds `position` already (asked by `+` before
    /// the title).
    Lookup(Box<Position>),
    /// gnubg's analysis a former quiz of entry `id` was graded by.
    QuizAnalysis(i64),
    /// The quiz's statistics, overall and per collection, as text.
    QuizStats,
    /// A player's statistics across the library's matches, as
    /// `bgedit stats --player` computes them.
    PlayerStats(String),
    /// A player's decisions by a theme, as `bgedit stats --player --by`
    /// computes them.
    PlayerThemes {
        player: String,
        by: bgedit_library::theme_stats::By,
    },
    /// Keeps gnubg's analysis a quiz of entry `id` was graded by (JSON).
    KeepQuizAnalysis {
        id: i64,
        json: String,
    },
    /// The match list, filtered and sorted (answered as
    /// `MatchListAction::Listed`).
    Matches {
        filter: String,
        sort: bgedit_library::listing::SortBy,
    },
    /// A stored match with the verdicts the library holds on it, for the
    /// match panel (answered as `ReviewAction::OpenedStored`).
    OpenStored(i64),
    /// The library's match for the file the match panel opened (found by
    /// its content, or imported now), with its kept verdicts (answered as
    /// `ReviewAction::Attached`).
    Attach {
        serial: u64,
        path: String,
    },
    /// Keep the editor's verdicts on match `match_id`'s decisions (by
    /// their place in the match); answered as `ReviewAction::Kept`.
    KeepVerdicts {
        match_id: i64,
        verdicts: Vec<(usize, bgedit_library::store::Verdict)>,
    },
    /// The match's entries follow its deepest verdicts (after the
    /// editor's analysis ended); answered as `ReviewAction::Kept`.
    RefreshMistakes {
        match_id: i64,
    },
    /// The entries nearest `position` (`Q`); `of` names it for the header.
    Like {
        position: Box<Position>,
        of: String,
    },
}

/// Everything that happens in the panel, by the route it takes: each
/// group has its own `update` (in the file named beside it), which matches
/// every variant of its own, so an action sent to the wrong one does not
/// compile. A player's statistics (`P`) come back from the worker as
/// `StatisticsAction::Player`: the statistics view shows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LibAction {
    /// The list and the panel's keys around it (`list.rs`).
    List(ListAction),
    /// The input line of the filter and the questions (`line.rs`).
    Line(LineAction),
    /// The note editor (`notes.rs`).
    Note(NoteAction),
    /// The quiz: its keys, its clock and the engine's grades (`quiz.rs`).
    Quiz(QuizAction),
    /// The worker's answers to the panel's requests (`answers.rs`).
    Worker(WorkerAnswer),
}

/// The list's keys, and the panel's commands that start from it (or from
/// the board: `+`, `L`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListAction {
    /// `+` on the board: adds the editor's position (the library is asked
    /// first whether it holds it).
    StartAdd,
    /// Shows the panel (in its slot beside the board) and gives it the keys.
    Open,
    /// Gives the keys back to the board; the panel stays on screen.
    Leave,
    /// Takes the panel off the screen.
    Close,
    Move(i64),
    PageUp,
    PageDown,
    Load,
    StartFilter,
    /// `o`: the next order of the list (newest first, worst first).
    CycleOrder,
    /// `P`: asks whose statistics across the library's matches to show
    /// (the highlighted decision's player offered).
    AskPlayer,
    /// `M`: the match list (the reducer hands it to the match list).
    Matches,
    EditNote,
    EditTags,
    EditCollections,
    AskDelete,
    UndoDelete,
    SaveBack,
    /// `r`: asks which collection (or filter) to quiz.
    StartReview,
    /// `Q` in the panel: the entries like the highlighted one.
    LikeSelected,
    /// `Q` on the board: the entries like the board's position, the panel
    /// opened on them.
    LikeBoard,
}

/// The input line of the filter and the questions (`prompt::Line`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineAction {
    Char(char),
    Paste(String),
    Backspace,
    Clear,
    Submit,
    Cancel,
}

/// The note editor (ratatui-textarea's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoteAction {
    Key(Input),
    Paste(String),
    /// Esc: the note saved.
    Done,
}

/// The quiz: its keys, what the runtime's clock and the grading engine
/// report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuizAction {
    /// Starts a quiz on a collection or a filter (`bgedit quiz QUERY`).
    Start(String),
    Reveal,
    Mark(bool),
    /// An answer to the current entry's question.
    Answer(QuizAnswer),
    /// Asks the move on the input line.
    AskMove,
    /// Puts the question on the board to play the answer there (pick up
    /// and drop, or the board's move line); `L` comes back.
    PlayOnBoard,
    /// Tab on the quiz's move line: the next legal move that matches.
    Complete,
    /// How long the current answer took, in milliseconds, from the
    /// question shown to the answer (the two readings of `Clock`).
    AnswerTime(u64),
    /// The runtime's clock, in milliseconds, read for `Effect::Now`.
    Clock(QuizClock, u64),
    /// The engine's grade of the answer with this serial.
    Graded {
        serial: u64,
        result: Result<Box<Judged>, JudgeError>,
    },
    /// The next question, the current one rated by its grade.
    Next,
    /// Shows the quiz's statistics in the panel, or hides them.
    ToggleStats,
}

/// The worker's answers, one for each [`Request`] but `PlayerStats`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WorkerAnswer {
    /// The entry holding the position `+` adds, with its title, if any.
    LookedUp {
        position: Box<Position>,
        result: Result<Option<(i64, String)>, LibraryFailure>,
    },
    Added(Result<Added, LibraryFailure>),
    /// Entries added at once: how many were new and how many were there
    /// already, in `collection`.
    AddedMany {
        collection: String,
        result: Result<(usize, usize), LibraryFailure>,
    },
    Paged {
        serial: u64,
        result: Result<(Counted, u64, Vec<Summary>), LibraryFailure>,
    },
    Got {
        purpose: Purpose,
        result: Result<Box<Entry>, LibraryFailure>,
    },
    Updated(Result<String, LibraryFailure>),
    /// A rollout stored with the entry of its position (its id), or not
    /// (no entry holds the position).
    AnalysisKept(Result<Option<i64>, LibraryFailure>),
    Deleted(Result<Box<Entry>, LibraryFailure>),
    Restored(Result<i64, LibraryFailure>),
    /// The entries due in a collection: the quiz's questions.
    DueList(Result<(String, Vec<Summary>), LibraryFailure>),
    Reviewed(Result<Schedule, LibraryFailure>),
    /// The analysis kept with entry `id` for the quiz, if any.
    StoredAnalysis {
        id: i64,
        result: Result<Option<String>, LibraryFailure>,
    },
    QuizAnalysisKept(Result<(), LibraryFailure>),
    /// The quiz's statistics' lines, and every answer's weekly mean error
    /// (mEMG) for the trend.
    Stats(Result<(Vec<String>, Vec<u64>), LibraryFailure>),
    /// The entries like a position, with their distances, nearest first.
    Liked {
        of: String,
        result: Result<Vec<(u32, Summary)>, LibraryFailure>,
    },
}

macro_rules! nested {
    ($($group:ident($action:ty)),*) => {$(
        impl From<$action> for LibAction {
            fn from(action: $action) -> LibAction {
                LibAction::$group(action)
            }
        }
    )*};
}

nested!(
    List(ListAction),
    Line(LineAction),
    Note(NoteAction),
    Quiz(QuizAction),
    Worker(WorkerAnswer)
);
