//! `library export`: the entries a filter matches (all when none) as XGIDs,
//! gnubg IDs, JSON Lines, CSV or Anki notes (with `--media`, each position
//! drawn as a PNG beside them).

use super::Failure;
use super::progress::Progress;
use bgedit_core::domain::Position;
use bgedit_library::export::{self, ExportFormat};
use bgedit_library::filter;
use bgedit_library::store::{self, Library};
use clap::ValueEnum;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Why an export stopped before its first entry, or at a picture.
#[derive(Debug, thiserror::Error)]
pub(super) enum ExportError {
    #[error("--media is for --format anki (the notes' pictures)")]
    MediaWithoutAnki,
    #[error("{}: {error}", dir.display())]
    MediaFolder { dir: PathBuf, error: io::Error },
    #[error("{}: {error}", path.display())]
    Draw {
        path: PathBuf,
        error: bgedit_picture::png::RenderError,
    },
    #[error("{}: {error}", path.display())]
    Write { path: PathBuf, error: io::Error },
}

// No doc comment: the subcommand's help is its variant's in `mod.rs`.
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    #[arg(long, value_enum, default_value = "xgid")]
    format: ExportArg,
    /// With `--format anki`: draw each position as a PNG (as `bgedit
    /// image` draws it) into this folder (Anki's `collection.media`,
    /// or one whose files are copied there); the notes show the
    /// pictures instead of text boards.
    #[arg(long, value_name = "DIR")]
    media: Option<PathBuf>,
    #[arg(allow_hyphen_values = true)]
    query: Vec<String>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportArg {
    Xgid,
    Gnubg,
    Jsonl,
    Csv,
    Anki,
}

impl From<ExportArg> for ExportFormat {
    fn from(f: ExportArg) -> ExportFormat {
        match f {
            ExportArg::Xgid => ExportFormat::Xgid,
            ExportArg::Gnubg => ExportFormat::Gnubg,
            ExportArg::Jsonl => ExportFormat::Jsonl,
            ExportArg::Csv => ExportFormat::Csv,
            ExportArg::Anki => ExportFormat::Anki,
        }
    }
}

/// Exports the entries the filter matches to standard output.
pub(super) fn run(lib: &Library, args: ExportArgs, out: &mut impl Write) -> Result<u8, Failure> {
    export_entries(
        lib,
        &args.query.join(" "),
        args.format.into(),
        args.media.as_deref(),
        out,
    )
}

fn export_entries(
    lib: &Library,
    query: &str,
    format: ExportFormat,
    media: Option<&Path>,
    out: &mut impl Write,
) -> Result<u8, Failure> {
    if media.is_some() && format != ExportFormat::Anki {
        return Err(ExportError::MediaWithoutAnki.into());
    }
    if let Some(dir) = media {
        std::fs::create_dir_all(dir).map_err(|error| ExportError::MediaFolder {
            dir: dir.to_owned(),
            error,
        })?;
    }
    let options = bgedit_picture::Options::natural(bgedit_picture::Theme::Light, false);
    let mut picture_error = None;
    let query = filter::parse(query)?;
    let mut bar = Progress::new("exporting", lib.count(&query)?);
    out.write_all(export::header(format).as_bytes())?;
    let mut buf = String::new();
    let mut n = 0;
    let mut write_error = None;
    lib.for_each(&query, |entry| {
        buf.clear();
        let picture = match media {
            None => None,
            Some(dir) => {
                let name = bgedit_picture::file_name(&entry.position);
                let path = dir.join(&name);
                if let Err(e) = picture(&entry.position, &options, path) {
                    picture_error = Some(e);
                    return Err(store::LibraryError::Io("picture not written".to_owned()));
                }
                Some(name)
            }
        };
        export::write_entry_with(&mut buf, &entry, format, picture.as_deref());
        if let Err(e) = out.write_all(buf.as_bytes()) {
            write_error = Some(e);
            return Err(store::LibraryError::Io("output closed".to_owned()));
        }
        n += 1;
        bar.set(n);
        Ok(())
    })
    .map_err(|e| match (write_error.take(), picture_error.take()) {
        (Some(w), _) => Failure::from(w),
        (None, Some(p)) => Failure::from(p),
        (None, None) => Failure::from(e),
    })?;
    bar.finish();
    Ok(0)
}

/// The position drawn as a PNG into `path`.
fn picture(
    position: &Position,
    options: &bgedit_picture::Options,
    path: PathBuf,
) -> Result<(), ExportError> {
    let png =
        bgedit_picture::png::render(position, options).map_err(|error| ExportError::Draw {
            path: path.clone(),
            error,
        })?;
    std::fs::write(&path, png).map_err(|error| ExportError::Write { path, error })
}
