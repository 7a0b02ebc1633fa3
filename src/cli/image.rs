//! `bgedit image`: one position drawn as an SVG or PNG file.

use super::files;
use super::shared_args::NameArgs;
use bgedit_core::codec;
use bgedit_core::domain::{Names, Position};
use bgedit_picture::{Options, Theme};
use clap::ValueEnum;

#[derive(clap::Args, Debug, Clone)]
pub struct ImageArgs {
    /// svg or png; by default from the -o file's extension, else svg.
    #[arg(long, value_enum)]
    pub format: Option<ImageFormat>,
    /// The picture's size in pixels, WIDTHxHEIGHT (default 800x600).
    #[arg(long, value_name = "WxH")]
    pub size: Option<String>,
    #[arg(long, value_enum, default_value = "light")]
    pub theme: ImageTheme,
    /// Write the GNUBG ID and XGID under the board.
    #[arg(long)]
    pub ids: bool,
    /// Where to write; standard output when absent or `-`.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<String>,
    #[command(flatten)]
    pub names: NameArgs,
    /// The position, in any accepted format (an SGF or XG text file's whole
    /// text too); standard input when absent.
    #[arg(allow_hyphen_values = true)]
    pub id: Option<String>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageFormat {
    Svg,
    Png,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImageTheme {
    Light,
    Dark,
}

/// `bgedit image`: draws the position and writes the picture.
pub fn run(args: &ImageArgs) -> std::process::ExitCode {
    use std::io::Write;
    use std::process::ExitCode;
    let picture = match make(args) {
        Ok(p) => p,
        Err(e) => {
            bgedit_core::say!("bgedit: {e}");
            return ExitCode::from(1);
        }
    };
    match &picture.path {
        Some(path) => match std::fs::write(path, &picture.bytes) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                bgedit_core::say!("bgedit: {path}: {e}");
                ExitCode::from(1)
            }
        },
        None => match std::io::stdout().lock().write_all(&picture.bytes) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) if super::output::is_broken_pipe(&e) => super::output::write_failed(&e),
            Err(e) => {
                bgedit_core::say!("bgedit: standard output: {e}");
                ExitCode::from(1)
            }
        },
    }
}

/// What to write and where.
pub(crate) struct Picture {
    pub bytes: Vec<u8>,
    /// `None` for standard output.
    pub path: Option<String>,
}

/// The picture's format: the file's extension decides it (a picture in the
/// wrong format under a `.jpg` name is worse than an error), `--format` may
/// say it only where the name has no extension or agrees.
fn format_for(path: Option<&str>, asked: Option<ImageFormat>) -> Result<ImageFormat, ImageError> {
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
            return Err(ImageError::Extension {
                path: path.to_owned(),
                extension: other.to_owned(),
            });
        }
    };
    match (by_name, asked) {
        (Some(n), Some(a)) if n != a => Err(ImageError::Disagree {
            path: path.to_owned(),
            named: name_of(n),
            asked: name_of(a),
        }),
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

/// Why no picture was made: each names what is wrong.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ImageError {
    #[error("standard input: {0}")]
    Input(#[from] files::FileError),
    #[error(
        "{}: bgedit draws SVG and PNG pictures, not .{}; name the file .svg or .png",
        bgedit_core::quote::Clipped(path),
        bgedit_core::quote::Clipped(extension)
    )]
    Extension { path: String, extension: String },
    #[error(
        "{}: the name says {named} but --format says {asked}",
        bgedit_core::quote::Clipped(path)
    )]
    Disagree {
        path: String,
        named: &'static str,
        asked: &'static str,
    },
    #[error(transparent)]
    Id(#[from] codec::IdError),
    #[error(transparent)]
    Size(#[from] bgedit_picture::SizeError),
    #[error(transparent)]
    Render(#[from] bgedit_picture::png::RenderError),
}

/// Reads the position and draws it; every error names what is wrong.
pub(crate) fn make(args: &ImageArgs) -> Result<Picture, ImageError> {
    let text = match &args.id {
        Some(id) if id != "-" => id.clone(),
        _ => files::read_text("-")?,
    };
    let base = Position {
        names: Names {
            o: args.names.name_o.clone(),
            x: args.names.name_x.clone(),
        },
        ..Position::default()
    };
    let position = codec::parse_any(&text, &base)?.position;
    let path = args.output.clone().filter(|p| p != "-");
    let format = format_for(path.as_deref(), args.format)?;
    let theme = match args.theme {
        ImageTheme::Light => Theme::Light,
        ImageTheme::Dark => Theme::Dark,
    };
    let mut options = Options::natural(theme, args.ids);
    if let Some(size) = &args.size {
        (options.width, options.height) = bgedit_picture::parse_size(size)?;
    }
    let bytes = match format {
        ImageFormat::Svg => bgedit_picture::svg::render(&position, &options).into_bytes(),
        ImageFormat::Png => bgedit_picture::png::render(&position, &options)?,
    };
    Ok(Picture { bytes, path })
}
