//! `bgedit image`: one position drawn as an SVG or PNG file.

use super::args::{ImageArgs, ImageFormat, ImageTheme};
use super::files;
use crate::codec;
use crate::domain::{Names, Position};
use crate::picture::{self, Options, Theme};

/// `bgedit image`: draws the position and writes the picture.
pub fn run(args: &ImageArgs) -> std::process::ExitCode {
    use std::io::Write;
    use std::process::ExitCode;
    let picture = match make(args) {
        Ok(p) => p,
        Err(e) => {
            crate::say!("bgedit: {e}");
            return ExitCode::from(1);
        }
    };
    match &picture.path {
        Some(path) => match std::fs::write(path, &picture.bytes) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                crate::say!("bgedit: {path}: {e}");
                ExitCode::from(1)
            }
        },
        None => match std::io::stdout().lock().write_all(&picture.bytes) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) if super::output::is_broken_pipe(&e) => super::output::write_failed(&e),
            Err(e) => {
                crate::say!("bgedit: standard output: {e}");
                ExitCode::from(1)
            }
        },
    }
}

/// What to write and where.
pub struct Picture {
    pub bytes: Vec<u8>,
    /// `None` for standard output.
    pub path: Option<String>,
}

/// The picture's format: the file's extension decides it (a picture in the
/// wrong format under a `.jpg` name is worse than an error), `--format` may
/// say it only where the name has no extension or agrees.
fn format_for(path: Option<&str>, asked: Option<ImageFormat>) -> Result<ImageFormat, String> {
    let Some(path) = path else {
        return Ok(asked.unwrap_or(ImageFormat::Svg));
    };
    let extension = std::path::Path::new(path)
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let by_name = match extension.as_deref() {
        Some("png") => Some(ImageFormat::Png),
        Some("svg") => Some(ImageFormat::Svg),
        None => None,
        Some(other) => {
            return Err(format!(
                "{}: bgedit draws SVG and PNG pictures, not .{}; name the file .svg or .png",
                crate::quote::Clipped(path),
                crate::quote::Clipped(other)
            ));
        }
    };
    match (by_name, asked) {
        (Some(n), Some(a)) if n != a => Err(format!(
            "{}: the name says {} but --format says {}",
            crate::quote::Clipped(path),
            name_of(n),
            name_of(a)
        )),
        (Some(n), _) => Ok(n),
        (None, a) => Ok(a.unwrap_or(ImageFormat::Svg)),
    }
}

fn name_of(f: ImageFormat) -> &'static str {
    match f {
        ImageFormat::Svg => "SVG",
        ImageFormat::Png => "PNG",
    }
}

/// Reads the position and draws it; every error names what is wrong.
pub fn make(args: &ImageArgs) -> Result<Picture, String> {
    let text = match &args.id {
        Some(id) if id != "-" => id.clone(),
        _ => files::read_text("-").map_err(|e| format!("standard input: {e}"))?,
    };
    let base = Position {
        names: Names {
            o: args.names.name_o.clone(),
            x: args.names.name_x.clone(),
        },
        ..Position::default()
    };
    let position = codec::parse_any(&text, &base)
        .map_err(|e| e.to_string())?
        .position;
    let path = args.output.clone().filter(|p| p != "-");
    let format = format_for(path.as_deref(), args.format)?;
    let theme = match args.theme {
        ImageTheme::Light => Theme::Light,
        ImageTheme::Dark => Theme::Dark,
    };
    let mut options = Options::natural(theme, args.ids);
    if let Some(size) = &args.size {
        (options.width, options.height) = picture::parse_size(size)?;
    }
    let bytes = match format {
        ImageFormat::Svg => picture::svg::render(&position, &options).into_bytes(),
        ImageFormat::Png => picture::png::render(&position, &options)?,
    };
    Ok(Picture { bytes, path })
}
