//! What `library import FILE|DIR...` reads: the files given, and every
//! file under the directories given (recursively, in name order), with a
//! count of files done and an ETA on standard error while it runs.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Deepest directory nesting followed under a directory given.
const MAX_DEPTH: usize = 64;

/// A file to import.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Input {
    pub path: PathBuf,
    /// Found in a directory given (not named itself): only a match file
    /// (by content) is imported from there; other files are passed over.
    pub found: bool,
}

/// The files `paths` name, each directory replaced by the files under it.
/// A directory that cannot be listed is said and counted in `unreadable`.
pub(super) fn expand(paths: &[PathBuf], unreadable: &mut u64) -> Vec<Input> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, 0, &mut out, unreadable);
        } else {
            out.push(Input {
                path: p.clone(),
                found: false,
            });
        }
    }
    out
}

/// The files under `dir`, sorted by name. Symbolic links to directories
/// are not followed (a link back up would never end).
fn walk(dir: &Path, depth: usize, out: &mut Vec<Input>, unreadable: &mut u64) {
    let shown = bgedit_core::quote::printable(&dir.display().to_string()).into_owned();
    if depth > MAX_DEPTH {
        bgedit_core::say!("{shown}: more than {MAX_DEPTH} directories deep; not read");
        *unreadable += 1;
        return;
    }
    let listed = std::fs::read_dir(dir).and_then(|r| r.collect::<std::io::Result<Vec<_>>>());
    let mut entries = match listed {
        Ok(e) => e,
        Err(e) => {
            bgedit_core::say!("{shown}: cannot list it: {e}");
            *unreadable += 1;
            return;
        }
    };
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let path = e.path();
        match e.file_type() {
            Ok(t) if t.is_dir() => walk(&path, depth + 1, out, unreadable),
            Ok(t) if t.is_file() || t.is_symlink() && path.is_file() => {
                out.push(Input { path, found: true })
            }
            _ => {}
        }
    }
}

/// `done of total files, ETA` on standard error, drawn only when it is a
/// terminal, and at most every tenth of a second.
pub(super) struct FileProgress {
    total: usize,
    started: Instant,
    drawn: Option<Instant>,
    on: bool,
}

impl FileProgress {
    pub(crate) fn new(total: usize) -> FileProgress {
        FileProgress {
            total,
            started: Instant::now(),
            drawn: None,
            on: std::io::stderr().is_terminal() && total > 1,
        }
    }

    pub(crate) fn set(&mut self, done: usize) {
        if !self.on || self.drawn.is_some_and(|t| t.elapsed().as_millis() < 100) {
            return;
        }
        self.drawn = Some(Instant::now());
        eprint!("\r{}\x1b[K", line(done, self.total, self.started.elapsed()));
    }

    pub(crate) fn finish(&mut self) {
        if self.on {
            eprint!("\r\x1b[K");
        }
    }
}

/// `importing 12/40 files, 3.0/s, ETA 0:09`.
pub(super) fn line(done: usize, total: usize, elapsed: std::time::Duration) -> String {
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 { done as f64 / secs } else { 0.0 };
    let eta = if rate > 0.0 {
        let left = ((total - done.min(total)) as f64 / rate).round() as u64;
        format!("ETA {}:{:02}", left / 60, left % 60)
    } else {
        "ETA --:--".to_owned()
    };
    format!("importing {done}/{total} files, {rate:.1}/s, {eta}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_progress_line_gives_the_count_rate_and_eta() {
        assert_eq!(
            line(10, 40, Duration::from_secs(5)),
            "importing 10/40 files, 2.0/s, ETA 0:15"
        );
        assert_eq!(
            line(0, 3, Duration::ZERO),
            "importing 0/3 files, 0.0/s, ETA --:--"
        );
    }
}
