//! Why the position was not saved, as the editor shows it (on the status
//! line, in the log, and at exit). Below the features and the reducer: the
//! pure part reads it from `Action::SaveFailed` without importing the save
//! file's I/O (`io::persist` and the config's save produce it, with the
//! system's words already in).

/// Why the position was not saved: the file named, and the system's words.
/// `Ok(Some(note))` of a save, and `Opened::Problem`, are messages for the
/// screen; this is the error, shown there too and at exit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SaveError {
    /// The save file was refused (not a regular file, or it could not be
    /// moved aside): the reason said when it was.
    #[error("{0}")]
    Refused(String),
    #[error("cannot create {dir}: {reason}")]
    CreateDir { dir: String, reason: String },
    #[error("cannot look at {path}: {reason}")]
    Look { path: String, reason: String },
    #[error("another bgedit saved {path}; keeping theirs failed ({reason})")]
    KeepTheirs { path: String, reason: String },
    #[error("{path}: {reason}")]
    Write { path: String, reason: String },
}
