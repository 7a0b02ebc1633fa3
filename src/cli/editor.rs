//! `bgedit` with no command (and `bgedit quiz` without `--answer` or
//! `--stats`): the editor, with the options it starts with; and the hidden
//! `__hold-clipboard` it runs to keep a copy alive after it quits.

use super::engine_args::EngineArgs;
use bgedit_core::codec::met_xml;
use bgedit_tui::io::runtime::{self, Start};
use bgedit_tui::numbers::state::MetHandle;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// The options the editor starts with (the top-level engine options,
/// `--met`, `--library`, or a command's own).
#[derive(Clone, Debug, Default)]
pub struct EditorOptions {
    pub engines: EngineArgs,
    pub met: Option<PathBuf>,
    pub library: Option<PathBuf>,
    /// `--view`: the side the board's points are counted for.
    pub view: Option<bgedit_core::domain::Player>,
}

/// Where `bgedit ID...` (or plain `bgedit`, or `bgedit --new`) opens.
pub fn start_of(id: &[String], new: bool) -> Start {
    match (id.is_empty(), new) {
        // gnubg prints its two IDs apart; given as two words, they
        // are read together.
        // A file: a match to review (an ID is never a file's name).
        (false, _) if id.len() == 1 && std::path::Path::new(&id[0]).is_file() => {
            Start::Match(id[0].clone())
        }
        (false, _) => Start::Id(id.join(" ")),
        (true, true) => Start::Fresh,
        (true, false) => Start::Saved,
    }
}

/// Runs the editor from `start` until the user quits.
pub fn run(start: Start, opts: EditorOptions) -> ExitCode {
    let met = match opts.met.as_deref().map(met_xml::load_file) {
        None => None,
        Some(Ok(met)) => Some(MetHandle::new(met)),
        Some(Err(e)) => {
            bgedit_core::say!("bgedit: --met: {e}");
            return ExitCode::from(2);
        }
    };
    let options = runtime::Options {
        engines: opts.engines.setup,
        choice: opts.engines.choice,
        met,
        library: opts.library,
        view: opts.view,
    };
    match runtime::run(start, options) {
        Ok(exit) => {
            // After the terminal is restored, so the IDs stay in the
            // scrollback. After a hang-up there may be no terminal left to
            // print to; that must not turn into a panic.
            let _ = io::stdout().write_all(runtime::farewell(&exit.position).as_bytes());
            let _ = io::stdout().flush();
            match (exit.signal, exit.save_failed) {
                (Some(signal), _) => ExitCode::from(bgedit_core::signals::exit_status(signal)),
                // The last position was not saved: a script (or the user)
                // must not take the run for a clean one.
                (None, Some(why)) => {
                    bgedit_core::say!("bgedit: the last position was not saved: {why}");
                    ExitCode::from(1)
                }
                (None, None) => ExitCode::SUCCESS,
            }
        }
        Err(e) => {
            bgedit_core::say!("bgedit: {e:#}");
            ExitCode::from(2)
        }
    }
}

/// `__hold-clipboard`: holds copied text on the X11/Wayland clipboard after
/// the editor quits (see `editor::clipboard_holder`).
pub fn hold_clipboard() -> ExitCode {
    match bgedit_tui::io::clipboard_holder::hold_from_stdin() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            bgedit_core::say!("bgedit: holding the clipboard: {e}");
            ExitCode::from(1)
        }
    }
}
