//! The editor's edges in a real pseudo-terminal: signals from `kill`, the
//! too-small screen, pastes that arrive as a burst of keys, and the message
//! log. The binary is the real one; the screen is read back through vt100.

use crate::common;

use common::pty::{Options, Session};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(15);
const START_ID: &str = "4HPwATDgc/ABMA:cAkAAAAAAAAA";
const PTY: Options = Options {
    timeout: TIMEOUT,
    key_delay: Duration::from_millis(40),
    exit_grace: Duration::from_millis(150),
    ..Options::DEFAULT
};

fn state_dir(name: &str) -> PathBuf {
    common::pty::state_dir("bgedit-edge", name)
}

impl Session {
    /// The pty's line settings as `stty -a` prints them.
    fn stty(&self) -> String {
        let tty = self.master.tty_name().expect("a pty has a name");
        let out = std::process::Command::new("stty")
            .arg("-a")
            .arg("-F")
            .arg(&tty)
            .output()
            .expect("stty runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
}

/// `stty -a` lists a flag as `icanon` when set and `-icanon` when not.
fn flag_set(stty: &str, flag: &str) -> bool {
    stty.split_whitespace().any(|w| w == flag)
}

fn end_by_signal(signal: &str, number: u32) {
    let dir = state_dir(&format!("signal-{signal}"));
    let mut s = Session::start(&PTY, &["--new"], &dir, 100, 30);
    s.wait_for(&format!("GNUBG ID    {START_ID}"));
    // While running the terminal is raw, on the alternate screen, with the
    // mouse captured: what the signal must undo.
    let running = s.stty();
    assert!(!flag_set(&running, "icanon"), "{running}");
    {
        let p = s.screen.lock().unwrap();
        assert!(p.screen().alternate_screen());
        assert_ne!(
            p.screen().mouse_protocol_mode(),
            vt100::MouseProtocolMode::None
        );
    }
    // One edit, so the save on the way out has something to keep.
    s.send("E");
    s.wait_for("Empty board");
    let pid = s.child.process_id().expect("the child has a pid");
    let killed = std::process::Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(pid.to_string())
        .status()
        .unwrap();
    assert!(killed.success());
    assert_eq!(s.wait_exit(), 128 + number, "exit status after SIG{signal}");

    let stty = s.stty();
    for flag in ["icanon", "echo", "isig"] {
        assert!(
            flag_set(&stty, flag),
            "{flag} is off after SIG{signal}: {stty}"
        );
    }
    let p = s.screen.lock().unwrap();
    let screen = p.screen();
    assert!(!screen.alternate_screen(), "still on the alternate screen");
    assert!(!screen.hide_cursor(), "the cursor is still hidden");
    assert_eq!(
        screen.mouse_protocol_mode(),
        vt100::MouseProtocolMode::None,
        "mouse reporting is still on"
    );
    assert!(!screen.bracketed_paste(), "bracketed paste is still on");
    drop(p);
    let out = s.raw_text();
    assert!(
        out.contains("GNUBG ID: AAAAAAAAAAAAAA:cAkAAAAAAAAA"),
        "{out}"
    );
    let saved = std::fs::read_to_string(dir.join("position.json")).unwrap();
    assert!(saved.contains("AAAAAAAAAAAAAA"), "{saved}");
}

#[test]
fn sigterm_restores_the_terminal_saves_and_prints_the_ids() {
    end_by_signal("TERM", 15);
}

#[test]
fn sighup_restores_the_terminal_saves_and_prints_the_ids() {
    end_by_signal("HUP", 1);
}

#[test]
fn sigint_from_kill_restores_the_terminal_saves_and_prints_the_ids() {
    end_by_signal("INT", 2);
}

#[test]
fn keys_do_nothing_behind_the_enlarge_screen() {
    let dir = state_dir("small");
    let mut s = Session::start(&PTY, &["--new"], &dir, 100, 30);
    s.wait_for(&format!("GNUBG ID    {START_ID}"));
    s.resize(70, 20);
    s.wait_for("Terminal too small");
    s.send("E");
    s.send("x");
    std::thread::sleep(Duration::from_millis(200));
    s.resize(100, 30);
    let screen = s.wait_for("BAR");
    assert!(
        screen.contains(&format!("GNUBG ID    {START_ID}")),
        "an edit acted unseen:\n{screen}"
    );
    // Quit still works there.
    s.resize(70, 20);
    s.wait_for("Terminal too small");
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
}

/// A terminal that reports 65535×65535 (the largest size a terminal can
/// give): the editor draws in its capped area and goes on, where it asked
/// for two buffers of 4.3 billion cells and aborted.
#[test]
fn a_terminal_of_65535_by_65535_is_drawn_in_a_capped_area() {
    let dir = state_dir("huge");
    let mut s = Session::start(&PTY, &["--new"], &dir, 100, 30);
    s.wait_for(&format!("GNUBG ID    {START_ID}"));
    // The pty alone: the emulated screen stays 100×30, and shows the
    // capped drawing's top left.
    s.master
        .resize(portable_pty::PtySize {
            rows: u16::MAX,
            cols: u16::MAX,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(
        s.wait_exit_within(Duration::from_millis(100)),
        None,
        "the editor ended at 65535×65535:\n{}",
        s.contents()
    );
    s.resize(100, 30);
    s.send("q");
    assert_eq!(s.wait_exit(), 0, "{}", s.contents());
}

#[test]
fn an_id_pasted_without_bracketed_paste_is_read_as_an_id() {
    let dir = state_dir("burst");
    let mut s = Session::start(&PTY, &["--new"], &dir, 100, 30);
    s.wait_for(&format!("GNUBG ID    {START_ID}"));
    // Turn bracketed paste off as a terminal without it would have it, then
    // write the whole ID at once. Run as keys, its letters would edit the
    // board, rename players and quit.
    s.send("XGID=-b----E-C---eE---c-e----B-:1:1:1:52:0:0:3:0:10");
    let screen = s.wait_for("XGID read");
    assert!(screen.contains("Cube     2, X owns"), "{screen}");
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
}

/// An X server for one test: Xvfb on a display of its own, killed at the end.
struct Xvfb {
    display: String,
    server: std::process::Child,
}

impl Xvfb {
    /// For the tests marked as needing Xvfb and xclip (build.rs finds
    /// them; `BGEDIT_REQUIRE_XVFB=1` runs the tests without): fails,
    /// saying why, when either is missing.
    fn start() -> Xvfb {
        let have = |tool: &str| {
            std::process::Command::new("sh")
                .arg("-c")
                .arg(format!("command -v {tool}"))
                .output()
                .is_ok_and(|o| o.status.success())
        };
        assert!(
            have("Xvfb") && have("xclip"),
            "this test needs Xvfb and xclip (apt-get install xvfb xclip)"
        );
        // Xvfb picks a free display itself and writes its number on
        // standard output once it accepts clients (-displayfd).
        let mut server = std::process::Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                "640x480x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("Xvfb starts");
        let mut number = String::new();
        let mut out = std::io::BufReader::new(server.stdout.take().unwrap());
        std::io::BufRead::read_line(&mut out, &mut number).unwrap();
        let number = number.trim();
        assert!(!number.is_empty(), "Xvfb gave no display number");
        Xvfb {
            display: format!(":{number}"),
            server,
        }
    }

    /// The clipboard's text, if any owner serves it.
    fn xclip_out(&self) -> Option<String> {
        let out = std::process::Command::new("xclip")
            .args(["-o", "-selection", "clipboard"])
            .env("DISPLAY", &self.display)
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

#[test]
#[cfg_attr(not(bgedit_has_xvfb), ignore = "needs Xvfb and xclip")]
fn an_x11_copy_outlives_the_editor() {
    let x = Xvfb::start();
    let dir = state_dir("x11");
    let mut s = Session::start_with(&PTY, &["--new"], &dir, 100, 30, &[("DISPLAY", &x.display)]);
    s.wait_for(&format!("GNUBG ID    {START_ID}"));
    s.send("y");
    s.wait_for("GNUBG ID copied to the clipboard");
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
    // bgedit is gone; the clipboard still has the ID.
    let start = Instant::now();
    loop {
        let got = x.xclip_out();
        if got.as_deref() == Some(START_ID) {
            break;
        }
        assert!(
            start.elapsed() < TIMEOUT,
            "after quitting the clipboard holds {got:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // Another program taking the clipboard ends the holder.
    let mut other = std::process::Command::new("xclip")
        .args(["-selection", "clipboard", "-i"])
        .env("DISPLAY", &x.display)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    other.stdin.take().unwrap().write_all(b"theirs").unwrap();
    other.wait().unwrap();
    let start = Instant::now();
    while x.xclip_out().as_deref() != Some("theirs") {
        assert!(start.elapsed() < TIMEOUT, "the holder did not let go");
        std::thread::sleep(Duration::from_millis(100));
    }
    // And then it is gone.
    let start = Instant::now();
    while !holders_on(&x.display).is_empty() {
        assert!(start.elapsed() < TIMEOUT, "the holder outlived its copy");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[cfg(unix)]
#[test]
fn a_fifo_save_file_does_not_block_the_editor() {
    let dir = state_dir("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(dir.join("position.json"))
        .status()
        .unwrap();
    assert!(made.success());
    let mut s = Session::start(&PTY, &[], &dir, 200, 30);
    let screen = s.wait_for("is not a regular file (a FIFO)");
    assert!(
        screen.contains(&format!("GNUBG ID    {START_ID}")),
        "{screen}"
    );
    s.send("E");
    s.wait_for("could not save the position");
    s.send("q");
    // The last save failed: the run is not a clean one.
    assert_eq!(s.wait_exit(), 1);
}

#[test]
fn a_damaged_save_file_is_moved_aside_and_the_screen_says_where() {
    let dir = state_dir("damaged");
    std::fs::write(dir.join("position.json"), "{ not a position").unwrap();
    let mut s = Session::start(&PTY, &[], &dir, 200, 30);
    s.wait_for("it was moved to");
    s.send("E");
    s.wait_for("Empty board");
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
    let aside: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("position.json.damaged-"))
        .collect();
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert_eq!(
        std::fs::read_to_string(dir.join(&aside[0])).unwrap(),
        "{ not a position"
    );
}

#[test]
fn two_editors_on_one_state_directory_keep_each_others_positions() {
    let dir = state_dir("two");
    let mut a = Session::start(&PTY, &["--new"], &dir, 200, 30);
    let mut b = Session::start(&PTY, &["--new"], &dir, 200, 30);
    a.wait_for(&format!("GNUBG ID    {START_ID}"));
    b.wait_for(&format!("GNUBG ID    {START_ID}"));
    a.send("E");
    a.wait_for("Empty board");
    // b saves over a file a wrote since b looked: a's position is kept.
    b.send("c");
    b.wait_for("another bgedit saved");
    let kept: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("position.json.other-")
        })
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    let theirs = std::fs::read_to_string(&kept[0]).unwrap();
    assert!(theirs.contains("AAAAAAAAAAAAAA"), "{theirs}");
    for s in [&mut a, &mut b] {
        s.send("q");
        assert_eq!(s.wait_exit(), 0);
    }
}

#[test]
fn a_burst_of_keys_behind_the_help_does_not_edit() {
    let dir = state_dir("burst-help");
    let mut s = Session::start(&PTY, &["--new"], &dir, 100, 30);
    s.wait_for(&format!("GNUBG ID    {START_ID}"));
    s.send("?");
    s.wait_for("key closes");
    // Run as keys, the first would close the help and the rest empty the board.
    s.send("EEEEEEEEEE");
    s.send("\x1b");
    std::thread::sleep(Duration::from_millis(200));
    let screen = s.wait_for("GNUBG ID    ");
    assert!(
        screen.contains(&format!("GNUBG ID    {START_ID}")),
        "the burst edited the board:\n{screen}"
    );
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
}

/// The pids of clipboard holders serving `display`.
fn holders_on(display: &str) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let read = |f: &str| std::fs::read(entry.path().join(f)).unwrap_or_default();
        let cmdline = read("cmdline");
        let environ = read("environ");
        let has = |hay: &[u8], needle: &[u8]| hay.split(|&b| b == 0).any(|w| w == needle);
        if has(&cmdline, b"__hold-clipboard")
            && has(&environ, format!("DISPLAY={display}").as_bytes())
        {
            found.push(pid);
        }
    }
    found
}

#[test]
#[cfg_attr(not(bgedit_has_xvfb), ignore = "needs Xvfb and xclip")]
fn a_clipboard_holder_ends_with_its_display() {
    let mut x = Xvfb::start();
    let dir = state_dir("x11-gone");
    let display = x.display.clone();
    let mut s = Session::start_with(&PTY, &["--new"], &dir, 100, 30, &[("DISPLAY", &display)]);
    s.wait_for(&format!("GNUBG ID    {START_ID}"));
    s.send("y");
    s.wait_for("GNUBG ID copied to the clipboard");
    s.send("q");
    assert_eq!(s.wait_exit(), 0);
    let start = Instant::now();
    while holders_on(&display).is_empty() {
        assert!(start.elapsed() < TIMEOUT, "no holder after the copy");
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = x.server.kill();
    let _ = x.server.wait();
    let start = Instant::now();
    while !holders_on(&display).is_empty() {
        assert!(start.elapsed() < TIMEOUT, "the holder outlived its display");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Closing the terminal (its window, its ssh session) ends the editor: it
/// saves and leaves, and waits for no thread stuck reading the ended
/// terminal (crossterm reads it again and again). Python's `pty` holds
/// every descriptor of the terminal here, so closing it is a real hang-up.
#[test]
fn a_closed_terminal_ends_the_editor() {
    let dir = state_dir("hangup");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/editor/hangup_pty.py");
    let out = std::process::Command::new("python3")
        .args([script, env!("CARGO_BIN_EXE_bgedit")])
        .arg(&dir)
        .output()
        .expect("python3 runs");
    let said = String::from_utf8_lossy(&out.stdout);
    let words: Vec<&str> = said.split_whitespace().collect();
    assert_eq!(words.first(), Some(&"exited"), "{said}");
    // The shell's status for SIGHUP, as for `kill -HUP`.
    assert_eq!(words.get(1), Some(&"129"), "{said}");
    // The edit was kept.
    let saved = std::fs::read_to_string(dir.join("position.json")).unwrap_or_default();
    assert!(saved.contains("\"board\""), "{saved}");
}
