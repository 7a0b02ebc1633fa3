//! The transitions every part of the reducer shares: the board changed (or
//! not), an action done, an action refused. Below the features and the
//! reducer, so a feature's `update` never imports the reducer.

use super::effect::Effect;
use super::model::{Model, Status};
use bgedit_core::domain::Position;

/// Nothing more to do.
pub(crate) fn done(model: Model) -> (Model, Vec<Effect>) {
    (model, Vec::new())
}

/// The action cannot be done: says why, and changes nothing else.
pub(crate) fn refuse(mut model: Model, message: impl Into<String>) -> (Model, Vec<Effect>) {
    model.status = Status::error(message);
    (model, Vec::new())
}

/// Makes `next` the position, if it is legal, remembering the old one.
pub(crate) fn commit(mut model: Model, next: Position, message: &str) -> (Model, Vec<Effect>) {
    if let Err(e) = next.validate() {
        return refuse(model, e.to_string());
    }
    model.status = Status::success(message);
    if next == model.position {
        return done(model);
    }
    let previous = std::mem::replace(&mut model.position, next);
    model.history.record(previous, message);
    // An evaluation describes the position it came from.
    model.numbers.last_evaluation = None;
    let save = Effect::Save(model.position.clone());
    (model, vec![save])
}
