//! The numbers panel's state and actions, as data: the match equity table
//! in use, the panel's scroll and the last evaluation of the position
//! (written by the analysis panel when gnubg answers, for the market
//! window). The table and the evaluation hold floats, so they get the
//! equality the model's `Eq` needs here.

use bgedit_core::codec::met_xml;
use bgedit_core::domain::equity::Probabilities;
use bgedit_core::domain::met::{Met, MetError};
use std::sync::Arc;

/// A shared match equity table. Two handles are equal when they hold the
/// same table (same name and file), which is all the reducer compares.
#[derive(Clone, Debug)]
pub struct MetHandle(pub Arc<Met>);

impl MetHandle {
    pub fn new(met: Met) -> MetHandle {
        MetHandle(Arc::new(met))
    }

    /// gnubg's default, Kazaross-XG2, built into bgedit.
    pub fn built_in() -> MetHandle {
        MetHandle(met_xml::shared_default_met())
    }
}

impl PartialEq for MetHandle {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
            || (self.0.name == other.0.name && self.0.source == other.0.source)
    }
}

impl Eq for MetHandle {}

/// An evaluation from the player on roll's side: win, win gammon, win
/// backgammon, lose gammon, lose backgammon. Compared bit for bit.
#[derive(Clone, Copy, Debug)]
pub struct Evaluation(pub Probabilities);

impl PartialEq for Evaluation {
    fn eq(&self, other: &Self) -> bool {
        self.0.map(f32::to_bits) == other.0.map(f32::to_bits)
    }
}

impl Eq for Evaluation {}

/// What the model holds for the numbers panel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NumbersState {
    /// The match equity table the numbers use (`T` loads another).
    pub met: MetHandle,
    /// The first row on show, when the panel has more rows than room
    /// (PgUp/PgDn).
    pub scroll: u16,
    /// The last evaluation of the position, from the analysis panel: the
    /// market window needs its gammon rates. The analysis writes it; any
    /// change of position clears it (an evaluation describes the position
    /// it came from).
    pub last_evaluation: Option<Evaluation>,
}

impl Default for NumbersState {
    fn default() -> Self {
        NumbersState {
            met: MetHandle::built_in(),
            scroll: 0,
            last_evaluation: None,
        }
    }
}

/// The numbers panel's actions (`Action::Numbers`): `numbers::update` does
/// them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NumbersAction {
    /// Scrolls the panel by this many rows.
    Scroll(i16),
    /// Load a gnubg MET file (empty: back to the built-in table).
    LoadMet(String),
    /// A MET file was read, or why not (the runtime reports it).
    MetLoaded(Result<MetHandle, MetError>),
}
