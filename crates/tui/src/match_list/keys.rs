//! Keys while the match list is open: one table feeds the resolution, the
//! status-bar hints and the help (`?`).

use super::state::{MatchListAction, PAGE};
use crate::action::Action;
use crate::bindings::{
    self, Binding,
    KeyPattern::{Char, Code},
};
use ratatui::crossterm::event::{KeyCode, KeyEvent};

pub(crate) type MatchListBinding = Binding<MatchListAction, u8>;

pub(crate) static MATCH_LIST_BINDINGS: &[MatchListBinding] = &[
    Binding {
        keys: &[Code(KeyCode::Enter)],
        label: "Enter",
        help: "open the match with the library's verdicts",
        section: 1,
        hint: Some(("Enter", "open")),
        action: MatchListAction::Enter,
    },
    Binding {
        keys: &[Char('j'), Code(KeyCode::Down)],
        label: "j ↓",
        help: "next match",
        section: 2,
        hint: Some(("j k", "move")),
        action: MatchListAction::Move(1),
    },
    Binding {
        keys: &[Char('k'), Code(KeyCode::Up)],
        label: "k ↑",
        help: "previous",
        section: 2,
        hint: None,
        action: MatchListAction::Move(-1),
    },
    Binding {
        keys: &[Code(KeyCode::PageDown)],
        label: "PgDn",
        help: "a page down",
        section: 2,
        hint: None,
        action: MatchListAction::Page(PAGE),
    },
    Binding {
        keys: &[Code(KeyCode::PageUp)],
        label: "PgUp",
        help: "up",
        section: 2,
        hint: None,
        action: MatchListAction::Page(-PAGE),
    },
    Binding {
        keys: &[Char('g'), Code(KeyCode::Home)],
        label: "g",
        help: "first",
        section: 2,
        hint: None,
        action: MatchListAction::First,
    },
    Binding {
        keys: &[Char('G'), Code(KeyCode::End)],
        label: "G",
        help: "last",
        section: 2,
        hint: None,
        action: MatchListAction::Last,
    },
    Binding {
        keys: &[Char('o')],
        label: "o",
        help: "order: date, PR, opponent, length, result",
        section: 3,
        hint: Some(("o", "order")),
        action: MatchListAction::CycleSort,
    },
    Binding {
        keys: &[Char('/')],
        label: "/",
        help: "filter: player:NAME since:YYYY-MM-DD undated analysed, or words",
        section: 3,
        hint: Some(("/", "filter")),
        action: MatchListAction::AskFilter,
    },
    Binding {
        keys: &[Code(KeyCode::Esc), Char('q')],
        label: "Esc q",
        help: "back",
        section: 4,
        hint: Some(("Esc", "back")),
        action: MatchListAction::Close,
    },
];

/// The help's lines: each group's keys and words on one line.
pub(crate) fn help_rows() -> Vec<(String, String)> {
    bindings::grouped_help_rows(MATCH_LIST_BINDINGS)
}

pub(crate) fn resolve(key: &KeyEvent) -> Option<Action> {
    bindings::find(MATCH_LIST_BINDINGS, key).map(|b| Action::MatchList(b.action.clone()))
}

pub(crate) fn hints() -> Vec<(&'static str, &'static str)> {
    bindings::hints(MATCH_LIST_BINDINGS)
}
