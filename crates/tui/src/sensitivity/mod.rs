//! The cube and the score as live views (`~`, issue 33): for the position
//! on the board, the best move at money, DMP, gammon-save, gammon-go and the
//! match's own score under each cube state, or for a cube decision the
//! doubling window at every score of the match, redrawn on every key by
//! an engine that answers in-process. The feature's folder.
//!
//! - `state.rs`: whether it is on, the in-process engine's state, the
//!   tables shown, and its actions (`SensitivityAction`)
//! - `update.rs`: turning it on and off, asking on every new position
//!   (`Effect::Sensitivity`, which the runtime performs before the next
//!   frame), taking the answers
//! - `keys.rs`: its row of the normal mode's bindings (`~`)
//! - `view.rs`: its part of the snapshot, drawn in the analysis panel's
//!   place

pub(crate) mod keys;
pub mod state;
pub(crate) mod update;
pub mod view;
