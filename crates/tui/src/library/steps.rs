//! The steps every route of the panel's update takes: asking on the input
//! line, opening the panel, going back to where the keys came from,
//! fetching the page around the selection, and the refusal. Below
//! `list.rs`, `line.rs`, `notes.rs`, `quiz.rs`, `answers.rs` and
//! `like.rs`, which all use them.

use super::state::{Ask, LibMode, LibState, PAGE, Request};
use crate::effect::Effect;
use crate::model::{Mode, Model, Status};
use crate::prompt::state::Line;
use crate::transition::done;

/// Puts `kind`'s question on the input line, with `text` offered.
pub(super) fn ask(mut model: Model, kind: Ask, text: String) -> (Model, Vec<Effect>) {
    model.library.input = Line::at_end(&text);
    model.mode = Mode::Library(LibMode::Ask(kind));
    done(model)
}

pub(super) fn error(mut model: Model, message: impl Into<String>) -> (Model, Vec<Effect>) {
    model.status = Status::error(message);
    done(model)
}

/// Where the panel returns to after a question or an answer: adding the
/// editor's position (`+`) was asked from the board, so back to the board.
pub(super) fn back(model: &mut Model) {
    model.mode = if matches!(
        model.mode,
        Mode::Library(LibMode::Ask(Ask::AddTitle | Ask::AddTags))
    ) {
        Mode::Normal
    } else if model.library.review.is_some() {
        Mode::Library(LibMode::Review)
    } else if model.library.open {
        Mode::Library(LibMode::List)
    } else {
        Mode::Normal
    };
}

/// The keys go back to where the library was opened from: the match panel
/// (while its match is open), else the board; the words for it.
pub(super) fn leave(model: &mut Model) -> &'static str {
    let review = std::mem::take(&mut model.library.from_review) && model.review.open.is_some();
    model.mode = if review { Mode::Review } else { Mode::Normal };
    if review { "the match" } else { "the board" }
}

/// Asks for the page holding the selection (or the first one).
pub(super) fn fetch(state: &mut LibState, offset: u64) -> Effect {
    state.serial += 1;
    state.loading = true;
    Effect::Library(Request::Page {
        serial: state.serial,
        query: state.query.clone(),
        order: state.order,
        offset,
        limit: PAGE,
    })
}

/// Refreshes the page around the selection.
pub(super) fn refresh(state: &mut LibState) -> Effect {
    let offset = state.selected.saturating_sub(PAGE / 2);
    fetch(state, offset)
}

/// After a change, the open list shows it.
pub(super) fn reopen_page(mut model: Model) -> (Model, Vec<Effect>) {
    if model.library.open {
        let effect = refresh(&mut model.library);
        return (model, vec![effect]);
    }
    done(model)
}

/// Shows the panel (the list, fetched again) and gives it the keys; back
/// to the quiz when its question was being played on the board.
pub(super) fn open(mut model: Model) -> (Model, Vec<Effect>) {
    // Back from playing the quiz's question on the board.
    if model.library.quiz_board.is_some() && model.library.review.is_some() {
        model.library.quiz_board = None;
        model.mode = Mode::Library(LibMode::Review);
        model.status = Status::info("Back to the quiz");
        return done(model);
    }
    model.library.from_review = model.mode == Mode::Review;
    model.library.open = true;
    model.library.review = None;
    model.mode = Mode::Library(LibMode::List);
    model.status =
        Status::info("Library: j/k move, Enter loads, / filters, Esc back to the board, L closes");
    let effect = refresh(&mut model.library);
    (model, vec![effect])
}
