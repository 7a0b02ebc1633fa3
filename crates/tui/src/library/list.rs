//! The list's keys and the panel's commands around it: opening, leaving,
//! moving, loading, the order, and starting an edit, a deletion, a quiz or
//! an addition (each a request to the worker or a question on the line).

use super::like;
use super::state::{Ask, LibMode, ListAction, Purpose, Request, order_words};
use super::steps::{ask, error, fetch, leave, open, refresh};
use crate::effect::Effect;
use crate::model::{Mode, Model, Status};
use crate::transition::done;
use bgedit_library::EntryEdit;
use bgedit_library::store::Order;

pub(super) fn update(mut model: Model, action: ListAction) -> (Model, Vec<Effect>) {
    match action {
        ListAction::StartAdd => start_add(model),
        ListAction::Open => open(model),
        // The reducer hands it to the match list before this.
        ListAction::Matches => done(model),
        // Esc steps back one level: the statistics to the list, the list to
        // where the library was opened from.
        ListAction::Leave if model.library.likes.is_some() => {
            model.library.likes = None;
            model.status = Status::info("Back to the list");
            done(model)
        }
        ListAction::Leave if model.library.stats.is_some() => {
            model.library.stats = None;
            model.status = Status::info("Back to the list");
            done(model)
        }
        ListAction::Leave => {
            let to = leave(&mut model);
            model.status = Status::info(format!("Back to {to} · L returns to the library"));
            done(model)
        }
        ListAction::Close => {
            model.library.open = false;
            model.library.likes = None;
            model.library.review = None;
            model.library.rows.clear();
            let to = leave(&mut model);
            model.status = Status::info(format!("Library closed · back to {to}"));
            done(model)
        }
        ListAction::LikeSelected => like::like_selected(model),
        ListAction::LikeBoard => like::like_board(model),
        ListAction::Move(delta) if model.library.likes.is_some() => like::move_by(model, delta),
        ListAction::PageUp if model.library.likes.is_some() => like::move_by(model, -10),
        ListAction::PageDown if model.library.likes.is_some() => like::move_by(model, 10),
        ListAction::Load if model.library.likes.is_some() => like::load(model),
        ListAction::Move(delta) => move_selection(model, delta),
        ListAction::PageUp => move_selection(model, -10),
        ListAction::PageDown => move_selection(model, 10),
        ListAction::Load => match selected_id(&model) {
            Some(id) => {
                model.status = Status::info(format!("Loading entry {id}…"));
                let purpose = Purpose::Load;
                (model, vec![Effect::Library(Request::Get { id, purpose })])
            }
            None => error(model, "no entry is highlighted"),
        },
        ListAction::StartFilter => {
            model.mode = Mode::Library(LibMode::Filter);
            done(model)
        }
        ListAction::EditNote => edit(model, Purpose::Note),
        ListAction::EditTags => edit(model, Purpose::Tags),
        ListAction::EditCollections => edit(model, Purpose::Collections),
        ListAction::AskDelete => match selected_id(&model) {
            Some(id) => {
                model.library.editing = Some(id);
                ask(model, Ask::ConfirmDelete, String::new())
            }
            None => error(model, "no entry is highlighted"),
        },
        ListAction::UndoDelete => match model.library.deleted.take() {
            Some(entry) => (model, vec![Effect::Library(Request::Restore(entry))]),
            None => error(model, "no deleted entry to bring back"),
        },
        ListAction::SaveBack => save_back(model),
        // The highlighted decision's player offered.
        ListAction::AskPlayer => {
            let name = model
                .library
                .selected_row()
                .and_then(|r| r.player.clone())
                .unwrap_or_default();
            ask(model, Ask::Player, name)
        }
        ListAction::CycleOrder => cycle_order(model),
        // The list's filter, if any, is offered: a quiz of what is shown.
        ListAction::StartReview => {
            let filter = model.library.filter.text.clone();
            ask(model, Ask::ReviewCollection, filter)
        }
    }
}

/// `+`: the library is asked first whether it holds the position, so the
/// questions can say so before a title is typed for nothing.
fn start_add(mut model: Model) -> (Model, Vec<Effect>) {
    model.library.pending_title.clear();
    model.library.existing = None;
    model.status = Status::info("Looking for this position in the library…");
    let position = Box::new(model.position.clone());
    (model, vec![Effect::Library(Request::Lookup(position))])
}

fn selected_id(model: &Model) -> Option<i64> {
    like::highlighted(model).map(|r| r.id)
}

fn move_selection(mut model: Model, delta: i64) -> (Model, Vec<Effect>) {
    let s = &mut model.library;
    if s.total == 0 {
        return done(model);
    }
    let last = s.total - 1;
    s.selected = if delta < 0 {
        s.selected.saturating_sub(delta.unsigned_abs())
    } else {
        s.selected.saturating_add(delta as u64).min(last)
    };
    let loaded = s.offset..s.offset + s.rows.len() as u64;
    if loaded.contains(&s.selected) {
        return done(model);
    }
    let effect = refresh(s);
    (model, vec![effect])
}

/// The highlighted entry fetched for its note, tags or collections: the
/// editor or the question opens when it comes.
fn edit(mut model: Model, purpose: Purpose) -> (Model, Vec<Effect>) {
    let Some(id) = selected_id(&model) else {
        return error(model, "no entry is highlighted");
    };
    model.library.editing = Some(id);
    (model, vec![Effect::Library(Request::Get { id, purpose })])
}

/// `s`: the board's position saved over the entry it was loaded from.
fn save_back(model: Model) -> (Model, Vec<Effect>) {
    let Some(id) = model.library.loaded else {
        return error(
            model,
            "the editor's position was not loaded from the library; + adds it as a new entry",
        );
    };
    let edit = EntryEdit {
        position: Some(model.position.clone()),
        ..EntryEdit::default()
    };
    let what = "position";
    (
        model,
        vec![Effect::Library(Request::Update { id, edit, what })],
    )
}

/// From the top of the new order, fetched again.
fn cycle_order(mut model: Model) -> (Model, Vec<Effect>) {
    let s = &mut model.library;
    s.order = match s.order {
        Order::Newest => Order::Error,
        Order::Error => Order::Newest,
    };
    s.selected = 0;
    let effect = fetch(s, 0);
    model.status = Status::info(format!("Library: {}", order_words(model.library.order)));
    (model, vec![effect])
}
