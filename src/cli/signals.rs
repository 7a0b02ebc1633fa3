//! A command that runs engines, ended by a signal (SIGTERM, SIGHUP,
//! SIGINT), leaves nothing behind, as the editor does: its engines killed
//! and reaped (`bgedit_engine::end_engines`; the parent-death signal would
//! kill them, but not reap them where nothing reaps orphans), the files
//! they read removed (`bgedit_engine::clean_up`), and the exit status the
//! shell's 128 + the signal. A command that keeps its work as it goes
//! (`library analyse`) stops instead, says what it kept, then ends so.

use bgedit_core::signals::{TERMINATING, exit_status};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::time::{Duration, Instant};

/// Ends the process on `signal`, leaving nothing behind.
fn end(signal: i32) -> ! {
    bgedit_engine::end_engines();
    bgedit_engine::clean_up();
    std::process::exit(i32::from(exit_status(signal)));
}

/// Watches for the terminating signals, on a thread of its own, for the
/// rest of the run: the first ends the process.
pub(crate) fn clean_up_on_signals() -> std::io::Result<()> {
    let mut signals = signal_hook::iterator::Signals::new(TERMINATING)?;
    std::thread::Builder::new()
        .name("bgedit-signals".to_owned())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                end(signal);
            }
        })?;
    Ok(())
}

/// Runs a command that runs engines: a signal ends it cleanly (the files
/// its engines read removed, its engines gone).
pub fn with_engines(run: impl FnOnce() -> std::process::ExitCode) -> std::process::ExitCode {
    if let Err(e) = clean_up_on_signals() {
        bgedit_core::say!("bgedit: installing signal handlers: {e}");
        return std::process::ExitCode::from(1);
    }
    run()
}

/// A stop asked by a signal, for a command that stops rather than ends.
pub(crate) struct Stop {
    asked: AtomicBool,
    signal: AtomicI32,
}

static STOP: Stop = Stop {
    asked: AtomicBool::new(false),
    signal: AtomicI32::new(0),
};

impl Stop {
    /// Set by the first signal: the command stops taking work.
    pub(crate) fn flag(&self) -> &AtomicBool {
        &self.asked
    }

    /// The signal that asked the stop, if one did.
    pub(crate) fn signal(&self) -> Option<i32> {
        Some(self.signal.load(Ordering::SeqCst)).filter(|&s| s != 0)
    }
}

/// How long a stopping command has to say what it kept before the
/// process ends anyway.
const GRACE: Duration = Duration::from_secs(10);

/// Watches for the terminating signals for a command that keeps its work
/// as it goes: the first sets the stop and ends the engines at work (their
/// requests fail at once, and are not failures of the work: it is
/// stopping), and the command says what it kept and exits with the
/// shell's status; a second signal, or the command not done within
/// [`GRACE`], ends the process at once.
pub(crate) fn stop_on_signals() -> std::io::Result<&'static Stop> {
    let mut signals = signal_hook::iterator::Signals::new(TERMINATING)?;
    std::thread::Builder::new()
        .name("bgedit-signals".to_owned())
        .spawn(move || {
            let Some(first) = signals.forever().next() else {
                return;
            };
            STOP.signal.store(first, Ordering::SeqCst);
            STOP.asked.store(true, Ordering::SeqCst);
            let until = Instant::now() + GRACE;
            while Instant::now() < until {
                // An engine started just as the stop came is ended too.
                bgedit_engine::stop_engines();
                if let Some(again) = signals.pending().next() {
                    end(again);
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            end(first);
        })?;
    Ok(&STOP)
}
