//! The editor's gnubg: one long-lived process on a thread of its own. The
//! runtime hands it requests; answers go back through the runtime's one
//! channel as actions. A request arriving while a deeper one runs cancels
//! it (the process is stopped and restarted), so a new edit never waits
//! seconds behind an old 3-ply analysis.

use super::action::Action;
use crate::engine::{Engine, EngineError, Request, Waiter, time_limit};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

fn limit(plies: u8) -> Duration {
    time_limit(plies, Waiter::Editor)
}

pub struct EngineLink {
    requests: Sender<Request>,
    /// The depth being analysed now, if any.
    busy: Arc<Mutex<Option<u8>>>,
    pid: Arc<AtomicU32>,
    /// Set when `ask` stopped gnubg: the death that follows is ours.
    killed: Arc<AtomicBool>,
}

impl EngineLink {
    /// Starts the thread. `program` is gnubg, or why there is none; `send`
    /// delivers an action to the runtime and says whether it is still there.
    pub fn start(
        program: Result<PathBuf, String>,
        send: impl Fn(Action) -> bool + Send + 'static,
    ) -> EngineLink {
        let (requests, rx) = channel::<Request>();
        let busy = Arc::new(Mutex::new(None));
        let pid = Arc::new(AtomicU32::new(0));
        let killed = Arc::new(AtomicBool::new(false));
        let (busy2, pid2, killed2) = (Arc::clone(&busy), Arc::clone(&pid), Arc::clone(&killed));
        std::thread::spawn(move || {
            let mut engine = program.map(Engine::new);
            if let Ok(e) = &mut engine {
                // Start now: the first answer should not wait for gnubg to load.
                let _ = e.warm_up();
            }
            let mut pending: Option<Request> = None;
            loop {
                let mut req = match pending.take() {
                    Some(r) => r,
                    None => match rx.recv() {
                        Ok(r) => r,
                        Err(_) => break,
                    },
                };
                // Only the newest request matters; older ones are stale.
                while let Ok(newer) = rx.try_recv() {
                    req = newer;
                }
                let result = match &mut engine {
                    Err(why) => Err(why.clone()),
                    Ok(e) => {
                        if let Err(err) = e.warm_up() {
                            Err(err.to_string())
                        } else {
                            pid2.store(e.pid().unwrap_or(0), Ordering::SeqCst);
                            set(&busy2, Some(req.plies));
                            let mut r = e.analyse(&req, limit(req.plies));
                            if r == Err(EngineError::Died) && killed2.swap(false, Ordering::SeqCst)
                            {
                                // Stopped by `ask`, which sends the newer
                                // request before stopping: if it is there,
                                // this one was the old one; if not, the stop
                                // landed on this one, so it is asked again.
                                match rx.try_recv() {
                                    Ok(newer) => pending = Some(newer),
                                    Err(_) => r = e.analyse(&req, limit(req.plies)),
                                }
                            }
                            set(&busy2, None);
                            r.map_err(|err| err.to_string())
                        }
                    }
                };
                if !send(Action::AnalysisAnswer(req.id, result)) {
                    break;
                }
            }
        });
        EngineLink {
            requests,
            busy,
            pid,
            killed,
        }
    }

    /// Asks for `req`, cancelling a deeper analysis still running.
    pub fn ask(&self, req: Request) {
        let running = self.busy.lock().map(|b| *b).unwrap_or(None);
        // Sent before the stop, so the engine thread finds it when it sees
        // gnubg die.
        let _ = self.requests.send(req);
        if running.is_some_and(|p| p > 0) {
            let pid = self.pid.load(Ordering::SeqCst);
            if pid != 0 {
                self.killed.store(true, Ordering::SeqCst);
                // The engine thread sees the process end, answers the old
                // request with an error (dropped as stale) and restarts.
                std::thread::spawn(move || {
                    let _ = std::process::Command::new("kill")
                        .args(["-KILL", &pid.to_string()])
                        .stderr(std::process::Stdio::null())
                        .status();
                });
            }
        }
    }
}

fn set(busy: &Mutex<Option<u8>>, value: Option<u8>) {
    if let Ok(mut b) = busy.lock() {
        *b = value;
    }
}
