//! Keys while the match panel has them: one table feeds the resolution, the
//! status-bar hints and the help (`?`). The normal mode's `^O` (open) and
//! `v` (back to the match) are in `keymap::BINDINGS`.

use super::state::{ReviewAction, Step};
use crate::editor::action::Action;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

pub struct ReviewBinding {
    pub keys: &'static [KeyCode],
    /// The keys as the help and hints show them.
    pub label: &'static str,
    pub help: &'static str,
    /// Shown in the status-bar hints (the help has them all).
    pub hint: Option<&'static str>,
    /// Rows of one group share a line of the help.
    pub group: u8,
    pub action: ReviewAction,
}

const fn walk(step: Step) -> ReviewAction {
    ReviewAction::Walk(step)
}

use KeyCode::{Char, Down, End, Esc, Home, PageDown, PageUp, Up};

pub static REVIEW_BINDINGS: &[ReviewBinding] = &[
    ReviewBinding {
        keys: &[Char('j'), Down],
        label: "j ↓",
        group: 1,
        help: "next",
        hint: Some("next"),
        action: walk(Step::Next),
    },
    ReviewBinding {
        keys: &[Char('k'), Up],
        label: "k ↑",
        group: 1,
        help: "previous decision",
        hint: None,
        action: walk(Step::Previous),
    },
    ReviewBinding {
        keys: &[Char('n')],
        label: "n",
        group: 2,
        help: "next",
        hint: Some("mistakes"),
        action: walk(Step::NextMistake),
    },
    ReviewBinding {
        keys: &[Char('N')],
        label: "N",
        group: 2,
        help: "previous mistake",
        hint: None,
        action: walk(Step::PreviousMistake),
    },
    ReviewBinding {
        keys: &[Char('J'), PageDown],
        label: "J",
        group: 3,
        help: "next",
        hint: Some("games"),
        action: walk(Step::NextGame),
    },
    ReviewBinding {
        keys: &[Char('K'), PageUp],
        label: "K",
        group: 3,
        help: "previous game",
        hint: None,
        action: walk(Step::PreviousGame),
    },
    ReviewBinding {
        keys: &[Char('g'), Home],
        label: "g",
        group: 4,
        help: "first",
        hint: None,
        action: walk(Step::First),
    },
    ReviewBinding {
        keys: &[Char('G'), End],
        label: "G",
        group: 4,
        help: "last decision",
        hint: None,
        action: walk(Step::Last),
    },
    ReviewBinding {
        keys: &[Char('p')],
        label: "p",
        group: 5,
        help: "whose mistakes",
        hint: Some("whose"),
        action: ReviewAction::CycleWho,
    },
    ReviewBinding {
        keys: &[Char('t')],
        label: "t",
        help: "threshold",
        hint: None,
        group: 5,
        action: ReviewAction::AskThreshold,
    },
    ReviewBinding {
        keys: &[Char('+')],
        label: "+",
        group: 6,
        help: "keep this",
        hint: Some("keep"),
        action: ReviewAction::Keep,
    },
    ReviewBinding {
        keys: &[Char('*')],
        label: "*",
        group: 6,
        help: "every mistake",
        hint: Some("keep mistakes"),
        action: ReviewAction::KeepMistakes,
    },
    ReviewBinding {
        keys: &[Char('E')],
        label: "E",
        group: 8,
        help: "gnubg analyses the match",
        hint: None,
        action: ReviewAction::AnalyseWithGnubg,
    },
    ReviewBinding {
        keys: &[Esc],
        label: "Esc",
        group: 7,
        help: "keys to board",
        hint: Some("board"),
        action: ReviewAction::ToBoard,
    },
    ReviewBinding {
        keys: &[Char('q')],
        label: "q",
        group: 7,
        help: "close match",
        hint: Some("close"),
        action: ReviewAction::Close,
    },
];

/// The help's lines: each group's keys and words on one line
/// (`j ↓ / k ↑`, `next decision / previous decision`).
pub fn help_rows() -> Vec<(String, String)> {
    let mut out: Vec<(u8, String, String)> = Vec::new();
    for b in REVIEW_BINDINGS {
        match out.last_mut() {
            Some((g, label, help)) if *g == b.group => {
                label.push_str(" / ");
                label.push_str(b.label);
                help.push_str(" / ");
                help.push_str(b.help);
            }
            _ => out.push((b.group, b.label.to_owned(), b.help.to_owned())),
        }
    }
    out.into_iter().map(|(_, l, h)| (l, h)).collect()
}

pub fn resolve(key: &KeyEvent) -> Option<Action> {
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return match key.code {
            Char('o') => Some(Action::Review(ReviewAction::AskPath)),
            _ => None,
        };
    }
    REVIEW_BINDINGS
        .iter()
        .find(|b| b.keys.contains(&key.code))
        .map(|b| Action::Review(b.action.clone()))
}

pub fn hints() -> Vec<(&'static str, &'static str)> {
    REVIEW_BINDINGS
        .iter()
        .filter_map(|b| {
            b.hint
                .map(|h| (b.label.split(' ').next().unwrap_or(b.label), h))
        })
        .collect()
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
            resolve(&key(Char('n'))),
            Some(Action::Review(walk(Step::NextMistake)))
        );
        assert_eq!(
            resolve(&key(PageUp)),
            Some(Action::Review(walk(Step::PreviousGame)))
        );
        assert_eq!(resolve(&key(Char('x'))), None);
        assert_eq!(
            resolve(&KeyEvent::new(Char('o'), KeyModifiers::CONTROL)),
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
        assert_eq!(rows.len(), 8);
        assert!(rows.iter().any(|(l, _)| l == "p / t"));
        assert!(hints().contains(&("n", "mistakes")));
    }
}
