//! Numbers at the score (`#`): the feature's folder.
//!
//! - `state.rs`: the MET in use and the last evaluation (the market window)
//! - `text.rs`: the panel's rows, from `domain::numbers`
//! - `keys.rs`: its rows of the normal mode's bindings (`#`, PgUp/PgDn, `T`)
//! - `view.rs`: drawing the panel, scrolled

pub mod keys;
pub mod state;
pub mod text;
pub mod view;
