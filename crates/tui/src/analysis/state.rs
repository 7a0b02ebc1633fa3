//! The analysis panel's state, pure data: what is on show (the reference
//! engine's answer, the other engines' opinions, a rollout), what is
//! running, the settings. The model holds it;
//! `analysis::update`'s functions change it.

use bgedit_engine::matrix::Verdict;
use bgedit_engine::text::Units;
use bgedit_engine::{Analysis, Choice, EngineError, EngineKind, Rollout, RolloutSettings};
use std::collections::BTreeMap;

/// What can happen to the analysis panel: its keys, the engines' answers
/// (by the number of the request they answer), rollouts, the score matrix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnalysisAction {
    /// `a`: analyse deeper now.
    Deepen,
    /// The keys paused: the deeper analysis, if due.
    Paused,
    /// `<` `>`: the depth of the deeper analysis.
    ChangeDepth(i8),
    /// `[` `]`: select a listed move and preview it.
    SelectMove(i32),
    /// Enter: play the move previewed.
    PlaySelected,
    /// Esc: the board back from the preview.
    LeavePreview,
    /// `%`: MWC or equity.
    ToggleUnits,
    /// `z`: the panel's engines, each alone in turn, then all of them.
    CycleEngine,
    /// `O`: roll out the leading moves or the cube decision.
    Rollout,
    /// `V`: the score matrix on or off.
    ToggleMatrix,
    /// Engine `.0`'s answer to request number `.1`, and the version the
    /// engine gave, if any.
    Answer(
        EngineKind,
        u64,
        Result<Analysis, EngineError>,
        Option<String>,
    ),
    /// A rollout's trials so far, before any number is in.
    RolloutTick(u64, Box<Rollout>),
    /// A rollout's answer so far.
    RolloutProgress(u64, Analysis),
    /// A rollout ended: done, stopped or failed.
    RolloutAnswer(u64, Result<Analysis, EngineError>),
    /// One cell of the score matrix (serial, cell, verdict).
    MatrixCell(u64, usize, Verdict),
}

/// An answer on show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    pub plies: u8,
    pub analysis: Analysis,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisState {
    /// The depth asked for when the user pauses or presses `a` (1–3).
    pub deep_plies: u8,
    pub units: Units,
    /// The number of the last request made; answers to others are stale.
    pub latest: u64,
    /// The depth of the request in flight, if any.
    pub running: Option<u8>,
    /// A deeper analysis is due when the user pauses.
    pub deep_due: bool,
    pub shown: Option<Shown>,
    /// The move the cursor of the list is on.
    pub selected: usize,
    /// The board shows the selected move played.
    pub preview: bool,
    /// Why the reference engine has no answer (missing, crashed, ...).
    pub problem: Option<String>,
    /// With dice set: the cube decision of the same position before the
    /// roll (as XG shows it above the moves), asked once the moves are in.
    pub cube_before_roll: Option<Shown>,
    /// The number of the cube request in flight; 0 when none.
    pub cube_request: u64,
    /// A rollout of the position on show, running or done: while there is
    /// one, the panel shows it rather than the evaluation.
    pub rollout: Option<RolloutRun>,
    /// How `O` rolls out.
    pub rollout_settings: RolloutSettings,
    /// Finished rollouts by the GNUBG ID they are of, newest last, so that
    /// coming back to a position shows its rollout at once.
    pub kept: Vec<(String, Shown, EngineKind)>,
    /// The Position ID after the move played, when the board is a decision
    /// of the match being reviewed: its row is marked in the list.
    pub played_after: Option<String>,
    /// The cube action played there (`double`, `take`, `drop`), for a
    /// cube decision of the match being reviewed.
    pub played_action: Option<String>,
    /// Which engines the panel shows (`z`): one alone, or all side by
    /// side. The reference engine is asked in every case (the cube before
    /// the roll, the numbers panel and rollouts are its); `shown`,
    /// `problem` and the fields above are its.
    pub engines: Choice,
    /// The other engines' answers for the position on show, by engine.
    pub opinions: BTreeMap<EngineKind, Opinion>,
    /// Another engine's best move (the engine, the move), marked in a list
    /// shown beside it.
    pub other_pick: Option<(EngineKind, String)>,
}

/// An engine's answer beside the reference's: its second opinion.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opinion {
    pub shown: Option<Shown>,
    /// The number of the last request sent to it.
    pub latest: u64,
    /// Why it has no answer (not installed, failed).
    pub problem: Option<String>,
    /// The version it said it is.
    pub version: Option<String>,
}

/// A rollout: its request number, whether it still runs, and its answer
/// so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RolloutRun {
    pub id: u64,
    pub running: bool,
    pub shown: Option<Shown>,
    /// The engine rolling out: the one the panel shows alone, else the
    /// reference.
    pub engine: EngineKind,
    /// Trials so far while no number is in yet.
    pub ticks: Option<bgedit_engine::Rollout>,
}

/// Finished rollouts kept for the session.
pub(crate) const KEPT: usize = 64;

impl Default for AnalysisState {
    fn default() -> Self {
        AnalysisState {
            deep_plies: 2,
            units: Units::Equity,
            latest: 0,
            running: None,
            deep_due: false,
            shown: None,
            selected: 0,
            preview: false,
            problem: None,
            cube_before_roll: None,
            cube_request: 0,
            rollout: None,
            rollout_settings: RolloutSettings::default(),
            kept: Vec::new(),
            played_after: None,
            played_action: None,
            engines: Choice::default(),
            opinions: BTreeMap::new(),
            other_pick: None,
        }
    }
}

impl AnalysisState {
    /// What the panel shows: the rollout when there is one, else the
    /// evaluation.
    pub(crate) fn displayed(&self) -> Option<&Shown> {
        let evaluation = self.shown_by(self.engines.lead());
        self.rollout
            .as_ref()
            .and_then(|r| r.shown.as_ref())
            .or(evaluation)
    }

    /// The engine whose answer `displayed` gives.
    pub(crate) fn displayed_engine(&self) -> EngineKind {
        match &self.rollout {
            Some(r) if r.shown.is_some() => r.engine,
            _ => self.engines.lead(),
        }
    }

    /// `engine`'s evaluation of the position on show.
    pub fn shown_by(&self, engine: EngineKind) -> Option<&Shown> {
        if engine.is_reference() {
            self.shown.as_ref()
        } else {
            self.opinions.get(&engine)?.shown.as_ref()
        }
    }

    /// Why `engine` has no answer, if so.
    pub(crate) fn problem_of(&self, engine: EngineKind) -> Option<&String> {
        if engine.is_reference() {
            self.problem.as_ref()
        } else {
            self.opinions.get(&engine)?.problem.as_ref()
        }
    }

    pub(crate) fn rolling(&self) -> bool {
        self.rollout.as_ref().is_some_and(|r| r.running)
    }
}

/// The first engine on beside the reference, if any: the one whose list
/// is drawn beside the reference's.
pub(crate) fn second_engine(a: &AnalysisState) -> Option<EngineKind> {
    a.engines.kinds().find(|k| !k.is_reference())
}

/// Where the reference engine and the other one on disagree on the
/// position on show, when both answered it.
pub fn disagreement(a: &AnalysisState) -> Option<bgedit_engine::compare::Disagreement> {
    let other = a.opinions.iter().find_map(|(_, o)| o.shown.as_ref())?;
    let g = a.shown.as_ref()?;
    bgedit_engine::compare::compare(&g.analysis, &other.analysis)
}

/// The panel as text, made once per frame for the snapshot.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PanelText {
    /// What is shown and at what depth, and what is running.
    pub header: String,
    /// Lines between the header and the rows: what the rows do not say
    /// (the cube decision before the roll, a cube the engine was sent instead).
    pub notes: Vec<String>,
    /// Column titles for the rows, if any.
    pub columns: Option<String>,
    pub rows: Vec<String>,
    /// Wider rows for the same content, drawn instead where they fit (the
    /// score matrix's thresholds).
    pub wide_rows: Vec<String>,
    /// The row of the selected move.
    pub selected: Option<usize>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
/// The score matrix (`V`): pure data here, so the model holds it without
/// importing `score_matrix.rs` (which reads the model).
pub struct MatrixState {
    /// Shown instead of the analysis.
    pub on: bool,
    /// The number of the matrix asked for last; cells of others are stale.
    pub serial: u64,
    /// The board and player on roll it is for (its GNUBG ID, dice and
    /// score aside).
    pub key: String,
    pub length: u16,
    pub cells: Vec<bgedit_core::domain::score_matrix::Cell>,
    pub verdicts: Vec<Option<Verdict>>,
}
