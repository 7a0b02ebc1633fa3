//! Keys while the statistics view is open: one table feeds the resolution,
//! the status-bar hints and the help (`?`).

use super::state::StatisticsAction;
use crate::action::Action;
use crate::bindings::{
    self, Binding,
    KeyPattern::{Char, Code},
};
use ratatui::crossterm::event::{KeyCode, KeyEvent};

pub(crate) type StatisticsBinding = Binding<StatisticsAction, u8>;

pub(crate) static STATISTICS_BINDINGS: &[StatisticsBinding] = &[
    Binding {
        keys: &[Char('j'), Code(KeyCode::Down)],
        label: "j ↓",
        help: "scroll the table down",
        section: 1,
        hint: Some(("j k", "scroll")),
        action: StatisticsAction::Scroll(1),
    },
    Binding {
        keys: &[Char('k'), Code(KeyCode::Up)],
        label: "k ↑",
        help: "up",
        section: 1,
        hint: None,
        action: StatisticsAction::Scroll(-1),
    },
    Binding {
        keys: &[Char('t')],
        label: "t",
        help: "a player's decisions by plan, class, score, kind; then matches",
        section: 2,
        // In the help, not the footer: only a player's view has themes.
        hint: None,
        action: StatisticsAction::NextTheme,
    },
    Binding {
        keys: &[Code(KeyCode::Esc), Char('q'), Char('s')],
        label: "Esc q s",
        help: "back to the match (or to the library)",
        section: 3,
        hint: Some(("Esc", "back")),
        action: StatisticsAction::Close,
    },
];

/// The help's lines: each group's keys and words on one line.
pub(crate) fn help_rows() -> Vec<(String, String)> {
    bindings::grouped_help_rows(STATISTICS_BINDINGS)
}

pub(crate) fn resolve(key: &KeyEvent) -> Option<Action> {
    bindings::find(STATISTICS_BINDINGS, key).map(|b| Action::Statistics(b.action.clone()))
}

pub(crate) fn hints() -> Vec<(&'static str, &'static str)> {
    bindings::hints(STATISTICS_BINDINGS)
}
