//! The match list (`^L` from the board, `M` in the library panel): every
//! match in the library, as `bgedit library matches` lists them (date,
//! players, length, final score, winner, the analyses each has, each
//! player's PR), filtered and sorted; Enter opens the match in the match
//! panel with the verdicts the library holds, no engine asked. A
//! full-screen view with its own mode (`Mode::Matches`).
//!
//! - `state.rs`: its state and `MatchListAction`
//! - `update.rs`: opening, moving, sorting, filtering, opening a match
//!   (pure; the list comes from the library worker)
//! - `keys.rs`: its keys, one table for resolution, hints and help
//! - `view.rs`: its part of the snapshot and its drawing, the columns
//!   fitted to the width

pub(crate) mod keys;
pub mod state;
pub(crate) mod update;
pub mod view;
