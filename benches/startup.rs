//! The running editor, measured as a user meets it: the time from starting
//! `bgedit` in a terminal to its first full frame, and its resident memory
//! then and after 500 edits. Targets (issue 3): under 30 ms, under 15 MB.
//!
//! `cargo bench --bench startup` (uses the release binary of the bench build).

use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

struct Run {
    first_frame: Duration,
    rss_start: u64,
    rss_after_edits: u64,
}

fn one_run(state: &std::path::Path) -> Run {
    let pty = native_pty_system();
    let pair = pty
        .openpty(PtySize {
            rows: 24,
            cols: 80,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_bgedit"));
    cmd.arg("--new");
    cmd.env("TERM", "xterm-256color");
    cmd.env("BGEDIT_STATE_DIR", state);
    cmd.env_remove("DISPLAY");
    cmd.env_remove("WAYLAND_DISPLAY");
    let t0 = Instant::now();
    let mut child = pair.slave.spawn_command(cmd).unwrap();
    drop(pair.slave);
    let pid = child.process_id().unwrap();
    let mut reader = pair.master.try_clone_reader().unwrap();
    let mut writer = pair.master.take_writer().unwrap();
    let seen = Arc::new(Mutex::new(Vec::<u8>::new()));
    let seen2 = seen.clone();
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            seen2.lock().unwrap().extend_from_slice(&buf[..n]);
        }
    });
    // The first frame is complete when the XGID (drawn below the board) is out.
    let first_frame = loop {
        if String::from_utf8_lossy(&seen.lock().unwrap()).contains(":0:0:1:00:0:0:3:0:10") {
            break t0.elapsed();
        }
        assert!(t0.elapsed() < Duration::from_secs(10), "no frame");
        std::thread::sleep(Duration::from_micros(200));
    };
    let rss_start = rss_kib(pid).unwrap_or(0);
    for i in 0..500 {
        writer
            .write_all(if i % 2 == 0 { b"-" } else { b"x" })
            .unwrap();
    }
    writer.flush().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let rss_after_edits = rss_kib(pid).unwrap_or(0);
    writer.write_all(b"q").unwrap();
    writer.flush().unwrap();
    let _ = child.wait();
    Run {
        first_frame,
        rss_start,
        rss_after_edits,
    }
}

fn main() {
    // `cargo bench` passes filters and flags; this bench takes none.
    let state = std::env::temp_dir().join(format!("bgedit-startup-{}", std::process::id()));
    std::fs::create_dir_all(&state).unwrap();
    let mut runs: Vec<Run> = (0..20).map(|_| one_run(&state)).collect();
    runs.sort_by_key(|r| r.first_frame);
    let median = &runs[runs.len() / 2];
    let worst = runs.last().unwrap();
    let rss_max = runs
        .iter()
        .map(|r| r.rss_start.max(r.rss_after_edits))
        .max()
        .unwrap_or(0);
    println!(
        "startup to first frame (80x24, 20 runs): median {:.1} ms, worst {:.1} ms",
        median.first_frame.as_secs_f64() * 1e3,
        worst.first_frame.as_secs_f64() * 1e3
    );
    println!(
        "resident memory: {:.1} MiB at the first frame, {:.1} MiB after 500 edits (largest of 20 runs: {:.1} MiB)",
        median.rss_start as f64 / 1024.0,
        median.rss_after_edits as f64 / 1024.0,
        rss_max as f64 / 1024.0
    );
    let _ = std::fs::remove_dir_all(state);
}
