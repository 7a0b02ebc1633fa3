//! The one shape of a key-bindings table, for every mode: the keys, how the
//! help (`?`) and the status-bar hints show them, where the help lists them,
//! and the action. The normal mode's tables (`keymap::NORMAL`), the input
//! line's (`keymap::PROMPT_BINDINGS`), the library's and the match panel's
//! are all `Binding`s, resolved, hinted and listed by the functions here, so
//! what a key does and what the screen says of it cannot drift apart.

use super::action::Action;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// A key a binding answers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyPattern {
    /// A character typed without Ctrl or Alt.
    Char(char),
    Ctrl(char),
    /// A key without Ctrl (arrows, Enter, Esc, F-keys, ...).
    Code(KeyCode),
    /// Any of the digits 1–9 (the binding's action gets the digit).
    Digit,
}

impl KeyPattern {
    pub(crate) fn matches(self, key: &KeyEvent) -> bool {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let alt = key.modifiers.contains(KeyModifiers::ALT);
        match (self, key.code) {
            (KeyPattern::Char(c), KeyCode::Char(k)) => !ctrl && !alt && k == c,
            (KeyPattern::Ctrl(c), KeyCode::Char(k)) => ctrl && k.eq_ignore_ascii_case(&c),
            (KeyPattern::Digit, KeyCode::Char('1'..='9')) => !ctrl && !alt,
            (KeyPattern::Code(c), code) => !ctrl && c == code,
            _ => false,
        }
    }
}

/// One row of a table. `A` is what the row does (a function of the key for
/// the normal mode, an action value for the panels); `S` is where the help
/// lists it (a section, a group of rows sharing a line, or nothing).
pub struct Binding<A: 'static, S: 'static = ()> {
    pub keys: &'static [KeyPattern],
    /// The keys as the help shows them; empty for a row the one before it
    /// names (`j/k` covers `k`).
    pub label: &'static str,
    pub help: &'static str,
    pub section: S,
    /// (keys, words) for the status-bar hints; `None` keeps it to the help.
    pub hint: Option<(&'static str, &'static str)>,
    pub action: A,
}

impl<A, S> Binding<A, S> {
    pub fn answers(&self, key: &KeyEvent) -> bool {
        self.keys.iter().any(|k| k.matches(key))
    }
}

/// A row of the normal mode's tables (the board's in `keymap`, the
/// features' in their folders): its action is a function of the key (a
/// digit, an arrow), and the help lists it under its section.
pub(crate) type NormalBinding = Binding<fn(&KeyEvent) -> Action, Section>;

/// Groups for the help overlay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    Cursor,
    Checkers,
    Board,
    Match,
    Ids,
    Moves,
    Editor,
}

impl Section {
    pub(crate) const ALL: [Section; 7] = [
        Section::Cursor,
        Section::Checkers,
        Section::Board,
        Section::Match,
        Section::Ids,
        Section::Moves,
        Section::Editor,
    ];

    pub(crate) fn title(self) -> &'static str {
        match self {
            Section::Cursor => "Cursor",
            Section::Checkers => "Checkers at the cursor",
            Section::Board => "Whole board",
            Section::Match => "Cube, dice and match",
            Section::Ids => "IDs",
            Section::Moves => "Moves and dice",
            Section::Editor => "Editor",
        }
    }
}

/// The row of `table` that answers `key`, if any.
pub(crate) fn find<'t, A, S>(
    table: &'t [Binding<A, S>],
    key: &KeyEvent,
) -> Option<&'t Binding<A, S>> {
    table.iter().find(|b| b.answers(key))
}

/// The status-bar hints of `table`, in its order.
pub(crate) fn hints<A, S>(table: &[Binding<A, S>]) -> Vec<(&'static str, &'static str)> {
    table.iter().filter_map(|b| b.hint).collect()
}

/// The help's rows of `table` with the bindings of one section on one line
/// (`j ↓ / k ↑`, `next decision / previous decision`).
pub(crate) fn grouped_help_rows<A, S: PartialEq + Clone>(
    table: &[Binding<A, S>],
) -> Vec<(String, String)> {
    let mut out: Vec<(S, String, String)> = Vec::new();
    for b in table {
        match out.last_mut() {
            Some((section, label, help)) if *section == b.section => {
                label.push_str(" / ");
                label.push_str(b.label);
                help.push_str(" / ");
                help.push_str(b.help);
            }
            _ => out.push((b.section.clone(), b.label.to_owned(), b.help.to_owned())),
        }
    }
    out.into_iter().map(|(_, l, h)| (l, h)).collect()
}

/// The help's rows of `table`: (keys, words), rows without a label left to
/// the one before them.
pub(crate) fn help_rows<A, S>(table: &[Binding<A, S>]) -> Vec<(String, String)> {
    table
        .iter()
        .filter(|b| !b.label.is_empty())
        .map(|b| (b.label.to_owned(), b.help.to_owned()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    static TABLE: &[Binding<u8>] = &[
        Binding {
            keys: &[KeyPattern::Char('j'), KeyPattern::Code(KeyCode::Down)],
            label: "j/k",
            help: "move",
            section: (),
            hint: Some(("j/k", "move")),
            action: 1,
        },
        Binding {
            keys: &[KeyPattern::Char('k')],
            label: "",
            help: "",
            section: (),
            hint: None,
            action: 2,
        },
        Binding {
            keys: &[KeyPattern::Ctrl('u')],
            label: "^U",
            help: "clear",
            section: (),
            hint: None,
            action: 3,
        },
    ];

    fn key(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    #[test]
    fn one_table_resolves_hints_and_helps() {
        let none = KeyModifiers::NONE;
        let find_action = |k| find(TABLE, &k).map(|b| b.action);
        assert_eq!(find_action(key(KeyCode::Down, none)), Some(1));
        assert_eq!(find_action(key(KeyCode::Char('k'), none)), Some(2));
        assert_eq!(
            find_action(key(KeyCode::Char('k'), KeyModifiers::ALT)),
            None
        );
        assert_eq!(
            find_action(key(KeyCode::Char('u'), KeyModifiers::CONTROL)),
            Some(3)
        );
        assert_eq!(find_action(key(KeyCode::Char('u'), none)), None);
        assert_eq!(hints(TABLE), vec![("j/k", "move")]);
        assert_eq!(help_rows(TABLE).len(), 2);
    }
}
