//! What every feature's view draws with, below the features (none of
//! these imports a feature or `view/`): the colours and the layout's
//! geometry and constants.
//!
//! - `theme.rs`: colours, or none under `NO_COLOR`
//! - `layout.rs`: where each widget goes, its sizes (`BOARD_COLUMNS`, ...)
//! - `text.rs`: text wrapped to a widget's width

pub(crate) mod layout;
pub mod text;
pub mod theme;
