//! The library panel's part of the reducer: pure, like the rest. Database
//! work leaves as `Effect::Library` requests and comes back as the worker's
//! answers. Each group of actions goes to its own update, which matches
//! every variant of its group: the list (`list.rs`), the input line
//! (`line.rs`), the note editor (`notes.rs`), the quiz (`quiz.rs`) and the
//! worker's answers (`answers.rs`), over the steps they share (`steps.rs`).

use super::state::LibAction;
use super::{answers, line, list, notes, quiz};
use crate::effect::Effect;
use crate::model::Model;

pub(crate) fn update(model: Model, action: LibAction) -> (Model, Vec<Effect>) {
    match action {
        LibAction::List(a) => list::update(model, a),
        LibAction::Line(a) => line::update(model, a),
        LibAction::Note(a) => notes::update(model, a),
        LibAction::Quiz(a) => quiz::update(model, a),
        LibAction::Worker(a) => answers::update(model, a),
    }
}
