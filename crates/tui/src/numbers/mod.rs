//! Numbers at the score (`#`): the feature's folder.
//!
//! - `state.rs`: the MET in use, the scroll and the last evaluation (the
//!   market window), and the panel's actions (`NumbersAction`)
//! - `update.rs`: scrolling and loading a MET file
//! - `text.rs`: the panel's rows, from `domain::numbers`
//! - `keys.rs`: its rows of the normal mode's bindings (`#`, PgUp/PgDn, `T`)
//! - `view.rs`: drawing the panel, scrolled

pub(crate) mod keys;
pub mod state;
pub mod text;
pub(crate) mod update;
pub mod view;
