//! Keeping a copy on the X11 (or Wayland) clipboard after bgedit quits.
//!
//! There, the clipboard's content is served by the program that set it; when
//! that program exits the content is gone. xclip keeps it alive by forking a
//! process that holds the selection until another program takes it. bgedit
//! does the same: after each copy it starts itself again with a hidden
//! command, `bgedit __hold-clipboard`, which reads the text from its standard
//! input, sets the clipboard and waits (arboard's `SetExtLinux::wait`) until
//! another owner takes the selection, then exits. The holder runs in its own
//! process group, so the terminal's ^C or hang-up does not reach it; a newer
//! copy replaces it (the old holder's wait ends and it exits), and it exits
//! when the display goes away. The editor keeps the holders it started and
//! reaps those that ended at its next copy, without a thread; the ones
//! still holding at quit outlive it.

use std::io::{self, Read, Write};
use std::process::{Command, Stdio};

/// The hidden subcommand that holds the clipboard.
pub const HOLD_COMMAND: &str = "__hold-clipboard";
/// The most text a holder takes (IDs and board text are far smaller).
pub(crate) const MAX_HELD_BYTES: u64 = 1 << 20;

/// Starts a holder for `text`, for the editor to reap once it ends (it
/// may outlive the editor).
pub(crate) fn spawn(text: &str) -> io::Result<std::process::Child> {
    let exe = std::env::current_exe()?;
    let mut command = Command::new(exe);
    command
        .arg(HOLD_COMMAND)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    let mut child = command.spawn()?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(text.as_bytes())?;
    }
    Ok(child)
}

/// The holders that ended (a later copy replaced them) waited for, so
/// none is left a zombie; the ones still holding are kept.
pub(crate) fn reap(holders: &mut Vec<std::process::Child>) {
    holders.retain_mut(|h| matches!(h.try_wait(), Ok(None)));
}

/// The hidden command: reads the text from standard input and holds it on
/// the clipboard until another program takes it.
pub fn hold_from_stdin() -> Result<(), HoldError> {
    let mut text = String::new();
    io::stdin()
        .take(MAX_HELD_BYTES)
        .read_to_string(&mut text)
        .map_err(HoldError::Read)?;
    hold(text)
}

/// Why the hidden command could not hold the text.
#[derive(Debug, thiserror::Error)]
pub enum HoldError {
    #[error("reading the text to hold: {0}")]
    Read(io::Error),
    #[error("{0}")]
    Clipboard(#[from] arboard::Error),
}

/// How often a holder checks that the clipboard still holds its text: the
/// wait can miss the moment another program takes the clipboard (a
/// notification lost in a race) and never ends if the display goes away, and
/// a holder must not outlive what it serves.
pub(crate) const PROBE: std::time::Duration = std::time::Duration::from_secs(2);

#[cfg(all(unix, not(target_os = "macos")))]
fn hold(text: String) -> Result<(), HoldError> {
    use arboard::SetExtLinux;
    let mut clipboard = arboard::Clipboard::new()?;
    let (done, finished) = std::sync::mpsc::channel();
    let held = text.clone();
    // A plain thread, not an editor's job: this is the holder's own
    // process, with no event loop to answer and no terminal; its result
    // (or its end, if it panicked) comes back on `finished`.
    std::thread::spawn(move || {
        let result = clipboard.set().wait().text(held);
        let _ = done.send(result.map_err(HoldError::from));
    });
    loop {
        match finished.recv_timeout(PROBE) {
            // Another program took the clipboard (or setting it failed).
            Ok(result) => return result,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                // Ask as any other program would: the display gone, or other
                // text there, means there is nothing left to hold.
                let still_ours = arboard::Clipboard::new()
                    .and_then(|mut c| c.get_text())
                    .is_ok_and(|t| t == text);
                if !still_ours {
                    return Ok(());
                }
            }
        }
    }
}

/// Elsewhere the system keeps the clipboard after a program exits.
#[cfg(not(all(unix, not(target_os = "macos"))))]
fn hold(_text: String) -> Result<(), HoldError> {
    Ok(())
}

/// Whether copies need a holder here: on X11 and Wayland, not on macOS or
/// Windows.
pub(crate) const NEEDED: bool = cfg!(all(unix, not(target_os = "macos")));
