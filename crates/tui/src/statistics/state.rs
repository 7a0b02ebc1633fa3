//! The statistics view's state: open or not is the model's mode
//! (`Mode::Statistics`); here the scroll of the table and, for a player
//! across the library's matches, their statistics.

use bgedit_library::player_stats::PlayerStats;
use bgedit_library::store::LibraryFailure;
use bgedit_library::theme_stats::ThemeStats;

/// What can happen to the statistics view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StatisticsAction {
    /// Open it on the open match.
    Open,
    /// Open it on a player across the library's matches (the library
    /// worker's answer to `P` in the library panel).
    Player(Result<Box<PlayerStats>, LibraryFailure>),
    /// `t` on a player: their decisions by the next theme (plan, class,
    /// score, kind), then the matches again.
    NextTheme,
    /// The library worker's answer to `t`.
    Themes(Result<Box<ThemeStats>, LibraryFailure>),
    /// `j` `k`: scroll the table by rows.
    Scroll(i16),
    /// `Esc` `q` `s`: back to the match panel, or to the library.
    Close,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StatisticsState {
    /// The first row of the table shown (small screens scroll it).
    pub scroll: u16,
    /// The player shown, when the view was opened from the library.
    pub player: Option<Box<PlayerStats>>,
    /// The player's decisions by a theme, shown instead of their matches.
    pub themes: Option<Box<ThemeStats>>,
}
