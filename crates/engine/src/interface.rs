//! What every engine does, however it runs: the one interface the editor,
//! the CLI and the match analysis ask. A process running a bridge script
//! (`process.rs`) is one kind of engine; one inside bgedit would be
//! another.

use super::EngineKind;
use super::answer::{Analysis, Rollout};
use super::failure::{EngineError, EngineErrorKind};
use super::gnubg_match::{GameAnswer, GamesRequest};
use super::request::{Request, RolloutSettings};
use std::time::Duration;

pub trait Engine: Send {
    /// Which engine this is.
    fn kind(&self) -> EngineKind;

    /// The engine's version, once it said it.
    fn version(&self) -> Option<String>;

    /// Threads for its rollouts (0: the engine's own choice).
    fn set_threads(&mut self, threads: u8);

    /// Whether it answers inside bgedit rather than through a process
    /// (known once it has answered or warmed up).
    fn in_process(&self) -> bool {
        false
    }

    /// Gets ready now rather than at the first request.
    fn warm_up(&mut self) -> Result<(), EngineError>;

    /// Gets ready to answer inside bgedit without starting a process of
    /// its own (the live views must never wait on one): `Ok` when every
    /// answer from now on is in-process, else why not. An engine that is
    /// always a process says so.
    fn ready_in_process(&mut self) -> Result<(), EngineError> {
        Err(EngineError::new(
            self.kind(),
            EngineErrorKind::OnlyAsProcess,
        ))
    }

    /// The process to stop to cut an analysis short, while one runs; none
    /// for an engine that is not a process of its own.
    fn pid(&self) -> Option<u32>;

    /// Asks about `req`, waiting at most `limit` for the answer.
    fn analyse(&mut self, req: &Request, limit: Duration) -> Result<Analysis, EngineError>;

    /// Asks for the moves of `req`, with the move played (the Position ID
    /// after it) at the full depth, as gnubg's `analyse match` has it.
    fn analyse_played(
        &mut self,
        req: &Request,
        played_after: &str,
        limit: Duration,
    ) -> Result<Analysis, EngineError>;

    /// Rolls `req` out with the engine's own rollout. `progress` gets how
    /// far it is and each answer so far and says whether to go on: `false`
    /// stops the rollout, and its answer so far comes back marked stopped.
    /// `limit` is per answer so far.
    fn rollout(
        &mut self,
        req: &Request,
        settings: &RolloutSettings,
        limit: Duration,
        progress: &mut dyn FnMut(&Rollout, Option<&Analysis>) -> bool,
    ) -> Result<Analysis, EngineError>;

    /// Analyses every game of a match file the engine reads itself (see
    /// `engine::gnubg_match`), each game's answer in the file's order, for
    /// an engine whose capabilities say it can (`Capabilities::whole_games`).
    fn analyse_games(
        &mut self,
        id: u64,
        req: &GamesRequest,
        limit: Duration,
    ) -> Result<Vec<GameAnswer>, EngineError> {
        let _ = (id, req, limit);
        Err(EngineError::new(self.kind(), EngineErrorKind::NoWholeGames))
    }
}
