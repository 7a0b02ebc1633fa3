//! Opening a file to read it whole, refusing what is not a regular file.
//!
//! Why: a FIFO with no writer blocks `open` for ever, and a device such as
//! `/dev/zero` never ends. A check of the path before opening would leave
//! a window for a FIFO swapped in, so the file is opened without blocking
//! (`O_NONBLOCK`, which a regular file's reads ignore) and its own
//! metadata checked.

use std::fs::{self, File};
use std::io;
use std::path::Path;

/// `path` opened for reading, or an error saying what else it is (`not a
/// regular file (a FIFO)`).
pub fn open(path: &Path) -> io::Result<File> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "not a regular file ({}); only files are read",
                kind_of(&meta)
            ),
        ));
    }
    Ok(file)
}

/// What a file that is not a regular one is, in words.
pub fn kind_of(meta: &fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    if meta.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fifo_and_a_device_are_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success());
        let e = open(&fifo).unwrap_err();
        assert!(e.to_string().contains("a FIFO"), "{e}");
        let e = open(Path::new("/dev/zero")).unwrap_err();
        assert!(e.to_string().contains("a device"), "{e}");
        let e = open(dir.path()).unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
        let file = dir.path().join("f");
        std::fs::write(&file, "x").unwrap();
        assert!(open(&file).is_ok());
    }
}
