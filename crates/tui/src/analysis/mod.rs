//! The analysis panel: each engine's verdict on the position on show, a
//! rollout, the score matrix. Pure: the reducer calls in here; requests
//! leave as `Effect::Analyse` and answers come back as
//! `Action::Analysis(AnalysisAction::Answer)`, each naming its engine.
//!
//! The feature's folder, in the editor's template: `state.rs` (its state,
//! pure data, and its `AnalysisAction`), `update.rs` (what the actions do),
//! `keys.rs` (its rows of the normal mode's bindings), `view.rs` (its part
//! of the snapshot, the panel's text, and its drawing: one list or two
//! side by side). `score_matrix.rs` is a part of the panel (the cube
//! decision at every score, shown in the same panel) with its own update
//! and text, in one file.

pub(crate) mod keys;
pub(crate) mod score_matrix;
pub mod state;
pub(crate) mod update;
pub mod view;

pub use state::{AnalysisAction, AnalysisState, RolloutRun, Shown, disagreement};
pub(crate) use update::{
    board_position, depth_words, leave_preview, position_changed, second_opinion, select,
    stop_rollout, update,
};
pub use view::{PanelText, copy_text, panel_text, second_panel_text};
