//! Playing moves: the move line, picking up and dropping checkers, rolling
//! and passing, as rows of the normal mode's bindings.

use super::state::PlayAction;
use crate::action::Action;
use crate::bindings::{
    KeyPattern::{Char, Code},
    NormalBinding as Binding, Section,
};
use ratatui::crossterm::event::KeyCode;

pub(crate) static BINDINGS: &[Binding] = &[
    Binding {
        keys: &[Char('M')],
        label: "M",
        help: "play a move (Tab completes)",
        section: Section::Moves,
        hint: None,
        action: |_| Action::Play(PlayAction::OpenPrompt),
    },
    Binding {
        keys: &[Char(' '), Code(KeyCode::Esc)],
        label: "Space Esc",
        help: "pick up/drop; put back (or close a preview)",
        section: Section::Moves,
        hint: None,
        action: |k| {
            Action::Play(if k.code == KeyCode::Esc {
                PlayAction::PutBack
            } else {
                PlayAction::PickOrDrop
            })
        },
    },
    Binding {
        keys: &[Char('r'), Char('P')],
        label: "r P",
        help: "roll dice / pass the turn",
        section: Section::Moves,
        hint: None,
        action: |k| {
            Action::Play(if k.code == KeyCode::Char('P') {
                PlayAction::Pass
            } else {
                PlayAction::Roll
            })
        },
    },
];
