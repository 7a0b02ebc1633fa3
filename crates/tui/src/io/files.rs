//! The effects that read or write files, each a job (`io/job.rs`) so the
//! event loop never waits on a disk (a slow network mount, a large match
//! file, a picture drawn): reading a match file, listing a directory for
//! Tab, reading a MET file, writing the analysed SGF, saving a picture.
//! Their answers are the actions the runtime always sent; a panic in one
//! is one of them too, saying so. The save file (`persist.rs`) and the
//! config stay on the event loop: see `runtime.rs`.

use super::clipboard::Images;
use super::job::{self, Deliver, Job};
use super::picture_file;
use crate::action::{Action, CopyAction};
use crate::copy_menu::state::PictureError;
use crate::match_review::state::{MatchLuckOf, OpenError, ReviewAction};
use crate::numbers::state::{MetHandle, NumbersAction};
use bgedit_core::domain::Position;
use bgedit_core::domain::met::MetError;
use bgedit_engine::match_analysis::Judged;
use std::sync::Arc;
use std::time::Duration;

/// Each kind of file work, the newest of a kind wanted.
pub(crate) struct Files {
    open_match: Job,
    list_directory: Job,
    load_met: Job,
    save_sgf: Job,
    save_picture: Job,
}

/// The match file to write as an analysed SGF (`Effect::SaveSgf`).
pub(crate) struct SgfToSave {
    pub source: String,
    pub pasted: Option<Arc<str>>,
    pub out: String,
    pub judged: Vec<Judged>,
    pub luck: Option<MatchLuckOf>,
    pub decisions: usize,
    /// Whether a file already there may be written over.
    pub replace: bool,
}

impl Files {
    pub(crate) fn new(deliver: &Deliver) -> Files {
        let job = |name| Job::new(name, Arc::clone(deliver));
        Files {
            open_match: job("bgedit-open-match"),
            list_directory: job("bgedit-list-directory"),
            load_met: job("bgedit-met"),
            save_sgf: job("bgedit-save-sgf"),
            save_picture: job("bgedit-picture"),
        }
    }

    /// Reads and replays a match file: `ReviewAction::Opened`.
    pub(crate) fn open_match(&self, path: String) {
        let shown = path.clone();
        let work = move || {
            let loaded = crate::match_review::open::load(&path).map(Box::new);
            Action::Review(ReviewAction::Opened(loaded))
        };
        let failed = move |why| {
            let reason = format!("reading it stopped on an internal error ({why})");
            let e = OpenError {
                path: shown,
                reason,
            };
            vec![Action::Review(ReviewAction::Opened(Err(e)))]
        };
        self.open_match.run(work, failed);
    }

    /// The directory of a path being typed: `ReviewAction::Completed`.
    pub(crate) fn list_directory(&self, typed: String) {
        let work = move || {
            let entries = list_directory(&typed);
            Action::Review(ReviewAction::Completed { typed, entries })
        };
        self.list_directory
            .run(work, job::failed("listing the directory"));
    }

    /// Reads a gnubg MET file: `NumbersAction::MetLoaded`.
    pub(crate) fn load_met(&self, path: String) {
        let shown = path.clone();
        let work = move || {
            let met = bgedit_core::codec::met_xml::load_file(std::path::Path::new(&path));
            Action::Numbers(NumbersAction::MetLoaded(met.map(MetHandle::new)))
        };
        let failed = move |why| {
            let e = MetError::Unreadable {
                path: shown.clone(),
                error: format!("reading stopped on an internal error ({why})"),
            };
            vec![Action::Numbers(NumbersAction::MetLoaded(Err(e)))]
        };
        self.load_met.run(work, failed);
    }

    /// Writes the match with its verdicts as gnubg's SGF:
    /// `ReviewAction::SgfSaved`; a file of that name not to be replaced is
    /// left as it is and answered with `ReviewAction::SgfExists`.
    pub(crate) fn save_sgf(&self, sgf: SgfToSave) {
        let work = move || {
            use bgedit_engine::match_analysis::annotate::{SavedFrom, save_sgf};
            // A dangling link is a name taken too.
            if !sgf.replace && std::fs::symlink_metadata(&sgf.out).is_ok() {
                return Action::Review(ReviewAction::SgfExists(sgf.out));
            }
            let result = save_sgf(
                SavedFrom::of(&sgf.source, sgf.pasted.as_deref()),
                std::path::Path::new(&sgf.out),
                &sgf.judged,
                sgf.luck.as_ref().map(|l| &*l.0),
                sgf.decisions,
            );
            Action::Review(ReviewAction::SgfSaved(result.map(|()| sgf.out)))
        };
        self.save_sgf
            .run(work, job::failed("saving the match as SGF"));
    }

    /// Draws the position as a PNG, saves it and copies it as an image
    /// where the clipboard takes images: `CopyAction::PictureSaved`.
    pub(crate) fn save_picture(&self, position: Position, images: Images) {
        let work = move || {
            let saved = picture_file::save(&position, |w, h, rgba| images.copy(w, h, rgba));
            Action::Copy(CopyAction::PictureSaved(saved))
        };
        let failed = |why| {
            let e = PictureError::Render {
                reason: format!("drawing it stopped on an internal error ({why})"),
            };
            vec![Action::Copy(CopyAction::PictureSaved(Err(e)))]
        };
        self.save_picture.run(work, failed);
    }

    /// Waits at most `within` for the files being written (an SGF, a
    /// picture): the user expects them there once the editor is gone.
    /// Whether they all were. Files being read are not waited for: nobody
    /// is left to show them.
    pub(crate) fn finish_writes(&self, within: Duration) -> bool {
        let sgf = self.save_sgf.finish(within);
        sgf && self.save_picture.finish(within)
    }
}

/// The names in the directory of a path being typed (`~/` is the home
/// directory), with whether each is a directory; at most 5,000.
fn list_directory(typed: &str) -> Vec<(String, bool)> {
    let expanded = match typed.strip_prefix("~/") {
        Some(rest) => match std::env::var_os("HOME") {
            Some(home) => format!("{}/{rest}", home.to_string_lossy()),
            None => typed.to_owned(),
        },
        None => typed.to_owned(),
    };
    let dir = match expanded.rfind('/') {
        Some(0) => "/".to_owned(),
        Some(i) => expanded[..i].to_owned(),
        None => ".".to_owned(),
    };
    let Ok(read) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    read.filter_map(std::result::Result::ok)
        .take(5000)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let is_dir = e.file_type().map(|t| t.is_dir()).unwrap_or(false)
                || std::fs::metadata(e.path())
                    .map(|m| m.is_dir())
                    .unwrap_or(false);
            Some((name, is_dir))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Instant;

    /// File work asked for returns at once, and its answer comes later
    /// through the channel (the editor's pseudo-terminal tests show the
    /// event loop going on while a MET file is slow to read).
    #[test]
    fn a_file_being_read_answers_later_through_the_channel() {
        let (tx, answers) = mpsc::channel();
        let deliver: Deliver = Arc::new(move |a| tx.send(a).is_ok());
        let files = Files::new(&deliver);
        let met = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/met/woolsey.xml"
        );
        let asked = Instant::now();
        files.load_met(met.to_owned());
        files.list_directory(format!("{}/", env!("CARGO_MANIFEST_DIR")));
        assert!(asked.elapsed() < Duration::from_secs(1));
        let mut got = Vec::new();
        for _ in 0..2 {
            got.push(answers.recv_timeout(Duration::from_secs(20)).unwrap());
        }
        assert!(
            got.iter().any(|a| matches!(
                a,
                Action::Numbers(NumbersAction::MetLoaded(Ok(m))) if m.0.name.contains("Woolsey")
            )),
            "{got:?}"
        );
        assert!(
            got.iter().any(|a| matches!(
                a,
                Action::Review(ReviewAction::Completed { entries, .. })
                    if entries.contains(&("src".to_owned(), true))
            )),
            "{got:?}"
        );
    }

    /// `W` onto a file already there (a deeper analysis saved earlier)
    /// writes nothing and answers that it exists; told to replace it, the
    /// match is written over it.
    #[test]
    fn a_saved_match_replaces_a_file_only_when_told() {
        let (tx, answers) = mpsc::channel();
        let deliver: Deliver = Arc::new(move |a| tx.send(a).is_ok());
        let files = Files::new(&deliver);
        let dir = tempfile::tempdir().unwrap();
        let source = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/mat/selfplay_1pt_seed37.mat"
        );
        let out = dir.path().join("earlier.analysed.sgf");
        std::fs::write(&out, "a deeper analysis").unwrap();
        let file = bgedit_core::codec::match_file::read_path(std::path::Path::new(source)).unwrap();
        let decisions = bgedit_core::codec::match_file::decisions(&file).0.len();
        let save = |replace| SgfToSave {
            source: source.to_owned(),
            pasted: None,
            out: out.display().to_string(),
            judged: Vec::new(),
            luck: None,
            decisions,
            replace,
        };
        files.save_sgf(save(false));
        let answer = answers.recv_timeout(Duration::from_secs(20)).unwrap();
        assert_eq!(
            answer,
            Action::Review(ReviewAction::SgfExists(out.display().to_string()))
        );
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "a deeper analysis");
        files.save_sgf(save(true));
        let answer = answers.recv_timeout(Duration::from_secs(20)).unwrap();
        assert_eq!(
            answer,
            Action::Review(ReviewAction::SgfSaved(Ok(out.display().to_string())))
        );
        assert!(std::fs::read_to_string(&out).unwrap().starts_with("(;"));
    }
}
