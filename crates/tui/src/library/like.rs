//! Positions like one (`Q`, `bgedit library like`): the worker asked for
//! the entries nearest the highlighted entry or the board's position, and
//! the panel listing them in the list's place, nearest first: `j`/`k`
//! move (the board previews), `Enter` loads, `Q` again asks for those like
//! the highlighted one, `Esc` goes back to the list.

use super::state::{LIKE_COUNT, LikeList, Purpose, Request};
use super::steps::{error, open};
use crate::effect::Effect;
use crate::model::{Model, Status};
use crate::transition::done;
use bgedit_library::Summary;
use bgedit_library::store::LibraryFailure;

/// `Q` in the panel: the entries like the highlighted one.
pub(super) fn like_selected(mut model: Model) -> (Model, Vec<Effect>) {
    let Some(row) = highlighted(&model).cloned() else {
        return error(model, "no entry is highlighted");
    };
    model.status = Status::info(format!("Looking for positions like entry {}…", row.id));
    let request = Request::Like {
        position: Box::new(row.position),
        of: format!("entry {}", row.id),
    };
    (model, vec![Effect::Library(request)])
}

/// `Q` on the board: the panel opened on the entries like its position.
pub(super) fn like_board(model: Model) -> (Model, Vec<Effect>) {
    let position = Box::new(model.position.clone());
    let (mut model, mut effects) = open(model);
    model.status = Status::info("Looking for positions like the board's…");
    effects.push(Effect::Library(Request::Like {
        position,
        of: "the board".to_owned(),
    }));
    (model, effects)
}

/// The highlighted entry: among those like one while they are shown.
pub(super) fn highlighted(model: &Model) -> Option<&Summary> {
    match &model.library.likes {
        Some(l) => l.rows.get(l.selected).map(|(_, s)| s),
        None => model.library.selected_row(),
    }
}

/// The worker's answer: listed, or said when there is none.
pub(super) fn liked(
    mut model: Model,
    of: String,
    result: Result<Vec<(u32, Summary)>, LibraryFailure>,
) -> (Model, Vec<Effect>) {
    match result {
        Ok(rows) if rows.is_empty() => {
            model.status = Status::info(format!("No other entry to compare with {of}"));
            done(model)
        }
        Ok(rows) => {
            model.status = Status::info(format!(
                "{} positions like {of}, nearest first (of {LIKE_COUNT} at most) · Enter \
                 loads, Q: like the highlighted one, Esc: back to the list",
                rows.len()
            ));
            // They take the panel: the quiz's statistics, if shown, go.
            model.library.stats = None;
            model.library.likes = Some(LikeList {
                of,
                rows,
                selected: 0,
            });
            done(model)
        }
        Err(e) => error(model, format!("library: {e}")),
    }
}

/// The highlight moved among them (clamped to the ends).
pub(super) fn move_by(mut model: Model, delta: i64) -> (Model, Vec<Effect>) {
    if let Some(l) = &mut model.library.likes {
        let last = l.rows.len().saturating_sub(1) as i64;
        l.selected = (l.selected as i64).saturating_add(delta).clamp(0, last) as usize;
    }
    done(model)
}

/// `Enter`: the highlighted one loaded onto the board.
pub(super) fn load(mut model: Model) -> (Model, Vec<Effect>) {
    let Some(id) = highlighted(&model).map(|s| s.id) else {
        return error(model, "no entry is highlighted");
    };
    model.status = Status::info(format!("Loading entry {id}…"));
    let purpose = Purpose::Load;
    (model, vec![Effect::Library(Request::Get { id, purpose })])
}
