//! The `bgedit` command line: every command (`show`, `convert`, `moves`,
//! `play`, `analyse`, `stats`, `image`, `match`, `library`, `quiz`) over
//! streams, on the crates below it (docs/code-map.md):
//! [`bgedit_core`] (the position and match model, IDs, files, the board
//! text), [`bgedit_engine`] (the engines), [`bgedit_library`] (the study
//! library), [`bgedit_picture`] (pictures) and [`bgedit_tui`] (the editor).

pub mod cli;
