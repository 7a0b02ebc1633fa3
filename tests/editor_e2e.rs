//! The real `bgedit` binary in a pseudo-terminal: keys in, screen read back
//! through a terminal emulator (vt100), exactly as a user would see it.

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(10);

struct Session {
    master: Box<dyn MasterPty + Send>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn Child + Send + Sync>,
    /// Everything the program wrote, and the emulated screen.
    raw: Arc<Mutex<Vec<u8>>>,
    screen: Arc<Mutex<vt100::Parser>>,
}

fn nz(n: u16) -> std::num::NonZeroU16 {
    std::num::NonZeroU16::new(n).expect("a terminal has rows and columns")
}

fn state_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("bgedit-e2e-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

impl Session {
    fn start(args: &[&str], state: &Path, cols: u16, rows: u16) -> Session {
        let pty = native_pty_system();
        let pair = pty
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
        // No display and no SSH: copying must fall back to OSC 52.
        for var in [
            "DISPLAY",
            "WAYLAND_DISPLAY",
            "SSH_CONNECTION",
            "SSH_TTY",
            "NO_COLOR",
        ] {
            cmd.env_remove(var);
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
        // Let each key be read as its own event.
        std::thread::sleep(Duration::from_millis(15));
    }

    fn keys(&mut self, keys: &str) {
        for c in keys.chars() {
            self.send(&c.to_string());
        }
    }

    /// Opens a prompt with `key`, types `text` and presses Enter.
    fn prompt(&mut self, key: &str, text: &str) {
        self.send(key);
        self.wait_for(": █");
        self.keys(text);
        self.send("\r");
    }

    fn raw_text(&self) -> String {
        String::from_utf8_lossy(&self.raw.lock().unwrap()).into_owned()
    }

    fn wait_exit(&mut self) -> u32 {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                // Give the reader a moment to take the last output.
                std::thread::sleep(Duration::from_millis(100));
                return status.exit_code();
            }
            assert!(start.elapsed() < TIMEOUT, "bgedit did not exit");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

/// The Japanese page's position and the manual's match state, built from an
/// empty board by keys alone, then read off the screen.
#[test]
fn builds_the_documents_example_by_keys_and_shows_its_ids() {
    let dir = state_dir("build");
    let mut s = Session::start(&["--new"], &dir, 100, 30);
    s.wait_for("Position ID 4HPwATDgc/ABMA");
    s.send("E");
    s.wait_for("Position ID AAAAAAAAAAAAAA");
    // X (on roll; points as the labels count them): 2 on 2, 2 on 5, 3 on
    // 6, 2 on 8, 1 on 9, 1 on 10, 2 on 13, 2 on 21.
    for (point, count) in [
        ("2", "2"),
        ("5", "2"),
        ("6", "3"),
        ("8", "2"),
        ("9", "1"),
        ("10", "1"),
        ("13", "2"),
        ("21", "2"),
    ] {
        s.prompt("g", point);
        s.send(count);
    }
    // O: 5 on its 6 point (X's 19), 2 on 7 (18), 3 on 8 (17), 4 on 13 (12).
    for (point, count) in [("19", "o5"), ("18", "o2"), ("17", "o3"), ("12", "o4")] {
        s.prompt("g", point);
        s.prompt("=", count);
    }
    // One O checker on O's bar: right of X's 18 point.
    s.prompt("g", "18");
    s.send("l");
    s.send("o");
    s.wait_for("Position ID 4NvBA0DGzooBBg");
    // 9-point match, 2-4, O holds a 2-cube, X rolled 52.
    s.prompt("m", "9");
    s.prompt("s", "2-4");
    s.send("c");
    s.send("n");
    s.prompt("d", "52");
    let screen = s.wait_for("GNUBG ID    4NvBA0DGzooBBg:QYkqASAAIAAA");
    assert!(screen.contains("Match ID    QYkqASAAIAAA"), "{screen}");
    assert!(
        screen.contains("XGID        XGID=a-B--BC-BAA-dB---cbe-B----:1:-1:1:52:4:2:0:9:10"),
        "{screen}"
    );
    assert!(screen.contains("Pips     O 145  X 135"), "{screen}");

    // Undo takes back the dice.
    s.send("u");
    s.wait_for("Match ID    QQkgASAAIAAA");
    s.send("U");
    s.wait_for("Match ID    QYkqASAAIAAA");

    // Quit: the terminal is restored and the IDs printed.
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
    let raw = s.raw_text();
    let after = raw.rsplit("\x1b[?1049l").next().unwrap();
    assert!(
        after.contains("GNUBG ID: 4NvBA0DGzooBBg:QYkqASAAIAAA"),
        "{after:?}"
    );
    assert!(
        after.contains("XGID=a-B--BC-BAA-dB---cbe-B----:1:-1:1:52:4:2:0:9:10"),
        "{after:?}"
    );
    for restore in ["\x1b[?1000l", "\x1b[?2004l", "\x1b[?1049l"] {
        assert!(
            raw.contains(restore),
            "terminal not restored: {restore:?} missing"
        );
    }

    // The position was saved and reopens with no arguments.
    let mut again = Session::start(&[], &dir, 100, 30);
    again.wait_for("GNUBG ID    4NvBA0DGzooBBg:QYkqASAAIAAA");
    again.wait_for("Reopened the last position");
    again.send("q");
    assert_eq!(again.wait_exit(), 0);
}

#[test]
fn a_bad_id_shows_the_message_and_changes_nothing() {
    let dir = state_dir("bad");
    let mut s = Session::start(&["--new"], &dir, 100, 30);
    s.wait_for("GNUBG ID    4HPwATDgc/ABMA:cAkAAAAAAAAA");
    s.prompt("i", "4HPwATDgc/ABM");
    let screen = s.wait_for("error: Position ID: 13 characters; a Position ID has 14");
    assert!(screen.contains("GNUBG ID    4HPwATDgc/ABMA:cAkAAAAAAAAA"));
    s.send("\x1b");
    // Wait for the Esc alone to be read before the paste's own escapes.
    s.wait_for("Cancelled");
    // A terminal paste (bracketed) of something that is not an ID.
    s.send("\x1b[200~hello there\x1b[201~");
    s.wait_for("error: not an ID: 'hello' is not a Position ID");
    // And a good one pasted the same way.
    s.send("\x1b[200~XGID=-b----E-C---eE---c-e----B-:1:1:1:52:0:0:3:0:10\x1b[201~");
    s.wait_for("XGID read");
    s.wait_for("Cube     2, X owns");
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
}

#[test]
fn copying_without_a_display_uses_osc52_and_says_so() {
    let dir = state_dir("copy");
    let mut s = Session::start(&["--new"], &dir, 100, 30);
    s.wait_for("Position ID");
    s.send("y");
    s.wait_for("GNUBG ID sent to the terminal's clipboard (OSC 52");
    let expected = bgedit::editor::clipboard::osc52("4HPwATDgc/ABMA:cAkAAAAAAAAA");
    assert!(
        s.raw_text().contains(&expected),
        "no OSC 52 sequence in the output"
    );
    s.send("p");
    s.wait_for("error: could not read the clipboard: there is no display");
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
}

#[test]
fn a_small_terminal_asks_to_be_enlarged_and_resizing_redraws() {
    let dir = state_dir("resize");
    let s = Session::start(&["--new"], &dir, 100, 30);
    s.wait_for("BAR");
    let resize = |cols, rows| {
        s.master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        s.screen.lock().unwrap().set_size(nz(rows), nz(cols));
    };
    resize(70, 20);
    s.wait_for("Terminal too small: enlarge to 80×24 (now 70×20)");
    resize(80, 24);
    s.wait_for("BAR");
}

#[test]
fn a_damaged_save_file_is_reported_and_ignored() {
    let dir = state_dir("damaged");
    std::fs::write(dir.join("position.json"), "{ this is not a position").unwrap();
    let mut s = Session::start(&[], &dir, 100, 30);
    let screen = s.wait_for("error: the saved position was ignored");
    assert!(
        screen.contains("GNUBG ID    4HPwATDgc/ABMA:cAkAAAAAAAAA"),
        "{screen}"
    );
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
}

#[test]
fn a_bad_id_on_the_command_line_is_an_error_before_the_screen() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_bgedit"))
        .arg("4HPwATDgc/ABMA:cAkAAAAAAAA")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "bgedit: Match ID: 11 characters; a Match ID has 12\n"
    );
}

/// The mouse, as the terminal reports it (SGR encoding): right-click takes a
/// checker off X's 13 point, a click puts one back, scrolling down takes one.
#[test]
fn the_mouse_selects_and_changes_counts() {
    let dir = state_dir("mouse");
    let mut s = Session::start(&["--new"], &dir, 100, 30);
    s.wait_for("Pips     O 167  X 167");
    // X's 13 point: board columns 2–4 of the first checker row, which is
    // screen row 2 (1-based: column 4, row 3).
    s.send("\x1b[<2;4;3M");
    s.wait_for("Pips     O 167  X 154");
    s.wait_for("Checker removed from point 13");
    s.send("\x1b[<0;4;3M");
    s.wait_for("Pips     O 167  X 167");
    s.send("\x1b[<65;4;3M");
    s.wait_for("Pips     O 167  X 154");
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
}

/// `#` shows the numbers at the score beside the board and `T` loads
/// another MET file; a bad file is refused with its reason.
#[test]
fn the_numbers_panel_follows_edits_and_loads_a_met_file() {
    let dir = state_dir("numbers");
    // 0-3 to 7, X on roll (gnubg: O 30.08%, X 69.92% with Kazaross-XG2).
    let mut s = Session::start(&["4HPwATDgc/ABMA:cAngAAAAGAAA"], &dir, 100, 30);
    s.wait_for("GNUBG ID    4HPwATDgc/ABMA:cAngAAAAGAAA");
    s.send("#");
    s.wait_for("MET Kazaross XG2 25 point MET");
    s.wait_for("now    69.9");
    let woolsey = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/met/woolsey.xml"
    );
    s.prompt("T", woolsey);
    s.wait_for("MET Kit Woolsey");
    // Woolsey's 4-away 7-away: 70%.
    s.wait_for("now    70.0");
    s.prompt("T", "/nonexistent/met.xml");
    s.wait_for("error: MET not loaded: cannot read /nonexistent/met.xml");
    s.send("\x1b");
    s.wait_for("MET Kit Woolsey");
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
}

/// `bgedit --met FILE` opens the editor with that table in the numbers
/// panel; a bad file stops before the screen.
#[test]
fn the_met_option_chooses_the_table_for_the_editor() {
    let dir = state_dir("met-option");
    let woolsey = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/met/woolsey.xml"
    );
    let mut s = Session::start(
        &["--met", woolsey, "4HPwATDgc/ABMA:cAngAAAAGAAA"],
        &dir,
        100,
        30,
    );
    s.wait_for("GNUBG ID    4HPwATDgc/ABMA:cAngAAAAGAAA");
    s.send("#");
    s.wait_for("MET Kit Woolsey");
    s.send("q");
    assert_eq!(s.wait_exit(), 0);

    let mut bad = Session::start(&["--met", "/nonexistent/met.xml"], &dir, 100, 30);
    assert_eq!(bad.wait_exit(), 2);
    assert!(
        bad.raw_text()
            .contains("--met: cannot read /nonexistent/met.xml")
    );
}
