//! Editing the board: the feature's folder.
//!
//! - `edits.rs`: adding and removing checkers, what a place can hold (pure)
//! - `cursor.rs`: the cursor's moves over the board
//! - `place_info.rs`: what the line under the board says of a place
//! - `keys.rs`: the board's rows of the normal mode's bindings
//! - `view.rs`: gnubg's board drawn with the cursor and colours
//! - `place_line.rs`: the line under the board (the place, the brush)
//!
//! - `state.rs`: the board's actions (`BoardAction`), as data
//! - `update.rs`: what each does to the model

pub(crate) mod cursor;
pub(crate) mod edits;
pub(crate) mod keys;
pub(crate) mod place_info;
pub(crate) mod place_line;
pub mod state;
pub(crate) mod update;
pub mod view;
