//! What the user gave the engines on the command line (each engine's
//! options, as its `Spec`'s `UserOptions` declare them), held by engine
//! kind and nothing else: the value every command and the editor pass on,
//! so that none of them knows which engines there are or what their
//! options are called.

use super::Engine;
use super::failure::{EngineError, StartRecord};
use super::registry::EngineKind;
use std::path::{Path, PathBuf};

/// Each engine's program and data, as the user named them (`None`: found
/// as the engine's options say, or none).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Setup {
    given: [Named; EngineKind::COUNT],
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Named {
    program: Option<PathBuf>,
    data: Option<PathBuf>,
}

impl Setup {
    /// `kind`'s program, as the user named it.
    pub fn set_program(&mut self, kind: EngineKind, program: Option<PathBuf>) {
        self.given[kind.index()].program = program;
    }

    /// `kind`'s data, as the user named it.
    pub fn set_data(&mut self, kind: EngineKind, data: Option<PathBuf>) {
        self.given[kind.index()].data = data;
    }

    /// `kind`'s program as the user named it, if they did.
    pub fn program_given(&self, kind: EngineKind) -> Option<&Path> {
        self.given[kind.index()].program.as_deref()
    }

    /// The program that runs `kind`: the one named, else found as the
    /// engine finds it; or why there is none. The engine is told the data
    /// named for it here, before anything of it runs (it reads its data
    /// when it first loads; the first data told is kept for the run).
    pub fn program(&self, kind: EngineKind) -> Result<PathBuf, EngineError> {
        let named = &self.given[kind.index()];
        if let (Some(dir), Some(option)) = (&named.data, &kind.spec().options.data) {
            (option.set)(dir.clone());
        }
        kind.locate(named.program.as_deref())
    }

    /// `kind`, opened with its program (see [`Setup::program`]), giving up
    /// with the others sharing `starts`.
    pub fn open(
        &self,
        kind: EngineKind,
        starts: StartRecord,
    ) -> Result<Box<dyn Engine>, EngineError> {
        Ok(kind.open(self.program(kind)?, starts))
    }
}
