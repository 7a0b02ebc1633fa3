//! What the reducer asks the outside world to do. The runtime performs these
//! and reports results back as actions; the reducer itself does no I/O.

use super::action::CopyTarget;
use bgedit_core::domain::Position;
use bgedit_engine::Request;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Write the position to the save file.
    Save(Position),
    /// Put `text` on the clipboard.
    Copy { target: CopyTarget, text: String },
    /// Read the clipboard and send back `Action::Pasted`.
    ReadClipboard,
    /// Ask an engine; the answer comes back as
    /// `Action::Analysis(AnalysisAction::Answer)` naming it.
    Analyse(bgedit_engine::EngineKind, Request),
    /// Roll out with an engine; answers come back as
    /// `Action::Analysis(AnalysisAction::RolloutProgress)` and
    /// `Action::Analysis(AnalysisAction::RolloutAnswer)`.
    Rollout(
        bgedit_engine::EngineKind,
        Request,
        bgedit_engine::RolloutSettings,
    ),
    /// Stop the rollout running (after its chunk, or at once for an engine
    /// that cancels its rollouts itself).
    StopRollout,
    /// Ask the reference engine (one of its own, in the background) for each cell;
    /// answers come back as `Action::Analysis(AnalysisAction::MatrixCell)`. A newer one stops it.
    ScoreMatrix {
        serial: u64,
        cells: Vec<bgedit_core::domain::score_matrix::Cell>,
    },
    /// Remember the depth for deeper analyses in the config file.
    SaveAnalysisPlies(u8),
    /// Roll two random dice and send back `BoardAction::SetDice`.
    RollDice,
    /// Read a gnubg MET file and send back `NumbersAction::MetLoaded`.
    LoadMet(String),
    /// Draw the position as a PNG, save it, copy it as an image where the
    /// clipboard takes images, and send back `Action::PictureSaved`.
    SavePicture(Position),
    /// Leave: restore the terminal and print the final IDs.
    Quit,
    /// Ask the library worker; it answers with `LibAction::Worker` (a
    /// player's statistics with `StatisticsAction::Player`).
    Library(super::library::state::Request),
    /// Read the clock and send back `QuizAction::Clock` (the reducer has
    /// none: the quiz times its answers with it).
    Now(super::library::state::QuizClock),
    /// Have an engine grade a quiz answer; it answers with
    /// `QuizAction::Graded` carrying `serial`.
    GradeQuiz {
        serial: u64,
        position: Box<Position>,
        answer: bgedit_engine::match_analysis::QuizAnswer,
        plies: u8,
        /// The engine the analysis panel shows alone, else the reference.
        engine: bgedit_engine::EngineKind,
    },
    /// Read and replay a match file (on a thread); it answers with
    /// `ReviewAction::Opened`.
    OpenMatch(String),
    /// List the directory of a path being typed, for Tab; answers with
    /// `ReviewAction::Completed`.
    ListDirectory(String),
    /// Analyse every decision with engines of its own, in the
    /// background; each verdict comes back as `ReviewAction::Judged`, the
    /// end as `ReviewAction::AnalysisEnded`. A newer one stops it.
    /// Write the match file `source` with these verdicts and luck as
    /// gnubg's SGF to `out` (whole, never over `source`); answered with
    /// `ReviewAction::SgfSaved`.
    SaveSgf {
        source: String,
        /// The text of a pasted match, saved from instead of `source`.
        pasted: Option<std::sync::Arc<str>>,
        out: String,
        judged: Vec<bgedit_engine::match_analysis::Judged>,
        luck: Option<crate::match_review::state::MatchLuckOf>,
        /// The decisions the verdicts are of: a file changed since is
        /// refused.
        decisions: usize,
        /// Write over a file of that name: only once the user said so
        /// (else a file there is answered with `ReviewAction::SgfExists`).
        replace: bool,
    },
    AnalyseMatch {
        serial: u64,
        /// The match, shared with the open match panel.
        replayed: std::sync::Arc<bgedit_engine::match_analysis::ReplayedMatch>,
        /// The engine the analysis panel shows alone, else the reference.
        engine: bgedit_engine::EngineKind,
        /// The depths of the passes, in order (gnubg's plies): `[0, 2]`
        /// gives quick verdicts for the whole match, then the deeper ones
        /// replacing them decision by decision.
        passes: Vec<u8>,
    },
    /// Stop the match analysis running.
    StopMatchAnalysis,
    /// Load the engine that answers in-process (on a thread); it answers
    /// with `SensitivityAction::EngineReady`.
    LoadLiveEngine,
    /// Compute the live views of `position` with the in-process engine,
    /// at once: the runtime dispatches `SensitivityAction::Computed`
    /// before it draws the next frame.
    Sensitivity {
        serial: u64,
        position: Box<Position>,
    },
}
