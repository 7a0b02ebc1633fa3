//! A file a command writes (a saved match, a report): written whole or not
//! at all, and never over the file it was made from.

use std::fs;
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// Why an output file was not written. Paths are shown escaped.
#[derive(Debug, thiserror::Error)]
pub enum OutFileError {
    #[error("{out}: this is the file read ({input}); it is not written over")]
    SameAsInput { out: String, input: String },
    #[error("{out}: cannot write it: {source}")]
    Write {
        out: String,
        #[source]
        source: io::Error,
    },
}

fn shown(path: &Path) -> String {
    crate::quote::printable(&path.display().to_string()).into_owned()
}

/// Whether `a` and `b` are one file (the same path, or two names of it).
fn same_file(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Refuses an `out` that is `input` (`-`, standard input, is never one):
/// asked before long work, so the refusal comes at once.
pub fn not_the_input(out: &Path, input: &Path) -> Result<(), OutFileError> {
    if input != Path::new("-") && same_file(out, input) {
        return Err(OutFileError::SameAsInput {
            out: shown(out),
            input: shown(input),
        });
    }
    Ok(())
}

/// Writes `bytes` to `out` through a temporary file beside it, synced and
/// renamed into place: a reader sees the old file or the whole new one. An
/// `out` that is `input` (`-` for standard input is never one) is refused
/// before anything is written.
pub fn write_whole(out: &Path, input: &Path, bytes: &[u8]) -> Result<(), OutFileError> {
    not_the_input(out, input)?;
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let failed = |source| OutFileError::Write {
        out: shown(out),
        source,
    };
    let dir = match out.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = out
        .file_name()
        .ok_or_else(|| failed(io::Error::other("no file name")))?
        .to_string_lossy();
    let tmp = dir.join(format!(
        ".{name}.{}.{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let written = (|| -> io::Result<()> {
        let mut file = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&tmp, out)
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(failed(e));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_the_input_and_writes_whole() {
        let dir = std::env::temp_dir().join(format!("bgedit-out-file-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let input = dir.join("m.sgf");
        fs::write(&input, "original").unwrap();
        let again = dir.join(".").join("m.sgf");
        let e = write_whole(&again, &input, b"new").unwrap_err();
        assert!(matches!(e, OutFileError::SameAsInput { .. }), "{e}");
        assert_eq!(fs::read_to_string(&input).unwrap(), "original");
        let out = dir.join("out.sgf");
        write_whole(&out, &input, b"new").unwrap();
        assert_eq!(fs::read_to_string(&out).unwrap(), "new");
        let leftovers = fs::read_dir(&dir).unwrap().count();
        assert_eq!(leftovers, 2, "no temporary file is left");
        let _ = fs::remove_dir_all(&dir);
    }
}
