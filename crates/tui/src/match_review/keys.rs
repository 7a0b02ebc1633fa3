//! Keys while the match panel has them: one table feeds the resolution, the
//! status-bar hints and the help (`?`). The normal mode's `^O` (open) and
//! `v` (back to the match) are in `keymap::GLOBAL_BINDINGS`.

use super::state::{ReviewAction, Step};
use crate::action::Action;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// A key of the match panel: the editor's one binding shape, with the
/// panel's action; rows of one group (the section) share a line of the help.
pub(crate) type ReviewBinding = Binding<ReviewAction, u8>;

const fn walk(step: Step) -> ReviewAction {
    ReviewAction::Walk(step)
}

use crate::bindings::{
    self, Binding,
    KeyPattern::{Char, Code},
};
use KeyCode::{Down, End, Esc, Home, PageDown, PageUp, Up};

pub(crate) static REVIEW_BINDINGS: &[ReviewBinding] = &[
    Binding {
        keys: &[Char('j'), Code(Down)],
        label: "j ↓",
        help: "next",
        section: 1,
        hint: Some(("j", "next")),
        action: walk(Step::Next),
    },
    Binding {
        keys: &[Char('k'), Code(Up)],
        label: "k ↑",
        help: "previous decision",
        section: 1,
        hint: None,
        action: walk(Step::Previous),
    },
    Binding {
        keys: &[Char('n')],
        label: "n",
        help: "next",
        section: 2,
        hint: Some(("n", "mistakes")),
        action: walk(Step::NextMistake),
    },
    Binding {
        keys: &[Char('N')],
        label: "N",
        help: "previous mistake",
        section: 2,
        hint: None,
        action: walk(Step::PreviousMistake),
    },
    Binding {
        keys: &[Char('J'), Code(PageDown)],
        label: "J",
        help: "next",
        section: 3,
        hint: Some(("J", "games")),
        action: walk(Step::NextGame),
    },
    Binding {
        keys: &[Char('K'), Code(PageUp)],
        label: "K",
        help: "previous game",
        section: 3,
        hint: None,
        action: walk(Step::PreviousGame),
    },
    Binding {
        keys: &[Char('g'), Code(Home)],
        label: "g",
        help: "first",
        section: 4,
        hint: None,
        action: walk(Step::First),
    },
    Binding {
        keys: &[Char('G'), Code(End)],
        label: "G",
        help: "last decision",
        section: 4,
        hint: None,
        action: walk(Step::Last),
    },
    Binding {
        keys: &[Char('p')],
        label: "p",
        help: "whose mistakes",
        section: 5,
        hint: Some(("p", "whose")),
        action: ReviewAction::CycleWho,
    },
    Binding {
        keys: &[Char('t')],
        label: "t",
        help: "threshold",
        section: 5,
        hint: None,
        action: ReviewAction::AskThreshold,
    },
    Binding {
        keys: &[Char('+')],
        label: "+",
        help: "keep this",
        section: 6,
        hint: Some(("+", "keep")),
        action: ReviewAction::Keep,
    },
    Binding {
        keys: &[Char('*')],
        label: "*",
        help: "every mistake",
        section: 6,
        hint: Some(("*", "keep mistakes")),
        action: ReviewAction::KeepMistakes,
    },
    Binding {
        keys: &[Char('E')],
        label: "E",
        help: "gnubg analyses the match (at the panel's depth, never below the file's own)",
        section: 8,
        hint: None,
        action: ReviewAction::Analyse,
    },
    Binding {
        keys: &[Code(Esc)],
        label: "Esc",
        help: "keys to board",
        section: 7,
        hint: Some(("Esc", "board")),
        action: ReviewAction::ToBoard,
    },
    Binding {
        keys: &[Char('q')],
        label: "q",
        help: "close match",
        section: 7,
        hint: Some(("q", "close")),
        action: ReviewAction::Close,
    },
    Binding {
        keys: &[Char('S')],
        label: "S",
        help: "refused here (the starting position would leave the match: Esc first)",
        section: 9,
        hint: None,
        action: ReviewAction::StartRefused,
    },
    Binding {
        keys: &[Char('W')],
        label: "W",
        help: "write the match with the panel's verdicts as gnubg's SGF (asks the file)",
        section: 11,
        hint: None,
        action: ReviewAction::AskSaveSgf,
    },
    Binding {
        keys: &[Char('s')],
        label: "s",
        help: "statistics of the match (gnubg's table, costliest kinds, PR per game)",
        section: 10,
        hint: None,
        action: ReviewAction::Statistics,
    },
    Binding {
        keys: &[Char('f')],
        label: "f",
        help: "the board from one side: O's, X's, or the player on roll's",
        section: 11,
        hint: None,
        action: ReviewAction::CycleView,
    },
];

/// The help's lines: each group's keys and words on one line
/// (`j ↓ / k ↑`, `next decision / previous decision`).
pub(crate) fn help_rows() -> Vec<(String, String)> {
    bindings::grouped_help_rows(REVIEW_BINDINGS)
}

pub(crate) fn resolve(key: &KeyEvent) -> Option<Action> {
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return match key.code {
            KeyCode::Char('o') => Some(Action::Review(ReviewAction::AskPath)),
            _ => None,
        };
    }
    bindings::find(REVIEW_BINDINGS, key).map(|b| Action::Review(b.action.clone()))
}

pub(crate) fn hints() -> Vec<(&'static str, &'static str)> {
    bindings::hints(REVIEW_BINDINGS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn walking_keys_resolve_from_the_table() {
        assert_eq!(
            resolve(&key(KeyCode::Char('n'))),
            Some(Action::Review(walk(Step::NextMistake)))
        );
        assert_eq!(
            resolve(&key(PageUp)),
            Some(Action::Review(walk(Step::PreviousGame)))
        );
        assert_eq!(resolve(&key(KeyCode::Char('x'))), None);
        assert_eq!(
            resolve(&KeyEvent::new(KeyCode::Char('o'), KeyModifiers::CONTROL)),
            Some(Action::Review(ReviewAction::AskPath))
        );
    }

    #[test]
    fn the_help_has_every_key_of_the_table() {
        let rows = help_rows();
        for b in REVIEW_BINDINGS {
            assert!(
                rows.iter()
                    .any(|(l, h)| l.contains(b.label) && h.contains(b.help)),
                "{} is not in the help",
                b.label
            );
        }
        assert_eq!(rows.len(), 12);
        assert!(rows.iter().any(|(l, _)| l == "W"));
        assert!(rows.iter().any(|(l, _)| l == "f"));
        assert!(rows.iter().any(|(l, _)| l == "p / t"));
        assert!(hints().contains(&("n", "mistakes")));
    }
}
