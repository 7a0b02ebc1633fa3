//! The numbers panel's keys: its rows of the normal mode's bindings.

use super::state::NumbersAction;
use crate::action::Action;
use crate::bindings::{
    KeyPattern::{Char, Code},
    NormalBinding as Binding, Section,
};
use crate::panels::Panel;
use crate::prompt::state::PromptKind;
use ratatui::crossterm::event::KeyCode;

pub(crate) static BINDINGS: &[Binding] = &[
    Binding {
        keys: &[Char('#'), Code(KeyCode::PageUp), Code(KeyCode::PageDown)],
        label: "# PgUp/Dn",
        help: "numbers panel, scroll it",
        section: Section::Editor,
        hint: None,
        action: |k| match k.code {
            // Half a short panel at a time, so rows read on stay in view.
            KeyCode::PageUp => Action::Numbers(NumbersAction::Scroll(-6)),
            KeyCode::PageDown => Action::Numbers(NumbersAction::Scroll(6)),
            _ => Action::TogglePanel(Panel::Numbers),
        },
    },
    Binding {
        keys: &[Char('T')],
        label: "T",
        help: "load a MET file (gnubg XML)",
        section: Section::Editor,
        hint: None,
        action: |_| Action::OpenPrompt(PromptKind::MetFile),
    },
];
