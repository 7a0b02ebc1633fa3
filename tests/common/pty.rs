//! The real `bgedit` binary in a pseudo-terminal: keys in, screen read back
//! through a terminal emulator (vt100), exactly as a user would see it.
//! Shared by the end-to-end tests; each passes the [`Options`] it needs.

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What differs between the tests that drive the binary.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// How long `wait_for` and `wait_exit` wait before failing.
    pub timeout: Duration,
    /// How often `wait_for` looks at the screen.
    pub poll: Duration,
    /// The pause after each `send`, so each key is read as its own event.
    pub key_delay: Duration,
    /// The pause after the child exits, for the reader to take the last output.
    pub exit_grace: Duration,
    /// Variables removed from the child's environment.
    pub unset: &'static [&'static str],
}

/// No display and no SSH (copying must fall back to OSC 52), no NO_COLOR.
pub const NO_DISPLAY_NO_COLOR: &[&str] = &[
    "DISPLAY",
    "WAYLAND_DISPLAY",
    "SSH_CONNECTION",
    "SSH_TTY",
    "NO_COLOR",
];

/// No display and no SSH.
pub const NO_DISPLAY: &[&str] = &["DISPLAY", "WAYLAND_DISPLAY", "SSH_CONNECTION", "SSH_TTY"];

impl Options {
    pub const DEFAULT: Options = Options {
        timeout: Duration::from_secs(10),
        poll: Duration::from_millis(20),
        key_delay: Duration::from_millis(15),
        exit_grace: Duration::from_millis(100),
        unset: NO_DISPLAY_NO_COLOR,
    };
}

impl Default for Options {
    fn default() -> Self {
        Options::DEFAULT
    }
}

pub struct Session {
    pub master: Box<dyn MasterPty + Send>,
    pub writer: Box<dyn Write + Send>,
    pub child: Box<dyn Child + Send + Sync>,
    /// Everything the program wrote, and the emulated screen.
    pub raw: Arc<Mutex<Vec<u8>>>,
    pub screen: Arc<Mutex<vt100::Parser>>,
    pub options: Options,
}

pub fn nz(n: u16) -> std::num::NonZeroU16 {
    std::num::NonZeroU16::new(n).expect("a terminal has rows and columns")
}

/// A fresh, empty directory `{prefix}-{name}-{pid}` under the temp dir.
pub fn state_dir(prefix: &str, name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("{prefix}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

impl Session {
    /// Starts bgedit with `args` and BGEDIT_STATE_DIR=`state` (and
    /// BGEDIT_DATA_DIR, so its default library) in a `cols`×`rows`
    /// terminal.
    pub fn start(options: &Options, args: &[&str], state: &Path, cols: u16, rows: u16) -> Session {
        Session::start_with(options, args, state, cols, rows, &[])
    }

    /// As [`Session::start`], with `env` set on top of the options' removals.
    pub fn start_with(
        options: &Options,
        args: &[&str],
        state: &Path,
        cols: u16,
        rows: u16,
        env: &[(&str, &str)],
    ) -> Session {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_bgedit"));
        cmd.args(args);
        cmd.env("TERM", "xterm-256color");
        cmd.env("BGEDIT_STATE_DIR", state);
        // The library too: the editor keeps a match it opens, and its
        // verdicts, in the default library, which must be the test's own
        // (not the user's, nor one another run filled).
        cmd.env("BGEDIT_DATA_DIR", state);
        for var in options.unset {
            cmd.env_remove(var);
        }
        for (k, v) in env {
            cmd.env(k, v);
        }
        let child = pair.slave.spawn_command(cmd).unwrap();
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().unwrap();
        let writer = pair.master.take_writer().unwrap();
        let raw = Arc::new(Mutex::new(Vec::new()));
        let screen = Arc::new(Mutex::new(vt100::Parser::new(nz(rows), nz(cols), 0)));
        let (raw2, screen2) = (raw.clone(), screen.clone());
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                raw2.lock().unwrap().extend_from_slice(&buf[..n]);
                screen2.lock().unwrap().process(&buf[..n]);
            }
        });
        Session {
            master: pair.master,
            writer,
            child,
            raw,
            screen,
            options: *options,
        }
    }

    pub fn contents(&self) -> String {
        self.screen.lock().unwrap().screen().contents()
    }

    pub fn wait_for(&self, what: &str) -> String {
        let start = Instant::now();
        loop {
            let c = self.contents();
            if c.contains(what) {
                return c;
            }
            if start.elapsed() > self.options.timeout {
                panic!("waited for {what:?}; the screen shows:\n{c}");
            }
            std::thread::sleep(self.options.poll);
        }
    }

    /// Waits until `what` is no longer on the screen (an overlay closed).
    pub fn wait_gone(&self, what: &str) -> String {
        let start = Instant::now();
        loop {
            let c = self.contents();
            if !c.contains(what) {
                return c;
            }
            if start.elapsed() > self.options.timeout {
                panic!("waited for {what:?} to go; the screen shows:\n{c}");
            }
            std::thread::sleep(self.options.poll);
        }
    }

    /// Writes `bytes` in one write: a key, or a whole burst.
    pub fn send(&mut self, bytes: &str) {
        self.writer.write_all(bytes.as_bytes()).unwrap();
        self.writer.flush().unwrap();
        // Let each key be read as its own event.
        std::thread::sleep(self.options.key_delay);
    }

    /// Sends each character of `keys` as its own key.
    pub fn keys(&mut self, keys: &str) {
        for c in keys.chars() {
            self.send(&c.to_string());
        }
    }

    /// Opens a prompt with `key`, types `text` and presses Enter.
    pub fn prompt(&mut self, key: &str, text: &str) {
        self.send(key);
        // The input line's hints; its text may start with the current value.
        self.wait_for("Esc cancel");
        self.keys(text);
        self.send("\r");
    }

    /// Resizes the pty and the emulated screen.
    pub fn resize(&self, cols: u16, rows: u16) {
        self.master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        self.screen.lock().unwrap().set_size(nz(rows), nz(cols));
    }

    /// Everything the program wrote so far, as text.
    pub fn raw_text(&self) -> String {
        String::from_utf8_lossy(&self.raw.lock().unwrap()).into_owned()
    }

    /// The exit code, if the child exits within `limit`.
    pub fn wait_exit_within(&mut self, limit: Duration) -> Option<u32> {
        let start = Instant::now();
        while start.elapsed() < limit {
            if let Some(status) = self.child.try_wait().unwrap() {
                std::thread::sleep(self.options.exit_grace);
                return Some(status.exit_code());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }

    /// Waits for the child to exit and returns its exit code.
    pub fn wait_exit(&mut self) -> u32 {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                // Give the reader a moment to take the last output.
                std::thread::sleep(self.options.exit_grace);
                return status.exit_code();
            }
            assert!(
                start.elapsed() < self.options.timeout,
                "bgedit did not exit"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}
