//! The analysis panel in the real binary, in a pseudo-terminal, with the
//! real gnubg: a position set up by keys shows gnubg's best move; keys typed
//! while a 3-ply analysis runs are answered at once. Skipped (with a printed
//! reason) without gnubg, failing under BGEDIT_REQUIRE_GNUBG=1.

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(30);

struct Session {
    _master: Box<dyn MasterPty + Send>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn Child + Send + Sync>,
    /// Everything the program wrote, and the emulated screen.
    _raw: Arc<Mutex<Vec<u8>>>,
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
            _master: pair.master,
            writer,
            child,
            _raw: raw,
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
            // Fine-grained: the waits below are the measured figures.
            std::thread::sleep(Duration::from_millis(1));
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
        self.wait_for("Esc cancel");
        self.keys(text);
        self.send("\r");
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

fn have_gnubg() -> bool {
    match bgedit::engine::locate::find_from_env(None) {
        Ok(_) => true,
        Err(e) if std::env::var("BGEDIT_REQUIRE_GNUBG").as_deref() == Ok("1") => {
            panic!("BGEDIT_REQUIRE_GNUBG=1 but {e}")
        }
        Err(e) => {
            eprintln!("skipped: {e}");
            false
        }
    }
}

impl Session {
    /// Sends `keys` and returns how long until the screen shows `what`.
    fn timed(&mut self, keys: &str, what: &str) -> Duration {
        let t = Instant::now();
        self.writer.write_all(keys.as_bytes()).unwrap();
        self.writer.flush().unwrap();
        self.wait_for(what);
        t.elapsed()
    }
}

#[test]
fn a_position_set_up_by_keys_shows_gnubgs_best_move_and_plays_it() {
    if !have_gnubg() {
        return;
    }
    let dir = state_dir("analysis-best");
    let mut s = Session::start(&["--new"], &dir, 120, 40);
    // No dice: the cube decision.
    s.wait_for("Proper cube action");
    // X rolls 21: gnubg's 0-ply hint puts 24/23 13/11 first (-0.008).
    s.prompt("d", "21");
    let screen = s.wait_for("1. 24/23 13/11");
    if std::env::var("SHOW_SCREEN").is_ok() {
        eprintln!("{screen}");
    }
    assert!(screen.contains("Analysis · gnubg"), "{screen}");
    // Select the best move, preview it, play it; undo brings the roll back.
    s.send("]");
    s.wait_for("PREVIEW");
    s.send("\r");
    let screen = s.wait_for("played");
    assert!(screen.contains("O on roll"), "{screen}");
    s.send("u");
    s.wait_for("X on roll");
    s.send("q");
    s.wait_exit();
}

#[test]
fn keys_typed_while_a_3_ply_analysis_runs_are_answered_at_once() {
    if !have_gnubg() {
        return;
    }
    let dir = state_dir("analysis-busy");
    // A middle game with 6-5 to play: 3-ply takes gnubg seconds.
    let mut s = Session::start(
        &["XGID=-b----E-C---eE---c-e----B-:0:0:1:65:0:0:0:0:10"],
        &dir,
        120,
        40,
    );
    s.wait_for("gnubg 0-ply");
    // Key → 0-ply answer on screen: the dice typed, then Enter, timed until
    // gnubg's best move for them shows (21: 24/23 13/11; 65: 24/13).
    let (mut answers, mut frames) = (Vec::new(), Vec::new());
    for (dice, best) in [
        ("21", "1. 24/23 13/11"),
        ("65", "1. 24/13"),
        ("21", "1. 24/23 13/11"),
        ("65", "1. 24/13"),
        ("21", "1. 24/23 13/11"),
    ] {
        s.send("d");
        s.wait_for("Dice (e.g. 52");
        s.keys(dice);
        let t = Instant::now();
        frames.push(s.timed("\r", &format!("rolled {dice}")));
        s.wait_for(best);
        answers.push(t.elapsed());
    }
    answers.sort();
    frames.sort();
    eprintln!(
        "Enter → its frame: median {:?}; Enter → 0-ply answer on screen: median {:?}, all {answers:?}",
        frames[frames.len() / 2],
        answers[answers.len() / 2]
    );
    s.send(">");
    s.wait_for("3-ply");
    s.send("a");
    s.wait_for("3-ply running");
    // Keys that leave the position alone, while gnubg is busy.
    let mut times = Vec::new();
    for _ in 0..5 {
        // Each wait is for what only the new screen shows: the help's hint,
        // then the normal hints (keys sent unanswered would be a paste).
        times.push(s.timed("?", "closes the help"));
        times.push(s.timed("?", "? help"));
    }
    times.sort();
    let worst = *times.last().unwrap();
    let screen = s.contents();
    eprintln!(
        "key → frame while 3-ply runs: median {:?}, worst {worst:?}",
        times[times.len() / 2]
    );
    assert!(screen.contains("3-ply running"), "still running: {screen}");
    assert!(worst < Duration::from_secs(5), "{worst:?}");
    // An edit while the 3-ply runs supersedes it: the new position's 0-ply
    // answer comes (after a gnubg restart if the 3-ply was still running).
    s.send("d");
    s.wait_for("Dice (e.g. 52");
    s.keys("65");
    let t = Instant::now();
    s.send("\r");
    let screen = s.wait_for("1. 24/13");
    eprintln!("edit during 3-ply → new 0-ply answer in {:?}", t.elapsed());
    assert!(screen.contains("gnubg 0-ply"), "{screen}");
    s.send("q");
    s.wait_exit();
}

#[test]
fn without_gnubg_the_panel_says_how_to_install_it_and_editing_works() {
    let dir = state_dir("analysis-missing");
    let mut s = Session::start(&["--new", "--gnubg", "/nonexistent/gnubg"], &dir, 120, 40);
    s.wait_for("apt-get install gnubg");
    s.send("E");
    s.wait_for("Position ID AAAAAAAAAAAAAA");
    s.send("q");
    s.wait_exit();
}
