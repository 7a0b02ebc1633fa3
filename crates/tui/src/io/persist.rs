//! The save file: the current position as JSON (every field, names too) in
//! the user's state directory, written on every change and read at start.
//!
//! Several editors may share one state directory, so a save writes a
//! temporary file of its own (unique name), syncs it to disk and renames it
//! over the save file: a reader sees the old file or the new one, never a
//! part. Each save makes a new file, so its identity (device, inode, size,
//! time) says whether someone else saved since this editor last read or
//! wrote it; their position is then kept beside it before ours replaces it.
//! A damaged save file is moved aside, never overwritten; a save "file"
//! that is not a regular file (a FIFO would block) or is too large to be a
//! position is refused.

use crate::save_error::SaveError;
use bgedit_core::codec::json;
use bgedit_core::domain::Position;
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// The largest save file read; a position with long names is a few KiB.
pub const MAX_SAVE_BYTES: u64 = 1 << 20;

/// `$BGEDIT_STATE_DIR/position.json` if set, else `bgedit/position.json`
/// under the XDG state directory (`$XDG_STATE_HOME`, `~/.local/state`), or
/// the platform's local data directory where there is no state directory.
pub(crate) fn save_path() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("BGEDIT_STATE_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir).join("position.json"));
    }
    dirs::state_dir()
        .or_else(dirs::data_local_dir)
        .map(|d| d.join("bgedit").join("position.json"))
}

/// One version of the save file, as the file system tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Version {
    dev: u64,
    ino: u64,
    len: u64,
    modified: Option<SystemTime>,
}

impl Version {
    fn of(meta: &fs::Metadata) -> Version {
        #[cfg(unix)]
        let (dev, ino) = {
            use std::os::unix::fs::MetadataExt;
            (meta.dev(), meta.ino())
        };
        #[cfg(not(unix))]
        let (dev, ino) = (0, 0);
        Version {
            dev,
            ino,
            len: meta.len(),
            modified: meta.modified().ok(),
        }
    }
}

/// The save file of one editor: where it is, which version this editor
/// last read or wrote, and why it may not be written, if so.
#[derive(Debug)]
pub struct SaveFile {
    path: PathBuf,
    known: Option<Version>,
    refused: Option<SaveError>,
}

/// What opening the save file found.
#[derive(Debug, PartialEq, Eq)]
pub enum Opened {
    /// No save file yet.
    Nothing,
    Position(Position),
    /// It could not be used; the sentence says why and where it went.
    Problem(String),
}

impl SaveFile {
    /// Looks at the save file at `path` and reads the position (also when
    /// the editor starts elsewhere: a damaged file must be moved aside before
    /// the first save could overwrite it). A damaged or oversized file is
    /// moved aside; anything but a regular file is left alone and this
    /// editor will not save over it.
    pub fn open(path: &Path) -> (SaveFile, Opened) {
        let mut file = SaveFile {
            path: path.to_owned(),
            known: None,
            refused: None,
        };
        let opened = file.look();
        (file, opened)
    }

    fn look(&mut self) -> Opened {
        let shown = self.path.display().to_string();
        let meta = match fs::metadata(&self.path) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Opened::Nothing,
            Err(e) => return Opened::Problem(format!("cannot read {shown}: {e}")),
        };
        if !meta.is_file() {
            let why = SaveError::NotAFile {
                path: shown,
                kind: bgedit_core::regular_file::kind_of(&meta),
            };
            let said = why.to_string();
            self.refused = Some(why);
            return Opened::Problem(said);
        }
        if meta.len() > MAX_SAVE_BYTES {
            return self.move_aside(format!(
                "{shown} is {} bytes, more than the {MAX_SAVE_BYTES} a save file may have",
                meta.len()
            ));
        }
        let (text, version) = match read_bounded(&self.path) {
            Ok(read) => read,
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                return self.move_aside(format!("{shown} is damaged ({e})"));
            }
            Err(e) => return Opened::Problem(format!("cannot read {shown}: {e}")),
        };
        match json::decode(text.trim()) {
            Ok(position) => {
                self.known = Some(version);
                Opened::Position(position)
            }
            Err(e) => self.move_aside(format!("{shown} is damaged ({e})")),
        }
    }

    /// Moves an unusable save file to `<name>.damaged-<time>`, so the next
    /// save cannot overwrite it; if it cannot be moved, nothing is saved.
    fn move_aside(&mut self, what: String) -> Opened {
        match aside_name(&self.path, "damaged").and_then(|to| {
            fs::rename(&self.path, &to)?;
            Ok(to)
        }) {
            Ok(to) => Opened::Problem(format!("{what}; it was moved to {}", to.display())),
            Err(e) => {
                let why = SaveError::NotMovedAside {
                    what,
                    reason: e.to_string(),
                };
                let said = why.to_string();
                self.refused = Some(why);
                Opened::Problem(said)
            }
        }
    }

    /// Writes `position`. `Ok(Some(note))` when the user should hear of
    /// something (another editor's position was kept aside).
    pub fn save(&mut self, position: &Position) -> Result<Option<String>, SaveError> {
        if let Some(why) = &self.refused {
            return Err(why.clone());
        }
        let dir = self
            .path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_owned();
        fs::create_dir_all(&dir).map_err(|e| SaveError::CreateDir {
            dir: dir.display().to_string(),
            reason: e.to_string(),
        })?;
        let note = self.keep_theirs()?;
        let version = write_atomically(&self.path, &dir, &(json::encode(position) + "\n"))
            .map_err(|e| SaveError::Write {
                path: self.path.display().to_string(),
                reason: e.to_string(),
            })?;
        self.known = Some(version);
        Ok(note)
    }

    /// If the save file is not the version this editor last read or wrote,
    /// another editor wrote it: link theirs to `<name>.other-<time>` first.
    fn keep_theirs(&mut self) -> Result<Option<String>, SaveError> {
        let shown = self.path.display();
        let meta = match fs::metadata(&self.path) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => {
                return Err(SaveError::Look {
                    path: shown.to_string(),
                    reason: e.to_string(),
                });
            }
        };
        if !meta.is_file() {
            let why = SaveError::NoLongerAFile {
                path: shown.to_string(),
                kind: bgedit_core::regular_file::kind_of(&meta),
            };
            self.refused = Some(why.clone());
            return Err(why);
        }
        if self.known == Some(Version::of(&meta)) {
            return Ok(None);
        }
        let kept = keep_copy(&self.path).map_err(|e| SaveError::KeepTheirs {
            path: shown.to_string(),
            reason: e.to_string(),
        })?;
        // Two editors on one state directory would otherwise leave a copy
        // per save for ever: the newest few are enough to recover from.
        let _ = prune_others(&self.path, KEEP_OTHERS);
        Ok(Some(format!(
            "another bgedit saved {shown} since this one read it; theirs is kept as {} \
             (the last {KEEP_OTHERS} such copies are kept beside it; open one with \
             `bgedit \"$(bgedit convert --to gnubg < FILE)\"` or copy it back)",
            kept.display()
        )))
    }
}

/// Reads at most [`MAX_SAVE_BYTES`] without blocking on a FIFO swapped in
/// after the check; returns the text and the version read.
fn read_bounded(path: &Path) -> io::Result<(String, Version)> {
    let file = bgedit_core::regular_file::open(path)?;
    let meta = file.metadata()?;
    let mut bytes = Vec::new();
    file.take(MAX_SAVE_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_SAVE_BYTES {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("more than {MAX_SAVE_BYTES} bytes"),
        ));
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))?;
    Ok((text, Version::of(&meta)))
}

/// Writes `text` to a temporary file of its own beside `path`, syncs it and
/// renames it into place; returns the version written.
fn write_atomically(path: &Path, dir: &Path, text: &str) -> io::Result<Version> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path.file_name().map_or_else(
        || "position.json".into(),
        |n| n.to_string_lossy().into_owned(),
    );
    let tmp = dir.join(format!(
        ".{name}.{}.{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let written = (|| -> io::Result<Version> {
        let mut file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        let version = Version::of(&file.metadata()?);
        fs::rename(&tmp, path)?;
        Ok(version)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    let version = written?;
    // The rename itself is on disk once the directory is synced.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(version)
}

/// How many `<name>.other-<time>` copies another editor's saves leave.
pub(crate) const KEEP_OTHERS: usize = 5;

/// Removes all but the newest `keep` `<name>.other-<time>` copies (their
/// names sort by time); returns how many were removed.
fn prune_others(path: &Path, keep: usize) -> io::Result<usize> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return Ok(0);
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let prefix = format!("{}.other-", name.to_string_lossy());
    let mut others: Vec<PathBuf> = fs::read_dir(dir)?
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .filter(|e| fs::symlink_metadata(e.path()).is_ok_and(|m| m.is_file()))
        .map(|e| e.path())
        .collect();
    others.sort();
    let extra = others.len().saturating_sub(keep);
    for old in &others[..extra] {
        fs::remove_file(old)?;
    }
    Ok(extra)
}

/// Keeps the file at `path` as `<name>.other-<time>` without ever removing
/// `path` (a hard link; a copy where links are not possible).
fn keep_copy(path: &Path) -> io::Result<PathBuf> {
    for _ in 0..100 {
        let to = aside_name(path, "other")?;
        match fs::hard_link(path, &to) {
            Ok(()) => return Ok(to),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(_) => {
                fs::copy(path, &to)?;
                return Ok(to);
            }
        }
    }
    Err(io::Error::other("no free name to keep it under"))
}

/// `<path>.<what>-<UTC time>`, with `-2`, `-3`… if that name is taken.
fn aside_name(path: &Path, what: &str) -> io::Result<PathBuf> {
    let stamp = utc_stamp(SystemTime::now());
    let base = format!("{}.{what}-{stamp}", path.display());
    for n in 1..1000 {
        let candidate = PathBuf::from(if n == 1 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        if fs::symlink_metadata(&candidate).is_err() {
            return Ok(candidate);
        }
    }
    Err(io::Error::other("no free name to move it to"))
}

/// `YYYYMMDDTHHMMSSZ` for `time`.
fn utc_stamp(time: SystemTime) -> String {
    let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Howard Hinnant's days-to-civil conversion.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}{month:02}{day:02}T{:02}{:02}{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_newest_copies_of_other_editors_saves_are_kept() {
        let dir = tempfile::tempdir().unwrap();
        let save = dir.path().join("position.json");
        std::fs::write(&save, "{}").unwrap();
        for i in 0..8 {
            let name = format!("position.json.other-20261124T0300{i:02}Z");
            std::fs::write(dir.path().join(name), "{}").unwrap();
        }
        std::fs::write(dir.path().join("unrelated.other-1"), "").unwrap();
        assert_eq!(prune_others(&save, KEEP_OTHERS).unwrap(), 3);
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left.len(), 1 + KEEP_OTHERS + 1, "{left:?}");
        assert!(left.contains(&"position.json.other-20261124T030007Z".to_owned()));
        assert!(!left.contains(&"position.json.other-20261124T030002Z".to_owned()));
        assert!(left.contains(&"unrelated.other-1".to_owned()));
    }

    #[test]
    fn stamps_are_utc_calendar_times() {
        assert_eq!(utc_stamp(UNIX_EPOCH), "19700101T000000Z");
        let t = UNIX_EPOCH + std::time::Duration::from_secs(1_795_400_000);
        // date -u -d @1795400000
        assert_eq!(utc_stamp(t), "20261123T021320Z");
    }
}
