//! The save file: the current position as JSON (every field, names too) in
//! the user's state directory, written on every change and read at start.

use crate::codec::json;
use crate::domain::Position;
use std::io;
use std::path::{Path, PathBuf};

/// `$BGEDIT_STATE_DIR/position.json` if set, else `bgedit/position.json`
/// under the XDG state directory (`$XDG_STATE_HOME`, `~/.local/state`), or
/// the platform's local data directory where there is no state directory.
pub fn save_path() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("BGEDIT_STATE_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir).join("position.json"));
    }
    dirs::state_dir()
        .or_else(dirs::data_local_dir)
        .map(|d| d.join("bgedit").join("position.json"))
}

/// Reads the saved position: `Ok(None)` when there is none yet, `Err` with a
/// sentence when the file cannot be read or makes no sense.
pub fn load(path: &Path) -> Result<Option<Position>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    json::decode(text.trim())
        .map(Some)
        .map_err(|e| format!("{} is damaged ({e})", path.display()))
}

/// Writes the position, atomically: a half-written file never replaces a
/// good one.
pub fn save(path: &Path, position: &Position) -> io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, json::encode(position) + "\n")?;
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("bgedit-persist-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn saves_and_loads_every_field() {
        let dir = temp_dir("roundtrip");
        let path = dir.join("sub").join("position.json");
        let mut p = Position::default();
        p.names.o = "Kit".into();
        p.state.beavers = false;
        save(&path, &p).unwrap();
        assert_eq!(load(&path).unwrap(), Some(p));
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_missing_file_is_none_and_a_damaged_one_is_an_error() {
        let dir = temp_dir("damaged");
        let path = dir.join("position.json");
        assert_eq!(load(&path), Ok(None));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&path, "{ not json").unwrap();
        let err = load(&path).unwrap_err();
        assert!(err.contains("is damaged"), "{err}");
        let _ = std::fs::remove_dir_all(dir);
    }
}
