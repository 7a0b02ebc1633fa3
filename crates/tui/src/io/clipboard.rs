//! The clipboard, at the edge of the app. One arboard handle lives as long as
//! the editor (on X11 the copied text is served by the process that holds
//! it; `clipboard_holder` keeps it served after bgedit quits). Over SSH, or with no display, text goes to the terminal instead as
//! an OSC 52 escape sequence, and the status line says so.

use crate::copy_menu::state::{ClipboardError, CopyRoute};
use crate::io::clipboard_holder;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use std::io::Write;
use std::sync::{Arc, Mutex, PoisonError};

/// The system clipboard, shared with the job that copies a picture.
type System = Arc<Mutex<arboard::Clipboard>>;

/// What the environment says about clipboards (read once, at start).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ClipboardEnv {
    pub over_ssh: bool,
    pub has_display: bool,
    /// Inside tmux (`TMUX` set): OSC 52 passes only as tmux allows.
    pub under_tmux: bool,
}

impl ClipboardEnv {
    /// Reads `SSH_CONNECTION`/`SSH_TTY`, `TMUX` and, where X11 or Wayland
    /// decide, `DISPLAY`/`WAYLAND_DISPLAY`.
    pub(crate) fn from_env(var: impl Fn(&str) -> Option<String>) -> ClipboardEnv {
        let set = |name: &str| var(name).is_some_and(|v| !v.is_empty());
        let over_ssh = set("SSH_CONNECTION") || set("SSH_TTY");
        let has_display = if cfg!(any(target_os = "macos", target_os = "windows")) {
            true
        } else {
            set("DISPLAY") || set("WAYLAND_DISPLAY")
        };
        ClipboardEnv {
            over_ssh,
            has_display,
            under_tmux: set("TMUX"),
        }
    }
}

/// The escape sequence asking the terminal to put `text` on its clipboard.
pub fn osc52(text: &str) -> String {
    format!("\x1b]52;c;{}\x07", STANDARD.encode(text))
}

pub(crate) struct Clipboard {
    system: Option<System>,
    /// Why there is no system clipboard, for messages.
    why_not: String,
    /// The holders started for copies (`clipboard_holder`), reaped at the
    /// next copy once they end.
    holders: Vec<std::process::Child>,
    /// OSC 52 goes through tmux, which may drop it.
    under_tmux: bool,
}

impl Clipboard {
    pub(crate) fn new(env: &ClipboardEnv) -> Clipboard {
        let without = |why_not: &str| Clipboard {
            system: None,
            why_not: why_not.to_owned(),
            holders: Vec::new(),
            under_tmux: env.under_tmux,
        };
        if env.over_ssh {
            return without("over SSH, the system clipboard is on the other machine");
        }
        if !env.has_display {
            return without("there is no display (no DISPLAY or WAYLAND_DISPLAY)");
        }
        match arboard::Clipboard::new() {
            Ok(c) => Clipboard {
                system: Some(Arc::new(Mutex::new(c))),
                ..without("")
            },
            Err(e) => without(&format!("the system clipboard is not available ({e})")),
        }
    }

    /// Copies `text`: to the system clipboard if there is one, else by OSC 52
    /// written to `terminal`.
    pub(crate) fn copy(
        &mut self,
        text: &str,
        terminal: &mut impl Write,
    ) -> Result<CopyRoute, ClipboardError> {
        if let Some(system) = &self.system {
            let set = lock(system).set_text(text.to_owned());
            match set {
                Ok(()) => {
                    // On X11 and Wayland the copy would end with bgedit;
                    // a holder keeps it. Without one it still lasts while
                    // bgedit runs, so a failure to start it is no error.
                    if clipboard_holder::NEEDED {
                        clipboard_holder::reap(&mut self.holders);
                        if let Ok(holder) = clipboard_holder::spawn(text) {
                            self.holders.push(holder);
                        }
                    }
                    return Ok(CopyRoute::System);
                }
                Err(e) => self.why_not = format!("the system clipboard refused ({e})"),
            }
        }
        terminal
            .write_all(osc52(text).as_bytes())
            .and_then(|()| terminal.flush())
            .map(|()| CopyRoute::Osc52 {
                under_tmux: self.under_tmux,
            })
            .map_err(|e| ClipboardError::Osc52 {
                why_not: self.why_not.clone(),
                reason: e.to_string(),
            })
    }

    /// The clipboard as a picture's job copies its image to it.
    pub(crate) fn images(&self) -> Images {
        Images {
            system: self.system.clone(),
            why_not: self.why_not.clone(),
        }
    }

    /// Reads text from the system clipboard.
    pub(crate) fn paste(&mut self) -> Result<String, ClipboardError> {
        match &self.system {
            Some(system) => lock(system).get_text().map_err(|e| ClipboardError::Read {
                reason: e.to_string(),
            }),
            None => Err(ClipboardError::NoSystemToPaste(self.why_not.clone())),
        }
    }
}

/// A copy that panicked leaves the clipboard as usable as it was.
fn lock(system: &System) -> std::sync::MutexGuard<'_, arboard::Clipboard> {
    system.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The clipboard for images, off the event loop (a picture's job).
pub(crate) struct Images {
    system: Option<System>,
    why_not: String,
}

impl Images {
    /// Copies an image (straight RGBA pixels) to the system clipboard.
    /// There is no way to send an image over OSC 52, so without a system
    /// clipboard this says why not.
    pub(crate) fn copy(
        &self,
        width: usize,
        height: usize,
        rgba: Vec<u8>,
    ) -> Result<(), ClipboardError> {
        match &self.system {
            Some(system) => lock(system)
                .set_image(arboard::ImageData {
                    width,
                    height,
                    bytes: rgba.into(),
                })
                .map_err(|e| ClipboardError::NoImages(e.to_string())),
            None => Err(ClipboardError::ImageWithoutSystem(self.why_not.clone())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn osc52_is_base64_between_the_escape_and_bel() {
        assert_eq!(osc52("hi"), "\x1b]52;c;aGk=\x07");
    }

    #[test]
    fn ssh_and_missing_display_are_detected() {
        let env = |pairs: &'static [(&str, &str)]| {
            ClipboardEnv::from_env(move |k| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            })
        };
        assert!(env(&[("SSH_CONNECTION", "1 2 3 4")]).over_ssh);
        assert!(!env(&[("SSH_TTY", "")]).over_ssh);
        assert!(env(&[("TMUX", "/tmp/tmux-0/default,1,0")]).under_tmux);
        assert!(!env(&[]).under_tmux);
        if cfg!(target_os = "linux") {
            assert!(!env(&[]).has_display);
            assert!(env(&[("WAYLAND_DISPLAY", "wayland-0")]).has_display);
        }
    }

    #[test]
    fn without_a_display_copy_goes_by_osc52_and_paste_explains() {
        let mut c = Clipboard::new(&ClipboardEnv {
            over_ssh: false,
            has_display: false,
            under_tmux: true,
        });
        let mut term = Vec::new();
        assert_eq!(
            c.copy("4HPwATDgc/ABMA:cAkAAAAAAAAA", &mut term),
            Ok(CopyRoute::Osc52 { under_tmux: true })
        );
        assert_eq!(
            String::from_utf8(term).unwrap(),
            osc52("4HPwATDgc/ABMA:cAkAAAAAAAAA")
        );
        assert!(c.paste().unwrap_err().to_string().contains("no display"));
    }
}
