//! Saving the picture of the position (`I`), at the edge of the app: the PNG
//! goes to `$XDG_DATA_HOME/bgedit/pictures/` (`~/.local/share/...`; set
//! `BGEDIT_PICTURE_DIR` to move it), or to the current directory when there
//! is no data directory, named after the GNUBG ID so each position has its
//! own file.

use crate::copy_menu::state::{ClipboardError, PictureError, PictureSaved};
use bgedit_core::domain::Position;
use bgedit_picture::{Options, Theme, png};
use std::path::PathBuf;

/// Where pictures are saved.
pub(crate) fn directory() -> PathBuf {
    if let Some(dir) = std::env::var_os("BGEDIT_PICTURE_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    match dirs::data_dir() {
        Some(d) => d.join("bgedit").join("pictures"),
        None => PathBuf::from("."),
    }
}

pub(crate) use bgedit_picture::file_name;

/// Draws and writes the PNG; `copy` is offered the RGBA pixels (width,
/// height, bytes) to put on the clipboard.
pub(crate) fn save(
    position: &Position,
    copy: impl FnOnce(usize, usize, Vec<u8>) -> Result<(), ClipboardError>,
) -> Result<PictureSaved, PictureError> {
    let options = Options::natural(Theme::Light, true);
    let bytes = png::render(position, &options).map_err(|e| PictureError::Render {
        reason: e.to_string(),
    })?;
    let dir = directory();
    let unwritable = |path: &std::path::Path, e: std::io::Error| PictureError::Write {
        path: path.display().to_string(),
        reason: e.to_string(),
    };
    std::fs::create_dir_all(&dir).map_err(|e| unwritable(&dir, e))?;
    let path = dir.join(file_name(position));
    let tmp = path.with_extension("png.tmp");
    std::fs::write(&tmp, &bytes)
        .and_then(|()| std::fs::rename(&tmp, &path))
        .map_err(|e| unwritable(&path, e))?;
    let rgba = png::render_rgba(position, &options).map_err(|e| PictureError::Render {
        reason: e.to_string(),
    })?;
    let copied = copy(options.width as usize, options.height as usize, rgba);
    Ok(PictureSaved {
        path: path.display().to_string(),
        copied,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_have_no_slashes() {
        let p = Position::default();
        assert_eq!(file_name(&p), "bgedit-4HPwATDgc_ABMA_cAkAAAAAAAAA.png");
    }
}
