//! Bounds whatever a file holds: a match file of the largest size read
//! (16 MiB), made of one small node repeated millions of times, is read in
//! memory a small multiple of the file, and a problem met at every node is
//! said once with how many more like it followed.

use crate::common::run::command;
use std::io::Read;
use std::process::Stdio;

/// What a run printed and the most memory it held.
struct Measured {
    stdout_lines: usize,
    stderr: String,
    stderr_lines: usize,
    /// Peak resident memory of the bgedit process alone.
    peak_mib: f64,
    code: Option<i32>,
}

/// Counts the lines of `stream` as it comes, keeping the first 64 KiB.
fn drain(mut stream: impl Read + Send + 'static) -> std::thread::JoinHandle<(String, usize)> {
    std::thread::spawn(move || {
        let (mut kept, mut lines, mut buf) = (Vec::new(), 0, vec![0u8; 1 << 16]);
        while let Ok(n) = stream.read(&mut buf) {
            if n == 0 {
                break;
            }
            lines += buf[..n].iter().filter(|&&b| b == b'\n').count();
            let room = (1usize << 16).saturating_sub(kept.len());
            kept.extend_from_slice(&buf[..n.min(room)]);
        }
        (String::from_utf8_lossy(&kept).into_owned(), lines)
    })
}

/// A process's peak resident memory so far (VmHWM), in MiB, while it runs.
fn high_water_mib(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// Watches `pid`'s peak memory until it ends: the last VmHWM read (the
/// peak only grows; a process has none once it has exited).
fn watch_high_water(pid: u32) -> std::thread::JoinHandle<f64> {
    std::thread::spawn(move || {
        let mut peak = 0.0f64;
        while let Some(mib) = high_water_mib(pid) {
            peak = peak.max(mib);
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
        peak
    })
}

// The child is waited for by wait4, which also gives its own peak memory
// (std's `wait` gives no rusage). But Linux's peak of a process includes
// the memory of the process it was forked from, up to its exec: while the
// rest of the suite runs beside it, the test process itself can be larger
// than the limit (95 MiB once), and wait4 then says nothing of bgedit. So
// wait4's figure is the measure while the test process is below the
// limit, and the peak watched in /proc while bgedit runs otherwise.
#[expect(clippy::zombie_processes, reason = "waited for by libc::wait4")]
fn measured(args: &[&str]) -> Measured {
    let mut child = command()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let ours = high_water_mib(std::process::id()).unwrap_or(f64::INFINITY);
    let watched = watch_high_water(child.id());
    let out = drain(child.stdout.take().unwrap());
    let err = drain(child.stderr.take().unwrap());
    let mut status = 0;
    // SAFETY: rusage is plain data that wait4 fills; the pid is our child's,
    // waited for here once (the Child is not waited for again).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4: {}", std::io::Error::last_os_error());
    let (_, stdout_lines) = out.join().unwrap();
    let (stderr, stderr_lines) = err.join().unwrap();
    // Linux gives ru_maxrss in KiB.
    let waited_mib = usage.ru_maxrss as f64 / 1024.0;
    let watched_mib = watched.join().unwrap();
    Measured {
        stdout_lines,
        stderr,
        stderr_lines,
        peak_mib: if ours < PEAK_MIB {
            waited_mib
        } else {
            watched_mib
        },
        code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
    }
}

/// An SGF match of one game whose root is followed by `node` repeated up to
/// the 16 MiB bgedit reads; and how many times it is repeated.
fn sgf_of(dir: &std::path::Path, name: &str, node: &str) -> (std::path::PathBuf, usize) {
    let head = "(;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:0][game:0][ws:0][bs:0]\
                PW[a]PB[b]RU[];PL[B]AE[a:y]AW[f][f][f][f][f][h][h][h][m][m][m][m][m][x][x]\
                AB[s][s][s][s][s][q][q][q][l][l][l][l][l][a][a]";
    let max = bgedit_core::codec::sgf::MAX_LEN;
    let count = (max - head.len() - 1) / node.len();
    let mut text = String::with_capacity(max);
    text.push_str(head);
    for _ in 0..count {
        text.push_str(node);
    }
    text.push(')');
    assert!(text.len() <= max && text.len() > max - node.len() - 1);
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    (path, count)
}

/// The memory a run may take reading a 16 MiB file: the file's bytes
/// themselves, four bytes a node for the outline, and the program.
const PEAK_MIB: f64 = 16.0 * 4.0 + 16.0;

#[test]
fn sixteen_mib_of_empty_properties_is_read_in_a_small_multiple_of_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let (file, _) = sgf_of(dir.path(), "empty.sgf", ";A[]");
    let run = measured(&["match", file.to_str().unwrap()]);
    assert!(
        run.peak_mib < PEAK_MIB,
        "{:.0} MiB to read a 16 MiB file of `;A[]` (at most {PEAK_MIB}): {}",
        run.peak_mib,
        run.stderr
    );
    // The set-up's one position, and nothing to say about the rest.
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(run.stdout_lines >= 1, "{}", run.stderr);
    assert_eq!(run.stderr_lines, 0, "{}", run.stderr);
}

#[test]
fn a_problem_at_every_node_is_said_once_with_how_many_more() {
    let dir = tempfile::tempdir().unwrap();
    let (file, nodes) = sgf_of(dir.path(), "cubes.sgf", ";CV[]");
    let run = measured(&["match", file.to_str().unwrap()]);
    assert!(
        run.peak_mib < PEAK_MIB,
        "{:.0} MiB to read a 16 MiB file of `;CV[]` (at most {PEAK_MIB})",
        run.peak_mib
    );
    // One line says the problem and how many more like it there were:
    // millions of them, the thousands grouped.
    assert!(
        run.stderr_lines <= 2,
        "{} lines: {}",
        run.stderr_lines,
        run.stderr
    );
    let line = run.stderr.lines().next().unwrap_or_default();
    assert!(line.contains("CV[]: the cube is a power of two"), "{line}");
    let count = line
        .split("(and ")
        .nth(1)
        .and_then(|rest| rest.split(" more like it)").next())
        .unwrap_or_else(|| panic!("no count of the rest: {line}"));
    let groups: Vec<&str> = count.split(',').collect();
    assert!(
        groups.len() == 3 && groups[1..].iter().all(|g| g.len() == 3),
        "{count}"
    );
    let more: usize = groups.concat().parse().unwrap();
    assert_eq!(more, nodes - 1, "{line}");
}
