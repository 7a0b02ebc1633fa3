//! The copy keys of the normal mode: the IDs and the board text at once,
//! the menu of every format, the picture.

use crate::editor::action::{Action, CopyAction, CopyTarget};
use crate::editor::bindings::{KeyPattern::Char, NormalBinding as Binding, Section};

pub static BINDINGS: &[Binding] = &[
    Binding {
        keys: &[Char('y')],
        label: "y",
        help: "copy the GNUBG ID",
        section: Section::Ids,
        hint: Some(("y", "copy")),
        action: |_| Action::Copy(CopyAction::Text(CopyTarget::GnubgId)),
    },
    Binding {
        keys: &[Char('Y')],
        label: "Y",
        help: "copy the XGID",
        section: Section::Ids,
        hint: Some(("Y", "XGID")),
        action: |_| Action::Copy(CopyAction::Text(CopyTarget::Xgid)),
    },
    Binding {
        keys: &[Char('b')],
        label: "b",
        help: "copy the board text",
        section: Section::Ids,
        hint: None,
        action: |_| Action::Copy(CopyAction::Text(CopyTarget::BoardText)),
    },
    Binding {
        keys: &[Char('F')],
        label: "F",
        help: "copy menu: all formats",
        section: Section::Ids,
        hint: None,
        action: |_| Action::Copy(CopyAction::OpenMenu),
    },
    Binding {
        keys: &[Char('I')],
        label: "I",
        help: "save the picture (PNG)",
        section: Section::Ids,
        hint: None,
        action: |_| Action::Copy(CopyAction::Picture),
    },
];
