//! An entry named on the command line (`library show`, `library rm`): by
//! its number, or by any ID of its position.

use bgedit_core::codec;
use bgedit_core::domain::Position;
use bgedit_library::store::Library;

/// Why a name given for an entry names none.
#[derive(Debug, thiserror::Error)]
pub(crate) enum Unresolved {
    #[error("{name:?} is neither an entry number nor an ID ({why})")]
    NotAName { name: String, why: String },
    /// The library failed, said with its file's name.
    #[error("{0}")]
    Library(String),
    #[error("that position is not in the library")]
    NotThere,
}

/// An entry named by its number or by an ID of its position.
pub(super) fn resolve(lib: &Library, name: &str) -> Result<i64, Unresolved> {
    let name = name.trim().trim_start_matches('#');
    if let Ok(id) = name.parse::<i64>() {
        return Ok(id);
    }
    let imported =
        codec::parse_any(name, &Position::default()).map_err(|e| Unresolved::NotAName {
            name: name.to_owned(),
            why: e.to_string(),
        })?;
    lib.find(&imported.position)
        .map_err(|e| Unresolved::Library(lib.describe(&e)))?
        .ok_or(Unresolved::NotThere)
}
