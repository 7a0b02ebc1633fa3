//! The study library in the real binary, in a pseudo-terminal: add three
//! positions, filter, load one, edit its note, quit, reopen, find it again.

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};
use std::io::{Read, Write};
use std::path::Path;
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(15);

struct Session {
    _master: Box<dyn MasterPty + Send>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn Child + Send + Sync>,
    screen: Arc<Mutex<vt100::Parser>>,
}

impl Session {
    fn start(library: &Path, state: &Path) -> Session {
        let (cols, rows) = (100, 30);
        let pair = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_bgedit"));
        cmd.args(["--new", "--library"]);
        cmd.arg(library);
        cmd.env("TERM", "xterm-256color");
        cmd.env("BGEDIT_STATE_DIR", state);
        for var in ["DISPLAY", "WAYLAND_DISPLAY", "SSH_CONNECTION", "SSH_TTY"] {
            cmd.env_remove(var);
        }
        let child = pair.slave.spawn_command(cmd).unwrap();
        drop(pair.slave);
        let mut reader = pair.master.try_clone_reader().unwrap();
        let writer = pair.master.take_writer().unwrap();
        let screen = Arc::new(Mutex::new(vt100::Parser::new(
            std::num::NonZeroU16::new(rows).unwrap(),
            std::num::NonZeroU16::new(cols).unwrap(),
            0,
        )));
        let screen2 = screen.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                screen2.lock().unwrap().process(&buf[..n]);
            }
        });
        Session {
            _master: pair.master,
            writer,
            child,
            screen,
        }
    }

    fn contents(&self) -> String {
        self.screen.lock().unwrap().screen().contents()
    }

    fn wait_for(&self, what: &str) -> String {
        let start = Instant::now();
        loop {
            let c = self.contents();
            if c.contains(what) {
                return c;
            }
            if start.elapsed() > TIMEOUT {
                panic!("waited for {what:?}; the screen shows:\n{c}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn send(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).unwrap();
        self.writer.flush().unwrap();
        std::thread::sleep(Duration::from_millis(15));
    }

    fn keys(&mut self, keys: &str) {
        for c in keys.chars() {
            self.send(&c.to_string());
        }
    }

    /// Answers the question on the input line that `label` starts.
    fn answer(&mut self, label: &str, text: &str) {
        self.wait_for(label);
        self.keys(text);
        self.send("\r");
    }

    fn add(&mut self, id: &str, title: &str, tags: &str, entry: u32) {
        self.send("i");
        self.answer("ID (GNUBG ID", id);
        self.wait_for(" read");
        self.send("+");
        self.answer("Title (Enter for none)", title);
        self.answer("Tags, space-separated", tags);
        self.wait_for(&format!("as entry {entry}"));
    }

    fn quit(&mut self) {
        self.send("q");
        let start = Instant::now();
        while self.child.try_wait().unwrap().is_none() {
            assert!(start.elapsed() < TIMEOUT, "bgedit did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[test]
fn add_filter_load_edit_note_quit_reopen_and_find_again() {
    let dir = tempfile::tempdir().unwrap();
    let library = dir.path().join("library.sqlite");
    let mut s = Session::start(&library, dir.path());
    s.wait_for("? for help");

    s.add("4HPwATDgc/ABMA:cAkAAAAAAAAA", "Opening", "start", 1);
    s.add("4NvBA0DGzooBBg:QYkqASAAIAAA", "Manual example", "blitz", 2);
    s.add(
        "XGID=-CCBBBB------------bbbbcc-:2:0:1:00:0:0:0:0:10",
        "Bear-in race",
        "race",
        3,
    );
    // Adding the same position again says so.
    s.send("+");
    s.answer("Title (Enter for none)", "");
    s.answer("Tags, space-separated", "");
    s.wait_for("already in the library as entry 3");

    // The panel lists all three, newest first, and previews the highlighted.
    s.send("L");
    let screen = s.wait_for("Library · 3 entries");
    assert!(screen.contains("Bear-in race"), "{screen}");
    s.send("/");
    s.keys("tag:blitz");
    let screen = s.wait_for("Library · 1 entry · filter: tag:blitz");
    assert!(screen.contains("Manual example"), "{screen}");
    assert!(!screen.contains("Opening"), "{screen}");
    // The board previews it: the manual's position, 9-point match.
    assert!(screen.contains("9pt 2-4"), "{screen}");
    s.send("\r"); // keep the filter
    s.send("\r"); // load
    let screen = s.wait_for("Entry 2 (Manual example) loaded");
    assert!(screen.contains("4NvBA0DGzooBBg:QYkqASAAIAAA"), "{screen}");
    // Loading is undoable.
    s.send("u");
    let screen = s.wait_for("XGID=-CCBBBB------------bbbbcc-");
    assert!(!screen.contains("4NvBA0DGzooBBg:QYkqASAAIAAA"), "{screen}");
    s.send("U");
    s.wait_for("4NvBA0DGzooBBg:QYkqASAAIAAA");

    // Edit its note in the multi-line editor.
    s.send("L");
    s.wait_for("Library · 1 entry");
    s.send("e");
    s.wait_for("Note · Esc saves");
    s.keys("Hit loose");
    s.send("\r");
    s.keys("then cover");
    s.send("\x1b");
    s.wait_for("Entry 2: note saved");
    s.send("\x1b");
    s.wait_for("Library closed");
    s.quit();

    // Reopen: the note is found by the filter.
    let mut s = Session::start(&library, dir.path());
    s.wait_for("? for help");
    s.send("L");
    s.wait_for("Library · 3 entries");
    s.send("/");
    s.keys("loose");
    let screen = s.wait_for("Library · 1 entry · filter: loose");
    assert!(screen.contains("Manual example"), "{screen}");
    s.send("\x1b");
    s.wait_for("Library · 3 entries");
    s.send("\x1b");
    s.quit();

    let out = Command::new(env!("CARGO_BIN_EXE_bgedit"))
        .args(["library", "--library"])
        .arg(&library)
        .args(["show", "2"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Note:\nHit loose\nthen cover\n"), "{text}");
}
