//! The `bgedit` binary run as a user runs it from a shell: arguments, text
//! on stdin, and stdout, stderr and the exit status captured.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The binary under test, as a command to add arguments to.
pub fn command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bgedit"))
}

/// Runs `cmd` with `stdin` written to it and stdout and stderr captured.
pub fn output_of(cmd: &mut Command, stdin: &str) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bgedit runs");
    // A command refused by its arguments exits without reading its input:
    // the pipe is then closed, which is not the test's failure.
    match child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        written => written.unwrap(),
    }
    child.wait_with_output().unwrap()
}

/// Runs `bgedit ARGS` with `stdin` written to it.
pub fn bgedit(args: &[&str], stdin: &str) -> Output {
    output_of(command().args(args), stdin)
}

/// Output that must be UTF-8, as a string.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// Runs `bgedit library --library LIB ARGS`: its exit status, stdout and
/// stderr.
pub fn library(lib: &std::path::Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = command()
        .args(["library", "--library"])
        .arg(lib)
        .args(args)
        .output()
        .unwrap();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}
