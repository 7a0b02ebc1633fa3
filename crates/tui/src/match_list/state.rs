//! The match list's state: the listing the library worker sent, the row
//! under the cursor, the order and the filter; open or not is the model's
//! mode (`Mode::Matches`).

use bgedit_library::listing::{ListError, Listing, SortBy};
use bgedit_library::store::LibraryFailure;

/// Why there is no list: the library failed (its message names the
/// file), or the filter named no player, or several.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ListFailure {
    #[error(transparent)]
    Library(LibraryFailure),
    #[error(transparent)]
    Filter(ListError),
}

/// What can happen to the match list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchListAction {
    /// Open it (and ask the library for the list).
    Open,
    /// The library worker's list, or why there is none.
    Listed(Result<Box<Listing>, ListFailure>),
    /// `j` `k` (and the arrows): the cursor by rows.
    Move(i64),
    /// PgDn PgUp: by a screen.
    Page(i64),
    /// `g` `G`: the first, the last.
    First,
    Last,
    /// `o`: the next order (date, PR, opponent, length, result).
    CycleSort,
    /// `/`: ask for the filter.
    AskFilter,
    /// The filter typed.
    Filter(String),
    /// Enter: open the match under the cursor with its stored verdicts.
    Enter,
    /// `Esc` `q`: back where it was opened from.
    Close,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchListState {
    pub listing: Option<Box<Listing>>,
    pub cursor: usize,
    pub sort: SortBy,
    pub filter: String,
    /// A list is asked and not yet come.
    pub waiting: bool,
    /// Opened from the library panel: Esc goes back there.
    pub from_library: bool,
}

/// Rows a page moves.
pub(crate) const PAGE: i64 = 10;
