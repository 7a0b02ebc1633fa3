//! The engine that answers in-process, for the live views (`~`): found in
//! the registry by its capability (`registry::open_in_process`), loaded on
//! a thread of its own (a job, `io/job.rs`) the first time the views are
//! turned on (reading weights takes a moment), then asked inline by the
//! runtime, which
//! dispatches the answer before it draws the next frame. Without one (no
//! C++ core, a CPU without AVX2/FMA, no bgsage) the views say why; no
//! process is ever waited on.

use crate::action::Action;
use crate::io::job::{Deliver, Job};
use crate::sensitivity::state::{Live, PLIES, SensitivityAction};
use bgedit_core::domain::Position;
use bgedit_engine::{Engine, Setup};
use std::sync::{Arc, Mutex};
use std::time::Instant;

type Slot = Arc<Mutex<Option<Box<dyn Engine>>>>;

pub(crate) struct LiveEngine {
    setup: Setup,
    slot: Slot,
    started: bool,
}

impl LiveEngine {
    /// `setup`: the engines as the user named them (the editor's engine
    /// options).
    pub(crate) fn new(setup: Setup) -> LiveEngine {
        LiveEngine {
            setup,
            slot: Arc::default(),
            started: false,
        }
    }

    /// Loads the engine on a thread (once, a job of its own); `send` gets
    /// `SensitivityAction::EngineReady`, unavailable with the reason if
    /// loading failed or panicked.
    pub fn load(&mut self, send: Deliver) {
        if self.started {
            return;
        }
        self.started = true;
        let (setup, slot) = (self.setup.clone(), Arc::clone(&self.slot));
        let work = move || {
            let live = match bgedit_engine::open_in_process(&setup) {
                Ok(engine) => {
                    let live = Live::Ready(ready_words(engine.as_ref()));
                    *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(engine);
                    live
                }
                Err(e) => Live::Unavailable(e.to_string()),
            };
            Action::Sensitivity(SensitivityAction::EngineReady(live))
        };
        let failed = |why| {
            let live = Live::Unavailable(format!("loading it stopped: {why}"));
            vec![Action::Sensitivity(SensitivityAction::EngineReady(live))]
        };
        Job::new("bgedit-live-engine", send).run(work, failed);
    }

    /// The views of `position` computed now, as the action that shows
    /// them; `None` while no engine is loaded.
    pub fn compute(&self, serial: u64, position: &Position) -> Option<Action> {
        let mut slot = self.slot.lock().unwrap_or_else(|e| e.into_inner());
        let engine = slot.as_mut()?;
        Some(answer(engine.as_mut(), serial, position))
    }
}

/// The engine's name, depth and road ("… 1-ply in-process"): the views'
/// header.
pub fn ready_words(engine: &dyn Engine) -> String {
    let kind = engine.kind();
    format!("{} {} in-process", kind.name(), kind.depth_label(PLIES))
}

/// The views of `position` computed by `engine`, timed, as the action that
/// shows them (the runtime's road, and the benchmark's).
pub fn answer(engine: &mut dyn Engine, serial: u64, position: &Position) -> Action {
    let start = Instant::now();
    let tables = bgedit_engine::sensitivity::compute(engine, position, PLIES);
    let micros = u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX);
    Action::Sensitivity(SensitivityAction::Computed {
        serial,
        tables: Box::new(tables),
        micros,
    })
}
