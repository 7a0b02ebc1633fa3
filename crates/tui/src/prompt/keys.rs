//! The input line's keys: one table for resolution, hints and the help.

use super::state::Motion;
use crate::action::{Action, PromptAction};
use crate::bindings::{
    Binding,
    KeyPattern::{Char, Code, Ctrl},
};
use ratatui::crossterm::event::{KeyCode, KeyEvent};

/// A row of the input line's table (the help lists it; no section).
pub(crate) type LineBinding = Binding<fn(&KeyEvent) -> Action>;

fn prompt_motion(key: &KeyEvent) -> Action {
    Action::Prompt(PromptAction::Move(match key.code {
        KeyCode::Left => Motion::Left,
        KeyCode::Right => Motion::Right,
        KeyCode::Home | KeyCode::Char('a') => Motion::Home,
        _ => Motion::End,
    }))
}

/// The input line's keys: one table for resolution, hints and the help.
/// Any other character is typed into the line.
pub(crate) static PROMPT_BINDINGS: &[LineBinding] = &[
    LineBinding {
        keys: &[Code(KeyCode::Enter)],
        label: "Enter",
        help: "apply the line",
        section: (),
        hint: Some(("Enter", "apply")),
        action: |_| Action::Prompt(PromptAction::Submit),
    },
    LineBinding {
        keys: &[Code(KeyCode::Tab)],
        label: "Tab",
        help: "complete (a move, a file name)",
        section: (),
        hint: Some(("Tab", "complete")),
        action: |_| Action::Prompt(PromptAction::Complete),
    },
    LineBinding {
        keys: &[Code(KeyCode::Esc)],
        label: "Esc",
        help: "cancel",
        section: (),
        hint: Some(("Esc", "cancel")),
        action: |_| Action::Prompt(PromptAction::Cancel),
    },
    LineBinding {
        keys: &[
            Code(KeyCode::Left),
            Code(KeyCode::Right),
            Code(KeyCode::Home),
            Code(KeyCode::End),
            Ctrl('a'),
            Ctrl('e'),
        ],
        label: "←→ ^A ^E",
        help: "move in the line (Home End too)",
        section: (),
        hint: Some(("←→ Home End", "move")),
        action: prompt_motion,
    },
    LineBinding {
        keys: &[Code(KeyCode::Backspace), Code(KeyCode::Delete)],
        label: "⌫ Del",
        help: "delete a character",
        section: (),
        hint: None,
        action: |k| {
            if k.code == KeyCode::Delete {
                Action::Prompt(PromptAction::Delete)
            } else {
                Action::Prompt(PromptAction::Backspace)
            }
        },
    },
    LineBinding {
        keys: &[Ctrl('w')],
        label: "^W",
        help: "delete a word",
        section: (),
        hint: Some(("^W", "delete word")),
        action: |_| Action::Prompt(PromptAction::DeleteWord),
    },
    LineBinding {
        keys: &[Ctrl('u')],
        label: "^U",
        help: "clear the line",
        section: (),
        hint: Some(("^U", "clear")),
        action: |_| Action::Prompt(PromptAction::Clear),
    },
];

/// A yes/no question in the input line: its keys and hints (the keys are
/// typed, so `y` and `n` reach the question as characters).
pub(crate) static YES_NO_BINDINGS: &[LineBinding] = &[
    LineBinding {
        keys: &[Char('y'), Code(KeyCode::Enter)],
        label: "y Enter",
        help: "yes",
        section: (),
        hint: Some(("y Enter", "yes")),
        action: |_| Action::Prompt(PromptAction::Char('y')),
    },
    LineBinding {
        keys: &[Char('n'), Code(KeyCode::Esc)],
        label: "n Esc",
        help: "no",
        section: (),
        hint: Some(("n Esc", "no")),
        action: |_| Action::Prompt(PromptAction::Char('n')),
    },
];
