//! The small config file: what the user chose and expects to find next time
//! (the depth of deeper analyses). Beside the save file, as JSON.

use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Config {
    #[serde(default)]
    pub analysis_plies: Option<u8>,
}

/// `config.json` in the directory of the save file.
pub(crate) fn path() -> Option<PathBuf> {
    super::io::persist::save_path().and_then(|p| p.parent().map(|d| d.join("config.json")))
}

/// The config, or the defaults when there is none or it makes no sense.
pub fn load(path: &Path) -> Config {
    use std::io::Read;
    // A FIFO or a device in its place is not read (or waited on); a config
    // is a few hundred bytes.
    let mut text = String::new();
    bgedit_core::regular_file::open(path)
        .and_then(|f| f.take(1 << 20).read_to_string(&mut text))
        .ok()
        .and_then(|_| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

/// Writes the config atomically.
pub fn save(path: &Path, config: &Config) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("json.tmp");
    let text = serde_json::to_string(config).map_err(std::io::Error::other)?;
    std::fs::write(&tmp, text + "\n")?;
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_depth_is_remembered_and_a_damaged_file_gives_defaults() {
        let dir = std::env::temp_dir().join(format!("bgedit-config-{}", std::process::id()));
        let path = dir.join("config.json");
        assert_eq!(load(&path), Config::default());
        save(
            &path,
            &Config {
                analysis_plies: Some(3),
            },
        )
        .unwrap();
        assert_eq!(load(&path).analysis_plies, Some(3));
        std::fs::write(&path, "{ nonsense").unwrap();
        assert_eq!(load(&path), Config::default());
        let _ = std::fs::remove_dir_all(dir);
    }
}
