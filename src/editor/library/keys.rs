//! Keys inside the library panel, review and note editor: the list's and
//! the review's tables feed the resolution, the status-bar hints and the
//! help (`?`) alike; the input modes (filter, questions, note) take text.
//! The normal mode's `+` and `L` are in `keymap::BINDINGS`.

use super::state::{Ask, LibAction, LibMode};
use crate::editor::action::Action;
use crate::engine::match_analysis::QuizAnswer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// One key of the list or the review: the keys, how the help and hints
/// show them, and the action.
pub struct LibBinding {
    pub keys: &'static [KeyCode],
    pub label: &'static str,
    pub help: &'static str,
    /// The status-bar hint's words, when it has one.
    pub hint: Option<&'static str>,
    pub action: LibAction,
}

use KeyCode::{Char, Delete, Down, End, Enter, Esc, Home, PageDown, PageUp, Up};

/// The list's keys: one table for resolution, hints and the help.
pub static LIST_BINDINGS: &[LibBinding] = &[
    LibBinding {
        keys: &[Char('j'), Down],
        label: "j/k",
        help: "move (↓ ↑ PgDn PgUp g G)",
        hint: Some("move"),
        action: LibAction::Move(1),
    },
    LibBinding {
        keys: &[Char('k'), Up],
        label: "",
        help: "",
        hint: None,
        action: LibAction::Move(-1),
    },
    LibBinding {
        keys: &[PageDown],
        label: "",
        help: "",
        hint: None,
        action: LibAction::PageDown,
    },
    LibBinding {
        keys: &[PageUp],
        label: "",
        help: "",
        hint: None,
        action: LibAction::PageUp,
    },
    LibBinding {
        keys: &[Home, Char('g')],
        label: "",
        help: "",
        hint: None,
        action: LibAction::Move(i64::MIN / 2),
    },
    LibBinding {
        keys: &[End, Char('G')],
        label: "",
        help: "",
        hint: None,
        action: LibAction::Move(i64::MAX / 2),
    },
    LibBinding {
        keys: &[Enter],
        label: "Enter",
        help: "load the entry onto the board",
        hint: Some("load"),
        action: LibAction::Load,
    },
    LibBinding {
        keys: &[Char('/')],
        label: "/",
        help: "filter (error>=, tag:, col:)",
        hint: Some("filter"),
        action: LibAction::StartFilter,
    },
    LibBinding {
        keys: &[Char('e')],
        label: "e",
        help: "edit the note",
        hint: Some("note"),
        action: LibAction::EditNote,
    },
    LibBinding {
        keys: &[Char('t')],
        label: "t",
        help: "tags",
        hint: Some("tags"),
        action: LibAction::EditTags,
    },
    LibBinding {
        keys: &[Char('c')],
        label: "c",
        help: "collections",
        hint: Some("collections"),
        action: LibAction::EditCollections,
    },
    LibBinding {
        keys: &[Char('d'), Delete],
        label: "d",
        help: "delete (asks)",
        hint: Some("delete"),
        action: LibAction::AskDelete,
    },
    LibBinding {
        keys: &[Char('u')],
        label: "u",
        help: "undelete",
        hint: Some("undelete"),
        action: LibAction::UndoDelete,
    },
    LibBinding {
        keys: &[Char('s')],
        label: "s",
        help: "save the board to the entry",
        hint: Some("save back"),
        action: LibAction::SaveBack,
    },
    LibBinding {
        keys: &[Char('r')],
        label: "r",
        help: "quiz a collection or filter",
        hint: Some("quiz"),
        action: LibAction::StartReview,
    },
    LibBinding {
        keys: &[Char('S')],
        label: "S",
        help: "quiz statistics (again: the list)",
        hint: None,
        action: LibAction::ToggleStats,
    },
    LibBinding {
        keys: &[Esc],
        label: "Esc",
        help: "keys to the board",
        hint: Some("board"),
        action: LibAction::Leave,
    },
    LibBinding {
        keys: &[Char('L'), Char('q')],
        label: "L",
        help: "close the library (q too)",
        hint: Some("close"),
        action: LibAction::Close,
    },
];

/// The quiz's keys: the answers, then what follows them.
pub static REVIEW_BINDINGS: &[LibBinding] = &[
    LibBinding {
        keys: &[Char('m')],
        label: "m",
        help: "quiz: your move (typed)",
        hint: Some("move"),
        action: LibAction::AskMove,
    },
    LibBinding {
        keys: &[Char('e')],
        label: "e",
        help: "quiz: play your move on the board (L: back)",
        hint: None,
        action: LibAction::PlayOnBoard,
    },
    LibBinding {
        keys: &[Char('d')],
        label: "d / r",
        help: "double / no double (roll)",
        hint: Some("double, roll"),
        action: LibAction::Answer(QuizAnswer::Double),
    },
    LibBinding {
        keys: &[Char('r')],
        label: "",
        help: "",
        hint: None,
        action: LibAction::Answer(QuizAnswer::NoDouble),
    },
    LibBinding {
        keys: &[Char('t')],
        label: "t / p / b",
        help: "take / pass / beaver",
        hint: Some("take, pass"),
        action: LibAction::Answer(QuizAnswer::Take),
    },
    LibBinding {
        keys: &[Char('p')],
        label: "",
        help: "",
        hint: None,
        action: LibAction::Answer(QuizAnswer::Pass),
    },
    LibBinding {
        keys: &[Char('b')],
        label: "",
        help: "",
        hint: None,
        action: LibAction::Answer(QuizAnswer::Beaver),
    },
    LibBinding {
        keys: &[Enter],
        label: "Enter",
        help: "next question (rated by the grade)",
        hint: Some("next"),
        action: LibAction::Next,
    },
    LibBinding {
        keys: &[Char(' ')],
        label: "Space",
        help: "reveal without answering",
        hint: Some("reveal"),
        action: LibAction::Reveal,
    },
    LibBinding {
        keys: &[Char('y')],
        label: "y",
        help: "known",
        hint: Some("known"),
        action: LibAction::Mark(true),
    },
    LibBinding {
        keys: &[Char('n')],
        label: "n",
        help: "not yet",
        hint: Some("not yet"),
        action: LibAction::Mark(false),
    },
    LibBinding {
        keys: &[Esc, Char('q')],
        label: "Esc",
        help: "stop reviewing (q too)",
        hint: Some("stop"),
        action: LibAction::Close,
    },
];

/// The help's rows for the library: the list's keys, then the review's
/// (a row without a label is named by the one before it).
pub fn help_rows() -> Vec<(String, String)> {
    LIST_BINDINGS
        .iter()
        .chain(REVIEW_BINDINGS)
        .filter(|b| !b.label.is_empty())
        .map(|b| (b.label.to_owned(), b.help.to_owned()))
        .collect()
}

fn hints_of(table: &[LibBinding]) -> Vec<(&'static str, &'static str)> {
    table
        .iter()
        .filter_map(|b| b.hint.map(|h| (b.label, h)))
        .collect()
}

/// (keys, words) hints per mode, in the order shown.
pub fn hints(mode: &LibMode) -> Vec<(&'static str, &'static str)> {
    match mode {
        LibMode::List => hints_of(LIST_BINDINGS),
        LibMode::Filter => vec![("Enter", "keep filter"), ("Esc", "clear filter")],
        LibMode::Ask(Ask::ConfirmDelete) => vec![("y", "delete"), ("other", "keep")],
        LibMode::Ask(Ask::QuizMove) => {
            vec![("Enter", "answer"), ("Tab", "complete"), ("Esc", "cancel")]
        }
        LibMode::Ask(_) => vec![("Enter", "apply"), ("Esc", "cancel"), ("^U", "clear")],
        LibMode::Note => vec![("Esc", "save the note"), ("arrows", "move")],
        LibMode::Review => hints_of(REVIEW_BINDINGS),
    }
}

fn lib(a: LibAction) -> Option<Action> {
    Some(Action::Library(a))
}

fn from_table(table: &[LibBinding], code: KeyCode) -> Option<Action> {
    table
        .iter()
        .find(|b| b.keys.contains(&code))
        .and_then(|b| lib(b.action.clone()))
}

pub fn resolve(key: &KeyEvent, mode: &LibMode) -> Option<Action> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match mode {
        LibMode::List if !ctrl => from_table(LIST_BINDINGS, key.code),
        LibMode::Review if !ctrl => from_table(REVIEW_BINDINGS, key.code),
        LibMode::List | LibMode::Review => None,
        LibMode::Filter | LibMode::Ask(_) => match key.code {
            KeyCode::Enter => lib(LibAction::Submit),
            KeyCode::Esc => lib(LibAction::Cancel),
            KeyCode::Backspace => lib(LibAction::Backspace),
            KeyCode::Tab => lib(LibAction::Complete),
            KeyCode::Char('u') if ctrl => lib(LibAction::Clear),
            KeyCode::Char(c) if !ctrl => lib(LibAction::Char(c)),
            _ => None,
        },
        LibMode::Note => match key.code {
            KeyCode::Esc => lib(LibAction::NoteDone),
            _ => lib(LibAction::NoteKey((*key).into())),
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

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyModifiers;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn the_tables_resolve_hint_and_reach_the_help() {
        assert_eq!(
            resolve(&key(Char('/')), &LibMode::List),
            Some(Action::Library(LibAction::StartFilter))
        );
        assert_eq!(
            resolve(&key(End), &LibMode::List),
            Some(Action::Library(LibAction::Move(i64::MAX / 2)))
        );
        assert_eq!(
            resolve(&key(Char('n')), &LibMode::Review),
            Some(Action::Library(LibAction::Mark(false)))
        );
        assert_eq!(resolve(&key(Char('n')), &LibMode::List), None);
        assert_eq!(hints(&LibMode::List)[0], ("j/k", "move"));
        let help = help_rows();
        for b in LIST_BINDINGS.iter().chain(REVIEW_BINDINGS) {
            if let Some(h) = b.hint {
                assert!(
                    help.iter().any(|(l, _)| l == b.label),
                    "{} ({h}) is not in the help",
                    b.label
                );
            }
        }
    }
}
