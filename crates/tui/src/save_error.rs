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
    /// The save file is not a regular file: left alone.
    #[error("{path} is not a regular file ({kind}); it is left alone and positions are not saved")]
    NotAFile { path: String, kind: &'static str },
    /// The save file turned into something else after the editor opened it.
    #[error("{path} is now {kind}; it is left alone and positions are not saved")]
    NoLongerAFile { path: String, kind: &'static str },
    /// The save file is unusable (`what`: damaged, too large) and could not
    /// be moved aside, so nothing is saved over it.
    #[error("{what}; it could not be moved aside ({reason}), so positions are not saved over it")]
    NotMovedAside { what: String, reason: String },
    #[error("cannot create {dir}: {reason}")]
    CreateDir { dir: String, reason: String },
    #[error("cannot look at {path}: {reason}")]
    Look { path: String, reason: String },
    #[error("another bgedit saved {path}; keeping theirs failed ({reason})")]
    KeepTheirs { path: String, reason: String },
    #[error("{path}: {reason}")]
    Write { path: String, reason: String },
}
