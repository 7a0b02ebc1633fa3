//! The save file under stress: editors sharing one state directory, damaged
//! and oversized files, and a FIFO in its place.

use bgedit_core::codec::json;
use bgedit_core::domain::Position;
use bgedit_tui::io::persist::{MAX_SAVE_BYTES, Opened, SaveFile};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("bgedit-save-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn named(o: &str) -> Position {
    let mut p = Position::default();
    p.names.o = o.into();
    p
}

fn files_starting(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .collect()
}

#[test]
fn saves_and_reopens_every_field() {
    let dir = temp_dir("roundtrip");
    let path = dir.join("sub").join("position.json");
    let (mut file, opened) = SaveFile::open(&path);
    assert_eq!(opened, Opened::Nothing);
    let mut p = named("Kit");
    p.state.beavers = false;
    assert_eq!(file.save(&p), Ok(None));
    assert_eq!(file.save(&p), Ok(None), "its own save is no conflict");
    assert_eq!(SaveFile::open(&path).1, Opened::Position(p));
    assert!(
        files_starting(&dir.join("sub"), ".position.json").is_empty(),
        "no temporary left"
    );
}

#[test]
fn two_editors_saving_at_once_never_fail_and_a_reader_never_sees_a_partial_file() {
    let dir = temp_dir("concurrent");
    let path = dir.join("position.json");
    SaveFile::open(&path).0.save(&named("start")).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let reader = {
        let (path, stop) = (path.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut reads = 0;
            while !stop.load(Ordering::Relaxed) {
                let text = std::fs::read_to_string(&path).expect("the save file is always there");
                json::decode(text.trim()).unwrap_or_else(|e| panic!("a reader saw {text:?}: {e}"));
                reads += 1;
            }
            reads
        })
    };
    let editors: Vec<_> = ["a", "b"]
        .into_iter()
        .map(|who| {
            let path = path.clone();
            std::thread::spawn(move || {
                let (mut file, _) = SaveFile::open(&path);
                for i in 0..300 {
                    file.save(&named(&format!("{who}{i}")))
                        .unwrap_or_else(|e| panic!("editor {who} save {i}: {e}"));
                }
            })
        })
        .collect();
    for e in editors {
        e.join().unwrap();
    }
    stop.store(true, Ordering::Relaxed);
    assert!(reader.join().unwrap() > 0);
    assert!(
        files_starting(&dir, ".position.json").is_empty(),
        "no temporary left"
    );
}

#[test]
fn another_editors_save_is_kept_aside_and_named() {
    let dir = temp_dir("conflict");
    let path = dir.join("position.json");
    let (mut a, _) = SaveFile::open(&path);
    let (mut b, _) = SaveFile::open(&path);
    a.save(&named("first")).unwrap();
    // b never saw a's file: saving over it would lose a's position.
    let note = b.save(&named("theirs")).unwrap().expect("b is told");
    assert!(note.contains("another bgedit saved"), "{note}");
    let kept = files_starting(&dir, "position.json.other-");
    assert_eq!(kept.len(), 1);
    assert!(note.contains(&kept[0].display().to_string()), "{note}");
    let kept_text = std::fs::read_to_string(&kept[0]).unwrap();
    assert_eq!(json::decode(kept_text.trim()).unwrap(), named("first"));
    // And now a hears of b's.
    assert!(a.save(&named("second")).unwrap().is_some());
    assert_eq!(b.save(&named("theirs")).unwrap().map(|_| ()), Some(()));
    // Saving again over one's own file says nothing.
    assert_eq!(b.save(&named("again")), Ok(None));
}

#[test]
fn a_damaged_file_is_moved_aside_before_anything_overwrites_it() {
    let dir = temp_dir("damaged");
    let path = dir.join("position.json");
    std::fs::write(&path, "{ not json").unwrap();
    let (mut file, opened) = SaveFile::open(&path);
    let Opened::Problem(message) = opened else {
        panic!("{opened:?}")
    };
    let aside = files_starting(&dir, "position.json.damaged-");
    assert_eq!(aside.len(), 1, "{message}");
    assert!(message.contains("is damaged"), "{message}");
    assert!(
        message.contains(&aside[0].display().to_string()),
        "{message}"
    );
    assert_eq!(std::fs::read_to_string(&aside[0]).unwrap(), "{ not json");
    assert_eq!(file.save(&named("new")), Ok(None));
    assert_eq!(std::fs::read_to_string(&aside[0]).unwrap(), "{ not json");
}

#[test]
fn an_oversized_file_is_not_read_into_memory_and_is_moved_aside() {
    let dir = temp_dir("big");
    let path = dir.join("position.json");
    std::fs::write(&path, vec![b' '; MAX_SAVE_BYTES as usize + 1]).unwrap();
    let (_, opened) = SaveFile::open(&path);
    let Opened::Problem(message) = opened else {
        panic!("{opened:?}")
    };
    assert!(message.contains("more than the 1048576"), "{message}");
    assert_eq!(files_starting(&dir, "position.json.damaged-").len(), 1);
}

#[cfg(unix)]
#[test]
fn a_fifo_in_place_of_the_save_file_is_refused_without_blocking() {
    let dir = temp_dir("fifo");
    let path = dir.join("position.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .unwrap();
    assert!(made.success());
    let (tx, rx) = std::sync::mpsc::channel();
    let p = path.clone();
    std::thread::spawn(move || {
        let (mut file, opened) = SaveFile::open(&p);
        let saved = file.save(&named("x"));
        tx.send((opened, saved)).unwrap();
    });
    let (opened, saved) = rx
        .recv_timeout(Duration::from_secs(5))
        .expect("opening a FIFO save file blocked");
    let Opened::Problem(message) = opened else {
        panic!("{opened:?}")
    };
    assert!(
        message.contains("is not a regular file (a FIFO)"),
        "{message}"
    );
    assert!(
        saved
            .unwrap_err()
            .to_string()
            .contains("not a regular file")
    );
    use std::os::unix::fs::FileTypeExt;
    assert!(
        std::fs::metadata(&path).unwrap().file_type().is_fifo(),
        "left alone"
    );
}

/// One editor's saves, in a process of its own: run by the test below
/// through this test binary (`BGEDIT_SAVE_WRITER=<path>:<who>`); does
/// nothing when run on its own.
#[test]
fn writer_process() {
    let Ok(spec) = std::env::var("BGEDIT_SAVE_WRITER") else {
        return;
    };
    let (path, who) = spec.rsplit_once(':').unwrap();
    let (mut file, _) = SaveFile::open(Path::new(path));
    for i in 0..300 {
        file.save(&named(&format!("{who}{i}")))
            .unwrap_or_else(|e| panic!("editor {who} save {i}: {e}"));
    }
}

#[test]
fn two_editor_processes_saving_at_once_never_fail_and_never_show_a_partial_file() {
    let dir = temp_dir("processes");
    let path = dir.join("position.json");
    SaveFile::open(&path).0.save(&named("start")).unwrap();
    let exe = std::env::current_exe().unwrap();
    let writers: Vec<_> = ["a", "b"]
        .into_iter()
        .map(|who| {
            std::process::Command::new(&exe)
                .args(["--exact", "writer_process", "--test-threads", "1"])
                .env("BGEDIT_SAVE_WRITER", format!("{}:{who}", path.display()))
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut reads = 0;
    let mut running = writers;
    let mut results = Vec::new();
    while !running.is_empty() {
        let text = std::fs::read_to_string(&path).expect("the save file is always there");
        json::decode(text.trim()).unwrap_or_else(|e| panic!("a reader saw {text:?}: {e}"));
        reads += 1;
        let mut still = Vec::new();
        for mut w in running {
            match w.try_wait().unwrap() {
                Some(_) => results.push(w.wait_with_output().unwrap()),
                None => still.push(w),
            }
        }
        running = still;
    }
    for out in results {
        assert!(
            out.status.success(),
            "a writer failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(reads > 0);
    assert!(
        files_starting(&dir, ".position.json").is_empty(),
        "no temporary left"
    );
}
