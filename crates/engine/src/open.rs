//! Starting an engine named by its kind: finding its program and opening
//! it as its spec says (a process running its bridge, or an engine inside
//! bgedit). Apart from `registry.rs`, which is data the errors are worded
//! from, because starting fails in those errors.

use super::Engine;
use super::failure::{EngineError, EngineErrorKind, StartRecord};
use super::registry::{ALL, EngineKind};
use super::setup::Setup;
use std::path::{Path, PathBuf};

impl EngineKind {
    /// The program that runs this engine: `given` (the user's option),
    /// else found as its [`ProgramOption`](super::spec::ProgramOption)
    /// says (its environment variable, PATH, its usual places).
    pub fn locate(self, given: Option<&Path>) -> Result<PathBuf, EngineError> {
        super::locate::find_from_env(self.spec(), given)
            .map_err(|m| EngineError::new(self, EngineErrorKind::Missing(m)))
    }

    /// This engine run by `program` (or in-process, for an engine that
    /// can be), giving up with the others sharing `starts`. Nothing runs
    /// before its first request.
    pub fn open(self, program: PathBuf, starts: StartRecord) -> Box<dyn Engine> {
        match self {
            EngineKind::Gnubg => super::process::open(self, program, starts),
            EngineKind::Sage => super::sage::native::open(program, starts),
        }
    }
}

/// Why no engine answers inside bgedit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InProcessError {
    #[error("no engine bgedit knows can answer in-process")]
    NoneKnown,
    /// The engine that could is missing, or cannot run in-process here
    /// (no C++ core in this build, a CPU without AVX2/FMA, no data).
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// The first engine of [`ALL`] whose capabilities say it can answer
/// in-process, opened and loaded that way (its program as `setup` names
/// it, or found as the engine's options say). Loading may take a moment
/// (weights read, the engine's Python asked where they are once): done on
/// a thread of its own by the editor. No process is left running.
pub fn open_in_process(setup: &Setup) -> Result<Box<dyn Engine>, InProcessError> {
    let kind = ALL
        .into_iter()
        .find(|k| k.spec().caps.in_process)
        .ok_or(InProcessError::NoneKnown)?;
    let mut engine = kind.open(setup.program(kind)?, StartRecord::default());
    engine.ready_in_process()?;
    Ok(engine)
}
