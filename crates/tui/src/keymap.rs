//! Keys and mouse to actions: a pure function of the event and the mode.
//!
//! [`NORMAL`] is the normal mode's bindings, each feature's table in turn;
//! the input line has [`PROMPT_BINDINGS`]. Key resolution, the help overlay
//! and the status-bar hints all read them, so they cannot drift apart.

use super::action::{Action, BoardAction, PromptAction};
use super::copy_menu;
use super::library::state::{LibAction, LibMode, ListAction};
use super::match_review::state::ReviewAction;
use super::model::Mode;
use super::play::state::PlayAction;
use super::prompt::state::PromptKind;
use bgedit_core::domain::Place;
use ratatui::crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

pub(crate) use super::bindings::KeyPattern;

pub(crate) use super::bindings::Section;

pub(crate) use super::bindings::NormalBinding as Binding;

use KeyPattern::{Char, Code, Ctrl};

fn match_key(key: &KeyEvent) -> Action {
    Action::Review(if key.modifiers.contains(KeyModifiers::CONTROL) {
        ReviewAction::AskPath
    } else {
        ReviewAction::Focus
    })
}

fn library_key(key: &KeyEvent) -> Action {
    Action::Library(LibAction::List(match key.code {
        KeyCode::Char('+') => ListAction::StartAdd,
        KeyCode::Char('Q') => ListAction::LikeBoard,
        _ => ListAction::Open,
    }))
}

/// Pasting and typing an ID.
pub(crate) static IMPORT_BINDINGS: &[Binding] = &[
    Binding {
        keys: &[Char('p'), Ctrl('v')],
        label: "p ^V",
        help: "paste an ID (clipboard)",
        section: Section::Ids,
        hint: Some(("p", "paste")),
        action: |_| Action::Paste,
    },
    Binding {
        keys: &[Char('i')],
        label: "i",
        help: "type or paste any ID",
        section: Section::Ids,
        hint: Some(("i", "ID")),
        action: |_| Action::OpenPrompt(PromptKind::Import),
    },
];

/// Undo and redo.
pub(crate) static HISTORY_BINDINGS: &[Binding] = &[
    Binding {
        keys: &[Char('u')],
        label: "u",
        help: "undo",
        section: Section::Editor,
        hint: Some(("u", "undo")),
        action: |_| Action::Undo,
    },
    Binding {
        keys: &[Char('U'), Ctrl('r')],
        label: "U ^R",
        help: "redo",
        section: Section::Editor,
        hint: None,
        action: |_| Action::Redo,
    },
];

/// The normal mode's tables, in the help's order: the board's, the copy
/// menu's, pasting, playing, undo, the analysis panel's, the numbers
/// panel's, the editor's own. Each feature keeps its rows with its code
/// (`board/keys.rs`, `copy_menu/keys.rs`, `play/keys.rs`,
/// `analysis/keys.rs`, `numbers/keys.rs`); resolution, hints and the help
/// read them all through here.
pub(crate) static NORMAL: &[&[Binding]] = &[
    super::board::keys::BINDINGS,
    super::copy_menu::keys::BINDINGS,
    IMPORT_BINDINGS,
    super::play::keys::BINDINGS,
    HISTORY_BINDINGS,
    super::analysis::keys::BINDINGS,
    super::numbers::keys::BINDINGS,
    super::sensitivity::keys::BINDINGS,
    GLOBAL_BINDINGS,
];

/// Every binding of the normal mode, in order.
pub fn normal_bindings() -> impl Iterator<Item = &'static Binding> {
    NORMAL.iter().flat_map(|t| t.iter())
}

fn normal_key(key: &KeyEvent) -> Option<Action> {
    normal_bindings()
        .find(|b| b.answers(key))
        .map(|b| (b.action)(key))
}

/// The editor's own keys: the panels' openers, help, messages, quitting.
pub(crate) static GLOBAL_BINDINGS: &[Binding] = &[
    Binding {
        keys: &[Char('+'), Char('L')],
        label: "+ L",
        help: "library: add / open, focus",
        section: Section::Editor,
        hint: None,
        action: library_key,
    },
    Binding {
        keys: &[Char('Q')],
        label: "Q",
        help: "library: positions like it",
        section: Section::Editor,
        hint: None,
        action: library_key,
    },
    Binding {
        keys: &[Ctrl('o'), Char('v')],
        label: "^O v",
        help: "match: open file, panel",
        section: Section::Editor,
        hint: None,
        action: match_key,
    },
    Binding {
        keys: &[Ctrl('l')],
        label: "^L",
        help: "the library's matches: list, open with their verdicts",
        section: Section::Editor,
        hint: None,
        action: |_| Action::MatchList(super::match_list::state::MatchListAction::Open),
    },
    Binding {
        keys: &[Char('?'), Code(KeyCode::F(1))],
        label: "? F1",
        help: "help",
        section: Section::Editor,
        hint: Some(("?", "help")),
        action: |_| Action::ToggleHelp,
    },
    Binding {
        keys: &[Char('H')],
        label: "H",
        help: "messages and all warnings",
        section: Section::Editor,
        hint: None,
        action: |_| Action::ToggleMessages,
    },
    Binding {
        keys: &[Char('q'), Ctrl('c')],
        label: "q ^C",
        help: "quit (prints the IDs)",
        section: Section::Editor,
        hint: Some(("q", "quit")),
        action: |_| Action::Quit,
    },
];

pub(crate) use super::prompt::keys::{PROMPT_BINDINGS, YES_NO_BINDINGS};

fn is_press(key: &KeyEvent) -> bool {
    matches!(key.kind, KeyEventKind::Press | KeyEventKind::Repeat)
}

/// The action for a key in a mode, if any.
pub fn resolve_key(key: &KeyEvent, mode: &Mode) -> Option<Action> {
    if !is_press(key) {
        return None;
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    if ctrl && key.code == KeyCode::Char('c') {
        return Some(Action::Quit);
    }
    match mode {
        // Arrows and page keys turn the help's pages; any other key closes it.
        Mode::Help => Some(match key.code {
            KeyCode::Down | KeyCode::PageDown | KeyCode::Char('j' | ' ') => Action::HelpPage(1),
            KeyCode::Up | KeyCode::PageUp | KeyCode::Char('k') => Action::HelpPage(-1),
            _ => Action::ToggleHelp,
        }),
        Mode::Messages => Some(Action::ToggleMessages),
        // A yes/no question: its table; Esc is no (as before, via cancel).
        Mode::Prompt(p) if p.kind.is_yes_no() && key.code == KeyCode::Enter => {
            super::bindings::find(YES_NO_BINDINGS, key).map(|b| (b.action)(key))
        }
        // A letter of the menu, or any other key to close it.
        Mode::CopyMenu => Some(copy_menu::keys::resolve(match key.code {
            KeyCode::Char(c) if !ctrl => Some(c),
            _ => None,
        })),
        // The line's table, then any other character is typed.
        Mode::Prompt(_) => super::bindings::find(PROMPT_BINDINGS, key)
            .map(|b| (b.action)(key))
            .or(match key.code {
                KeyCode::Char(c) if !ctrl => Some(Action::Prompt(PromptAction::Char(c))),
                _ => None,
            }),
        Mode::Normal => normal_key(key),
        // The panel's keys, and the help from its lists (where `?` is not
        // text being typed).
        Mode::Library(sub) => super::library::keys::resolve(key, sub).or_else(|| {
            (matches!(sub, LibMode::List | LibMode::Review)
                && matches!(key.code, KeyCode::Char('?') | KeyCode::F(1)))
            .then_some(Action::ToggleHelp)
        }),
        // The panel's keys first; any other key is the board's (an edit
        // then leaves the match, `v` comes back).
        Mode::Review => super::match_review::keys::resolve(key).or_else(|| normal_key(key)),
        // Its keys, and the help; nothing reaches the board behind it.
        Mode::Statistics => super::statistics::keys::resolve(key).or_else(|| {
            matches!(key.code, KeyCode::Char('?') | KeyCode::F(1)).then_some(Action::ToggleHelp)
        }),
        Mode::Matches => super::match_list::keys::resolve(key).or_else(|| {
            matches!(key.code, KeyCode::Char('?') | KeyCode::F(1)).then_some(Action::ToggleHelp)
        }),
    }
}

/// Text pasted through the terminal (bracketed paste): an ID to read, or
/// more text for the input line.
pub(crate) fn resolve_paste(text: String, mode: &Mode) -> Option<Action> {
    match mode {
        Mode::Prompt(_) => Some(Action::Prompt(PromptAction::Paste(text))),
        Mode::Normal => Some(Action::Import(text)),
        Mode::Help | Mode::Messages | Mode::CopyMenu | Mode::Statistics | Mode::Matches => None,
        Mode::Library(sub) => super::library::keys::paste(text, sub),
        // A match pasted over the one being reviewed replaces it; a
        // position is an edit of the board, which leaves the match.
        Mode::Review => Some(Action::Import(text)),
    }
}

/// The action for a mouse event; `hit` says which place is at a cell.
pub(crate) fn resolve_mouse(
    event: &MouseEvent,
    mode: &Mode,
    hit: impl Fn(u16, u16) -> Option<Place>,
) -> Option<Action> {
    if *mode != Mode::Normal {
        return None;
    }
    let place = hit(event.column, event.row)?;
    // Ctrl-, Alt- or Shift-click adds at once (where the terminal passes it
    // on; many keep Shift-click for their own selection).
    let modified = event
        .modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT);
    match event.kind {
        MouseEventKind::Down(MouseButton::Left) if modified => {
            Some(Action::Board(BoardAction::AddAt(place)))
        }
        MouseEventKind::Down(MouseButton::Left) => Some(Action::Board(BoardAction::Click(place))),
        MouseEventKind::Down(MouseButton::Right) => {
            Some(Action::Board(BoardAction::RightClick(place)))
        }
        MouseEventKind::Drag(MouseButton::Left) => Some(Action::Play(PlayAction::DragTo(place))),
        MouseEventKind::Up(MouseButton::Left) => Some(Action::Play(PlayAction::Release(place))),
        MouseEventKind::ScrollUp => Some(Action::Board(BoardAction::Scroll(place, 1))),
        MouseEventKind::ScrollDown => Some(Action::Board(BoardAction::Scroll(place, -1))),
        _ => None,
    }
}

/// The status-bar hints for a mode: (keys, words), from the same tables.
pub(crate) fn hints(mode: &Mode) -> Vec<(&'static str, &'static str)> {
    match mode {
        Mode::Normal => normal_bindings().filter_map(|b| b.hint).collect(),
        Mode::Prompt(p) if p.kind.is_yes_no() => super::bindings::hints(YES_NO_BINDINGS),
        // Tab completes a move and a file name only.
        Mode::Prompt(p) => super::bindings::hints(PROMPT_BINDINGS)
            .into_iter()
            .filter(|(k, _)| *k != "Tab" || p.kind.completes())
            .collect(),
        Mode::Help => vec![("↓ ↑", "pages"), ("any other key", "closes the help")],
        Mode::Messages => vec![("any key", "closes the messages")],
        Mode::CopyMenu => vec![("letter", "copies"), ("any other key", "closes")],
        // The help's key last: the footer keeps it when others are cut.
        Mode::Library(sub @ (LibMode::List | LibMode::Review)) => {
            let mut hints = super::library::keys::hints(sub);
            hints.push(("?", "all keys"));
            hints
        }
        Mode::Library(sub) => super::library::keys::hints(sub),
        Mode::Review => {
            let mut hints = super::match_review::keys::hints();
            hints.push(("?", "all keys"));
            hints
        }
        Mode::Statistics => {
            let mut hints = super::statistics::keys::hints();
            hints.push(("?", "all keys"));
            hints
        }
        Mode::Matches => {
            let mut hints = super::match_list::keys::hints();
            hints.push(("?", "all keys"));
            hints
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::{CopyAction, CopyTarget, Direction};
    use crate::prompt::state::Motion;
    use crate::prompt::state::Prompt;
    use bgedit_core::domain::Player;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn keys_resolve_to_actions_in_normal_mode() {
        let n = Mode::Normal;
        assert_eq!(
            resolve_key(&key(KeyCode::Char('x')), &n),
            Some(Action::Board(BoardAction::AddChecker(Player::X)))
        );
        assert_eq!(
            resolve_key(&key(KeyCode::Left), &n),
            Some(Action::Board(BoardAction::Move(Direction::Left)))
        );
        assert_eq!(
            resolve_key(&key(KeyCode::Char('l')), &n),
            Some(Action::Board(BoardAction::Move(Direction::Right)))
        );
        assert_eq!(
            resolve_key(&key(KeyCode::Char('7')), &n),
            Some(Action::Board(BoardAction::SetCount(None, 7)))
        );
        assert_eq!(
            resolve_key(&key(KeyCode::Char('0')), &n),
            Some(Action::Board(BoardAction::ClearPlace))
        );
        assert_eq!(
            resolve_key(&key(KeyCode::Char('y')), &n),
            Some(Action::Copy(CopyAction::Text(CopyTarget::GnubgId)))
        );
        assert_eq!(
            resolve_key(&key(KeyCode::Char('Y')), &n),
            Some(Action::Copy(CopyAction::Text(CopyTarget::Xgid)))
        );
        assert_eq!(
            resolve_key(
                &KeyEvent::new(KeyCode::Char('r'), KeyModifiers::CONTROL),
                &n
            ),
            Some(Action::Redo)
        );
        assert_eq!(
            resolve_key(
                &KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL),
                &n
            ),
            Some(Action::Quit)
        );
        assert_eq!(resolve_key(&key(KeyCode::Char('Z')), &n), None);
    }

    #[test]
    fn releases_are_ignored() {
        let mut k = key(KeyCode::Char('x'));
        k.kind = KeyEventKind::Release;
        assert_eq!(resolve_key(&k, &Mode::Normal), None);
    }

    #[test]
    fn the_input_lines_table_resolves_and_hints() {
        let ctrl = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL);
        let line = Mode::Prompt(Prompt::new(PromptKind::Import));
        let moves = Mode::Prompt(Prompt::new(PromptKind::Move));
        assert_eq!(
            resolve_key(&key(KeyCode::Tab), &moves),
            Some(Action::Prompt(PromptAction::Complete))
        );
        assert_eq!(
            resolve_key(&ctrl('a'), &line),
            Some(Action::Prompt(PromptAction::Move(Motion::Home)))
        );
        assert_eq!(
            resolve_key(&ctrl('e'), &line),
            Some(Action::Prompt(PromptAction::Move(Motion::End)))
        );
        assert_eq!(
            resolve_key(&ctrl('u'), &line),
            Some(Action::Prompt(PromptAction::Clear))
        );
        assert_eq!(
            resolve_key(&key(KeyCode::Backspace), &line),
            Some(Action::Prompt(PromptAction::Backspace))
        );
        // Tab is hinted where it completes; every hint is a row of the table.
        assert!(hints(&moves).contains(&("Tab", "complete")));
        assert!(!hints(&line).iter().any(|(k, _)| *k == "Tab"));
        for (k, _) in hints(&line) {
            assert!(
                PROMPT_BINDINGS
                    .iter()
                    .any(|b| b.hint.is_some_and(|h| h.0 == k))
            );
        }
    }

    #[test]
    fn the_prompt_takes_text() {
        let m = Mode::Prompt(Prompt::new(PromptKind::Import));
        assert_eq!(
            resolve_key(&key(KeyCode::Char('x')), &m),
            Some(Action::Prompt(PromptAction::Char('x')))
        );
        assert_eq!(
            resolve_key(&key(KeyCode::Char('q')), &m),
            Some(Action::Prompt(PromptAction::Char('q')))
        );
        assert_eq!(
            resolve_key(&key(KeyCode::Enter), &m),
            Some(Action::Prompt(PromptAction::Submit))
        );
        assert_eq!(
            resolve_key(&key(KeyCode::Esc), &m),
            Some(Action::Prompt(PromptAction::Cancel))
        );
        for (code, action) in [
            (
                KeyCode::Left,
                Action::Prompt(PromptAction::Move(Motion::Left)),
            ),
            (
                KeyCode::Right,
                Action::Prompt(PromptAction::Move(Motion::Right)),
            ),
            (
                KeyCode::Home,
                Action::Prompt(PromptAction::Move(Motion::Home)),
            ),
            (
                KeyCode::End,
                Action::Prompt(PromptAction::Move(Motion::End)),
            ),
            (KeyCode::Delete, Action::Prompt(PromptAction::Delete)),
        ] {
            assert_eq!(resolve_key(&key(code), &m), Some(action));
        }
        assert_eq!(
            resolve_key(
                &KeyEvent::new(KeyCode::Char('w'), KeyModifiers::CONTROL),
                &m
            ),
            Some(Action::Prompt(PromptAction::DeleteWord))
        );
        // A yes/no question: Enter is yes.
        let question = Mode::Prompt(Prompt::new(PromptKind::CrawfordOffer(Player::X)));
        assert_eq!(
            resolve_key(&key(KeyCode::Enter), &question),
            Some(Action::Prompt(PromptAction::Char('y')))
        );
        assert_eq!(
            resolve_paste("abc".into(), &m),
            Some(Action::Prompt(PromptAction::Paste("abc".into())))
        );
        assert_eq!(
            resolve_paste("abc".into(), &Mode::Normal),
            Some(Action::Import("abc".into()))
        );
    }

    #[test]
    fn any_key_closes_help() {
        assert_eq!(
            resolve_key(&key(KeyCode::Char('x')), &Mode::Help),
            Some(Action::ToggleHelp)
        );
    }

    #[test]
    fn no_key_is_bound_twice() {
        let mut seen = Vec::new();
        for b in normal_bindings() {
            for k in b.keys {
                assert!(!seen.contains(k), "{k:?} bound twice");
                seen.push(*k);
            }
        }
    }

    #[test]
    fn hints_come_from_the_table() {
        let hints = hints(&Mode::Normal);
        assert!(hints.contains(&("y", "copy")));
        assert!(hints.contains(&("?", "help")));
        // Every hint's key is one of its binding's keys, as the help shows them.
        for b in normal_bindings() {
            if let Some((key, _)) = b.hint {
                assert!(b.label.contains(key), "{key} in {}", b.label);
            }
        }
        assert_eq!(
            hints.len(),
            normal_bindings().filter(|b| b.hint.is_some()).count()
        );
    }

    #[test]
    fn mouse_buttons_map_to_edits() {
        let hit = |c: u16, _r: u16| (c == 5).then_some(Place::Point(3));
        let ev = |kind| MouseEvent {
            kind,
            column: 5,
            row: 1,
            modifiers: KeyModifiers::NONE,
        };
        assert_eq!(
            resolve_mouse(
                &ev(MouseEventKind::Down(MouseButton::Left)),
                &Mode::Normal,
                hit
            ),
            Some(Action::Board(BoardAction::Click(Place::Point(3))))
        );
        assert_eq!(
            resolve_mouse(&ev(MouseEventKind::ScrollDown), &Mode::Normal, hit),
            Some(Action::Board(BoardAction::Scroll(Place::Point(3), -1)))
        );
        let mut alt_click = ev(MouseEventKind::Down(MouseButton::Left));
        alt_click.modifiers = KeyModifiers::ALT;
        assert_eq!(
            resolve_mouse(&alt_click, &Mode::Normal, hit),
            Some(Action::Board(BoardAction::AddAt(Place::Point(3))))
        );
        assert_eq!(
            resolve_mouse(
                &ev(MouseEventKind::Down(MouseButton::Right)),
                &Mode::Help,
                hit
            ),
            None
        );
    }
}
