//! The note editor (ratatui-textarea's): keys and pastes go to the widget,
//! Esc saves the note with the entry being edited.

use super::state::{NoteAction, Request};
use super::steps::back;
use crate::effect::Effect;
use crate::model::Model;
use crate::transition::done;
use bgedit_library::EntryEdit;

pub(super) fn update(mut model: Model, action: NoteAction) -> (Model, Vec<Effect>) {
    match action {
        NoteAction::Key(input) => {
            if let Some(n) = &mut model.library.note {
                n.0.input(input);
            }
            done(model)
        }
        NoteAction::Paste(text) => {
            if let Some(n) = &mut model.library.note {
                n.0.insert_str(text);
            }
            done(model)
        }
        NoteAction::Done => {
            let (Some(note), Some(id)) = (model.library.note.take(), model.library.editing) else {
                back(&mut model);
                return done(model);
            };
            back(&mut model);
            let edit = EntryEdit {
                note: Some(note.text()),
                ..EntryEdit::default()
            };
            let what = "note";
            (
                model,
                vec![Effect::Library(Request::Update { id, edit, what })],
            )
        }
    }
}
