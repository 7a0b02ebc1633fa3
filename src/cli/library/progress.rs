//! The percentage bar `library import` (a file of positions) and `library
//! export` draw on standard error.

use std::io::{self, IsTerminal};

/// A progress bar on standard error, drawn only when it is a terminal.
pub(super) struct Progress {
    total: u64,
    shown: u64,
    on: bool,
    what: &'static str,
}

impl Progress {
    pub(super) fn new(what: &'static str, total: u64) -> Progress {
        Progress {
            total,
            shown: u64::MAX,
            on: io::stderr().is_terminal() && total > 0,
            what,
        }
    }

    pub(super) fn set(&mut self, done: u64) {
        if !self.on {
            return;
        }
        let percent = done.min(self.total) * 100 / self.total;
        if percent == self.shown {
            return;
        }
        self.shown = percent;
        let filled = (percent / 5) as usize;
        eprint!(
            "\r{} [{}{}] {percent:>3}%",
            self.what,
            "#".repeat(filled),
            " ".repeat(20 - filled)
        );
    }

    pub(super) fn finish(&mut self) {
        if self.on {
            eprint!("\r{}\r", " ".repeat(40));
        }
    }
}
