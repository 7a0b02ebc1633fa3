//! PNG pictures: the SVG rendered with resvg. The font is bundled (DejaVu
//! Sans Mono Bold, under its free licence in `assets/fonts/`) and is the only
//! one resvg's font database holds, so text renders the same everywhere and
//! never depends on the system's fonts.

use super::{Options, svg};
use bgedit_core::domain::Position;
use resvg::{tiny_skia, usvg};

static FONT: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSansMono-Bold.ttf");

/// Why a picture could not be made.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// resvg could not read the SVG written for the board.
    #[error("drawing: {0}")]
    Drawing(usvg::Error),
    #[error("no picture of {width}x{height}")]
    Size { width: u32, height: u32 },
    /// The PNG encoder's own words: its error type is not one this crate
    /// can name (tiny-skia does not re-export `png`).
    #[error("PNG: {0}")]
    Encoding(String),
}

fn pixmap(position: &Position, options: &Options) -> Result<tiny_skia::Pixmap, RenderError> {
    let svg_text = svg::render(position, options);
    let mut opt = usvg::Options {
        font_family: svg::FONT_FAMILY.to_owned(),
        ..usvg::Options::default()
    };
    opt.fontdb_mut().load_font_data(FONT.to_vec());
    let tree = usvg::Tree::from_str(&svg_text, &opt).map_err(RenderError::Drawing)?;
    let mut pixmap =
        tiny_skia::Pixmap::new(options.width, options.height).ok_or(RenderError::Size {
            width: options.width,
            height: options.height,
        })?;
    // The SVG's own width and height are the size asked for; its view box
    // scales the drawing into it.
    resvg::render(
        &tree,
        tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// Renders `position` as PNG bytes of `options.width` × `options.height`.
pub fn render(position: &Position, options: &Options) -> Result<Vec<u8>, RenderError> {
    pixmap(position, options)?
        .encode_png()
        .map_err(|e| RenderError::Encoding(e.to_string()))
}

/// The picture as straight (not premultiplied) RGBA pixels, row by row, as
/// clipboards take images.
pub fn render_rgba(position: &Position, options: &Options) -> Result<Vec<u8>, RenderError> {
    let pixmap = pixmap(position, options)?;
    Ok(pixmap
        .pixels()
        .iter()
        .flat_map(|p| {
            let c = p.demultiply();
            [c.red(), c.green(), c.blue(), c.alpha()]
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_picture_of_no_pixels_is_refused_as_before() {
        let options = Options {
            width: 0,
            height: 560,
            ..Options::default()
        };
        // resvg refuses the SVG of no width before a pixmap is asked for.
        let e = render(&Position::default(), &options).unwrap_err();
        assert!(matches!(e, RenderError::Drawing(_)), "{e:?}");
        assert_eq!(
            e.to_string(),
            format!("drawing: {}", usvg::Error::InvalidSize)
        );
        let size = RenderError::Size {
            width: 0,
            height: 560,
        };
        assert_eq!(size.to_string(), "no picture of 0x560");
    }
}
