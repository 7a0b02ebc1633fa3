//! Termination signals sent with `kill` (SIGTERM, SIGHUP, SIGINT). In raw
//! mode a typed ^C is a key, not a signal; these come from outside. The
//! handler only records the signal; the event loop notices it between
//! events and leaves the way `q` does, so the terminal is restored. The
//! signals themselves, their names and the exit status they leave are
//! `bgedit_core::signals`, shared with the CLI.

use bgedit_core::signals::TERMINATING;
use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The last terminating signal received, if any.
pub(crate) struct Signals {
    received: Arc<AtomicUsize>,
}

impl Signals {
    /// Installs the handlers (they only store the signal number).
    pub(crate) fn install() -> io::Result<Signals> {
        let received = Arc::new(AtomicUsize::new(0));
        for signal in TERMINATING {
            signal_hook::flag::register_usize(signal, received.clone(), signal as usize)?;
        }
        Ok(Signals { received })
    }

    /// The signal received since the last call, if any.
    pub(crate) fn take(&self) -> Option<i32> {
        match self.received.swap(0, Ordering::SeqCst) {
            0 => None,
            n => i32::try_from(n).ok(),
        }
    }
}
