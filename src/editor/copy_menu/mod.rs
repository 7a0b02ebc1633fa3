//! The copy menu (`F`): every format bgedit writes, each with its letter.
//! [`ENTRIES`] is the menu's one table: the overlay, the key resolution
//! inside the menu and the texts copied all read it.
//!
//! `keys.rs`: the copy keys of the normal mode; `view.rs`: the overlay.

pub mod keys;
pub mod view;

use crate::codec::{self, IdFormat, xgid};
use crate::domain::{MatchState, Position};
use crate::editor::action::{Action, CopyTarget};
use crate::text_board;

/// What a menu letter does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    Copy(CopyTarget),
    /// Save the picture and copy the PNG (as `I` does).
    Picture,
}

pub struct Entry {
    pub key: char,
    pub label: &'static str,
    pub item: Item,
}

pub static ENTRIES: &[Entry] = &[
    Entry {
        key: 'g',
        label: "GNUBG ID",
        item: Item::Copy(CopyTarget::GnubgId),
    },
    Entry {
        key: 'x',
        label: "XGID",
        item: Item::Copy(CopyTarget::Xgid),
    },
    Entry {
        key: 'p',
        label: "Position ID",
        item: Item::Copy(CopyTarget::PositionId),
    },
    Entry {
        key: 'm',
        label: "Match ID",
        item: Item::Copy(CopyTarget::MatchId),
    },
    Entry {
        key: 'h',
        label: "gnubg's header lines",
        item: Item::Copy(CopyTarget::Header),
    },
    Entry {
        key: 'b',
        label: "board text (gnubg's show board)",
        item: Item::Copy(CopyTarget::BoardText),
    },
    Entry {
        key: 't',
        label: "XG text (forums)",
        item: Item::Copy(CopyTarget::XgText),
    },
    Entry {
        key: 's',
        label: "SGF (gnubg's save position)",
        item: Item::Copy(CopyTarget::Sgf),
    },
    Entry {
        key: 'f',
        label: "FIBS board line",
        item: Item::Copy(CopyTarget::Fibs),
    },
    Entry {
        key: 'w',
        label: "Snowie text",
        item: Item::Copy(CopyTarget::Snowie),
    },
    Entry {
        key: 'a',
        label: "the analysis (gnubg-like text)",
        item: Item::Copy(CopyTarget::Analysis),
    },
    Entry {
        key: 'i',
        label: "image (PNG, saved and copied)",
        item: Item::Picture,
    },
];

/// The action for a letter typed in the menu; any other key closes it.
pub fn resolve(ch: Option<char>) -> Action {
    match ch.and_then(|c| ENTRIES.iter().find(|e| e.key == c)) {
        Some(Entry {
            item: Item::Copy(target),
            ..
        }) => Action::Copy(*target),
        Some(Entry {
            item: Item::Picture,
            ..
        }) => Action::SavePicture,
        None => Action::CloseCopyMenu,
    }
}

fn format_of(target: CopyTarget) -> Option<IdFormat> {
    match target {
        CopyTarget::GnubgId => Some(IdFormat::GnubgId),
        CopyTarget::Xgid => Some(IdFormat::Xgid),
        CopyTarget::PositionId => Some(IdFormat::PositionId),
        CopyTarget::MatchId => Some(IdFormat::MatchId),
        CopyTarget::Header => Some(IdFormat::Header),
        CopyTarget::XgText => Some(IdFormat::XgText),
        CopyTarget::Sgf => Some(IdFormat::Sgf),
        CopyTarget::Fibs => Some(IdFormat::Fibs),
        CopyTarget::Snowie => Some(IdFormat::Snowie),
        CopyTarget::BoardText | CopyTarget::Analysis => None,
    }
}

/// The text a copy puts on the clipboard, for the targets that are the
/// position (the analysis's text is the analysis panel's: `analysis.rs`).
pub fn text(target: CopyTarget, position: &Position) -> String {
    match format_of(target) {
        Some(format) => codec::to_string_as(position, format),
        None => text_board::render(position),
    }
}

/// What the copied text cannot hold, one sentence each.
pub fn losses(target: CopyTarget, position: &Position) -> Vec<String> {
    let state: &MatchState = &position.state;
    match target {
        CopyTarget::Xgid | CopyTarget::XgText => xgid::dropped_by_xgid(state),
        CopyTarget::GnubgId | CopyTarget::MatchId | CopyTarget::Header => {
            xgid::dropped_by_gnubg_id(state)
        }
        CopyTarget::BoardText | CopyTarget::PositionId | CopyTarget::Analysis => Vec::new(),
        other => format_of(other)
            .map(|to| codec::conversion_losses(position, IdFormat::Json, to))
            .unwrap_or_default(),
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
            assert_ne!(resolve(Some(e.key)), Action::CloseCopyMenu);
        }
        assert_eq!(resolve(Some('Z')), Action::CloseCopyMenu);
        assert_eq!(resolve(None), Action::CloseCopyMenu);
    }

    #[test]
    fn texts_are_the_formats() {
        let p = Position::default();
        assert_eq!(text(CopyTarget::PositionId, &p), "4HPwATDgc/ABMA");
        assert!(text(CopyTarget::Sgf, &p).starts_with("(;FF[4]"));
        assert!(text(CopyTarget::Fibs, &p).starts_with("board:Black:White:0:0:0:"));
    }
}
