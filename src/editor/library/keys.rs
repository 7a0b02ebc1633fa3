//! Keys inside the library panel, review and note editor. The panel's own
//! table, shown as hints; the normal mode's `+` and `L` are in
//! `keymap::BINDINGS`.

use super::state::{Ask, LibAction, LibMode};
use crate::editor::action::Action;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// (keys, words) hints per mode, in the order shown.
pub fn hints(mode: &LibMode) -> Vec<(&'static str, &'static str)> {
    match mode {
        LibMode::List => vec![
            ("j/k", "move"),
            ("Enter", "load"),
            ("/", "filter"),
            ("e", "note"),
            ("t", "tags"),
            ("c", "collections"),
            ("d", "delete"),
            ("u", "undelete"),
            ("s", "save back"),
            ("r", "review"),
            ("Esc", "board"),
            ("L", "close"),
        ],
        LibMode::Filter => vec![("Enter", "keep filter"), ("Esc", "clear filter")],
        LibMode::Ask(Ask::ConfirmDelete) => vec![("y", "delete"), ("other", "keep")],
        LibMode::Ask(_) => vec![("Enter", "apply"), ("Esc", "cancel"), ("^U", "clear")],
        LibMode::Note => vec![("Esc", "save the note"), ("arrows", "move")],
        LibMode::Review => vec![
            ("Space", "reveal"),
            ("y", "known"),
            ("n", "not yet"),
            ("Esc", "stop"),
        ],
    }
}

fn lib(a: LibAction) -> Option<Action> {
    Some(Action::Library(a))
}

pub fn resolve(key: &KeyEvent, mode: &LibMode) -> Option<Action> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match mode {
        LibMode::List => match key.code {
            KeyCode::Char('j') | KeyCode::Down => lib(LibAction::Move(1)),
            KeyCode::Char('k') | KeyCode::Up => lib(LibAction::Move(-1)),
            KeyCode::PageDown => lib(LibAction::PageDown),
            KeyCode::PageUp => lib(LibAction::PageUp),
            KeyCode::Home | KeyCode::Char('g') => lib(LibAction::Move(i64::MIN / 2)),
            KeyCode::End | KeyCode::Char('G') => lib(LibAction::Move(i64::MAX / 2)),
            KeyCode::Enter => lib(LibAction::Load),
            KeyCode::Char('/') => lib(LibAction::StartFilter),
            KeyCode::Char('e') => lib(LibAction::EditNote),
            KeyCode::Char('t') => lib(LibAction::EditTags),
            KeyCode::Char('c') => lib(LibAction::EditCollections),
            KeyCode::Char('d') | KeyCode::Delete => lib(LibAction::AskDelete),
            KeyCode::Char('u') => lib(LibAction::UndoDelete),
            KeyCode::Char('s') => lib(LibAction::SaveBack),
            KeyCode::Char('r') => lib(LibAction::StartReview),
            KeyCode::Esc => lib(LibAction::Leave),
            KeyCode::Char('L') | KeyCode::Char('q') => lib(LibAction::Close),
            _ => None,
        },
        LibMode::Filter | LibMode::Ask(_) => match key.code {
            KeyCode::Enter => lib(LibAction::Submit),
            KeyCode::Esc => lib(LibAction::Cancel),
            KeyCode::Backspace => lib(LibAction::Backspace),
            KeyCode::Char('u') if ctrl => lib(LibAction::Clear),
            KeyCode::Char(c) if !ctrl => lib(LibAction::Char(c)),
            _ => None,
        },
        LibMode::Note => match key.code {
            KeyCode::Esc => lib(LibAction::NoteDone),
            _ => lib(LibAction::NoteKey((*key).into())),
        },
        LibMode::Review => match key.code {
            KeyCode::Char(' ') | KeyCode::Enter => lib(LibAction::Reveal),
            KeyCode::Char('y') => lib(LibAction::Mark(true)),
            KeyCode::Char('n') => lib(LibAction::Mark(false)),
            KeyCode::Esc | KeyCode::Char('q') => lib(LibAction::Close),
            _ => None,
        },
    }
}

/// Text pasted while the panel has the keys.
pub fn paste(text: String, mode: &LibMode) -> Option<Action> {
    match mode {
        LibMode::Filter | LibMode::Ask(_) => lib(LibAction::Paste(text)),
        LibMode::Note => lib(LibAction::NotePaste(text)),
        LibMode::List | LibMode::Review => None,
    }
}
