//! Which engines this machine has, for the tests that need one.
//!
//! A test that talks to gnubg is marked
//! `#[cfg_attr(not(bgedit_has_gnubg), ignore = "needs gnubg 1.07 ...")]`,
//! so plain `cargo test` runs it where gnubg is found and reports it
//! *ignored*, with that reason, where it is not (it used to return early
//! and be reported as passed). The same for Open Sage (`bgedit_has_sage`:
//! a Python that imports bgsage), GNU parallel (`bgedit_has_parallel`) and
//! the X server and clipboard tool of the X11 copy tests (`bgedit_has_xvfb`:
//! `Xvfb` and `xclip` on PATH).
//!
//! The engines are looked for as bgedit looks for them: gnubg by
//! `BGEDIT_GNUBG`, else `gnubg` on PATH, else `/usr/games/gnubg`; Sage's
//! Python by `BGEDIT_SAGE_PYTHON`, else `python3` on PATH. Under
//! `BGEDIT_REQUIRE_GNUBG=1` (and `_SAGE`, `_PARALLEL`, `_XVFB`), as in CI, the cfg
//! is set without looking: the tests run, and fail loudly when the engine
//! is missing.
//!
//! Cargo reruns this when one of those variables changes, or when the
//! program found changes, or, when none was found, when one of the
//! directories it would appear in changes (never a path that does not
//! exist: cargo would then rerun it on every build).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    for cfg in [
        "bgedit_has_gnubg",
        "bgedit_has_sage",
        "bgedit_has_parallel",
        "bgedit_has_xvfb",
    ] {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
    }
    if required("BGEDIT_REQUIRE_GNUBG") || gnubg() {
        println!("cargo::rustc-cfg=bgedit_has_gnubg");
    }
    if required("BGEDIT_REQUIRE_SAGE") || sage() {
        println!("cargo::rustc-cfg=bgedit_has_sage");
    }
    if required("BGEDIT_REQUIRE_PARALLEL") || parallel() {
        println!("cargo::rustc-cfg=bgedit_has_parallel");
    }
    if required("BGEDIT_REQUIRE_XVFB") || xvfb() {
        println!("cargo::rustc-cfg=bgedit_has_xvfb");
    }
}

/// Whether `name` is set to 1: the engine is required, found or not.
fn required(name: &str) -> bool {
    println!("cargo::rerun-if-env-changed={name}");
    std::env::var(name).as_deref() == Ok("1")
}

/// The variable `name`, watched, when it is set and not empty.
fn env(name: &str) -> Option<String> {
    println!("cargo::rerun-if-env-changed={name}");
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// The directories of PATH, watched for `program` to appear in them.
fn path_dirs() -> Vec<PathBuf> {
    env("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default()
}

/// Watches `path` when it exists.
fn watch(path: &Path) {
    if path.exists() {
        println!("cargo::rerun-if-changed={}", path.display());
    }
}

/// The program a variable names, or the first `name` in `dirs`; what was
/// found is watched, or, when nothing was, the places it would appear.
fn find(
    variable: Option<&str>,
    name: &str,
    dirs: impl FnOnce() -> Vec<PathBuf>,
) -> Option<PathBuf> {
    if let Some(named) = variable.and_then(env) {
        let named = PathBuf::from(named);
        if named.is_file() {
            watch(&named);
            return Some(named);
        }
        if let Some(dir) = named.parent() {
            watch(dir);
        }
        return None;
    }
    let dirs = dirs();
    let found = dirs.iter().map(|d| d.join(name)).find(|p| p.is_file());
    match &found {
        Some(program) => watch(program),
        None => dirs.iter().for_each(|d| watch(d)),
    }
    found
}

fn gnubg() -> bool {
    let dirs = || {
        let mut dirs = path_dirs();
        dirs.push(PathBuf::from("/usr/games"));
        dirs
    };
    find(Some("BGEDIT_GNUBG"), "gnubg", dirs).is_some()
}

/// A Python that imports bgsage. Where it does, bgsage's own file is
/// watched; where it does not, the directories a `pip install` would put
/// it in.
fn sage() -> bool {
    let Some(python) = find(Some("BGEDIT_SAGE_PYTHON"), "python3", path_dirs) else {
        return false;
    };
    let ask = |code: &str| {
        Command::new(&python)
            .args(["-c", code])
            .stderr(Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
    };
    match ask("import bgsage; print(bgsage.__file__)") {
        Some(file) => {
            watch(Path::new(file.trim()));
            true
        }
        None => {
            let dirs = ask(
                "import site; print('\\n'.join(site.getsitepackages() + [site.getusersitepackages()]))",
            );
            for dir in dirs.iter().flat_map(|d| d.lines()) {
                watch(Path::new(dir));
            }
            false
        }
    }
}

/// GNU parallel on PATH (moreutils has a `parallel` too, which is not it).
fn parallel() -> bool {
    let Some(program) = find(None, "parallel", path_dirs) else {
        return false;
    };
    Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"GNU parallel"))
}

/// Xvfb and xclip on PATH.
fn xvfb() -> bool {
    find(None, "Xvfb", path_dirs).is_some() && find(None, "xclip", path_dirs).is_some()
}
