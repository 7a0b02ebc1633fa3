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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::state::{LibAction, ListAction};
    use crate::model::Mode;
    use crate::reducer::update;
    use bgedit_core::domain::{Player, Position};

    fn summary(id: i64, on_roll: Player) -> Summary {
        let mut position = Position::default();
        position.state.on_roll = on_roll;
        Summary {
            id,
            title: String::new(),
            tags: String::new(),
            derived: bgedit_library::derive::derive(&position),
            position,
            score: [0, 0],
            error: None,
            error_by: None,
            player: None,
            note_line: String::new(),
            collections: String::new(),
        }
    }

    fn list(action: ListAction, model: Model) -> (Model, Vec<Effect>) {
        update(
            model,
            crate::action::Action::Library(LibAction::List(action)),
        )
    }

    #[test]
    fn q_on_the_board_opens_the_panel_and_asks_for_its_position() {
        let (model, effects) = list(ListAction::LikeBoard, Model::default());
        assert!(model.library.open);
        assert!(matches!(model.mode, Mode::Library(_)));
        let asked = effects.iter().find_map(|e| match e {
            Effect::Library(Request::Like { position, of }) => Some((position, of)),
            _ => None,
        });
        let (position, of) = asked.expect("the worker asked");
        assert_eq!(**position, Model::default().position);
        assert_eq!(of, "the board");
    }

    #[test]
    fn the_answer_is_listed_moved_through_loaded_and_left() {
        let (model, _) = list(ListAction::LikeBoard, Model::default());
        let rows = vec![(1, summary(7, Player::X)), (5, summary(3, Player::O))];
        let (model, _) = liked(model, "the board".to_owned(), Ok(rows));
        let l = model.library.likes.as_ref().unwrap();
        assert_eq!((l.selected, l.rows.len()), (0, 2));
        assert_eq!(model.library.preview().unwrap().state.on_roll, Player::X);
        // Moving stops at the ends; the board previews the highlighted one.
        let (model, _) = list(ListAction::Move(5), model);
        assert_eq!(model.library.likes.as_ref().unwrap().selected, 1);
        assert_eq!(model.library.preview().unwrap().state.on_roll, Player::O);
        let (model, _) = list(ListAction::Move(-9), model);
        assert_eq!(model.library.likes.as_ref().unwrap().selected, 0);
        // Enter loads the highlighted entry, not the list's.
        let (model, effects) = list(ListAction::Load, model);
        assert_eq!(
            effects,
            vec![Effect::Library(Request::Get {
                id: 7,
                purpose: Purpose::Load
            })]
        );
        // Esc: back to the list.
        let (model, _) = list(ListAction::Leave, model);
        assert_eq!(model.library.likes, None);
        assert!(model.library.open);
    }

    #[test]
    fn no_other_entry_is_said_and_lists_nothing() {
        let (model, _) = liked(Model::default(), "entry 1".to_owned(), Ok(Vec::new()));
        assert_eq!(model.library.likes, None);
        assert!(
            model.status.text.contains("No other entry"),
            "{:?}",
            model.status
        );
    }
}
