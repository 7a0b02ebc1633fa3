//! Termination signals sent with `kill` (SIGTERM, SIGHUP, SIGINT). In raw
//! mode a typed ^C is a key, not a signal; these come from outside. The
//! handler only records the signal; the event loop notices it between
//! events and leaves the way `q` does, so the terminal is restored.

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

pub(crate) use signal_hook::consts::signal::{SIGHUP, SIGINT, SIGTERM};

/// The signals that end the editor.
pub const TERMINATING: [i32; 3] = [SIGTERM, SIGHUP, SIGINT];

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

/// The shell's convention for a process ended by a signal.
pub fn exit_status(signal: i32) -> u8 {
    u8::try_from(128 + signal).unwrap_or(u8::MAX)
}

/// The signal's name, for messages.
pub(crate) fn name(signal: i32) -> &'static str {
    match signal {
        SIGTERM => "SIGTERM",
        SIGHUP => "SIGHUP",
        SIGINT => "SIGINT",
        _ => "a signal",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_follow_the_shell_convention() {
        assert_eq!(exit_status(SIGTERM), 143);
        assert_eq!(exit_status(SIGHUP), 129);
        assert_eq!(exit_status(SIGINT), 130);
    }
}
