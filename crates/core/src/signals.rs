//! The signals that end a bgedit process when sent with `kill` (SIGTERM,
//! SIGHUP, SIGINT), and the shell's convention for the exit status of a
//! process they end. Plain numbers: the editor and the commands that run
//! engines each install their own handlers on them.

pub const SIGTERM: i32 = libc::SIGTERM;
pub const SIGHUP: i32 = libc::SIGHUP;
pub const SIGINT: i32 = libc::SIGINT;

/// The signals that end bgedit (cleanly: saved, engines gone).
pub const TERMINATING: [i32; 3] = [SIGTERM, SIGHUP, SIGINT];

/// The shell's convention for a process ended by a signal: 128 + its number.
pub fn exit_status(signal: i32) -> u8 {
    u8::try_from(128 + signal).unwrap_or(u8::MAX)
}

/// The signal's name, for messages.
pub fn name(signal: i32) -> &'static str {
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
        assert_eq!(name(SIGHUP), "SIGHUP");
        assert_eq!(name(0), "a signal");
    }
}
