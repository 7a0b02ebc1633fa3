//! `bgedit image`: one position drawn as an SVG or PNG file.

use super::args::{ImageArgs, ImageFormat, ImageTheme};
use super::files;
use crate::codec;
use crate::domain::{Names, Position};
use crate::picture::{self, Options, Theme};

/// What to write and where.
pub struct Picture {
    pub bytes: Vec<u8>,
    /// `None` for standard output.
    pub path: Option<String>,
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
    let format = args.format.unwrap_or_else(|| match &path {
        Some(p) if p.to_ascii_lowercase().ends_with(".png") => ImageFormat::Png,
        _ => ImageFormat::Svg,
    });
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
