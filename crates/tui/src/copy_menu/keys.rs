//! The copy keys of the normal mode: the IDs and the board text at once,
//! the menu of every format, the picture.

use super::state::{ENTRIES, Entry, Item};
use crate::action::{Action, CopyAction, CopyTarget};
use crate::bindings::{KeyPattern::Char, NormalBinding as Binding, Section};

pub(crate) static BINDINGS: &[Binding] = &[
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

/// The action for a letter typed in the menu; any other key closes it.
pub(crate) fn resolve(ch: Option<char>) -> Action {
    match ch.and_then(|c| ENTRIES.iter().find(|e| e.key == c)) {
        Some(Entry {
            item: Item::Copy(target),
            ..
        }) => Action::Copy(CopyAction::Text(*target)),
        Some(Entry {
            item: Item::Picture,
            ..
        }) => Action::Copy(CopyAction::Picture),
        None => Action::Copy(CopyAction::CloseMenu),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_letter_is_distinct_and_resolves() {
        let mut seen = Vec::new();
        for e in ENTRIES {
            assert!(!seen.contains(&e.key), "{} twice", e.key);
            seen.push(e.key);
            assert_ne!(resolve(Some(e.key)), Action::Copy(CopyAction::CloseMenu));
        }
        assert_eq!(resolve(Some('Z')), Action::Copy(CopyAction::CloseMenu));
        assert_eq!(resolve(None), Action::Copy(CopyAction::CloseMenu));
    }
}
