//! The analysis panel's keys: its rows of the normal mode's bindings
//! (`keymap::normal_bindings` puts the features' tables together, in the
//! help's order).

use crate::action::AnalysisAction;
use crate::action::{Action, CopyAction, CopyTarget};
use crate::bindings::{
    KeyPattern::{Char, Code},
    NormalBinding as Binding, Section,
};
use crate::panels::Panel;
use ratatui::crossterm::event::KeyCode;

/// Three rows of help for eight keys, so the 80×24 help fits.
pub(crate) static BINDINGS: &[Binding] = &[
    Binding {
        keys: &[Char('A'), Char('a'), Char('<'), Char('>')],
        label: "A a < >",
        help: "panel, analyse deeper, depth",
        section: Section::Editor,
        hint: None,
        action: |k| match k.code {
            KeyCode::Char('A') => Action::TogglePanel(Panel::Analysis),
            KeyCode::Char('<') => Action::Analysis(AnalysisAction::ChangeDepth(-1)),
            KeyCode::Char('>') => Action::Analysis(AnalysisAction::ChangeDepth(1)),
            _ => Action::Analysis(AnalysisAction::Deepen),
        },
    },
    Binding {
        keys: &[Char('['), Char(']'), Code(KeyCode::Enter)],
        label: "[ ] ⏎",
        help: "preview a move, play it",
        section: Section::Editor,
        hint: None,
        action: |k| match k.code {
            KeyCode::Char('[') => Action::Analysis(AnalysisAction::SelectMove(-1)),
            KeyCode::Char(']') => Action::Analysis(AnalysisAction::SelectMove(1)),
            KeyCode::Enter => Action::Analysis(AnalysisAction::PlaySelected),
            _ => Action::Analysis(AnalysisAction::LeavePreview),
        },
    },
    Binding {
        keys: &[Char('O'), Char('z')],
        label: "O z",
        help: "roll out (Esc); engine",
        section: Section::Editor,
        hint: None,
        action: |k| match k.code {
            KeyCode::Char('z') => Action::Analysis(AnalysisAction::CycleEngine),
            _ => Action::Analysis(AnalysisAction::Rollout),
        },
    },
    Binding {
        keys: &[Char('V')],
        label: "V",
        help: "score matrix on/off",
        section: Section::Editor,
        hint: None,
        action: |_| Action::Analysis(AnalysisAction::ToggleMatrix),
    },
    Binding {
        keys: &[Char('%'), Char('w')],
        label: "% w",
        help: "MWC/equity, copy analysis",
        section: Section::Editor,
        hint: None,
        action: |k| {
            if k.code == KeyCode::Char('w') {
                Action::Copy(CopyAction::Text(CopyTarget::Analysis))
            } else {
                Action::Analysis(AnalysisAction::ToggleUnits)
            }
        },
    },
];
