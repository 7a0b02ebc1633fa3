//! The live views' key: its row of the normal mode's bindings.

use super::state::SensitivityAction;
use crate::action::Action;
use crate::bindings::{KeyPattern::Char, NormalBinding as Binding, Section};

pub(crate) static BINDINGS: &[Binding] = &[Binding {
    keys: &[Char('~')],
    label: "~",
    help: "live views by score and cube",
    section: Section::Editor,
    hint: None,
    action: |_| Action::Sensitivity(SensitivityAction::Toggle),
}];
