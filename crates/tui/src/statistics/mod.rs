//! The statistics view (`s` from the match panel): the open match's
//! per-player table as gnubg's `show statistics match` prints it (the
//! overall block with the Snowie error rate, the FIBS ratings, the rating
//! losses and XG's PR included), the decision kinds that cost each player
//! most, and each player's error per game across the match as a bar chart.
//!
//! - `state.rs`: its state (scroll) and `StatisticsAction`
//! - `update.rs`: opening, scrolling, closing (pure)
//! - `keys.rs`: its keys, one table for resolution, hints and help
//! - `view.rs`: what it shows, as text (its part of the snapshot, computed
//!   from the match panel's verdicts), and its drawing
//! - `player.rs`: the view of a player across the library's matches (`P`
//!   in the library panel): each match, the trend `stats --player` gives,
//!   the costliest kinds, and PR over time as a chart

pub(crate) mod keys;
pub(crate) mod player;
pub mod state;
pub(crate) mod themes;
pub(crate) mod update;
pub mod view;
