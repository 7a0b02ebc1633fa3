//! What the numbers panel needs in the model: the match equity table in
//! use and the last evaluation (filled by the analysis panel). Both hold
//! floats, so they get the equality the model's `Eq` needs here.

use crate::codec::met_xml;
use crate::domain::equity::Probabilities;
use crate::domain::met::Met;
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
