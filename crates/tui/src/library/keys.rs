//! Keys inside the library panel, review and note editor: the list's and
//! the review's tables feed the resolution, the status-bar hints and the
//! help (`?`) alike; the input modes (filter, questions, note) take text.
//! The normal mode's `+` and `L` are in `keymap::BOARD_BINDINGS`'s neighbour `GLOBAL_BINDINGS`.

use super::state::{
    Ask, LibAction, LibMode, LineAction, ListAction, NoteAction, QuizAction, Review,
};
use crate::action::Action;
use bgedit_engine::match_analysis::QuizAnswer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// One key of the list or the review: the editor's one binding shape,
/// with the panel's action.
pub(crate) type LibBinding = Binding<LibAction>;

use crate::bindings::{
    self, Binding,
    KeyPattern::{Char, Code},
};
use KeyCode::{Delete, Down, End, Enter, Esc, Home, PageDown, PageUp, Up};

/// The list's keys: one table for resolution, hints and the help.
pub(crate) static LIST_BINDINGS: &[LibBinding] = &[
    Binding {
        keys: &[Char('j'), Code(Down)],
        label: "j/k",
        help: "move (↓ ↑ PgDn PgUp g G)",
        section: (),
        hint: Some(("j/k", "move")),
        action: LibAction::List(ListAction::Move(1)),
    },
    Binding {
        keys: &[Char('k'), Code(Up)],
        label: "",
        help: "",
        section: (),
        hint: None,
        action: LibAction::List(ListAction::Move(-1)),
    },
    Binding {
        keys: &[Code(PageDown)],
        label: "",
        help: "",
        section: (),
        hint: None,
        action: LibAction::List(ListAction::PageDown),
    },
    Binding {
        keys: &[Code(PageUp)],
        label: "",
        help: "",
        section: (),
        hint: None,
        action: LibAction::List(ListAction::PageUp),
    },
    Binding {
        keys: &[Code(Home), Char('g')],
        label: "",
        help: "",
        section: (),
        hint: None,
        action: LibAction::List(ListAction::Move(i64::MIN / 2)),
    },
    Binding {
        keys: &[Code(End), Char('G')],
        label: "",
        help: "",
        section: (),
        hint: None,
        action: LibAction::List(ListAction::Move(i64::MAX / 2)),
    },
    Binding {
        keys: &[Code(Enter)],
        label: "Enter",
        help: "load the entry onto the board",
        section: (),
        hint: Some(("Enter", "load")),
        action: LibAction::List(ListAction::Load),
    },
    Binding {
        keys: &[Char('/')],
        label: "/",
        help: "filter: error>= player: kind: match: disagree>= tag: col: …",
        section: (),
        hint: Some(("/", "filter")),
        action: LibAction::List(ListAction::StartFilter),
    },
    Binding {
        keys: &[Char('Q')],
        label: "Q",
        help: "positions like this one",
        section: (),
        hint: None,
        action: LibAction::List(ListAction::LikeSelected),
    },
    Binding {
        keys: &[Char('o')],
        label: "o",
        help: "order: newest / worst first",
        section: (),
        hint: None,
        action: LibAction::List(ListAction::CycleOrder),
    },
    Binding {
        keys: &[Char('P')],
        label: "P",
        help: "a player across matches (PR)",
        section: (),
        hint: None,
        action: LibAction::List(ListAction::AskPlayer),
    },
    Binding {
        keys: &[Char('M')],
        label: "M",
        help: "the matches: list, open one with its verdicts",
        section: (),
        hint: Some(("M", "matches")),
        action: LibAction::List(ListAction::Matches),
    },
    Binding {
        keys: &[Char('e')],
        label: "e",
        help: "edit the note",
        section: (),
        hint: Some(("e", "note")),
        action: LibAction::List(ListAction::EditNote),
    },
    Binding {
        keys: &[Char('t')],
        label: "t",
        help: "tags",
        section: (),
        hint: Some(("t", "tags")),
        action: LibAction::List(ListAction::EditTags),
    },
    Binding {
        keys: &[Char('c')],
        label: "c",
        help: "collections",
        section: (),
        hint: Some(("c", "collections")),
        action: LibAction::List(ListAction::EditCollections),
    },
    Binding {
        keys: &[Char('d'), Code(Delete)],
        label: "d",
        help: "delete (asks)",
        section: (),
        hint: Some(("d", "delete")),
        action: LibAction::List(ListAction::AskDelete),
    },
    Binding {
        keys: &[Char('u')],
        label: "u",
        help: "undelete",
        section: (),
        hint: Some(("u", "undelete")),
        action: LibAction::List(ListAction::UndoDelete),
    },
    Binding {
        keys: &[Char('s')],
        label: "s",
        help: "save the board to the entry",
        section: (),
        hint: Some(("s", "save back")),
        action: LibAction::List(ListAction::SaveBack),
    },
    Binding {
        keys: &[Char('r')],
        label: "r",
        help: "quiz a collection or filter",
        section: (),
        hint: Some(("r", "quiz")),
        action: LibAction::List(ListAction::StartReview),
    },
    Binding {
        keys: &[Char('S')],
        label: "S",
        help: "quiz statistics (again: the list)",
        section: (),
        hint: None,
        action: LibAction::Quiz(QuizAction::ToggleStats),
    },
    Binding {
        keys: &[Code(Esc)],
        label: "Esc",
        help: "keys to the board",
        section: (),
        hint: Some(("Esc", "board")),
        action: LibAction::List(ListAction::Leave),
    },
    Binding {
        keys: &[Char('L'), Char('q')],
        label: "L",
        help: "close the library (q too)",
        section: (),
        hint: Some(("L", "close")),
        action: LibAction::List(ListAction::Close),
    },
];

/// The quiz's keys: the answers, then what follows them.
pub(crate) static REVIEW_BINDINGS: &[LibBinding] = &[
    Binding {
        keys: &[Char('m')],
        label: "m",
        help: "quiz: your move (typed)",
        section: (),
        hint: Some(("m", "move")),
        action: LibAction::Quiz(QuizAction::AskMove),
    },
    Binding {
        keys: &[Char('e')],
        label: "e",
        help: "quiz: play your move on the board (L: back)",
        section: (),
        hint: None,
        action: LibAction::Quiz(QuizAction::PlayOnBoard),
    },
    Binding {
        keys: &[Char('d')],
        label: "d / r",
        help: "double / no double (roll)",
        section: (),
        hint: Some(("d / r", "double, roll")),
        action: LibAction::Quiz(QuizAction::Answer(QuizAnswer::Double)),
    },
    Binding {
        keys: &[Char('r')],
        label: "",
        help: "",
        section: (),
        hint: None,
        action: LibAction::Quiz(QuizAction::Answer(QuizAnswer::NoDouble)),
    },
    Binding {
        keys: &[Char('t')],
        label: "t / p / b",
        help: "take / pass / beaver",
        section: (),
        hint: Some(("t / p / b", "take, pass")),
        action: LibAction::Quiz(QuizAction::Answer(QuizAnswer::Take)),
    },
    Binding {
        keys: &[Char('p')],
        label: "",
        help: "",
        section: (),
        hint: None,
        action: LibAction::Quiz(QuizAction::Answer(QuizAnswer::Pass)),
    },
    Binding {
        keys: &[Char('b')],
        label: "",
        help: "",
        section: (),
        hint: None,
        action: LibAction::Quiz(QuizAction::Answer(QuizAnswer::Beaver)),
    },
    Binding {
        keys: &[Code(Enter)],
        label: "Enter",
        help: "next question (rated by the grade)",
        section: (),
        hint: Some(("Enter", "next")),
        action: LibAction::Quiz(QuizAction::Next),
    },
    Binding {
        keys: &[Char(' ')],
        label: "Space",
        help: "reveal without answering",
        section: (),
        hint: Some(("Space", "reveal")),
        action: LibAction::Quiz(QuizAction::Reveal),
    },
    Binding {
        keys: &[Char('y')],
        label: "y",
        help: "known",
        section: (),
        hint: Some(("y", "known")),
        action: LibAction::Quiz(QuizAction::Mark(true)),
    },
    Binding {
        keys: &[Char('n')],
        label: "n",
        help: "not yet",
        section: (),
        hint: Some(("n", "not yet")),
        action: LibAction::Quiz(QuizAction::Mark(false)),
    },
    Binding {
        keys: &[Code(Esc), Char('q')],
        label: "Esc",
        help: "stop reviewing (q too)",
        section: (),
        hint: Some(("Esc", "stop")),
        action: LibAction::List(ListAction::Close),
    },
];

/// The help's rows for the library: the list's keys, then the review's
/// (a row without a label is named by the one before it).
pub(crate) fn help_rows() -> Vec<(String, String)> {
    let mut rows = bindings::help_rows(LIST_BINDINGS);
    rows.extend(bindings::help_rows(REVIEW_BINDINGS));
    rows
}

/// (keys, words) hints per mode, in the order shown.
pub(crate) fn hints(mode: &LibMode) -> Vec<(&'static str, &'static str)> {
    match mode {
        LibMode::List => bindings::hints(LIST_BINDINGS),
        LibMode::Filter => vec![("Enter", "keep filter"), ("Esc", "clear filter")],
        LibMode::Ask(Ask::ConfirmDelete) => vec![("y", "delete"), ("other", "keep")],
        LibMode::Ask(Ask::QuizMove) => {
            vec![("Enter", "answer"), ("Tab", "complete"), ("Esc", "cancel")]
        }
        LibMode::Ask(_) => vec![("Enter", "apply"), ("Esc", "cancel"), ("^U", "clear")],
        LibMode::Note => vec![("Esc", "save the note"), ("arrows", "move")],
        LibMode::Review => bindings::hints(REVIEW_BINDINGS),
    }
}

/// The quiz's hints for where `r` stands: the keys that answer its
/// question (a move, a cube action, a take), then what follows an answer.
pub(crate) fn review_hints(r: &Review) -> Vec<(&'static str, &'static str)> {
    let Some(q) = r.question().map(|p| &p.state) else {
        return bindings::hints(REVIEW_BINDINGS);
    };
    let open = r.answer.is_none() && r.revealed.is_none();
    let failed = matches!(r.grade, Some(Err(_)));
    REVIEW_BINDINGS
        .iter()
        .filter(|b| match &b.action {
            LibAction::Quiz(QuizAction::AskMove | QuizAction::PlayOnBoard) => {
                open && q.dice.is_some() && !q.double_offered
            }
            LibAction::Quiz(QuizAction::Answer(QuizAnswer::Double | QuizAnswer::NoDouble)) => {
                open && q.dice.is_none() && !q.double_offered
            }
            LibAction::Quiz(QuizAction::Answer(_)) => {
                (open && q.double_offered) || r.awaiting_response()
            }
            LibAction::Quiz(QuizAction::Reveal) => open,
            LibAction::Quiz(QuizAction::Next) => r.answer.is_some() && !r.awaiting_response(),
            LibAction::Quiz(QuizAction::Mark(_)) => {
                (r.answer.is_none() && r.revealed.is_some()) || failed
            }
            // Stopping the quiz is always offered.
            _ => true,
        })
        .filter_map(|b| b.hint)
        .collect()
}

fn lib(a: impl Into<LibAction>) -> Option<Action> {
    Some(Action::Library(a.into()))
}

fn from_table(table: &[LibBinding], key: &KeyEvent) -> Option<Action> {
    bindings::find(table, key).and_then(|b| lib(b.action.clone()))
}

pub(crate) fn resolve(key: &KeyEvent, mode: &LibMode) -> Option<Action> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match mode {
        LibMode::List if !ctrl => from_table(LIST_BINDINGS, key),
        LibMode::Review if !ctrl => from_table(REVIEW_BINDINGS, key),
        LibMode::List | LibMode::Review => None,
        LibMode::Filter | LibMode::Ask(_) => match key.code {
            KeyCode::Enter => lib(LineAction::Submit),
            KeyCode::Esc => lib(LineAction::Cancel),
            KeyCode::Backspace => lib(LineAction::Backspace),
            KeyCode::Tab => lib(QuizAction::Complete),
            KeyCode::Char('u') if ctrl => lib(LineAction::Clear),
            KeyCode::Char(c) if !ctrl => lib(LineAction::Char(c)),
            _ => None,
        },
        LibMode::Note => match key.code {
            KeyCode::Esc => lib(NoteAction::Done),
            _ => lib(NoteAction::Key((*key).into())),
        },
    }
}

/// Text pasted while the panel has the keys.
pub(crate) fn paste(text: String, mode: &LibMode) -> Option<Action> {
    match mode {
        LibMode::Filter | LibMode::Ask(_) => lib(LineAction::Paste(text)),
        LibMode::Note => lib(NoteAction::Paste(text)),
        LibMode::List | LibMode::Review => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyModifiers;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn the_tables_resolve_hint_and_reach_the_help() {
        assert_eq!(
            resolve(&key(KeyCode::Char('/')), &LibMode::List),
            Some(Action::Library(LibAction::List(ListAction::StartFilter)))
        );
        assert_eq!(
            resolve(&key(End), &LibMode::List),
            Some(Action::Library(LibAction::List(ListAction::Move(
                i64::MAX / 2
            ))))
        );
        assert_eq!(
            resolve(&key(KeyCode::Char('n')), &LibMode::Review),
            Some(Action::Library(LibAction::Quiz(QuizAction::Mark(false))))
        );
        assert_eq!(resolve(&key(KeyCode::Char('n')), &LibMode::List), None);
        assert_eq!(hints(&LibMode::List)[0], ("j/k", "move"));
        let help = help_rows();
        for b in LIST_BINDINGS.iter().chain(REVIEW_BINDINGS) {
            if let Some((_, h)) = b.hint {
                assert!(
                    help.iter().any(|(l, _)| l == b.label),
                    "{} ({h}) is not in the help",
                    b.label
                );
            }
        }
    }
}
