//! The message log: every status message of the session, so text the status
//! line has to shorten stays readable in full (key `H`). Bounded in count and
//! in the length of each entry.

use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Info,
    Success,
    Error,
}

/// The message of the last action, shown on the status line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Status {
    pub text: String,
    pub tone: Tone,
}

impl Status {
    pub fn info(text: impl Into<String>) -> Status {
        Status {
            text: text.into(),
            tone: Tone::Info,
        }
    }
    pub fn success(text: impl Into<String>) -> Status {
        Status {
            text: text.into(),
            tone: Tone::Success,
        }
    }
    pub(crate) fn error(text: impl Into<String>) -> Status {
        Status {
            text: text.into(),
            tone: Tone::Error,
        }
    }
}

/// How many past messages the log keeps.
pub(crate) const LOG_LIMIT: usize = 200;
/// The longest message kept, in characters; longer ones end with `…`.
pub(crate) const MAX_MESSAGE_CHARS: usize = 4000;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MessageLog {
    entries: VecDeque<Status>,
}

impl MessageLog {
    /// Remembers `status`, unless it repeats the newest entry.
    pub(crate) fn push(&mut self, status: &Status) {
        // Most actions leave the message as it was: no copy then.
        if self.entries.back() == Some(status) {
            return;
        }
        let mut status = status.clone();
        if let Some((cut, _)) = status.text.char_indices().nth(MAX_MESSAGE_CHARS) {
            status.text.truncate(cut);
            status.text.push('…');
        }
        if self.entries.back() == Some(&status) {
            return;
        }
        if self.entries.len() == LOG_LIMIT {
            self.entries.pop_front();
        }
        self.entries.push_back(status);
    }

    /// The messages, newest first.
    pub fn newest_first(&self) -> impl Iterator<Item = &Status> {
        self.entries.iter().rev()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_log_is_bounded_and_skips_repeats() {
        let mut log = MessageLog::default();
        for i in 0..LOG_LIMIT + 50 {
            log.push(&Status::info(format!("m{i}")));
            log.push(&Status::info(format!("m{i}")));
        }
        assert_eq!(log.newest_first().count(), LOG_LIMIT);
        assert_eq!(
            log.newest_first().next().unwrap().text,
            format!("m{}", LOG_LIMIT + 49)
        );
        log.push(&Status::error("x".repeat(MAX_MESSAGE_CHARS * 3)));
        let long = &log.newest_first().next().unwrap().text;
        assert_eq!(long.chars().count(), MAX_MESSAGE_CHARS + 1);
        assert!(long.ends_with('…'));
    }
}
