//! An entry named on the command line (`library show`, `library rm`): by
//! its number, or by any ID of its position.

use bgedit_core::codec::{self, IdError};
use bgedit_core::domain::Position;
use bgedit_library::store::{Library, LibraryError};

/// Why a name given for an entry names none.
#[derive(Debug, thiserror::Error)]
pub(super) enum Unresolved {
    /// The name as given, and why it is no ID.
    #[error("{name:?} is neither an entry number nor an ID ({why})")]
    NotAName { name: String, why: IdError },
    /// The library failed looking for the position (said with the
    /// library's file by the caller).
    #[error(transparent)]
    Library(LibraryError),
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
            why: e,
        })?;
    lib.find(&imported.position)
        .map_err(Unresolved::Library)?
        .ok_or(Unresolved::NotThere)
}
