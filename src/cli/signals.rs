//! A command that runs engines, ended by a signal (SIGTERM, SIGHUP,
//! SIGINT), leaves nothing behind, as the editor does: the engines die
//! with the process (`engine::process`), the files the engines read are
//! removed here (`bgedit_engine::clean_up`), and the exit status is the
//! shell's 128 + the signal.

use bgedit_core::signals::{TERMINATING, exit_status};

/// Watches for the terminating signals, on a thread of its own, for the
/// rest of the run.
pub(crate) fn clean_up_on_signals() -> std::io::Result<()> {
    let mut signals = signal_hook::iterator::Signals::new(TERMINATING)?;
    std::thread::Builder::new()
        .name("bgedit-signals".to_owned())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                bgedit_engine::clean_up();
                std::process::exit(i32::from(exit_status(signal)));
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
