//! The live views' state and actions, as data.

use bgedit_engine::sensitivity::Sensitivity;

/// The depth the live views ask at (the reference's count: 0, the
/// network alone): a checker play at it is about 0.4 ms in-process, so
/// every table fits in a frame.
pub(crate) const PLIES: u8 = 0;

/// The engine that answers in-process, as the views know it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Live {
    /// Not asked for yet: loaded when the views are first turned on.
    #[default]
    Unknown,
    /// Being loaded (its weights read) on a thread of the runtime's.
    Loading,
    /// Loaded: its name and depth, for the header.
    Ready(String),
    /// None can answer in-process here: why (no C++ core in this build, a
    /// CPU without AVX2/FMA, no bgsage).
    Unavailable(String),
}

/// The tables shown, and what they were computed for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    pub serial: u64,
    pub tables: Sensitivity,
    /// How long the computation took, in microseconds (the runtime's
    /// measure, shown in the header).
    pub micros: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SensitivityState {
    /// The views are on (in the analysis panel's place).
    pub on: bool,
    pub live: Live,
    /// The last computation asked for; older answers are dropped.
    pub serial: u64,
    /// The last answer, while it describes the position on the board.
    pub shown: Option<Shown>,
}

/// The live views' actions (`Action::Sensitivity`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SensitivityAction {
    /// `~`: on or off.
    Toggle,
    /// The runtime loaded the in-process engine, or found none.
    EngineReady(Live),
    /// The tables for the computation `serial`, and how long they took.
    Computed {
        serial: u64,
        tables: Box<Sensitivity>,
        micros: u64,
    },
}
